// SPDX-License-Identifier: GPL-2.0-or-later
#include "sim_batch.h"

static struct {
	int count;
	int steady; /* boundaries passed when the first exit began; -1: none yet */
	long next;  /* units done at the next boundary (0: not yet computed) */
	long units[SIM_BATCH_N];
	sim_time_t fig[SIM_BATCH_N][SIM_BATCH_FIGS];
	sim_batch_figures_fn figures;
} B;

void sim_batch_reset(sim_batch_figures_fn figures)
{
	B.figures = figures;
	B.count = 0;
	B.steady = -1;
	B.next = 0;
}

/* The figures now (the engine's, B.figures), and the units done then. */
static void snapshot(long done)
{
	B.figures(B.fig[B.count]);
	B.units[B.count++] = done;
}

/* The boundaries are taken from @planned once the work starts: every
 * workload plans at its setup, before any is done. */
static long boundary(int i, long planned)
{
	return planned * i / SIM_BATCH_N; /* planned < 2^56: no overflow */
}

void sim_batch_work(long done, long planned)
{
	if (B.count == SIM_BATCH_N || planned < SIM_BATCH_N)
		return;
	if (!B.next)
		B.next = boundary(1, planned);
	while (B.count < SIM_BATCH_N && done >= B.next) {
		snapshot(done);
		B.next = boundary(B.count + 1, planned);
	}
}

int sim_batch_count(void)
{
	return B.count;
}

void sim_batch_steady_end(void)
{
	if (B.steady < 0)
		B.steady = B.count;
}

int sim_batch_steady(void)
{
	return B.steady < 0 ? B.count : B.steady;
}

long sim_batch_units(int i)
{
	return B.units[i];
}

sim_time_t sim_batch_fig(int i, enum sim_batch_fig fig)
{
	return B.fig[i][fig];
}

// SPDX-License-Identifier: GPL-2.0-or-later
#include "sim_batch.h"
#include "sim_smt.h"

static struct {
	int count;
	int steady; /* boundaries passed when the first exit began; -1: none yet */
	long next;  /* units done at the next boundary (0: not yet computed) */
	long units[SIM_BATCH_N];
	sim_time_t fig[SIM_BATCH_N][SIM_BATCH_FIGS];
} B;

void sim_batch_reset(void)
{
	B.count = 0;
	B.steady = -1;
	B.next = 0;
}

/* The figures now: the engine's time and what the CPUs have accounted so
 * far (a task's own charges may run ahead of the engine's time: the
 * increments still add up to the run's totals, which is all the batch
 * means need). An idle span is accounted only when it ends, so idle is
 * taken as the rest, the CPUs' time to now less the busy categories: at
 * the run's end that is the idle time exactly (the categories add up). */
static void snapshot(long done)
{
	sim_time_t *f = B.fig[B.count], busy = 0;
	f[SIM_BATCH_ELAPSED] = sim_now();
	for (int cat = 0; cat < SIM_CAT_N; cat++) {
		sim_time_t total = 0;
		for (int c = 0; c < sim_ncpus() && cat != SIM_CAT_IDLE; c++)
			total += sim_cpu_time(c, (enum sim_cat)cat);
		f[SIM_BATCH_CPU + cat] = total;
		busy += total;
	}
	f[SIM_BATCH_CPU + SIM_CAT_IDLE] = sim_now() * sim_ncpus() - busy;
	f[SIM_BATCH_SMT] = sim_smt_active() ? sim_smt_stretch_total() : 0;
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

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sim_batch: a run to completion's work cut into SIM_BATCH_N batches of
 * equal work, for the batch-means interval of its figures (docs/results.md,
 * "Batch means within the run").
 *
 * The workloads that say their work (sim_work_plan, sim_work_done: memhog's
 * pages) pass boundary i (1..SIM_BATCH_N) when the units done reach
 * planned * i / SIM_BATCH_N; there the module takes a snapshot of the
 * engine's time and of the cumulative figures a run to completion reports
 * (the CPU time of each category summed over CPUs, the SMT stretch). It
 * only reads the engine's state, at most SIM_BATCH_N times a run, and
 * makes no engine call: the simulation is the same with it. A snapshot's
 * figures are cumulative; the analysis takes the increments. */
#pragma once
#include "sim_engine.h"
#include <stdbool.h>

/* Fine batches: 100 make 20 batches of 5 for MSER-5 and the batch means
 * (Schmeiser 1982: 10 to 30 batches), and cost nothing a run. */
#define SIM_BATCH_N 100

/* What a snapshot holds, in this order. */
enum sim_batch_fig {
	SIM_BATCH_ELAPSED, /* the engine's time */
	SIM_BATCH_CPU,	   /* + enum sim_cat: the CPU time of that category */
	SIM_BATCH_SMT = SIM_BATCH_CPU + SIM_CAT_N,
	SIM_BATCH_FIGS
};

/* The figures now, into @f[SIM_BATCH_FIGS]: the engine's, which it gives
 * sim_batch_reset. */
typedef void (*sim_batch_figures_fn)(sim_time_t *f);
/* For sim_engine_init: no batch passed yet; snapshots from @figures. */
void sim_batch_reset(sim_batch_figures_fn figures);
/* The units done reached @done of @planned (sim_work_done): a snapshot for
 * each boundary passed. */
void sim_batch_work(long done, long planned);
/* Boundaries passed so far (SIM_BATCH_N once the planned work is done). */
int sim_batch_count(void);
/* The first task to finish its work begins its exit (sim_work_exit): the
 * steady part ends at the boundaries passed by then. */
void sim_batch_steady_end(void);
/* Boundaries passed before the first exit began (the count, if none has). */
int sim_batch_steady(void);
/* The units done when boundary @i (0-based) was passed. */
long sim_batch_units(int i);
/* Figure @fig at boundary @i (0-based). */
sim_time_t sim_batch_fig(int i, enum sim_batch_fig fig);

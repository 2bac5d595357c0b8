/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run: one simulation, from a scenario's decoded configuration to the
 * replica's result (docs/results.md).
 *
 * The loader (loader/) turns a scenario file, its --set overrides and one
 * variant into a struct run_config, once; run_simulate() builds the engine
 * and the models from it, runs, collects the figures and tears everything
 * down. What the models keep in file-scope state for the run (the engine,
 * the memcg tree, the shrinkers, swap, RCU, lockdep, the lock classes) is
 * set up and torn down by run.c alone, in one place. */
#pragma once
#include "run_config.h"
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

/* Before a run: at least how many simulated CPU-seconds it will take (its
 * horizon, *@horizon_ns: the stop's duration, or for a run to completion
 * the longest of its workloads' planned times, at most stop.limit_ns,
 * times the CPUs); -1 when no workload says (docs/scenario.md). A run
 * above RUN_MAX_CPU_S is refused unless forced. */
#define RUN_MAX_CPU_S 10000.0
double run_estimate_cpu_s(const struct run_config *cfg, double *horizon_ns);

/* The memory budget of one run's model objects: a scenario whose estimate
 * (the memcg section's parts and the workloads' memory_bytes, summed) is
 * past it is refused at validation (docs/scenario.md). */
#define RUN_MAX_MEMORY_BYTES (4.0 * 1024 * 1024 * 1024)

/* The most tasks a run may have: every task is a SimGrid actor, whose stack
 * takes two memory mappings, and past about 32,700 of them (vm.max_map_count,
 * 65530 by default) SimGrid aborts ("Failed to protect stack"). A scenario
 * whose workloads' tasks and the kernel's (run_kernel_tasks) pass it is
 * refused at validation (docs/scenario.md). */
#define RUN_MAX_TASKS 16384
/* At most how many tasks the run itself creates on @cfg's machine: an
 * interrupt task per CPU, a kswapd per node, the controller or watchdog. */
long run_kernel_tasks(const struct run_config *cfg);

/* The description of @name in this build (a "w<N>." prefix is ignored: the
 * first workload type that has the name says); a figure nobody describes is
 * taken as lower-is-better (a time when it ends in "_ns"), its meaning
 * RUN_METRIC_UNDESCRIBED. Reports read a result's own descriptions
 * (metric_info(), metrics.h); this is for results that have none. */
const struct run_metric *run_metric_find(const char *name);
#define RUN_METRIC_UNDESCRIBED "not described by the model (read as lower-is-better)"
/* The lock classes a run of @cfg (seed @seed) makes, in the order it makes
 * them (its set-up makes every one), each with the sites that took it in
 * its first @run_for of simulated time, most first (0: nothing is run):
 * [{"class": NAME, "lockdep_class": ITS KERNEL NAME (when not NAME),
 *   "taken_at": {SITE: COUNT, ...}}, ...]. */
json_t *run_lock_classes(const struct run_config *cfg, uint64_t seed, sim_time_t run_for);
/* A replica's "metric_info" (docs/results.md): each figure of @metrics, and
 * sys and spin time, with its unit, direction and meaning, from the
 * workload of @cfg that produced it. */
json_t *run_metric_info(const struct run_config *cfg, json_t *metrics);

/* A cost draw of a scenario (cost_draw(), cost.h). */
struct run_draw {
	uint64_t seed; /* the scenario's seed, the same for every variant */
	int index;     /* the draw */
};

/* Simulate @cfg with @seed, its costs drawn by @draw (NULL: as they are);
 * the replica's result, which for a draw also has "draw" (its index) and
 * "cost_draw" (every cost with a range, as drawn, in ns). *violation is set
 * when the run failed: it did not complete, lockdep found a deadlock, or the
 * list_lru checker found a violation. */
json_t *run_simulate(const struct run_config *cfg, uint64_t seed, const struct run_draw *draw,
		     bool *violation);

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
#include "cost.h"
#include "sim_irq.h"
#include "sim_machine.h"
#include "spec.h"
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

struct mm_params;
struct workload_type;
struct spinlock_ops;

/* The kernel section. */
struct kernel_params {
	const struct spinlock_ops *spinlock;
};
extern const struct spec kernel_params_spec;

struct run_workload {
	const struct workload_type *type;
	void *params; /* the type's decoded keys */
};

struct run_config {
	struct sim_machine machine;
	struct cost_range cost_range[SIM_MACHINE_MAX_COSTS];
	/* What each interrupt source is (name, rate, handler, CPUs); the run
	 * works on a copy, which gathers its statistics. */
	struct sim_irq_source *irqs;
	int nirqs;
	sim_time_t stop_at;    /* 0: when every workload task has finished */
	sim_time_t time_limit; /* a run to completion stops here */
	struct kernel_params *kernel;
	struct mm_params *memcg;
	struct run_workload *workloads;
	int nworkloads;
};

/* Before a run: at least how many simulated CPU-seconds it will take (its
 * horizon, *@horizon_ns: the stop's duration, or for a run to completion
 * the longest of its workloads' planned times, at most stop.limit_ns,
 * times the CPUs); -1 when no workload says (docs/scenario.md). A run
 * above RUN_MAX_CPU_S is refused unless forced. */
#define RUN_MAX_CPU_S 10000.0
double run_estimate_cpu_s(const struct run_config *cfg, double *horizon_ns);

/* What a figure of a result's "metrics" (or "cpu_time_ns.<category>") means
 * when designs are compared. Workload types describe their own figures. */
struct run_metric {
	const char *name;
	bool higher_is_better; /* a rate: compared by Hmean, else by Amean */
	const char *unit;      /* "ns", "/us" ...; "" for none */
};

/* The description of @name (a "w<N>." prefix is ignored); a figure nobody
 * describes is taken as lower-is-better (a time when it ends in "_ns"). */
const struct run_metric *run_metric_find(const char *name);

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

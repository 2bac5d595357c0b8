/* workload: what runs on the simulated machine, one table of operations per
 * workload type ("lockbench", ...). Adding a type touches its own file,
 * workload_specs.c (its scenario keys) and the table in workload.c. */
#pragma once
#include <jansson.h>
#include <stdbool.h>

struct workload_ops {
	const char *type;
	/* Create the workload's locks and tasks from its validated scenario
	 * object; @index is its position in "workloads". */
	void *(*setup)(json_t *w, int index);
	/* Add the workload's figures to @metrics once the run is over; NULL for a
	 * workload that reports only through the shared figures. */
	void (*metrics)(void *state, json_t *metrics);
	void (*destroy)(void *state);
};

const struct workload_ops *workload_ops_find(const char *type);
/* CPU of a workload's task @i: spread over the nodes (node i mod nodes), or
 * packed (CPU i); wraps around the machine's CPUs. */
int workload_cpu_for(int i, bool spread);
/* When each of a workload's @count tasks starts: uniform in [0, the
 * workload's "start_spread_ns"], drawn from the stream "<type>.<index>.start";
 * g_free the array. */
long long *workload_start_times(json_t *w, const char *type, int index, int count);
extern const struct workload_ops lockbench_ops;
extern const struct workload_ops memhog_ops;
extern const struct workload_ops fileread_ops;
extern const struct workload_ops cgchurn_ops;
extern const struct workload_ops readfault_ops;
extern const struct workload_ops movecharge_ops;
extern const struct workload_ops swapcycle_ops;
extern const struct workload_ops filewrite_ops;
extern const struct workload_ops kbuild_ops;

/* Run one simulation of a validated scenario document with @seed and return
 * its result (see docs/results.md); *violation is set when the run failed. */
json_t *workload_simulate(json_t *doc, unsigned long long seed, int *violation);

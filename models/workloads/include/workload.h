/* SPDX-License-Identifier: GPL-2.0-or-later */
/* workload: what runs on the simulated machine. A workload type is one file,
 * models/workloads/<name>.c, that defines `const struct workload_type <name>_workload`:
 * its scenario keys (a spec decoding into its parameter structure), its
 * checks, and its operations (struct workload_type, run_config.h); and one
 * line in the registry in workload.c.
 * The helpers below are what several types share. */
#pragma once
#include "run_config.h"
#include "sim_dist.h"
#include "spec.h"
#include <jansson.h>
#include <stdbool.h>

/* The start of the parameters of a workload whose tasks run in cgroups:
 * task i in the instance i of "cgroup" ("%d" replaced by i). Such a type's
 * .cgroup is workload_tasks_cgroup. */
struct workload_tasks {
	char *cgroup;
	long count;
	long per_cgroup; /* tasks_per_cgroup: task i in instance i / per_cgroup (0: 1) */
};
/* The .cgroup of a type with tasks in cgroup instances: the template, and
 * how many instances its tasks take. */
const char *workload_tasks_cgroup(const void *params, long *count);
/* Task @i's cgroup (g_free it). */
char *workload_task_cgroup(const struct workload_tasks *t, long i);
/* The .tasks of a type with a task per instance: "count". */
long workload_tasks_count(const void *params, const struct run_config *cfg);

/* The .finite of a type that runs until the duration stop. */
bool workload_runs_until_stop(const void *params);

/* Every workload type, NULL-terminated. */
extern const struct workload_type *const workload_types[];
const struct workload_type *workload_type_find(const char *name);

/* CPU of a workload's task @i: spread over the nodes (node i mod nodes),
 * packed (CPU i), or on every core's first thread before any second one
 * (cores); wraps around the machine's CPUs. */
enum workload_placement { WORKLOAD_SPREAD, WORKLOAD_PACK, WORKLOAD_CORES };
int workload_cpu_for(int i, enum workload_placement placement);
/* When each of a workload's @count tasks starts: uniform in [0, @spread_ns],
 * drawn from the stream "<type>.<index>.start"; g_free the array. */
long long *workload_start_times(double spread_ns, const char *type, int index, int count);
/* A duration distribution from its "<x>_ns", "<x>_dist", "<x>_cv" keys. */
struct sim_dist workload_dist(double mean_ns, int kind, double cv);

/* The "cpu" key of a workload that runs one task, described by @doc_ and
 * decoded at @at_ (a long); workload_check_cpu() checks it. */
#define WORKLOAD_CPU_FIELD(doc_, at_)                                                              \
	{                                                                                          \
		"cpu",                                                                             \
		    &(const struct spec){.kind = SPEC_INTEGER,                                     \
					 .doc = doc_,                                              \
					 .min = 0,                                                 \
					 .max = SIM_MACHINE_MAX_CPUS - 1},                         \
		    false, "0", at_                                                                \
	}

/* Shared checks of the workload at @path: its "cpu" inside the machine; a
 * uniform distribution's cv (@cv_key) small enough to stay positive. */
bool workload_check_cpu(long cpu, const struct run_config *cfg, const char *path,
			struct spec_check *chk);
/* A workload's "cpus" (a task a CPU): at most the machine's CPUs. */
bool workload_check_cpus(long cpus, const struct run_config *cfg, const char *path,
			 struct spec_check *chk);
bool workload_check_dist(int kind, double cv, const char *path, const char *cv_key,
			 struct spec_check *chk);

/* Keys several types share (their docs say what they mean for all). */
extern const struct spec workload_dist_spec, workload_cv_spec, workload_placement_spec;
extern const struct spec workload_cgroup_spec, workload_count_spec, workload_per_cgroup_spec,
    workload_start_spread_spec;
extern const struct spec workload_size_spec, workload_time_spec, workload_start_ns_spec;
/* The delay before task @name's first iteration, drawn uniformly from
 * [0, @start_ns) on a stream of its own (workload_start_ns_spec); 0 if
 * @start_ns is 0. */
sim_time_t workload_start_delay(const char *name, double start_ns);

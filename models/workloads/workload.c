// SPDX-License-Identifier: GPL-2.0-or-later
#include "workload.h"
#include "memcg.h"
#include "run_config.h"
#include "sim_engine.h"
#include "sim_rng.h"
#include <glib.h>
#include <math.h>
#include <string.h>

const char *workload_tasks_cgroup(const void *params, long *count)
{
	const struct workload_tasks *t = params;
	long per = MAX(t->per_cgroup, 1);
	*count = (t->count + per - 1) / per;
	return t->cgroup;
}

char *workload_task_cgroup(const struct workload_tasks *t, long i)
{
	return mem_cgroup_instance_name(t->cgroup, i / MAX(t->per_cgroup, 1));
}

long workload_tasks_count(const void *params, const struct run_config *cfg)
{
	(void)cfg;
	return ((const struct workload_tasks *)params)->count;
}

bool workload_runs_until_stop(const void *params)
{
	(void)params;
	return false;
}

int workload_cpu_for(int i, enum workload_placement placement)
{
	const struct sim_machine *m = sim_machine();
	int ncpus = sim_ncpus();
	if (placement ==
	    WORKLOAD_CORES) { /* every core's first thread, node by node, then the next */
		int cores = sim_machine_cores_per_node(m), all = cores * m->nodes;
		int j = i % ncpus, thread = j / all, core = j % all;
		return (core / cores) * m->cpus_per_node + thread * cores + core % cores;
	}
	if (placement == WORKLOAD_PACK || m->nodes == 1)
		return i % ncpus;
	int per = m->cpus_per_node;
	return (i % m->nodes) * per + (i / m->nodes) % per;
}

long long *workload_start_times(double spread_ns, const char *type, int index, int count)
{
	struct sim_dist start = {SIM_DIST_UNIFORM, spread_ns / 2 * (double)SIM_NS,
				 sim_dist_default_cv(SIM_DIST_UNIFORM)};
	char *stream = g_strdup_printf("%s.%d.start", type, index);
	struct sim_rng *rng = sim_rng_new(sim_seed(), stream);
	long long *t = g_new(long long, count);
	for (int i = 0; i < count; i++)
		t[i] = sim_rng_sample(rng, &start);
	sim_rng_free(rng);
	g_free(stream);
	return t;
}

struct sim_dist workload_dist(double mean_ns, int kind, double cv)
{
	return (struct sim_dist){kind, mean_ns * (double)SIM_NS,
				 isnan(cv) ? sim_dist_default_cv(kind) : cv};
}

bool workload_check_cpu(long cpu, const struct run_config *cfg, const char *path,
			struct spec_check *chk)
{
	int ncpus = sim_machine_cpus(&cfg->machine);
	if (cpu < ncpus)
		return true;
	return spec_check_fail(chk, path, "cpu",
			       "expected a CPU below %d (the machine's CPUs), got %ld", ncpus, cpu);
}

bool workload_check_cpus(long cpus, const struct run_config *cfg, const char *path,
			 struct spec_check *chk)
{
	int ncpus = sim_machine_cpus(&cfg->machine);
	if (cpus <= ncpus)
		return true;
	return spec_check_fail(chk, path, "cpus",
			       "expected at most %d (the machine's CPUs), got %ld", ncpus, cpus);
}

bool workload_check_dist(int kind, double cv, const char *path, const char *cv_key,
			 struct spec_check *chk)
{
	if (isnan(cv) || kind != SIM_DIST_UNIFORM || cv <= 1 / sqrt(3.0) + 1e-12)
		return true;
	return spec_check_fail(chk, path, cv_key,
			       "expected at most 0.57735 for a uniform distribution (it would go "
			       "below 0), got %g",
			       cv);
}

const struct spec workload_dist_spec = {
    .kind = SPEC_ENUM,
    .doc = "distribution: const, exp (exponential), uniform (mean +- sqrt(3) cv mean), "
	   "lognormal (mean, cv)",
    .values = sim_dist_names};
const struct spec workload_cv_spec = {
    .kind = SPEC_NUMBER,
    .doc = "coefficient of variation for uniform (default 0.577: U(0, 2 mean)) and "
	   "lognormal (default 1)",
    .min = 0,
    .max = 10};
const struct spec workload_placement_spec = {
    .kind = SPEC_ENUM,
    .doc = "spread: task i on node i mod nodes; pack: task i on CPU i; cores: the first "
	   "thread of every core, node by node, then the second threads (CPU i as Linux "
	   "numbers a multi-socket Intel server)",
    .values = (const char *const[]){"spread", "pack", "cores", NULL}};
const struct spec workload_start_ns_spec = {
    .kind = SPEC_NUMBER,
    .doc = "each task starts after a delay drawn uniformly from [0, start_ns) (off its CPU), "
	   "so the tasks first reach the shared line or lock in a random order, not the "
	   "CPUs' (0: all start at once, in CPU order)",
    .min = 0,
    .max = 1e12};

sim_time_t workload_start_delay(const char *name, double start_ns)
{
	if (start_ns <= 0)
		return 0;
	char *stream = g_strdup_printf("%s.start", name);
	struct sim_rng *rng = sim_rng_new(sim_seed(), stream);
	sim_time_t d = (sim_time_t)(sim_rng_uniform01(rng) * start_ns * SIM_NS);
	sim_rng_free(rng);
	g_free(stream);
	return d;
}

const struct spec workload_cgroup_spec = {
    .kind = SPEC_STRING,
    .doc = "cgroup of task i: a memcg.cgroups name; \"%d\" is replaced by i",
    .min = 0,
    .max = 128};
const struct spec workload_count_spec = {
    .kind = SPEC_INTEGER, .doc = "tasks, one per cgroup instance", .min = 1, .max = 4096};
const struct spec workload_per_cgroup_spec = {
    .kind = SPEC_INTEGER,
    .doc = "tasks in each cgroup instance: task i runs in instance i / tasks_per_cgroup "
	   "(a what-if: several tasks of one cgroup, on different CPUs, sharing its lists)",
    .min = 1,
    .max = 4096};
const struct spec workload_start_spread_spec = {
    .kind = SPEC_NUMBER,
    .doc = "tasks start at uniform random times in [0, this] ns: a shell launching them "
	   "'together' (default 2 ms)",
    .min = 0,
    .max = 1e12};
const struct spec workload_size_spec = {
    .kind = SPEC_NUMBER, .doc = "memory each task writes once, MiB", .min = 0, .max = 1048576};
const struct spec workload_time_spec = {.kind = SPEC_NUMBER, .doc = "ns", .min = 0, .max = 3.6e12};

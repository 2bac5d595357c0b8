// SPDX-License-Identifier: GPL-2.0-or-later
/* atomicbench: the shared-counter microbenchmark (perfbook's count_atomic,
 * a fetch_add counter): each of `cpus` CPUs loops on a locked increment of
 * one shared line, with `think_ns` of its own work between increments.
 * Throughput against the number of CPUs is the line's service curve
 * (docs/validation.md). With `lines` > 1 an operation increments that many
 * separate shared lines, increments that do not depend on each other
 * (folly's atomics_fetch_add: five). With `op` "cas" an operation is
 * folly's atomic_cas: read the counter, then compare-and-swap it until a
 * swap finds what was read (a failed one reads it again). */
#include "cacheline.h"
#include "run_config.h"
#include "workload.h"
#include <glib.h>

struct atomicbench_params {
	long cpus;
	double think_ns;
	int placement; /* enum workload_placement */
	long lines;
	double start_ns;
	int op; /* ATOMICBENCH_FETCH_ADD or ATOMICBENCH_CAS */
};

enum { ATOMICBENCH_FETCH_ADD, ATOMICBENCH_CAS };

#define AT(member) SPEC_AT(struct atomicbench_params, member)
static const struct spec_field atomicbench_fields[] = {
    SPEC_TYPE_FIELD("atomicbench"),
    {"cpus",
     &(const struct spec){.kind = SPEC_INTEGER,
			  .doc = "CPUs incrementing the counter, one task each; at most the "
				 "machine's CPUs",
			  .min = 1,
			  .max = SIM_MACHINE_MAX_CPUS},
     true, NULL, AT(cpus)},
    {"think_ns",
     &(const struct spec){.kind = SPEC_NUMBER,
			  .doc = "each CPU's own work between two increments (user), ns",
			  .min = 0,
			  .max = 1e9},
     false, "0", AT(think_ns)},
    {"placement", &workload_placement_spec, false, "\"cores\"", AT(placement)},
    {"lines",
     &(const struct spec){.kind = SPEC_INTEGER,
			  .doc = "separate shared lines an operation increments, one locked "
				 "increment each, independent of each other",
			  .min = 1,
			  .max = LINE_GROUP_MAX},
     false, "1", AT(lines)},
    {"start_ns", &workload_start_ns_spec, false, "0", AT(start_ns)},
    {"op",
     &(const struct spec){.kind = SPEC_ENUM,
			  .doc = "fetch_add: a locked increment of each line; cas: a load of the "
				 "one line, then a compare-and-swap until one succeeds, each "
				 "retry comparing against what the failed one found",
			  .values = (const char *const[]){"fetch_add", "cas", NULL}},
     false, "\"fetch_add\"", AT(op)},
    {NULL},
};
#undef AT

static const struct spec atomicbench_spec = {
    .kind = SPEC_OBJECT,
    .doc = "validation workload: each CPU loops on a locked increment of one shared counter",
    .fields = atomicbench_fields,
    .size = sizeof(struct atomicbench_params)};

static bool atomicbench_check(const void *params, const struct run_config *cfg, const char *path,
			      struct spec_check *chk)
{
	const struct atomicbench_params *p = params;
	if (p->op == ATOMICBENCH_CAS && p->lines != 1)
		return spec_check_fail(chk, path, "lines", "expected 1 with op \"cas\", got %ld",
				       p->lines);
	return workload_check_cpus(p->cpus, cfg, path, chk);
}

struct atomicbench {
	int cpus, lines, op;
	sim_time_t swapped_at;	  /* "cas": when the last successful swap took effect */
	sim_time_t think, *start; /* each task's delay before its first increment */
	struct cacheline counter[LINE_GROUP_MAX];
	uint64_t ops;
};

/* One locked increment of each of @ab's lines, independent of each other:
 * the wait for the line the operation finished last is the wait. */
static void atomicbench_increments(struct sim_task *t, struct atomicbench *ab)
{
	struct line_req r[LINE_GROUP_MAX];
	for (int i = 0; i < ab->lines; i++)
		r[i] = (struct line_req){&ab->counter[i], LINE_RMW, "atomic_inc", -1};
	sim_task_flush(t);
	sim_task_stall(t, SIM_CAT_SYS,
		       line_access_group(sim_task_cpu(t), r, ab->lines, sim_task_clock(t), NULL));
}

/* folly's atomic_cas (SmallLocksBenchmark's write(AtomicCas&)): a load of
 * the counter, then compare_exchange_strong until it swaps. A failed
 * cmpxchg returns what it found, so the retry compares against that
 * without loading again; it fails when another CPU's swap took effect
 * after what it compares against was read. */
static void atomicbench_cas(struct sim_task *t, struct atomicbench *ab)
{
	int cpu = sim_task_cpu(t);
	struct cacheline *l = &ab->counter[0];
	sim_task_flush(t);
	sim_task_stall(t, SIM_CAT_SYS,
		       line_access_at(cpu, l, LINE_LOAD, "atomic_load", sim_task_clock(t), NULL));
	for (;;) {
		sim_time_t read = sim_task_clock(t);
		sim_task_flush(t);
		sim_task_stall(
		    t, SIM_CAT_SYS,
		    line_access_at(cpu, l, LINE_RMW, "cmpxchg", sim_task_clock(t), NULL));
		sim_task_flush(t); /* it fails or swaps when it is served, in that order */
		if (ab->swapped_at <= read) {
			ab->swapped_at = sim_task_clock(t);
			return;
		}
	}
}

static void atomicbench_loop(struct sim_task *t, void *arg)
{
	struct atomicbench *ab = arg;
	sim_time_t start = ab->start[sim_task_cpu(t)];
	if (start > 0)
		sim_task_sleep(t, start);
	while (!sim_task_should_stop(t)) {
		if (ab->think)
			sim_task_run(t, SIM_CAT_USER, ab->think);
		if (ab->op == ATOMICBENCH_CAS)
			atomicbench_cas(t, ab);
		else if (ab->lines == 1 && !line_queued())
			line_atomic(t, &ab->counter[0], SIM_CAT_SYS, "atomic_inc");
		else
			atomicbench_increments(t, ab);
		ab->ops++;
	}
}

static void *atomicbench_setup(const void *params, int index)
{
	const struct atomicbench_params *p = params;
	struct atomicbench *ab = g_new0(struct atomicbench, 1);
	ab->cpus = (int)p->cpus;
	ab->lines = (int)p->lines;
	ab->op = p->op;
	ab->think = sim_from_ns(p->think_ns);
	for (int i = 0; i < ab->lines; i++)
		line_init(&ab->counter[i], line_class_get("atomic counter"), 0);
	ab->start = g_new0(sim_time_t, sim_ncpus());
	for (int i = 0; i < ab->cpus; i++) {
		char *name = g_strdup_printf("atomicbench.%d.%d", index, i);
		int cpu = workload_cpu_for(i, p->placement);
		ab->start[cpu] = workload_start_delay(name, p->start_ns);
		sim_task_create(name, cpu, atomicbench_loop, ab);
		g_free(name);
	}
	return ab;
}

/* perfbook's and Downs's figure (a thread's time per operation) and the
 * line's (the time between two increments of one line, machine-wide). */
static void atomicbench_metrics(void *state, json_t *metrics)
{
	struct atomicbench *ab = state;
	double ns = sim_to_ns(sim_end()), ops = (double)ab->ops;
	json_object_set_new(metrics, "ns_per_op", json_real(ops ? ns / ops : 0));
	json_object_set_new(metrics, "ns_per_op_per_thread",
			    json_real(ops ? ns * ab->cpus / ops : 0));
	json_object_set_new(metrics, "ops_per_us", json_real(ops / sim_to_us(sim_end())));
}

static void atomicbench_destroy(void *state)
{
	struct atomicbench *ab = state;
	g_free(ab->start);
	g_free(ab);
}

static long atomicbench_tasks(const void *params, const struct run_config *cfg)
{
	(void)cfg;
	return ((const struct atomicbench_params *)params)->cpus;
}

const struct workload_type atomicbench_workload = {
    .name = "atomicbench",
    .spec = &atomicbench_spec,
    .check = atomicbench_check,
    .finite = workload_runs_until_stop,
    .tasks = atomicbench_tasks,
    .setup = atomicbench_setup,
    .metrics = atomicbench_metrics,
    .metric_info =
	(const struct run_metric[]){
	    {"ns_per_op", false, "ns",
	     "simulated time per atomic operation over all threads (elapsed / operations)"},
	    {"ns_per_op_per_thread", false, "ns",
	     "time per operation as one thread sees it (elapsed x threads / operations)"},
	    {"ops_per_us", true, "/us", "atomic operations completed per microsecond, all threads"},
	    {NULL, false, NULL, NULL}},
    .destroy = atomicbench_destroy,
};

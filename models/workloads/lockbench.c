// SPDX-License-Identifier: GPL-2.0-or-later
/* lockbench: the validation workload. Each of `cpus` CPUs loops: think (user
 * time), take a shared spinlock, hold it (sys time), release. With handoff
 * costs at zero this is the finite-source queue of docs/validation.md. */
#include "run_config.h"
#include "sim_rng.h"
#include "spinlock.h"
#include "workload.h"
#include <glib.h>

struct lockbench_params {
	long cpus;
	double think_ns;
	int think_dist;
	double think_cv;
	double hold_ns;
	int hold_dist;
	double hold_cv;
	int lock_scope; /* LOCKBENCH_GLOBAL or LOCKBENCH_NODE */
	int placement;	/* enum workload_placement */
	long iterations;
	int lock_flavour; /* enum spin_flavour */
	long data_lines;
	int data_order; /* LOCKBENCH_INDEPENDENT or LOCKBENCH_SERIAL */
	double start_ns;
};

enum { LOCKBENCH_GLOBAL, LOCKBENCH_NODE };
enum { LOCKBENCH_INDEPENDENT, LOCKBENCH_SERIAL };

#define AT(member) SPEC_AT(struct lockbench_params, member)
static const struct spec_field lockbench_fields[] = {
    SPEC_TYPE_FIELD("lockbench"),
    {"cpus",
     &(const struct spec){.kind = SPEC_INTEGER,
			  .doc = "CPUs running the loop, one task each; at most the machine's CPUs",
			  .min = 1,
			  .max = SIM_MACHINE_MAX_CPUS},
     true, NULL, AT(cpus)},
    {"think_ns",
     &(const struct spec){.kind = SPEC_NUMBER,
			  .doc = "mean time between release and the next acquire (user)",
			  .min = 0,
			  .max = 1e12},
     true, NULL, AT(think_ns)},
    {"think_dist", &workload_dist_spec, false, "\"exp\"", AT(think_dist)},
    {"think_cv", &workload_cv_spec, false, NULL, AT(think_cv)},
    {"hold_ns",
     &(const struct spec){
	 .kind = SPEC_NUMBER, .doc = "mean time the lock is held (sys)", .min = 0, .max = 1e12},
     true, NULL, AT(hold_ns)},
    {"hold_dist", &workload_dist_spec, false, "\"exp\"", AT(hold_dist)},
    {"hold_cv", &workload_cv_spec, false, NULL, AT(hold_cv)},
    {"lock_scope",
     &(const struct spec){.kind = SPEC_ENUM,
			  .doc = "one lock for all CPUs (global) or one lock per NUMA node (node)",
			  .values = (const char *const[]){"global", "node", NULL}},
     false, "\"global\"", AT(lock_scope)},
    {"placement", &workload_placement_spec, false, "\"spread\"", AT(placement)},
    {"iterations",
     &(const struct spec){.kind = SPEC_INTEGER,
			  .doc = "acquisitions per task, 0 for no limit (needs a duration stop)",
			  .min = 0,
			  .max = 1e12},
     false, "0", AT(iterations)},
    {"lock_flavour",
     &(const struct spec){.kind = SPEC_ENUM,
			  .doc = "spin_lock, spin_lock_irq or spin_lock_irqsave",
			  .values = (const char *const[]){"plain", "irq", "irqsave", NULL}},
     false, "\"plain\"", AT(lock_flavour)},
    {"data_lines",
     &(const struct spec){.kind = SPEC_INTEGER,
			  .doc = "cache lines of data shared by the lock's users that the "
				 "critical section writes, besides its hold time",
			  .min = 0,
			  .max = 64},
     false, "0", AT(data_lines)},
    {"data_order",
     &(const struct spec){.kind = SPEC_ENUM,
			  .doc = "independent: the data lines' stores overlap up to the core's "
				 "outstanding misses (a store buffer that asks for ownership "
				 "ahead); serial: each store's line is asked for only once the "
				 "one before it is owned (a store buffer that drains in order "
				 "without asking ahead); contention transfer only: queued makes "
				 "them one after the other either way",
			  .values = (const char *const[]){"independent", "serial", NULL}},
     false, "\"independent\"", AT(data_order)},
    {"start_ns", &workload_start_ns_spec, false, "0", AT(start_ns)},
    {NULL},
};
#undef AT
G_STATIC_ASSERT(SPIN_PLAIN == 0 && SPIN_IRQ == 1 && SPIN_IRQSAVE == 2); /* lock_flavour's order */

static const struct spec lockbench_spec = {
    .kind = SPEC_OBJECT,
    .doc = "validation workload: each CPU loops think, lock, hold, unlock on a shared spinlock",
    .fields = lockbench_fields,
    .size = sizeof(struct lockbench_params)};

static bool lockbench_check(const void *params, const struct run_config *cfg, const char *path,
			    struct spec_check *chk)
{
	const struct lockbench_params *p = params;
	return workload_check_cpus(p->cpus, cfg, path, chk) &&
	       workload_check_dist(p->think_dist, p->think_cv, path, "think_cv", chk) &&
	       workload_check_dist(p->hold_dist, p->hold_cv, path, "hold_cv", chk);
}

static bool lockbench_finite(const void *params)
{
	return ((const struct lockbench_params *)params)->iterations > 0;
}

/* Each task's iterations of think and hold, without waiting. */
static double lockbench_planned_ns(const void *params, const struct run_config *cfg)
{
	const struct lockbench_params *p = params;
	(void)cfg;
	return (double)p->iterations * (p->think_ns + p->hold_ns);
}

struct lockbench;

struct lockbench_task {
	struct lockbench *lb;
	struct spinlock *lock;
	struct sim_rng *think_rng;
	struct sim_rng *hold_rng;
	sim_time_t start; /* the delay before its first iteration */
};

struct lockbench {
	int cpus;
	struct sim_dist think, hold;
	long long iterations; /* per task; 0: until the run stops */
	enum spin_flavour flavour;
	int nlocks;
	struct spinlock *locks; /* one, or one per node */
	int data_lines;
	bool data_serial;	/* each data store after the one before it */
	struct cacheline *data; /* each lock's data lines */
	struct lock_class *cls;
	struct lockbench_task *tasks;
};

/* The hold, and a store to each of the lock's data lines: stores that do
 * not depend on each other (under "transfer" they overlap), or, with
 * data_order "serial", each waiting for the one before it. */
static sim_time_t lockbench_section(struct sim_task *t, void *arg)
{
	struct lockbench_task *lt = arg;
	struct lockbench *lb = lt->lb;
	sim_time_t hold = sim_rng_sample(lt->hold_rng, &lb->hold);
	struct cacheline *data = &lb->data[(lt->lock - lb->locks) * lb->data_lines];
	struct line_req r[LINE_GROUP_MAX];
	for (int i = 0; i < lb->data_lines; i++)
		r[i] = (struct line_req){&data[i], LINE_STORE, "lockbench_critical_section",
					 lb->data_serial ? i - 1 : -1};
	int cpu = sim_task_cpu(t);
	sim_time_t lines = line_access_group(cpu, r, lb->data_lines,
					     line_queued() ? line_cpu_clock(cpu) : 0, NULL);
	sim_task_stall_next(t, lines); /* SMT siblings do not slow the stores' lines */
	return hold + lines;
}

static void lockbench_critical_section(struct sim_task *t, struct lockbench_task *lt)
{
	spin_lock_hold_fn(t, lt->lock, lockbench_section, lt, SIM_CAT_SYS, lt->lb->flavour,
			  __func__);
}

static void lockbench_loop(struct sim_task *t, void *arg)
{
	struct lockbench_task *lt = arg;
	long long limit = lt->lb->iterations;
	if (lt->start > 0)
		sim_task_sleep(t, lt->start);
	for (long long i = 0; limit == 0 || i < limit; i++) {
		sim_task_run(t, SIM_CAT_USER, sim_rng_sample(lt->think_rng, &lt->lb->think));
		if (sim_task_should_stop(t))
			break;
		lockbench_critical_section(t, lt);
	}
}

static void *lockbench_setup(const void *params, int index)
{
	const struct lockbench_params *p = params;
	struct lockbench *lb = g_new0(struct lockbench, 1);
	lb->cpus = (int)p->cpus;
	lb->iterations = p->iterations;
	lb->flavour = (enum spin_flavour)p->lock_flavour;
	lb->think = workload_dist(p->think_ns, p->think_dist, p->think_cv);
	lb->hold = workload_dist(p->hold_ns, p->hold_dist, p->hold_cv);
	bool per_node = p->lock_scope == LOCKBENCH_NODE;
	lb->nlocks = per_node ? sim_machine()->nodes : 1;
	lb->cls = lock_class_get(per_node ? "&lb->node_lock" : "&lb->lock");
	lb->locks = g_new0(struct spinlock, lb->nlocks);
	for (int i = 0; i < lb->nlocks; i++)
		spin_lock_init(&lb->locks[i], lb->cls);
	lb->data_lines = (int)p->data_lines;
	lb->data_serial = p->data_order == LOCKBENCH_SERIAL;
	lb->data = g_new0(struct cacheline, lb->nlocks * lb->data_lines + 1);
	struct line_class *data_cls = line_class_get("lockbench data");
	for (int i = 0; i < lb->nlocks * lb->data_lines; i++)
		line_init(&lb->data[i], data_cls, 0);
	lb->tasks = g_new0(struct lockbench_task, lb->cpus);
	for (int i = 0; i < lb->cpus; i++) {
		struct lockbench_task *lt = &lb->tasks[i];
		int cpu = workload_cpu_for(i, p->placement);
		char *name = g_strdup_printf("lockbench.%d.%d", index, i);
		char *stream = g_strdup_printf("%s.think", name);
		lt->lb = lb;
		lt->lock = &lb->locks[per_node ? sim_cpu_node(cpu) : 0];
		lt->think_rng = sim_rng_new(sim_seed(), stream);
		g_free(stream);
		stream = g_strdup_printf("%s.hold", name);
		lt->hold_rng = sim_rng_new(sim_seed(), stream);
		g_free(stream);
		lt->start = workload_start_delay(name, p->start_ns);
		sim_task_create(name, cpu, lockbench_loop, lt);
		g_free(name);
	}
	return lb;
}

static void lockbench_metrics(void *state, json_t *metrics)
{
	struct lockbench *lb = state;
	double elapsed = (double)sim_end();
	double acq = (double)lb->cls->acquisitions;
	json_object_set_new(metrics, "acquisitions_per_us", json_real(acq / sim_to_us(sim_end())));
	json_object_set_new(metrics, "lock_utilisation",
			    json_real((double)lb->cls->hold_total / (elapsed * lb->nlocks)));
	json_object_set_new(metrics, "wait_per_acquisition_ns",
			    json_real(acq ? sim_to_ns(lb->cls->wait_total) / acq : 0));
}

static void lockbench_destroy(void *state)
{
	struct lockbench *lb = state;
	for (int i = 0; i < lb->cpus; i++) {
		sim_rng_free(lb->tasks[i].think_rng);
		sim_rng_free(lb->tasks[i].hold_rng);
	}
	for (int i = 0; i < lb->nlocks; i++)
		spin_lock_destroy(&lb->locks[i]);
	g_free(lb->locks);
	g_free(lb->data);
	g_free(lb->tasks);
	g_free(lb);
}

/* A task per CPU running the loop. */
static long lockbench_tasks(const void *params, const struct run_config *cfg)
{
	(void)cfg;
	return ((const struct lockbench_params *)params)->cpus;
}

const struct workload_type lockbench_workload = {
    .name = "lockbench",
    .spec = &lockbench_spec,
    .check = lockbench_check,
    .finite = lockbench_finite,
    .planned_ns = lockbench_planned_ns,
    .tasks = lockbench_tasks,
    .setup = lockbench_setup,
    .metrics = lockbench_metrics,
    .metric_info =
	(const struct run_metric[]){
	    {"acquisitions_per_us", true, "/us", "lock acquisitions per microsecond, all threads"},
	    {"lock_utilisation", false, "",
	     "share of the run a lock was held (hold time / elapsed / locks)"},
	    {"wait_per_acquisition_ns", false, "ns", "mean spin wait per acquisition"},
	    {NULL, false, NULL, NULL}},
    .destroy = lockbench_destroy,
};

/* lockbench: the validation workload. Each of `cpus` CPUs loops: think (user
 * time), take a shared spinlock, hold it (sys time), release. With handoff
 * costs at zero this is the finite-source queue of docs/validation.md. */
#include "lockbench.h"
#include "scenario.h"
#include "sim_rng.h"
#include "spinlock.h"
#include "workload.h"
#include <glib.h>

struct lockbench;

struct lockbench_task {
	struct lockbench *lb;
	struct spinlock *lock;
	struct sim_rng *think_rng;
	struct sim_rng *hold_rng;
};

struct lockbench {
	int cpus;
	struct sim_dist think, hold;
	long long iterations; /* per task; 0: until the run stops */
	enum spin_flavour flavour;
	int nlocks;
	struct spinlock *locks; /* one, or one per node */
	struct lock_class *cls;
	struct lockbench_task *tasks;
};

static void lockbench_critical_section(struct sim_task *t, struct lockbench_task *lt)
{
	sim_time_t hold = sim_rng_sample(lt->hold_rng, &lt->lb->hold);
	spin_lock_hold(t, lt->lock, hold, SIM_CAT_SYS, lt->lb->flavour, __func__);
}

static void lockbench_loop(struct sim_task *t, void *arg)
{
	struct lockbench_task *lt = arg;
	long long limit = lt->lb->iterations;
	for (long long i = 0; limit == 0 || i < limit; i++) {
		sim_task_run(t, SIM_CAT_USER, sim_rng_sample(lt->think_rng, &lt->lb->think));
		if (sim_task_should_stop(t))
			break;
		lockbench_critical_section(t, lt);
	}
}

static void *lockbench_setup(json_t *w, int index)
{
	struct lockbench *lb = g_new0(struct lockbench, 1);
	lb->cpus = (int)json_integer_value(json_object_get(w, "cpus"));
	lb->iterations = json_integer_value(json_object_get(w, "iterations"));
	const char *fl = json_string_value(json_object_get(w, "lock_flavour"));
	lb->flavour = g_str_equal(fl, "irq") ? SPIN_IRQ : g_str_equal(fl, "irqsave") ? SPIN_IRQSAVE
										 : SPIN_PLAIN;
	scenario_dist(w, "think", &lb->think);
	scenario_dist(w, "hold", &lb->hold);
	bool per_node = g_str_equal(json_string_value(json_object_get(w, "lock_scope")), "node");
	bool spread = g_str_equal(json_string_value(json_object_get(w, "placement")), "spread");
	lb->nlocks = per_node ? sim_machine()->nodes : 1;
	lb->cls = lock_class_get(per_node ? "&lb->node_lock" : "&lb->lock");
	lb->locks = g_new0(struct spinlock, lb->nlocks);
	for (int i = 0; i < lb->nlocks; i++)
		spin_lock_init(&lb->locks[i], lb->cls);
	lb->tasks = g_new0(struct lockbench_task, lb->cpus);
	for (int i = 0; i < lb->cpus; i++) {
		struct lockbench_task *lt = &lb->tasks[i];
		int cpu = workload_cpu_for(i, spread);
		char *name = g_strdup_printf("lockbench.%d.%d", index, i);
		char *stream = g_strdup_printf("%s.think", name);
		lt->lb = lb;
		lt->lock = &lb->locks[per_node ? sim_cpu_node(cpu) : 0];
		lt->think_rng = sim_rng_new(sim_seed(), stream);
		g_free(stream);
		stream = g_strdup_printf("%s.hold", name);
		lt->hold_rng = sim_rng_new(sim_seed(), stream);
		g_free(stream);
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
	g_free(lb->tasks);
	g_free(lb);
}

const struct workload_ops lockbench_ops = {"lockbench", lockbench_setup, lockbench_metrics,
					   lockbench_destroy};

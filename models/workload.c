#include "workload.h"
#include "lock_stat.h"
#include "lockdep.h"
#include "rcu.h"
#include "mm.h"
#include "scenario.h"
#include "sim_engine.h"
#include "sim_irq.h"
#include "sim_rng.h"
#include <glib.h>

static const struct workload_ops *const workload_table[] = {&lockbench_ops, &memhog_ops,
							   &fileread_ops, &cgchurn_ops,
							   &readfault_ops, &movecharge_ops,
							   &swapcycle_ops, &filewrite_ops, &kbuild_ops, NULL};

const struct workload_ops *workload_ops_find(const char *type)
{
	for (int i = 0; workload_table[i]; i++)
		if (g_str_equal(workload_table[i]->type, type))
			return workload_table[i];
	return NULL;
}

int workload_cpu_for(int i, bool spread)
{
	const struct sim_machine *m = sim_machine();
	int ncpus = sim_ncpus();
	if (!spread || m->nodes == 1)
		return i % ncpus;
	int per = m->cpus_per_node;
	return (i % m->nodes) * per + (i / m->nodes) % per;
}

long long *workload_start_times(json_t *w, const char *type, int index, int count)
{
	struct sim_dist start = {SIM_DIST_UNIFORM,
				 json_number_value(json_object_get(w, "start_spread_ns")) / 2 *
					 (double)SIM_NS,
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

static json_t *ns(sim_time_t t)
{
	return json_real(sim_to_ns(t));
}

static json_t *cpu_time_json(void)
{
	json_t *o = json_object();
	for (int cat = 0; cat < SIM_CAT_N; cat++) {
		sim_time_t total = 0;
		for (int c = 0; c < sim_ncpus(); c++)
			total += sim_cpu_time(c, cat);
		json_object_set_new(o, sim_cat_names[cat], ns(total));
	}
	return o;
}

static json_t *latency_json(uint64_t count, sim_time_t total, sim_time_t max)
{
	return json_pack("{s:I, s:o, s:o}", "count", (json_int_t)count, "mean_ns",
			 json_real(count ? sim_to_ns(total) / (double)count : 0), "max_ns", ns(max));
}

static json_t *interrupts_json(void)
{
	json_t *sources = json_array(), *cpus = json_array();
	for (int i = 0; i < sim_irq_nsources(); i++) {
		struct sim_irq_source *s = sim_irq_source(i);
		json_t *o = latency_json(s->count, s->latency_total, s->latency_max);
		json_object_set_new(o, "name", json_string(s->name));
		json_object_set_new(o, "p99_ns", ns(sim_hist_quantile(&s->latency, 0.99)));
		json_object_set_new(o, "handler_ns_total", ns(s->handler_total));
		json_array_append_new(sources, o);
	}
	for (int c = 0; c < sim_ncpus(); c++) {
		uint64_t n;
		sim_time_t total, max, p99;
		sim_irq_cpu_stats(c, &n, &total, &max, &p99);
		json_t *o = latency_json(n, total, max);
		json_object_set_new(o, "cpu", json_integer(c));
		json_object_set_new(o, "p99_ns", ns(p99));
		json_array_append_new(cpus, o);
	}
	return json_pack("{s:o, s:o}", "sources", sources, "cpus", cpus);
}

static json_t *locks_json(void)
{
	json_t *a = json_array();
	GPtrArray *classes = lock_class_all();
	for (guint i = 0; i < classes->len; i++) {
		const struct lock_class *c = classes->pdata[i];
		if (c->acquisitions || c->trylock_failures) /* classes never taken: not listed */
			json_array_append_new(a, lock_stat_to_json(c, true));
	}
	return a;
}

json_t *workload_simulate(json_t *doc, unsigned long long seed, int *violation)
{
	struct sim_machine m;
	scenario_machine(doc, &m);
	sim_engine_init(&m, scenario_stop_at(doc), scenario_time_limit(doc), seed);
	int nirqs;
	struct sim_irq_source *irqs = scenario_irq_sources(doc, &nirqs);
	sim_engine_irqs(irqs, nirqs);
	lockdep_reset();
	mm_setup(doc);
	json_t *ws = json_object_get(doc, "workloads");
	size_t n = json_array_size(ws);
	const struct workload_ops **ops = g_new0(const struct workload_ops *, n);
	void **state = g_new0(void *, n);
	for (size_t i = 0; i < n; i++) {
		json_t *w = json_array_get(ws, i);
		ops[i] = workload_ops_find(json_string_value(json_object_get(w, "type")));
		state[i] = ops[i]->setup(w, (int)i);
	}
	bool completed = sim_engine_run();
	*violation = !completed || lockdep_deadlocked();

	json_t *metrics = json_object();
	json_object_set_new(metrics, "elapsed_ns", ns(sim_end()));
	for (size_t i = 0; i < n; i++) {
		json_t *own = i ? json_object() : metrics;
		if (ops[i]->metrics)
			ops[i]->metrics(state[i], own);
		if (i) { /* later workloads' figures are prefixed "w<index>." */
			const char *k;
			json_t *v;
			json_object_foreach (own, k, v) {
				char *key = g_strdup_printf("w%zu.%s", i, k);
				json_object_set(metrics, key, v);
				g_free(key);
			}
			json_decref(own);
		}
	}
	json_t *details = json_object(); /* what a workload reports besides numbers */
	const char *mk;
	json_t *mv;
	void *tmp;
	json_object_foreach_safe (metrics, tmp, mk, mv) {
		if (json_is_number(mv))
			continue;
		json_object_set(details, mk, mv);
		json_object_del(metrics, mk);
	}
	json_t *r = json_pack("{s:I, s:o, s:i, s:o, s:o, s:o, s:I, s:b}", "seed", (json_int_t)seed,
			      "sim_time_ns", ns(sim_end()), "cpus", sim_ncpus(), "cpu_time_ns",
			      cpu_time_json(), "locks", locks_json(), "metrics", metrics,
			      "engine_calls", (json_int_t)sim_engine_calls(), "completed", completed);
	if (json_object_size(details))
		json_object_set_new(r, "details", details);
	else
		json_decref(details);
	if (nirqs)
		json_object_set_new(r, "interrupts", interrupts_json());
	json_t *lockdep = json_array();
	for (guint i = 0; i < lockdep_reports()->len; i++)
		json_array_append_new(lockdep, json_string(lockdep_reports()->pdata[i]));
	json_object_set_new(r, "lockdep", lockdep);
	if (rcu_active())
		json_object_set_new(r, "rcu", rcu_stats_json());
	if (!mm_results(r))
		*violation = 1;
	for (size_t i = 0; i < n; i++)
		ops[i]->destroy(state[i]);
	g_free(ops);
	g_free(state);
	mm_teardown();
	rcu_fini();
	lock_class_reset_all();
	sim_engine_fini();
	scenario_irq_sources_free(irqs, nirqs);
	return r;
}

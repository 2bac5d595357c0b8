// SPDX-License-Identifier: GPL-2.0-or-later
#include "run.h"
#include "cacheline.h"
#include "kernel.h"
#include "lock_stat.h"
#include "lockdep.h"
#include "mm.h"
#include "rcu.h"
#include "result_keys.h"
#include "sim_batch.h"
#include "sim_engine.h"
#include "sim_json.h"
#include "sim_smt.h"
#include "spinlock.h"
#include "workload.h"
#include <glib.h>
#include <string.h>

/* The state of the run in progress. */
struct run {
	const struct run_config *cfg;
	struct sim_irq_source *irqs; /* the run's copy of cfg->irqs, with statistics */
	void **workloads;	     /* each workload's state */
	bool completed;
};

/* The engine, the interrupt sources, lockdep, the memory-management state,
 * then the workloads (which start tasks and may look cgroups up). */
static void run_setup(struct run *r, uint64_t seed)
{
	const struct run_config *cfg = r->cfg;
	sim_engine_init(&cfg->machine, cfg->stop_at, cfg->time_limit, seed);
	r->irqs = g_new0(struct sim_irq_source, cfg->nirqs ? cfg->nirqs : 1);
	for (int i = 0; i < cfg->nirqs; i++) {
		r->irqs[i] = cfg->irqs[i];
		r->irqs[i].name = g_strdup(cfg->irqs[i].name);
	}
	sim_engine_irqs(r->irqs, cfg->nirqs);
	lockdep_reset();
	kernel_setup(cfg->kernel);
	mm_setup(cfg);
	r->workloads = g_new0(void *, cfg->nworkloads);
	for (int i = 0; i < cfg->nworkloads; i++)
		r->workloads[i] = cfg->workloads[i].type->setup(cfg->workloads[i].params, i);
}

/* In the reverse order of run_setup: every model's run state goes. */
static void run_teardown(struct run *r)
{
	const struct run_config *cfg = r->cfg;
	for (int i = 0; i < cfg->nworkloads; i++)
		cfg->workloads[i].type->destroy(r->workloads[i]);
	g_free(r->workloads);
	mm_teardown();
	rcu_fini();
	lockdep_fini();
	kernel_teardown();
	lock_class_reset_all();
	line_class_reset_all();
	sim_engine_fini();
	for (int i = 0; i < cfg->nirqs; i++) {
		g_free(r->irqs[i].name);
		sim_hist_free(&r->irqs[i].latency);
	}
	g_free(r->irqs);
}

/* The elapsed time, each workload's figures (a later workload's prefixed
 * "w<index>."), then the time SMT sharing added (when cores are shared): a
 * diagnostic after the benchmark's own figures, so that a verdict (the
 * first figure a variant changes) is on those. */
static json_t *run_metrics(const struct run *r)
{
	json_t *metrics = json_object();
	json_object_set_new(metrics, "elapsed_ns", sim_json_ns(sim_end()));
	for (int i = 0; i < r->cfg->nworkloads; i++) {
		const struct workload_type *type = r->cfg->workloads[i].type;
		json_t *own = i ? json_object() : metrics;
		if (type->metrics)
			type->metrics(r->workloads[i], own);
		if (!i)
			continue;
		const char *k;
		json_t *v;
		json_object_foreach (own, k, v) {
			char *key = g_strdup_printf("w%d.%s", i, k);
			json_object_set(metrics, key, v);
			g_free(key);
		}
		json_decref(own);
	}
	if (sim_smt_active())
		json_object_set_new(metrics, "smt_stretch_ns",
				    sim_json_ns(sim_smt_stretch_total()));
	return metrics;
}

/* What a workload reports besides numbers moves from @metrics to the
 * result's "details". */
static json_t *split_details(json_t *metrics)
{
	json_t *details = json_object();
	const char *k;
	json_t *v;
	void *tmp;
	json_object_foreach_safe (metrics, tmp, k, v) {
		if (json_is_number(v))
			continue;
		json_object_set(details, k, v);
		json_object_del(metrics, k);
	}
	return details;
}

static json_t *cpu_time_json(void)
{
	json_t *o = json_object();
	for (int cat = 0; cat < SIM_CAT_N; cat++) {
		sim_time_t total = 0;
		for (int c = 0; c < sim_ncpus(); c++)
			total += sim_cpu_time(c, cat);
		json_object_set_new(o, sim_cat_names[cat], sim_json_ns(total));
	}
	return o;
}

static json_t *latency_json(uint64_t count, sim_time_t total, sim_time_t max)
{
	return json_pack("{s:I, s:o, s:o}", "count", (json_int_t)count, "mean_ns",
			 json_real(count ? sim_to_ns(total) / (double)count : 0), "max_ns",
			 sim_json_ns(max));
}

static json_t *interrupts_json(void)
{
	json_t *sources = json_array(), *cpus = json_array();
	for (int i = 0; i < sim_irq_nsources(); i++) {
		struct sim_irq_source *s = sim_irq_source(i);
		json_t *o = latency_json(s->count, s->latency_total, s->latency_max);
		json_object_set_new(o, "name", json_string(s->name));
		json_object_set_new(o, "p99_ns", sim_json_ns(sim_hist_quantile(&s->latency, 0.99)));
		json_object_set_new(o, "handler_ns_total", sim_json_ns(s->handler_total));
		json_array_append_new(sources, o);
	}
	for (int c = 0; c < sim_ncpus(); c++) {
		uint64_t n;
		sim_time_t total, max, p99;
		sim_irq_cpu_stats(c, &n, &total, &max, &p99);
		json_t *o = latency_json(n, total, max);
		json_object_set_new(o, "cpu", json_integer(c));
		json_object_set_new(o, "p99_ns", sim_json_ns(p99));
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

static json_t *lockdep_json(void)
{
	json_t *a = json_array();
	for (guint i = 0; i < lockdep_reports()->len; i++)
		json_array_append_new(a, json_string(lockdep_reports()->pdata[i]));
	return a;
}

/* Why a replica failed, in one line: the first of a lockdep report, the
 * LRU checkers' first violation, or the limit it reached. */
static char *run_failure_text(const struct run *r, json_t *out)
{
	if (lockdep_deadlocked() && lockdep_reports()->len) {
		const char *rep = lockdep_reports()->pdata[0];
		const char *nl = strchr(rep, '\n');
		return g_strdup_printf("lockdep: %.*s", nl ? (int)(nl - rep) : (int)strlen(rep),
				       rep);
	}
	json_t *v = json_object_get(json_object_get(out, "memcg"), "violations");
	if (json_array_size(v))
		return g_strdup_printf("the LRU checker: %s (%zu violations)",
				       json_string_value(json_array_get(v, 0)), json_array_size(v));
	if (!r->completed && sim_engine_aborted())
		return g_strdup("the simulation was aborted");
	return g_strdup_printf("did not finish within stop.limit_ns (%.15g ns of simulated time)",
			       sim_to_ns(r->cfg->time_limit));
}

static json_t *run_failure(const struct run *r, json_t *out)
{
	char *text = run_failure_text(r, out);
	json_t *s = json_string(text);
	g_free(text);
	return s;
}

/* The run's work in equal batches (sim_batch.h), for the batch-means
 * intervals: the units done and each figure at every boundary, the
 * figures named as the comparisons name them (docs/results.md); NULL
 * unless a run to completion passed every boundary. */
static json_t *batches_json(const struct run *r)
{
	if (r->cfg->stop_at || !r->completed || sim_batch_count() != SIM_BATCH_N)
		return NULL;
	json_t *units = json_array(), *figs[SIM_BATCH_FIGS];
	for (int f = 0; f < SIM_BATCH_FIGS; f++)
		figs[f] = json_array();
	for (int i = 0; i < SIM_BATCH_N; i++) {
		json_array_append_new(units, json_integer(sim_batch_units(i)));
		for (int f = 0; f < SIM_BATCH_FIGS; f++)
			json_array_append_new(figs[f], sim_json_ns(sim_batch_fig(i, f)));
	}
	json_t *metrics = json_object();
	json_object_set_new(metrics, "elapsed_ns", figs[SIM_BATCH_ELAPSED]);
	for (int cat = 0; cat < SIM_CAT_N; cat++) {
		char *key = g_strdup_printf("cpu_time_ns.%s", sim_cat_names[cat]);
		json_object_set_new(metrics, key, figs[SIM_BATCH_CPU + cat]);
		g_free(key);
	}
	if (sim_smt_active())
		json_object_set_new(metrics, "smt_stretch_ns", figs[SIM_BATCH_SMT]);
	else
		json_decref(figs[SIM_BATCH_SMT]);
	return json_pack("{s:o, s:i, s:o}", "units", units, "steady", sim_batch_steady(),
			 RK_metrics, metrics);
}

/* The replica's result (docs/results.md), gathered before the teardown. */
static json_t *run_result(const struct run *r, uint64_t seed, bool *violation)
{
	json_t *metrics = run_metrics(r);
	json_t *details = split_details(metrics);
	json_t *out =
	    json_pack("{s:I, s:o, s:i, s:o, s:o, s:o, s:I, s:b}", "seed", (json_int_t)seed,
		      RK_sim_time_ns, sim_json_ns(sim_end()), "cpus", sim_ncpus(), RK_cpu_time_ns,
		      cpu_time_json(), RK_locks, locks_json(), RK_metrics, metrics, "engine_calls",
		      (json_int_t)sim_engine_calls(), "completed", r->completed);
	json_object_set_new(out, RK_metric_info, run_metric_info(r->cfg, metrics));
	if (json_object_size(details))
		json_object_set_new(out, "details", details);
	else
		json_decref(details);
	if (g_getenv(
		"MEMCGSIM_ENGINE_STATS")) /* bench/seeds.sh: the flushes no engine call served */
		json_object_set_new(out, "flushes_skipped",
				    json_integer((json_int_t)sim_engine_flushes_skipped()));
	if (r->cfg->nirqs)
		json_object_set_new(out, "interrupts", interrupts_json());
	if (sim_engine_local())
		json_object_set_new(out, "local_locks",
				    json_pack("{s:I, s:I}", "acquisitions",
					      (json_int_t)sim_engine_local(), "inversions",
					      (json_int_t)sim_engine_inversions()));
	if (sim_engine_migrations()) /* machine.migration: tasks the scheduler moved */
		json_object_set_new(out, "migrations",
				    json_integer((json_int_t)sim_engine_migrations()));
	json_object_set_new(out, "lockdep", lockdep_json());
	if (rcu_active())
		json_object_set_new(out, "rcu", rcu_stats_json());
	json_object_set_new(out, RK_cachelines, line_stats_json());
	*violation = !r->completed || lockdep_deadlocked();
	if (!mm_results(out))
		*violation = true;
	json_t *batches = batches_json(r);
	if (batches)
		json_object_set_new(out, RK_batches, batches);
	if (*violation)
		json_object_set_new(out, "failure", run_failure(r, out));
	return out;
}

/* What a cost draw's result says of it: its index, and each cost with a
 * range as drawn. */
static void run_draw_json(json_t *out, const struct run_config *cfg, const struct run_draw *draw)
{
	json_t *costs = json_object();
	for (int i = 0; i < COST_N; i++)
		if (cost_range_drawn(&cfg->cost_range[i]))
			json_object_set_new(costs, cost_table[i].key,
					    sim_json_ns(cfg->machine.cost[i]));
	json_object_set_new(out, "draw", json_integer(draw->index));
	json_object_set_new(out, "cost_draw", costs);
}

json_t *run_simulate(const struct run_config *cfg, uint64_t seed, const struct run_draw *draw,
		     bool *violation)
{
	struct run_config drawn;
	if (draw) { /* the run's own copy: the configuration is shared */
		drawn = *cfg;
		cost_draw(&drawn.machine, drawn.cost_range, draw->seed, draw->index);
		cfg = &drawn;
	}
	struct run r = {.cfg = cfg};
	run_setup(&r, seed);
	r.completed = sim_engine_run();
	json_t *result = run_result(&r, seed, violation);
	if (draw)
		run_draw_json(result, cfg, draw);
	run_teardown(&r);
	return result;
}

/* The sites of @taken_at, most takings first (then by name). */
static gint site_cmp(gconstpointer a, gconstpointer b)
{
	const struct lock_point *x = *(struct lock_point *const *)a;
	const struct lock_point *y = *(struct lock_point *const *)b;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->site, y->site);
}

static json_t *sites_json(GHashTable *taken_at)
{
	GPtrArray *points = g_ptr_array_new();
	GHashTableIter it;
	gpointer site, point;
	g_hash_table_iter_init(&it, taken_at);
	while (g_hash_table_iter_next(&it, &site, &point))
		g_ptr_array_add(points, point);
	g_ptr_array_sort(points, site_cmp);
	json_t *sites = json_object();
	for (guint i = 0; i < points->len; i++) {
		const struct lock_point *p = points->pdata[i];
		json_object_set_new(sites, p->site, json_integer((json_int_t)p->count));
	}
	g_ptr_array_free(points, TRUE);
	return sites;
}

json_t *run_lock_classes(const struct run_config *cfg, uint64_t seed, sim_time_t run_for)
{
	struct run_config shortened = *cfg;
	if (run_for > 0 && (!shortened.stop_at || shortened.stop_at > run_for))
		shortened.stop_at = run_for;
	struct run r = {.cfg = &shortened};
	lock_stat_record_sites(true);
	run_setup(&r, seed);
	if (run_for > 0)
		sim_engine_run();
	json_t *a = json_array();
	GPtrArray *classes = lock_class_all();
	for (guint i = 0; i < classes->len; i++) {
		const struct lock_class *c = classes->pdata[i];
		json_t *o = json_pack("{s:s}", "class", c->name);
		if (c->lockdep_name)
			json_object_set_new(o, "lockdep_class", json_string(c->lockdep_name));
		json_object_set_new(o, "taken_at", sites_json(c->taken_at));
		json_array_append_new(a, o);
	}
	run_teardown(&r);
	lock_stat_record_sites(false);
	return a;
}

double run_estimate_cpu_s(const struct run_config *cfg, double *horizon_ns)
{
	double horizon = cfg->stop_at ? sim_to_ns(cfg->stop_at) : -1;
	for (int i = 0; !cfg->stop_at && i < cfg->nworkloads; i++) {
		const struct run_workload *w = &cfg->workloads[i];
		if (w->type->planned_ns)
			horizon = MAX(horizon, w->type->planned_ns(w->params, cfg));
	}
	if (horizon < 0)
		return -1;
	if (!cfg->stop_at)
		horizon = MIN(horizon, sim_to_ns(cfg->time_limit));
	*horizon_ns = horizon;
	return horizon / 1e9 * sim_machine_cpus(&cfg->machine);
}

/* The figures every run has. */
static const struct run_metric run_metrics_info[] = {
    {"elapsed_ns", false, "ns", "simulated time from the run's start to its end"},
    {"smt_stretch_ns", false, "ns",
     "time SMT sharing added to the tasks on shared cores, summed over CPUs"},
    {"cpu_time_ns.sys", false, "ns", "kernel CPU time summed over CPUs, not counting spinning"},
    {"cpu_time_ns.spin", false, "ns",
     "CPU time spent spinning on locks and contended lines, summed over CPUs"},
    {NULL, false, NULL, NULL},
};

long run_kernel_tasks(const struct run_config *cfg)
{
	return (long)sim_machine_cpus(&cfg->machine) + cfg->machine.nodes + 1;
}

static const struct run_metric *metric_in(const struct run_metric *table, const char *name)
{
	for (const struct run_metric *d = table; d && d->name; d++)
		if (strcmp(d->name, name) == 0)
			return d;
	return NULL;
}

/* What no model describes: lower is better, a time when it ends in "_ns". */
static const struct run_metric *metric_unknown(const char *name)
{
	static const struct run_metric unknown = {"", false, "", RUN_METRIC_UNDESCRIBED},
				       unknown_ns = {"", false, "ns", RUN_METRIC_UNDESCRIBED};
	return g_str_has_suffix(name, "_ns") ? &unknown_ns : &unknown;
}

const struct run_metric *run_metric_find(const char *name)
{
	if (name[0] == 'w' && strchr(name, '.'))
		name = strchr(name, '.') + 1;
	const struct run_metric *d = metric_in(run_metrics_info, name);
	for (int i = 0; !d && workload_types[i]; i++)
		d = metric_in(workload_types[i]->metric_info, name);
	return d ? d : metric_unknown(name);
}

/* @key's description in @cfg's run: a "w<i>." figure's is workload i's, any
 * other the run's own or the first workload's. */
static const struct run_metric *metric_of(const struct run_config *cfg, const char *key)
{
	int i = 0, len = 0;
	if (sscanf(key, "w%d.%n", &i, &len) == 1 && len > 0 && i > 0 && i < cfg->nworkloads)
		key += len;
	else
		i = 0;
	const struct run_metric *d = i ? NULL : metric_in(run_metrics_info, key);
	if (!d && cfg->nworkloads)
		d = metric_in(cfg->workloads[i].type->metric_info, key);
	return d ? d : metric_unknown(key);
}

json_t *run_metric_info(const struct run_config *cfg, json_t *metrics)
{
	json_t *info = json_object();
	const char *k;
	json_t *v;
	json_object_foreach (metrics, k, v) {
		const struct run_metric *d = metric_of(cfg, k);
		json_object_set_new(info, k,
				    json_pack("{s:s, s:b, s:s}", "unit", d->unit,
					      "higher_is_better", d->higher_is_better, "meaning",
					      d->meaning));
	}
	for (const char *const *c =
		 (const char *const[]){"cpu_time_ns.sys", "cpu_time_ns.spin", NULL};
	     *c; c++)
		if (!json_object_get(info, *c))
			json_object_set_new(info, *c,
					    json_pack("{s:s, s:b, s:s}", "unit", "ns",
						      "higher_is_better", false, "meaning",
						      metric_in(run_metrics_info, *c)->meaning));
	return info;
}

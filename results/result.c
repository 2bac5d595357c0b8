// SPDX-License-Identifier: GPL-2.0-or-later
#include "result.h"
#include "identity.h"
#include "lock_stat.h"
#include "mcs_json.h"
#include "result_format.h"
#include "result_keys.h"
#include "sim_hist.h"
#include <glib.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

static void mean_members(json_t *into, json_t *replicas, const char *member)
{
	size_t n = json_array_size(replicas), i;
	json_t *first = json_object_get(json_array_get(replicas, 0), member);
	const char *k;
	json_t *v;
	json_object_foreach (first, k, v) {
		double sum = 0;
		json_t *r;
		json_array_foreach (replicas, i, r)
			sum += json_number_value(json_object_get(json_object_get(r, member), k));
		json_object_set_new(into, k, json_real(sum / (double)n));
	}
}

static double get(json_t *o, const char *path)
{
	char **parts = g_strsplit(path, ".", 2);
	json_t *v = parts[1] ? json_object_get(json_object_get(o, parts[0]), parts[1])
			     : json_object_get(o, parts[0]);
	g_strfreev(parts);
	return json_number_value(v);
}

static void add_int(json_t *o, const char *k, json_t *from)
{
	json_object_set_new(o, k,
			    json_integer(json_integer_value(json_object_get(o, k)) +
					 json_integer_value(json_object_get(from, k))));
}

static void add_real(json_t *o, const char *path, json_t *from)
{
	char **parts = g_strsplit(path, ".", 2);
	json_t *target = parts[1] ? json_object_get(o, parts[0]) : o;
	const char *k = parts[1] ? parts[1] : parts[0];
	json_object_set_new(target, k, json_real(get(o, path) + get(from, path)));
	g_strfreev(parts);
}

static void keep_extreme(json_t *o, const char *path, json_t *from, bool want_max)
{
	char **parts = g_strsplit(path, ".", 2);
	double a = get(o, path), b = get(from, path);
	json_object_set_new(json_object_get(o, parts[0]), parts[1],
			    json_real(want_max ? MAX(a, b) : MIN(a, b)));
	g_strfreev(parts);
}

/* The element of @array whose string member @key is @like's (a site, a
 * class), and its index in @at (when not NULL); NULL when there is none. */
static json_t *find_same(json_t *array, const char *key, json_t *like, size_t *at)
{
	return mcs_json_find(array, key, json_string_value(json_object_get(like, key)), at);
}

/* Merge points (each named by @key) @from into @into. */
static void merge_points(json_t *into, json_t *from, const char *key, bool with_wait)
{
	size_t i;
	json_t *p;
	json_array_foreach (from, i, p) {
		json_t *q = find_same(into, key, p, NULL);
		if (!q) {
			json_array_append_new(into, json_deep_copy(p));
			continue;
		}
		add_int(q, "count", p);
		if (with_wait) {
			add_real(q, "wait_total_ns", p);
			double a = get(q, "wait_max_ns"), b = get(p, "wait_max_ns");
			json_object_set_new(q, "wait_max_ns", json_real(MAX(a, b)));
		}
	}
}

static void hist_add(struct sim_hist *h, json_t *arr)
{
	size_t i;
	json_t *pair;
	json_array_foreach (arr, i, pair) {
		int idx = (int)json_integer_value(json_array_get(pair, 0));
		uint64_t n = (uint64_t)json_integer_value(json_array_get(pair, 1));
		sim_hist_add_bucket(h, idx, n);
	}
}

/* Merge lock @from into @into, another replica's figures for the same class. */
static void merge_lock(json_t *into, json_t *from)
{
#define COUNT(field, column) #field,
	static const char *const counts[] = {LOCK_STAT_COUNTS(COUNT) LOCK_STAT_LATE_COUNTS(COUNT)};
#undef COUNT
	bool had = json_integer_value(json_object_get(into, "contentions")) > 0;
	bool has = json_integer_value(json_object_get(from, "contentions")) > 0;
	for (size_t i = 0; i < G_N_ELEMENTS(counts); i++)
		add_int(into, counts[i], from);
	add_real(into, "wait_ns.total", from);
	add_real(into, "hold_ns.total", from);
	add_real(into, "irqoff_ns", from);
	if (json_object_get(from, "handover_ns")) { /* contention "queued" */
		add_real(into, "hold_ns.lines", from);
		add_real(into, "hold_ns.queueing", from);
		add_real(into, "handover_ns.total", from);
		add_real(into, "handover_ns.count", from);
	}
	if (had && has) /* a replica without contentions has no wait minimum */
		keep_extreme(into, "wait_ns.min", from, false);
	else if (has)
		json_object_set_new(json_object_get(into, "wait_ns"), "min",
				    json_real(get(from, "wait_ns.min")));
	keep_extreme(into, "wait_ns.max", from, true);
	keep_extreme(into, "hold_ns.min", from, false);
	keep_extreme(into, "hold_ns.max", from, true);
	merge_points(json_object_get(into, "contention_points"),
		     json_object_get(from, "contention_points"), "site", true);
	merge_points(json_object_get(into, "contending_points"),
		     json_object_get(from, "contending_points"), "site", false);
	json_t *convoys = json_object_get(from, "convoys");
	if (convoys && !json_object_get(into, "convoys"))
		json_object_set_new(into, "convoys", json_array());
	merge_points(json_object_get(into, "convoys"), convoys, "waiting_for", true);
}

/* The wait-time distribution for plots: the fraction of contended waits at
 * or below each quarter-octave boundary (in ns), from below the shortest
 * wait to above the longest. */
static json_t *wait_cdf(const struct sim_hist *h)
{
	json_t *cdf = json_array();
	if (!h->count || !h->bucket)
		return cdf;
	int lo = -1, hi = -1;
	for (int i = 0; i < SIM_HIST_BUCKETS; i++)
		if (h->bucket[i]) {
			lo = lo < 0 ? i : lo;
			hi = i;
		}
	double vlo = MAX(sim_to_ns(sim_hist_bucket_value(lo)), 1e-3);
	double vhi = MAX(sim_to_ns(sim_hist_bucket_value(hi)), vlo);
	int k0 = (int)floor(4 * log2(vlo)) - 1, k1 = (int)ceil(4 * log2(vhi));
	uint64_t cum = 0;
	int i = lo;
	for (int k = k0; k <= k1; k++) {
		double bound = exp2(k / 4.0);
		for (; i <= hi && sim_to_ns(sim_hist_bucket_value(i)) <= bound; i++)
			cum += h->bucket[i];
		char b[32];
		g_ascii_formatd(b, sizeof(b), "%.6g", bound);
		json_array_append_new(cdf, json_pack("[f, f]", g_ascii_strtod(b, NULL),
						     (double)cum / (double)h->count));
	}
	return cdf;
}

static void finish_lock(json_t *lock, struct sim_hist *h)
{
	double con = (double)json_integer_value(json_object_get(lock, "contentions"));
	double acq = (double)json_integer_value(json_object_get(lock, "acquisitions"));
	json_t *wait = json_object_get(lock, "wait_ns"), *hold = json_object_get(lock, "hold_ns");
	json_object_set_new(wait, "avg", json_real(con ? get(lock, "wait_ns.total") / con : 0));
	json_object_set_new(hold, "avg", json_real(acq ? get(lock, "hold_ns.total") / acq : 0));
	json_t *handover = json_object_get(lock, "handover_ns");
	if (handover) {
		double n = get(lock, "handover_ns.count");
		json_object_set_new(handover, "count", json_integer((json_int_t)n));
		json_object_set_new(handover, "avg",
				    json_real(n ? get(lock, "handover_ns.total") / n : 0));
	}
	static const struct {
		const char *key;
		double q;
	} qs[] = {{"p50", 0.5}, {"p99", 0.99}, {"p999", 0.999}};
	for (size_t i = 0; i < G_N_ELEMENTS(qs); i++)
		json_object_set_new(wait, qs[i].key,
				    json_real(sim_to_ns(sim_hist_quantile(h, qs[i].q))));
	json_object_set_new(lock, "wait_cdf", wait_cdf(h));
	json_object_del(lock, "wait_hist");
}

static json_t *merge_locks(json_t *replicas)
{
	json_t *merged = json_array();
	GPtrArray *hists = g_ptr_array_new();
	size_t i, j;
	json_t *r, *l;
	json_array_foreach (replicas, i, r) {
		json_array_foreach (json_object_get(r, RK_locks), j, l) {
			size_t k;
			json_t *into = find_same(merged, "class", l, &k);
			if (!into) {
				json_array_append_new(merged, json_deep_copy(l));
				g_ptr_array_add(hists, g_new0(struct sim_hist, 1));
				k = json_array_size(merged) - 1;
			} else {
				merge_lock(into, l);
			}
			hist_add(hists->pdata[k], json_object_get(l, "wait_hist"));
		}
	}
	json_array_foreach (merged, i, l) {
		finish_lock(l, hists->pdata[i]);
		sim_hist_free(hists->pdata[i]);
		g_free(hists->pdata[i]);
	}
	g_ptr_array_free(hists, TRUE);
	return merged;
}

/* Add @from's numbers to @into's, member by member and through nested
 * objects (integers stay integers); a member @into lacks is copied, strings
 * and arrays are left as they are. */
static void add_numbers(json_t *into, json_t *from)
{
	const char *k;
	json_t *v;
	json_object_foreach (from, k, v) {
		json_t *t = json_object_get(into, k);
		if (!t)
			json_object_set_new(into, k, json_deep_copy(v));
		else if (json_is_object(t))
			add_numbers(t, v);
		else if (json_is_integer(t) && json_is_integer(v))
			add_int(into, k, from);
		else if (json_is_number(t) && json_is_number(v))
			json_object_set_new(into, k,
					    json_real(json_number_value(t) + json_number_value(v)));
	}
}

static gint by_count(json_t *x, json_t *y, const char *key)
{
	double a = json_number_value(json_object_get(x, key));
	double b = json_number_value(json_object_get(y, key));
	return a > b ? -1 : a < b;
}

/* Most transfers first, then most accesses, then by name: the order of
 * line_sites_sorted() (models/hw/cacheline.c). */
static gint by_transfers_site(gconstpointer a, gconstpointer b)
{
	json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	gint c = by_count(x, y, "transfers");
	c = c ? c : by_count(x, y, "accesses");
	return c ? c
		 : g_strcmp0(json_string_value(json_object_get(x, "site")),
			     json_string_value(json_object_get(y, "site")));
}

gint result_line_cmp(gconstpointer a, gconstpointer b)
{
	json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	gint c = by_count(x, y, "transfers");
	return c ? c
		 : g_strcmp0(json_string_value(json_object_get(x, "class")),
			     json_string_value(json_object_get(y, "class")));
}

static void sort_array(json_t *array, GCompareFunc cmp)
{
	GPtrArray *all = g_ptr_array_new_with_free_func((GDestroyNotify)json_decref);
	size_t i;
	json_t *v;
	json_array_foreach (array, i, v)
		g_ptr_array_add(all, json_incref(v));
	g_ptr_array_sort(all, cmp);
	json_array_clear(array);
	for (guint k = 0; k < all->len; k++)
		json_array_append(array, all->pdata[k]);
	g_ptr_array_free(all, TRUE);
}

/* Each element of @from merged (@merge) into the element of @into with the
 * same @key, or copied into @into when it has none; then @into sorted. */
static void merge_by(json_t *into, json_t *from, const char *key,
		     void (*merge)(json_t *into, json_t *from), GCompareFunc cmp)
{
	size_t i;
	json_t *x;
	json_array_foreach (from, i, x) {
		json_t *t = find_same(into, key, x, NULL);
		if (t)
			merge(t, x);
		else
			json_array_append_new(into, json_deep_copy(x));
	}
	sort_array(into, cmp);
}

/* Merge line class @from into @into, another replica's figures for the same
 * class: counts and times summed, sites matched by name. */
static void merge_line_class(json_t *into, json_t *from)
{
	merge_by(json_object_get(into, "sites"), json_object_get(from, "sites"), "site",
		 add_numbers, by_transfers_site);
	add_numbers(into, from); /* leaves the sites, an array, alone */
}

/* The replicas' line classes merged by name, most transfers first; NULL
 * when the replicas have none (a result from before the line model). */
static json_t *merge_cachelines(json_t *replicas)
{
	if (!json_object_get(json_array_get(replicas, 0), RK_cachelines))
		return NULL;
	json_t *merged = json_array();
	size_t i;
	json_t *r;
	json_array_foreach (replicas, i, r)
		merge_by(merged, json_object_get(r, RK_cachelines), "class", merge_line_class,
			 result_line_cmp);
	return merged;
}

/* The mean of @objs (same shape): numbers averaged, other values from the
 * first; nested objects and arrays of objects (matched by index) likewise. */
static json_t *mean_of(json_t **objs, size_t n)
{
	if (json_is_array(objs[0])) {
		json_t *out = json_array();
		for (size_t i = 0; i < json_array_size(objs[0]); i++) {
			json_t **items = g_new(json_t *, n);
			for (size_t r = 0; r < n; r++)
				items[r] = json_array_get(objs[r], i) ? json_array_get(objs[r], i)
								      : json_array_get(objs[0], i);
			json_array_append_new(out, mean_of(items, n));
			g_free(items);
		}
		return out;
	}
	if (!json_is_object(objs[0]))
		return json_deep_copy(objs[0]);
	json_t *out = json_object();
	const char *k;
	json_t *v;
	json_object_foreach (objs[0], k, v) {
		json_t **members = g_new(json_t *, n);
		bool numeric = json_is_number(v);
		double sum = 0;
		for (size_t r = 0; r < n; r++) {
			json_t *m = json_object_get(objs[r], k);
			members[r] = m ? m : v;
			sum += json_number_value(members[r]);
		}
		json_object_set_new(out, k,
				    numeric ? json_real(sum / (double)n) : mean_of(members, n));
		g_free(members);
	}
	return out;
}

static json_t *mean_member(json_t *replicas, const char *member)
{
	size_t n = json_array_size(replicas);
	if (!json_object_get(json_array_get(replicas, 0), member))
		return NULL;
	json_t **objs = g_new(json_t *, n);
	for (size_t r = 0; r < n; r++)
		objs[r] = json_object_get(json_array_get(replicas, r), member);
	json_t *out = mean_of(objs, n);
	g_free(objs);
	return out;
}

/* The replicas as they are, less their locks' wait histograms. */
static json_t *per_replica(json_t *replicas)
{
	json_t *per = json_array();
	size_t i;
	json_t *r;
	json_array_foreach (replicas, i, r) {
		json_t *c = json_deep_copy(r);
		json_object_del(c, RK_metric_info); /* the variant's */
		size_t j;
		json_t *l;
		json_array_foreach (json_object_get(c, RK_locks), j, l)
			json_object_del(l, "wait_hist");
		json_array_append_new(per, c);
	}
	return per;
}

/* Every distinct lockdep report of the replicas. */
static json_t *lockdep_reports(json_t *replicas)
{
	json_t *lockdep = json_array();
	size_t i;
	json_t *r;
	json_array_foreach (replicas, i, r) {
		size_t k;
		json_t *rep;
		json_array_foreach (json_object_get(r, "lockdep"), k, rep) {
			bool seen = false;
			size_t j;
			json_t *x;
			json_array_foreach (lockdep, j, x)
				seen |= json_equal(x, rep);
			if (!seen)
				json_array_append(lockdep, rep);
		}
	}
	return lockdep;
}

/* The mean of the memcg figures, with the violations of every replica;
 * NULL when there are none. */
static json_t *mean_memcg(json_t *replicas)
{
	json_t *mm = mean_member(replicas, "memcg");
	if (!mm)
		return NULL;
	json_object_set_new(mm, "violations", json_array());
	size_t i;
	json_t *r;
	json_array_foreach (replicas, i, r) {
		json_t *viol = json_object_get(json_object_get(r, "memcg"), "violations");
		if (viol)
			json_array_extend(json_object_get(mm, "violations"), viol);
	}
	return mm;
}

json_t *result_variant(const char *name, const char *description, json_t *replicas)
{
	size_t n = json_array_size(replicas), i;
	json_t *r;
	double t = 0;
	json_array_foreach (replicas, i, r)
		t += json_number_value(json_object_get(r, RK_sim_time_ns));
	json_t *cpu = json_object(), *metrics = json_object();
	mean_members(cpu, replicas, RK_cpu_time_ns);
	mean_members(metrics, replicas, RK_metrics);
	json_t *v = json_pack("{s:s, s:s, s:i, s:f, s:o, s:o, s:o}", "name", name, "description",
			      description ? description : "", "replicas", (int)n, RK_sim_time_ns,
			      t / (double)n, RK_cpu_time_ns, cpu, RK_locks, merge_locks(replicas),
			      RK_metrics, metrics);
	json_t *info = json_object_get(json_array_get(replicas, 0), RK_metric_info);
	if (info)
		json_object_set_new(v, RK_metric_info, json_deep_copy(info));
	json_object_set_new(v, "lockdep", lockdep_reports(replicas));
	json_t *lines = merge_cachelines(replicas);
	if (lines)
		json_object_set_new(v, RK_cachelines, lines);
	json_t *rcu = mean_member(replicas, "rcu");
	if (rcu)
		json_object_set_new(v, "rcu", rcu);
	json_t *irq = mean_member(replicas, "interrupts");
	if (irq)
		json_object_set_new(v, "interrupts", irq);
	json_t *mm = mean_memcg(replicas);
	if (mm)
		json_object_set_new(v, "memcg", mm);
	json_object_set_new(v, RK_per_replica, per_replica(replicas));
	return v;
}

void result_variant_draws(json_t *variant, json_t *draws)
{
	if (json_array_size(draws))
		json_object_set_new(variant, RK_draws, per_replica(draws));
}

/* The values of @key in the runs of @variant's array @runs. */
static double *samples_of(json_t *variant, const char *runs, const char *key, size_t *n)
{
	json_t *per = json_object_get(variant, runs);
	*n = json_array_size(per);
	double *x = g_new0(double, *n ? *n : 1);
	bool cpu = g_str_has_prefix(key, "cpu_time_ns.");
	size_t i;
	json_t *r;
	json_array_foreach (per, i, r)
		x[i] =
		    cpu ? json_number_value(json_object_get(json_object_get(r, RK_cpu_time_ns),
							    key + strlen("cpu_time_ns.")))
			: json_number_value(json_object_get(json_object_get(r, RK_metrics), key));
	return x;
}

double *result_samples(json_t *variant, const char *key, size_t *n)
{
	return samples_of(variant, RK_per_replica, key, n);
}

double *result_batch_increments(json_t *variant, const char *key, size_t *n)
{
	json_t *per = json_object_get(variant, RK_per_replica);
	json_t *cum = json_object_get(
	    json_object_get(json_object_get(json_array_get(per, 0), RK_batches), RK_metrics), key);
	*n = json_array_size(cum);
	if (json_array_size(per) != 1 || !*n)
		return NULL;
	json_t *steady =
	    json_object_get(json_object_get(json_array_get(per, 0), RK_batches), "steady");
	if (steady) /* after the first exit began: excluded, as the exit is */
		*n = MIN(*n, (size_t)json_integer_value(steady));
	double *x = g_new(double, *n);
	for (size_t i = 0; i < *n; i++) /* from the run's start; result_check saw numbers */
		x[i] = json_number_value(json_array_get(cum, i)) -
		       (i ? json_number_value(json_array_get(cum, i - 1)) : 0);
	return x;
}

double *result_draw_samples(json_t *variant, const char *key, size_t *n)
{
	return samples_of(variant, RK_draws, key, n);
}

json_t *result_document(json_t *base, json_t *variants, const char *model)
{
	json_t *doc = json_pack(
	    "{s:s, s:s*, s:s, s:s, s:I, s:o}", RK_format, RESULT_FORMAT, IDENTITY_KEY, model,
	    "scenario", json_string_value(json_object_get(base, "name")), "description",
	    json_string_value(json_object_get(base, "description")), "seed",
	    json_integer_value(json_object_get(base, "seed")), RK_variants, variants);
	json_t *published = json_object_get(base, RK_published);
	if (published) /* the scenario's, for the reports */
		json_object_set_new(doc, RK_published, json_deep_copy(published));
	const char *carried[] = {RK_exercises, RK_comparisons};
	for (size_t i = 0; i < G_N_ELEMENTS(carried); i++) { /* the scenario's */
		json_t *list = json_object_get(base, carried[i]);
		if (json_array_size(list))
			json_object_set_new(doc, carried[i], json_deep_copy(list));
	}
	return doc;
}

json_t *result_point_variants(json_t *point)
{
	return json_object_get(json_object_get(point, "result"), RK_variants);
}

double *result_points_samples(json_t *points, const char *key, size_t *n)
{
	GArray *all = g_array_new(FALSE, FALSE, sizeof(double));
	size_t i, v;
	json_t *p, *var;
	json_array_foreach (points, i, p)
		json_array_foreach (result_point_variants(p), v, var) {
			size_t k;
			double *x = result_samples(var, key, &k);
			g_array_append_vals(all, x, (guint)k);
			g_free(x);
		}
	*n = all->len;
	return (double *)(void *)g_array_free(all, FALSE);
}

json_t *result_machine(const struct sim_machine *m)
{
	return json_pack("{s:i, s:i, s:i, s:i, s:f, s:s}", "nodes", m->nodes, "cpus_per_node",
			 m->cpus_per_node, "threads_per_core", m->threads_per_core, "cores_per_llc",
			 m->cores_per_llc, "clock_ghz", m->clock_ghz, "contention",
			 sim_contention_names[m->contention]);
}

char *result_machine_text(json_t *machine)
{
	if (!json_is_object(machine))
		return NULL;
	json_int_t nodes = json_integer_value(json_object_get(machine, "nodes"));
	json_int_t threads = json_integer_value(json_object_get(machine, "threads_per_core"));
	return g_strdup_printf(
	    "%lld node%s x %lld CPUs, %lld thread%s a core, %lld cores an LLC, %g GHz, %s",
	    (long long)nodes, nodes == 1 ? "" : "s",
	    (long long)json_integer_value(json_object_get(machine, "cpus_per_node")),
	    (long long)threads, threads == 1 ? "" : "s",
	    (long long)json_integer_value(json_object_get(machine, "cores_per_llc")),
	    mcs_json_num(machine, "clock_ghz"),
	    json_string_value(json_object_get(machine, "contention"))
		? json_string_value(json_object_get(machine, "contention"))
		: "?");
}

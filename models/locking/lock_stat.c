// SPDX-License-Identifier: GPL-2.0-or-later
#include "lock_stat.h"
#include "cacheline.h"
#include "sim_json.h"
#include <string.h>

static GPtrArray *classes; /* creation order */
static GHashTable *by_name;
static bool record_sites; /* lock_stat_record_sites */

static void class_free(gpointer p)
{
	struct lock_class *c = p;
	g_hash_table_destroy(c->contention_points);
	g_hash_table_destroy(c->contending_points);
	g_hash_table_destroy(c->convoys);
	if (c->taken_at)
		g_hash_table_destroy(c->taken_at);
	g_free(c->lockdep_name);
	sim_hist_free(&c->wait_hist);
	g_free(c->name);
	g_free(c);
}

static void registry_init(void)
{
	if (classes)
		return;
	classes = g_ptr_array_new_with_free_func(class_free);
	by_name = g_hash_table_new(g_str_hash, g_str_equal);
}

struct lock_class *lock_class_get(const char *name)
{
	registry_init();
	struct lock_class *c = g_hash_table_lookup(by_name, name);
	if (c)
		return c;
	c = g_new0(struct lock_class, 1);
	c->name = g_strdup(name);
	c->type = "spinlock";
	c->wait_min = c->hold_min = SIM_TIME_MAX;
	c->contention_points = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
	c->contending_points = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
	c->convoys = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
	if (record_sites)
		c->taken_at = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
	g_ptr_array_add(classes, c);
	g_hash_table_insert(by_name, c->name, c);
	return c;
}

void lock_class_lockdep_name(struct lock_class *c, const char *name)
{
	g_free(c->lockdep_name);
	c->lockdep_name = g_strdup(name);
}

void lock_stat_record_sites(bool on)
{
	record_sites = on;
}

GPtrArray *lock_class_all(void)
{
	registry_init();
	return classes;
}

void lock_class_reset_all(void)
{
	if (!classes)
		return;
	g_hash_table_destroy(by_name);
	g_ptr_array_free(classes, TRUE);
	classes = NULL;
	by_name = NULL;
}

static struct lock_point *point_get(GHashTable *points, const char *site)
{
	struct lock_point *p = g_hash_table_lookup(points, site);
	if (!p) {
		p = g_new0(struct lock_point, 1);
		p->site = site;
		g_hash_table_insert(points, (gpointer)site, p);
	}
	return p;
}

void lock_stat_acquired(struct lock_class *c, const char *site, bool contended, bool bounced,
			const char *holder_site)
{
	c->acquisitions++;
	c->acq_bounces += bounced;
	if (c->taken_at)
		point_get(c->taken_at, site)->count++;
	if (!contended)
		return;
	c->contentions++;
	c->con_bounces += bounced;
	point_get(c->contention_points, site)->count++;
	if (holder_site)
		point_get(c->contending_points, holder_site)->count++;
}

void lock_stat_waited(struct lock_class *c, const char *site, sim_time_t wait)
{
	c->wait_total += wait;
	if (wait < c->wait_min)
		c->wait_min = wait;
	if (wait > c->wait_max)
		c->wait_max = wait;
	sim_hist_record(&c->wait_hist, wait);
	struct lock_point *p = point_get(c->contention_points, site);
	p->wait_total += wait;
	if (wait > p->wait_max)
		p->wait_max = wait;
}

void lock_stat_convoy(struct lock_class *held, const struct lock_class *waited, sim_time_t wait)
{
	struct lock_point *p = point_get(held->convoys, waited->name);
	p->count++;
	p->wait_total += wait;
	if (wait > p->wait_max)
		p->wait_max = wait;
}

void lock_stat_held_lines(struct lock_class *c, sim_time_t lines, sim_time_t queue)
{
	c->hold_lines += lines;
	c->hold_queue += queue;
}

void lock_stat_handover(struct lock_class *c, sim_time_t d)
{
	c->handover_total += d;
	c->handovers++;
}

void lock_stat_held(struct lock_class *c, sim_time_t hold, sim_time_t irqoff)
{
	c->hold_total += hold;
	if (hold < c->hold_min)
		c->hold_min = hold;
	if (hold > c->hold_max)
		c->hold_max = hold;
	c->irqoff_total += irqoff;
}

static gint point_cmp(gconstpointer a, gconstpointer b)
{
	const struct lock_point *x = *(struct lock_point *const *)a;
	const struct lock_point *y = *(struct lock_point *const *)b;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->site, y->site);
}

static GPtrArray *lock_stat_top_points(GHashTable *points, guint max)
{
	GPtrArray *a = g_ptr_array_new();
	GHashTableIter it;
	gpointer v;
	g_hash_table_iter_init(&it, points);
	while (g_hash_table_iter_next(&it, NULL, &v))
		g_ptr_array_add(a, v);
	g_ptr_array_sort(a, point_cmp);
	if (a->len > max)
		g_ptr_array_set_size(a, max);
	return a;
}

/* @points as a result's array, each named by @key (docs/results.md). */
static json_t *points_to_json(GHashTable *points, const char *key, bool with_wait)
{
	json_t *a = json_array();
	GPtrArray *top = lock_stat_top_points(points, G_MAXUINT);
	for (guint i = 0; i < top->len; i++) {
		const struct lock_point *p = top->pdata[i];
		json_t *o = json_pack("{s:s, s:I}", key, p->site, "count", (json_int_t)p->count);
		if (with_wait) {
			json_object_set_new(o, "wait_total_ns", sim_json_ns(p->wait_total));
			json_object_set_new(o, "wait_max_ns", sim_json_ns(p->wait_max));
		}
		json_array_append_new(a, o);
	}
	g_ptr_array_free(top, TRUE);
	return a;
}

json_t *lock_stat_to_json(const struct lock_class *c, bool with_hist)
{
	uint64_t con = c->contentions, acq = c->acquisitions;
	json_t *wait = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "min",
				 sim_json_ns(con ? c->wait_min : 0), "max",
				 sim_json_ns(c->wait_max), "total", sim_json_ns(c->wait_total),
				 "avg", sim_json_ns(con ? c->wait_total / (sim_time_t)con : 0),
				 "p50", sim_json_ns(sim_hist_quantile(&c->wait_hist, 0.5)), "p99",
				 sim_json_ns(sim_hist_quantile(&c->wait_hist, 0.99)), "p999",
				 sim_json_ns(sim_hist_quantile(&c->wait_hist, 0.999)));
	json_t *hold =
	    json_pack("{s:o, s:o, s:o, s:o}", "min", sim_json_ns(acq ? c->hold_min : 0), "max",
		      sim_json_ns(c->hold_max), "total", sim_json_ns(c->hold_total), "avg",
		      sim_json_ns(acq ? c->hold_total / (sim_time_t)acq : 0));
	json_t *o = json_pack("{s:s, s:s}", "class", c->name, "type", c->type);
	if (c->lockdep_name)
		json_object_set_new(o, "lockdep_class", json_string(c->lockdep_name));
#define COUNT(field, column) json_object_set_new(o, #field, json_integer((json_int_t)c->field));
	LOCK_STAT_COUNTS(COUNT)
	json_object_set_new(o, "wait_ns", wait);
	json_object_set_new(o, "hold_ns", hold);
	if (line_queued()) { /* docs/results.md: the hold's split, the hand-overs */
		json_object_set_new(hold, "lines", sim_json_ns(c->hold_lines));
		json_object_set_new(hold, "queueing", sim_json_ns(c->hold_queue));
		json_object_set_new(
		    o, "handover_ns",
		    json_pack("{s:o, s:I, s:o}", "total", sim_json_ns(c->handover_total), "count",
			      (json_int_t)c->handovers, "avg",
			      sim_json_ns(c->handovers
					      ? c->handover_total / (sim_time_t)c->handovers
					      : 0)));
	}
	json_object_set_new(o, "irqoff_ns", sim_json_ns(c->irqoff_total));
	json_object_set_new(o, "contention_points",
			    points_to_json(c->contention_points, "site", true));
	json_object_set_new(o, "contending_points",
			    points_to_json(c->contending_points, "site", false));
	if (g_hash_table_size(c->convoys))
		json_object_set_new(o, "convoys", points_to_json(c->convoys, "waiting_for", true));
	LOCK_STAT_LATE_COUNTS(COUNT)
#undef COUNT
	if (with_hist && c->wait_hist.bucket) {
		json_t *h = json_array();
		for (int i = 0; i < SIM_HIST_BUCKETS; i++)
			if (c->wait_hist.bucket[i])
				json_array_append_new(
				    h, json_pack("[i, I]", i, (json_int_t)c->wait_hist.bucket[i]));
		json_object_set_new(o, "wait_hist", h);
	}
	return o;
}

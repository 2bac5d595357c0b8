// SPDX-License-Identifier: GPL-2.0-or-later
/* The lock_stat table (/proc/lock_stat, version 0.4) and the compact
 * `perf lock contention` table. Times in the lock_stat table are in
 * microseconds with two decimals, as the kernel prints them. */
#include "mcs_json.h"
#include "report.h"
#include "report_sections.h"
#include "report_util.h"
#include <string.h>

#define LOCK_STAT_POINTS 4

/* Statistic @stat ("min", "max", "total", "avg") of a lock's @times
 * ("wait_ns" or "hold_ns"), in microseconds as lock_stat prints it. */
static double lock_stat_us(json_t *lock, const char *times, const char *stat)
{
	return mcs_json_num(json_object_get(lock, times), stat) / 1e3;
}

static void lock_stat_points(json_t *lock, const char *key, GString *out)
{
	json_t *points = json_object_get(lock, key);
	size_t i;
	json_t *p;
	json_array_foreach (points, i, p) {
		if (i == LOCK_STAT_POINTS)
			break;
		g_string_append_printf(out, "%40s %14lld          %s\n",
				       json_string_value(json_object_get(lock, "class")),
				       (long long)json_integer_value(json_object_get(p, "count")),
				       json_string_value(json_object_get(p, "site")));
	}
}

static gint by_contentions(gconstpointer a, gconstpointer b)
{
	json_int_t x = json_integer_value(json_object_get(*(json_t *const *)a, "contentions"));
	json_int_t y = json_integer_value(json_object_get(*(json_t *const *)b, "contentions"));
	return x > y ? -1 : x < y;
}

/* Under contention "queued": where each lock's time goes, per acquisition
 * (ns): the hold, its line accesses and the part of them queued at lines,
 * the rest of it (the section's own work), the wait, the hand-over. */
static void lock_time_split(GPtrArray *sorted, GString *out)
{
	if (!sorted->len || !json_object_get(sorted->pdata[0], "handover_ns"))
		return;
	g_string_append(out, "\nWhere the locks' time goes, ns an acquisition (hand-over: from "
			     "a release to the next grant, per contended acquisition)\n");
	g_string_append_printf(out, "%40s %12s %12s %12s %12s %12s %12s\n", "class name", "hold",
			       "lines", "queued", "rest", "wait", "hand-over");
	for (guint k = 0; k < sorted->len; k++) {
		json_t *l = sorted->pdata[k], *hold = json_object_get(l, "hold_ns");
		double acq = mcs_json_num(l, "acquisitions");
		double con = mcs_json_num(l, "contentions");
		if (acq <= 0)
			continue;
		double h = mcs_json_num(hold, "total") / acq,
		       lines = mcs_json_num(hold, "lines") / acq;
		g_string_append_printf(
		    out, "%40s %12.1f %12.1f %12.1f %12.1f %12.1f %12.1f\n",
		    json_string_value(json_object_get(l, "class")), h, lines,
		    mcs_json_num(hold, "queueing") / acq, h - lines,
		    con > 0 ? mcs_json_num(json_object_get(l, "wait_ns"), "total") / con : 0,
		    mcs_json_num(json_object_get(l, "handover_ns"), "avg"));
	}
}

/* Nested locks: the time each class's holders spent waiting for another
 * lock taken inside it, the pairs with the most waiting first. */
struct convoy_row {
	const char *held;
	json_t *point;
};

static gint by_convoy_wait(gconstpointer a, gconstpointer b)
{
	const struct convoy_row *x = a, *y = b;
	double u = mcs_json_num(x->point, "wait_total_ns"),
	       v = mcs_json_num(y->point, "wait_total_ns");
	if (u != v)
		return u > v ? -1 : 1;
	int c = strcmp(x->held, y->held);
	return c ? c
		 : strcmp(json_string_value(json_object_get(x->point, "waiting_for")),
			  json_string_value(json_object_get(y->point, "waiting_for")));
}

static void lock_convoys(json_t *locks, GString *out)
{
	GArray *rows = g_array_new(FALSE, FALSE, sizeof(struct convoy_row));
	size_t i, j;
	json_t *l, *p;
	json_array_foreach (locks, i, l)
		json_array_foreach (json_object_get(l, "convoys"), j, p)
			g_array_append_val(rows,
					   ((struct convoy_row){
					       json_string_value(json_object_get(l, "class")), p}));
	if (rows->len) {
		g_array_sort(rows, by_convoy_wait);
		g_string_append(out, "\nConvoys (nested locks): time spent holding a lock while "
				     "waiting for another taken inside it\n");
		g_string_append_printf(out, "%40s %40s %12s %14s %12s %12s\n", "holding",
				       "waiting for", "waits", "total (us)", "avg (ns)",
				       "max (ns)");
		for (guint k = 0; k < rows->len; k++) {
			struct convoy_row *r = &g_array_index(rows, struct convoy_row, k);
			double n = mcs_json_num(r->point, "count");
			double total = mcs_json_num(r->point, "wait_total_ns");
			g_string_append_printf(
			    out, "%40s %40s %12.0f %14.2f %12.1f %12.1f\n", r->held,
			    json_string_value(json_object_get(r->point, "waiting_for")), n,
			    total / 1e3, n > 0 ? total / n : 0,
			    mcs_json_num(r->point, "wait_max_ns"));
		}
	}
	g_array_free(rows, TRUE);
}

void report_lock_stat(json_t *locks, GString *out)
{
	const int width = 40 + 12 * 15;
	if (!json_array_size(locks))
		return;
	g_string_append(out, "lock_stat version 0.4\n");
	report_dashes(out, width);
	g_string_append_printf(out, "%40s", "class name");
	static const char *const cols[] = {"con-bounces",  "contentions",    "waittime-min",
					   "waittime-max", "waittime-total", "waittime-avg",
					   "acq-bounces",  "acquisitions",   "holdtime-min",
					   "holdtime-max", "holdtime-total", "holdtime-avg"};
	for (size_t i = 0; i < G_N_ELEMENTS(cols); i++)
		g_string_append_printf(out, " %14s", cols[i]);
	g_string_append_c(out, '\n');
	report_dashes(out, width);
	GPtrArray *sorted = report_sorted(locks, by_contentions);
	for (guint k = 0; k < sorted->len; k++) {
		json_t *l = sorted->pdata[k];
		char *name = g_strdup_printf("%s:", json_string_value(json_object_get(l, "class")));
		g_string_append_printf(
		    out,
		    "\n%40s %14.0f %14.0f %14.2f %14.2f %14.2f %14.2f %14.0f %14.0f %14.2f "
		    "%14.2f %14.2f %14.2f\n",
		    name, mcs_json_num(l, "con_bounces"), mcs_json_num(l, "contentions"),
		    lock_stat_us(l, "wait_ns", "min"), lock_stat_us(l, "wait_ns", "max"),
		    lock_stat_us(l, "wait_ns", "total"), lock_stat_us(l, "wait_ns", "avg"),
		    mcs_json_num(l, "acq_bounces"), mcs_json_num(l, "acquisitions"),
		    lock_stat_us(l, "hold_ns", "min"), lock_stat_us(l, "hold_ns", "max"),
		    lock_stat_us(l, "hold_ns", "total"), lock_stat_us(l, "hold_ns", "avg"));
		g_free(name);
		if (json_array_size(json_object_get(l, "contention_points")) == 0)
			continue;
		g_string_append_printf(out, "%40s\n", "-----------");
		lock_stat_points(l, "contention_points", out);
		g_string_append_printf(out, "%40s\n", "-----------");
		lock_stat_points(l, "contending_points", out);
	}
	report_dashes(out, width);
	lock_time_split(sorted, out);
	lock_convoys(locks, out);
	g_ptr_array_free(sorted, TRUE);
}

struct perf_row {
	json_t *lock;
	json_t *point;
};

static double point_key(const struct perf_row *r, const char *sort)
{
	double n = mcs_json_num(r->point, "count");
	double total = mcs_json_num(r->point, "wait_total_ns");
	if (g_str_equal(sort, "contended"))
		return n;
	if (g_str_equal(sort, "wait_max"))
		return mcs_json_num(r->point, "wait_max_ns");
	if (g_str_equal(sort, "wait_avg"))
		return n ? total / n : 0;
	return total;
}

static const char *const sort_keys[] = {"contended", "wait_total", "wait_max", "wait_avg", NULL};

bool report_sort_valid(const char *s)
{
	return g_strv_contains(sort_keys, s);
}

/* Largest first; ties by caller then class, so the order is total. */
static gint by_key(gconstpointer a, gconstpointer b, gpointer sort)
{
	const struct perf_row *x = a, *y = b;
	double kx = point_key(x, sort), ky = point_key(y, sort);
	if (kx != ky)
		return kx > ky ? -1 : 1;
	int c = g_strcmp0(json_string_value(json_object_get(x->point, "site")),
			  json_string_value(json_object_get(y->point, "site")));
	return c ? c
		 : g_strcmp0(json_string_value(json_object_get(x->lock, "class")),
			     json_string_value(json_object_get(y->lock, "class")));
}

void report_perf_lock(json_t *locks, const struct report_opts *o, GString *out)
{
	const char *sort = o->sort;
	GArray *rows = g_array_new(FALSE, FALSE, sizeof(struct perf_row));
	size_t i, j;
	json_t *l, *p;
	json_array_foreach (locks, i, l)
		json_array_foreach (json_object_get(l, "contention_points"), j, p) {
			struct perf_row r = {l, p};
			g_array_append_val(rows, r);
		}
	g_array_sort_with_data(rows, by_key, (gpointer)sort);
	if (rows->len == 0) { /* no contention: no table */
		g_array_free(rows, TRUE);
		return;
	}
	g_string_append_printf(out, "\n%10s %12s %12s %12s %12s   %s\n", "contended", "total wait",
			       "max wait", "avg wait", "type", "caller");
	for (guint k = 0; k < rows->len; k++) {
		struct perf_row *r = &g_array_index(rows, struct perf_row, k);
		double n = mcs_json_num(r->point, "count");
		double total = mcs_json_num(r->point, "wait_total_ns");
		g_string_append_printf(out, "%10.0f ", n);
		report_time(out, total, 12);
		g_string_append_c(out, ' ');
		report_time(out, mcs_json_num(r->point, "wait_max_ns"), 12);
		g_string_append_c(out, ' ');
		report_time(out, n ? total / n : 0, 12);
		g_string_append_printf(out, " %12s   %s (%s)\n",
				       json_string_value(json_object_get(r->lock, "type")),
				       json_string_value(json_object_get(r->point, "site")),
				       json_string_value(json_object_get(r->lock, "class")));
	}
	g_array_free(rows, TRUE);
}

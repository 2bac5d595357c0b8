// SPDX-License-Identifier: GPL-2.0-or-later
/* Where a swapped-out page's time goes: with swap-out in the variant, its
 * CPU time, then each lock class's acquisitions, hold, wait and hand-overs
 * per page swapped out, with the kernel functions that waited on it, then
 * the kernel functions that moved cache lines most, per page (the
 * cache-line table's sites). The CPU time and pswpout are means over the
 * replicas, the locks and lines summed over them (docs/results.md). */
#include "mcs_json.h"
#include "report_sections.h"
#include "report_util.h"
#include "result_keys.h"

#define PER_PAGE_SITES 8

static void lock_rows(json_t *locks, double pages, GString *out)
{
	g_string_append_printf(out, "%-34s %9s %9s %9s %9s  %s\n", "lock class", "acq/page",
			       "hold ns", "wait ns", "handover", "waited in (contended/page)");
	size_t i;
	json_t *l;
	json_array_foreach (locks, i, l) {
		double acq = mcs_json_num(l, "acquisitions") / pages;
		if (acq < 0.001)
			continue;
		g_string_append_printf(out, "%-34.34s %9.3f %9.1f %9.1f %9.1f ",
				       json_string_value(json_object_get(l, "class")), acq,
				       mcs_json_num(json_object_get(l, "hold_ns"), "total") / pages,
				       mcs_json_num(json_object_get(l, "wait_ns"), "total") / pages,
				       mcs_json_num(json_object_get(l, "handover_ns"), "total") /
					   pages);
		size_t j;
		json_t *p;
		json_array_foreach (json_object_get(l, "contention_points"), j, p) {
			if (j == 2)
				break;
			g_string_append_printf(out, " %s %.3f",
					       json_string_value(json_object_get(p, "site")),
					       mcs_json_num(p, "count") / pages);
		}
		g_string_append_c(out, '\n');
	}
}

struct site_row {
	const char *site, *cls;
	double transfers, time;
};

static gint by_time(gconstpointer a, gconstpointer b)
{
	const struct site_row *x = a, *y = b;
	return x->time > y->time ? -1 : x->time < y->time ? 1 : strcmp(x->site, y->site);
}

static void site_rows(json_t *cachelines, double pages, GString *out)
{
	GArray *rows = g_array_new(FALSE, FALSE, sizeof(struct site_row));
	size_t i, j;
	json_t *c, *s;
	json_array_foreach (cachelines, i, c)
		json_array_foreach (json_object_get(c, "sites"), j, s) {
			struct site_row r = {json_string_value(json_object_get(s, "site")),
					     json_string_value(json_object_get(c, "class")),
					     mcs_json_num(s, "transfers"),
					     mcs_json_num(s, "time_ns")};
			if (r.transfers > 0)
				g_array_append_val(rows, r);
		}
	g_array_sort(rows, by_time);
	g_string_append_printf(out, "\n%-30s %-40s %10s %9s\n", "kernel function (line site)",
			       "line class", "xfers/page", "ns/page");
	for (guint k = 0; k < MIN(rows->len, PER_PAGE_SITES); k++) {
		const struct site_row *r = &g_array_index(rows, struct site_row, k);
		g_string_append_printf(out, "%-30.30s %-40.40s %10.3f %9.1f\n", r->site, r->cls,
				       r->transfers / pages, r->time / pages);
	}
	g_array_free(rows, TRUE);
}

void report_per_page(json_t *variant, GString *out)
{
	json_t *rec = json_object_get(json_object_get(variant, "memcg"), "reclaim");
	double pages = mcs_json_num(rec, "pswpout");
	if (!rec || pages <= 0)
		return;
	json_t *cpu = json_object_get(variant, RK_cpu_time_ns);
	g_string_append_printf(
	    out,
	    "\nWhere a swapped page's time goes (per page swapped out, %.0f pages): "
	    "sys %.2f us, spin %.2f us, user %.2f us, unexplained %.2f us\n",
	    pages, mcs_json_num(cpu, "sys") / pages / 1e3, mcs_json_num(cpu, "spin") / pages / 1e3,
	    mcs_json_num(cpu, "user") / pages / 1e3,
	    mcs_json_num(cpu, "unexplained") / pages / 1e3);
	json_int_t replicas = json_integer_value(json_object_get(variant, "replicas"));
	double merged = pages * (double)MAX(replicas, 1);
	lock_rows(json_object_get(variant, RK_locks), merged, out);
	site_rows(json_object_get(variant, RK_cachelines), merged, out);
}

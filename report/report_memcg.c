// SPDX-License-Identifier: GPL-2.0-or-later
/* Reclaim statistics, list_lru and shrinker counters, and a per-cgroup
 * summary, for variants that ran the memcg model. */
#include "mcs_json.h"
#include "mm_stats.h"
#include "report_sections.h"
#include "report_util.h"

#define CGROUP_ROWS 8

/* What the report calls each figure of a memcg statistics struct
 * (mm_stats.h: the fields and their labels are declared once, there). */
struct stat_label {
	const char *key, *label;
};
#define STAT_LABEL(field, label) {#field, label},
static const struct stat_label memcg_labels[] = {MEMCG_STATS(STAT_LABEL){NULL, NULL}};
static const struct stat_label list_lru_labels[] = {LIST_LRU_STATS(STAT_LABEL){NULL, NULL}};
static const struct stat_label swap_labels[] = {SWAP_STATS(STAT_LABEL){NULL, NULL}};
static const struct stat_label page_cgroup_labels[] = {PAGE_CGROUP_STATS(STAT_LABEL){NULL, NULL}};
static const struct stat_label folio_lru_labels[] = {FOLIO_LRU_STATS(STAT_LABEL){NULL, NULL}};
#undef STAT_LABEL

static const char *label_of(const struct stat_label *t, const char *key)
{
	for (; t->key; t++)
		if (g_str_equal(t->key, key))
			return t->label;
	g_assert_not_reached(); /* a key mm_stats.h does not list */
}

/* Printf arguments for "%.0f %s": figure @key of @o and its label. */
#define STAT(o, labels, key) mcs_json_num(o, key), label_of(labels, key)

/* ", N label" for each labelled figure of @o, in the order of @t. */
static void stat_list(GString *out, json_t *o, const struct stat_label *t, const char *sep)
{
	for (; t->key; t++)
		if (t->label) {
			g_string_append_printf(out, "%s%.0f %s", sep, mcs_json_num(o, t->key),
					       t->label);
			sep = ", ";
		}
}

static void reclaim_table(json_t *mm, GString *out)
{
	json_t *r = json_object_get(mm, "reclaim");
	g_string_append_printf(out,
			       "Reclaim (list_lru scope %s): %.0f %s, %.0f %s, %.0f %s (%.0f %s, "
			       "%.0f %s), %.0f %s\n  ",
			       json_string_value(json_object_get(mm, "list_lru_scope")),
			       STAT(r, memcg_labels, "reclaim_calls"),
			       STAT(r, memcg_labels, "pgscan"), STAT(r, memcg_labels, "pgsteal"),
			       STAT(r, memcg_labels, "pswpout"),
			       STAT(r, memcg_labels, "file_dropped"), STAT(r, memcg_labels, "oom"));
	if (mcs_json_num(r, "shrinker_calls") > 0)
		g_string_append_printf(out, "shrinkers: %.0f %s, %.0f %s, %.0f %s; ",
				       STAT(r, memcg_labels, "shrinker_calls"),
				       STAT(r, memcg_labels, "slab_scanned"),
				       STAT(r, memcg_labels, "slab_freed"));
	g_string_append(out, "time in direct reclaim: ");
	report_time(out, mcs_json_num(r, "reclaim_time_ns"), 0);
	g_string_append_c(out, '\n');
	size_t i;
	json_t *l;
	json_array_foreach (json_object_get(mm, "list_lrus"), i, l) {
		if (mcs_json_num(l, "added") <= 0)
			continue;
		g_string_append_printf(out, "  list_lru %s: %.0f items left",
				       json_string_value(json_object_get(l, "name")),
				       mcs_json_num(l, "items"));
		stat_list(out, l, list_lru_labels, ", ");
		g_string_append_c(out, '\n');
	}
	json_t *swap = json_object_get(mm, "swap");
	if (mcs_json_num(swap, "slots_used") > 0) {
		g_string_append(out, "  swap: ");
		stat_list(out, swap, swap_labels, "");
		g_string_append_c(out, '\n');
	}
}

static gint by_reclaim_time(gconstpointer a, gconstpointer b)
{
	double x = mcs_json_num(*(json_t *const *)a, "reclaim_time_ns");
	double y = mcs_json_num(*(json_t *const *)b, "reclaim_time_ns");
	return x > y ? -1 : x < y;
}

static void cgroup_table(json_t *mm, GString *out)
{
	json_t *cgroups = json_object_get(mm, "cgroups");
	if (!json_array_size(cgroups))
		return;
	GPtrArray *rows = report_sorted(cgroups, by_reclaim_time);
	json_t *c;
	g_string_append_printf(out, "Per cgroup (%zu; the %d with most reclaim time):\n",
			       json_array_size(cgroups), CGROUP_ROWS);
	g_string_append_printf(out, "  %-20s %10s %10s %12s %12s %9s %6s %14s\n", "cgroup",
			       "max MiB", "usage MiB", "charged", "reclaimed", "reclaims", "OOM",
			       "reclaim time");
	for (guint k = 0; k < rows->len && k < CGROUP_ROWS; k++) {
		c = rows->pdata[k];
		g_string_append_printf(out, "  %-20s %10.1f %10.1f %12.0f %12.0f %9.0f %6.0f ",
				       json_string_value(json_object_get(c, "name")),
				       mcs_json_num(c, "max_pages") / 256,
				       mcs_json_num(c, "usage_pages") / 256,
				       mcs_json_num(c, "charged"), mcs_json_num(c, "pgsteal"),
				       mcs_json_num(c, "reclaim_calls"), mcs_json_num(c, "oom"));
		report_time(out, mcs_json_num(c, "reclaim_time_ns"), 14);
		g_string_append_c(out, '\n');
	}
	g_ptr_array_free(rows, TRUE);
}

static void page_cgroup_line(json_t *mm, GString *out)
{
	json_t *pc = json_object_get(mm, "page_cgroup");
	if (!pc)
		return;
	const struct stat_label *t = page_cgroup_labels;
	g_string_append_printf(out, "page_cgroup (%s): %.0f %s, %.0f %s, %.0f %s",
			       json_string_value(json_object_get(pc, "locking")),
			       STAT(pc, t, "updates"), STAT(pc, t, "locked"),
			       STAT(pc, t, "lockless"));
	if (mcs_json_num(pc, "moves") <= 0) {
		g_string_append(out, "\n");
		return;
	}
	g_string_append_printf(out, "; %.0f %s (%.0f %s), mover latency mean ",
			       STAT(pc, t, "moves"), STAT(pc, t, "pages_moved"));
	report_time(out, mcs_json_num(pc, "move_latency_mean_ns"), 0);
	g_string_append(out, ", max ");
	report_time(out, mcs_json_num(pc, "move_latency_max_ns"), 0);
	g_string_append_c(out, '\n');
}

/* The folio LRU (memcg.node_memory_mb), when the run had one. */
static void folio_lru_line(json_t *mm, GString *out)
{
	json_t *l = json_object_get(mm, "lru");
	if (!l)
		return;
	const struct stat_label *t = folio_lru_labels;
	g_string_append_printf(out,
			       "Page LRU (lru lock scope %s): %.0f %s and %.0f %s; %.0f %s, %.0f "
			       "%s, %.0f %s; %.0f %s; "
			       "%.0f %s, %.0f %s\n",
			       json_string_value(json_object_get(mm, "lru_lock_scope")),
			       STAT(l, t, "lru_add_batches"), STAT(l, t, "activate_batches"),
			       STAT(l, t, "isolated"), STAT(l, t, "putback"),
			       STAT(l, t, "reclaimed"), STAT(l, t, "relocks"),
			       STAT(l, t, "kswapd_wakeups"), STAT(l, t, "direct_reclaims"));
}

void report_memcg(json_t *variant, GString *out)
{
	json_t *mm = json_object_get(variant, "memcg");
	if (!mm)
		return;
	page_cgroup_line(mm, out);
	folio_lru_line(mm, out);
	if (!json_object_get(mm, "reclaim") || !json_array_size(json_object_get(mm, "cgroups")) ||
	    mcs_json_num(json_object_get(mm, "reclaim"), "charged") == 0) {
		g_string_append_c(out, '\n');
		return;
	}
	reclaim_table(mm, out);
	cgroup_table(mm, out);
	size_t i;
	json_t *v;
	json_array_foreach (json_object_get(mm, "violations"), i, v)
		g_string_append_printf(out, "VIOLATION: %s\n", json_string_value(v));
	g_string_append_c(out, '\n');
}

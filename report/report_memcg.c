/* Reclaim statistics, list_lru and shrinker counters, and a per-cgroup
 * summary, for variants that ran the memcg model. */
#include "mcs_json.h"
#include "report_sections.h"
#include "report_util.h"

#define CGROUP_ROWS 8

static void reclaim_table(json_t *mm, GString *out)
{
	json_t *r = json_object_get(mm, "reclaim");
	g_string_append_printf(
		out,
		"Reclaim (list_lru scope %s): %.0f direct reclaims, %.0f pages scanned, %.0f "
		"reclaimed (%.0f swapped out, %.0f file pages dropped), %.0f OOM events\n  ",
		json_string_value(json_object_get(mm, "list_lru_scope")), mcs_json_num(r, "reclaim_calls"),
		mcs_json_num(r, "pgscan"), mcs_json_num(r, "pgsteal"), mcs_json_num(r, "pswpout"), mcs_json_num(r, "file_dropped"),
		mcs_json_num(r, "oom"));
	if (mcs_json_num(r, "shrinker_calls") > 0)
		g_string_append_printf(out, "shrinkers: %.0f calls, %.0f objects scanned, %.0f freed; ",
				       mcs_json_num(r, "shrinker_calls"), mcs_json_num(r, "slab_scanned"),
				       mcs_json_num(r, "slab_freed"));
	g_string_append(out, "time in direct reclaim: ");
	report_time(out, mcs_json_num(r, "reclaim_time_ns"), 0);
	g_string_append_c(out, '\n');
	size_t i;
	json_t *l;
	json_array_foreach (json_object_get(mm, "list_lrus"), i, l)
		if (mcs_json_num(l, "added") > 0)
			g_string_append_printf(out,
				       "  list_lru %s: %.0f items left, %.0f added, %.0f deleted, "
				       "%.0f isolated, %.0f walk retries, %.0f reparented\n",
				       json_string_value(json_object_get(l, "name")), mcs_json_num(l, "items"),
				       mcs_json_num(l, "added"), mcs_json_num(l, "deleted"), mcs_json_num(l, "isolated"),
				       mcs_json_num(l, "retries"), mcs_json_num(l, "reparented_items"));
	json_t *swap = json_object_get(mm, "swap");
	if (mcs_json_num(swap, "slots_used") > 0)
		g_string_append_printf(out,
				       "  swap: %.0f slots used, %.0f xarray nodes allocated, %.0f "
				       "shadow nodes reclaimed, %.0f i_pages trylock retries\n",
				       mcs_json_num(swap, "slots_used"), mcs_json_num(swap, "nodes_allocated"),
				       mcs_json_num(swap, "nodes_reclaimed"), mcs_json_num(swap, "isolate_retries"));
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
				       mcs_json_num(c, "max_pages") / 256, mcs_json_num(c, "usage_pages") / 256,
				       mcs_json_num(c, "charged"), mcs_json_num(c, "pgsteal"), mcs_json_num(c, "reclaim_calls"),
				       mcs_json_num(c, "oom"));
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
	g_string_append_printf(out,
			       "page_cgroup (%s): %.0f statistics updates, %.0f under the lock, "
			       "%.0f lockless",
			       json_string_value(json_object_get(pc, "locking")), mcs_json_num(pc, "updates"),
			       mcs_json_num(pc, "locked"), mcs_json_num(pc, "lockless"));
	if (mcs_json_num(pc, "moves") <= 0) {
		g_string_append(out, "\n");
		return;
	}
	g_string_append_printf(out, "; %.0f charge moves (%.0f pages), mover latency mean ",
			       mcs_json_num(pc, "moves"), mcs_json_num(pc, "pages_moved"));
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
	g_string_append_printf(
		out,
		"Page LRU (lru lock scope %s): %.0f lru_add and %.0f activate batches; %.0f folios "
		"isolated, %.0f put back, %.0f reclaimed; %.0f relocks; %.0f kswapd wakeups, %.0f "
		"direct reclaims\n",
		json_string_value(json_object_get(mm, "lru_lock_scope")), mcs_json_num(l, "lru_add_batches"),
		mcs_json_num(l, "activate_batches"), mcs_json_num(l, "isolated"), mcs_json_num(l, "putback"), mcs_json_num(l, "reclaimed"),
		mcs_json_num(l, "relocks"), mcs_json_num(l, "kswapd_wakeups"), mcs_json_num(l, "direct_reclaims"));
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

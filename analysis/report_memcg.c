/* Reclaim statistics, list_lru and shrinker counters, and a per-cgroup
 * summary, for variants that ran the memcg model. */
#include "report.h"

#define CGROUP_ROWS 8

static double num(json_t *o, const char *k)
{
	return json_number_value(json_object_get(o, k));
}

static void reclaim_table(json_t *mm, GString *out)
{
	json_t *r = json_object_get(mm, "reclaim");
	g_string_append_printf(
		out,
		"Reclaim (list_lru scope %s): %.0f direct reclaims, %.0f pages scanned, %.0f "
		"reclaimed (%.0f swapped out, %.0f file pages dropped), %.0f OOM events\n  ",
		json_string_value(json_object_get(mm, "list_lru_scope")), num(r, "reclaim_calls"),
		num(r, "pgscan"), num(r, "pgsteal"), num(r, "pswpout"), num(r, "file_dropped"),
		num(r, "oom"));
	if (num(r, "shrinker_calls") > 0)
		g_string_append_printf(out, "shrinkers: %.0f calls, %.0f objects scanned, %.0f freed; ",
				       num(r, "shrinker_calls"), num(r, "slab_scanned"),
				       num(r, "slab_freed"));
	g_string_append(out, "time in direct reclaim: ");
	report_time(out, num(r, "reclaim_time_ns"), 0);
	g_string_append_c(out, '\n');
	size_t i;
	json_t *l;
	json_array_foreach (json_object_get(mm, "list_lrus"), i, l)
		if (num(l, "added") > 0)
			g_string_append_printf(out,
				       "  list_lru %s: %.0f items left, %.0f added, %.0f deleted, "
				       "%.0f isolated, %.0f walk retries, %.0f reparented\n",
				       json_string_value(json_object_get(l, "name")), num(l, "items"),
				       num(l, "added"), num(l, "deleted"), num(l, "isolated"),
				       num(l, "retries"), num(l, "reparented_items"));
	json_t *swap = json_object_get(mm, "swap");
	if (num(swap, "slots_used") > 0)
		g_string_append_printf(out,
				       "  swap: %.0f slots used, %.0f xarray nodes allocated, %.0f "
				       "shadow nodes reclaimed, %.0f i_pages trylock retries\n",
				       num(swap, "slots_used"), num(swap, "nodes_allocated"),
				       num(swap, "nodes_reclaimed"), num(swap, "isolate_retries"));
}

static gint by_reclaim_time(gconstpointer a, gconstpointer b)
{
	double x = num(*(json_t *const *)a, "reclaim_time_ns");
	double y = num(*(json_t *const *)b, "reclaim_time_ns");
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
				       num(c, "max_pages") / 256, num(c, "usage_pages") / 256,
				       num(c, "charged"), num(c, "pgsteal"), num(c, "reclaim_calls"),
				       num(c, "oom"));
		report_time(out, num(c, "reclaim_time_ns"), 14);
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
			       json_string_value(json_object_get(pc, "locking")), num(pc, "updates"),
			       num(pc, "locked"), num(pc, "lockless"));
	if (num(pc, "moves") <= 0) {
		g_string_append(out, "\n");
		return;
	}
	g_string_append_printf(out, "; %.0f charge moves (%.0f pages), mover latency mean ",
			       num(pc, "moves"), num(pc, "pages_moved"));
	report_time(out, num(pc, "move_latency_mean_ns"), 0);
	g_string_append(out, ", max ");
	report_time(out, num(pc, "move_latency_max_ns"), 0);
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
		json_string_value(json_object_get(mm, "lru_lock_scope")), num(l, "lru_add_batches"),
		num(l, "activate_batches"), num(l, "isolated"), num(l, "putback"), num(l, "reclaimed"),
		num(l, "relocks"), num(l, "kswapd_wakeups"), num(l, "direct_reclaims"));
}

void report_memcg(json_t *variant, GString *out)
{
	json_t *mm = json_object_get(variant, "memcg");
	if (!mm)
		return;
	page_cgroup_line(mm, out);
	folio_lru_line(mm, out);
	if (!json_object_get(mm, "reclaim") || !json_array_size(json_object_get(mm, "cgroups")) ||
	    num(json_object_get(mm, "reclaim"), "charged") == 0) {
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

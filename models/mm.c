#include "mm.h"
#include "page_cgroup.h"
#include "rcu.h"
#include "sim_irq.h"
#include "sim_rng.h"
#include "list_lru.h"
#include "lru_check.h"
#include "scenario_memcg.h"
#include "shrinker.h"
#include "swap.h"

static struct page_cgroup_map *pc_map;
static struct sim_rng *writeback_rng;

struct page_cgroup_map *mm_page_cgroup_map(void)
{
	return pc_map;
}

/* The completion interrupt: test_clear_page_writeback of the oldest page
 * under writeback; with no writer in the scenario, of a random page (the
 * update from interrupt context is what the locking schemes differ on). */
static void writeback_end_io(struct sim_task *t, void *arg)
{
	if (!g_queue_is_empty(&pc_map->writeback)) {
		page_cgroup_end_writeback(t, pc_map);
		return;
	}
	long page = (long)(sim_rng_uniform01(writeback_rng) * (double)pc_map->nr_pages);
	mem_cgroup_update_page_stat(t, pc_map, page, MEMCG_NR_WRITEBACK, -1,
				    "test_clear_page_writeback");
}

/* The file's page_cgroups; RCU (its tick: the first periodic interrupt
 * source) when updates use it; the writeback-completion handler. */
static void page_cgroup_setup(json_t *pc, json_t *doc)
{
	if (!pc)
		return;
	const char *cg = json_string_value(json_object_get(pc, "cgroup"));
	struct mem_cgroup *memcg = *cg ? mem_cgroup_lookup(cg) : memcg_tree->root;
	pc_map = page_cgroup_map_new(
		page_cgroup_ops_find(json_string_value(json_object_get(pc, "locking"))),
		(long)json_integer_value(json_object_get(pc, "pages")), memcg);
	int tick = -1;
	const char *wb = json_string_value(json_object_get(pc, "writeback_irq"));
	for (int i = 0; i < sim_irq_nsources(); i++) {
		struct sim_irq_source *s = sim_irq_source(i);
		if (tick < 0 && s->kind == SIM_IRQ_PERIODIC)
			tick = i;
		if (wb && g_str_equal(s->name, wb)) {
			s->action = writeback_end_io;
			writeback_rng = sim_rng_new(sim_seed(), "page_cgroup.writeback");
		}
	}
	rcu_init(tick);
}

/* Does the scenario use the memory-management model at all? */
static bool mm_used(json_t *doc)
{
	json_t *mj = json_object_get(doc, "memcg");
	if (json_array_size(json_object_get(mj, "cgroups")) || json_object_get(mj, "swap") ||
	    json_object_get(mj, "page_cgroup"))
		return true;
	size_t i;
	json_t *w;
	json_array_foreach (json_object_get(doc, "workloads"), i, w)
		if (json_object_get(w, "cgroup"))
			return true;
	return false;
}

void mm_setup(json_t *doc)
{
	json_t *mj = json_object_get(doc, "memcg");
	if (!mm_used(doc))
		return;
	memcg_tree_init(sim_machine()->nodes, sim_ncpus());
	memcg_tree->lru_scope =
		list_lru_scope_find(json_string_value(json_object_get(mj, "list_lru_scope")));
	shrinker_registry_init();
	GPtrArray *cgroups = scenario_cgroups(doc);
	for (guint i = 0; i < cgroups->len; i++) {
		struct scenario_cgroup *c = cgroups->pdata[i];
		mem_cgroup_create(c->name, c->max_pages ? c->max_pages : G_MAXLONG);
	}
	g_ptr_array_free(cgroups, TRUE);
	page_cgroup_setup(json_object_get(mj, "page_cgroup"), doc);
	json_t *swap = json_object_get(mj, "swap");
	if (swap)
		swap_device_init((long)(json_number_value(json_object_get(swap, "size_mb")) * 256),
				 (long)json_integer_value(json_object_get(swap, "batch_pages")),
				 g_str_equal(json_string_value(json_object_get(swap, "cluster_order")),
					     "interleave"),
				 memcg_tree->lru_scope);
}

static json_t *ns(sim_time_t t)
{
	return json_real(sim_to_ns(t));
}

#define STAT_FIELDS(X)                                                                          \
	X(charged) X(uncharged) X(pgscan) X(pgsteal) X(pswpout) X(file_dropped) X(reclaim_calls) \
	X(oom) X(shrinker_calls) X(slab_scanned) X(slab_freed)

static json_t *memcg_stats_json(const struct memcg_stats *st)
{
	json_t *o = json_object();
#define X(f) json_object_set_new(o, #f, json_integer(st->f));
	STAT_FIELDS(X)
#undef X
	json_object_set_new(o, "reclaim_time_ns", ns(st->reclaim_time));
	return o;
}

static void stats_add(struct memcg_stats *into, const struct memcg_stats *from)
{
#define X(f) into->f += from->f;
	STAT_FIELDS(X)
#undef X
	into->reclaim_time += from->reclaim_time;
}

static json_t *cgroups_json(struct memcg_stats *total)
{
	json_t *a = json_array();
	for (guint i = 1; i < memcg_tree->all->len; i++) {
		struct mem_cgroup *m = memcg_tree->all->pdata[i];
		json_t *o = json_pack("{s:s, s:b, s:I, s:I}", "name", m->name, "online", m->online,
				      "usage_pages", (json_int_t)m->memory.usage, "max_pages",
				      (json_int_t)(m->memory.max == G_MAXLONG ? 0 : m->memory.max));
		json_object_update(o, memcg_stats_json(&m->stat));
		json_array_append_new(a, o);
		stats_add(total, &m->stat);
	}
	return a;
}

static json_t *lrus_json(void)
{
	json_t *a = json_array();
	GPtrArray *lrus = list_lru_all();
	for (guint i = 0; i < lrus->len; i++) {
		struct list_lru *l = lrus->pdata[i];
		long items = 0;
		for (int n = 0; n < l->nodes; n++)
			items += list_lru_count_node(l, n);
		json_array_append_new(
			a, json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "name",
				     l->name, "scope", l->scope->name, "items", (json_int_t)items,
				     "added", (json_int_t)l->stat.added, "deleted",
				     (json_int_t)l->stat.deleted, "isolated",
				     (json_int_t)l->stat.isolated, "rotated",
				     (json_int_t)l->stat.rotated, "retries",
				     (json_int_t)l->stat.retries, "reparented_items",
				     (json_int_t)l->stat.reparented_items, "wrong_list_del",
				     (json_int_t)l->stat.wrong_list_del));
	}
	return a;
}

static json_t *shrinkers_json(void)
{
	json_t *a = json_array();
	for (int i = 0; i < shrinker_count(); i++) {
		struct shrinker *s = shrinker_by_id(i);
		json_array_append_new(a, json_pack("{s:s, s:I, s:I, s:I}", "name", s->name, "calls",
						   (json_int_t)s->calls, "scanned",
						   (json_int_t)s->scanned, "freed",
						   (json_int_t)s->freed));
	}
	return a;
}

bool mm_results(json_t *replica)
{
	if (!memcg_tree)
		return true;
	struct memcg_stats total = {0};
	json_t *cgroups = cgroups_json(&total);
	json_t *check = lru_check_all();
	bool ok = json_array_size(check) == 0;
	json_t *o = json_pack("{s:s, s:o, s:o, s:o, s:o, s:o}", "list_lru_scope",
			      memcg_tree->lru_scope->name, "reclaim", memcg_stats_json(&total),
			      "list_lrus", lrus_json(), "shrinkers", shrinkers_json(), "cgroups",
			      cgroups, "violations", check);
	if (pc_map) {
		struct page_cgroup_stats *s = &pc_map->s;
		json_object_set_new(
			o, "page_cgroup",
			json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:f, s:f}", "locking",
				  pc_map->ops->name, "updates", (json_int_t)s->updates, "locked",
				  (json_int_t)s->locked, "lockless", (json_int_t)s->lockless,
				  "locked_outside_move", (json_int_t)s->locked_outside_move,
				  "lockless_during_move", (json_int_t)s->lockless_during_move,
				  "moves", (json_int_t)s->moves, "pages_moved",
				  (json_int_t)s->pages_moved, "move_latency_mean_ns",
				  s->moves ? sim_to_ns(s->move_total) / (double)s->moves : 0.0,
				  "move_latency_max_ns", sim_to_ns(s->move_max)));
	}
	if (swap_active)
		json_object_set_new(
			o, "swap",
			json_pack("{s:I, s:I, s:I, s:I}", "slots_used",
				  (json_int_t)swap_active->stat.slots_used, "nodes_allocated",
				  (json_int_t)swap_active->stat.nodes_allocated, "nodes_reclaimed",
				  (json_int_t)swap_active->stat.nodes_reclaimed, "isolate_retries",
				  (json_int_t)swap_active->stat.isolate_retries));
	json_object_set_new(replica, "memcg", o);
	return ok;
}

void mm_teardown(void)
{
	if (pc_map)
		page_cgroup_map_free(pc_map);
	pc_map = NULL;
	sim_rng_free(writeback_rng);
	writeback_rng = NULL;
	swap_device_destroy();
	memcg_tree_destroy();
	shrinker_registry_destroy();
}

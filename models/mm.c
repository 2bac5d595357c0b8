#include "mm.h"
#include "mcs_json.h"
#include "charge.h"
#include "folio_lru.h"
#include "list_lru.h"
#include "lru_check.h"
#include "page_cgroup.h"
#include "rcu.h"
#include "run.h"
#include "shrinker.h"
#include "sim_irq.h"
#include "sim_rng.h"
#include "swap.h"
#include "workload.h"

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
static void page_cgroup_setup(const struct page_cgroup_params *pc)
{
	if (!pc)
		return;
	struct mem_cgroup *memcg = *pc->cgroup ? mem_cgroup_lookup(pc->cgroup) : memcg_tree->root;
	pc_map = page_cgroup_map_new(pc->locking, pc->pages, memcg);
	int tick = -1;
	for (int i = 0; i < sim_irq_nsources(); i++) {
		struct sim_irq_source *s = sim_irq_source(i);
		if (tick < 0 && s->kind == SIM_IRQ_PERIODIC)
			tick = i;
		if (pc->writeback_irq && g_str_equal(s->name, pc->writeback_irq)) {
			s->action = writeback_end_io;
			writeback_rng = sim_rng_new(sim_seed(), "page_cgroup.writeback");
		}
	}
	rcu_init(tick);
}

/* Does the scenario use the memory-management model at all? */
static bool mm_used(const struct run_config *cfg)
{
	const struct mm_params *mm = cfg->memcg;
	if (mm->cgroups.n || mm->swap || mm->page_cgroup)
		return true;
	for (int i = 0; i < cfg->nworkloads; i++)
		if (cfg->workloads[i].type->cgroup)
			return true;
	return false;
}

/* mkdir of every cgroup of memcg.cgroups, parents first. */
static void cgroups_setup(const struct mm_params *mm)
{
	for (size_t i = 0; i < mm->cgroups.n; i++) {
		const struct mm_cgroup_params *c = mm->cgroups.items[i];
		long max_pages = (long)(c->memory_max_mb * 256);
		for (long k = 0; k < c->count; k++) {
			char *name = mem_cgroup_instance_name(c->name, k);
			struct mem_cgroup *m = mem_cgroup_create(name, max_pages ? max_pages : G_MAXLONG);
			m->memory.min = (long)(c->memory_min_mb * 256);
			m->memory.low = (long)(c->memory_low_mb * 256);
			g_free(name);
		}
	}
}

void mm_setup(const struct run_config *cfg)
{
	const struct mm_params *mm = cfg->memcg;
	if (!mm_used(cfg))
		return;
	charge_use(mm->charge);
	memcg_tree_init(sim_machine()->nodes, sim_ncpus());
	memcg_tree->disabled = !mm->enabled;
	memcg_tree->lru_scope = mm->list_lru_scope;
	memcg_tree->lru_lock_scope = mm->lru_lock_scope;
	shrinker_registry_init();
	cgroups_setup(mm);
	page_cgroup_setup(mm->page_cgroup);
	if (mm->node_memory_mb > 0)
		folio_lru_init((long)(mm->node_memory_mb * 256), true);
	if (mm->swap)
		swap_device_init((long)(mm->swap->size_mb * 256), mm->swap->batch_pages,
				 mm->swap->cluster_order == SWAP_INTERLEAVE, memcg_tree->lru_scope);
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
	json_object_set_new(o, "reclaim_time_ns", mcs_json_ns(st->reclaim_time));
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
	if (folio_lru_active()) {
		char *err = folio_lru_verify();
		if (err)
			json_array_append_new(check, json_string(err));
		g_free(err);
	}
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
	if (folio_lru_active()) {
		json_object_set_new(o, "lru_lock_scope",
				    json_string(memcg_tree->lru_lock_scope->name));
		json_object_set_new(o, "lru", folio_lru_json());
	}
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
	folio_lru_destroy();
	memcg_tree_destroy();
	charge_use(NULL);
	shrinker_registry_destroy();
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* folio_lru: a folio moved to another memcg, the page cache, and the folio
 * LRU as a memcg subsystem (folio_lru.h); the lists and the per-CPU
 * batches are folio_list.c's, reclaim folio_reclaim.c's. */
#include "folio_lru.h"
#include "folio_reclaim.h"
#include "mm.h"
#include "run_config.h"

/* --- memcg migration ---------------------------------------------------- */

static struct spinlock *lock_lruvec(struct sim_task *t, struct folio *f, struct lock_scope_held *h,
				    const char *site)
{
	lock_scope_relock(t, h, lruvec_lru_lock(folio_lruvec(f)), SPIN_IRQ, site);
	return h->lock;
}

bool folio_move_memcg(struct sim_task *t, struct folio *folio, struct mem_cgroup *to)
{
	if (!folio_test_clear_lru(t, folio)) {
		lru_state.s.move_busy++;
		return false;
	}
	struct lock_scope_held h = {0};
	bool active = folio->on_list == LRU_ACTIVE_FILE;
	folio_list_del(t, lock_lruvec(t, folio, &h, "mem_cgroup_move_account"), folio,
		       "mem_cgroup_move_account");
	lock_scope_unlock(t, &h);
	mem_cgroup_uncharge(t, folio->memcg, 1);
	mem_cgroup_charge(t, to, 1);
	folio->memcg = to; /* folio->memcg_data */
	if (folio->file)
		folio->file->memcg = to;
	folio_list_add(t, lock_lruvec(t, folio, &h, "mem_cgroup_move_account"), folio_lruvec(folio),
		       active ? LRU_ACTIVE_FILE : LRU_INACTIVE_FILE, folio,
		       "mem_cgroup_move_account");
	folio->flags |= PG_lru;
	lock_scope_unlock(t, &h);
	lru_state.s.moves++;
	return true;
}

/* --- the page cache ------------------------------------------------------ */

static void page_file_free(struct page_file *f)
{
	g_hash_table_destroy(f->pages);
	spin_lock_destroy(&f->i_pages);
	g_free(f);
}

void folio_lru_init(long node_pages, bool kswapd)
{
	folio_reclaim_init(node_pages, kswapd);
	lru_state.files = g_ptr_array_new_with_free_func((GDestroyNotify)page_file_free);
}

void folio_lru_destroy(void)
{
	if (lru_state.files)
		g_ptr_array_free(lru_state.files, TRUE);
	lru_state.files = NULL;
	folio_reclaim_destroy();
}

struct page_file *page_file_new(struct mem_cgroup *memcg)
{
	struct page_file *f = g_new0(struct page_file, 1);
	f->pages = g_hash_table_new(g_direct_hash, g_direct_equal);
	spin_lock_init(&f->i_pages, lru_state.ipages_class);
	f->memcg = memcg;
	g_ptr_array_add(lru_state.files, f);
	return f;
}

static sim_time_t i_pages_store(struct sim_task *t, void *arg)
{
	struct page_file *f = arg;
	return spin_held_access(t, &f->i_pages, f->i_pages.line, LINE_STORE, "__filemap_add_folio");
}

struct folio *filemap_read_folio(struct sim_task *t, struct page_file *f, long index)
{
	gpointer key = GINT_TO_POINTER((int)index + 1);
	struct folio *folio = g_hash_table_lookup(f->pages, key);
	if (folio) {
		folio_mark_accessed(t, folio);
		return folio;
	}
	folio = folio_alloc(t, sim_cpu_node(sim_task_cpu(t)));
	folio->memcg = f->memcg;
	folio->file = f;
	folio->index = index;
	mem_cgroup_charge(t, f->memcg, 1);
	spin_lock_hold_fn(t, &f->i_pages, i_pages_store, f, SIM_CAT_SYS, SPIN_IRQ,
			  "__filemap_add_folio");
	struct folio *other = g_hash_table_lookup(f->pages, key);
	if (other) { /* the other reader added it first: -EEXIST */
		mem_cgroup_uncharge(t, f->memcg, 1);
		folio_free(folio);
		folio_mark_accessed(t, other);
		return other;
	}
	g_hash_table_insert(f->pages, key, folio);
	folio_add_lru(t, folio);
	folio_mark_accessed(t, folio);
	return folio;
}

/* The folio LRU as a memcg subsystem: on when memcg.node_memory_mb > 0. Its
 * object per page of node memory is bounded, so that a scenario cannot
 * exhaust the machine running it. */
#define FOLIO_LRU_MAX_MB 16384.0
/* What the model allocates per page of node memory once the page cache has
 * used it: its struct folio, its place in the node's free array, its entry
 * in its file's page index (measured: readtwice filling 1024 and 4096 MiB
 * of one node differs by 191 bytes a page in maximum resident size). */
#define FOLIO_MODEL_BYTES 200

/* Bounded memory; and a kswapd a node, which sleeps until woken and never
 * returns, cannot be in a run to completion: the run would wait for it to
 * its time limit. */
static bool folio_lru_check(const struct run_config *cfg, GHashTable *cgroups,
			    struct spec_check *chk)
{
	double total = cfg->memcg->node_memory_mb * cfg->machine.nodes;
	if (total > FOLIO_LRU_MAX_MB)
		return spec_check_fail(
		    chk, "memcg", "node_memory_mb",
		    "expected at most %g MiB over the %d nodes (a simulated page "
		    "is a model object; scale memory down), got %g MiB",
		    FOLIO_LRU_MAX_MB, cfg->machine.nodes, total);
	if (total > 0 && !cfg->stop_at)
		return spec_check_fail(
		    chk, "memcg", "node_memory_mb",
		    "starts a kswapd a node, which never finishes, but stop.type "
		    "is \"completion\" (stop after a duration)");
	return true;
}

static void folio_lru_setup(const struct mm_params *mm)
{
	if (mm->node_memory_mb > 0)
		folio_lru_init((long)(mm->node_memory_mb * 256), true);
}

static void folio_lru_results(json_t *memcg, json_t *violations)
{
	if (!folio_lru_active())
		return;
	char *err = folio_lru_verify();
	if (err)
		json_array_append_new(violations, json_string(err));
	g_free(err);
	json_object_set_new(memcg, "lru_lock_scope", json_string(memcg_tree->lru_lock_scope->name));
	json_object_set_new(memcg, "lru", folio_lru_json());
}

static double folio_lru_memory_bytes(const struct run_config *cfg, const char **path)
{
	*path = "memcg.node_memory_mb";
	return cfg->memcg->node_memory_mb * 256 * cfg->machine.nodes * FOLIO_MODEL_BYTES;
}

const struct mm_subsystem folio_lru_subsystem = {
    .name = "folio_lru",
    .doc = "the folio-level page-cache LRU: per-CPU batches, kswapd, direct reclaim",
    .check = folio_lru_check,
    .setup = folio_lru_setup,
    .results = folio_lru_results,
    .teardown = folio_lru_destroy,
    .memory_bytes = folio_lru_memory_bytes,
};

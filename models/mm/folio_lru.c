// SPDX-License-Identifier: GPL-2.0-or-later
/* folio_lru: folios on their lruvec's file lists, the per-CPU batches, the
 * page cache, and the lists' lock by the run's scope (folio_lru.h). */
#include "folio_lru.h"
#include "insn.h"
#include "cost.h"
#include "folio_reclaim.h"
#include "mm.h"
#include "run_config.h"
#include "workingset_age.h"

struct folio_lru_state lru_state;

struct folio_lru_stats *folio_lru_stats(void)
{
	return &lru_state.s;
}

bool folio_lru_active(void)
{
	return lru_state.node != NULL;
}

/* --- lists: every change is a store on the lines it writes ------------ */

static void touch(struct sim_task *t, struct spinlock *held, struct cacheline *l,
		  const char *site)
{
	sim_task_charge(t, SIM_CAT_SYS, spin_held_access(t, held, l, LINE_STORE, site));
}

/* list_add: @f becomes the head; the old head's prev and the list head's
 * line are written. */
void folio_list_add(struct sim_task *t, struct spinlock *held, struct lruvec *lv,
		    enum lru_list lru, struct folio *f, const char *site)
{
	struct folio_list *l = &lv->lists[lru];
	touch(t, held, &f->line, site);
	touch(t, held, &lv->line, site);
	if (l->head)
		touch(t, held, &l->head->line, site);
	f->prev = NULL;
	f->next = l->head;
	if (l->head)
		l->head->prev = f;
	else
		l->tail = f;
	l->head = f;
	l->nr++;
	f->on_lruvec = lv;
	f->on_list = (int)lru;
}

/* list_del: the neighbours' lines (or the list head's) are written. */
void folio_list_del(struct sim_task *t, struct spinlock *held, struct folio *f, const char *site)
{
	struct lruvec *lv = f->on_lruvec;
	struct folio_list *l = &lv->lists[f->on_list];
	touch(t, held, &f->line, site);
	if (f->prev)
		touch(t, held, &f->prev->line, site);
	if (f->next)
		touch(t, held, &f->next->line, site);
	if (!f->prev || !f->next)
		touch(t, held, &lv->line, site);
	if (f->prev)
		f->prev->next = f->next;
	else
		l->head = f->next;
	if (f->next)
		f->next->prev = f->prev;
	else
		l->tail = f->prev;
	l->nr--;
	f->prev = f->next = NULL;
	f->on_lruvec = NULL;
	f->on_list = -1;
}

struct lruvec *folio_lruvec(struct folio *f)
{
	return &f->memcg->nodeinfo[f->nid];
}

/* folio_test_clear_lru: a locked RMW on the folio's line. */
bool folio_test_clear_lru(struct sim_task *t, struct folio *f)
{
	line_touch(t, &f->line, LINE_RMW, __func__);
	bool was = f->flags & PG_lru;
	f->flags &= ~(unsigned)PG_lru;
	return was;
}

/* --- the per-CPU batches ---------------------------------------------- */

typedef void (*move_fn)(struct sim_task *t, struct spinlock *held, struct lruvec *lv,
			struct folio *f);

static void lru_add_fn(struct sim_task *t, struct spinlock *held, struct lruvec *lv,
		       struct folio *f)
{
	f->flags |= PG_lru;
	sim_task_charge(t, SIM_CAT_SYS, insn_cost(INSN_LRU_ADD_FOLIO));
	folio_list_add(t, held, lv, f->flags & PG_active ? LRU_ACTIVE_FILE : LRU_INACTIVE_FILE, f,
		       "lru_add_fn");
}

static void folio_activate_fn(struct sim_task *t, struct spinlock *held, struct lruvec *lv,
			      struct folio *f)
{
	bool pinned = memcg_tree->lru_lock_scope->per_memcg; /* PG_lru cleared before */
	if ((!pinned && !(f->flags & PG_lru)) || (f->flags & PG_active) || f->on_list < 0)
		return;
	folio_list_del(t, held, f, "folio_activate_fn");
	f->flags |= PG_active;
	folio_list_add(t, held, lv, LRU_ACTIVE_FILE, f, "folio_activate_fn");
}

/* fbatch_move_lru (folio_batch_move_lru): each folio under its lruvec's lock, relocking only
 * when it differs; with the lruvec lock, a folio already on the LRU is
 * first taken off it (PG_lru cleared) so that its memcg stays put. */
static void fbatch_move_lru(struct sim_task *t, struct folio **batch, int *nr, move_fn fn,
				 const char *site)
{
	struct lock_scope_held h = {0};
	bool pin = fn != lru_add_fn && memcg_tree->lru_lock_scope->per_memcg;
	for (int i = 0; i < *nr; i++) {
		struct folio *f = batch[i];
		if (pin && !folio_test_clear_lru(t, f))
			continue;
		lock_scope_relock(t, &h, lruvec_lru_lock(folio_lruvec(f)), SPIN_IRQ, site);
		fn(t, h.lock, folio_lruvec(f), f);
		if (pin)
			f->flags |= PG_lru;
	}
	lock_scope_unlock(t, &h);
	for (int i = 0; i < *nr; i++)
		batch[i]->refs--; /* folios_put: the batch's references */
	lru_state.s.relocks += h.relocks;
	*nr = 0;
}

static struct cpu_fbatches *this_cpu_fbatches(struct sim_task *t)
{
	return &lru_state.cpu[sim_task_cpu(t)];
}

void folio_add_lru(struct sim_task *t, struct folio *folio)
{
	struct cpu_fbatches *fb = this_cpu_fbatches(t);
	folio->refs++;
	fb->lru_add[fb->nr_add++] = folio;
	if (fb->nr_add == PAGEVEC_SIZE) {
		lru_state.s.lru_add_batches++;
		fbatch_move_lru(t, fb->lru_add, &fb->nr_add, lru_add_fn, "lru_add_fn");
	}
}

static void folio_activate(struct sim_task *t, struct folio *folio)
{
	struct cpu_fbatches *fb = this_cpu_fbatches(t);
	folio->refs++;
	fb->activate[fb->nr_activate++] = folio;
	if (fb->nr_activate == PAGEVEC_SIZE) {
		lru_state.s.activate_batches++;
		fbatch_move_lru(t, fb->activate, &fb->nr_activate, folio_activate_fn,
				     "folio_activate_fn");
	}
}

void lru_add_drain(struct sim_task *t)
{
	struct cpu_fbatches *fb = this_cpu_fbatches(t);
	fbatch_move_lru(t, fb->lru_add, &fb->nr_add, lru_add_fn, "lru_add_fn");
	fbatch_move_lru(t, fb->activate, &fb->nr_activate, folio_activate_fn,
			     "folio_activate_fn");
}

/* folio_mark_accessed: the first access sets PG_referenced; the second
 * activates (through the batch, or at once while still in lru_add's) and
 * ages the workingset (workingset_activation, 5.8+: the folio's memcg's
 * lruvec and every ancestor's, the root's included). */
void folio_mark_accessed(struct sim_task *t, struct folio *folio)
{
	if (!(folio->flags & PG_referenced)) {
		line_touch(t, &folio->line, LINE_RMW, __func__); /* folio_set_referenced */
		folio->flags |= PG_referenced;
		return;
	}
	if (folio->flags & PG_active)
		return;
	if (folio->flags & PG_lru)
		folio_activate(t, folio);
	else
		folio->flags |= PG_active; /* __lru_cache_activate_folio */
	line_touch(t, &folio->line, LINE_RMW, __func__); /* folio_clear_referenced */
	folio->flags &= ~(unsigned)PG_referenced;
	workingset_activation(t, folio->memcg, folio->nid);
}

/* --- memcg migration ---------------------------------------------------- */

static struct spinlock *lock_lruvec(struct sim_task *t, struct folio *f,
				    struct lock_scope_held *h, const char *site)
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

struct page_file *page_file_new(struct mem_cgroup *memcg)
{
	struct page_file *f = g_new0(struct page_file, 1);
	f->pages = g_hash_table_new(g_direct_hash, g_direct_equal);
	spin_lock_init(&f->i_pages, lru_state.ipages_class);
	f->memcg = memcg;
	g_ptr_array_add(lru_state.files, f);
	return f;
}

void page_file_free(struct page_file *f)
{
	g_hash_table_destroy(f->pages);
	spin_lock_destroy(&f->i_pages);
	g_free(f);
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
		return spec_check_fail(chk, "memcg", "node_memory_mb",
				       "expected at most %g MiB over the %d nodes (a simulated page "
				       "is a model object; scale memory down), got %g MiB",
				       FOLIO_LRU_MAX_MB, cfg->machine.nodes, total);
	if (total > 0 && !cfg->stop_at)
		return spec_check_fail(chk, "memcg", "node_memory_mb",
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

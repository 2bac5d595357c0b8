// SPDX-License-Identifier: GPL-2.0-or-later
/* folio_reclaim: free folios, allocation with kswapd and direct reclaim,
 * and the file LRU's reclaim (mm/vmscan.c names). */
#include "folio_reclaim.h"
#include "charge.h"
#include "cost.h"
#include "insn.h"
#include "kernel.h"
#include "workingset_age.h"
#include <string.h>

/* --- isolate and put back ---------------------------------------------- */

int isolate_lru_folios(struct sim_task *t, struct lruvec *lv, enum lru_list lru, int nr,
		       struct folio **out)
{
	struct lock_scope_held h = {0};
	lock_scope_relock(t, &h, lruvec_lru_lock(lv), SPIN_IRQ, __func__);
	int n = 0;
	for (struct folio *f = lv->lists[lru].tail, *prev; f && n < nr; f = prev) {
		prev = f->prev;
		sim_task_charge(t, SIM_CAT_SYS, insn_cost(INSN_ISOLATE_FOLIO));
		if (!folio_test_clear_lru(t, f))
			continue; /* a batch holds it off the LRU */
		folio_list_del(t, h.lock, f, __func__);
		out[n++] = f;
	}
	lock_scope_unlock(t, &h);
	lru_state.s.isolated += n;
	return n;
}

void move_folios_to_lru(struct sim_task *t, struct folio **folios, int nr)
{
	struct lock_scope_held h = {0};
	for (int i = 0; i < nr; i++) {
		struct folio *f = folios[i];
		lock_scope_relock(t, &h, lruvec_lru_lock(folio_lruvec(f)), SPIN_IRQ, __func__);
		folio_list_add(t, h.lock, folio_lruvec(f),
			       f->flags & PG_active ? LRU_ACTIVE_FILE : LRU_INACTIVE_FILE, f,
			       __func__);
		f->flags |= PG_lru;
	}
	lock_scope_unlock(t, &h);
	lru_state.s.putback += nr;
	lru_state.s.relocks += h.relocks;
}

/* shrink_active_list: this CPU's LRU batches drained first (lru_add_drain,
 * as 5.10 .. 6.x do), then unmapped file folios all go to the inactive
 * list. */
static void shrink_active_list(struct sim_task *t, struct lruvec *lv, int nr)
{
	struct folio *batch[SWAP_CLUSTER_MAX];
	lru_add_drain(t);
	int n = isolate_lru_folios(t, lv, LRU_ACTIVE_FILE, MIN(nr, (int)SWAP_CLUSTER_MAX), batch);
	for (int i = 0; i < n; i++) {
		line_touch(t, &batch[i]->line, LINE_RMW, __func__); /* folio_clear_active */
		batch[i]->flags &= ~(unsigned)PG_active;
	}
	move_folios_to_lru(t, batch, n);
}

/* __remove_mapping of a clean page-cache folio, i_pages held: the entry
 * replaced by a shadow, whose timestamp comes from workingset_eviction for
 * the reclaim's target, none in this (global) reclaim: the root memcg's
 * lruvec of the folio's node. */
static sim_time_t remove_mapping_section(struct sim_task *t, void *arg)
{
	struct folio *folio = arg;
	struct page_file *f = folio->file;
	return spin_held_access(t, &f->i_pages, f->i_pages.line, LINE_STORE, "__remove_mapping") +
	       workingset_eviction(t, &f->i_pages, NULL, folio->nid, 1);
}

/* shrink_folio_list for clean, unmapped page cache: __remove_mapping under
 * the file's i_pages lock, then free; a folio a per-CPU batch still holds
 * cannot be freed (its reference) and is put back. Uncharged per memcg. */
/* uncharge_folio / uncharge_batch: pages of one memcg are uncharged
 * together; @memcg NULL flushes. */
static void uncharge_gather(struct sim_task *t, struct memcg_batch_info *g,
			    struct mem_cgroup *memcg)
{
	if (g->memcg && g->memcg != memcg) {
		mem_cgroup_uncharge(t, g->memcg, g->nr_pages);
		g->nr_pages = 0;
	}
	g->memcg = memcg;
	if (memcg)
		g->nr_pages++;
}

static long shrink_folio_list(struct sim_task *t, struct folio **batch, int n, struct folio **keep,
			      int *nr_keep)
{
	int nkeep = 0;
	long freed = 0;
	struct memcg_batch_info gather = {0}; /* mem_cgroup_uncharge_list: per memcg */
	for (int i = 0; i < n; i++) {
		struct folio *f = batch[i];
		if (f->refs) {
			keep[nkeep++] = f;
			continue;
		}
		cost_charge_flat(t, SIM_CAT_SYS, COST_RECLAIM_FILE_PAGE, 1);
		spin_lock_hold_fn(t, &f->file->i_pages, remove_mapping_section, f, SIM_CAT_SYS,
				  SPIN_IRQ, "__remove_mapping");
		g_hash_table_remove(f->file->pages, GINT_TO_POINTER((int)f->index + 1));
		uncharge_gather(t, &gather, f->memcg);
		folio_free(f);
		freed++;
	}
	uncharge_gather(t, &gather, NULL);
	lru_state.s.reclaimed += freed;
	*nr_keep = nkeep;
	return freed;
}

/* shrink_inactive_list (mm/vmscan.c, 5.10/5.11): drain this CPU's LRU
 * batches, isolate a batch under the lock (nothing taken: done), reclaim it unlocked, take the lock
 * again to put the kept folios back (always: it also updates NR_ISOLATED), then lru_note_cost. */
static long shrink_inactive_list(struct sim_task *t, struct lruvec *lv, int nr)
{
	struct folio *batch[SWAP_CLUSTER_MAX], *keep[SWAP_CLUSTER_MAX];
	int nkeep;
	lru_add_drain(t);
	int n = isolate_lru_folios(t, lv, LRU_INACTIVE_FILE, MIN(nr, (int)SWAP_CLUSTER_MAX), batch);
	if (!n)
		return 0; /* nr_taken == 0: no putback, no lru_note_cost */
	long freed = shrink_folio_list(t, batch, n, keep, &nkeep);
	if (nkeep)
		move_folios_to_lru(t, keep, nkeep);
	else
		spin_lock_hold(t, lruvec_lru_lock(lv), 0, SIM_CAT_SYS, SPIN_IRQ,
			       "move_folios_to_lru");
	lru_note_cost(t, lv);
	return freed;
}

long shrink_lruvec_file(struct sim_task *t, struct lruvec *lv, long nr)
{
	if (lv->lists[LRU_INACTIVE_FILE].nr < lv->lists[LRU_ACTIVE_FILE].nr)
		shrink_active_list(t, lv, (int)nr); /* inactive_is_low */
	return shrink_inactive_list(t, lv, (int)nr);
}

/* --- free folios, kswapd, direct reclaim -------------------------------- */

/* One pass over the node's memcgs from the cursor, SWAP_CLUSTER_MAX from
 * each lruvec with folios, until @want are freed. */
static long shrink_node(struct sim_task *t, int nid, long want)
{
	struct node_mem *n = &lru_state.node[nid];
	GPtrArray *all = memcg_tree->all;
	long freed = 0;
	for (guint i = 0; i < all->len && freed < want; i++) {
		struct mem_cgroup *m = all->pdata[n->cursor++ % all->len];
		struct lruvec *lv = &m->nodeinfo[nid];
		if (lv->lists[LRU_INACTIVE_FILE].nr + lv->lists[LRU_ACTIVE_FILE].nr)
			freed += shrink_lruvec_file(t, lv, SWAP_CLUSTER_MAX);
	}
	return freed;
}

static void kswapd(struct sim_task *t, void *arg)
{
	struct node_mem *n = arg;
	int nid = (int)(n - lru_state.node);
	while (!sim_task_should_stop(t)) {
		if ((long)n->free->len >= n->high) {
			n->kswapd_sleeping = true;
			sim_task_wait(t);
			continue;
		}
		shrink_node(t, nid, SWAP_CLUSTER_MAX); /* balance_pgdat */
		sim_task_flush(t);
	}
}

struct folio *folio_alloc(struct sim_task *t, int nid)
{
	struct node_mem *n = &lru_state.node[nid];
	if ((long)n->free->len <= n->low && n->kswapd && n->kswapd_sleeping) {
		n->kswapd_sleeping = false;
		lru_state.s.kswapd_wakeups++;
		sim_task_wake(n->kswapd);
	}
	for (int tries = 0; (long)n->free->len <= n->min && tries < 2; tries++) {
		lru_state.s.direct_reclaims++;
		if (!shrink_node(t, nid, SWAP_CLUSTER_MAX))
			lru_add_drain(t); /* what is left is in this CPU's batches */
	}
	if (!n->free->len)
		g_error(
		    "folio_alloc: node %d has no free or reclaimable folio (memcg.node_memory_mb "
		    "too small for the batches in flight)",
		    nid);
	sim_task_charge(t, SIM_CAT_SYS, cost(COST_PAGE_ALLOC_ZERO));
	line_stream(sim_task_cpu(t), PAGE_SIZE_BYTES); /* the new folio filled */
	return g_ptr_array_steal_index_fast(n->free, n->free->len - 1);
}

void folio_free(struct folio *f)
{
	f->flags = 0;
	f->file = NULL;
	f->memcg = NULL;
	g_ptr_array_add(lru_state.node[f->nid].free, f);
}

/* --- set-up ------------------------------------------------------------- */

static void node_mem_init(struct node_mem *n, int nid, long pages, bool with_kswapd)
{
	n->pool = g_new0(struct folio, pages);
	n->npool = pages;
	n->free = g_ptr_array_sized_new((guint)pages);
	for (long i = pages - 1; i >= 0; i--) {
		struct folio *f = &n->pool[i];
		f->nid = nid;
		f->on_list = -1;
		line_init(&f->line, lru_state.page_lines, nid);
		g_ptr_array_add(n->free, f);
	}
	n->min = MAX(2 * SWAP_CLUSTER_MAX, pages / 64); /* scaled watermarks */
	n->low = n->min + n->min / 4;
	n->high = n->min + n->min / 2;
	if (with_kswapd) {
		const struct sim_machine *m = sim_machine();
		int cpu = nid * m->cpus_per_node + m->cpus_per_node - 1;
		n->kswapd = sim_task_createf(cpu, kswapd, n, "kswapd%d", nid);
		sim_task_bind(n->kswapd); /* kswapd(): set_cpus_allowed_ptr to its node's CPUs */
	}
}

void folio_reclaim_init(long node_pages, bool with_kswapd)
{
	lru_state.nodes = memcg_tree->nodes;
	lru_state.page_lines = line_class_get("struct page (file folio)");
	lru_state.ipages_class = lock_class_get("&mapping->i_pages");
	/* __address_space_init_once (fs/inode.c) calls xa_init_flags, whose
	 * spin_lock_init(&xa->xa_lock) names the class; 2.6.32's inode_init_once:
	 * spin_lock_init(&inode->i_data.tree_lock) */
	lock_class_lockdep_name(lru_state.ipages_class, kernel_version() == KERNEL_2_6_32
							    ? "&inode->i_data.tree_lock"
							    : "&xa->xa_lock");
	lru_state.cpu = g_new0(struct cpu_fbatches, sim_ncpus());
	lru_state.node = g_new0(struct node_mem, lru_state.nodes);
	for (int nid = 0; nid < lru_state.nodes; nid++)
		node_mem_init(&lru_state.node[nid], nid, node_pages, with_kswapd);
}

void folio_reclaim_destroy(void)
{
	if (!lru_state.node)
		return;
	for (int nid = 0; nid < lru_state.nodes; nid++) {
		g_free(lru_state.node[nid].pool);
		g_ptr_array_free(lru_state.node[nid].free, TRUE);
	}
	g_free(lru_state.node);
	g_free(lru_state.cpu);
	memset(&lru_state, 0, sizeof(lru_state));
}

json_t *folio_lru_json(void)
{
	const struct folio_lru_stats *s = &lru_state.s;
	json_t *o = json_object();
	FOLIO_LRU_STATS(MM_STAT_JSON)
	return o;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* The lruvecs' lists under the lru lock of the run's scope (mm/swap.c,
 * mm/memcontrol.c): folio batches moved onto them, the cost of a reclaim
 * batch noted up the tree, 2.6.32's zone LRU pagevecs. */
#include "cost.h"
#include "insn.h"
#include "memcg.h"

struct lruvec_section {
	struct lruvec *lv;
	long nr;
};

/* Under lru_lock: the lists' line, and each folio's PG_lru (a locked RMW on
 * the folio's own line, which its CPU holds). */
static sim_time_t lruvec_section(struct sim_task *t, void *arg)
{
	struct lruvec_section *s = arg;
	return spin_held_access(t, lruvec_lru_lock(s->lv), &s->lv->line, LINE_STORE,
				"lruvec lists") +
	       s->nr * cost(COST_LOCKED_RMW);
}

struct spinlock *lruvec_lru_lock(struct lruvec *lv)
{
	return lock_scope_lock(memcg_tree->lru_lock_scope, &memcg_tree->pgdat[lv->nid].lru_lock,
			       &lv->lru_lock);
}

void lruvec_lock_pages(struct sim_task *t, struct lruvec *lv, long nr, const char *site)
{
	struct lruvec_section s = {lv, nr};
	spin_lock_hold_fn(t, lruvec_lru_lock(lv), lruvec_section, &s, SIM_CAT_SYS, SPIN_IRQ, site);
}

static sim_time_t note_cost_section(struct sim_task *t, void *arg)
{
	struct lruvec *l = arg;
	return insn_cost(INSN_LRU_NOTE_COST_LEVEL) +
	       spin_held_access(t, lruvec_lru_lock(l), &l->line, LINE_STORE, "lru_note_cost");
}

/* lru_note_cost (mm/swap.c; as 5.10, 5.11 and 6.x write it): a reclaim
 * batch's cost recorded at every level from @lv's memcg up to the root's,
 * each under that level's lru_lock, taken and dropped a level: in 5.10 the
 * node's pgdat->lru_lock once a level, from 5.11 each lruvec's own, so
 * every memcg's reclaim on a node takes the root memcg's lruvec lock of
 * that node. file_cost sits in the lruvec's line (struct lruvec: the lists,
 * lru_lock, anon_cost, file_cost); the decay's four lruvec_page_state reads
 * are of per-node counters the model does not keep (their instructions are
 * in the level's count). */
void lru_note_cost(struct sim_task *t, struct lruvec *lv)
{
	for (struct mem_cgroup *m = lv->memcg; m; m = m->parent) {
		struct lruvec *l = &m->nodeinfo[lv->nid];
		spin_lock_hold_fn(t, lruvec_lru_lock(l), note_cost_section, l, SIM_CAT_SYS,
				  SPIN_IRQ, __func__);
	}
}

struct zone_lru_section {
	struct lruvec *lv;
	long nr;
	bool add;
	const char *site;
};

/* Under zone->lru_lock, for the pagevec: the list head (the lock's line,
 * held); the batch's end pages link to the list's neighbours, the pages of
 * the CPU that changed the list last (its line); per page, PG_lru (SetPageLRU,
 * a locked RMW, at add; __ClearPageLRU, plain, at release), and with memcg
 * mem_cgroup_add_lru_list / mem_cgroup_del_lru_list: the memcg's per-zone
 * count (MEM_CGROUP_ZSTAT, its mem_cgroup_per_zone line: the lruvec's here)
 * and the page_cgroup's AcctLRU bit (a locked RMW on its own line). */
static sim_time_t zone_lru_section(struct sim_task *t, void *arg)
{
	struct zone_lru_section *s = arg;
	struct pglist_data *pgdat = &memcg_tree->pgdat[s->lv->nid];
	struct spinlock *held = lruvec_lru_lock(s->lv);
	int cpu = sim_task_cpu(t);
	sim_time_t spent = 0;
	if (pgdat->lru_last_cpu >= 0)
		spent += spin_held_access(t, held, &memcg_tree->lru_pages[pgdat->lru_last_cpu],
					  LINE_STORE, s->site);
	pgdat->lru_last_cpu = cpu;
	spent += spin_held_access(t, held, &memcg_tree->lru_pages[cpu], LINE_STORE, s->site);
	long rmws = s->add ? s->nr : 0;
	if (!mem_cgroup_disabled()) {
		for (long i = 0; i < s->nr; i++)
			spent += spin_held_access(t, held, &s->lv->line, LINE_STORE,
						  s->add ? "mem_cgroup_add_lru_list"
							 : "mem_cgroup_del_lru_list");
		rmws += s->nr;
	}
	return spent + rmws * cost(COST_LOCKED_RMW);
}

static void zone_lru_pages(struct sim_task *t, struct mem_cgroup *memcg, int nid, long nr, bool add)
{
	struct zone_lru_section s = {&memcg->nodeinfo[nid], nr, add,
				     add ? "____pagevec_lru_add" : "release_pages"};
	spin_lock_hold_fn(t, lruvec_lru_lock(s.lv), zone_lru_section, &s, SIM_CAT_SYS,
			  add ? SPIN_IRQ : SPIN_IRQSAVE, s.site);
}

void pagevec_lru_add_anon(struct sim_task *t, struct mem_cgroup *memcg, int nid, long nr)
{
	zone_lru_pages(t, memcg, nid, nr, true);
}

void release_pages_anon(struct sim_task *t, struct mem_cgroup *memcg, int nid, long nr)
{
	zone_lru_pages(t, memcg, nid, nr, false);
}

void lru_add_pages(struct sim_task *t, struct mem_cgroup *memcg, int nid, long anon, long file)
{
	struct lruvec *lv = &memcg->nodeinfo[nid];
	lruvec_lock_pages(t, lv, anon + file, "folio_batch_move_lru");
	lv->nr_anon += anon;
	lv->nr_file += file;
}

void folio_batch_move_lru(struct sim_task *t, struct folio_batch *fb)
{
	if (!fb->nr)
		return;
	struct lruvec *lv = &fb->memcg->nodeinfo[fb->nid];
	lruvec_lock_pages(t, lv, fb->nr, __func__);
	lv->nr_file += fb->nr;
	for (int i = 0; i < fb->nr; i++)
		g_queue_push_tail(&lv->file_owners, fb->owners[i]);
	fb->nr = 0;
}

void folio_batch_add_file(struct sim_task *t, struct folio_batch *fb, struct mem_cgroup *memcg,
			  int nid, void *owner)
{
	if (fb->nr && (fb->memcg != memcg || fb->nid != nid))
		folio_batch_move_lru(t, fb);
	fb->memcg = memcg;
	fb->nid = nid;
	fb->owners[fb->nr++] = owner;
	if (fb->nr == FOLIO_BATCH_SIZE)
		folio_batch_move_lru(t, fb);
}

/* exit_mmap -> zap_pte_range, Linux 6.12: each present pte's page unmapped
 * (zap_page_ns) and freed by tlb_flush_mmu's free_pages_and_swap_cache ->
 * folios_put_refs, a folio_batch at a time (PAGEVEC_SIZE 31,
 * include/linux/pagevec.h of 6.12): __page_cache_release takes each off its
 * LRU under the lruvec's lru_lock, held across the batch, then the batch's
 * mem_cgroup_uncharge_folios. */
#define FOLIOS_PUT_BATCH 31L
long lru_release_anon(struct sim_task *t, struct mem_cgroup *memcg, int procs)
{
	long freed = 0;
	for (int nid = 0; nid < memcg_tree->nodes; nid++) {
		struct lruvec *lv = &memcg->nodeinfo[nid];
		/* its share, fixed before the first batch: reclaim and the
		 * neighbours' faults move nr_anon meanwhile */
		long share = mem_cgroup_exit_share(lv->nr_anon, procs);
		while (lv->nr_anon > 0 && share > 0) {
			long n = MIN(MIN(FOLIOS_PUT_BATCH, lv->nr_anon), share);
			share -= n;
			cost_charge_flat(t, SIM_CAT_SYS, COST_ZAP_PAGE, n);
			lruvec_lock_pages(t, lv, n, "folios_put_refs");
			lv->nr_anon -= n;
			mem_cgroup_uncharge(t, memcg, n);
			freed += n;
		}
	}
	return freed;
}

long lruvec_pages(struct mem_cgroup *memcg, int nid)
{
	return memcg->nodeinfo[nid].nr_anon + memcg->nodeinfo[nid].nr_file;
}

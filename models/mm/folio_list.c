// SPDX-License-Identifier: GPL-2.0-or-later
/* folio_list: folios on their lruvec's file lists (mm/list.h's list_add
 * and list_del as stores on their lines), PG_lru, the per-CPU batches and
 * their drain (mm/swap.c: folio_add_lru, folio_activate, lru_add_drain,
 * folio_mark_accessed), and the state the folio LRU's files share. The
 * lowest of them: it calls neither reclaim nor the page cache. */
#include "folio_list.h"
#include "insn.h"
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

static void touch(struct sim_task *t, struct spinlock *held, struct cacheline *l, const char *site)
{
	sim_task_charge(t, SIM_CAT_SYS, spin_held_access(t, held, l, LINE_STORE, site));
}

/* list_add: @f becomes the head; the old head's prev and the list head's
 * line are written. */
void folio_list_add(struct sim_task *t, struct spinlock *held, struct lruvec *lv, enum lru_list lru,
		    struct folio *f, const char *site)
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
	fbatch_move_lru(t, fb->activate, &fb->nr_activate, folio_activate_fn, "folio_activate_fn");
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
		folio->flags |= PG_active;		 /* __lru_cache_activate_folio */
	line_touch(t, &folio->line, LINE_RMW, __func__); /* folio_clear_referenced */
	folio->flags &= ~(unsigned)PG_referenced;
	workingset_activation(t, folio->memcg, folio->nid);
}

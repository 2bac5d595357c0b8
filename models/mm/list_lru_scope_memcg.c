// SPDX-License-Identifier: GPL-2.0-or-later
/* list_lru lock scope "memcg" (the split list_lru lock, Linux 6.13): each
 * list_lru_one has its own lock, beside its nr_items; a list is found under
 * RCU, locked, and checked for the dead marker (nr_items == LONG_MIN) that
 * reparenting leaves, in which case the parent's list is tried. The node's
 * nr_items is an atomic in the node's line, updated outside the lock. */
#include "list_lru.h"

static struct list_lru_one *list_lru_from_memcg(struct list_lru *lru, int nid,
						struct mem_cgroup *memcg)
{
	if (!memcg->parent)
		return &lru->node[nid].lru;
	struct list_lru_one *lists = list_lru_memcg_lists(lru, memcg, memcg->online);
	return lists ? &lists[nid] : NULL;
}

struct memcg_section {
	struct list_lru *lru;
	struct list_lru_one *l;
	struct lru_op *op;
	bool dead;
};

/* Under the list's lock: the dead check, then the operation. */
static sim_time_t memcg_section(struct sim_task *t, void *arg)
{
	struct memcg_section *s = arg;
	sim_time_t cost = spin_held_access(t, &s->l->lock, s->l->word_line, LINE_LOAD, "nr_items");
	if ((s->dead = list_lru_one_dead(s->l)))
		return cost;
	return cost + list_lru_op_apply(t, s->lru, s->l, &s->l->lock, s->op);
}

/* lock_list_lru_of_memcg with a known critical section, then the node's
 * atomic count. */
static void memcg_op_locked(struct sim_task *t, struct list_lru *lru, int nid,
			    struct mem_cgroup *memcg, const char *site, struct lru_op *op)
{
	struct memcg_section s = {.lru = lru, .op = op};
	for (;;) {
		sim_task_charge(t, SIM_CAT_SYS, list_lru_lookup_cost(t, lru, memcg));
		s.l = list_lru_from_memcg(lru, nid, memcg); /* under RCU */
		if (s.l) {
			spin_lock_hold_fn(t, &s.l->lock, memcg_section, &s, SIM_CAT_SYS, SPIN_PLAIN,
					  site);
			if (!s.dead)
				break;
		}
		memcg = memcg->parent; /* raced with reparenting */
	}
	if (op->done)
		lru->scope->count_unlocked(t, lru, nid, op->kind == LRU_OP_ADD ? 1 : -1, 1);
}

/* lock_list_lru_of_memcg for a walk, which skips a dead list. */
static struct list_lru_one *memcg_lock_list(struct sim_task *t, struct list_lru *lru, int nid,
					    struct mem_cgroup *memcg, enum spin_flavour fl,
					    const char *site, struct lru_locked *held)
{
	sim_task_charge(t, SIM_CAT_SYS, list_lru_lookup_cost(t, lru, memcg));
	struct list_lru_one *l = list_lru_from_memcg(lru, nid, memcg); /* under RCU */
	if (!l)
		return NULL;
	list_lru_lock(t, &l->lock, fl, site, held);
	sim_task_charge(t, SIM_CAT_SYS,
			spin_held_access(t, &l->lock, l->word_line, LINE_LOAD, "nr_items"));
	if (!list_lru_one_dead(l))
		return l;
	list_lru_unlock(t, held);
	return NULL;
}

/* The list may be gone once the lock was dropped: look it up again; a dead
 * one (reparented meanwhile) ends the walk. */
static struct list_lru_one *memcg_relock(struct sim_task *t, struct list_lru *lru, int nid,
					 struct mem_cgroup *memcg, struct list_lru_one *l,
					 enum spin_flavour fl, const char *site,
					 struct lru_locked *held)
{
	return memcg_lock_list(t, lru, nid, memcg, fl, site, held);
}

static sim_time_t memcg_count_locked(struct sim_task *t, struct list_lru *lru, int nid,
				     struct list_lru_one *l, struct spinlock *lock, long delta)
{
	sim_time_t cost = spin_held_access(t, lock, l->word_line, LINE_STORE, "nr_items");
	l->nr_items += delta;
	return cost;
}

/* atomic_long_add(&nlru->nr_items): the node's line, which every CPU of the
 * node updates; @nr_ops updates back to back. */
static void memcg_count_unlocked(struct sim_task *t, struct list_lru *lru, int nid, long delta,
				 long nr_ops)
{
	struct list_lru_node *nlru = &lru->node[nid];
	line_atomic_n(t, &nlru->line, nr_ops, SIM_CAT_SPIN, "list_lru_node_nr_items");
	nlru->nr_items += delta;
}

/* memcg_reparent_list_lru_one: lock the child's list (irqs off), then the
 * parent's nested inside it; splice, count, mark the child dead. */
static void memcg_reparent_one(struct sim_task *t, struct list_lru *lru, int nid,
			       struct list_lru_one *src, struct mem_cgroup *parent)
{
	struct lru_locked src_held = {0}, dst_held = {0};
	list_lru_lock(t, &src->lock, SPIN_IRQ, "memcg_reparent_list_lrus", &src_held);
	/* The parent cannot be dying before its child has been reparented. */
	struct list_lru_one *dst = list_lru_from_memcg(lru, nid, parent);
	list_lru_lock(t, &dst->lock, SPIN_PLAIN, "memcg_reparent_list_lrus", &dst_held);
	sim_task_charge(t, SIM_CAT_SYS, list_lru_move_items(t, lru, nid, src, dst, &src->lock));
	src->nr_items = LONG_MIN; /* dead: lookups go to the parent */
	list_lru_unlock(t, &dst_held);
	list_lru_unlock(t, &src_held);
}

const struct list_lru_scope_ops list_lru_scope_memcg = {
    .name = "memcg",
    .doc = "one lock per (memcg, node) list (6.13+)",
    .lock_class = "&l->lock",
    /* init_one_lru, mm/list_lru.c (6.13): spin_lock_init(&l->lock), then
     * lockdep_set_class(&l->lock, lru->key) when the list_lru has a key */
    .lockdep_class = "&l->lock",
    .lockdep_key = "lru->key",
    .list_size = 32, /* list_head + nr_items + spinlock, 8-aligned */
    .reparent_objcg_first = false,
    .switch_kmemcg_id = false,
    .op_locked = memcg_op_locked,
    .lock_scope = &lock_scope_memcg,
    .lock_list = memcg_lock_list,
    .relock = memcg_relock,
    .count_locked = memcg_count_locked,
    .count_unlocked = memcg_count_unlocked,
    .reparent_one = memcg_reparent_one,
};

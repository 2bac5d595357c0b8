/* list_lru lock scope "memcg" (the split list_lru lock, Linux 6.13): each
 * list_lru_one has its own lock; a list is found under RCU, locked, and
 * checked for the dead marker (nr_items == LONG_MIN) that reparenting
 * leaves, in which case the parent's list is tried. The node's nr_items is
 * an atomic updated outside the lock. */
#include "list_lru.h"
#include "cost.h"

static struct list_lru_one *list_lru_from_memcg(struct list_lru *lru, int nid,
						struct mem_cgroup *memcg)
{
	if (!memcg->parent)
		return &lru->node[nid].lru;
	struct list_lru_one *lists = list_lru_memcg_lists(lru, memcg, memcg->online);
	return lists ? &lists[nid] : NULL;
}

/* lock_list_lru_of_memcg */
static struct list_lru_one *memcg_lock_list(struct sim_task *t, struct list_lru *lru, int nid,
					    struct mem_cgroup *memcg, enum spin_flavour fl,
					    bool skip_empty, const char *site,
					    struct lru_locked *held)
{
	for (;;) {
		struct list_lru_one *l = list_lru_from_memcg(lru, nid, memcg); /* under RCU */
		if (l) {
			list_lru_lock(t, &l->lock, fl, site, held);
			if (!list_lru_one_dead(l))
				return l;
			list_lru_unlock(t, held);
		}
		/* Raced with reparenting: skip, or go to the parent. */
		if (skip_empty)
			return NULL;
		memcg = memcg->parent;
	}
}

/* The list may be gone once the lock was dropped: look it up again; a dead
 * one (reparented meanwhile) ends the walk. */
static struct list_lru_one *memcg_relock(struct sim_task *t, struct list_lru *lru, int nid,
					 struct mem_cgroup *memcg, struct list_lru_one *l,
					 enum spin_flavour fl, const char *site,
					 struct lru_locked *held)
{
	return memcg_lock_list(t, lru, nid, memcg, fl, true, site, held);
}

static void memcg_count_locked(struct list_lru *lru, int nid, struct list_lru_one *l, long delta)
{
	l->nr_items += delta;
}

/* atomic_long_add(&nlru->nr_items): the node's counter line, shared by
 * every CPU, is a FIFO server. */
static void memcg_count_unlocked(struct sim_task *t, struct list_lru *lru, int nid, long delta,
				 long nr_ops)
{
	spin_lock_hold(t, &lru->node[nid].nr_line, nr_ops * cost(COST_ATOMIC),
		       SIM_CAT_SYS, SPIN_PLAIN, "list_lru_node_nr_items");
	lru->node[nid].nr_items += delta;
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
	sim_task_charge(t, SIM_CAT_SYS, cost(COST_LIST_OP));
	list_lru_move_items(lru, nid, src, dst);
	src->nr_items = LONG_MIN; /* dead: lookups go to the parent */
	list_lru_unlock(t, &dst_held);
	list_lru_unlock(t, &src_held);
}

const struct list_lru_scope_ops list_lru_scope_memcg = {
	.name = "memcg",
	.lock_class = "&l->lock",
	.reparent_objcg_first = false,
	.switch_kmemcg_id = false,
	.lock_list = memcg_lock_list,
	.relock = memcg_relock,
	.count_locked = memcg_count_locked,
	.count_unlocked = memcg_count_unlocked,
	.reparent_one = memcg_reparent_one,
};

// SPDX-License-Identifier: GPL-2.0-or-later
/* list_lru lock scope "node" (Linux 3.19 .. 6.12): struct list_lru_node's
 * one spinlock protects adding, deleting, isolating and reparenting for every
 * memcg's list on the node, and the node's nr_items, all in the node's line.
 * The memcg's list is looked up (xa_load) with the lock held. */
#include "insn.h"
#include "list_lru.h"

/* list_lru_from_memcg_idx: the list on @nid of @memcg's kmemcg_id (which,
 * once @memcg is offline, is its parent's); the root has the node's own. */
static struct list_lru_one *list_lru_from_memcg_idx(struct list_lru *lru, int nid,
						    struct mem_cgroup *memcg)
{
	if (!memcg->parent || memcg->kmemcg_id < 0)
		return &lru->node[nid].lru;
	return &list_lru_memcg_lists(lru, memcg, true)[nid];
}

struct node_section {
	struct list_lru *lru;
	int nid;
	struct mem_cgroup *memcg;
	struct lru_op *op;
};

/* Under the node lock: the lookup, then the operation. */
static sim_time_t node_section(struct sim_task *t, void *arg)
{
	struct node_section *s = arg;
	/* 6.1's list_lru_from_kmem: the object's memcg, then its list */
	sim_time_t cost =
	    insn_cost(INSN_MEMCG_FROM_SLAB_OBJ) + list_lru_lookup_cost(t, s->lru, s->memcg);
	struct list_lru_one *l = list_lru_from_memcg_idx(s->lru, s->nid, s->memcg);
	return cost + list_lru_op_apply(t, s->lru, l, &s->lru->node[s->nid].lock, s->op);
}

static void node_op_locked(struct sim_task *t, struct list_lru *lru, int nid,
			   struct mem_cgroup *memcg, const char *site, struct lru_op *op)
{
	struct node_section s = {lru, nid, memcg, op};
	spin_lock_hold_fn(t, &lru->node[nid].lock, node_section, &s, SIM_CAT_SYS, SPIN_PLAIN, site);
}

static struct list_lru_one *node_lock_list(struct sim_task *t, struct list_lru *lru, int nid,
					   struct mem_cgroup *memcg, enum spin_flavour fl,
					   const char *site, struct lru_locked *held)
{
	list_lru_lock(t, &lru->node[nid].lock, fl, site, held);
	sim_task_charge(t, SIM_CAT_SYS, list_lru_lookup_cost(t, lru, memcg));
	/* An offline memcg's kmemcg_id is its parent's (see reparent_one):
	 * the lookup itself redirects to the parent's list. */
	return list_lru_from_memcg_idx(lru, nid, memcg);
}

/* The isolate callback re-took the node lock: the walk restarts on the same
 * list, which reparenting may have emptied meanwhile. */
static struct list_lru_one *node_relock(struct sim_task *t, struct list_lru *lru, int nid,
					struct mem_cgroup *memcg, struct list_lru_one *l,
					enum spin_flavour fl, const char *site,
					struct lru_locked *held)
{
	list_lru_lock(t, &lru->node[nid].lock, fl, site, held);
	return l;
}

/* The list's count, then the node's, in the node's line, under its lock. */
static sim_time_t node_count_locked(struct sim_task *t, struct list_lru *lru, int nid,
				    struct list_lru_one *l, struct spinlock *lock, long delta)
{
	struct list_lru_node *nlru = &lru->node[nid];
	sim_time_t cost = spin_held_access(t, lock, l->word_line, LINE_STORE, "nr_items");
	l->nr_items += delta;
	cost += spin_held_access(t, lock, &nlru->line, LINE_STORE, "nlru->nr_items");
	nlru->nr_items += delta;
	return cost;
}

static void node_count_unlocked(struct sim_task *t, struct list_lru *lru, int nid, long delta,
				long nr_ops)
{
}

/* memcg_reparent_list_lru_node: under the node lock, irqs off. */
static void node_reparent_one(struct sim_task *t, struct list_lru *lru, int nid,
			      struct list_lru_one *src, struct mem_cgroup *parent)
{
	struct lru_locked held = {0};
	list_lru_lock(t, &lru->node[nid].lock, SPIN_IRQ, "memcg_reparent_list_lrus", &held);
	struct list_lru_one *dst = list_lru_from_memcg_idx(lru, nid, parent);
	sim_task_charge(t, SIM_CAT_SYS,
			list_lru_move_items(t, lru, nid, src, dst, &lru->node[nid].lock));
	list_lru_unlock(t, &held);
}

const struct list_lru_scope_ops list_lru_scope_node = {
    .name = "node",
    .doc = "one lock per NUMA node for every memcg's list on it (before 6.13)",
    .lock_class = "&nlru->lock",
    /* __list_lru_init, mm/list_lru.c (5.11 .. 6.12): spin_lock_init(
     * &lru->node[i].lock), then lockdep_set_class(..., key) when given one */
    .lockdep_class = "&lru->node[i].lock",
    .lockdep_key = "key",
    .list_size = 24, /* list_head + nr_items */
    .reparent_objcg_first = true,
    .switch_kmemcg_id = true,
    .op_locked = node_op_locked,
    .lock_scope = &lock_scope_node,
    .lock_list = node_lock_list,
    .relock = node_relock,
    .count_locked = node_count_locked,
    .count_unlocked = node_count_unlocked,
    .reparent_one = node_reparent_one,
};

/* list_lru lock scope "node" (Linux 3.19 .. 6.12): struct list_lru_node's
 * one spinlock protects adding, deleting, isolating and reparenting for every
 * memcg's list on the node, and the node's nr_items. */
#include "list_lru.h"
#include "cost.h"

/* list_lru_from_memcg_idx: the list on @nid of @memcg's kmemcg_id (which,
 * once @memcg is offline, is its parent's); the root has the node's own. */
static struct list_lru_one *list_lru_from_memcg_idx(struct list_lru *lru, int nid,
						    struct mem_cgroup *memcg)
{
	if (!memcg->parent || memcg->kmemcg_id < 0)
		return &lru->node[nid].lru;
	return &list_lru_memcg_lists(lru, memcg, true)[nid];
}

static struct list_lru_one *node_lock_list(struct sim_task *t, struct list_lru *lru, int nid,
					   struct mem_cgroup *memcg, enum spin_flavour fl,
					   bool skip_empty, const char *site, struct lru_locked *held)
{
	list_lru_lock(t, &lru->node[nid].lock, fl, site, held);
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

static void node_count_locked(struct list_lru *lru, int nid, struct list_lru_one *l, long delta)
{
	l->nr_items += delta;
	lru->node[nid].nr_items += delta; /* the node lock covers it */
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
	sim_task_charge(t, SIM_CAT_SYS, cost(COST_LIST_OP));
	list_lru_move_items(lru, nid, src, dst);
	list_lru_unlock(t, &held);
}

const struct list_lru_scope_ops list_lru_scope_node = {
	.name = "node",
	.lock_class = "&nlru->lock",
	.reparent_objcg_first = true,
	.switch_kmemcg_id = true,
	.lock_list = node_lock_list,
	.relock = node_relock,
	.count_locked = node_count_locked,
	.count_unlocked = node_count_unlocked,
	.reparent_one = node_reparent_one,
};

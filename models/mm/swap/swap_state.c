// SPDX-License-Identifier: GPL-2.0-or-later
/* The swap cache of Linux 6.12 (mm/swap_state.c, lib/xarray.c): each 64 MiB
 * of slots is an address space whose xarray (i_pages) is locked with
 * interrupts off. A swapped-out folio is stored twice, in two sections:
 * add_to_swap_cache stores the folio, __remove_mapping replaces it with its
 * shadow (__delete_from_swap_cache). Each store updates its xarray node's
 * count and nr_values (the node's first line, with private_list) and calls
 * workingset_update_node (xas_set_update), which puts a shadow-only node on
 * shadow_nodes and takes it off when it holds a folio again. */
#include "cost.h"
#include "insn.h"
#include "swap.h"
#include "workingset.h"
#include "workingset_age.h"

struct swap_space *swap_space_of(struct swap_device *si, long slot)
{
	return &si->spaces[slot >> SWAP_ADDRESS_SPACE_SHIFT];
}

/* A new node of the swap cache's xarray (xas_create): charged to @memcg only
 * where the swap cache's xa_state carries a list_lru (v1's patch); in
 * mainline the node is not accounted and list_lru_add_obj puts it on the
 * root's list of its NUMA node. */
static struct xa_node *xa_node_get(long slot, struct mem_cgroup *memcg, int nid)
{
	struct swap_device *si = swap_active;
	long idx = slot / XA_CHUNK_SIZE;
	if (!si->nodes[idx]) {
		struct xa_node *node = g_new0(struct xa_node, 1);
		lru_item_init(&node->private_list, si->shadow_nodes.item_lines, nid);
		node->index = idx;
		node->objcg = si->memcg_shadows ? memcg->objcg : memcg_tree->root->objcg;
		node->nid = nid;
		si->nodes[idx] = node;
		si->stat.nodes_allocated++;
	}
	return si->nodes[idx];
}

/* xas_store of one entry into @node, i_pages held: the slot and the node's
 * counts, then update_node's callback. */
static sim_time_t xas_store(struct sim_task *t, struct spinlock *i_pages, struct xa_node *node,
			    long slot, int count, int values)
{
	uint64_t bit = 1ULL << (slot % XA_CHUNK_SIZE);
	sim_time_t c =
	    insn_cost(INSN_XAS_STORE) +
	    spin_held_access(t, i_pages, &node->private_list.line, LINE_STORE, "xas_store");
	node->count += count;
	node->nr_values += values;
	node->shadows = values > 0 ? node->shadows | bit : node->shadows & ~bit;
	sim_task_charge(t, SIM_CAT_SYS, c);
	workingset_update_node(t, node);
	return 0;
}

struct swap_store {
	struct swap_space *space;
	long slot;
	struct mem_cgroup *memcg;
	int nid;
};

/* add_to_swap_cache: xas_lock_irq, the folio stored in an empty slot. */
static sim_time_t add_to_swap_cache_section(struct sim_task *t, void *arg)
{
	struct swap_store *s = arg;
	struct xa_node *node = xa_node_get(s->slot, s->memcg, s->nid);
	return xas_store(t, &s->space->i_pages, node, s->slot, +1, 0);
}

void add_to_swap_cache(struct sim_task *t, long slot, struct mem_cgroup *memcg, int nid)
{
	struct swap_store s = {swap_space_of(swap_active, slot), slot, memcg, nid};
	spin_lock_hold_fn(t, &s.space->i_pages, add_to_swap_cache_section, &s, SIM_CAT_SYS,
			  SPIN_IRQ, "add_to_swap_cache");
}

/* __remove_mapping of a swap-cache folio: xa_lock_irq, workingset_eviction
 * (the shadow), __delete_from_swap_cache (the shadow stored in the folio's
 * slot); mem_cgroup_swapout returns at once under cgroup v2. */
static sim_time_t remove_mapping_section(struct sim_task *t, void *arg)
{
	struct swap_store *s = arg;
	struct xa_node *node = xa_node_get(s->slot, s->memcg, s->nid);
	sim_task_charge(t, SIM_CAT_SYS,
			workingset_eviction(t, &s->space->i_pages, s->memcg, s->nid, 1));
	return xas_store(t, &s->space->i_pages, node, s->slot, 0, +1);
}

void remove_mapping_swap(struct sim_task *t, long slot, struct mem_cgroup *memcg, int nid)
{
	struct swap_store s = {swap_space_of(swap_active, slot), slot, memcg, nid};
	spin_lock_hold_fn(t, &s.space->i_pages, remove_mapping_section, &s, SIM_CAT_SYS, SPIN_IRQ,
			  "__remove_mapping");
}

struct clear_shadow {
	struct swap_space *space;
	long begin, end;
};

/* clear_shadow_from_swap_cache: xa_lock_irq, each slot's shadow erased; a
 * node left empty comes off its list (workingset_update_node) and is freed
 * (xas_delete_node). */
static sim_time_t clear_shadow_section(struct sim_task *t, void *arg)
{
	struct clear_shadow *c = arg;
	struct swap_device *si = swap_active;
	for (long slot = c->begin; slot <= c->end; slot++) {
		struct xa_node *node = si->nodes[slot / XA_CHUNK_SIZE];
		if (!node || !(node->shadows & (1ULL << (slot % XA_CHUNK_SIZE))))
			continue; /* the shadow shrinker freed its node */
		xas_store(t, &c->space->i_pages, node, slot, -1, -1);
		si->stat.shadows_cleared++;
		if (node->count == 0) {
			sim_task_charge(t, SIM_CAT_SYS, cost(COST_XA_NODE_FREE));
			si->nodes[node->index] = NULL;
			g_free(node);
		}
	}
	return 0;
}

void clear_shadow_from_swap_cache(struct sim_task *t, long begin, long end)
{
	struct clear_shadow c = {swap_space_of(swap_active, begin), begin, end};
	spin_lock_hold_fn(t, &c.space->i_pages, clear_shadow_section, &c, SIM_CAT_SYS, SPIN_IRQ,
			  "clear_shadow_from_swap_cache");
}

/* Shadow nodes: a node holding only shadow entries must be on the list;
 * but not while its address space's i_pages lock is held (a run stopped by
 * its duration can end inside __remove_mapping, the node updated and its
 * list_lru_add still to come). */
long swap_shadow_nodes_off_list(void)
{
	struct swap_device *si = swap_active;
	long lost = 0;
	for (long i = 0; si && i < si->nr_nodes; i++) {
		struct xa_node *node = si->nodes[i];
		if (!node || !node->count || node->count != node->nr_values ||
		    node->private_list.on)
			continue;
		if (!spin_is_locked(&swap_space_of(si, node->index * XA_CHUNK_SIZE)->i_pages,
				    sim_end()))
			lost++;
	}
	return lost;
}

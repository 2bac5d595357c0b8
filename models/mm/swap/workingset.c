// SPDX-License-Identifier: GPL-2.0-or-later
#include "workingset.h"
#include "cost.h"
#include "insn.h"
#include "workingset_age.h"

static struct mem_cgroup *xa_node_memcg(struct xa_node *node)
{
	return node->objcg->memcg; /* mem_cgroup_from_slab_obj */
}

/* workingset_update_node (mm/workingset.c, 6.12), the xarray's update
 * callback after a store into @node with i_pages held: a node of shadows
 * only goes on shadow_nodes (list_lru_add_obj: the list of the node's
 * memcg), one that holds a folio or nothing comes off it (list_lru_del_obj). */
void workingset_update_node(struct sim_task *t, struct xa_node *node)
{
	struct list_lru *lru = &swap_active->shadow_nodes;
	if (node->count && node->count == node->nr_values) {
		if (!node->private_list.on)
			list_lru_add(t, lru, &node->private_list, node->nid, xa_node_memcg(node));
	} else if (node->private_list.on) {
		list_lru_del(t, lru, &node->private_list, node->nid, xa_node_memcg(node));
	}
}

/* count_shadow_nodes: nodes beyond 1/8 of a node per LRU page are excess. */
static long count_shadow_nodes(struct sim_task *t, struct shrinker *s, struct shrink_control *sc)
{
	struct swap_device *si = s->private_data;
	long nodes = list_lru_count_one(&si->shadow_nodes, sc->nid, sc->memcg);
	if (!nodes)
		return SHRINK_EMPTY;
	long max_nodes = lruvec_pages(sc->memcg, sc->nid) >> (XA_CHUNK_SHIFT - 3);
	return nodes > max_nodes ? nodes - max_nodes : 0;
}

/* shadow_lru_isolate: with the list lock held, trylock the node's i_pages
 * (the usual order is i_pages, then the list lock); on success take the node
 * off the list, drop the list lock and free the node. */
static enum lru_status shadow_lru_isolate(struct sim_task *t, struct list_lru *lru,
					  struct lru_item *item, struct list_lru_one *l,
					  struct lru_locked *held, void *arg)
{
	struct swap_device *si = arg;
	struct xa_node *node = (struct xa_node *)item;
	struct swap_space *space =
	    &si->spaces[(node->index * XA_CHUNK_SIZE) >> SWAP_ADDRESS_SPACE_SHIFT];
	struct spin_entry *xa = spin_trylock(t, &space->i_pages, SPIN_PLAIN, __func__);
	if (!xa) {
		list_lru_unlock(t, held);
		si->stat.isolate_retries++;
		return LRU_RETRY;
	}
	sim_task_charge(t, SIM_CAT_SYS, insn_cost(INSN_SHADOW_ISOLATE));
	list_lru_isolate(t, lru, l, item);
	list_lru_unlock(t, held);
	sim_task_charge(t, SIM_CAT_SYS, cost(COST_XA_NODE_FREE)); /* xa_delete_node */
	si->nodes[node->index] = NULL;
	si->stat.nodes_reclaimed++;
	spin_unlock(t, &space->i_pages, xa);
	g_free(node);
	return LRU_REMOVED_RETRY;
}

static long scan_shadow_nodes(struct sim_task *t, struct shrinker *s, struct shrink_control *sc)
{
	struct swap_device *si = s->private_data;
	return list_lru_walk_one_irq(t, &si->shadow_nodes, sc->nid, sc->memcg, shadow_lru_isolate,
				     si, &sc->nr_to_scan);
}

void workingset_init(struct swap_device *si, const struct list_lru_scope_ops *scope)
{
	struct shrinker *s = &si->workingset_shadow_shrinker;
	s->name = "mm-shadow";
	s->seeks = 0;
	s->count_objects = count_shadow_nodes;
	s->scan_objects = scan_shadow_nodes;
	s->private_data = si;
	shrinker_register(s);
	list_lru_init_memcg_key(&si->shadow_nodes, "shadow_nodes", scope, s->id);
}

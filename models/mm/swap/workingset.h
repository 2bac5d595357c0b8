/* SPDX-License-Identifier: GPL-2.0-or-later */
/* workingset: shadow nodes, as mm/workingset.c keeps them: an xarray node
 * that holds only shadow entries goes on the memcg-aware shadow_nodes
 * list_lru, and the shadow shrinker frees such nodes beyond a share of the
 * memcg's LRU size. */
#pragma once
#include "swap.h"

void workingset_init(struct swap_device *si, const struct list_lru_scope_ops *scope);
/* After a store into @node (i_pages held): its place on shadow_nodes. */
void workingset_update_node(struct sim_task *t, struct xa_node *node);

// SPDX-License-Identifier: GPL-2.0-or-later
/* The run's memcg tree and its lookups (mm/memcontrol.c): by kmemcg id, by
 * name, the pre-order walk of mem_cgroup_iter, a level's margin. */
#include "memcg.h"

struct memcg_tree *memcg_tree;

struct mem_cgroup *mem_cgroup_from_kmemcg_id(int id)
{
	return id >= 0 && (guint)id < memcg_tree->by_kmemcg->len ? memcg_tree->by_kmemcg->pdata[id]
								 : memcg_tree->root;
}

struct mem_cgroup *mem_cgroup_lookup(const char *name)
{
	return g_hash_table_lookup(memcg_tree->by_name, name);
}

struct mem_cgroup *mem_cgroup_iter(struct mem_cgroup *root, struct mem_cgroup *prev)
{
	if (!prev)
		return root;
	if (prev->children->len)
		return prev->children->pdata[0];
	for (struct mem_cgroup *m = prev; m != root; m = m->parent) {
		GPtrArray *sib = m->parent->children;
		if (m->sibling_idx + 1 < sib->len)
			return sib->pdata[m->sibling_idx + 1];
	}
	return NULL;
}

long mem_cgroup_margin(struct mem_cgroup *memcg)
{
	long margin = G_MAXLONG;
	for (struct page_counter *c = &memcg->memory; c; c = c->parent)
		margin = MIN(margin, c->max - c->usage);
	return margin;
}

struct mem_cgroup *mem_cgroup_of_counter(struct page_counter *c)
{
	return (struct mem_cgroup *)((char *)c - offsetof(struct mem_cgroup, memory));
}

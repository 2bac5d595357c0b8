// SPDX-License-Identifier: GPL-2.0-or-later
#include "workingset_age.h"

static sim_time_t age_access(struct sim_task *t, struct spinlock *held, struct cacheline *line,
			     enum line_op op, const char *site)
{
	if (held)
		return spin_held_access(t, held, line, op, site);
	line_touch(t, line, op, site);
	return 0;
}

sim_time_t workingset_age_nonresident(struct sim_task *t, struct spinlock *held,
				      struct mem_cgroup *memcg, int nid)
{
	sim_time_t spent = 0;
	for (struct mem_cgroup *m = memcg; m; m = m->parent)
		spent += age_access(t, held, &m->nodeinfo[nid].line, LINE_RMW, __func__);
	return spent;
}

/* mm/workingset.c (5.10 .. 6.12, the classic LRU): lruvec =
 * mem_cgroup_lruvec(target_memcg, pgdat), then workingset_age_nonresident,
 * then the read of nonresident_age for the shadow entry. */
sim_time_t workingset_eviction(struct sim_task *t, struct spinlock *held, struct mem_cgroup *target,
			       int nid, long k)
{
	struct mem_cgroup *memcg = target ? target : memcg_tree->root;
	sim_time_t spent = 0;
	for (long i = 0; i < k; i++) {
		spent += age_access(t, held, &memcg->nodeinfo[nid].line, LINE_LOAD, __func__);
		spent += workingset_age_nonresident(t, held, memcg, nid);
	}
	return spent;
}

/* mm/workingset.c: the folio's own memcg's lruvec, and up. */
void workingset_activation(struct sim_task *t, struct mem_cgroup *folio_memcg, int nid)
{
	if (folio_memcg)
		workingset_age_nonresident(t, NULL, folio_memcg, nid);
}

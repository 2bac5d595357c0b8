/* SPDX-License-Identifier: GPL-2.0-or-later */
/* workingset_age: the LRU's aging clock, as mm/workingset.c keeps it (Linux
 * 5.8+): each lruvec's nonresident_age, in the lruvec's line with lru_lock
 * and the reclaim costs (struct lruvec: lists, lru_lock, anon_cost,
 * file_cost, nonresident_age), advanced at every level up to the root's
 * lruvec of the node by each eviction and each activation: a line every
 * CPU of the node writes. */
#pragma once
#include "memcg.h"

/* workingset_age_nonresident: an atomic add at @memcg's lruvec on @nid and
 * at each ancestor's. Inside the lock section @held (its time returned), or
 * with no lock held (@held NULL: charged to @t, 0 returned). */
sim_time_t workingset_age_nonresident(struct sim_task *t, struct spinlock *held,
				      struct mem_cgroup *memcg, int nid);

/* workingset_eviction of @k folios reclaimed for @target (NULL: global
 * reclaim, whose lruvec is the root memcg's), inside @held (i_pages): the
 * timestamp's read and the aging, each folio; returns their time. */
sim_time_t workingset_eviction(struct sim_task *t, struct spinlock *held, struct mem_cgroup *target,
			       int nid, long k);

/* workingset_activation of @folio_memcg's folio on @nid, at
 * folio_mark_accessed's activation, no lock held. */
void workingset_activation(struct sim_task *t, struct mem_cgroup *folio_memcg, int nid);

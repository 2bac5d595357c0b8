/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lock_scope: which lock protects one (node, memcg) instance of a
 * structure, the question the list_lru split (6.13) and the lru_lock split
 * (5.11) both answered. A structure kept per (node, memcg) has a lock of its
 * own and its node has one; the scope picks which of the two protects it:
 *  - lock_scope_node:  the node's lock, for every memcg's instance on it
 *    (list_lru before 6.13: &nlru->lock; the LRU before 5.11:
 *    pgdat->lru_lock);
 *  - lock_scope_memcg: the instance's own (list_lru_one's lock, 6.13;
 *    lruvec->lru_lock, 5.11).
 * A third structure is split the same way: give it both locks, a
 * memcg.<structure>_scope key with lock_scopes as its choices, and take
 * lock_scope_lock(). Batches that walk instances of several memcgs keep the
 * lock they hold while the next instance's lock is the same one
 * (lock_scope_relock: the kernel's relock_page_lruvec / folio_lruvec_relock).
 */
#pragma once
#include "mcs_named.h"
#include "spinlock.h"

struct lock_scope {
	MCS_NAMED; /* "node" or "memcg" */
	bool per_memcg;
};

extern const struct lock_scope lock_scope_node, lock_scope_memcg;
/* The registry a scope key's choices are (NULL-terminated). */
extern const struct mcs_named *const lock_scopes[];

/* The lock that protects an instance whose own lock is @own, on a node
 * whose lock is @node_lock. */
static inline struct spinlock *lock_scope_lock(const struct lock_scope *s,
					       struct spinlock *node_lock, struct spinlock *own)
{
	return s->per_memcg ? own : node_lock;
}

/* A lock held across a batch. */
struct lock_scope_held {
	struct spinlock *lock;
	struct spin_entry *entry;
	long relocks; /* times the batch had to drop one lock for another */
};

/* Hold @want for the next item of the batch: kept when already held,
 * otherwise the held one (if any) is dropped first (counted in relocks
 * when the batch had one). */
void lock_scope_relock(struct sim_task *t, struct lock_scope_held *h, struct spinlock *want,
		       enum spin_flavour fl, const char *site);
void lock_scope_unlock(struct sim_task *t, struct lock_scope_held *h);

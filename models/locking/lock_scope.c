// SPDX-License-Identifier: GPL-2.0-or-later
/* lock_scope: the node and memcg lock scopes, and relocking across a batch. */
#include "lock_scope.h"

const struct lock_scope lock_scope_node = {
    .name = "node",
    .doc = "one lock per NUMA node for every memcg's instance on it",
    .per_memcg = false,
};

const struct lock_scope lock_scope_memcg = {
    .name = "memcg",
    .doc = "one lock per (memcg, node) instance",
    .per_memcg = true,
};

const struct mcs_named *const lock_scopes[] = {&lock_scope_node.named, &lock_scope_memcg.named,
					       NULL};

void lock_scope_relock(struct sim_task *t, struct lock_scope_held *h, struct spinlock *want,
		       enum spin_flavour fl, const char *site)
{
	if (h->lock == want)
		return;
	if (h->lock) {
		spin_unlock(t, h->lock, h->entry);
		h->relocks++;
	}
	h->lock = want;
	h->entry = spin_lock(t, want, fl, site);
}

void lock_scope_unlock(struct sim_task *t, struct lock_scope_held *h)
{
	if (h->lock)
		spin_unlock(t, h->lock, h->entry);
	h->lock = NULL;
	h->entry = NULL;
}

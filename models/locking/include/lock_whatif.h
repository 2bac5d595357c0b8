/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lock_whatif: kernel.lock_whatif, a named lock class changed without C
 * (lock_whatif.c): given another scope (one lock for all its instances, one
 * a NUMA node, one a CPU, one a memcg: the memcg of the task that takes it,
 * sim_task_group), replaced by an atomic on its data, taken by RCU
 * readers at named sites, or removed. The spinlock calls ask it how each
 * acquisition goes, and keep the scopes' locks themselves. */
#pragma once
#include "sim_engine.h"
#include <stdbool.h>
#include <stddef.h>

enum lock_whatif_kind {			    /* in kernel.lock_whatif's "kind" order */
			LOCK_WHATIF_SCOPE,  /* another lock of the class: its scope's instance */
			LOCK_WHATIF_ATOMIC, /* no lock: a locked RMW on the lock's line, then the
					       work */
			LOCK_WHATIF_RCU_READERS, /* at a reader site: rcu_read_lock, then the work
						  */
			LOCK_WHATIF_REMOVE,	 /* no lock: the work alone */
			LOCK_WHATIF_AS_IS, /* unchanged (a class without one, a writer's site) */
};
enum lock_whatif_scope { LOCK_WHATIF_GLOBAL, LOCK_WHATIF_NODE, LOCK_WHATIF_CPU, LOCK_WHATIF_MEMCG };

/* Change lock class @cls as @kind says (@scope for a scope, @sites, @n of
 * them, the readers' for rcu_readers). */
void lock_whatif_add(const char *cls, int kind, int scope, char *const *sites, size_t n);
/* Forget the changes (and the memcgs' count). */
void lock_whatif_reset(void);
/* How many memcgs the run starts with (ids 0, the root, to @n - 1): a
 * per-memcg scope's locks. A task of a memcg made later takes the root's. */
void lock_whatif_memcgs(int n);
/* Is any class changed? (The spinlock calls' fast path.) */
extern bool lock_whatif_any;

/* How class @cls is taken at @site (NULL: inside a section) by @t: the
 * kind; for a scope, *@instance of *@instances the lock to take, whose
 * line's home is NUMA node *@home (a CPU's, a node's; the global and the
 * memcgs' locks node 0's). */
enum lock_whatif_kind lock_whatif_how(const char *cls, const char *site, struct sim_task *t,
				      int *instance, int *instances, int *home);

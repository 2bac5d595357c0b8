/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lock_whatif: kernel.lock_whatif, a named lock class changed without C
 * (lock_whatif.c): given another scope (one lock for all its instances, one
 * a NUMA node, one a CPU), replaced by an atomic on its data, taken by RCU
 * readers at named sites, or removed. The spinlock calls ask it how each
 * acquisition goes. */
#pragma once
#include "spinlock.h"

enum lock_whatif_kind {
	LOCK_WHATIF_SCOPE,	 /* another instance of the class: by scope */
	LOCK_WHATIF_ATOMIC,	 /* no lock: a locked RMW on the lock's line, then the work */
	LOCK_WHATIF_RCU_READERS, /* at the reader sites: rcu_read_lock, then the work */
	LOCK_WHATIF_REMOVE,	 /* no lock: the work alone */
};
enum lock_whatif_scope { LOCK_WHATIF_GLOBAL, LOCK_WHATIF_NODE, LOCK_WHATIF_CPU };

/* Change lock class @cls as @kind says (@scope for a scope, @sites, @n of
 * them, the readers' for rcu_readers). */
void lock_whatif_add(const char *cls, int kind, int scope, char *const *sites, size_t n);
/* Forget the changes, and the locks a scope made. */
void lock_whatif_reset(void);
/* Is any class changed? (The spinlock calls' fast path.) */
extern bool lock_whatif_any;
/* How @l is taken at @site on @cpu: the lock to take instead (@l itself,
 * or its scope's instance), or NULL with *@instead what replaces the lock
 * (taken without one). */
struct spinlock *lock_whatif_lock(struct sim_task *t, struct spinlock *l, const char *site,
				  sim_time_t *instead);
/* The lock @l stands for on @cpu inside a section (no cost; @l itself when
 * its class has no scope change). */
struct spinlock *lock_whatif_instance(struct spinlock *l, int cpu);

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* list_lru: memcg-aware reclaimable-object lists, as mm/list_lru.c.
 *
 * One list_lru_one (a list + nr_items) per (memcg, node), plus one per node
 * for the root. Which lock protects a list is the lock scope, a table of
 * operations chosen by the scenario:
 *  - list_lru_scope_node:  one lock per node for every memcg's list on it
 *    (Linux 3.19 .. 6.12), node nr_items under that lock;
 *  - list_lru_scope_memcg: one lock per list_lru_one, looked up under RCU
 *    with a dead marker (Linux 6.13), node nr_items atomic outside it. */
#pragma once
#include "lock_scope.h"
#include "mcs_named.h"
#include "memcg.h"
#include "spinlock.h"
#include <limits.h>

enum lru_status {
	LRU_REMOVED,	   /* item removed, lock still held */
	LRU_REMOVED_RETRY, /* item removed, lock dropped: restart the walk */
	LRU_ROTATE,	   /* item moved to the tail */
	LRU_SKIP,	   /* item left where it is */
	LRU_RETRY,	   /* item not freeable now, lock dropped: restart */
	LRU_STOP,	   /* stop walking, lock still held */
};

struct list_lru_one;

/* Embedded first in every object kept on a list_lru. */
struct lru_item {
	struct lru_item *prev, *next;
	struct list_lru_one *on; /* the list it is on, NULL when off (checker) */
	struct cacheline line;	 /* the object's line holding this list_head */
};

void lru_item_init(struct lru_item *item, struct line_class *cls, int nid);

struct list_lru_one {
	struct lru_item head;
	/* Under the lock that protects the list (the node's lock, or @lock
	 * in memcg scope); LONG_MIN once reparented (memcg scope). */
	long nr_items;
	struct spinlock lock;	  /* memcg scope: protects this list */
	struct mem_cgroup *memcg; /* owner */
	int nid;
	/* Where the list head, and nr_items with (memcg scope) the lock, sit:
	 * the lists of one memcg are an array (struct list_lru_memcg), so
	 * neighbouring nodes' lists share lines. */
	struct cacheline *head_line, *word_line;
};

/* What a non-root memcg's lists on one list_lru cost once it first adds an
 * object to it (memcg_list_lru_alloc): a struct list_lru_one a node and
 * their lines, kept until the run ends. Measured (maximum resident size of
 * one simulation, 4096 fileread tasks of one file each in 4096 cgroups
 * against all in one): 591 bytes a memcg with 1 node, 14.3 KB with 64. */
#define LIST_LRU_MEMCG_BYTES 400
#define LIST_LRU_MEMCG_NODE_BYTES 240
static inline double list_lru_memcg_bytes(int nodes)
{
	return LIST_LRU_MEMCG_BYTES + (double)LIST_LRU_MEMCG_NODE_BYTES * nodes;
}

/* ____cacheline_aligned_in_smp: the lock, the root's list and nr_items in
 * one line. */
struct list_lru_node {
	struct spinlock lock;	 /* node scope: protects every list of the node */
	struct list_lru_one lru; /* the root's list (memcg scope: with its lock) */
	long nr_items;		 /* node scope: lock; memcg scope: atomic */
	struct cacheline line;
};

/* What a walk holds after locking a list. */
struct lru_locked {
	struct spinlock *lock;
	struct spin_entry *entry;
	enum spin_flavour fl;
};

struct list_lru;

/* A simple operation on a list, made with the list locked. */
struct lru_op {
	enum { LRU_OP_ADD, LRU_OP_DEL } kind;
	struct lru_item *item;
	bool done; /* the item was added (deleted) */
};

struct list_lru_scope_ops {
	MCS_NAMED;		/* "node" or "memcg" */
	const char *lock_class; /* the model's class of the list lock */
	/* the kernel's lockdep class of it (lock_class_lockdep_name): a list_lru
	 * initialised without a key (list_lru_init_memcg) and with one
	 * (list_lru_init_memcg_key: workingset's shadow_nodes) */
	const char *lockdep_class, *lockdep_key;
	size_t list_size;	   /* sizeof(struct list_lru_one) in that kernel */
	bool reparent_objcg_first; /* Linux <= 6.12 reparented objcgs before the lists */
	/* Linux <= 6.12 pointed the dying memcg's kmemcg_id at its parent's
	 * before splicing, so that new items go to the parent's list. */
	bool switch_kmemcg_id;
	/* Find the list of @memcg on @nid, lock it (a planned hold), make @op
	 * on it and unlock; then the node's count where it is an atomic. */
	void (*op_locked)(struct sim_task *t, struct list_lru *lru, int nid,
			  struct mem_cgroup *memcg, const char *site, struct lru_op *op);
	/* Which lock protects a list: the node's or the list's own. */
	const struct lock_scope *lock_scope;
	/* Lock the list of @memcg on @nid for a walk. A reparented (dead) list
	 * gives NULL. */
	struct list_lru_one *(*lock_list)(struct sim_task *t, struct list_lru *lru, int nid,
					  struct mem_cgroup *memcg, enum spin_flavour fl,
					  const char *site, struct lru_locked *held);
	/* After an isolate callback dropped the lock of @l (LRU_RETRY,
	 * LRU_REMOVED_RETRY): lock again for the walk to restart. Before the
	 * split, the callback re-took the same node lock and the walk went on
	 * with the same list; after it, the list is looked up again (it may
	 * have been reparented) and a dead one ends the walk (NULL). */
	struct list_lru_one *(*relock)(struct sim_task *t, struct list_lru *lru, int nid,
				       struct mem_cgroup *memcg, struct list_lru_one *l,
				       enum spin_flavour fl, const char *site,
				       struct lru_locked *held);
	/* @delta items were added to (removed from) list @l on @nid, which
	 * is locked: its count, and the node's where the node lock covers it;
	 * returns what the holder's accesses cost. */
	sim_time_t (*count_locked)(struct sim_task *t, struct list_lru *lru, int nid,
				   struct list_lru_one *l, struct spinlock *lock, long delta);
	/* Once unlocked: the node's count where it is an atomic, @nr_ops
	 * atomic operations in all. */
	void (*count_unlocked)(struct sim_task *t, struct list_lru *lru, int nid, long delta,
			       long nr_ops);
	/* Move every item of the dying memcg's list @src on @nid to @parent's.
	 * Once every node is done, the lists leave the lookup table. */
	void (*reparent_one)(struct sim_task *t, struct list_lru *lru, int nid,
			     struct list_lru_one *src, struct mem_cgroup *parent);
};

extern const struct mcs_named *const list_lru_scopes[];
const struct list_lru_scope_ops *list_lru_scope_find(const char *name);

struct list_lru_stats {
	LIST_LRU_STATS(MM_STAT_MEMBER) /* mm_stats.h */
};

struct list_lru {
	char *name;
	const struct list_lru_scope_ops *scope;
	int shrinker_id;
	int nodes;
	struct list_lru_node *node;
	GPtrArray *xa;	 /* by kmemcg_id: struct list_lru_one[nodes], NULL once erased */
	GPtrArray *dead; /* erased lists awaiting their grace period */
	struct lock_class *cls;
	struct line_class *node_lines;	/* each node's line: its lock, list and nr_items */
	struct line_class *memcg_lines; /* the lines of the per-memcg list arrays */
	struct line_class *item_lines;	/* its objects' list_head lines */
	struct list_lru_stats stat;
	/* What a lookup of a memcg's lists reads (list_lru_from_memcg_idx):
	 * struct list_lru's line (the xarray's root), then an xarray node line
	 * per 64 ids (and per 4096 above 64). Written only when lists come and
	 * go, so usually clean copies. */
	struct cacheline line;
	GPtrArray *xa_lines; /* struct cacheline *, by id / 64, then id / 4096 */
};

typedef enum lru_status (*list_lru_walk_cb)(struct sim_task *t, struct list_lru *lru,
					    struct lru_item *item, struct list_lru_one *l,
					    struct lru_locked *held, void *arg);

void list_lru_init_memcg(struct list_lru *lru, const char *name,
			 const struct list_lru_scope_ops *scope, int shrinker_id);
/* The same for a list_lru with a lockdep key of its own, whose lock's class
 * lock_stat names by the key (mm/workingset.c's shadow_nodes_key). */
void list_lru_init_memcg_key(struct list_lru *lru, const char *name,
			     const struct list_lru_scope_ops *scope, int shrinker_id);
void list_lru_destroy(struct list_lru *lru);
/* Every registered list_lru, for reparenting and the checker. */
GPtrArray *list_lru_all(void);

bool list_lru_add(struct sim_task *t, struct list_lru *lru, struct lru_item *item, int nid,
		  struct mem_cgroup *memcg);
bool list_lru_del(struct sim_task *t, struct list_lru *lru, struct lru_item *item, int nid,
		  struct mem_cgroup *memcg);
/* What looking @memcg's lists up by @t costs (xa_load); its line accesses
 * are stalls of @t's next busy charge (sim_task_stall_next). */
sim_time_t list_lru_lookup_cost(struct sim_task *t, struct list_lru *lru, struct mem_cgroup *memcg);
/* Lockless reads of nr_items. */
long list_lru_count_one(struct list_lru *lru, int nid, struct mem_cgroup *memcg);
long list_lru_count_node(struct list_lru *lru, int nid);
long list_lru_walk_one(struct sim_task *t, struct list_lru *lru, int nid, struct mem_cgroup *memcg,
		       list_lru_walk_cb isolate, void *arg, long *nr_to_walk);
long list_lru_walk_one_irq(struct sim_task *t, struct list_lru *lru, int nid,
			   struct mem_cgroup *memcg, list_lru_walk_cb isolate, void *arg,
			   long *nr_to_walk);
/* For isolate callbacks: take @item off @l (the lock is held). */
void list_lru_isolate(struct sim_task *t, struct list_lru *lru, struct list_lru_one *l,
		      struct lru_item *item);
void list_lru_unlock(struct sim_task *t, struct lru_locked *held);

/* memcg_offline_kmem's list part: reparent every list_lru of @memcg. */
void memcg_reparent_list_lrus(struct sim_task *t, struct mem_cgroup *memcg,
			      struct mem_cgroup *parent);

/* Internal, shared by the two scopes (list_lru_scope_*.c). */
/* @op on the locked list @l: the list manipulation, the counts, and what
 * the holder's accesses cost. */
sim_time_t list_lru_op_apply(struct sim_task *t, struct list_lru *lru, struct list_lru_one *l,
			     struct spinlock *lock, struct lru_op *op);
struct list_lru_one *list_lru_memcg_lists(struct list_lru *lru, struct mem_cgroup *memcg,
					  bool create);
/* Splice @src onto @dst (both locked) and move its count; @nid's shrinker
 * bit is set for @dst's memcg when items moved. */
sim_time_t list_lru_move_items(struct sim_task *t, struct list_lru *lru, int nid,
			       struct list_lru_one *src, struct list_lru_one *dst,
			       struct spinlock *lock);
void list_lru_lock(struct sim_task *t, struct spinlock *lock, enum spin_flavour fl,
		   const char *site, struct lru_locked *held);
static inline bool list_lru_one_dead(const struct list_lru_one *l)
{
	return l->nr_items == LONG_MIN;
}

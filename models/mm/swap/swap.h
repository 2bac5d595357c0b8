/* SPDX-License-Identifier: GPL-2.0-or-later */
/* swap: a zram swap device and its swap cache, as Linux 6.12's mm/swapfile.c,
 * mm/swap_slots.c and mm/swap_state.c: slots handed out to a per-CPU slot
 * cache 64 at a time from per-CPU clusters of SWAPFILE_CLUSTER, one
 * swap-cache address space (xarray, i_pages lock) per 64 MiB of slots,
 * xarray nodes of 64 slots that keep shadow entries after swap-out;
 * kernel.version 6.14: the allocator and the frees under the cluster lock,
 * si->lock only for the cluster lists (swap_cluster.c, swap_free.c).
 *   swap.c        the device, its parameters and results
 *   swap_slots.c  folio_alloc_swap, get_swap_pages
 *   swap_cluster.c the cluster locks; 6.14's allocator and cluster lists
 *   swap_free.c   6.14's frees under the cluster lock
 *   swap_state.c  add_to_swap_cache, __remove_mapping's half, the shadows
 *   swap_out.c    shrink_folio_list's anonymous branch, one folio at a time
 *   swap_exit.c   a process's exit: its swap entries freed
 *   zram.c        zram_write_page and zram_slot_free_notify (same-filled)
 *   swap_cgroup.c mem_cgroup_try_charge_swap and its uncharge */
#pragma once
#include "list_lru.h"
#include "mm.h"
#include "shrinker.h"
#include "spec.h"

struct swap_space {
	struct spinlock i_pages; /* the address space's xarray lock */
	struct spinlock zswap;	 /* its zswap tree's xa_lock (zswap_trees[type][i]) */
};

/* SWAP_SLOTS_CACHE_SIZE (mm/swap_slots.c): slots a CPU takes per refill. */
#define SWAP_SLOTS_CACHE_SIZE 64

/* struct swap_slots_cache: the slots this CPU was given and not yet used,
 * and the ones freed and not yet returned (slots_ret). */
struct swap_slots_cache {
	long slots[SWAP_SLOTS_CACHE_SIZE];
	int nr, cur;
	long ret[SWAP_SLOTS_CACHE_SIZE];
	struct mem_cgroup *ret_memcg[SWAP_SLOTS_CACHE_SIZE]; /* swap_cgroup's id of each */
	int n_ret;
};

/* struct swap_cluster_info: ci->lock, allocated at the cluster's first use. */
struct swap_cluster {
	struct spinlock lock;
};

/* 6.14's ci->count and ci->flags (which list it is on), kept as the kernel
 * keeps them so that the list moves come where they do. */
struct swap_cluster_state {
	int count;
	int flags; /* enum swap_cluster_flags */
};

/* enum swap_cluster_flags (include/linux/swap.h, 6.14): the list a cluster
 * is on; NONE while isolated. */
enum {
	CLUSTER_FLAG_NONE,
	CLUSTER_FLAG_FREE,
	CLUSTER_FLAG_NONFULL,
	CLUSTER_FLAG_FRAG,
	CLUSTER_FLAG_FULL
};

/* struct zram: the device's stats atomics, one line (struct zram_stats:
 * same_pages and pages_stored 24 bytes apart). */
struct zram {
	struct cacheline stats;
};

/* What an xarray node costs the simulator (measured: a memhog swapping
 * 196,639 and 786,432 pages, whose 3073 and 12,288 nodes all keep shadow
 * entries, differs by 147 bytes a node in maximum resident size). */
#define SWAP_XA_NODE_BYTES 150

/* A swap-cache xarray node. */
struct xa_node {
	struct lru_item private_list; /* on shadow_nodes when only shadows remain */
	long index;		      /* first slot / XA_CHUNK_SIZE */
	int count;		      /* entries: pages and shadows (i_pages) */
	int nr_values;		      /* shadow entries (i_pages) */
	uint64_t shadows;	      /* which of its slots hold a shadow */
	struct obj_cgroup *objcg;     /* charged to: the allocating task's memcg */
	int nid;		      /* allocated on */
};

struct swap_stats {
	SWAP_STATS(MM_STAT_MEMBER) /* mm_stats.h */
};

/* swap_cgroup_ctrl (mm/swap_cgroup.c, before 6.14): the device's id map
 * and the one lock its updates take. */
struct swap_cgroup_ctrl {
	struct spinlock lock;
	struct cacheline *map; /* [ncpus]: the map lines of each CPU's clusters */
};

struct swap_device {
	long nr_slots;
	long next_cluster;	    /* si->lock: the free list's head, as a position in its order */
	struct spinlock avail_lock; /* swap_avail_lock, and swap_avail_heads with it */
	struct cacheline nr_swap_pages; /* the global atomic_long_t */
	struct spinlock lock;		/* si->lock: the slot allocator; 6.14: the cluster lists */
	struct cacheline lists;		/* 6.14: the cluster lists' heads (si->lock) */
	struct cacheline inuse_pages;	/* 6.14: atomic inuse_pages, frag_cluster_nr */
	struct {
		long next, end;
	} * percpu_cluster;
	struct swap_slots_cache *slots_cache; /* [ncpus] */
	struct swap_cluster **clusters;	      /* by cluster, NULL until used */
	struct lock_class *cluster_class;     /* their locks' (made with the device) */
	struct swap_cluster_state *cstate;    /* [nr_clusters], 6.14 only */
	long nr_clusters;
	struct zram zram;
	bool zswap_invalidate_erase; /* zswap_invalidate xa_erases with zswap off (6.12) */
	int nr_spaces;
	struct swap_space *spaces;
	long nr_nodes;
	struct xa_node **nodes; /* by index, NULL when not allocated */
	bool interleave;	/* the free list in 6.12's column order (setup_clusters) */
	bool memcg_shadows;	/* shadow nodes on their memcg's list (v1 of the split series) */
	struct list_lru shadow_nodes;
	struct swap_cgroup_ctrl swap_cgroup;
	struct shrinker workingset_shadow_shrinker;
	GHashTable *entries; /* memcg -> GArray of struct swap_run, in swap-out order */
	struct swap_stats stat;
};

/* Consecutive slots swapped out by one task one after the other. */
struct swap_run {
	long first, n;
};

extern struct swap_device *swap_active;

/* memcg.swap: the swap device. */
struct swap_params {
	int type; /* zram */
	double size_mb;
	int cluster_order;     /* SWAP_SEQUENTIAL or SWAP_INTERLEAVE */
	int shadow_accounting; /* SWAP_SHADOW_ROOT or SWAP_SHADOW_MEMCG */
	int zswap_invalidate;  /* ZSWAP_INVALIDATE_ERASE or ZSWAP_INVALIDATE_CHECK_EMPTY */
};
enum { ZSWAP_INVALIDATE_ERASE, ZSWAP_INVALIDATE_CHECK_EMPTY };
enum { SWAP_SEQUENTIAL, SWAP_INTERLEAVE };
enum { SWAP_SHADOW_ROOT, SWAP_SHADOW_MEMCG };
extern const struct spec swap_params_spec;

/* swapon: the zram device @p (its size, cluster order, whose list its
 * shadow nodes go on, zswap_invalidate's erase), its shadow_nodes list_lru in
 * lock scope @scope. */
void swap_device_init(const struct swap_params *p, const struct list_lru_scope_ops *scope);
void swap_device_destroy(void);
/* swap_available, swap_writeout_folios (swap_out.c): mm.h. */

/* swap_slots.c: folio_alloc_swap's slot for one folio (the per-CPU slot
 * cache, refilled by get_swap_pages), or -1 when the device is full. */
long folio_alloc_swap(struct sim_task *t, struct mem_cgroup *memcg);
void swap_slots_destroy(struct swap_device *si);

/* swap_cluster.c: a slot's cluster; the head of the free cluster list
 * (-1: none); the cluster lock around a slot's swap_map update
 * (swap_duplicate, put_swap_folio, the frees); 6.14's cluster_alloc_swap of
 * up to @goal slots into @slots without si->lock (the number given), and
 * the list moves after a free under ci->lock (free_cluster,
 * partial_free_cluster); the clusters freed. */
struct swap_cluster *swap_cluster_of(struct swap_device *si, long slot);
long next_free_cluster(struct swap_device *si);
void swap_cluster_update(struct sim_task *t, long slot, const char *site);
int cluster_alloc_swap(struct sim_task *t, struct swap_device *si, long *slots, int goal);
void swap_cluster_freed(struct sim_task *t, struct swap_device *si, long slot);
void swap_clusters_destroy(struct swap_device *si);

/* swap_free.c: zswap_invalidate of a freed slot; 6.14's
 * __swap_entries_free of @n slots of @memcg from @first, under the
 * cluster lock. */
void zswap_invalidate(struct sim_task *t, long slot);
void swap_entries_free_614(struct sim_task *t, struct mem_cgroup *memcg, long first, long n);

/* swap_exit.c: the slots @memcg's tasks swapped out, in order; at a task's
 * exit, zap_pte_range's free_swap_and_cache_nr over its share of them, one
 * of @procs alive in @memcg. */
void swap_entries_record(struct mem_cgroup *memcg, long slot);
void swap_exit_entries(struct sim_task *t, struct mem_cgroup *memcg, int procs);
void swap_entries_init(struct swap_device *si);
void swap_entries_destroy(struct swap_device *si);

/* swap_state.c: the swap cache's two stores of a swapped-out folio, each in
 * its own i_pages section; at exit, the shadows' clearing. */
void add_to_swap_cache(struct sim_task *t, long slot, struct mem_cgroup *memcg, int nid);
void remove_mapping_swap(struct sim_task *t, long slot, struct mem_cgroup *memcg, int nid);
void clear_shadow_from_swap_cache(struct sim_task *t, long begin, long end);
struct swap_space *swap_space_of(struct swap_device *si, long slot);

/* zram.c: writing a same-filled page to slot @slot; freeing it. */
void zram_write_page(struct sim_task *t, long slot);
void zram_slot_free_notify(struct sim_task *t, long slot);
void zram_init(struct zram *zram);

/* swap_cgroup.c: __mem_cgroup_try_charge_swap for one folio of @memcg (its
 * slot on this CPU's cluster), __mem_cgroup_uncharge_swap, and the ctrl's
 * set-up and teardown. */
void mem_cgroup_try_charge_swap(struct sim_task *t, struct mem_cgroup *memcg, long nr);
void mem_cgroup_uncharge_swap(struct sim_task *t, struct mem_cgroup *memcg, long nr);
void swap_cgroup_swapon(struct swap_cgroup_ctrl *ctrl);
void swap_cgroup_swapoff(struct swap_cgroup_ctrl *ctrl);

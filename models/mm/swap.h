/* SPDX-License-Identifier: GPL-2.0-or-later */
/* swap: a zram swap device and its swap cache, as mm/swapfile.c and
 * mm/swap_state.c: slots handed out in per-CPU clusters of SWAPFILE_CLUSTER,
 * one swap-cache address space (xarray, i_pages lock) per 64 MiB of slots,
 * xarray nodes of 64 slots that keep shadow entries after swap-out. */
#pragma once
#include "list_lru.h"
#include "shrinker.h"
#include "spec.h"

struct swap_space {
	struct spinlock i_pages; /* the address space's xarray lock */
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
	long next_cluster; /* si->lock */
	struct spinlock lock; /* si->lock: cluster allocation */
	struct { long next, end; } *percpu_cluster;
	int nr_spaces;
	struct swap_space *spaces;
	long nr_nodes;
	struct xa_node **nodes; /* by index, NULL when not allocated */
	long batch;		/* pages per simulated swap-out step */
	bool interleave;	/* CPU c takes clusters from address space c mod spaces */
	bool memcg_shadows;	/* shadow nodes on their memcg's list (v1 of the split series) */
	long *space_next_cluster; /* interleave: next free cluster per space (si->lock) */
	struct list_lru shadow_nodes;
	struct swap_cgroup_ctrl swap_cgroup;
	struct shrinker workingset_shadow_shrinker;
	struct swap_stats stat;
};

extern struct swap_device *swap_active;

/* memcg.swap: the swap device. */
struct swap_params {
	int type; /* zram */
	double size_mb;
	long batch_pages;
	int cluster_order; /* SWAP_SEQUENTIAL or SWAP_INTERLEAVE */
	int shadow_accounting; /* SWAP_SHADOW_ROOT or SWAP_SHADOW_MEMCG */
};
enum { SWAP_SEQUENTIAL, SWAP_INTERLEAVE };
enum { SWAP_SHADOW_ROOT, SWAP_SHADOW_MEMCG };
extern const struct spec swap_params_spec;

/* swapon: the zram device @p (its size, pages swapped out per step, cluster
 * order, whose list its shadow nodes go on), its shadow_nodes list_lru in
 * lock scope @scope. */
void swap_device_init(const struct swap_params *p, const struct list_lru_scope_ops *scope);
void swap_device_destroy(void);
bool swap_available(void);
/* Swap out @nr anonymous pages of @memcg on @nid: add_to_swap, zram write,
 * __remove_mapping leaving shadow entries. Returns the pages freed. */
/* swap_cgroup.c: __mem_cgroup_try_charge_swap for @nr pages of @memcg
 * (their slots on this CPU's cluster), and the ctrl's set-up and teardown. */
void mem_cgroup_try_charge_swap(struct sim_task *t, struct mem_cgroup *memcg, long nr);
void swap_cgroup_swapon(struct swap_cgroup_ctrl *ctrl);
void swap_cgroup_swapoff(struct swap_cgroup_ctrl *ctrl);
long swap_writeout_folios(struct sim_task *t, struct mem_cgroup *memcg, int nid, long nr);

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmscan: memcg direct reclaim, as mm/vmscan.c does it for
 * try_to_free_mem_cgroup_pages: priorities from DEF_PRIORITY down, each
 * memcg of the target's subtree scanned lru_size >> priority pages in
 * SWAP_CLUSTER_MAX batches (file pages dropped, anonymous pages swapped
 * out), and its slab shrunk. */
#pragma once
#include "memcg.h"

struct scan_control {
	long nr_to_reclaim;
	int priority;
	long nr_scanned;
	long nr_reclaimed;
	struct mem_cgroup *target_mem_cgroup;
};

long try_to_free_mem_cgroup_pages(struct sim_task *t, struct mem_cgroup *memcg, long nr_pages);

// SPDX-License-Identifier: GPL-2.0-or-later
/* The slot allocator of Linux 6.12 for a non-rotational device with cluster
 * info (zram): mm/swap_slots.c's per-CPU cache of SWAP_SLOTS_CACHE_SIZE
 * slots (its alloc_lock a per-CPU mutex, uncontended), refilled by
 * get_swap_pages (mm/swapfile.c): swap_avail_lock for nr_swap_pages and the
 * plist requeue, then si->lock held across scan_swap_map_slots ->
 * cluster_alloc_swap, which takes the slot's cluster lock once per slot
 * (alloc_swap_scan_cluster: lock_cluster, cluster_alloc_range, unlock).
 * Each slot's swap_map byte is updated again under the cluster lock by
 * swap_duplicate (try_to_unmap_one's swap pte) and put_swap_folio
 * (__remove_mapping drops SWAP_HAS_CACHE). 6.14 keeps the slot cache and
 * get_swap_pages' swap_avail_lock section but drops si->lock around the
 * scan: cluster_alloc_swap (swap_cluster.c). */
#include "kernel.h"
#include "swap.h"

/* cluster_alloc_swap_entry (6.12): this CPU's cluster's next slot, or a new
 * cluster from the free list when it is used up. Under si->lock. */
static long cluster_alloc_swap_entry(struct sim_task *t, struct swap_device *si)
{
	int cpu = sim_task_cpu(t);
	if (si->percpu_cluster[cpu].next >= si->percpu_cluster[cpu].end) {
		long c = next_free_cluster(si);
		if (c < 0)
			return -1;
		si->percpu_cluster[cpu].next = c * SWAPFILE_CLUSTER;
		si->percpu_cluster[cpu].end = MIN((c + 1) * SWAPFILE_CLUSTER, si->nr_slots);
	}
	long slot = si->percpu_cluster[cpu].next++;
	swap_cluster_update(t, slot, "alloc_swap_scan_cluster");
	return slot;
}

struct scan_swap_map {
	struct swap_device *si;
	struct swap_slots_cache *cache;
	long goal;
};

/* Under si->lock: cluster_alloc_swap for up to @goal slots; swap_range_alloc
 * writes si->inuse_pages (the lock's line) per slot. */
static sim_time_t scan_swap_map_slots(struct sim_task *t, void *arg)
{
	struct scan_swap_map *s = arg;
	sim_time_t spent = 0;
	while (s->cache->nr < s->goal) {
		long slot = cluster_alloc_swap_entry(t, s->si);
		if (slot < 0)
			break;
		s->cache->slots[s->cache->nr++] = slot;
		spent += spin_held_access(t, &s->si->lock, s->si->lock.line, LINE_STORE,
					  "swap_range_alloc");
	}
	return spent; /* the cluster locks' time is on the task's clock already */
}

static sim_time_t avail_section(struct sim_task *t, void *arg)
{
	struct swap_device *si = arg;
	/* nr_swap_pages' read and sub; plist_requeue on swap_avail_heads */
	return spin_held_access(t, &si->avail_lock, &si->nr_swap_pages, LINE_RMW,
				"get_swap_pages") +
	       spin_held_access(t, &si->avail_lock, si->avail_lock.line, LINE_STORE,
				"plist_requeue");
}

/* refill_swap_slots_cache -> get_swap_pages(SWAP_SLOTS_CACHE_SIZE). */
static void refill_swap_slots_cache(struct sim_task *t, struct swap_device *si,
				    struct swap_slots_cache *cache)
{
	spin_lock_hold_fn(t, &si->avail_lock, avail_section, si, SIM_CAT_SYS, SPIN_PLAIN,
			  "get_swap_pages");
	struct scan_swap_map s = {si, cache,
				  MIN(SWAP_SLOTS_CACHE_SIZE, si->nr_slots - si->stat.slots_used)};
	cache->nr = cache->cur = 0;
	if (s.goal > 0 && kernel_version() >= KERNEL_6_14)
		cache->nr = cluster_alloc_swap(t, si, cache->slots, (int)s.goal);
	else if (s.goal > 0)
		spin_lock_hold_fn(t, &si->lock, scan_swap_map_slots, &s, SIM_CAT_SYS, SPIN_PLAIN,
				  "get_swap_pages");
}

long folio_alloc_swap(struct sim_task *t, struct mem_cgroup *memcg)
{
	struct swap_device *si = swap_active;
	struct swap_slots_cache *cache = &si->slots_cache[sim_task_cpu(t)];
	if (cache->cur >= cache->nr)
		refill_swap_slots_cache(t, si, cache);
	if (cache->cur >= cache->nr)
		return -1;
	long slot = cache->slots[cache->cur++];
	si->stat.slots_used++;
	mem_cgroup_try_charge_swap(t, memcg, 1);
	return slot;
}

void swap_slots_destroy(struct swap_device *si)
{
	swap_clusters_destroy(si);
	g_free(si->slots_cache);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* A freed slot's zswap_invalidate, and the frees of Linux 6.14 (read in
 * 6.14.0's mm/swapfile.c; Kairui Song's "mm, swap: rework of swap
 * allocator locks"): free_swap_and_cache_nr -> __swap_entries_free frees a
 * batch inside one cluster under that cluster's lock alone, taken once:
 * swap_is_last_map and the swap_map, then swap_entry_range_free with
 * ci->lock still held (mem_cgroup_uncharge_swap, swap_range_free: the
 * zeromap bit and zswap_invalidate per slot, now here, swap_slot_free_notify
 * per slot, clear_shadow_from_swap_cache over the batch, nr_swap_pages and
 * the atomic si->inuse_pages given back), and last free_cluster or
 * partial_free_cluster, whose move_cluster takes si->lock inside ci->lock
 * when the cluster changes lists. A single slot, or a batch crossing a
 * cluster, goes slot by slot through __swap_entry_free: the same under its
 * cluster's lock. The per-CPU slots_ret and swapcache_free_entries' si->lock
 * are gone from the free path. */
#include "cost.h"
#include "insn.h"
#include "kernel.h"
#include "swap.h"

/* zswap_invalidate: 6.12 erases under the tree's xa_lock; 6.13 and 6.14
 * return first when the tree is empty (xa_empty), as it is with zswap off. */
void zswap_invalidate(struct sim_task *t, long slot)
{
	struct swap_space *space = swap_space_of(swap_active, slot);
	if (!swap_active->zswap_invalidate_erase)
		return;
	spin_lock_hold(t, &space->zswap, insn_cost(INSN_XA_LOAD), SIM_CAT_SYS, SPIN_PLAIN,
		       "zswap_invalidate");
}

/* The swap_map bytes' update under ci->lock (swap_is_last_map and the
 * stores; the zeroing, ci->count). */
static void swap_map_update(struct sim_task *t, struct swap_cluster *ci, const char *site)
{
	sim_task_charge(t, SIM_CAT_SYS,
			insn_cost(INSN_SWAP_MAP_UPDATE) +
			    spin_held_access(t, &ci->lock, ci->lock.line, LINE_STORE, site));
}

/* swap_range_free (6.14), ci->lock held. */
static void swap_range_free(struct sim_task *t, struct swap_device *si, long first, long n)
{
	for (long s = first; s < first + n; s++) {
		sim_task_charge(t, SIM_CAT_SYS, cost(COST_LOCKED_RMW)); /* zeromap clear_bit */
		zswap_invalidate(t, s);
	}
	for (long s = first; s < first + n; s++)
		zram_slot_free_notify(t, s);
	clear_shadow_from_swap_cache(t, first, first + n - 1);
	line_atomic(t, &si->nr_swap_pages, SIM_CAT_SYS, "swap_range_free");
	line_atomic(t, &si->inuse_pages, SIM_CAT_SYS, "swap_usage_sub");
}

/* swap_entry_range_free (6.14), ci->lock held: @n slots of @memcg. */
static void swap_entry_range_free(struct sim_task *t, struct swap_device *si,
				  struct swap_cluster *ci, struct mem_cgroup *memcg, long first,
				  long n)
{
	swap_map_update(t, ci, "swap_entry_range_free");
	si->cstate[first / SWAPFILE_CLUSTER].count -= (int)n;
	mem_cgroup_uncharge_swap(t, memcg, n);
	swap_range_free(t, si, first, n);
	si->stat.slots_freed += n;
	swap_cluster_freed(t, si, first); /* free_cluster, partial_free_cluster */
}

/* __swap_entry_free (6.14): one slot under its cluster's lock. */
static void swap_entry_free(struct sim_task *t, struct swap_device *si, struct mem_cgroup *memcg,
			    long slot)
{
	struct swap_cluster *ci = swap_cluster_of(si, slot);
	struct spin_entry *e = spin_lock(t, &ci->lock, SPIN_PLAIN, "__swap_entry_free");
	swap_map_update(t, ci, "__swap_entry_free"); /* __swap_entry_free_locked */
	swap_entry_range_free(t, si, ci, memcg, slot, 1);
	spin_unlock(t, &ci->lock, e);
}

void swap_entries_free_614(struct sim_task *t, struct mem_cgroup *memcg, long first, long n)
{
	struct swap_device *si = swap_active;
	if (n == 1 || n > SWAPFILE_CLUSTER - first % SWAPFILE_CLUSTER) { /* fallback */
		for (long s = first; s < first + n; s++)
			swap_entry_free(t, si, memcg, s);
		return;
	}
	struct swap_cluster *ci = swap_cluster_of(si, first);
	struct spin_entry *e = spin_lock(t, &ci->lock, SPIN_PLAIN, "__swap_entries_free");
	swap_map_update(t, ci, "__swap_entries_free");
	swap_entry_range_free(t, si, ci, memcg, first, n);
	spin_unlock(t, &ci->lock, e);
}

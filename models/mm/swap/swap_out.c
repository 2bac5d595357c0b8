// SPDX-License-Identifier: GPL-2.0-or-later
/* shrink_folio_list's anonymous branch (mm/vmscan.c, Linux 6.12) for one 4 KiB
 * folio at a time, as the kernel runs it:
 *   add_to_swap       folio_alloc_swap (slot cache, swap charge, id record),
 *                     add_to_swap_cache (i_pages section 1)
 *   try_to_unmap      the swap pte: swap_duplicate, under the cluster lock
 *   pageout           swap_writepage: folio_free_swap's swap_swapcount
 *                     (the cluster lock), the zeromap bit cleared,
 *                     zswap_store (with zswap off, 6.12 to 6.14 still
 *                     xa_erase the slot's old entry), then zram,
 *                     synchronously
 *   __remove_mapping  i_pages section 2: the shadow; then put_swap_folio
 *                     drops SWAP_HAS_CACHE under the cluster lock.
 * The rest of the per-folio work (the rmap walks, the pte and TLB work, the
 * per-CPU statistics) is reclaim_page_ns, charged by the caller. */
#include "cost.h"
#include "insn.h"
#include "swap.h"

/* zswap_store with zswap disabled ("check_old", 6.12 to 6.14): xa_erase on
 * the address space's zswap tree, under its xa_lock, of an entry never
 * there. */
static sim_time_t zswap_erase_section(struct sim_task *t, void *arg)
{
	struct swap_space *space = arg;
	return insn_cost(INSN_XA_LOAD) +
	       spin_held_access(t, &space->zswap, space->zswap.line, LINE_LOAD, "xa_erase");
}

static void swap_writepage(struct sim_task *t, long slot)
{
	struct swap_space *space = swap_space_of(swap_active, slot);
	swap_cluster_update(t, slot, "swap_swapcount"); /* folio_free_swap: still mapped */
	/* swap_zeromap_folio_clear: clear_bit in the device's zeromap, whose
	 * line (512 slots) is the cluster's CPU's */
	sim_task_charge(t, SIM_CAT_SYS, cost(COST_LOCKED_RMW));
	spin_lock_hold_fn(t, &space->zswap, zswap_erase_section, space, SIM_CAT_SYS, SPIN_PLAIN,
			  "zswap_store");
	zram_write_page(t, slot); /* __swap_writepage -> swap_writepage_bdev_sync */
}

/* One folio: false when the device has no slot left. */
static bool swap_out_folio(struct sim_task *t, struct mem_cgroup *memcg, int nid)
{
	long slot = folio_alloc_swap(t, memcg);
	if (slot < 0)
		return false;
	add_to_swap_cache(t, slot, memcg, nid);
	swap_cluster_update(t, slot, "swap_duplicate");
	swap_writepage(t, slot);
	remove_mapping_swap(t, slot, memcg, nid);
	swap_cluster_update(t, slot, "put_swap_folio");
	swap_entries_record(memcg, slot);
	return true;
}

long swap_writeout_folios(struct sim_task *t, struct mem_cgroup *memcg, int nid, long nr)
{
	long done = 0;
	while (done < nr && swap_out_folio(t, memcg, nid))
		done++;
	return done;
}

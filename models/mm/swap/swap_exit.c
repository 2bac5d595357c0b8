// SPDX-License-Identifier: GPL-2.0-or-later
/* A process's swap entries at its exit, Linux 6.12 (kernel.version 6.12 and
 * 6.13; 6.14's frees under the cluster lock are swap_free.c's); before 6.12
 * (mm-2024-06: 6.10, 6.11) every slot takes the per-slot path below, the batch fast path not yet
 * there. 6.12: zap_pte_range batches swap ptes whose slots are consecutive (swap_pte_batch, within
 * one page table: 512 ptes) and calls free_swap_and_cache_nr (mm/swapfile.c) on each batch. A batch
 * of more than one slot that stays inside one cluster, each mapped once and out of the swap cache,
 * takes the fast path of
 * __swap_entries_free (a batch that crosses a cluster boundary falls back
 * to the per-slot path as a whole): the
 * cluster lock once for the batch, zswap_invalidate per slot (6.12: xa_erase
 * on the zswap tree; 6.13: nothing, the tree being empty), then si->lock around
 * swap_entry_range_free: the cluster lock again, mem_cgroup_uncharge_swap (the id cleared under
 * ctrl->lock, the swap counter uncharged) and swap_range_free (the zeromap bit and
 * zram_slot_free_notify per slot, clear_shadow_from_swap_cache over the
 * batch, nr_swap_pages given back). A single slot
 * goes through __swap_entry_free (the cluster lock), free_swap_slot
 * (zswap_invalidate, the per-CPU slots_ret under its free_lock) and, every
 * SWAP_SLOTS_CACHE_SIZE slots, swapcache_free_entries: si->lock across
 * them all, swap_entry_range_free for each, inside the cache's free_lock
 * (interrupts off). Before 6.12 (6.10, 6.11.11 read) the same per slot, as
 * swap_entry_free: swap_range_free has no zeromap yet (6.12's), and
 * zswap_invalidate is free_swap_slot's, outside si->lock, as here. Freed
 * slots are not handed out again (the allocator takes only fresh
 * clusters). */
#include "cost.h"
#include "kernel.h"
#include "swap.h"

#define PTRS_PER_PTE 512L

void swap_entries_record(struct mem_cgroup *memcg, long slot)
{
	struct swap_device *si = swap_active;
	GArray *runs = g_hash_table_lookup(si->entries, memcg);
	if (!runs) {
		runs = g_array_new(FALSE, FALSE, sizeof(struct swap_run));
		g_hash_table_insert(si->entries, memcg, runs);
	}
	struct swap_run *last =
	    runs->len ? &g_array_index(runs, struct swap_run, runs->len - 1) : NULL;
	if (last && last->first + last->n == slot)
		last->n++;
	else
		g_array_append_val(runs, ((struct swap_run){slot, 1}));
}

/* swap_entry_range_free with si->lock held: @n slots of @memcg from @first. */
static void swap_entry_range_free(struct sim_task *t, struct swap_device *si, struct spinlock *held,
				  struct mem_cgroup *memcg, long first, long n)
{
	swap_cluster_update(t, first, "swap_entry_range_free");
	mem_cgroup_uncharge_swap(t, memcg, n);
	/* swap_range_free: si->inuse_pages, lowest_bit in the lock's line */
	sim_task_charge(t, SIM_CAT_SYS,
			spin_held_access(t, held, held->line, LINE_STORE, "swap_range_free"));
	for (long s = first; s < first + n; s++) {
		if (kernel_version() >= KERNEL_6_12) /* zeromap clear_bit */
			sim_task_charge(t, SIM_CAT_SYS, cost(COST_LOCKED_RMW));
		zram_slot_free_notify(t, s);
	}
	clear_shadow_from_swap_cache(t, first, first + n - 1);
	line_atomic(t, &si->nr_swap_pages, SIM_CAT_SYS, "swap_range_free");
	si->stat.slots_freed += n;
}

static void swapcache_free_entries(struct sim_task *t, struct swap_device *si,
				   struct swap_slots_cache *cache)
{
	/* free_swap_slot's spin_lock_irq(&cache->free_lock) is held */
	struct spin_entry *e = spin_lock(t, &si->lock, SPIN_IRQ, "swapcache_free_entries");
	for (int i = 0; i < cache->n_ret; i++)
		swap_entry_range_free(t, si, &si->lock, cache->ret_memcg[i], cache->ret[i], 1);
	spin_unlock(t, &si->lock, e);
	cache->n_ret = 0;
}

/* free_swap_slot: into this CPU's slots_ret (its free_lock, irqs off). */
static void free_swap_slot(struct sim_task *t, struct mem_cgroup *memcg, long slot)
{
	struct swap_device *si = swap_active;
	struct swap_slots_cache *cache = &si->slots_cache[sim_task_cpu(t)];
	zswap_invalidate(t, slot);
	sim_task_charge(t, SIM_CAT_SYS, cost(COST_LOCKED_RMW) + cost(COST_IRQ_SAVE_RESTORE));
	if (cache->n_ret >= SWAP_SLOTS_CACHE_SIZE)
		swapcache_free_entries(t, si, cache);
	cache->ret_memcg[cache->n_ret] = memcg;
	cache->ret[cache->n_ret++] = slot;
}

static void free_swap_and_cache_nr(struct sim_task *t, struct mem_cgroup *memcg, long first, long n)
{
	struct swap_device *si = swap_active;
	if (kernel_version() >= KERNEL_6_14) {
		swap_entries_free_614(t, memcg, first, n); /* swap_free.c */
		return;
	}
	if (n == 1 || n > SWAPFILE_CLUSTER - first % SWAPFILE_CLUSTER ||
	    kernel_version() < KERNEL_6_12) {
		for (long s = first; s < first + n; s++) { /* __swap_entry_free */
			swap_cluster_update(t, s, "__swap_entry_free");
			free_swap_slot(t, memcg, s);
		}
		return;
	}
	swap_cluster_update(t, first, "__swap_entries_free");
	for (long s = first; s < first + n; s++)
		zswap_invalidate(t, s);
	struct spin_entry *e = spin_lock(t, &si->lock, SPIN_PLAIN, "__swap_entries_free");
	swap_entry_range_free(t, si, &si->lock, memcg, first, n);
	spin_unlock(t, &si->lock, e);
}

/* One of @procs processes' share of @memcg's runs, the first 1/@procs of
 * its slots (all of them for the last), taken off its table before any is
 * freed: a neighbour swapping out or exiting meanwhile sees only the rest. */
static GArray *swap_entries_take(struct swap_device *si, struct mem_cgroup *memcg, int procs)
{
	GArray *runs = g_hash_table_lookup(si->entries, memcg);
	if (!runs)
		return NULL;
	long total = 0;
	for (guint i = 0; i < runs->len; i++)
		total += g_array_index(runs, struct swap_run, i).n;
	long share = mem_cgroup_exit_share(total, procs);
	if (share >= total) {
		g_hash_table_steal(si->entries, memcg);
		return runs;
	}
	GArray *mine = g_array_new(FALSE, FALSE, sizeof(struct swap_run));
	guint i = 0;
	for (; share > 0; i++) {
		struct swap_run *r = &g_array_index(runs, struct swap_run, i);
		long n = MIN(r->n, share);
		g_array_append_val(mine, ((struct swap_run){r->first, n}));
		share -= n;
		if (n < r->n) { /* the run is split: its tail stays */
			r->first += n;
			r->n -= n;
			break;
		}
	}
	g_array_remove_range(runs, 0, i);
	return mine;
}

/* zap_pte_range over the task's swap ptes, in the order they were swapped
 * out (its virtual addresses, since memhog writes them in order). The model
 * keeps swapped pages by cgroup, not by process: of @procs processes of
 * @memcg alive, the exiting one owns the first 1/@procs of its entries
 * (all of them when it is the last). */
void swap_exit_entries(struct sim_task *t, struct mem_cgroup *memcg, int procs)
{
	struct swap_device *si = swap_active;
	if (!si)
		return;
	GArray *runs = swap_entries_take(si, memcg, procs);
	if (!runs)
		return;
	long pte = 0; /* the entry's place in its page table */
	sim_time_t start = sim_task_clock(t);
	for (guint i = 0; i < runs->len; i++) {
		struct swap_run r = g_array_index(runs, struct swap_run, i);
		while (r.n > 0) {
			long n = MIN(r.n, PTRS_PER_PTE - pte % PTRS_PER_PTE);
			free_swap_and_cache_nr(t, memcg, r.first, n);
			r.first += n;
			r.n -= n;
			pte += n;
		}
	}
	g_array_free(runs, TRUE);
	long ns = (long)sim_to_ns(sim_task_clock(t) - start);
	si->stat.exit_ns += ns;
	si->stat.exit_max_ns = MAX(si->stat.exit_max_ns, ns);
}

static void runs_free(gpointer p)
{
	g_array_free(p, TRUE);
}

void swap_entries_init(struct swap_device *si)
{
	si->entries = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, runs_free);
}

void swap_entries_destroy(struct swap_device *si)
{
	g_hash_table_destroy(si->entries);
}

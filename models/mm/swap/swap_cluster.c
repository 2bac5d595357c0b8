// SPDX-License-Identifier: GPL-2.0-or-later
/* The swap device's clusters (mm/swapfile.c): a slot's cluster and its lock
 * (ci->lock, lockdep "&cluster_info[i].lock" from 6.12's setup_clusters),
 * the free cluster list's order, and Linux 6.14's allocator after Kairui
 * Song's "mm, swap: rework of swap allocator locks" (read in 6.14.0's
 * mm/swapfile.c). There get_swap_pages runs scan_swap_map_slots ->
 * cluster_alloc_swap without si->lock; each slot is cluster_alloc_swap_entry:
 * the per-CPU cluster's local_lock (preempt_disable without PREEMPT_RT, not
 * modelled), the CPU's next slot under its cluster's lock (lock_cluster), or
 * a new cluster from isolate_lock_cluster (si->lock around taking the free
 * list's head, whose ci->lock it trylocks and returns held); under ci->lock
 * alloc_swap_scan_cluster's cluster_alloc_range (swap_map, the atomic
 * si->inuse_pages: swap_usage_add) and relocate_cluster, whose move_cluster
 * takes si->lock, nested in ci->lock, to put the cluster on frag_clusters
 * after its first slot and on full_clusters after its last. si->lock is
 * then 3 acquisitions per cluster of SWAPFILE_CLUSTER slots, ci->lock one per
 * slot. The neighbours' list_heads that list_add_tail and list_move_tail
 * write are not modelled; the list heads are one line. */
#include "cost.h"
#include "insn.h"
#include "swap.h"

struct swap_cluster *swap_cluster_of(struct swap_device *si, long slot)
{
	long c = slot / SWAPFILE_CLUSTER;
	if (!si->clusters[c]) {
		struct swap_cluster *ci = g_new0(struct swap_cluster, 1);
		spin_lock_init(&ci->lock, si->cluster_class);
		spin_lock_set_local(&ci->lock); /* the cluster is a CPU's (percpu_cluster) */
		si->clusters[c] = ci;
	}
	return si->clusters[c];
}

/* SWAP_CLUSTER_COLS (6.12 mm/swapfile.c): the clusters of an address space. */
#define SWAP_CLUSTER_COLS (SWAP_ADDRESS_SPACE_PAGES / SWAPFILE_CLUSTER)

/* The head of si->free_clusters, taken off (under si->lock): in device
 * order (sequential), or in the order 6.12's (and 6.14's) setup_clusters
 * lists them (interleave): column by column, the j-th cluster of every
 * address space, then the (j+1)-th, so that consecutive takes, by whichever
 * CPU, fall in different address spaces. -1: none left. */
long next_free_cluster(struct swap_device *si)
{
	long rows = (si->nr_clusters + SWAP_CLUSTER_COLS - 1) / SWAP_CLUSTER_COLS;
	long positions = si->interleave ? rows * SWAP_CLUSTER_COLS : si->nr_clusters;
	while (si->next_cluster < positions) { /* a ragged last space skips its missing columns */
		long k = si->next_cluster++;
		long idx = si->interleave ? (k % rows) * SWAP_CLUSTER_COLS + k / rows : k;
		if (idx < si->nr_clusters)
			return idx;
	}
	return -1;
}

/* Under ci->lock: the slot's swap_map byte and the cluster's count. */
static sim_time_t cluster_section(struct sim_task *t, void *arg)
{
	struct swap_cluster *ci = arg;
	return insn_cost(INSN_SWAP_MAP_UPDATE) +
	       spin_held_access(t, &ci->lock, ci->lock.line, LINE_STORE, "swap_map");
}

void swap_cluster_update(struct sim_task *t, long slot, const char *site)
{
	struct swap_cluster *ci = swap_cluster_of(swap_active, slot);
	spin_lock_hold_fn(t, &ci->lock, cluster_section, ci, SIM_CAT_SYS, SPIN_PLAIN, site);
}

/* Under si->lock: list_add_tail or list_move_tail on a list's head. */
static sim_time_t lists_section(struct sim_task *t, void *arg)
{
	struct swap_device *si = arg;
	return spin_held_access(t, &si->lock, &si->lists, LINE_STORE, "cluster list");
}

/* move_cluster (6.14), ci->lock held: si->lock around the list move;
 * frag_cluster_nr counts the frag list's clusters (an atomic). */
static void move_cluster(struct sim_task *t, struct swap_device *si, struct swap_cluster_state *ci,
			 int flags)
{
	spin_lock_hold_fn(t, &si->lock, lists_section, si, SIM_CAT_SYS, SPIN_PLAIN, "move_cluster");
	if (ci->flags == CLUSTER_FLAG_FRAG || flags == CLUSTER_FLAG_FRAG)
		line_atomic(t, &si->inuse_pages, SIM_CAT_SYS, "move_cluster");
	ci->flags = flags;
}

/* A cluster's usable slots: SWAPFILE_CLUSTER, fewer at a ragged end. */
static int cluster_size(struct swap_device *si, long slot)
{
	long start = slot - slot % SWAPFILE_CLUSTER;
	return (int)MIN(SWAPFILE_CLUSTER, si->nr_slots - start);
}

/* relocate_cluster after an allocation, ci->lock held: onto frag_clusters
 * while partly used, full_clusters once full. */
static void relocate_cluster(struct sim_task *t, struct swap_device *si, long slot)
{
	struct swap_cluster_state *ci = &si->cstate[slot / SWAPFILE_CLUSTER];
	if (ci->count != cluster_size(si, slot)) {
		if (ci->flags != CLUSTER_FLAG_FRAG)
			move_cluster(t, si, ci, CLUSTER_FLAG_FRAG);
	} else if (ci->flags != CLUSTER_FLAG_FULL)
		move_cluster(t, si, ci, CLUSTER_FLAG_FULL);
}

/* After a free, ci->lock held: free_cluster (its last slot freed: onto
 * free_clusters, no discard without swapon --discard) or
 * partial_free_cluster (onto nonfull_clusters, once). */
void swap_cluster_freed(struct sim_task *t, struct swap_device *si, long slot)
{
	struct swap_cluster_state *ci = &si->cstate[slot / SWAPFILE_CLUSTER];
	if (!ci->count)
		move_cluster(t, si, ci, CLUSTER_FLAG_FREE);
	else if (ci->flags != CLUSTER_FLAG_NONFULL)
		move_cluster(t, si, ci, CLUSTER_FLAG_NONFULL);
}

/* isolate_lock_cluster(si, &si->free_clusters): the list's first cluster
 * whose lock it can trylock, off the list, flags cleared, returned with
 * ci->lock held (*held); NULL when the list is empty. */
static struct swap_cluster *isolate_lock_cluster(struct sim_task *t, struct swap_device *si,
						 struct spin_entry **held, long *first)
{
	struct spin_entry *e = spin_lock(t, &si->lock, SPIN_PLAIN, "isolate_lock_cluster");
	struct swap_cluster *ci = NULL;
	long c = next_free_cluster(si);
	if (c >= 0) {
		*first = c * SWAPFILE_CLUSTER;
		ci = swap_cluster_of(si, *first);
		*held = spin_trylock(t, &ci->lock, SPIN_PLAIN, "isolate_lock_cluster");
		g_assert(*held); /* a free cluster's lock is nobody's */
		sim_task_charge(t, SIM_CAT_SYS, lists_section(t, si)); /* list_del */
		si->cstate[c].flags = CLUSTER_FLAG_NONE;
	}
	spin_unlock(t, &si->lock, e);
	return ci;
}

/* cluster_alloc_swap_entry (6.14) for one slot, order 0: -1 when no free
 * cluster is left. */
static long cluster_alloc_swap_entry(struct sim_task *t, struct swap_device *si)
{
	int cpu = sim_task_cpu(t);
	struct spin_entry *e = NULL;
	struct swap_cluster *ci;
	if (si->percpu_cluster[cpu].next < si->percpu_cluster[cpu].end) {
		ci = swap_cluster_of(si, si->percpu_cluster[cpu].next);
		e = spin_lock(t, &ci->lock, SPIN_PLAIN,
			      "cluster_alloc_swap_entry"); /* lock_cluster */
	} else {
		long first;
		ci = isolate_lock_cluster(t, si, &e, &first);
		if (!ci)
			return -1;
		si->percpu_cluster[cpu].next = first;
		si->percpu_cluster[cpu].end = MIN(first + SWAPFILE_CLUSTER, si->nr_slots);
	}
	long slot = si->percpu_cluster[cpu].next++;
	/* alloc_swap_scan_cluster -> cluster_alloc_range: swap_map, ci->count,
	 * swap_range_alloc -> swap_usage_add's atomic_long_add_return */
	sim_task_charge(t, SIM_CAT_SYS, cluster_section(t, ci));
	line_atomic(t, &si->inuse_pages, SIM_CAT_SYS, "swap_usage_add");
	si->cstate[slot / SWAPFILE_CLUSTER].count++;
	relocate_cluster(t, si, slot);
	spin_unlock(t, &ci->lock, e);
	return slot;
}

int cluster_alloc_swap(struct sim_task *t, struct swap_device *si, long *slots, int goal)
{
	int n = 0;
	while (n < goal) {
		long slot = cluster_alloc_swap_entry(t, si);
		if (slot < 0)
			break;
		slots[n++] = slot;
	}
	return n;
}

void swap_clusters_destroy(struct swap_device *si)
{
	for (long c = 0; c < si->nr_clusters; c++)
		if (si->clusters[c]) {
			spin_lock_destroy(&si->clusters[c]->lock);
			g_free(si->clusters[c]);
		}
	g_free(si->clusters);
	g_free(si->cstate);
}

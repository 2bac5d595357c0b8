// SPDX-License-Identifier: GPL-2.0-or-later
/* Swap accounting at swap-out, Linux 6.12 (cgroup v2): folio_alloc_swap
 * (mm/swap_slots.c) calls mem_cgroup_try_charge_swap for each folio it
 * gives a slot to. __mem_cgroup_try_charge_swap (mm/memcontrol.c) charges
 * the memcg's swap page_counter, which walks to the root's (one counter all
 * CPUs charge, its usage and watermark lines written by every swap-out), and
 * records the memcg's id for the entry with swap_cgroup_record
 * (mm/swap_cgroup.c): under the swap device's one ctrl->lock
 * (spin_lock_irqsave: every CPU, every folio, until 6.14 packed the ids
 * into atomics and dropped the lock: kernel.version 6.14), a 2-byte store into the device's id
 * map. The root's own pages
 * charge no counter. With memory+swap accounting (cgroup v1's memsw) the
 * swap counter is not used: the page's memsw charge carries over. */
#include "charge.h"
#include "insn.h"
#include "kernel.h"
#include "swap.h"

/* Under ctrl->lock: the id stored for the entry. The map's lines for a CPU's
 * slots are that CPU's (it owns the cluster): a per-CPU line stands for
 * them (the first store into each of a cluster's 16 map lines, a miss in
 * the kernel, is not charged). */
struct swap_cgroup_record {
	struct swap_cgroup_ctrl *ctrl;
	long nr_ents;
};

static sim_time_t swap_cgroup_record_section(struct sim_task *t, void *arg)
{
	struct swap_cgroup_record *r = arg;
	sim_time_t spent = 0;
	for (long i = 0; i < r->nr_ents; i++)
		spent += insn_cost(INSN_SWAP_CGROUP_RECORD) +
			 spin_held_access(t, &r->ctrl->lock, &r->ctrl->map[sim_task_cpu(t)],
					  LINE_STORE, "swap_cgroup_record");
	return spent;
}

/* swap_cgroup_record(ent, id, nr_ents) for @nr_ents consecutive entries;
 * 6.14 (swap_cgroup_record, swap_cgroup_clear): no ctrl->lock, each id an
 * atomic_try_cmpxchg on the word packing it (__swap_cgroup_id_xchg). */
static void swap_cgroup_record(struct sim_task *t, struct swap_cgroup_ctrl *ctrl, long nr_ents)
{
	if (kernel_version() >= KERNEL_6_14) {
		for (long i = 0; i < nr_ents; i++) {
			sim_task_charge(t, SIM_CAT_SYS, insn_cost(INSN_SWAP_CGROUP_RECORD));
			line_touch(t, &ctrl->map[sim_task_cpu(t)], LINE_RMW,
				   "__swap_cgroup_id_xchg");
		}
		return;
	}
	struct swap_cgroup_record r = {ctrl, nr_ents};
	spin_lock_hold_fn(t, &ctrl->lock, swap_cgroup_record_section, &r, SIM_CAT_SYS, SPIN_IRQSAVE,
			  "swap_cgroup_record");
}

void mem_cgroup_try_charge_swap(struct sim_task *t, struct mem_cgroup *memcg, long nr)
{
	struct swap_device *si = swap_active;
	if (!charge->memsw && memcg != memcg_tree->root) {
		struct page_counter *fail = NULL;
		/* memory.swap.max is not modelled: the charge cannot fail */
		charge->counter->try_charge(t, &memcg->swap, nr, &fail);
	}
	swap_cgroup_record(t, &si->swap_cgroup, nr);
}

/* __mem_cgroup_uncharge_swap: the ids cleared (swap_cgroup_record with id
 * 0, under ctrl->lock), the memcg's swap counter uncharged up to the root. */
void mem_cgroup_uncharge_swap(struct sim_task *t, struct mem_cgroup *memcg, long nr)
{
	swap_cgroup_record(t, &swap_active->swap_cgroup, nr);
	if (!charge->memsw && memcg != memcg_tree->root)
		charge->counter->uncharge(t, &memcg->swap, nr);
}

void swap_cgroup_swapon(struct swap_cgroup_ctrl *ctrl)
{
	int ncpus = sim_ncpus();
	struct lock_class *lock_cls = lock_class_get("&ctrl->lock");
	/* swap_cgroup_swapon (mm/swap_cgroup.c, 5.11 .. 6.13): spin_lock_init(
	 * &ctrl->lock); 2.6.32's swap_cgroup_record took no spinlock, nor does
	 * 6.14's */
	if (kernel_version() == KERNEL_2_6_32 || kernel_version() >= KERNEL_6_14)
		lock_class_lockdep_name(lock_cls, "");
	spin_lock_init(&ctrl->lock, lock_cls);
	ctrl->map = g_new0(struct cacheline, ncpus);
	struct line_class *cls = line_class_get("swap_cgroup map");
	for (int cpu = 0; cpu < ncpus; cpu++)
		line_init(&ctrl->map[cpu], cls, sim_cpu_node(cpu));
}

void swap_cgroup_swapoff(struct swap_cgroup_ctrl *ctrl)
{
	spin_lock_destroy(&ctrl->lock);
	g_free(ctrl->map);
}

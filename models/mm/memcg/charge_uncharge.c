// SPDX-License-Identifier: GPL-2.0-or-later
/* The uncharge paths (mm/memcontrol.c of each era): direct, or gathered per
 * task during an unmap (2.6.33's mem_cgroup_uncharge_start/end); 2.6.32's
 * css references and soft-limit events, which the charge path takes too. */
#include "charge_parts.h"
#include "kernel.h"

#define SOFTLIMIT_EVENTS_THRESH 1000 /* 2.6.32's mm/memcontrol.c */

/* Linux 2.6.32 (kernel.version): a charge takes a reference on the memcg's
 * css (css_tryget: a locked cmpxchg on css.refcnt, in the line that starts
 * struct mem_cgroup with the memory counter's fields), an uncharge drops
 * one a page (css_put), batched or not; later kernels' references are
 * per-CPU (percpu_ref) or not taken per page. */
void css_ref(struct sim_task *t, struct mem_cgroup *memcg, long nr, const char *site)
{
	if (kernel_version() == KERNEL_2_6_32 && nr > 0)
		line_atomic_n(t, memcg->memory.fields, nr, SIM_CAT_SPIN, site);
}

/* Linux 2.6.32's soft-limit event check, @nr pages' events on this CPU
 * (mem_cgroup_charge_statistics counts each page down from
 * SOFTLIMIT_EVENTS_THRESH; mem_cgroup_soft_limit_check resets it once below
 * 0, and mem_cgroup_update_tree then reads each level's soft-limit excess
 * under res's lock). Other eras' event checks take no shared lock. */
void memcg_check_events(struct sim_task *t, struct mem_cgroup *memcg, long nr)
{
	if (kernel_version() != KERNEL_2_6_32 || charge->counter != &charge_res_counter)
		return;
	int *events = &memcg->softlimit_events[sim_task_cpu(t)];
	for (long i = 0; i < nr; i++) {
		if (--*events >= 0)
			continue;
		*events = SOFTLIMIT_EVENTS_THRESH;
		for (struct page_counter *c = &memcg->memory; c; c = c->parent)
			res_counter_soft_limit_excess(t, c);
	}
}

void mem_cgroup_uncharge(struct sim_task *t, struct mem_cgroup *memcg, long nr)
{
	if (mem_cgroup_disabled() || !memcg->parent)
		return;
	memcg->stat.uncharged += nr;
	counters_uncharge(t, memcg, nr);
	memcg_check_events(t, memcg, nr);
	css_ref(t, memcg, nr, "css_put");
}

void mem_cgroup_uncharge_start(struct memcg_batch_info *b)
{
	if (!charge->uncharge_batch)
		return;
	if (b->do_batch++ == 0) {
		b->memcg = NULL;
		b->nr_pages = 0;
	}
}

void mem_cgroup_uncharge_end(struct sim_task *t, struct memcg_batch_info *b)
{
	if (!b->do_batch || --b->do_batch)
		return;
	if (b->memcg && b->nr_pages)
		counters_uncharge(t, b->memcg, b->nr_pages);
	b->memcg = NULL;
	b->nr_pages = 0;
}

void mem_cgroup_uncharge_page(struct sim_task *t, struct memcg_batch_info *b,
			      struct mem_cgroup *memcg)
{
	if (mem_cgroup_disabled() || !memcg->parent)
		return;
	if (b && b->do_batch && (!b->memcg || b->memcg == memcg)) {
		memcg->stat.uncharged++;
		b->memcg = memcg;
		b->nr_pages++;
		memcg_check_events(t, memcg, 1); /* __mem_cgroup_uncharge_common */
		css_ref(t, memcg, 1, "css_put"); /* not batched */
		return;
	}
	mem_cgroup_uncharge(t, memcg, 1);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* charge: try_charge_memcg over the run's counter design (mm/memcontrol.c
 * of each era): the stock, the counters with a batch, reclaim; socket
 * memory's charge. */
#include "charge_parts.h"
#include "cost.h"
#include "insn.h"
#include "vmscan.h"
#include <stdlib.h>

static bool counters_try_charge(struct sim_task *t, struct mem_cgroup *memcg, long nr,
				struct page_counter **fail)
{
	const struct charge_counter_ops *ops = charge->counter;
	if (!ops->try_charge(t, &memcg->memory, nr, fail))
		return false;
	if (charge->memsw && !ops->try_charge(t, &memcg->memsw, nr, fail)) {
		ops->uncharge(t, &memcg->memory, nr);
		*fail = &memcg->memory; /* reclaim the memcg itself */
		return false;
	}
	return true;
}

/* Over the limit: reclaim from the memcg over it, retry; OOM in the end
 * (counted; the OOM killer is not modelled, the charge is forced). */
static bool charge_reclaim(struct sim_task *t, struct mem_cgroup *memcg, long nr,
			   struct page_counter *fail, int *retries)
{
	struct mem_cgroup *over = mem_cgroup_of_counter(fail);
	long reclaimed = try_to_free_mem_cgroup_pages(t, over, nr);
	if (mem_cgroup_margin(over) >= nr)
		return true;
	if (reclaimed && (*retries)-- > 0)
		return true;
	if ((*retries)-- > 0)
		return true;
	over->stat.oom++;
	for (struct page_counter *c = &memcg->memory; c; c = c->parent)
		c->usage += nr;
	return false;
}

/* try_charge_memcg: the stock, then the counters with a batch, then reclaim. */
static bool try_charge_memcg(struct sim_task *t, struct mem_cgroup *memcg, long nr)
{
	long batch = MAX(charge->stock_batch, nr);
	int retries = MAX_RECLAIM_RETRIES;
	if (consume_stock(t, memcg, nr))
		return true;
	for (;;) {
		struct page_counter *fail = NULL;
		if (counters_try_charge(t, memcg, batch, &fail)) {
			if (batch > nr)
				refill_stock(t, memcg, batch - nr);
			if (charge->counter->check_high)
				charge->counter->check_high(t, memcg);
			return true;
		}
		if (batch > nr) {
			batch = nr;
			continue;
		}
		if (!charge_reclaim(t, memcg, nr, fail, &retries))
			return false;
	}
}

bool mem_cgroup_charge(struct sim_task *t, struct mem_cgroup *memcg, long nr)
{
	if (mem_cgroup_disabled() || !memcg->parent) /* the root is not charged */
		return true;
	memcg->stat.charged += nr;
	css_ref(t, memcg, 1, "css_tryget"); /* __mem_cgroup_try_charge */
	bool ok = try_charge_memcg(t, memcg, nr);
	memcg_check_events(t, memcg, nr);
	return ok;
}

/* memcg_rstat_updated (mm/memcontrol.c, Linux 6.0), after __mod_memcg_state
 * added @val to its per-CPU counter: the per-CPU stats_updates gathers
 * abs(val) (and cgroup_rstat_updated, per-CPU, returns at once once the
 * cgroup is on the CPU's updated list); past MEMCG_CHARGE_BATCH (the
 * stock's batch: 32 in 6.0, 64 from 6.1's "memcg: increase
 * MEMCG_CHARGE_BATCH to 64"; 32 without a stock) it is folded into the
 * global stats_flush_threshold, with an atomic_add only while that is at
 * most num_online_cpus (the flusher resets it, every 2 s or when a reader
 * finds it high; no flush is modelled). */
#define MEMCG_CHARGE_BATCH_6_0 32
static void memcg_rstat_updated(struct sim_task *t, long val)
{
	struct memcg_tree *T = memcg_tree;
	long *x = &T->stats_updates[sim_task_cpu(t)];
	const long batch = charge->stock_batch ? charge->stock_batch : MEMCG_CHARGE_BATCH_6_0;
	*x += labs(val);
	if (*x <= batch)
		return;
	const char *site = "memcg_rstat_updated";
	line_touch(t, &T->stats_flush_threshold_line, LINE_LOAD, site); /* atomic_read */
	if (T->stats_flush_threshold <= sim_ncpus()) {
		/* added at the read: the kernel's race (another CPU's add
		 * between this read and add) is not modelled */
		T->stats_flush_threshold += *x / batch;
		line_atomic(t, &T->stats_flush_threshold_line, SIM_CAT_SPIN, site);
	}
	*x = 0;
}

/* mod_memcg_state(memcg, MEMCG_SOCK, @val): what is private (irqs off, the
 * per-CPU add) is the fitted memcg_skmem_ns. */
static void mod_memcg_state_sock(struct sim_task *t, long val)
{
	cost_charge_flat(t, SIM_CAT_SYS, COST_MEMCG_SKMEM, 1);
	memcg_rstat_updated(t, val);
}

bool mem_cgroup_charge_skmem(struct sim_task *t, struct mem_cgroup *memcg, long nr)
{
	if (mem_cgroup_disabled() || !memcg->parent) /* the root's sockets have no sk_memcg */
		return true;
	if (!mem_cgroup_charge(t, memcg, nr)) /* try_charge */
		return false;
	mod_memcg_state_sock(t, nr);
	return true;
}

/* include/linux/memcontrol.h (6.0, 6.1): is @memcg or an ancestor under
 * vmpressure's socket pressure? Each level reads its socket_pressure (no
 * writer without reclaim) and css.parent, on the usage line when the layout
 * puts it there. jiffies, read too, changes every tick: a hit. */
bool mem_cgroup_under_socket_pressure(struct sim_task *t, struct mem_cgroup *memcg)
{
	for (struct mem_cgroup *m = memcg; m; m = m->parent) { /* parent_mem_cgroup */
		sim_task_charge(t, SIM_CAT_SYS, insn_cost(INSN_SOCKET_PRESSURE_LEVEL));
		line_touch(t, &m->socket_pressure_line, LINE_LOAD, __func__);
		line_touch(t, m->css_parent, LINE_LOAD, __func__);
	}
	return false;
}

void mem_cgroup_uncharge_skmem(struct sim_task *t, struct mem_cgroup *memcg, long nr)
{
	if (mem_cgroup_disabled() || !memcg->parent)
		return;
	mod_memcg_state_sock(t, -nr);
	memcg->stat.uncharged += nr;
	refill_stock(t, memcg, nr);
}

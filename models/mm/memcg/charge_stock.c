// SPDX-License-Identifier: GPL-2.0-or-later
/* The per-CPU charge stock (struct memcg_stock_pcp, mm/memcontrol.c):
 * consume_stock takes pages a CPU charged ahead, refill_stock gives pages
 * back into it, drain_stock returns them to the counters. */
#include "charge_parts.h"
#include "cost.h"

/* The stock's lock: interrupts off (4.x+) or preemption only (2009). */
static void stock_lock_cost(struct sim_task *t)
{
	sim_task_charge(
	    t, SIM_CAT_SYS,
	    cost(charge->counter->stock_irqsave ? COST_IRQ_SAVE_RESTORE : COST_PREEMPT));
}

static struct memcg_stock_pcp *this_cpu_stock(struct sim_task *t, const char *site)
{
	struct memcg_stock_pcp *stock = &memcg_tree->stock[sim_task_cpu(t)];
	stock_lock_cost(t);
	line_touch(t, &stock->line, LINE_STORE, site);
	return stock;
}

void counters_uncharge(struct sim_task *t, struct mem_cgroup *memcg, long nr)
{
	charge->counter->uncharge(t, &memcg->memory, nr);
	if (charge->memsw)
		charge->counter->uncharge(t, &memcg->memsw, nr);
}

bool consume_stock(struct sim_task *t, struct mem_cgroup *memcg, long nr)
{
	if (!charge->stock_batch || nr > charge->stock_batch)
		return false;
	struct memcg_stock_pcp *stock = this_cpu_stock(t, __func__);
	if (stock->cached != memcg || stock->nr_pages < nr)
		return false;
	stock->nr_pages -= nr;
	return true;
}

static void drain_stock(struct sim_task *t, struct memcg_stock_pcp *stock)
{
	struct mem_cgroup *old = stock->cached;
	if (old && stock->nr_pages)
		counters_uncharge(t, old, stock->nr_pages);
	stock->cached = NULL;
	stock->nr_pages = 0;
}

void refill_stock(struct sim_task *t, struct mem_cgroup *memcg, long nr)
{
	if (!charge->stock_batch) {
		counters_uncharge(t, memcg, nr);
		return;
	}
	struct memcg_stock_pcp *stock = this_cpu_stock(t, __func__);
	if (stock->cached != memcg) {
		drain_stock(t, stock);
		stock->cached = memcg;
	}
	stock->nr_pages += nr;
	if (stock->nr_pages > charge->stock_batch)
		drain_stock(t, stock);
}

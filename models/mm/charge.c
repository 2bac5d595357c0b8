// SPDX-License-Identifier: GPL-2.0-or-later
/* charge: try_charge_memcg and the uncharge paths over the run's counter
 * design (mm/memcontrol.c of each era). */
#include "charge.h"
#include "cost.h"
#include "insn.h"
#include "kernel.h"
#include "vmscan.h"
#include <stdlib.h>

#define SOFTLIMIT_EVENTS_THRESH 1000 /* 2.6.32's mm/memcontrol.c */

#define CHARGE_COUNTERS(X) X(page_counter) X(res_counter)
#define ENTRY(name) &charge_##name.named,
static const struct mcs_named *const charge_counters[] = {CHARGE_COUNTERS(ENTRY) NULL};
#undef ENTRY

/* struct page_counter's fields by line: before Linux 6.1 (the layout of
 * 5.13 .. 6.0, not aligned: the memory counter starts 208 bytes into struct
 * mem_cgroup, after css and id, so usage, the limits and emin share a line
 * with css.parent and the memcg's id; min_usage, low_usage, the watermark
 * and parent fill the next), and after "mm: page_counter: rearrange struct
 * page_counter fields" (6.1, ____cacheline_internodealigned_in_smp): usage
 * alone, the protection and watermark, the read-mostly limits. */
const struct page_counter_layout page_counter_layouts[] = {
    {{{"shared", "usage shares its line with min, low, high, max and, in struct mem_cgroup, "
		 "css.parent (Linux <= 6.0)"}},
     {[PC_USAGE] = 0,
      [PC_LIMITS] = 0,
      [PC_MIN_USAGE] = 1,
      [PC_LOW_USAGE] = 1,
      [PC_WATERMARK] = 1,
      [PC_PARENT] = 1},
     {"struct page_counter: usage, min, low, high, max, emin",
      "struct page_counter: min_usage, low_usage, watermark, parent", NULL},
     true},
    {{{"split",
       "usage alone in its line; protection and watermark; the read-mostly limits (6.1+)"}},
     {[PC_USAGE] = 0,
      [PC_MIN_USAGE] = 1,
      [PC_LOW_USAGE] = 1,
      [PC_WATERMARK] = 1,
      [PC_LIMITS] = 2,
      [PC_PARENT] = 2},
     {"struct page_counter: usage", "struct page_counter: min_usage, low_usage, watermark",
      "struct page_counter: min, low, high, max, parent"},
     false},
    {.named = {NULL, NULL}},
};
static const struct mcs_named *const layout_choices[] = {&page_counter_layouts[0].named,
							 &page_counter_layouts[1].named, NULL};

#define AT(member) SPEC_AT(struct charge_params, member)
static const struct spec_field charge_fields[] = {
    {"counter",
     &(const struct spec){.kind = SPEC_ENUM,
			  .doc = "the counter design: page_counter (lockless atomics, Linux "
				 "3.19+) or res_counter (a spinlock per counter, 2.6.25 .. 3.18)",
			  .choices = charge_counters},
     false, "\"page_counter\"", AT(counter)},
    {"stock_batch",
     &(const struct spec){.kind = SPEC_INTEGER,
			  .doc = "pages a CPU charges at once into its per-CPU stock "
				 "(MEMCG_CHARGE_BATCH: 32 before Linux 6.1, 64 from 6.1; 0: no "
				 "stock, as before 2.6.33)",
			  .min = 0,
			  .max = 4096},
     false, "64", AT(stock_batch)},
    {"uncharge_batch",
     &(const struct spec){.kind = SPEC_BOOLEAN,
			  .doc = "gather an unmap's uncharges per task and apply them once "
				 "(mem_cgroup_uncharge_start/end, 2.6.33)"},
     false, "false", AT(uncharge_batch)},
    {"memsw",
     &(const struct spec){.kind = SPEC_BOOLEAN,
			  .doc = "charge the memory+swap counter as well (cgroup v1 with swap "
				 "accounting)"},
     false, "false", AT(memsw)},
    {"use_hierarchy",
     &(const struct spec){.kind = SPEC_BOOLEAN,
			  .doc = "a charge walks the ancestors' counters up to the root's "
				 "(cgroup v2; cgroup v1's memory.use_hierarchy, 0 by default "
				 "before 3.x)"},
     false, "true", AT(use_hierarchy)},
    {"protection",
     &(const struct spec){.kind = SPEC_ENUM,
			  .doc = "propagate_protected_usage with memory.min/low set: xchg (an "
				 "atomic_long_xchg per charge, Linux <= 6.0) or on_change (a read, "
				 "the xchg only when the protected usage changed, 6.1+)",
			  .values = (const char *const[]){"xchg", "on_change", NULL}},
     false, "\"on_change\"", AT(protection)},
    {"layout",
     &(const struct spec){.kind = SPEC_ENUM,
			  .doc = "struct page_counter's layout: shared (<= 6.0) or split (6.1+)",
			  .choices = layout_choices},
     false, "\"split\"", AT(layout)},
    {NULL},
};
#undef AT

const struct spec charge_params_spec = {
    .kind = SPEC_OBJECT,
    .doc = "the charge path's design (docs/scenario.md, \"Charging designs\")",
    .fields = charge_fields,
    .size = sizeof(struct charge_params)};

const struct charge_params charge_defaults = {
    .counter = &charge_page_counter,
    .stock_batch = 64,
    .use_hierarchy = true,
    .protection = CHARGE_PROTECTION_ON_CHANGE,
    .layout = &page_counter_layouts[1],
};
const struct charge_params *charge = &charge_defaults;

void charge_use(const struct charge_params *p)
{
	charge = p ? p : &charge_defaults;
}

struct cacheline *page_counter_line(struct page_counter *c, enum pc_field f)
{
	return &c->lines[charge->layout->line_of[f]];
}

void page_counter_init_lines(struct page_counter *c, const struct page_counter_layout *layout,
			     int nid)
{
	for (int i = 0; i < PAGE_COUNTER_LINES && layout->line_names[i]; i++)
		line_init(&c->lines[i], line_class_get(layout->line_names[i]), nid);
}

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

static void counters_uncharge(struct sim_task *t, struct mem_cgroup *memcg, long nr)
{
	charge->counter->uncharge(t, &memcg->memory, nr);
	if (charge->memsw)
		charge->counter->uncharge(t, &memcg->memsw, nr);
}

static bool consume_stock(struct sim_task *t, struct mem_cgroup *memcg, long nr)
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

/* Linux 2.6.32 (kernel.version): a charge takes a reference on the memcg's
 * css (css_tryget: a locked cmpxchg on css.refcnt, in the line that starts
 * struct mem_cgroup with the memory counter's fields), an uncharge drops
 * one a page (css_put), batched or not; later kernels' references are
 * per-CPU (percpu_ref) or not taken per page. */
static void css_ref(struct sim_task *t, struct mem_cgroup *memcg, long nr, const char *site)
{
	if (kernel_version() == KERNEL_2_6_32 && nr > 0)
		line_atomic_n(t, memcg->memory.fields, nr, SIM_CAT_SPIN, site);
}

/* Linux 2.6.32's soft-limit event check, @nr pages' events on this CPU
 * (mem_cgroup_charge_statistics counts each page down from
 * SOFTLIMIT_EVENTS_THRESH; mem_cgroup_soft_limit_check resets it once below
 * 0, and mem_cgroup_update_tree then reads each level's soft-limit excess
 * under res's lock). Other eras' event checks take no shared lock. */
static void memcg_check_events(struct sim_task *t, struct mem_cgroup *memcg, long nr)
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

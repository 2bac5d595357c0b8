// SPDX-License-Identifier: GPL-2.0-or-later
/* page_counter (mm/page_counter.c, Linux 3.19+): lockless hierarchical
 * counters. A charge is an atomic_long_add_return on usage at every level;
 * with memory.min or memory.low set, propagate_protected_usage updates the
 * level's protected usage and its parent's children_*_usage. Every access is
 * on the line the run's layout gives the field (memcg.charge.layout). */
#include "charge.h"
#include "insn.h"

struct cacheline *page_counter_line(struct page_counter *c, enum pc_field f)
{
	return &c->lines[c->layout->line_of[f]];
}

void page_counter_init_lines(struct page_counter *c, const struct page_counter_layout *layout,
			     int nid)
{
	c->layout = layout;
	for (int i = 0; i < PAGE_COUNTER_LINES && layout->line_names[i]; i++)
		line_init(&c->lines[i], line_class_get(layout->line_names[i]), nid);
}

/* An atomic several CPUs update: RMWs queue for the line (the wait is a
 * stalled CPU: spin). */
static void pc_atomic(struct sim_task *t, struct page_counter *c, enum pc_field f, const char *site)
{
	line_atomic(t, page_counter_line(c, f), SIM_CAT_SPIN, site);
}

static void pc_load(struct sim_task *t, struct page_counter *c, enum pc_field f, const char *site)
{
	line_touch(t, page_counter_line(c, f), LINE_LOAD, site);
}

/* One protection (min or low) of propagate_protected_usage at @usage. */
static void protect(struct sim_task *t, struct page_counter *c, long limit, long *prot_usage,
		    long *parent_children, enum pc_field f, long usage)
{
	const char *site = "propagate_protected_usage";
	if (!limit) { /* if (min || atomic_long_read(&c->min_usage)) */
		pc_load(t, c, f, site);
		if (!*prot_usage)
			return;
	}
	long protected = MIN(usage, limit);
	if (c->protection == CHARGE_PROTECTION_ON_CHANGE) {
		pc_load(t, c, f, site); /* atomic_long_read, 6.1 */
		if (protected == *prot_usage)
			return;
	}
	pc_atomic(t, c, f, site); /* atomic_long_xchg */
	long delta = protected - *prot_usage;
	*prot_usage = protected;
	if (delta) {
		pc_atomic(t, c->parent, f, site); /* atomic_long_add on children_*_usage */
		*parent_children += delta;
	}
}

static void propagate_protected_usage(struct sim_task *t, struct page_counter *c, long usage)
{
	if (!c->protection_support || !c->parent)
		return;
	pc_load(t, c, PC_LIMITS, __func__); /* READ_ONCE(c->min), c->low */
	protect(t, c, c->min, &c->min_usage, &c->parent->children_min_usage, PC_MIN_USAGE, usage);
	protect(t, c, c->low, &c->low_usage, &c->parent->children_low_usage, PC_LOW_USAGE, usage);
}

/* page_counter_cancel: take @nr back from one level. */
static void page_counter_cancel(struct sim_task *t, struct page_counter *c, long nr,
				const char *site)
{
	pc_atomic(t, c, PC_USAGE, site); /* atomic_long_sub_return */
	c->usage -= nr;
	g_assert_cmpint(c->usage, >=, 0);
	propagate_protected_usage(t, c, c->usage);
}

static void page_counter_uncharge(struct sim_task *t, struct page_counter *counter, long nr)
{
	for (struct page_counter *c = counter; c; c = c->parent) {
		sim_task_charge(t, SIM_CAT_SYS, insn_cost(INSN_PAGE_COUNTER_UNCHARGE));
		page_counter_cancel(t, c, nr, __func__);
		pc_load(t, c, PC_PARENT, __func__);
	}
}

static bool page_counter_try_charge(struct sim_task *t, struct page_counter *counter, long nr,
				    struct page_counter **fail)
{
	for (struct page_counter *c = counter; c; c = c->parent) {
		sim_task_charge(t, SIM_CAT_SYS, insn_cost(INSN_PAGE_COUNTER_CHARGE));
		pc_atomic(t, c, PC_USAGE, __func__); /* atomic_long_add_return */
		long usage = c->usage += nr;
		pc_load(t, c, PC_LIMITS, __func__); /* c->max */
		if (usage > c->max) {
			pc_atomic(t, c, PC_USAGE, __func__); /* atomic_long_sub */
			c->usage -= nr;
			line_touch(t, page_counter_line(c, PC_WATERMARK), LINE_STORE, __func__);
			c->failcnt++;
			for (struct page_counter *u = counter; u != c; u = u->parent)
				page_counter_cancel(t, u, nr, __func__);
			*fail = c;
			return false;
		}
		propagate_protected_usage(t, c, usage);
		pc_load(t, c, PC_WATERMARK, __func__);
		if (usage > c->watermark) {
			line_touch(t, page_counter_line(c, PC_WATERMARK), LINE_STORE, __func__);
			c->watermark = usage;
		}
		pc_load(t, c, PC_PARENT, __func__);
	}
	return true;
}

/* try_charge_memcg, after the counters: every level's usage against its
 * memory.high (the swap counter's check reads lines no CPU writes here, and
 * is left out). */
static void check_high(struct sim_task *t, struct mem_cgroup *memcg)
{
	const char *site = "try_charge_memcg";
	for (struct mem_cgroup *m = memcg; m; m = m->parent) {
		pc_load(t, &m->memory, PC_USAGE, site);
		pc_load(t, &m->memory, PC_LIMITS, site);
	}
}

static void page_counter_lines(struct page_counter *c, const struct page_counter_layout *layout,
			       int nid)
{
	page_counter_init_lines(c, layout, nid);
	c->fields = page_counter_line(c, PC_USAGE);
}

/* Where the layout puts struct mem_cgroup's css.parent: with usage (6.0:
 * memory starts 208 bytes in, after css and id) or apart (6.1 aligns it). */
static void page_counter_place(struct mem_cgroup *m)
{
	if (!m->memory.layout->css_with_usage)
		return;
	struct cacheline *usage = page_counter_line(&m->memory, PC_USAGE);
	line_init(usage,
		  line_class_get("struct mem_cgroup: css.parent, id, memory.usage .. memory.emin"),
		  usage->home);
	m->css_parent = usage;
}

static void page_counter_destroy(struct page_counter *c)
{
	(void)c;
}

const struct charge_counter_ops charge_page_counter = {
    .name = "page_counter",
    .doc = "lockless atomics at every level (Linux 3.19+)",
    .stock_irqsave = true,
    .init = page_counter_lines,
    .destroy = page_counter_destroy,
    .place = page_counter_place,
    .try_charge = page_counter_try_charge,
    .uncharge = page_counter_uncharge,
    .check_high = check_high,
};

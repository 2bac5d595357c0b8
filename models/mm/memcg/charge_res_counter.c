// SPDX-License-Identifier: GPL-2.0-or-later
/* res_counter (kernel/res_counter.c, Linux 2.6.25 .. 3.18): one spinlock per
 * counter. res_counter_charge disables interrupts once (local_irq_save),
 * then takes each level's lock in turn to add to its usage
 * (res_counter_charge_locked); res_counter_uncharge likewise. Spinlocks of
 * that era are ticket locks (kernel.spinlock: ticket).
 *
 * Where the lines fall, as Linux 2.6.32's struct mem_cgroup lays out its
 * first members (include/linux/cgroup.h, include/linux/res_counter.h and
 * mm/memcontrol.c of 2.6.32, x86-64, no spinlock debugging; the memcg at a
 * line boundary): struct cgroup_subsys_state css (cgroup, refcnt, flags, id:
 * 32 bytes), then struct res_counter res and memsw (usage, max_usage,
 * limit, soft_limit, failcnt, lock, parent: 56 bytes each). So
 *   line 0 (bytes 0-63): css.refcnt, res.usage .. res.soft_limit;
 *   line 1 (64-127): res.failcnt, res.lock, res.parent, memsw.usage ..
 *   memsw.failcnt;
 *   line 2 (128-191): memsw.lock, memsw.parent, the LRU info.
 * A res charge takes its lock in line 1 and writes line 0, which every
 * css_tryget and css_put also writes; a memsw charge takes its lock in line
 * 2 and writes line 1, the res lock's word. The swap counter (cgroup v2)
 * has no res_counter era: a line of its own. */
#include "charge.h"

static const struct page_counter_layout res_counter_layout = {
    {{"res_counter",
      "struct res_counter: a counter in one line, until res_counter_place places it"}},
    {0},
    {"struct res_counter", NULL, NULL},
    false,
};

struct res_section {
	struct page_counter *c;
	long nr; /* + charge, - uncharge */
	bool ok;
	const char *site;
};

/* Under the counter's lock: usage (and max_usage, failcnt) in the lock's
 * line; decided in lock order. */
static sim_time_t res_counter_section(struct sim_task *t, void *arg)
{
	struct res_section *s = arg;
	struct page_counter *c = s->c;
	s->ok = s->nr < 0 || c->usage + s->nr <= c->max;
	if (s->ok)
		c->usage += s->nr;
	else
		c->failcnt++;
	if (c->usage > c->watermark)
		c->watermark = c->usage; /* max_usage */
	g_assert_cmpint(c->usage, >=, 0);
	return spin_held_access(t, &c->lock, c->fields, LINE_STORE, s->site);
}

/* One level: spin_lock, the locked update, spin_unlock; the first level's
 * acquisition carries the call's local_irq_save/restore. */
static bool res_counter_level(struct sim_task *t, struct page_counter *c, long nr, bool first,
			      const char *site)
{
	struct res_section s = {c, nr, false, site};
	spin_lock_hold_fn(t, &c->lock, res_counter_section, &s, SIM_CAT_SYS,
			  first ? SPIN_IRQSAVE : SPIN_IRQ, site);
	return s.ok;
}

static void res_counter_uncharge(struct sim_task *t, struct page_counter *counter, long nr)
{
	for (struct page_counter *c = counter; c; c = c->parent)
		res_counter_level(t, c, -nr, c == counter, __func__);
}

static bool res_counter_charge(struct sim_task *t, struct page_counter *counter, long nr,
			       struct page_counter **fail)
{
	for (struct page_counter *c = counter; c; c = c->parent) {
		if (res_counter_level(t, c, nr, c == counter, __func__))
			continue;
		for (struct page_counter *u = counter; u != c; u = u->parent) /* undo */
			res_counter_level(t, u, -nr, false, __func__);
		*fail = c;
		return false;
	}
	return true;
}

static sim_time_t soft_limit_section(struct sim_task *t, void *arg)
{
	struct page_counter *c = arg;
	return spin_held_access(t, &c->lock, c->fields, LINE_LOAD, "res_counter_soft_limit_excess");
}

/* res_counter_soft_limit_excess (2.6.32): usage and soft_limit read under
 * the lock, interrupts saved; no soft limit is set, so no excess. */
void res_counter_soft_limit_excess(struct sim_task *t, struct page_counter *c)
{
	spin_lock_hold_fn(t, &c->lock, soft_limit_section, c, SIM_CAT_SYS, SPIN_IRQSAVE,
			  "res_counter_soft_limit_excess");
}

/* res_counter has one layout of its own: @layout, page_counter's, is not
 * its. */
static void res_counter_init(struct page_counter *c, const struct page_counter_layout *layout,
			     int nid)
{
	(void)layout;
	page_counter_init_lines(c, &res_counter_layout, nid);
	c->fields = &c->lines[0];
	spin_lock_init_in(&c->lock, lock_class_get("&counter->lock"), &c->lines[0]);
}

static void line_name(struct cacheline *l, const char *name, int nid)
{
	line_init(l, line_class_get(name), nid);
}

/* The three lines above, in the memory and memsw counters' own lines[]. */
static void res_counter_place(struct mem_cgroup *m)
{
	struct cacheline *css_res = &m->memory.lines[0], *res_memsw = &m->memory.lines[1],
			 *memsw_info = &m->memsw.lines[0];
	int nid = css_res->home;
	line_name(css_res, "struct mem_cgroup: css.refcnt, res.usage .. res.soft_limit", nid);
	line_name(res_memsw,
		  "struct mem_cgroup: res.failcnt, res.lock, memsw.usage .. memsw.failcnt", nid);
	line_name(memsw_info, "struct mem_cgroup: memsw.lock, memsw.parent, info", nid);
	m->memory.fields = css_res;
	spin_lock_init_in(&m->memory.lock, m->memory.lock.cls, res_memsw);
	m->memsw.fields = res_memsw;
	spin_lock_init_in(&m->memsw.lock, m->memsw.lock.cls, memsw_info);
}

static void res_counter_destroy(struct page_counter *c)
{
	spin_lock_destroy(&c->lock);
}

const struct charge_counter_ops charge_res_counter = {
    .name = "res_counter",
    .doc = "a spinlock per counter, interrupts off (Linux 2.6.25 .. 3.18)",
    .stock_irqsave = false,
    .init = res_counter_init,
    .destroy = res_counter_destroy,
    .place = res_counter_place,
    .try_charge = res_counter_charge,
    .uncharge = res_counter_uncharge,
    .check_high = NULL,
};

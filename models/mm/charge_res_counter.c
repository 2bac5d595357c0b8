// SPDX-License-Identifier: GPL-2.0-or-later
/* res_counter (kernel/res_counter.c, Linux 2.6.25 .. 3.18): one spinlock per
 * counter, in the counter's one line with usage, max_usage, limit and
 * failcnt. res_counter_charge disables interrupts once (local_irq_save),
 * then takes each level's lock in turn to add to its usage
 * (res_counter_charge_locked); res_counter_uncharge likewise. Spinlocks of
 * that era are ticket locks (kernel.spinlock: ticket). */
#include "charge.h"

static const struct page_counter_layout res_counter_layout = {
	{{"res_counter",
	  "struct res_counter: usage, max_usage, limit, failcnt, lock, parent in one line"}},
	{0},
	{"struct res_counter", NULL, NULL},
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
	return spin_held_access(t, &c->lock, &c->lines[0], LINE_STORE, s->site);
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

static void res_counter_init(struct page_counter *c, int nid)
{
	page_counter_init_lines(c, &res_counter_layout, nid);
	spin_lock_init_in(&c->lock, lock_class_get("&counter->lock"), &c->lines[0]);
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
	.try_charge = res_counter_charge,
	.uncharge = res_counter_uncharge,
	.check_high = NULL,
};

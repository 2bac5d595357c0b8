// SPDX-License-Identifier: GPL-2.0-or-later
#include "lockdep.h"
#include <string.h>

#define MAX_LOCK_DEPTH 48
#define USED_IN_HARDIRQ 1u
#define ENABLED_HARDIRQ 2u

struct held_lock {
	struct lock_class *cls;
	const char *site;
};

struct lockdep_task {
	int depth;
	struct held_lock held[MAX_LOCK_DEPTH];
};

/* A dependency: @to was taken at @to_site while @from (taken at @from_site)
 * was held. The classes' names are its key, @hash their hash. */
struct lock_dep {
	char *from, *to;
	guint hash;
	const char *from_site, *to_site;
	bool reported;
};

static struct {
	GPtrArray *reports;
	GHashTable *deps; /* the set of struct lock_dep, by (from, to) */
	bool deadlocked;
} D;

static guint dep_hash(gconstpointer p)
{
	return ((const struct lock_dep *)p)->hash;
}

static guint class_hash(struct lock_class *c)
{
	if (!c->lockdep_hash)
		c->lockdep_hash = g_str_hash(c->name);
	return c->lockdep_hash;
}

static guint dep_key_hash(struct lock_class *from, struct lock_class *to)
{
	return class_hash(from) * 31 + class_hash(to);
}

static gboolean dep_equal(gconstpointer a, gconstpointer b)
{
	const struct lock_dep *x = a, *y = b;
	return !strcmp(x->from, y->from) && !strcmp(x->to, y->to);
}

static void dep_free(gpointer p)
{
	struct lock_dep *d = p;
	g_free(d->from);
	g_free(d->to);
	g_free(d);
}

void lockdep_fini(void)
{
	if (D.reports)
		g_ptr_array_free(D.reports, TRUE);
	if (D.deps)
		g_hash_table_destroy(D.deps);
	memset(&D, 0, sizeof(D));
}

void lockdep_reset(void)
{
	lockdep_fini();
	D.reports = g_ptr_array_new_with_free_func(g_free);
	D.deps = g_hash_table_new_full(dep_hash, dep_equal, dep_free, NULL);
}

GPtrArray *lockdep_reports(void)
{
	if (!D.reports)
		lockdep_reset();
	return D.reports;
}

bool lockdep_deadlocked(void)
{
	return D.deadlocked;
}

static struct lockdep_task *task_state(struct sim_task *t)
{
	void **slot = sim_task_model(t);
	if (!*slot)
		*slot = g_new0(struct lockdep_task, 1);
	return *slot;
}

static void banner(GString *s, const char *title)
{
	size_t n = strlen(title);
	for (size_t i = 0; i < n; i++)
		g_string_append_c(s, '=');
	g_string_append_printf(s, "\n%s\n", title);
	for (size_t i = 0; i < n; i++)
		g_string_append_c(s, '-');
	g_string_append_c(s, '\n');
}

static void task_line(GString *s, struct sim_task *t)
{
	g_string_append_printf(s, "%s/cpu%d [HC%d[%d]:SC0[0]:HE%d:SE1]", sim_task_name(t),
			       sim_task_cpu(t), sim_task_in_irq(t), sim_task_in_irq(t),
			       sim_task_irqs_enabled(t));
}

static void irq_scenario(GString *s, const char *name)
{
	g_string_append_printf(s,
			       " Possible unsafe locking scenario:\n\n"
			       "       CPU0\n"
			       "       ----\n"
			       "  lock(%s);\n"
			       "  <Interrupt>\n"
			       "    lock(%s);\n\n"
			       " *** DEADLOCK ***\n",
			       name, name);
}

/* The "inconsistent lock state" report: @c taken at @site now, in (or out of)
 * a hardirq, after being taken the other way at @earlier_site. */
static GString *inconsistent_report(struct sim_task *t, struct lock_class *c, const char *site,
				    bool now_in_irq, const char *earlier_site)
{
	const char *was = now_in_irq ? "HARDIRQ-ON-W" : "IN-HARDIRQ-W";
	const char *is = now_in_irq ? "IN-HARDIRQ-W" : "HARDIRQ-ON-W";
	GString *s = g_string_new(NULL);
	banner(s, "WARNING: inconsistent lock state");
	g_string_append_printf(s, "inconsistent {%s} -> {%s} usage.\n", was, is);
	task_line(s, t);
	g_string_append_printf(s, " takes:\n (%s), at: %s\n{%s} state was registered at:\n  %s\n",
			       c->name, site, was, earlier_site);
	g_string_append(s, "\nother info that might help us debug this:\n");
	irq_scenario(s, c->name);
	return s;
}

static void report_inconsistent(struct sim_task *t, struct lock_class *c, const char *site,
				bool now_in_irq)
{
	GString *s =
	    inconsistent_report(t, c, site, now_in_irq, c->lockdep_site[now_in_irq ? 1 : 0]);
	c->lockdep_report = (int)lockdep_reports()->len;
	g_ptr_array_add(lockdep_reports(), g_string_free(s, FALSE));
}

static void check_irq_usage(struct sim_task *t, struct lock_class *c, const char *site)
{
	unsigned bit;
	if (sim_task_in_irq(t))
		bit = USED_IN_HARDIRQ;
	else if (sim_task_irqs_enabled(t))
		bit = ENABLED_HARDIRQ;
	else
		return;
	int i = bit == USED_IN_HARDIRQ ? 0 : 1;
	if (!(c->lockdep_usage & bit))
		c->lockdep_site[i] = site;
	c->lockdep_usage |= bit;
	if (c->lockdep_usage == (USED_IN_HARDIRQ | ENABLED_HARDIRQ) && !c->lockdep_reported) {
		c->lockdep_reported = true;
		report_inconsistent(t, c, site, bit == USED_IN_HARDIRQ);
	}
}

/* The dependency @from -> @to, if recorded: looked up by a key on the stack,
 * as every acquisition does it for each lock held. */
static struct lock_dep *dep_find(struct lock_class *from, struct lock_class *to)
{
	struct lock_dep key = {.from = from->name, .to = to->name, .hash = dep_key_hash(from, to)};
	return g_hash_table_lookup(D.deps, &key);
}

bool lockdep_depends(struct lock_class *from, struct lock_class *to)
{
	return D.deps && dep_find(from, to);
}

static void dep_add(const struct held_lock *h, struct lock_class *to, const char *site)
{
	struct lock_dep *d = g_new0(struct lock_dep, 1);
	d->from = g_strdup(h->cls->name);
	d->to = g_strdup(to->name);
	d->hash = dep_key_hash(h->cls, to);
	d->from_site = h->site;
	d->to_site = site;
	g_hash_table_add(D.deps, d);
}

static void report_circular(struct sim_task *t, const struct held_lock *h, struct lock_class *to,
			    const char *site, struct lock_dep *back)
{
	GString *s = g_string_new(NULL);
	banner(s, "WARNING: possible circular locking dependency detected");
	task_line(s, t);
	g_string_append_printf(s,
			       " is trying to acquire lock:\n (%s), at: %s\n\n"
			       "but task is already holding lock:\n (%s), at: %s\n\n"
			       "which lock already depends on the new lock.\n\n"
			       "the existing dependency chain (in reverse order) is:\n\n"
			       "-> #1 (%s):\n       %s\n\n-> #0 (%s):\n       %s\n\n",
			       to->name, site, h->cls->name, h->site, h->cls->name, back->to_site,
			       to->name, back->from_site);
	g_string_append_printf(s,
			       "other info that might help us debug this:\n\n"
			       " Possible unsafe locking scenario:\n\n"
			       "       CPU0                    CPU1\n"
			       "       ----                    ----\n"
			       "  lock(%s);\n"
			       "                               lock(%s);\n"
			       "                               lock(%s);\n"
			       "  lock(%s);\n\n"
			       " *** DEADLOCK ***\n",
			       h->cls->name, to->name, h->cls->name, to->name);
	g_ptr_array_add(lockdep_reports(), g_string_free(s, FALSE));
}

/* check_prevs_add: each held lock now comes before @to. */
static void check_order(struct sim_task *t, struct lockdep_task *lt, struct lock_class *to,
			const char *site)
{
	lockdep_reports();
	for (int i = 0; i < lt->depth; i++) {
		struct held_lock *h = &lt->held[i];
		if (h->cls == to)
			continue;
		struct lock_dep *back = dep_find(to, h->cls);
		if (back && !back->reported) {
			back->reported = true;
			report_circular(t, h, to, site, back);
		}
		if (!dep_find(h->cls, to))
			dep_add(h, to, site);
	}
}

void lock_acquire(struct sim_task *t, struct lock_class *cls, const char *site, bool trylock)
{
	struct lockdep_task *lt = task_state(t);
	check_irq_usage(t, cls, site);
	if (!trylock)
		check_order(t, lt, cls, site);
	if (lt->depth < MAX_LOCK_DEPTH)
		lt->held[lt->depth++] = (struct held_lock){cls, site};
}

void lock_release(struct sim_task *t, struct lock_class *cls)
{
	struct lockdep_task *lt = task_state(t);
	for (int i = lt->depth - 1; i >= 0; i--) {
		if (lt->held[i].cls != cls)
			continue;
		memmove(&lt->held[i], &lt->held[i + 1],
			sizeof(lt->held[0]) * (size_t)(lt->depth - i - 1));
		lt->depth--;
		return;
	}
}

void lockdep_convoys(struct sim_task *t, const struct lock_class *cls, sim_time_t wait)
{
	struct lockdep_task *lt = task_state(t);
	if (wait <= 0)
		return;
	for (int i = 0; i < lt->depth; i++)
		if (lt->held[i].cls != cls)
			lock_stat_convoy(lt->held[i].cls, cls, wait);
}

void lockdep_self_deadlock(struct sim_task *t, struct lock_class *cls, const char *site,
			   const char *holder_site)
{
	GString *s = inconsistent_report(t, cls, site, true, holder_site);
	g_string_append_printf(s,
			       "\nThe simulated run reached it: the interrupt handler on cpu%d "
			       "spins on %s, which the task it interrupted holds (taken at %s).\n",
			       sim_task_cpu(t), cls->name, holder_site);
	/* It replaces the warning this acquisition has just given. */
	GPtrArray *r = lockdep_reports();
	if (cls->lockdep_reported && cls->lockdep_report >= 0 &&
	    (guint)cls->lockdep_report < r->len) {
		g_free(r->pdata[cls->lockdep_report]);
		r->pdata[cls->lockdep_report] = g_string_free(s, FALSE);
	} else {
		g_ptr_array_add(r, g_string_free(s, FALSE));
	}
	D.deadlocked = true;
	sim_engine_abort();
}

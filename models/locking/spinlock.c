// SPDX-License-Identifier: GPL-2.0-or-later
#include "spinlock.h"
#include "cost.h"
#include "lock_whatif.h"
#include "lockdep.h"
#include "sim_rng.h"
#include "sim_smt.h"
#include "sim_trace.h"
#include <string.h>

#define UNKNOWN SIM_TIME_MAX

/* One acquisition of a lock, from arrival to release, in FIFO order. */
struct spin_entry {
	struct spin_entry *next;
	struct sim_task *task;
	const char *site;
	enum spin_flavour fl;
	int cpu;
	int behind;   /* the CPU it queued behind; -1: it found the lock free */
	bool blocked; /* waits in the engine until its predecessor releases */
	sim_time_t arrive;
	sim_time_t grant;
	sim_time_t lines0, queue0; /* "queued": its CPU's line totals at the grant */
	/* Release time if known in advance. UNKNOWN for a critical section of
	 * unknown length, and for one that must release explicitly because
	 * blocked waiters queued behind it. */
	sim_time_t free_at;
};

/* qspinlock (Linux 4.2 on): waiters queue on their own MCS node lines and
 * only the queue's head spins on the lock word, so a release moves the line
 * to the next holder once. */
static sim_time_t queued_handoff(sim_time_t transfer, int waiters)
{
	return transfer;
}

static int queued_reloads(int waiters)
{
	return 0;
}

/* The ticket spinlock (before 4.2): every waiter spins reading the lock
 * word. A release invalidates all their copies, they all fetch the line
 * again, one after the other, and the next ticket's holder is anywhere among
 * them: on average (waiters + 1) / 2 transfers. */
static sim_time_t ticket_handoff(sim_time_t transfer, int waiters)
{
	return transfer * (waiters + 1) / 2;
}

/* Besides the next holder's, every other spinner's fetch. */
static int ticket_reloads(int waiters)
{
	return waiters - 1;
}

/* "queued": each CPU's MCS node (qnodes[0] of kernel/locking/qspinlock.c),
 * a line of its own. */
static struct cacheline *qnodes;

static struct cacheline *qnode(int cpu)
{
	if (!qnodes) {
		qnodes = g_new0(struct cacheline, sim_ncpus());
		struct line_class *cls = line_class_get("qnodes (struct qnode)");
		for (int c = 0; c < sim_ncpus(); c++)
			line_init(&qnodes[c], cls, sim_cpu_node(c));
	}
	return &qnodes[cpu];
}

/* queued_spin_lock_slowpath (kernel/locking/qspinlock.c, 4.2 to 6.x) as
 * far as lines go. The first waiter sets the pending bit
 * (atomic_fetch_or_acquire on the lock word) and spins on the word. Later
 * ones take their CPU's MCS node, swap it into the word's tail (xchg_tail)
 * and, behind another node, link it (WRITE_ONCE(prev->next, node)) and
 * spin on their own node's `locked`; the second waiter, first in the MCS
 * queue, is its head at once. The head spins on the lock word. */
static sim_time_t queued_arrive(struct spinlock *l, const struct spin_entry *e,
				const struct spin_entry *pred, int ahead, sim_time_t at)
{
	if (ahead == 0)
		return line_access_at(e->cpu, l->line, LINE_RMW, "queued_fetch_set_pending_acquire",
				      at, NULL);
	sim_time_t c = line_access_at(e->cpu, l->line, LINE_RMW, "xchg_tail", at, NULL);
	if (ahead == 1)
		return c + line_access_at(e->cpu, l->line, LINE_LOAD, "atomic_cond_read_acquire",
					  at + c, NULL);
	struct cacheline *mine = qnode(e->cpu);
	c += line_access_at(e->cpu, mine, LINE_STORE, "mcs node init", at + c, NULL);
	c += line_access_at(e->cpu, qnode(pred->cpu), LINE_STORE, "prev->next", at + c, NULL);
	/* Once @pred has the lock it passes the queue's head on
	 * (arch_mcs_spin_unlock_contended: a store to our node's `locked`),
	 * which our spin reads; then we spin on the word. */
	sim_time_t head = MAX(at + c, pred->blocked ? 0 : pred->grant);
	head += line_access_at(pred->cpu, mine, LINE_STORE, "arch_mcs_spin_unlock_contended", head,
			       NULL);
	head += line_access_at(e->cpu, mine, LINE_LOAD, "arch_mcs_spin_lock_contended", head, NULL);
	line_access_at(e->cpu, l->line, LINE_LOAD, "atomic_cond_read_acquire", head, NULL);
	return c;
}

/* The holder's queued_spin_unlock (smp_store_release of the locked byte;
 * the store does not hold the releasing CPU up, but the line serves it),
 * the waiter's read that sees it, then its store of the locked byte
 * (clear_pending_set_locked or set_locked). */
static sim_time_t queued_take(struct spinlock *l, const struct spin_entry *e,
			      const struct spin_entry *pred, int ahead, sim_time_t release)
{
	(void)ahead;
	line_access_at(pred->cpu, l->line, LINE_STORE, "queued_spin_unlock", release, NULL);
	sim_time_t c =
	    line_access_at(e->cpu, l->line, LINE_LOAD, "atomic_cond_read_acquire", release, NULL);
	return c + line_access_at(e->cpu, l->line, LINE_STORE, "set_locked", release + c, NULL);
}

/* The ticket lock (arch_spin_lock before 4.2, __ticket_spin_lock): a waiter
 * takes a ticket (2.6.32: lock xaddw on lock->slock; 3.x: xadd on
 * lock->tickets) and spins re-reading the head. Head and tail share the
 * word, so the xadd takes the line from every CPU
 * spinning on it, and each reads it again, one after the other, as after a
 * release: the spinners are the entries behind the holder (l->head, once
 * pruned); @e is not linked yet. */
static sim_time_t ticket_arrive(struct spinlock *l, const struct spin_entry *e,
				const struct spin_entry *pred, int ahead, sim_time_t at)
{
	(void)pred, (void)ahead;
	sim_time_t c = line_access_at(e->cpu, l->line, LINE_RMW, "arch_spin_lock", at, NULL);
	for (const struct spin_entry *w = l->head ? l->head->next : NULL; w; w = w->next)
		line_access_at(w->cpu, l->line, LINE_LOAD, "(spinning)", at + c, NULL);
	return c;
}

/* arch_spin_unlock adds to the head ticket (a store to the word); every
 * spinner's copy is invalidated and each reads the word again, the line
 * serving one read at a time. @e is among them, in the middle on average;
 * the others stand in for the CPUs queued now. */
static sim_time_t ticket_take(struct spinlock *l, const struct spin_entry *e,
			      const struct spin_entry *pred, int ahead, sim_time_t release)
{
	(void)ahead;
	line_access_at(pred->cpu, l->line, LINE_STORE, "arch_spin_unlock", release, NULL);
	int others = 0;
	for (const struct spin_entry *w = l->head; w; w = w->next)
		others += w != pred && w != e;
	int before = others / 2, n = 0;
	sim_time_t got = 0;
	for (const struct spin_entry *w = l->head; w; w = w->next) {
		if (w == pred || w == e)
			continue;
		if (n++ == before)
			got = line_access_at(e->cpu, l->line, LINE_LOAD, "arch_spin_lock", release,
					     NULL);
		line_access_at(w->cpu, l->line, LINE_LOAD, "(spinning)", release, NULL);
	}
	if (n <= before)
		got = line_access_at(e->cpu, l->line, LINE_LOAD, "arch_spin_lock", release, NULL);
	return got;
}

static const struct spinlock_ops spinlock_queued = {
    .name = "qspinlock",
    .doc = "queued spinlock: MCS queue behind a pending bit (Linux 4.2+)",
    .handoff = queued_handoff,
    .reloads = queued_reloads,
    .arrive = queued_arrive,
    .take = queued_take};
static const struct spinlock_ops spinlock_ticket = {
    .name = "ticket",
    .doc = "ticket spinlock: every waiter spins on the lock word (before 4.2)",
    .handoff = ticket_handoff,
    .reloads = ticket_reloads,
    .arrive = ticket_arrive,
    .take = ticket_take};

const struct mcs_named *const spinlock_impls[] = {&spinlock_queued.named, &spinlock_ticket.named,
						  NULL};

static const struct spinlock_ops *impl = &spinlock_queued;

/* kernel.critical_section_extra, as given. */
struct hold_add {
	char *cls, *site;
	sim_time_t d;
};
static GArray *hold_adds;
static int debug_mode; /* kernel.debug_locks */
static struct {
	bool pv;
	double steal;
	sim_time_t deschedule;
	struct sim_rng **rng; /* per CPU */
	int ncpus;
} vm; /* kernel.vm */

/* kernel.lock_whatif's scopes: each scoped class's locks (a struct
 * scope_locks by its lock_class), each made at its first use with its own
 * line, homed on its scope's node. */
struct scope_locks {
	struct spinlock *locks;
	bool *made;
	int n;
};
static GHashTable *scopes;

static void scope_locks_free(gpointer p)
{
	struct scope_locks *s = p;
	for (int i = 0; i < s->n; i++)
		if (s->made[i])
			spin_lock_destroy(&s->locks[i]);
	g_free(s->locks);
	g_free(s->made);
	g_free(s);
}

void spinlock_use(const struct spinlock_ops *ops)
{
	impl = ops ? ops : &spinlock_queued;
	debug_mode = SPIN_DEBUG_NONE;
	lock_whatif_reset();
	if (scopes)
		g_hash_table_destroy(scopes);
	scopes = NULL;
	for (int i = 0; i < vm.ncpus; i++)
		sim_rng_free(vm.rng[i]);
	g_free(vm.rng);
	memset(&vm, 0, sizeof(vm));
	g_free(qnodes);
	qnodes = NULL;
	for (guint i = 0; hold_adds && i < hold_adds->len; i++) {
		g_free(g_array_index(hold_adds, struct hold_add, i).cls);
		g_free(g_array_index(hold_adds, struct hold_add, i).site);
	}
	if (hold_adds)
		g_array_free(hold_adds, TRUE);
	hold_adds = NULL;
}

void spinlock_add_hold(const char *cls, const char *site, sim_time_t d)
{
	if (!hold_adds)
		hold_adds = g_array_new(FALSE, FALSE, sizeof(struct hold_add));
	struct hold_add a = {g_strdup(cls), g_strdup(site), d};
	g_array_append_val(hold_adds, a);
}

void spinlock_debug(int mode)
{
	debug_mode = mode;
}

void spinlock_vm(bool pv, double steal, sim_time_t deschedule)
{
	vm.pv = pv;
	vm.steal = steal;
	vm.deschedule = deschedule;
	if (steal <= 0)
		return;
	vm.ncpus = sim_ncpus();
	vm.rng = g_new0(struct sim_rng *, vm.ncpus);
	for (int i = 0; i < vm.ncpus; i++) {
		char *name = g_strdup_printf("vm.steal.cpu%d", i);
		vm.rng[i] = sim_rng_new(sim_seed(), name);
		g_free(name);
	}
}

/* The host deschedules the holder's vCPU during a hold of @hold: stolen
 * time the hold lasts longer, or 0. */
static sim_time_t vm_stolen(int cpu, sim_time_t hold)
{
	if (!vm.rng)
		return 0;
	double p = vm.steal * (double)hold / (double)vm.deschedule;
	return sim_rng_uniform01(vm.rng[cpu]) < p ? vm.deschedule : 0;
}

/* A debug kernel's lock_acquire, before the attempt. */
static void debug_acquire(struct sim_task *t)
{
	if (debug_mode != SPIN_DEBUG_NONE)
		sim_task_charge(t, SIM_CAT_SYS, cost(COST_LOCKDEP_ACQUIRE));
}

/* What the scenario adds to @cls's critical section taken at @site, and a
 * debug kernel's bookkeeping inside every hold. */
static sim_time_t added_hold(const struct lock_class *cls, const char *site)
{
	sim_time_t d = debug_mode == SPIN_DEBUG_NONE ? 0 : cost(COST_LOCKDEP_RELEASE);
	if (vm.pv) /* __pv_queued_spin_unlock's cmpxchg */
		d += cost(COST_LOCKED_RMW);
	if (debug_mode == SPIN_DEBUG_LOCK_STAT)
		d += cost(COST_LOCK_STAT);
	for (guint i = 0; hold_adds && i < hold_adds->len; i++) {
		const struct hold_add *a = &g_array_index(hold_adds, struct hold_add, i);
		if (strcmp(a->cls, cls->name) == 0 && (!a->site || strcmp(a->site, site) == 0))
			d += a->d;
	}
	return d;
}

/* What a section taken without a lock (kernel.lock_whatif) holds: nothing
 * to release. */
static struct spin_entry unlocked_entry;

/* Lock @i of the @n of @l's class's scope, its line homed on node @home. */
static struct spinlock *scope_lock(struct spinlock *l, int i, int n, int home)
{
	if (!scopes)
		scopes =
		    g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, scope_locks_free);
	struct scope_locks *s = g_hash_table_lookup(scopes, l->cls);
	if (!s) {
		if (!l->cls->line) /* a lock in a structure's line: now its own */
			l->cls->line = line_class_get(l->cls->name);
		s = g_new0(struct scope_locks, 1);
		s->n = n;
		s->locks = g_new0(struct spinlock, n);
		s->made = g_new0(bool, n);
		g_hash_table_insert(scopes, l->cls, s);
	}
	if (!s->made[i]) {
		spin_lock_init_in(&s->locks[i], l->cls, &s->locks[i].own);
		line_init(&s->locks[i].own, l->cls->line, home);
		s->made[i] = true;
	}
	return &s->locks[i];
}

/* The lock @l stands for to @t inside its section: its scope's, if any. */
static struct spinlock *whatif_instance(struct spinlock *l, struct sim_task *t)
{
	int i, n, home;
	if (lock_whatif_how(l->cls->name, NULL, t, &i, &n, &home) != LOCK_WHATIF_SCOPE)
		return l;
	return scope_lock(l, i, n, home);
}

/* @l as kernel.lock_whatif has it taken at @site: the lock to take, or NULL
 * when none is (what replaces it charged, and the section's added time). */
static struct spinlock *whatif_take(struct sim_task *t, struct spinlock *l, const char *site)
{
	if (!lock_whatif_any)
		return l;
	int i, n, home;
	sim_time_t instead = 0;
	switch (lock_whatif_how(l->cls->name, site, t, &i, &n, &home)) {
	case LOCK_WHATIF_AS_IS:
		return l;
	case LOCK_WHATIF_SCOPE:
		return scope_lock(l, i, n, home);
	case LOCK_WHATIF_ATOMIC: /* charged and waited for by line_atomic */
		line_atomic(t, l->line, SIM_CAT_SYS, site);
		break;
	case LOCK_WHATIF_RCU_READERS:
		instead = cost(COST_RCU_READ_LOCK);
		break;
	case LOCK_WHATIF_REMOVE:
		break;
	}
	sim_task_charge(t, SIM_CAT_SYS, instead + added_hold(l->cls, site));
	return NULL;
}

void spin_lock_init_in(struct spinlock *l, struct lock_class *cls, struct cacheline *line)
{
	memset(l, 0, sizeof(*l));
	l->cls = cls;
	l->line = line;
	l->spinner = -1;
}

void spin_lock_init(struct spinlock *l, struct lock_class *cls)
{
	if (!cls->line)
		cls->line = line_class_get(cls->name);
	spin_lock_init_in(l, cls, &l->own);
	line_init(&l->own, cls->line, 0);
}

sim_time_t spin_held_access(struct sim_task *t, struct spinlock *l, struct cacheline *line,
			    enum line_op op, const char *site)
{
	int cpu = sim_task_cpu(t);
	if (lock_whatif_any) /* its scope's instance, which the section holds */
		l = whatif_instance(l, t);
	int spinner = l->spinner;
	if (l->unflushed && line->owner != cpu) { /* another CPU's line: in order */
		l->unflushed = false;
		sim_task_flush(t);
	}
	if (spinner < 0 && l->head && l->head->next) /* a dynamic hold: the waiter is there */
		spinner = l->head->next->cpu;
	sim_time_t c;
	if (!line_queued()) {
		if (line == l->line && op != LINE_LOAD && spinner >= 0 && spinner != cpu)
			line_access(spinner, line, LINE_LOAD, "(spinning)");
		c = line_access(cpu, line, op, site);
	} else {
		sim_time_t at = line_cpu_clock(cpu);
		if (line == l->line && op != LINE_LOAD && spinner >= 0 && spinner != cpu)
			line_access_at(spinner, line, LINE_LOAD, "(spinning)", at, NULL);
		c = line_access_at(cpu, line, op, site, at, NULL);
	}
	sim_task_stall_next(t, c);
	return c;
}

static void entry_put(struct spinlock *l, struct spin_entry *e)
{
	e->next = l->free_entries;
	l->free_entries = e;
}

static struct spin_entry *entry_get(struct spinlock *l)
{
	struct spin_entry *e = l->free_entries;
	if (e)
		l->free_entries = e->next;
	else
		e = g_new(struct spin_entry, 1);
	memset(e, 0, sizeof(*e));
	return e;
}

static void entry_list_free(struct spin_entry *e)
{
	while (e) {
		struct spin_entry *n = e->next;
		g_free(e);
		e = n;
	}
}

void spin_lock_destroy(struct spinlock *l)
{
	entry_list_free(l->head);
	entry_list_free(l->free_entries);
	memset(l, 0, sizeof(*l));
}

/* @e joins @l's FIFO behind @pred (NULL: it is the holder). */
static void spin_link(struct spinlock *l, struct spin_entry *e, struct spin_entry *pred)
{
	l->len++;
	if (pred)
		pred->next = e;
	else
		l->head = e;
	l->tail = e;
}

/* The lock and unlock instructions (a bit spinlock's two locked RMWs) and
 * the preempt_disable/enable pair around them. */
static sim_time_t lock_pair_cost(const struct spinlock *l)
{
	return (l->bit ? 2 * cost(COST_LOCKED_RMW) : cost(COST_LOCK_ACQ_REL)) + cost(COST_PREEMPT);
}

/* From the time the lock is free to its grant to @e: the lock word's line
 * comes to @e's CPU (the cmpxchg that takes it), then the rest of the lock
 * and unlock instructions and the preempt_disable/enable pair around them;
 * with @waiters spinning, as the implementation hands over. */
static sim_time_t acquire_cost(struct spinlock *l, const struct spin_entry *e, int waiters)
{
	int from = l->line->owner >= 0 ? l->line->owner : l->line->last_cpu;
	sim_time_t rmw = line_access(e->cpu, l->line, LINE_RMW, e->site);
	sim_time_t transfer = rmw - cost(COST_LOCKED_RMW);
	if (transfer > 0 && from >= 0 && from != e->cpu)
		line_count_transfers(l->line, LINE_LOAD, sim_cpu_hop(from, e->cpu),
				     (uint64_t)MAX(impl->reloads(waiters), 0), transfer, e->site);
	return impl->handoff(transfer, waiters) + lock_pair_cost(l);
}

/* Drop the acquisitions whose planned release is at or before @now. */
static void spin_prune(struct spinlock *l, sim_time_t now)
{
	while (l->head && l->head->free_at <= now) {
		struct spin_entry *e = l->head;
		l->head = e->next;
		l->len--;
		entry_put(l, e);
	}
	if (!l->head)
		l->tail = NULL;
}

bool spin_is_locked(struct spinlock *l, sim_time_t at)
{
	spin_prune(l, at);
	return l->head != NULL;
}

/* The implementation of @l's slow path under "queued": a bit spinlock's
 * waiters spin reading its word and all read it again at a release, as the
 * ticket lock's do. */
static const struct spinlock_ops *slow_path(const struct spinlock *l)
{
	return l->bit ? &spinlock_ticket : impl;
}

static void spin_waited(struct sim_task *t, struct spinlock *l, struct spin_entry *e,
			sim_time_t from)
{
	lock_stat_waited(l->cls, e->site, e->grant - from);
	lockdep_convoys(t, l->cls, e->grant - from);
	sim_trace_span(t, e->cpu, "wait", l->cls->name, from, e->grant);
}

/* machine.contention "queued": @e (queued at its clock behind @pred, if
 * any) is granted the lock. The fast path is the cmpxchg on the word; a
 * waiter makes the slow path's accesses at its arrival, then at the
 * release the hand-over's, each at the time it happens, waiting for the
 * lines they use like any other request. */
static void spin_grant_queued(struct sim_task *t, struct spinlock *l, struct spin_entry *e,
			      struct spin_entry *pred)
{
	sim_time_t now = e->arrive, pair = lock_pair_cost(l);
	const struct spinlock_ops *ops = slow_path(l);
	int ahead = l->len - 1;
	if (pred) /* a spinner, for its SMT sibling: until its grant, once known */
		sim_smt_spin(e->cpu, now, SIM_TIME_MAX);
	sim_time_t ready = pred ? now + ops->arrive(l, e, pred, ahead, now) : now;
	spin_link(l, e, pred);
	if (!pred) { /* the grant after the charge: SMT sharing may stretch the pair */
		sim_time_t rmw = line_access_at(e->cpu, l->line, LINE_RMW, e->site, now, NULL);
		sim_task_stall_next(t, rmw);
		sim_task_charge(t, SIM_CAT_SYS, rmw + pair);
		e->grant = sim_task_clock(t);
		return;
	}
	sim_time_t release;
	if (pred->free_at != UNKNOWN) {
		release = MAX(ready, pred->free_at);
	} else {
		e->blocked = true;
		sim_task_block(t, SIM_CAT_SPIN);
		e->blocked = false;
		release = MAX(ready, sim_task_clock(t));
	}
	e->grant = release + ops->take(l, e, pred, ahead, release) + pair;
	sim_smt_spin(e->cpu, now, e->grant);
	lock_stat_handover(l->cls, e->grant - release);
	sim_task_charge(t, SIM_CAT_SPIN, e->grant - sim_task_clock(t));
	spin_waited(t, l, e, now);
}

/* Queue @t on @l at its (flushed) clock and advance it to the grant. The
 * release stays unknown (free_at): a planned holder sets it once it has
 * charged its hold. */
static struct spin_entry *spin_enqueue(struct sim_task *t, struct spinlock *l, enum spin_flavour fl,
				       const char *site)
{
	sim_time_t now = sim_task_clock(t);
	spin_prune(l, now);
	if (sim_task_in_irq(t)) /* the task this handler interrupted may hold it */
		for (struct spin_entry *h = l->head; h; h = h->next)
			if (h->task == t)
				lockdep_self_deadlock(t, l->cls, site, h->site);
	struct spin_entry *e = entry_get(l);
	struct spin_entry *pred = l->tail;
	if (l->local && pred && now < pred->arrive)
		sim_note_local(true);
	e->task = t;
	e->site = site;
	e->fl = fl;
	e->behind = pred ? pred->cpu : -1;
	e->cpu = sim_task_cpu(t);
	e->arrive = now;
	e->free_at = UNKNOWN;

	int line_from = l->line->owner >= 0 ? l->line->owner : l->line->last_cpu;
	lock_stat_acquired(l->cls, site, pred != NULL, line_from >= 0 && line_from != e->cpu,
			   l->head ? l->head->site : NULL);
	if (line_queued()) {
		spin_grant_queued(t, l, e, pred);
		line_cpu_spent(e->cpu, &e->lines0, &e->queue0);
		return e;
	}
	/* The CPUs spinning when @e's turn comes: as many as are queued now
	 * (the queue keeps its length while it is busy). */
	sim_time_t handoff = acquire_cost(l, e, pred ? l->len : 1);
	spin_link(l, e, pred);

	if (!pred) { /* free: take it */
		e->grant = now + handoff;
		sim_task_charge(t, SIM_CAT_SYS, e->grant - now);
	} else if (pred->free_at != UNKNOWN) { /* release planned: spin until then */
		e->grant = pred->free_at + handoff;
		sim_task_charge(t, SIM_CAT_SPIN, e->grant - now);
		spin_waited(t, l, e, now);
	} else { /* spin until the holder ahead releases and hands over */
		e->blocked = true;
		sim_task_block(t, SIM_CAT_SPIN);
		e->blocked = false;
		sim_time_t woken = sim_task_clock(t);
		e->grant = woken + handoff;
		sim_task_charge(t, SIM_CAT_SPIN, e->grant - woken);
		spin_waited(t, l, e, now);
	}
	return e;
}

/* Release @e at the engine's current time and hand over to the next waiter. */
static void spin_release(struct spinlock *l, struct spin_entry *e)
{
	spin_prune(l, sim_now());
	g_assert(l->head == e);
	struct spin_entry *next = e->next;
	l->head = next;
	l->len--;
	if (!next)
		l->tail = NULL;
	if (next) {
		g_assert(next->blocked);
		sim_task_wake(next->task);
	}
	entry_put(l, e);
}

/* spin_lock_irq / _irqsave: interrupts off from before the attempt. */
static void irq_off(struct sim_task *t, enum spin_flavour fl)
{
	if (fl == SPIN_PLAIN)
		return;
	sim_task_irq_disable(t);
	if (fl == SPIN_IRQSAVE)
		sim_task_charge(t, SIM_CAT_SYS, cost(COST_IRQ_SAVE_RESTORE));
}

static void irq_on(struct sim_task *t, enum spin_flavour fl)
{
	if (fl != SPIN_PLAIN)
		sim_task_irq_enable(t);
}

static sim_time_t irqoff_time(const struct spin_entry *e, sim_time_t release)
{
	return e->fl == SPIN_PLAIN ? 0 : release - e->arrive;
}

/* The hold of @e ends at @release: statistics and the trace. */
static void spin_held(struct sim_task *t, struct spinlock *l, const struct spin_entry *e,
		      sim_time_t release)
{
	lock_stat_held(l->cls, release - e->grant, irqoff_time(e, release));
	if (line_queued()) {
		sim_time_t lines, queue;
		line_cpu_spent(e->cpu, &lines, &queue);
		lock_stat_held_lines(l->cls, lines - e->lines0, queue - e->queue0);
	}
	sim_trace_span(t, e->cpu, "lock", l->cls->name, e->grant, release);
	if (e->fl != SPIN_PLAIN)
		sim_trace_span(t, e->cpu, "irqoff", l->cls->name, e->arrive, release);
}

static sim_time_t constant_hold(struct sim_task *t, void *hold)
{
	return *(const sim_time_t *)hold;
}

void spin_lock_hold(struct sim_task *t, struct spinlock *l, sim_time_t hold, enum sim_cat cat,
		    enum spin_flavour fl, const char *site)
{
	spin_lock_hold_fn(t, l, constant_hold, &hold, cat, fl, site);
}

void spin_lock_set_local(struct spinlock *l)
{
	l->local = true;
}

/* A local lock free at the task's clock, its line last written here. */
static bool spin_local_free(struct sim_task *t, struct spinlock *l)
{
	if (!l->local || !sim_local_ok() || l->line->owner != sim_task_cpu(t))
		return false;
	spin_prune(l, sim_task_clock(t));
	if (l->head)
		return false;
	sim_note_local(false);
	l->unflushed = true;
	return true;
}

void spin_lock_hold_fn(struct sim_task *t, struct spinlock *l, spin_section_fn section, void *arg,
		       enum sim_cat cat, enum spin_flavour fl, const char *site)
{
	if (!(l = whatif_take(t, l, site))) { /* no lock: the section's work, unserialised */
		sim_task_charge(t, cat, section(t, arg));
		return;
	}
	sim_task_preempt_disable(t);
	irq_off(t, fl);
	lock_acquire(t, l->cls, site, false);
	debug_acquire(t);
	if (!spin_local_free(t, l))
		sim_task_flush(t);
	struct spin_entry *e = spin_enqueue(t, l, fl, site);
	/* Contention persists: a lock that made us wait has a waiter spinning
	 * while we hold it. Interrupts taken meanwhile lengthen the hold. */
	l->spinner = e->behind;
	sim_time_t hold = section(t, arg) + added_hold(l->cls, site);
	l->spinner = -1;
	l->unflushed = false;
	sim_task_charge(t, cat, hold);
	sim_task_charge(t, SIM_CAT_IDLE, vm_stolen(e->cpu, hold));
	sim_time_t release = sim_task_clock(t);
	/* Waiters that blocked behind us need an explicit release to wake
	 * them; otherwise the release is known now and later arrivals plan
	 * around it. */
	bool explicit_release = e->next != NULL;
	if (!explicit_release)
		e->free_at = release;
	spin_held(t, l, e, release);
	if (explicit_release) {
		sim_task_flush(t);
		spin_release(l, e);
	}
	lock_release(t, l->cls);
	irq_on(t, fl);
	sim_task_preempt_enable(t);
}

struct spin_entry *spin_lock(struct sim_task *t, struct spinlock *l, enum spin_flavour fl,
			     const char *site)
{
	if (!(l = whatif_take(t, l, site)))
		return &unlocked_entry;
	sim_task_preempt_disable(t);
	irq_off(t, fl);
	lock_acquire(t, l->cls, site, false);
	debug_acquire(t);
	sim_task_flush(t);
	struct spin_entry *e = spin_enqueue(t, l, fl, site);
	sim_task_charge(t, SIM_CAT_SYS, added_hold(l->cls, site));
	sim_task_flush(t);
	return e;
}

struct spin_entry *spin_trylock(struct sim_task *t, struct spinlock *l, enum spin_flavour fl,
				const char *site)
{
	if (!(l = whatif_take(t, l, site)))
		return &unlocked_entry;
	sim_task_flush(t);
	if (spin_is_locked(l, sim_now())) {
		l->cls->trylock_failures++;
		return NULL;
	}
	sim_task_preempt_disable(t);
	irq_off(t, fl);
	lock_acquire(t, l->cls, site, true);
	struct spin_entry *e = spin_enqueue(t, l, fl, site);
	sim_task_charge(t, SIM_CAT_SYS, added_hold(l->cls, site));
	sim_task_flush(t);
	return e;
}

void spin_unlock(struct sim_task *t, struct spinlock *l, struct spin_entry *held)
{
	if (held == &unlocked_entry)
		return;
	if (lock_whatif_any)
		l = whatif_instance(l, t);
	sim_task_charge(t, SIM_CAT_IDLE, vm_stolen(held->cpu, sim_task_clock(t) - held->grant));
	sim_task_flush(t);
	sim_time_t now = sim_now();
	spin_held(t, l, held, now);
	enum spin_flavour fl = held->fl;
	spin_release(l, held);
	lock_release(t, l->cls);
	irq_on(t, fl);
	sim_task_preempt_enable(t);
}

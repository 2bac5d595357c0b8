// SPDX-License-Identifier: GPL-2.0-or-later
/* The simulated present and the two ways of passing the processor from
 * actor to actor (sim_sched.h). */
#include "sim_sched.h"
#include <glib.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
	const struct sim_sched *scheme;
	sim_time_t now;		/* the simulated present: SimGrid's clock, or ahead of it */
	struct sim_actor *self; /* the running actor, NULL outside the run */
	uint64_t calls;
	void (*on_call)(uint64_t calls);
} S;

static struct sim_actor *actor_of(struct sim_waiter *w)
{
	return (struct sim_actor *)w; /* its first member */
}

/* @a runs again, at @at or at the present if that is later. */
static void resumed(struct sim_actor *a, sim_time_t at)
{
	S.self = a;
	sim_wakeq_clear(&a->wake);
	if (at > S.now)
		S.now = at;
}

/* ---- "sleep": SimGrid times the sleeps and orders the actors ---- */

static sim_time_t simgrid_now(void)
{
	return (sim_time_t)simgrid_get_clock(); /* whole picoseconds: exact in a double */
}

/* SimGrid's clock may lag the present (the lookahead), so a sleep's length
 * is from SimGrid's. */
static sim_time_t sleep_wait(struct sim_actor *a, sim_time_t at, bool counted)
{
	S.calls += counted;
	if (a->wake.pos >= 0)
		sg_actor_sleep_for((double)at - simgrid_get_clock());
	else
		sg_sem_acquire(a->sem); /* in the queue only once woken */
	return simgrid_now();
}

/* Every SimGrid call lets the actors runnable now run before the caller
 * goes on, even one answered at once (a release, a start): meanwhile the
 * caller is one of them. */
static struct sim_actor *sleep_call_begin(void)
{
	struct sim_actor *self = S.self;
	if (self)
		sim_wakeq_set(&self->wake, S.now);
	return self;
}

static void sleep_call_end(struct sim_actor *self)
{
	if (self)
		resumed(self, simgrid_now());
}

static void sleep_wake(struct sim_actor *a, bool first)
{
	sim_wakeq_lower(&a->wake, S.now); /* runnable from now, or still asleep */
	S.calls++;
	struct sim_actor *self = sleep_call_begin();
	sg_sem_release(a->sem);
	sleep_call_end(self);
}

static sim_time_t sleep_yield(struct sim_actor *self)
{
	sg_actor_yield();
	return simgrid_now();
}

static void sleep_start(sg_actor_t actor, void (*main)(int argc, char **argv))
{
	struct sim_actor *self = sleep_call_begin();
	sg_actor_start(actor, main, 0, NULL);
	sleep_call_end(self);
}

static sim_time_t sleep_begin(struct sim_actor *a, bool first)
{
	return simgrid_now();
}

static void sleep_end(struct sim_actor *a, bool last)
{
}

static const struct sim_sched sched_sleep = {
    MCS_NAME("sleep", "SimGrid's timed sleeps and semaphores; SimGrid orders the actors"),
    .wait = sleep_wait,
    .wake = sleep_wake,
    .yield = sleep_yield,
    .start = sleep_start,
    .begin = sleep_begin,
    .end = sleep_end,
};

/* ---- "handover": the queue's first actor is handed the processor ---- */

/* The running actor @a (in the queue, or blocked) gives the processor to the
 * actor due first, unless that is itself, and waits for its turn. The
 * queue is never empty while the run goes on: the controller or the
 * watchdog is always in it. */
static sim_time_t handover_wait(struct sim_actor *a, sim_time_t at, bool counted)
{
	if (at == SIM_TIME_MAX && a->wakes) { /* woken before it blocked */
		a->wakes--;
		sim_wakeq_set(&a->wake, S.now);
	}
	struct sim_waiter *next = sim_wakeq_first();
	g_assert_nonnull(next);
	if (next != &a->wake) {
		S.calls += counted;
		sg_sem_release(actor_of(next)->sem);
		sg_sem_acquire(a->sem);
	}
	return a->wake.at; /* when it became due */
}

/* A wake is a semaphore's release: an actor that is not blocked (the
 * waker itself, one asleep or runnable already) keeps it for its next block.
 * With @first, as SimGrid does, the blocked actor woken runs first, then its
 * waker: what the woken does at the present (take its CPU, which its SMT
 * sibling's next costs depend on) is done before the waker goes on. Without,
 * it runs when it is first in the queue. */
static void handover_wake(struct sim_actor *a, bool first)
{
	struct sim_actor *self = S.self;
	if (a == self || a->wake.pos >= 0) {
		a->wakes++;
		return;
	}
	sim_wakeq_set(&a->wake, S.now);
	if (!self || !first)
		return;
	sim_wakeq_set(&self->wake, S.now);
	resumed(self, handover_wait(self, S.now, true));
}

static sim_time_t handover_yield(struct sim_actor *self)
{
	return handover_wait(self, S.now, true);
}

/* The new actor only waits for its turn before it does anything. */
static void handover_start(sg_actor_t actor, void (*main)(int argc, char **argv))
{
	sg_actor_start(actor, main, 0, NULL);
}

static sim_time_t handover_begin(struct sim_actor *a, bool first)
{
	if (first) /* the others wait for their turns: this one starts the run */
		return S.now;
	sg_sem_acquire(a->sem);
	return a->wake.at;
}

/* The run ends with the last actor SimGrid waits for; any other hands the
 * processor on as it leaves. */
static void handover_end(struct sim_actor *a, bool last)
{
	struct sim_waiter *next = sim_wakeq_first();
	if (!last && next)
		sg_sem_release(actor_of(next)->sem);
}

static const struct sim_sched sched_handover = {
    MCS_NAME("handover", "the wake queue's first actor is handed the processor by semaphores"),
    .wait = handover_wait,
    .wake = handover_wake,
    .yield = handover_yield,
    .start = handover_start,
    .begin = handover_begin,
    .end = handover_end,
};

static const struct mcs_named *const sched_schemes[] = {&sched_handover.named, &sched_sleep.named,
							NULL};

void sim_sched_init(int capacity)
{
	const char *name = g_getenv("MEMCGSIM_ENGINE");
	const struct mcs_named *n = mcs_named_find(sched_schemes, name ? name : "handover");
	if (!n) {
		fprintf(stderr,
			"memcgsim: MEMCGSIM_ENGINE=%s: expected \"handover\" or \"sleep\"\n", name);
		exit(2);
	}
	void (*on_call)(uint64_t) = S.on_call;
	memset(&S, 0, sizeof(S));
	S.on_call = on_call;
	S.scheme = (const struct sim_sched *)n;
	sim_wakeq_init(capacity);
}

void sim_sched_fini(void)
{
	sim_wakeq_fini();
	S.now = 0;
	S.self = NULL;
	S.calls = 0;
}

const char *sim_sched_name(void)
{
	return S.scheme ? S.scheme->name : "handover";
}

void sim_actor_init(struct sim_actor *a)
{
	sim_waiter_init(&a->wake);
	a->sem = sg_sem_init(0);
	a->wakes = 0;
}

void sim_actor_destroy(struct sim_actor *a)
{
	if (a->sem)
		sg_sem_destroy(a->sem);
	a->sem = NULL;
}

sim_time_t sim_sched_now(void)
{
	return S.now;
}

void sim_sched_advance(sim_time_t to)
{
	S.now = to;
}

uint64_t sim_sched_calls(void)
{
	return S.calls;
}

void sim_sched_on_call(void (*hook)(uint64_t calls))
{
	S.on_call = hook;
}

static void sched_wait(struct sim_actor *a, sim_time_t at, bool counted)
{
	if (counted && S.on_call)
		S.on_call(S.calls + 1);
	resumed(a, S.scheme->wait(a, at, counted));
}

void sim_sched_sleep_until(struct sim_actor *a, sim_time_t at, bool counted)
{
	sim_wakeq_set(&a->wake, at);
	sched_wait(a, at, counted);
}

void sim_sched_block(struct sim_actor *a)
{
	sched_wait(a, SIM_TIME_MAX, true);
}

void sim_sched_wake(struct sim_actor *a, bool first)
{
	S.scheme->wake(a, first);
}

void sim_sched_yield(void)
{
	struct sim_actor *self = S.self;
	sim_wakeq_set(&self->wake, S.now);
	resumed(self, S.scheme->yield(self));
}

void sim_sched_spawn(struct sim_actor *a, const char *name, sg_host_t host,
		     void (*main)(int argc, char **argv), void *data)
{
	sim_wakeq_set(&a->wake, S.now); /* runnable from its creation */
	sg_actor_t actor = sg_actor_init(name, host);
	sg_actor_set_data(actor, data);
	S.scheme->start(actor, main);
}

void sim_sched_begin(struct sim_actor *a, bool first)
{
	resumed(a, S.scheme->begin(a, first));
}

void sim_sched_end(struct sim_actor *a, bool last)
{
	S.scheme->end(a, last);
}

void sim_sched_finish(struct sim_actor *a)
{
	resumed(a, S.scheme->begin(a, true));
	S.self = NULL;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sim_sched: the simulated present, and how an actor leaves the processor
 * and which runs next (private to sim/).
 *
 * Every SimGrid actor the engine runs (tasks, interrupt tasks, the
 * controller, the watchdog) is a struct sim_actor: its waiter in the wake
 * queue (sim_wakeq.h) and a semaphore. The engine asks this module to make
 * the running actor sleep until a time, block until woken, wake another,
 * yield to those due now, and start and end actors; a scheme, chosen once a
 * run, does it with SimGrid's primitives:
 *
 *  - "handover" (the default): the wake queue already knows which actor is
 *    due first, so the running actor that must wait releases that actor's
 *    semaphore and acquires its own: one hand-over, and SimGrid neither
 *    times a sleep on a host nor solves anything. Waking an actor only
 *    enters it in the queue. SimGrid's clock stays at 0: nothing but this
 *    module reads it. Actors due at the same time run in the order they
 *    were entered.
 *  - "sleep" (MEMCGSIM_ENGINE=sleep): a timed sleep is SimGrid's
 *    sg_actor_sleep_for, a block and a wake its semaphores, and SimGrid
 *    orders the actors due at the same time. The engine of the earlier
 *    versions, kept to check the hand-overs against.
 *
 * Both run the same actors through the same states at the same simulated
 * times; they can differ only in the order of actors due at the very same
 * picosecond (tests/handover.sh bounds what that moves). */
#pragma once
#include "mcs_named.h"
#include "sim_time.h"
#include "sim_wakeq.h"
#include <simgrid/forward.h>
#include <stdbool.h>
#include <stdint.h>

struct sim_actor {
	struct sim_waiter wake; /* first: the queue's entries are actors */
	sg_sem_t sem;		/* where it waits for its turn */
	int wakes;		/* "handover": wakes it keeps for its next block */
};

/* One scheme: what each step is in SimGrid's calls (sim_sched.c). */
struct sim_sched {
	MCS_NAMED;
	/* The running actor @a waits until its waiter's time @at (or, not in
	 * the queue, until woken), counted as an engine call when @counted and
	 * it calls SimGrid; returns the engine's time when it runs again. */
	sim_time_t (*wait)(struct sim_actor *a, sim_time_t at, bool counted);
	/* Wake @a: a blocked actor may run from now (before its waker goes
	 * on when @first); one that is not keeps the wake for its next block,
	 * as a semaphore would. */
	void (*wake)(struct sim_actor *a, bool first);
	/* The running actor @self, queued at the present, lets those due now
	 * run first; returns the engine's time when it runs again. */
	sim_time_t (*yield)(struct sim_actor *self);
	/* Start the SimGrid actor @actor (its data and host set). */
	void (*start)(sg_actor_t actor, void (*main)(int argc, char **argv));
	/* An actor's first step (@first: the controller or the watchdog, which
	 * starts the run), returning the engine's time when it runs, and its
	 * last (@last: the run ends with it). */
	sim_time_t (*begin)(struct sim_actor *a, bool first);
	void (*end)(struct sim_actor *a, bool last);
};

/* Choose the scheme (MEMCGSIM_ENGINE: "handover" or "sleep"; an unknown
 * name is an error) and start at time 0 with no call made. */
void sim_sched_init(int capacity);
void sim_sched_fini(void);
const char *sim_sched_name(void);
void sim_actor_init(struct sim_actor *a);
void sim_actor_destroy(struct sim_actor *a);

/* The simulated present; the engine moves it ahead itself where no other
 * actor can run before (the lookahead). */
sim_time_t sim_sched_now(void);
void sim_sched_advance(sim_time_t to);
/* Engine calls: the times an actor left the processor, or made SimGrid
 * run others first. */
uint64_t sim_sched_calls(void);

/* In an actor. Each counts as an engine call but end and the watchdog's
 * sleep (@counted false). */
void sim_sched_sleep_until(struct sim_actor *a, sim_time_t at, bool counted);
void sim_sched_block(struct sim_actor *a);
void sim_sched_wake(struct sim_actor *a, bool first);
void sim_sched_yield(void);

/* Create the actor @name of @a on @host, running @main with @data. */
void sim_sched_spawn(struct sim_actor *a, const char *name, sg_host_t host,
		     void (*main)(int argc, char **argv), void *data);
void sim_sched_begin(struct sim_actor *a, bool first);
void sim_sched_end(struct sim_actor *a, bool last);
/* After simgrid_run, outside the actors: the run ended with @a (the
 * controller or the watchdog), whose time the present is now. */
void sim_sched_finish(struct sim_actor *a);
/* Called every engine call (sim_engine.c: the progress reports). */
void sim_sched_on_call(void (*hook)(uint64_t calls));

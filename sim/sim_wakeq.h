/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sim_wakeq: when each actor of the run can next act (private to sim/).
 *
 * Every SimGrid actor the engine runs (tasks, interrupt tasks, the
 * controller, the watchdog) has one waiter. While the actor is off the
 * processor its waiter holds the simulated time at which it will run again:
 * the end of its sleep, or the engine's time when it is runnable now (just
 * created, just woken, yielding). A blocked actor that nobody has woken has
 * no entry: it cannot act before another actor does. The running actor has
 * no entry either.
 *
 * So sim_wakeq_min() is the earliest time at which any other actor can touch
 * shared state, and a task whose own clock is strictly earlier runs on
 * without asking SimGrid to order it (sim_task_flush): it would be the next
 * actor to run in any case. Actors due at the same time are in the order
 * they were entered (a sequence number breaks the tie), which the hand-over
 * scheduler follows (sim_sched.h). An indexed binary min-heap: O(log n) a
 * change. */
#pragma once
#include "sim_time.h"
#include <stdbool.h>
#include <stdint.h>

struct sim_waiter {
	sim_time_t at; /* when the actor runs again, while pos >= 0 */
	uint64_t seq;  /* when it was entered at @at: the earlier first */
	int pos;       /* index in the heap, -1 when not in it */
};

void sim_wakeq_init(int capacity);
void sim_wakeq_fini(void);
/* A waiter not in the queue (pos -1). */
void sim_waiter_init(struct sim_waiter *w);
/* The actor of @w runs again at @at (entered, or moved to @at). */
void sim_wakeq_set(struct sim_waiter *w, sim_time_t at);
/* The same, unless it is in the queue already at an earlier time. */
void sim_wakeq_lower(struct sim_waiter *w, sim_time_t at);
/* The actor of @w is running (or blocked with nobody to wake it). */
void sim_wakeq_clear(struct sim_waiter *w);
/* The earliest time in the queue; SIM_TIME_MAX when it is empty. */
sim_time_t sim_wakeq_min(void);
/* The waiter due first (the earliest entered of those due first); NULL
 * when the queue is empty. */
struct sim_waiter *sim_wakeq_first(void);
int sim_wakeq_len(void);

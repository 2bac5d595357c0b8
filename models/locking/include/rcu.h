/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rcu: non-preemptible RCU's grace periods, from quiescent states.
 *
 * synchronize_rcu() returns once every CPU has passed a quiescent state after
 * it was called: a context switch, being idle, or a tick that finds it in user
 * mode. So its latency comes out of the model: what the CPUs are doing, how
 * often they switch, the tick rate. synchronize_rcu_expedited() sends an IPI
 * to every other CPU instead; each reports at once unless it is in a
 * read-side critical section (preemption disabled: rcu_read_lock, or a
 * spinlock held), and then when it leaves it. */
#pragma once
#include "sim_engine.h"
#include <jansson.h>

/* Set up RCU for the run; @tick: the interrupt source that is the scheduler
 * tick (-1 when the machine has none: then only switches and idle count). */
void rcu_init(int tick);
void rcu_fini(void);
bool rcu_active(void);

void rcu_read_lock(struct sim_task *t);
void rcu_read_unlock(struct sim_task *t);
void synchronize_rcu(struct sim_task *t);
void synchronize_rcu_expedited(struct sim_task *t);

/* Grace periods and their latency (call to return), for the result. */
json_t *rcu_stats_json(void);

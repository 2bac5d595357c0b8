/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lockdep: the kernel's lock validator, for the two checks locking designs
 * get wrong: irq-safety (a lock taken in a hardirq handler and elsewhere with
 * interrupts on) and lock order (A then B in one path, B then A in
 * another). Findings are reported in lockdep's own shape. A self-deadlock
 * that actually happens (a handler spinning on a lock its CPU's interrupted
 * task holds) stops the run: the result carries the report and the run exits
 * with status 1. */
#pragma once
#include "lock_stat.h"
#include "sim_engine.h"

void lockdep_reset(void);
void lockdep_fini(void);
/* At each acquisition attempt, with the interrupt state it is made in. A
 * trylock cannot deadlock: it adds no ordering (it is still held). */
void lock_acquire(struct sim_task *t, struct lock_class *cls, const char *site, bool trylock);
void lock_release(struct sim_task *t, struct lock_class *cls);
/* @t waited @wait for @cls (just acquired): a convoy of every other lock
 * it holds (lock_stat_convoy). */
void lockdep_convoys(struct sim_task *t, const struct lock_class *cls, sim_time_t wait);
/* A handler on @t's CPU spins on @cls, which @t itself holds at @holder_site. */
void lockdep_self_deadlock(struct sim_task *t, struct lock_class *cls, const char *site,
			   const char *holder_site) G_GNUC_NORETURN;
/* The order lockdep has seen: was @to taken while @from was held? */
bool lockdep_depends(struct lock_class *from, struct lock_class *to);
/* The reports of the run so far, one multi-line string each. */
GPtrArray *lockdep_reports(void);
bool lockdep_deadlocked(void);

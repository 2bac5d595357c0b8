/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sim_smt: SMT sibling threads sharing their core (machine.smt_throughput).
 *
 * On a machine of more than one thread a core, with contention "queued"
 * (sim_machine.h), a core whose k threads are busy delivers
 *
 *     f_k = 1 + (k - 1) (f - 1)
 *
 * threads' worth of work, f = smt_throughput (two threads: f; the 2-thread
 * factor generalised linearly, so f = 2 is no sharing at any k). Each of
 * the k threads runs at f_k / k of its solo speed: a busy charge (user, sys,
 * irq) on a CPU whose core has k busy threads takes k / f_k as long,
 * charged in its own category. Spin time is never stretched (its length is
 * the holder's), but a spinning CPU is busy: it slows the holder on its
 * core. An idle CPU is not busy.
 *
 * The approximation: tasks run ahead of the engine (sim_engine.h), so k is
 * read from the engine's state when the charge is made: the siblings whose
 * CPUs have a current task (running, spinning, or an interrupt task) at
 * the engine's time, not over the charge's own span. Deterministic, and
 * exact while the siblings stay as they are for the charge's length.
 *
 * A sibling spinning for a spinlock (the lock model says when, with
 * sim_smt_spin) may take more of the core than a working one
 * (machine.smt_spin_throughput, f_s; 0 is f): it adds f_s - 1 to f_k where
 * a working sibling adds f - 1. Spinning is read at the engine's time too. */
#pragma once
#include "sim_machine.h"
#include <stdbool.h>

/* For sim_engine_init: the machine's cores and factor; @stop_at as the
 * engine's (0: a run to completion); @now the engine's time (sim_now). */
void sim_smt_init(const struct sim_machine *m, sim_time_t stop_at, sim_time_t (*now)(void));
void sim_smt_fini(void);
/* Does the run share cores (contention "queued", threads_per_core > 1)? */
bool sim_smt_active(void);
/* The engine says when @cpu gets a task and when it goes idle: its
 * siblings' stretch reads it at every charge. */
void sim_smt_busy(int cpu, bool busy);
/* How long a busy charge of @d on @cpu, made at @at (the task's clock),
 * takes: @d x k / f_k rounded to the nearest picosecond (halves away from
 * zero), or @d; which siblings spin, at the engine's time. */
sim_time_t sim_smt_stretch(int cpu, sim_time_t d, sim_time_t at);
/* @cpu's task waits for a spinlock from @from until @until (SIM_TIME_MAX:
 * until told again); nothing unless smt_spin_throughput differs. */
void sim_smt_spin(int cpu, sim_time_t from, sim_time_t until);
/* The time the run's charges gained, summed over CPUs: every stretched
 * charge made before the run's end, in full. */
sim_time_t sim_smt_stretch_total(void);

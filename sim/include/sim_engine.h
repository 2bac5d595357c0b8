/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sim_engine: the thin layer over SimGrid.
 *
 * A simulation is one machine (CPUs grouped in NUMA nodes, generated as a
 * SimGrid platform), tasks (SimGrid actors) placed on CPUs, and per-CPU time
 * accounting by category. One simulation per process, as SimGrid allows.
 *
 * Tasks do not call SimGrid for every cost. A task keeps its own clock, which
 * runs ahead of the engine's as costs are charged (sim_task_charge); it only
 * sleeps (sim_task_flush) before it reads or writes state shared with other
 * tasks, so that every shared-state change happens at its exact simulated
 * time while consecutive costs cost one engine call.
 *
 * A flush makes no engine call either when no other actor can run before the
 * task's clock (every other one sleeps until later or waits to be woken):
 * it would run next in any case, so its clock becomes the engine's at once
 * (the lookahead, sim_wakeq.h). Results are the same bytes with it and
 * without it; only the engine calls differ. Otherwise the task hands the
 * processor to the actor due first (sim_sched.h: SimGrid's semaphores; with
 * MEMCGSIM_ENGINE=sleep, SimGrid's timed sleeps, as before 0.1.0+).
 *
 * The rule for models: flush before writing shared state or taking a lock
 * (the lock functions do it); a lockless read (a counter the kernel reads
 * racily) may run ahead of the engine by the task's pending time, as a
 * racy read may see an older value. */
#pragma once
#include "sim_machine.h"
#include "sim_time.h"
#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

/* Where a CPU's time goes. "unexplained": the part of a flat per-call cost
 * above the bottom-up bound of the private work it stands for
 * (machine.private_ns, cost_charge_flat): time a fit put in a constant that
 * the model's mechanisms do not account for. */
enum sim_cat {
	SIM_CAT_USER,
	SIM_CAT_SYS,
	SIM_CAT_SPIN,
	SIM_CAT_IRQ,
	SIM_CAT_IDLE,
	SIM_CAT_UNEXPLAINED,
	SIM_CAT_N
};
extern const char *const sim_cat_names[SIM_CAT_N];

struct sim_task;
typedef void (*sim_task_fn)(struct sim_task *t, void *arg);

/* @stop_at: end of the run in simulated time, or 0 to run until every task
 * has returned, but no longer than @limit. */
void sim_engine_init(const struct sim_machine *m, sim_time_t stop_at, sim_time_t limit,
		     uint64_t seed);
/* Interrupt sources of the run (sim_irq.h), before it starts; the engine
 * keeps the pointer. */
struct sim_irq_source;
void sim_engine_irqs(struct sim_irq_source *sources, int n);
/* Returns false when a run to completion hit its limit with tasks left. */
bool sim_engine_run(void);
void sim_engine_fini(void);

const struct sim_machine *sim_machine(void);
int sim_ncpus(void);
int sim_cpu_node(int cpu);
/* The machine-wide core and LLC domain of @cpu; the number of domains. */
int sim_cpu_core(int cpu);
int sim_cpu_llc(int cpu);
int sim_cpu_socket(int cpu);
int sim_nllcs(void);
/* The first CPU of LLC domain @llc. */
int sim_llc_cpu(int llc);
/* How far a cache line travels from CPU @from to CPU @to. */
enum sim_hop sim_cpu_hop(int from, int to);
uint64_t sim_seed(void);
sim_time_t sim_now(void);
/* Simulated time at which the run ended (valid after sim_engine_run). */
sim_time_t sim_end(void);
sim_time_t sim_stop_at(void);
sim_time_t sim_cpu_time(int cpu, enum sim_cat cat);
/* Engine calls the layer has made so far: hand-overs (sim_sched.h), or
 * under MEMCGSIM_ENGINE=sleep SimGrid's sleeps, blocks and wakes. */
uint64_t sim_engine_calls(void);
/* Flushes that made no engine call: no other actor could run before the
 * task's clock (sim_task_flush). With MEMCGSIM_NO_LOOKAHEAD set in the
 * environment every flush sleeps, which must change no result. */
uint64_t sim_engine_flushes_skipped(void);
/* CPU-local acquisitions (spin_lock_set_local): taken at the task's clock
 * without a flush, so without an engine call. False with MEMCGSIM_NO_LOCAL
 * set in the environment: every acquisition flushes, as any lock's does.
 * An inversion is an arrival, processed after such an acquisition, that
 * came earlier in simulated time and so queued behind it: the error such a
 * lock allows, counted (sim_engine_inversions) and reported with the run. */
bool sim_local_ok(void);
void sim_note_local(bool inversion);
uint64_t sim_engine_local(void);
uint64_t sim_engine_inversions(void);
/* @t never moves to another CPU: a kernel thread bound to its CPU or node
 * (kthread_bind, set_cpus_allowed_ptr), here to the CPU it was created on. */
void sim_task_bind(struct sim_task *t);
/* Tasks moved to another CPU so far (machine.migration, sim_balance.h). */
uint64_t sim_engine_migrations(void);
/* While the run goes on, write the simulated time it has reached ("NS\n",
 * in ns) to @fd about every SIM_PROGRESS_US of wall time (-1: never). The
 * check rides on the engine calls the run makes anyway and makes none, so
 * the run's results do not depend on it. Survives sim_engine_init. */
#define SIM_PROGRESS_US 200000
void sim_engine_progress_fd(int fd);
/* A run to completion's work, for its ETA: workloads add the units they
 * plan at setup (memhog: its pages) and the units done as they go; the
 * report then says "NS SHARE\n", SHARE the part done (0 to 1). Nothing in
 * the simulation reads them; the run's batches of equal work follow them
 * (sim_batch.h). */
void sim_work_plan(long units);
void sim_work_done(long units);
/* A task has done all the work it planned and begins its exit: the first
 * such ends the run's steady part (sim_batch_steady). */
void sim_work_exit(void);

struct sim_task *sim_task_create(const char *name, int cpu, sim_task_fn fn, void *arg);
/* The same, the name from @fmt ("memhog.%d.%d"). */
struct sim_task *sim_task_createf(int cpu, sim_task_fn fn, void *arg, const char *fmt, ...)
    G_GNUC_PRINTF(4, 5);
const char *sim_task_name(const struct sim_task *t);
int sim_task_cpu(const struct sim_task *t);
sim_time_t sim_task_clock(const struct sim_task *t);
/* True once the task's clock has passed the end of a timed run. */
bool sim_task_should_stop(const struct sim_task *t);

/* Spend @d on the task's CPU in category @cat, not preemptible; busy work
 * (not spin or idle) takes longer while SMT siblings share the core
 * (sim_smt.h). */
void sim_task_charge(struct sim_task *t, enum sim_cat cat, sim_time_t d);
/* Spend @d in @cat stalled on memory (a cache line's transfer, or its wait
 * behind other requests for it): as sim_task_charge, but never stretched
 * by SMT siblings, whose work does not delay the line's arrival. */
void sim_task_stall(struct sim_task *t, enum sim_cat cat, sim_time_t d);
/* @d of what @t will charge next as busy work (sim_task_charge, _split,
 * _run, in that order, up to their length) is a stall on cache lines, which
 * a model summed with other costs before charging them: that part is not
 * stretched by SMT. Spin and idle charges leave it for the next busy one. */
void sim_task_stall_next(struct sim_task *t, sim_time_t d);
/* Spend @d in category @cat, preemptible at time-slice ends when other tasks
 * wait for this CPU and the task holds no spinlock. */
void sim_task_run(struct sim_task *t, enum sim_cat cat, sim_time_t d);
/* The same two with @d in @cat followed by @rest in @rest_cat, timed as one
 * stretch of @d + @rest would be (the same SMT stretch, slices and
 * interrupts): only the accounting is split. */
void sim_task_charge_split(struct sim_task *t, enum sim_cat cat, sim_time_t d,
			   enum sim_cat rest_cat, sim_time_t rest);
void sim_task_run_split(struct sim_task *t, enum sim_cat cat, sim_time_t d, enum sim_cat rest_cat,
			sim_time_t rest);
/* Bring the engine's clock up to the task's clock. */
void sim_task_flush(struct sim_task *t);
/* Block keeping the CPU (spinning): the time until sim_task_wake() is
 * charged to @cat. The caller must have flushed. */
void sim_task_block(struct sim_task *t, enum sim_cat cat);
/* Sleep off the CPU for @d (the CPU idles or runs another task), then wait
 * for the CPU again. */
void sim_task_sleep(struct sim_task *t, sim_time_t d);
void sim_task_wake(struct sim_task *t);
void sim_task_preempt_disable(struct sim_task *t);
/* local_irq_disable / local_irq_enable (nesting); enabling runs the pending
 * interrupts' handlers. */
void sim_task_irq_disable(struct sim_task *t);
void sim_task_irq_enable(struct sim_task *t);
bool sim_task_in_irq(const struct sim_task *t);
/* In a handler: the category of the work it interrupted (user, sys ...). */
enum sim_cat sim_task_interrupted_cat(const struct sim_task *t);
int sim_task_preempt_count(const struct sim_task *t);
/* When the task's last preemption-off section ended, in its own time: a
 * planned critical section ends ahead of the engine's clock. */
sim_time_t sim_task_preempt_off_until(const struct sim_task *t);
bool sim_cpu_idle(int cpu);
struct sim_task *sim_cpu_curr(int cpu);
/* The clock of @cpu's current task, or the engine's time when it is idle. */
sim_time_t sim_cpu_clock(int cpu);
/* Wait off the CPU until sim_task_wake(), then wait for the CPU again. */
void sim_task_wait(struct sim_task *t);
/* Hooks for RCU: a CPU leaves its task (a context switch, or going idle);
 * a task's preemption count drops to zero. */
void sim_engine_on_switch(void (*hook)(int cpu));
void sim_engine_on_preempt_enable(void (*hook)(struct sim_task *t));
bool sim_task_irqs_enabled(const struct sim_task *t);
/* A slot for the models' per-task state, g_free'd with the task. */
void **sim_task_model(struct sim_task *t);
/* The cgroup a task runs in, as the model that made it numbers its cgroups
 * (the memcg's id; 0, every task's at first, the root): what a per-memcg
 * lock what-if takes its lock by (lock_whatif.h). */
void sim_task_set_group(struct sim_task *t, int group);
int sim_task_group(const struct sim_task *t);
/* Stop the run now (a model found a deadlock): every actor is killed and
 * sim_engine_run returns false. Called from a task; does not return. */
void sim_engine_abort(void) G_GNUC_NORETURN;
bool sim_engine_aborted(void);
void sim_task_preempt_enable(struct sim_task *t);

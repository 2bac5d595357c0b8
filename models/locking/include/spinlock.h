/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spinlock: a queued spinlock (qspinlock) model.
 *
 * Waiters are granted the lock in FIFO order (the MCS queue). Taking the lock
 * costs lock_acquire_release_ns plus moving its cache line from wherever it
 * was last (same CPU, same node, other node); a contended waiter spins, which
 * is CPU time (category spin), until the holder ahead of it releases and the
 * line arrives. Preemption is off while a task spins or holds the lock.
 *
 * Two ways to hold a lock:
 *  - spin_lock_hold(): a critical section that is a known amount of work.
 *    The whole acquire / hold / release is planned at arrival, so an
 *    uncontended or contended acquisition costs the engine nothing beyond the
 *    task's next sleep.
 *  - spin_lock() ... spin_unlock(): a critical section that does things (takes
 *    other locks, reads shared state) and so ends at a time nobody can know in
 *    advance. Waiters behind it block in the engine until it releases.
 * Both can be mixed on one lock; the grant order stays FIFO. */
#pragma once
#include "cacheline.h"
#include "lock_stat.h"
#include "mcs_named.h"
#include "sim_engine.h"

enum spin_flavour {
	SPIN_PLAIN,   /* spin_lock */
	SPIN_IRQ,     /* spin_lock_irq: interrupts off from before the wait to release */
	SPIN_IRQSAVE, /* spin_lock_irqsave: as _irq, plus the flags save/restore cost */
};

struct spin_entry;

struct spinlock {
	struct lock_class *cls;
	struct spin_entry *head; /* current holder (or the one the line is moving to) */
	struct spin_entry *tail; /* last in FIFO order */
	int len;		 /* entries from head to tail */
	struct cacheline *line;	 /* the lock word's line: own, or a structure's */
	struct cacheline own;
	int spinner; /* a planned hold's section: the CPU taken to spin on it */
	/* A bit spinlock (bit_spin_lock): taken by test_and_set_bit_lock and
	 * released by clear_bit_unlock, two locked RMWs, in place of the
	 * spinlock's lock and unlock instructions. */
	bool bit;
	/* spin_lock_set_local: its users are, almost always, one CPU's tasks */
	bool local;
	bool unflushed; /* taken so, and no flush since: the first access in its
			 * section to another CPU's line flushes */
	struct spin_entry *free_entries;
};

/* A spinlock implementation: how the lock passes from a holder to the next
 * waiter. @transfer is the lock word's line moving between them, @waiters
 * the CPUs spinning for it (the next holder among them). */
struct spinlock_ops {
	MCS_NAMED;
	sim_time_t (*handoff)(sim_time_t transfer, int waiters);
	/* The other spinners' fetches of the word per handoff (traffic the
	 * cache-line report counts; their time is the spinners'). */
	int (*reloads)(int waiters);
	/* machine.contention "queued": the slow path's own line accesses.
	 * arrive: @e finds the lock taken at @at, behind @pred with @ahead
	 * waiters before it; returns what its accesses cost it then. take: the
	 * lock is released by @pred at @release and passes to @e; returns the
	 * time from the release to @e's grant (the lock instructions aside). */
	sim_time_t (*arrive)(struct spinlock *l, const struct spin_entry *e,
			     const struct spin_entry *pred, int ahead, sim_time_t at);
	sim_time_t (*take)(struct spinlock *l, const struct spin_entry *e,
			   const struct spin_entry *pred, int ahead, sim_time_t release);
};

/* The implementations a scenario chooses from (kernel.spinlock). */
extern const struct mcs_named *const spinlock_impls[];
/* The implementation of the run (qspinlock unless set); NULL also forgets
 * the added holds. */
void spinlock_use(const struct spinlock_ops *ops);
/* Every critical section of lock class @cls (taken at @site, or anywhere
 * when NULL) holds @d longer (kernel.critical_section_extra). */
void spinlock_add_hold(const char *cls, const char *site, sim_time_t d);
/* kernel.debug_locks: a debug kernel's bookkeeping on every acquisition,
 * before it (lockdep_acquire_ns) and inside the hold (lockdep_release_ns,
 * plus lock_stat_ns under lock_stat). */
enum { SPIN_DEBUG_NONE, SPIN_DEBUG_LOCKDEP, SPIN_DEBUG_LOCK_STAT };
void spinlock_debug(int mode);
/* kernel.vm: a paravirt unlock (a locked RMW in every hold) and, with
 * @steal > 0, a holder descheduled for @deschedule with probability
 * steal x hold / deschedule per hold (per-CPU streams of the run's seed):
 * the hold lasts that much longer, charged as idle (stolen) time. */
void spinlock_vm(bool pv, double steal, sim_time_t deschedule);

void spin_lock_init(struct spinlock *l, struct lock_class *cls);
/* A lock whose word sits in @line with other fields (struct list_lru_node's
 * lock, list head and nr_items). */
void spin_lock_init_in(struct spinlock *l, struct lock_class *cls, struct cacheline *line);
/* An access by the holder of @l to @line during its critical section: when
 * @line is the lock word's and a waiter spins on it, the waiter's read comes
 * first, so a store pays the transfer back. A planned hold's waiter is not
 * known yet; the CPU that waited before the holder stands for it. The
 * holder's access is a stall of its next busy charge (sim_task_stall_next),
 * which is where the caller charges the returned cost. */
sim_time_t spin_held_access(struct sim_task *t, struct spinlock *l, struct cacheline *line,
			    enum line_op op, const char *site);
void spin_lock_destroy(struct spinlock *l);
/* A lock the kernel keeps to one CPU's tasks almost always (a swap
 * cluster's, a swap address space's xarray, a zram slot's): while its word's
 * line is this CPU's and nobody holds it, a planned hold is taken at the
 * task's clock without waiting for the other CPUs to catch up (no engine
 * call). Another CPU's arrival that is earlier in simulated time, processed
 * later, queues behind it: an inversion, counted (sim_note_local). */
void spin_lock_set_local(struct spinlock *l);

/* Acquire @l, hold it for @hold charged to @cat, release it. @site names the
 * model function taking the lock (a contention point). */
void spin_lock_hold(struct sim_task *t, struct spinlock *l, sim_time_t hold, enum sim_cat cat,
		    enum spin_flavour fl, const char *site);

/* A critical section whose length comes from what it does: called once the
 * lock is planned to be granted (lock order), it makes the section's cache
 * line accesses as @t's CPU and returns the section's length. */
typedef sim_time_t (*spin_section_fn)(struct sim_task *t, void *arg);
void spin_lock_hold_fn(struct sim_task *t, struct spinlock *l, spin_section_fn section, void *arg,
		       enum sim_cat cat, enum spin_flavour fl, const char *site);

/* Acquire @l for a critical section of unknown length; returns at the grant
 * time (the task's clock), flushed. */
struct spin_entry *spin_lock(struct sim_task *t, struct spinlock *l, enum spin_flavour fl,
			     const char *site);
void spin_unlock(struct sim_task *t, struct spinlock *l, struct spin_entry *held);
/* Take @l only if it is free at the task's time; NULL otherwise. */
struct spin_entry *spin_trylock(struct sim_task *t, struct spinlock *l, enum spin_flavour fl,
				const char *site);
bool spin_is_locked(struct spinlock *l, sim_time_t at);

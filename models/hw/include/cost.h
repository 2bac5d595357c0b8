/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cost: the models' cost table. Every cost a model charges is a scenario
 * parameter, machine.costs.<key> in ns, with a documented default and its
 * source (docs/costs.md). The loader puts a run's values into its machine's
 * cost slots (struct sim_machine.cost, indexed by these ids), and models read
 * them with cost(). To add a cost: an id here, its row in cost.c, then charge
 * cost(COST_<ID>) where the kernel path spends it.
 *
 * The engine's own cost, the context switch, is a row here too (its key is a
 * machine.costs key like the others); the loader hands its value to the
 * engine as sim_machine.context_switch. */
#pragma once
#include "sim_engine.h"

enum cost_id {
	COST_LOCK_ACQ_REL,	/* uncontended spin_lock + spin_unlock */
	COST_LINE_SAME_CPU,	/* an access to a line this CPU's cache holds */
	COST_LINE_SMT,		/* ... to a line its SMT sibling holds modified */
	COST_LINE_LLC,		/* ... another core of its LLC domain */
	COST_LINE_SOCKET,	/* ... a core of another LLC domain of its socket */
	COST_LINE_REMOTE,	/* ... a core of another socket */
	COST_LLC_HIT,		/* a clean line in its LLC domain */
	COST_DRAM_LOCAL,	/* a line no cache holds, from its node's memory */
	COST_DRAM_REMOTE,	/* ... from another node's memory */
	COST_LOCKED_RMW,	/* a locked read-modify-write on a line in L1 */
	COST_PREEMPT,		/* preempt_disable + preempt_enable */
	COST_IRQ_SAVE_RESTORE,	/* local_irq_save + local_irq_restore */
	COST_CONTEXT_SWITCH,	/* switching a CPU between tasks: charged by the engine */
	COST_XA_NODE_FREE,	/* xa_delete_node of a shadow node */
	COST_MEMSET_PAGE,	/* user time writing one 4 KiB page */
	COST_ANON_FAULT,	/* kernel time of one anonymous page fault */
	COST_RECLAIM_PAGE,	/* shrink_folio_list work per page, not counting the below */
	COST_ZRAM_WRITE,	/* compressing and storing one page in zram */
	COST_SHRINKER_CALL,	/* one do_shrink_slab call: count_objects and setup */
	COST_RECLAIM_FILE_PAGE, /* dropping one clean, unmapped page-cache page */
	COST_FILE_READ,		/* open + read + close of one small cached-miss file */
	COST_DENTRY_FREE,	/* __dentry_kill: unhash and free one dentry */
	COST_INODE_FREE,	/* evict + destroy_inode of one clean inode */
	COST_RCU_READ_LOCK,	/* rcu_read_lock + rcu_read_unlock */
	COST_IPI,		/* sending one IPI (synchronize_rcu_expedited) */
	COST_READ_FAULT,	/* a read fault on a cached file page, MEMCG=n */
	COST_MEMCG_PAGE_STAT,	/* mem_cgroup_update_page_stat's work, lock excluded */
	COST_MEMCG_COMMIT,	/* a page's memcg work in a fault and unmap, counters excluded */
	COST_MEMCG_SKMEM,	/* mod_memcg_state(MEMCG_SOCK) of a socket charge or uncharge */
	COST_NET_MSG,		/* one side's work for one message over loopback TCP */
	COST_ZAP_PAGE,		/* unmapping and freeing one anonymous page at munmap */
	COST_PAGE_ALLOC_ZERO,	/* allocating and zeroing one page (a sparse file's hole) */
	COST_FILE_READ_PAGE,	/* read() of 4 KiB from a cached page: syscall, lookup, copy */
	/* kernel.debug_locks only (a debug kernel's bookkeeping per acquisition): */
	COST_LOCKDEP_ACQUIRE, /* lock_acquire, before the lock is taken */
	COST_LOCKDEP_RELEASE, /* lock_release and DEBUG_SPINLOCK's checks, inside the hold */
	COST_LOCK_STAT,	      /* lock_stat's lock_acquired and hold accounting, inside */
	/* machine.contention "queued" only (cacheline.h): */
	COST_LINE_QUEUE_LLC,	/* a queued request's service, from the LLC domain, 2 queued */
	COST_LINE_QUEUE_DEEP,	/* ... the same as the queue grows without bound */
	COST_LINE_QUEUE_SOCKET, /* ... the line's move to another LLC domain of the socket */
	COST_LINE_QUEUE_REMOTE, /* ... the line's move to another socket */
	COST_LINE_INVAL,	/* a store's invalidation of each further sharer in its LLC */
	/* machine.contention "transfer" only (cacheline.h): */
	COST_LINE_PILEUP, /* what each request pending ahead adds to a line's service */
	COST_LINE_HOME,	  /* a queued service's wait at the home for probe responses */
	COST_LINE_ISSUE,  /* the spacing of independent misses a core overlaps */
	COST_N
};

/* The costs only machine.contention "queued" and "transfer" use: a cost draw
 * leaves them alone under "idle". */
static inline bool cost_queued_only(enum cost_id id)
{
	return id >= COST_LINE_QUEUE_LLC && id <= COST_LINE_ISSUE;
}

/* The one flat cost charged as user time (memhog's memset_page_ns); every
 * other cost_charge_flat and cost_run_flat charges sys. */
static inline bool cost_charged_as_user(enum cost_id id)
{
	return id == COST_MEMSET_PAGE;
}

/* @n calls of the flat cost @id charged to @t: as @cat up to the bound of
 * its private work (machine.private_ns), the rest as unexplained time
 * (SIM_CAT_UNEXPLAINED). With no bound, all of it as @cat. */
void cost_charge_flat(struct sim_task *t, enum sim_cat cat, enum cost_id id, long n);
/* The same with sim_task_run (a stretch of work that interrupts and
 * preemption may split). */
void cost_run_flat(struct sim_task *t, enum sim_cat cat, enum cost_id id, long n);

/* Indexed by enum cost_id. */
extern const struct sim_cost_desc cost_table[COST_N];
/* The most a machine.costs value may be, ns (a second: no modelled step
 * takes longer). */
#define COST_MAX_NS 1e9

/* The range a preset gives a cost (docs/hardware.md); lo == hi == 0: the
 * cost is exact. A cost draw moves only the costs whose hi > lo. */
struct cost_range {
	sim_time_t lo, hi;
};

/* Does @r give its cost a range to draw from? */
static inline bool cost_range_drawn(const struct cost_range *r)
{
	return r->hi > r->lo;
}

/* Cost draws (docs/hardware.md, "Uncertainty"): draw @draw sets every cost
 * with a range to lo + u (hi - lo), rounded to the picosecond, where u in
 * [0, 1) is the first uniform of the random stream "cost_draw.<draw>.<key>"
 * of @seed (sim_rng). @seed is the scenario's, never a variant's: every
 * variant of a draw takes the same quantile u of each cost, whatever its
 * preset (a paired comparison). */
double cost_draw_quantile(uint64_t seed, int draw, enum cost_id id);
void cost_draw(struct sim_machine *m, const struct cost_range *range, uint64_t seed, int draw);

/* A cost of the running simulation's machine. */
static inline sim_time_t cost(enum cost_id id)
{
	return sim_machine()->cost[id];
}

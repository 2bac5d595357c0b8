// SPDX-License-Identifier: GPL-2.0-or-later
#include "cost.h"
#include "sim_rng.h"
#include <glib.h>
#include <math.h>

G_STATIC_ASSERT(COST_N <= SIM_MACHINE_MAX_COSTS);

#define PERFBOOK "perfbook cpu/overheads.tex, Xeon Platinum 8176 @ 2.1 GHz"

const struct sim_cost_desc cost_table[COST_N] = {
    [COST_LOCK_ACQ_REL] = {"lock_acquire_release_ns", 15.4,
			   "uncontended spin_lock + spin_unlock on the same CPU",
			   PERFBOOK ", same-CPU lock acquire + release"},
    [COST_LINE_SAME_CPU] = {"line_same_cpu_ns", 0.0,
			    "an access to a cache line this CPU holds (beyond its instruction)",
			    "an L1 hit overlaps the instruction: 0"},
    [COST_LINE_SMT] = {"line_smt_ns", 7.2, "an access to a line the SMT sibling holds modified",
		       PERFBOOK ", same core (hyperthread), blind CAS"},
    [COST_LINE_LLC] = {"line_llc_ns", 47.5,
		       "an access to a line another core of the LLC domain holds modified",
		       PERFBOOK ", other core same socket, blind CAS"},
    [COST_LINE_SOCKET] = {"line_socket_ns", 47.5,
			  "an access to a line a core of another LLC domain of the socket "
			  "holds (AMD CCX to CCX)",
			  "Intel server parts have one LLC per socket: as line_llc_ns"},
    [COST_LINE_REMOTE] = {"line_remote_ns", 148.8,
			  "an access to a line a core of another socket holds modified",
			  PERFBOOK ", other socket, blind CAS"},
    [COST_LLC_HIT] = {"llc_hit_ns", 26.0, "a load of a clean line from the LLC domain",
		      "AnandTech's LMBench table for Skylake-SP: 54-56 cycles at 2.1 GHz "
		      "(docs/hardware.md)"},
    [COST_DRAM_LOCAL] = {"dram_local_ns", 81.0,
			 "an access to a line no cache holds, from local memory",
			 "Intel MLC latency matrices of 2-socket Skylake-SP and Cascade Lake "
			 "(FD.io CSIT, KU Leuven): 72.7-81.5 ns (docs/hardware.md)"},
    [COST_DRAM_REMOTE] = {"dram_remote_ns", 140.0,
			  "an access to a line no cache holds, from another node's memory",
			  "the same MLC matrices: 130-145 ns (docs/hardware.md)"},
    [COST_LOCKED_RMW] = {"locked_rmw_ns", 7.0,
			 "a locked read-modify-write (cmpxchg, xadd, bts) on a line in L1",
			 PERFBOOK ", same-CPU compare-and-swap"},
    [COST_PREEMPT] = {"preempt_ns", 0.0, "preempt_disable + preempt_enable",
		      "CONFIG_PREEMPT_NONE without preempt counting: compiler barriers, 0"},
    [COST_IRQ_SAVE_RESTORE] = {"irq_save_restore_ns", 7.5,
			       "local_irq_save + local_irq_restore pair",
			       "pushf/pop/cli + popf ~23 cycles (D. Vlasenko, LKML "
			       "2016-08-17); brief's 5-10 ns range, midpoint"},
    [COST_CONTEXT_SWITCH] = {"context_switch_ns", 0.0, "switching a CPU between two runnable tasks",
			     "not in the brief's sources: 0 until calibrated"},
    [COST_XA_NODE_FREE] = {"xa_node_free_ns", 200.0,
			   "xa_delete_node of a shadow-only node and its slab free",
			   "estimate: 64 slot clears in one line-local node plus a free; "
			   "see docs/calibration.md"},
    [COST_MEMSET_PAGE] = {"memset_page_ns", 250.0, "user time of writing one 4 KiB page",
			  "fitted: memhog benchmark user time 4.2 s / (64 x 1 GiB / 4 KiB)"},
    [COST_ANON_FAULT] = {"anon_fault_ns", 1000.0,
			 "kernel time of one anonymous page fault, charge excluded",
			 "estimate; see docs/calibration.md"},
    [COST_RECLAIM_PAGE] = {"reclaim_page_ns", 2000.0,
			   "shrink_folio_list work per page (rmap walk, unmap, TLB "
			   "flush), locks and compression excluded",
			   "fitted to the memhog per-cgroup figures; see docs/calibration.md"},
    [COST_ZRAM_WRITE] = {"zram_write_ns", 5000.0, "compressing and storing one 4 KiB page in zram",
			 "fitted to the memhog per-cgroup figures; see docs/calibration.md"},
    [COST_SHRINKER_CALL] = {"shrinker_call_ns", 100.0,
			    "one do_shrink_slab call: count_objects and set-up",
			    "estimate: a few cache misses; see docs/calibration.md"},
    [COST_RECLAIM_FILE_PAGE] = {"reclaim_file_page_ns", 1000.0,
				"dropping one clean, unmapped page-cache page "
				"(isolate excluded)",
				"estimate: a page free plus a few cache misses; see "
				"docs/calibration.md"},
    [COST_FILE_READ] = {"file_read_ns", 20000.0,
			"path walk, inode read from the ramdisk, open, read of one "
			"page, close: one small file not in cache",
			"fitted to the inode/dentry benchmark's per-node figures; see "
			"docs/calibration.md"},
    [COST_DENTRY_FREE] = {"dentry_free_ns", 300.0, "__dentry_kill: unhash, d_lock, free one dentry",
			  "estimate: a few cache misses; see docs/calibration.md"},
    [COST_INODE_FREE] = {"inode_free_ns", 1000.0,
			 "evict and destroy one clean inode (XFS inode reclaim)",
			 "estimate; see docs/calibration.md"},
    [COST_RCU_READ_LOCK] = {"rcu_read_lock_ns", 0.0,
			    "what rcu_read_lock + rcu_read_unlock add to the preempt_disable "
			    "pair (preempt_ns) they include",
			    "CONFIG_PREEMPT=n: nothing, 0 ns (perfbook); "
			    "preemptible RCU about 3 ns: set it for that flavour"},
    [COST_IPI] = {"ipi_ns", 1000.0,
		  "sending one IPI and its acknowledgement (expedited grace periods)",
		  "estimate, not in the brief's sources: about 1 us"},
    [COST_READ_FAULT] = {"read_fault_ns", 1787.4, "a read fault on a cached file page with MEMCG=n",
			 "fitted: 3753.6 cycles per fault (the brief's MEMCG=n figure) "
			 "at the default 2.1 GHz"},
    [COST_MEMCG_PAGE_STAT] = {"memcg_page_stat_ns", 188.3,
			      "updating one per-memcg page statistic (FILE_MAPPED, "
			      "dirty, writeback), the lock excluded",
			      "fitted to plain locking's non-root read-fault figure; see "
			      "docs/calibration.md"},
    [COST_MEMCG_COMMIT] = {"memcg_commit_ns", 100.0,
			   "a page's memcg work in an anonymous fault and its unmap, in any "
			   "memcg (the root too): commit_charge, the page_cgroup, LRU "
			   "accounting, the uncharge's bookkeeping; the counters excluded",
			   "estimate; scenarios fit it to a root-cgroup figure "
			   "(docs/calibration.md)"},
    [COST_MEMCG_SKMEM] = {"memcg_skmem_ns", 20.0,
			  "mod_memcg_state(MEMCG_SOCK) and the socket's memcg bookkeeping, "
			  "per charge or uncharge of socket memory; the counters excluded",
			  "estimate: a per-CPU statistic and its rstat update; scenarios fit "
			  "it (docs/calibration.md)"},
    [COST_NET_MSG] = {"net_msg_ns", 3000.0,
		      "one side's work (sender or receiver) for one message over loopback "
		      "TCP, memcg excluded",
		      "estimate; scenarios fit it to a root-cgroup throughput "
		      "(docs/calibration.md)"},
    [COST_ZAP_PAGE] = {"zap_page_ns", 500.0,
		       "munmap's work per anonymous page: zap_pte_range, page_remove_rmap, "
		       "the TLB gather and the free, memcg excluded",
		       "estimate (0.2-1 us), no published source: docs/calibration.md gives "
		       "the sensitivity of the results that depend on it"},
    [COST_PAGE_ALLOC_ZERO] = {"page_alloc_zero_ns", 700.0,
			      "allocating one page from the per-CPU free lists and zeroing it "
			      "(readahead of a sparse file's hole)",
			      "estimate, no published source: about 0.2 us for the allocation "
			      "and 0.5 us to clear 4 KiB; docs/calibration.md"},
    [COST_FILE_READ_PAGE] = {"file_read_page_ns", 1000.0,
			     "a read() of 4 KiB from a cached page: the syscall, the page "
			     "cache lookup and the copy to user space",
			     "estimate, no published source: about 0.2 us of syscall and lookup "
			     "and 0.8 us of copy; docs/calibration.md"},
    [COST_LOCKDEP_ACQUIRE] = {"lockdep_acquire_ns", 80.0,
			      "kernel.debug_locks: lock_acquire's validation (chain-cache hit, "
			      "irqs saved and restored) before each spinlock acquisition",
			      "estimate, 250-400 instructions read in 6.12's "
			      "kernel/locking/lockdep.c at the preset's CPI (no per-acquisition "
			      "figure is published; a lockdep kernel builds 46-83% slower, "
			      "W. Long, LKML 2018-10-02); range 40-200; docs/calibration.md"},
    [COST_LOCKDEP_RELEASE] = {"lockdep_release_ns", 50.0,
			      "kernel.debug_locks: lock_release (find and pop the held lock, "
			      "irqs saved) and DEBUG_SPINLOCK's owner stores and checks, inside "
			      "every hold",
			      "estimate, about 150 instructions read in 6.12's lockdep.c and "
			      "spinlock_debug.c; range 25-120; docs/calibration.md"},
    [COST_LOCK_STAT] = {"lock_stat_ns", 90.0,
			"kernel.debug_locks lock_stat: lock_acquired (a local_clock read, the "
			"class's per-CPU statistics) and lock_release's hold-time accounting, "
			"inside every hold",
			"estimate: two clock reads (about 20 ns each) and two per-CPU "
			"statistics updates read in 6.12's lockdep.c; range 40-200; "
			"docs/calibration.md"},
    [COST_LINE_QUEUE_LLC] = {"line_queue_llc_ns", 18.0,
			     "contention queued: the line's service of a request that found "
			     "it busy, from a core of the same LLC domain, with two requests "
			     "queued (the locked RMW excluded)",
			     "fitted to perfbook count_atomic (Xeon Platinum 8176) and Gambhir's "
			     "fetch_add (2 x Gold 6130); docs/validation.md"},
    [COST_LINE_QUEUE_DEEP] = {"line_queue_deep_ns", 15.5,
			      "contention queued: the same service as the queue grows without "
			      "bound (the home agent overlaps the requests it holds)",
			      "fitted with line_queue_llc_ns; docs/validation.md"},
    [COST_LINE_QUEUE_SOCKET] = {"line_queue_socket_ns", 18.0,
				"contention queued: a queued request's service when the line "
				"moves to another LLC domain of the socket (AMD CCX to CCX)",
				"Intel server parts have one LLC per socket: as line_queue_llc_ns"},
    [COST_LINE_QUEUE_REMOTE] = {"line_queue_remote_ns", 66.0,
				"contention queued: a queued request's service when the line "
				"moves to another socket, two requests queued",
				"fitted with line_queue_llc_ns; docs/validation.md"},
    [COST_LINE_INVAL] = {"line_inval_ns", 7.4,
			 "contention queued: what a store or RMW to a shared line pays for "
			 "each sharer beyond the farthest, scaled by the sharer's distance "
			 "(line_<hop>_ns / line_llc_ns)",
			 "T. Downs, concurrency-hierarchy-bench, i7-6700HQ ticket spin: "
			 "107.6, 115.3, 122.3 ns a handoff with 1, 2, 3 spinners; "
			 "docs/validation.md"},
    [COST_LINE_PILEUP] = {"line_pileup_ns", 0.35,
			  "contention transfer: what each request already pending for a line "
			  "adds to the service of the next (the home agent or directory slows "
			  "as requests pile up); the line's last holder keeps it, and may use it "
			  "again, for that long after the next service begins",
			  "fitted to the skylake-sp curves (perfbook count_atomic, Gambhir's "
			  "fetch_add): every point within 25% for 0.3-0.45; docs/validation.md"},
    [COST_LINE_HOME] = {"line_home_ns", 0,
			"contention transfer: what a queued request's service takes beyond "
			"the line's way back on a machine whose home broadcasts probes and "
			"answers once every node has replied (AMD Opteron before Zen, no "
			"probe filter): the home's wait for the probe responses; 0 where a "
			"directory or snoop filter sends one snoop (every Intel preset)",
			"Opteron: half a cross-chip round trip, 51-70 ns from David, "
			"Guerraoui and Trigonakis (SOSP 2013, Table 2: 216-296 cycles at "
			"2.1 GHz for one and two hops); docs/hardware.md"},
    [COST_LINE_ISSUE] = {"line_issue_ns", 1.0,
			 "contention transfer: the spacing at which a core issues misses that do "
			 "not depend on each other (they overlap, up to LINE_MLP outstanding)",
			 "estimate: about two cycles between two independent loads or stores "
			 "leaving the core's load/store queue; range 0.4-5; docs/hardware.md"},
};

double cost_draw_quantile(uint64_t seed, int draw, enum cost_id id)
{
	char *stream = g_strdup_printf("cost_draw.%d.%s", draw, cost_table[id].key);
	struct sim_rng *rng = sim_rng_new(seed, stream);
	double u = sim_rng_uniform01(rng);
	sim_rng_free(rng);
	g_free(stream);
	return u;
}

void cost_draw(struct sim_machine *m, const struct cost_range *range, uint64_t seed, int draw)
{
	for (int i = 0; i < COST_N; i++) {
		const struct cost_range *r = &range[i];
		if (!cost_range_drawn(r))
			continue;
		double u = cost_draw_quantile(seed, draw, (enum cost_id)i);
		m->cost[i] = r->lo + (sim_time_t)llround(u * (double)(r->hi - r->lo));
	}
	m->context_switch = m->cost[COST_CONTEXT_SWITCH];
}

/* Of one call of @id: the private part (*private) and the rest. */
static sim_time_t cost_split(enum cost_id id, sim_time_t *private)
{
	sim_time_t c = cost(id), bound = sim_machine()->cost_private[id];
	*private = bound > 0 ? MIN(c, bound) : c;
	return c - *private;
}

void cost_charge_flat(struct sim_task *t, enum sim_cat cat, enum cost_id id, long n)
{
	sim_time_t private, rest = cost_split(id, &private);
	sim_task_charge_split(t, cat, n * private, SIM_CAT_UNEXPLAINED, n * rest);
}

void cost_run_flat(struct sim_task *t, enum sim_cat cat, enum cost_id id, long n)
{
	sim_time_t private, rest = cost_split(id, &private);
	sim_task_run_split(t, cat, n * private, SIM_CAT_UNEXPLAINED, n * rest);
}

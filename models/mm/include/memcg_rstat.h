/* SPDX-License-Identifier: GPL-2.0-or-later */
/* memcg_rstat: the memcg statistics' flush as the mm tree of June 2024 runs
 * it (kernel.version mm-2024-06; 6.8 to 6.11 alike, read in 6.10.0).
 *
 * Every statistic update (mod_memcg_state, mod_lruvec_state,
 * count_memcg_events) ends in memcg_rstat_updated (mm/memcontrol.c), which
 * puts the cgroup on the CPU's rstat updated list (cgroup_rstat_updated:
 * the CPU's cgroup_rstat_cpu_lock, once after each flush) and adds abs(val)
 * pages to the CPU's stats_updates of the memcg and of each ancestor; at 64
 * (MEMCG_CHARGE_BATCH) a CPU's count goes into the memcg's atomic
 * vmstats->stats_updates, unless that is already over the flush threshold,
 * 64 x online CPUs. Reclaim's set-up (prepare_scan_control, at every
 * shrink_node: each node at each priority) calls mem_cgroup_flush_stats on
 * the target, which flushes past the threshold: cgroup_rstat_flush under
 * the one global cgroup_rstat_lock (spin_lock_irq), for every possible CPU
 * its cgroup_rstat_cpu_lock (raw, irqsave) to pop the target's subtree off
 * that CPU's list, then mem_cgroup_css_rstat_flush of each popped memcg:
 * that CPU's counters read, the memcg's totals and its parent's pending
 * counts written. 6.12 flushes in reclaim only rate-limited (its periodic
 * flusher every 2 s); the model's other versions (6.12 on, and the older
 * trees of the other cases) have none of this. The periodic root flush
 * (every 2 s) is not modelled.
 *
 * The updates' private cost is in the flat costs of the paths that make
 * them; this module adds the shared part: the updated list's re-add after a
 * flush, the memcg's atomic, and the flush. */
#pragma once
#include "memcg.h"

/* Whether the run's kernel flushes this way (kernel.version mm-2024-06). */
bool memcg_rstat_active(void);
/* @units statistic pages updated for @memcg by @t's CPU (the sum of the
 * updates' abs(val)). */
void memcg_rstat_updated(struct sim_task *t, struct mem_cgroup *memcg, long units);
/* prepare_scan_control's mem_cgroup_flush_stats(@memcg). */
void mem_cgroup_flush_stats(struct sim_task *t, struct mem_cgroup *memcg);
/* memcg_tree's: set up (once the kernel section is read) and free. */
void memcg_rstat_init(int ncpus);
void memcg_rstat_free(struct mem_cgroup *memcg);
void memcg_rstat_fini(void);
/* What a memcg's flush state costs the simulator on @ncpus CPUs, for the
 * memory estimate of a run whose kernel flushes this way. */
double memcg_rstat_bytes(int ncpus);

/* The updates of one page's life on Benchmark A's path in 6.10 (read by a
 * helper in mm/memcontrol.c, rmap.c, vmscan.c, swap_state.c,
 * page-writeback.c; docs/calibration.md): the fault 4 (PGPGIN,
 * NR_ANON_MAPPED, the LRU add, PGFAULT); isolation 2 a page (the LRU,
 * PGSCAN); a page put back 1; a page swapped out 8 (MEMCG_SWAP,
 * NR_SWAPCACHE twice, NR_ANON_MAPPED, NR_WRITEBACK twice, PGPGOUT,
 * PGSTEAL). */
#define MEMCG_RSTAT_FAULT 4
#define MEMCG_RSTAT_ISOLATE 2
#define MEMCG_RSTAT_PUTBACK 1
#define MEMCG_RSTAT_SWAPOUT 8

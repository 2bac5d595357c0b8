// SPDX-License-Identifier: GPL-2.0-or-later
/* The machine presets. Every number, its range and its source are in
 * docs/hardware.md; a range is the spread between sources, or the published
 * spread. Transfer figures are one-way handoffs: a locked cmpxchg on a line
 * another core holds modified (core-to-core CAS ping-pong halved). The
 * queued services (machine.contention "queued") are cascadelake-2s's fit to
 * two Skylake-SP counter curves; the other presets' are that fit scaled by
 * their own idle transfers (line_llc_ns, line_socket_ns, line_remote_ns), not
 * measured on those machines. */
#include "preset.h"
#include <glib.h>
#include <string.h>

#define TOPOLOGY(nodes, cpus, threads, cores_llc, llc_mb, ghz)                                     \
	{"nodes", nodes, nodes, nodes, PRESET_PLAIN},                                              \
	    {"cpus_per_node", cpus, cpus, cpus, PRESET_PLAIN},                                     \
	    {"threads_per_core", threads, threads, threads, PRESET_PLAIN},                         \
	    {"cores_per_llc", cores_llc, cores_llc, cores_llc, PRESET_PLAIN},                      \
	    {"nodes_per_socket", 1, 1, 1, PRESET_PLAIN},                                           \
	    {"llc_mb", llc_mb, llc_mb, llc_mb, PRESET_PLAIN},                                      \
	{                                                                                          \
		"clock_ghz", ghz, ghz, ghz, PRESET_PLAIN                                           \
	}
/* What a core with two busy threads delivers, in threads alone (docs/hardware.md). */
#define SMT_THROUGHPUT(v, lo, hi)                                                                  \
	{                                                                                          \
		"smt_throughput", v, lo, hi, PRESET_PLAIN                                          \
	}
/* The same while one of the two spins for a spinlock (docs/hardware.md). */
#define SMT_SPIN_THROUGHPUT(v, lo, hi)                                                             \
	{                                                                                          \
		"smt_spin_throughput", v, lo, hi, PRESET_PLAIN                                     \
	}
#define NS(key, v, lo, hi)                                                                         \
	{                                                                                          \
		"costs." key, v, lo, hi, PRESET_NS                                                 \
	}
#define CYCLES(key, v, lo, hi)                                                                     \
	{                                                                                          \
		"costs." key, v, lo, hi, PRESET_CYCLES                                             \
	}
/* Kernels of every era here are built without preemption counting and with
 * non-preemptible RCU: both cost nothing, up to what a preemptible kernel
 * pays (preemptible RCU's pair, perfbook's 3 ns at 2.1 GHz: 6 cycles). */
#define KERNEL_PRIMITIVES CYCLES("preempt_ns", 0, 0, 5), CYCLES("rcu_read_lock_ns", 0, 0, 6)

/* 2 x Xeon X5650 (Westmere-EP, 2010): 6 cores, 2 threads, 12 MB L3 each. */
static const struct preset westmere_2s = {
    .name = "westmere-2s",
    .doc = "2 x Xeon X5650 (Westmere-EP, 2010): 2 x 6 cores x 2 threads, 12 MB L3, 2.67 GHz",
    .values = (const struct preset_value[]){TOPOLOGY(2, 12, 2, 6, 12, 2.67),
					    SMT_THROUGHPUT(1.65, 1.1, 1.65),
					    NS("line_smt_ns", 7.1, 7.0, 12.9),
					    NS("line_llc_ns", 37.2, 31.2, 38.2),
					    NS("line_socket_ns", 37.2, 31.2, 38.2),
					    NS("line_remote_ns", 73.7, 68.4, 95.9),
					    CYCLES("llc_hit_ns", 40, 40, 44),
					    NS("dram_local_ns", 60, 54, 66),
					    NS("dram_remote_ns", 100, 90, 110),
					    CYCLES("locked_rmw_ns", 20, 20, 34),
					    CYCLES("lock_acquire_release_ns", 71.2, 57, 85),
					    CYCLES("irq_save_restore_ns", 19, 15, 25),
					    NS("line_queue_llc_ns", 14.3, 11.9, 27.0),
					    NS("line_queue_deep_ns", 12.3, 10.3, 23.2),
					    NS("line_queue_socket_ns", 14.3, 11.9, 27.0),
					    NS("line_queue_remote_ns", 36.3, 29.4, 38.5),
					    NS("line_inval_ns", 7.4, 3.7, 14.5),
					    NS("line_pileup_ns", 0.35, 0.3, 0.45),
					    NS("line_issue_ns", 1.0, 0.4, 5.0),
					    KERNEL_PRIMITIVES,
					    {NULL, 0, 0, 0, PRESET_PLAIN}}};

/* 2 x Xeon E5-2630 v4 (Broadwell-EP, 2016): 10 cores, 2 threads, 25 MB L3. */
static const struct preset broadwell_2s = {
    .name = "broadwell-2s",
    .doc = "2 x Xeon E5-2630 v4 (Broadwell-EP, 2016): 2 x 10 cores x 2 threads, 25 MB L3, "
	   "2.2 GHz",
    .values = (const struct preset_value[]){TOPOLOGY(2, 20, 2, 10, 25, 2.2),
					    SMT_THROUGHPUT(1.65, 1.1, 1.65),
					    SMT_SPIN_THROUGHPUT(1.0, 1.0, 1.65),
					    NS("line_smt_ns", 8.2, 7.6, 12.2),
					    NS("line_llc_ns", 39.3, 33.1, 48.3),
					    NS("line_socket_ns", 39.3, 33.1, 48.3),
					    NS("line_remote_ns", 117.9, 105.2, 129.1),
					    CYCLES("llc_hit_ns", 44.5, 38, 51),
					    NS("dram_local_ns", 95, 73.8, 101),
					    NS("dram_remote_ns", 135, 130, 145),
					    CYCLES("locked_rmw_ns", 21, 18, 23),
					    CYCLES("lock_acquire_release_ns", 37, 30, 45),
					    CYCLES("irq_save_restore_ns", 23, 19, 30),
					    NS("line_queue_llc_ns", 15.1, 12.6, 28.5),
					    NS("line_queue_deep_ns", 13.0, 10.8, 24.6),
					    NS("line_queue_socket_ns", 15.1, 12.6, 28.5),
					    NS("line_queue_remote_ns", 58.0, 47.0, 61.5),
					    NS("line_inval_ns", 7.4, 3.7, 14.5),
					    NS("line_pileup_ns", 0.25, 0.0, 0.55),
					    NS("line_issue_ns", 1.0, 0.4, 5.0),
					    KERNEL_PRIMITIVES,
					    {NULL, 0, 0, 0, PRESET_PLAIN}}};

/* 2 x Xeon Gold 6230R (Cascade Lake, 2020): 26 cores, 2 threads, 35.75 MB L3. */
static const struct preset cascadelake_2s = {
    .name = "cascadelake-2s",
    .doc = "2 x Xeon Gold 6230R (Cascade Lake, 2020): 2 x 26 cores x 2 threads, 35.75 MB L3, "
	   "2.1 GHz",
    .values = (const struct preset_value[]){TOPOLOGY(2, 52, 2, 26, 35.75, 2.1),
					    SMT_THROUGHPUT(1.65, 1.1, 1.65),
					    /* warm kernel C on this core: Brouer's Skylake XDP path
					     * 0.50, Arora's Cascade Lake audit walk 0.35, a whole
					     * getpid 0.68 (docs/instructions.md, section 3.2) */
					    {"cpi", 0.5, 0.35, 0.68, PRESET_PLAIN},
					    NS("line_smt_ns", 7.6, 7.2, 13.1),
					    NS("line_llc_ns", 46.8, 41.2, 56.2),
					    NS("line_socket_ns", 46.8, 41.2, 56.2),
					    NS("line_remote_ns", 134.1, 108.6, 148.8),
					    CYCLES("llc_hit_ns", 55, 46, 56),
					    NS("dram_local_ns", 81, 72.7, 91),
					    NS("dram_remote_ns", 140, 130, 145),
					    CYCLES("locked_rmw_ns", 18, 14.6, 23),
					    CYCLES("lock_acquire_release_ns", 32.3, 26, 39),
					    CYCLES("irq_save_restore_ns", 25, 21, 30),
					    NS("line_queue_llc_ns", 18.0, 15.0, 34.0),
					    NS("line_queue_deep_ns", 15.5, 12.9, 29.3),
					    NS("line_queue_socket_ns", 18.0, 15.0, 34.0),
					    NS("line_queue_remote_ns", 66.0, 53.5, 70.0),
					    NS("line_inval_ns", 7.4, 3.7, 14.5),
					    NS("line_pileup_ns", 0.35, 0.3, 0.45),
					    NS("line_issue_ns", 1.0, 0.4, 5.0),
					    KERNEL_PRIMITIVES,
					    {NULL, 0, 0, 0, PRESET_PLAIN}}};

/* 2 x EPYC 7763 (Milan, 2021): 64 cores, 2 threads, 8 CCXs of 8 cores with
 * 32 MB L3 each. */
static const struct preset milan_2s = {
    .name = "milan-2s",
    .doc = "2 x EPYC 7763 (Milan, 2021): 2 x 64 cores x 2 threads, 8 CCXs of 8 cores and "
	   "32 MB L3 a socket, 2.45 GHz",
    .values = (const struct preset_value[]){TOPOLOGY(2, 128, 2, 8, 32, 2.45),
					    SMT_THROUGHPUT(1.65, 1.1, 1.7),
					    NS("line_smt_ns", 9.8, 9.7, 10.8),
					    NS("line_llc_ns", 22.8, 20.0, 32.8),
					    NS("line_socket_ns", 107.6, 83.7, 140),
					    NS("line_remote_ns", 197.2, 182.2, 208.5),
					    CYCLES("llc_hit_ns", 46, 34, 50),
					    NS("dram_local_ns", 110, 100, 122),
					    NS("dram_remote_ns", 185, 170, 200),
					    CYCLES("locked_rmw_ns", 9, 7, 9),
					    CYCLES("lock_acquire_release_ns", 16, 13, 20),
					    CYCLES("irq_save_restore_ns", 21, 17, 26),
					    NS("line_queue_llc_ns", 8.8, 7.3, 16.6),
					    NS("line_queue_deep_ns", 7.6, 6.3, 14.4),
					    NS("line_queue_socket_ns", 53.0, 43.0, 56.2),
					    NS("line_queue_remote_ns", 97.1, 78.7, 103.0),
					    NS("line_inval_ns", 7.4, 3.7, 14.5),
					    NS("line_pileup_ns", 0.35, 0.3, 0.45),
					    NS("line_issue_ns", 1.0, 0.4, 5.0),
					    KERNEL_PRIMITIVES,
					    {NULL, 0, 0, 0, PRESET_PLAIN}}};

const struct mcs_named *const presets[] = {&westmere_2s.named, &broadwell_2s.named,
					   &cascadelake_2s.named, &milan_2s.named, NULL};

const struct preset *preset_find(const char *name)
{
	return (const struct preset *)mcs_named_find(presets, name);
}

const struct preset_value *preset_cost(const struct preset *p, const char *key)
{
	for (const struct preset_value *v = p->values; v->key; v++)
		if (g_str_has_prefix(v->key, "costs.") && strcmp(v->key + 6, key) == 0)
			return v;
	return NULL;
}

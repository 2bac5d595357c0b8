/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sim_machine: the simulated machine, its topology and its cost table.
 *
 * Plain data, shared by the scenario loader (which fills it), the engine
 * (which runs it) and the models (which read its costs). Every cost is a
 * scenario parameter: machine.costs.<key>.
 *
 * The topology: CPUs are hardware threads of cores; cores share a
 * last-level cache domain (an LLC, or an AMD CCX); LLC domains make up NUMA
 * nodes, and nodes sockets (one or more nodes per socket). CPUs are numbered
 * node by node, and within a node as Linux numbers them: the first thread of
 * every core, then the second threads (so CPU c and c + cores_per_node are
 * SMT siblings). */
#pragma once
#include "sim_time.h"
#include <stdbool.h>

/* A cost parameter: machine.costs.<key>, in ns, with its default, what it is
 * and where the number comes from. The models' costs are listed in
 * models/hw/cost.c. */
struct sim_cost_desc {
	const char *key;
	double default_ns;
	const char *doc;
	const char *source;
};

/* How contended cache lines and locks are priced (machine.contention). */
enum sim_contention {
	SIM_CONTENTION_IDLE,	 /* every access costs its idle latency (the issue 10 model) */
	SIM_CONTENTION_QUEUED,	 /* lines serve one request at a time, the spinlock slow
				  * paths move their lines, SMT siblings share a core */
	SIM_CONTENTION_TRANSFER, /* as queued, but each access from a CPU without the line
				  * is a transfer slowed by the requests piled up ahead;
				  * the last holder keeps the line until it leaves, and
				  * independent misses overlap (issue 35) */
};
/* machine.contention's values, by enum sim_contention, NULL-terminated. */
extern const char *const sim_contention_names[];

#define SIM_MACHINE_MAX_NODES 64
#define SIM_MACHINE_MAX_CPUS 4096
#define SIM_MACHINE_MAX_COSTS 64
#define SIM_MACHINE_MAX_INSNS 32

struct sim_machine {
	int nodes;
	int cpus_per_node;
	int threads_per_core; /* SMT threads of a core */
	int cores_per_llc;    /* cores sharing a last-level cache domain */
	int nodes_per_socket;
	uint64_t llc_bytes; /* per LLC domain; 0: lines are never evicted */
	double clock_ghz;
	enum sim_contention contention;
	/* What a core with two busy threads delivers, in units of one thread
	 * alone, in [1, 2] (machine.smt_throughput); 0 is 2: no sharing. Used
	 * with contention "queued" only (sim_engine.c, "SMT"). */
	double smt_throughput;
	/* The same while one of the two spins waiting for a spinlock
	 * (machine.smt_spin_throughput); 0: smt_throughput. */
	double smt_spin_throughput;
	sim_time_t sched_slice;	   /* time slice when tasks share a CPU */
	sim_time_t context_switch; /* switching a CPU between two runnable tasks */
	/* Tasks move between CPUs as the fair class's newly idle balance and
	 * wake-up placement move them (machine.migration, sim_balance.h);
	 * false: each stays on the CPU it was created on. */
	bool migration;
	sim_time_t
	    cost[SIM_MACHINE_MAX_COSTS]; /* the models' costs, by id (models/hw/include/cost.h) */
	/* machine.private_ns: a flat cost's bottom-up bound of its private work,
	 * by id; 0 where none is given (cost_charge_flat) */
	sim_time_t cost_private[SIM_MACHINE_MAX_COSTS];
	/* machine.private_lo_ns: its low bound, by id; -1 where none is given.
	 * Only memcgsim fit reads it (baseline.h): a cost with both bounds is
	 * one it may move within them. */
	sim_time_t cost_private_lo[SIM_MACHINE_MAX_COSTS];
	/* "queued": the kernel steps' instructions, by id (models/hw/include/insn.h),
	 * and the cycles an instruction takes with its data in L1 */
	double insns[SIM_MACHINE_MAX_INSNS];
	double cpi;
};

static inline int sim_machine_cpus(const struct sim_machine *m)
{
	return m->nodes * m->cpus_per_node;
}

/* CPUs are numbered node by node: CPU c is on node c / cpus_per_node. */
static inline int sim_machine_cpu_node(const struct sim_machine *m, int cpu)
{
	return cpu / m->cpus_per_node;
}

/* How far apart two CPUs are, for a cache line moving between them. */
enum sim_hop {
	SIM_HOP_SELF,	/* the same CPU */
	SIM_HOP_SMT,	/* SMT siblings: the same core */
	SIM_HOP_LLC,	/* other cores of one last-level cache domain */
	SIM_HOP_SOCKET, /* other LLC domains of one socket (AMD CCXs) */
	SIM_HOP_REMOTE, /* other sockets */
	SIM_HOP_N
};
extern const char *const sim_hop_names[SIM_HOP_N];

static inline int sim_machine_cores_per_node(const struct sim_machine *m)
{
	return m->cpus_per_node / m->threads_per_core;
}

/* The machine-wide core, LLC domain and socket of @cpu. */
int sim_machine_cpu_core(const struct sim_machine *m, int cpu);
int sim_machine_cpu_llc(const struct sim_machine *m, int cpu);
int sim_machine_cpu_socket(const struct sim_machine *m, int cpu);
int sim_machine_llcs(const struct sim_machine *m);
/* A machine without SMT, one LLC domain and one socket per node. */
void sim_machine_flat(struct sim_machine *m);

/* sim_machine: the simulated machine (NUMA nodes x CPUs) and its cost table.
 *
 * Plain data, shared by the scenario loader (which fills it), the engine
 * (which runs it) and the models (which read its costs). Every cost is a
 * scenario parameter: machine.costs.<key>. */
#pragma once
#include "sim_time.h"

/* A cost parameter: machine.costs.<key>, in ns, with its default, what it is
 * and where the number comes from. The models' costs are listed in
 * models/cost.c. */
struct sim_cost_desc {
	const char *key;
	double default_ns;
	const char *doc;
	const char *source;
};


#define SIM_MACHINE_MAX_NODES 64
#define SIM_MACHINE_MAX_CPUS 4096
#define SIM_MACHINE_MAX_COSTS 64

struct sim_machine {
	int nodes;
	int cpus_per_node;
	double clock_ghz;
	sim_time_t sched_slice; /* time slice when tasks share a CPU */
	sim_time_t context_switch; /* switching a CPU between two runnable tasks */
	sim_time_t cost[SIM_MACHINE_MAX_COSTS]; /* the models' costs, by id (models/cost.h) */
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

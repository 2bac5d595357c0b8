// SPDX-License-Identifier: GPL-2.0-or-later
#include "sim_machine.h"
#include <stddef.h>

const char *const sim_hop_names[SIM_HOP_N] = {"self", "smt", "llc", "socket", "remote"};
const char *const sim_contention_names[] = {"idle", "queued", "transfer", NULL};

int sim_machine_cpu_core(const struct sim_machine *m, int cpu)
{
	int per = sim_machine_cores_per_node(m);
	return sim_machine_cpu_node(m, cpu) * per + cpu % m->cpus_per_node % per;
}

int sim_machine_cpu_llc(const struct sim_machine *m, int cpu)
{
	return sim_machine_cpu_core(m, cpu) / m->cores_per_llc;
}

int sim_machine_cpu_socket(const struct sim_machine *m, int cpu)
{
	return sim_machine_cpu_node(m, cpu) / m->nodes_per_socket;
}

int sim_machine_llcs(const struct sim_machine *m)
{
	return m->nodes * sim_machine_cores_per_node(m) / m->cores_per_llc;
}

void sim_machine_flat(struct sim_machine *m)
{
	m->threads_per_core = 1;
	m->cores_per_llc = m->cpus_per_node;
	m->nodes_per_socket = 1;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* Where the scheduler moves a task (sim_balance.h). */
#include "sim_balance.h"
#include "sim_machine.h"
#include <glib.h>

/* The sched domains of a CPU, smallest first: the span of level @l is the
 * CPUs whose key at that level is the CPU's own. */
enum balance_level { LEVEL_CORE, LEVEL_LLC, LEVEL_NODE, LEVEL_SOCKET, LEVEL_MACHINE, LEVEL_N };
G_STATIC_ASSERT(LEVEL_N == SIM_BALANCE_LEVELS);

/* sd_init's busy_factor: a busy CPU balances a domain 16 times less often. */
#define BALANCE_BUSY_FACTOR 16

static int level_key(const struct sim_machine *m, enum balance_level l, int cpu)
{
	switch (l) {
	case LEVEL_CORE:
		return sim_machine_cpu_core(m, cpu);
	case LEVEL_LLC:
		return sim_machine_cpu_llc(m, cpu);
	case LEVEL_NODE:
		return sim_machine_cpu_node(m, cpu);
	case LEVEL_SOCKET:
		return sim_machine_cpu_socket(m, cpu);
	default:
		return 0;
	}
}

/* In @cpu's domain at level @l, the CPU with the highest @score above
 * @floor that has a task it may give (@waiting), ties to the first from
 * @cpu + 1 on (for_each_cpu_wrap); -1 if none. *@weight: the domain's CPUs. */
static int domain_pick(const struct sim_machine *m, enum balance_level l, int cpu,
		       int (*score)(int c), int floor, int (*waiting)(int c), int *weight)
{
	int n = sim_machine_cpus(m), key = level_key(m, l, cpu), best = -1;
	*weight = 1;
	for (int i = 1; i < n; i++) {
		int c = (cpu + i) % n;
		if (level_key(m, l, c) != key)
			continue;
		++*weight;
		int x = score(c);
		if (x > floor && waiting(c) > 0) {
			floor = x;
			best = c;
		}
	}
	return best;
}

int sim_balance_busiest(const struct sim_machine *m, int cpu, int (*waiting)(int c))
{
	int weight;
	for (enum balance_level l = LEVEL_CORE; l < LEVEL_N; l++) {
		int best = domain_pick(m, l, cpu, waiting, 0, waiting, &weight);
		if (best >= 0)
			return best;
	}
	return -1;
}

/* Whether every SMT thread of @cpu's core is idle: CPU c's siblings are
 * c + j x cores_per_node within its node (sim_machine.h). */
static bool core_idle(const struct sim_machine *m, int cpu, bool (*idle)(int c))
{
	int cores = sim_machine_cores_per_node(m), node = cpu / m->cpus_per_node;
	int first = node * m->cpus_per_node + (cpu - node * m->cpus_per_node) % cores;
	for (int j = 0; j < m->threads_per_core; j++)
		if (!idle(first + j * cores))
			return false;
	return true;
}

int sim_balance_idle_sibling(const struct sim_machine *m, int prev, bool (*idle)(int c))
{
	int n = sim_machine_cpus(m), llc = sim_machine_cpu_llc(m, prev), first_idle = -1;
	for (int i = 1; i < n; i++) {
		int c = (prev + i) % n;
		if (sim_machine_cpu_llc(m, c) != llc || !idle(c))
			continue;
		if (core_idle(m, c, idle))
			return c;
		if (first_idle < 0)
			first_idle = c;
	}
	return first_idle >= 0 ? first_idle : prev;
}

int sim_balance_periodic(const struct sim_machine *m, int cpu, sim_time_t now,
			 sim_time_t next[SIM_BALANCE_LEVELS], int (*running)(int c),
			 int (*waiting)(int c))
{
	int mine = running(cpu), weight;
	for (enum balance_level l = LEVEL_CORE; l < LEVEL_N; l++) {
		if (now < next[l])
			continue;
		/* two more than @cpu: above mine + 1 */
		int best = domain_pick(m, l, cpu, running, mine + 1, waiting, &weight);
		next[l] = now + (sim_time_t)weight * BALANCE_BUSY_FACTOR * SIM_MS;
		if (best >= 0)
			return best;
	}
	return -1;
}

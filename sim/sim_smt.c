// SPDX-License-Identifier: GPL-2.0-or-later
/* SMT siblings sharing their core: the model is in sim_smt.h. */
#include "sim_smt.h"
#include "sim_engine.h"
#include <glib.h>
#include <math.h>
#include <string.h>

#define SMT_MAX_THREADS 8 /* machine.threads_per_core's maximum */

static struct {
	bool active;
	int cpus_per_node, cores_per_node, threads;
	double stretch[SMT_MAX_THREADS + 1]; /* k / f_k, by the core's busy threads k */
	sim_time_t stop_at;
	sim_time_t total;
} S;

void sim_smt_init(const struct sim_machine *m, sim_time_t stop_at)
{
	memset(&S, 0, sizeof(S));
	S.active = m->contention == SIM_CONTENTION_QUEUED && m->threads_per_core > 1;
	if (!S.active)
		return;
	g_assert_cmpint(m->threads_per_core, <=, SMT_MAX_THREADS);
	double f = m->smt_throughput > 0 ? m->smt_throughput : 2;
	S.cpus_per_node = m->cpus_per_node;
	S.cores_per_node = sim_machine_cores_per_node(m);
	S.threads = m->threads_per_core;
	for (int k = 1; k <= S.threads; k++)
		S.stretch[k] = k / (1 + (k - 1) * (f - 1));
	S.stop_at = stop_at;
}

void sim_smt_fini(void)
{
	memset(&S, 0, sizeof(S));
}

bool sim_smt_active(void)
{
	return S.active;
}

/* The busy threads of @cpu's core, @cpu's own charge among them: CPU c's
 * siblings are c + j x cores_per_node within its node (sim_machine.h). */
static int smt_busy_threads(int cpu)
{
	int node_first = cpu - cpu % S.cpus_per_node;
	int first = node_first + cpu % S.cpus_per_node % S.cores_per_node;
	int busy = 1;
	for (int j = 0; j < S.threads; j++) {
		int sibling = first + j * S.cores_per_node;
		busy += sibling != cpu && !sim_cpu_idle(sibling);
	}
	return busy;
}

sim_time_t sim_smt_stretch(int cpu, sim_time_t d, sim_time_t at)
{
	if (!S.active || d <= 0)
		return d;
	int k = smt_busy_threads(cpu);
	if (k == 1)
		return d;
	sim_time_t stretched = (sim_time_t)llround((double)d * S.stretch[k]);
	if (!S.stop_at || at < S.stop_at)
		S.total += stretched - d;
	return stretched;
}

sim_time_t sim_smt_stretch_total(void)
{
	return S.total;
}

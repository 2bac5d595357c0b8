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
	double f, f_spin;		     /* a busy sibling's worth, and a spinning one's */
	sim_time_t *spin_from, *spin_until;  /* each CPU's last spinlock wait */
	int *siblings; /* each CPU's threads - 1 siblings, in a row (smt_busy_threads) */
	bool *busy;    /* each CPU has a task (sim_smt_busy) */
	sim_time_t stop_at;
	sim_time_t total;
	sim_time_t (*now)(void); /* the engine's time (sim_now) */
} S;

void sim_smt_init(const struct sim_machine *m, sim_time_t stop_at, sim_time_t (*now)(void))
{
	memset(&S, 0, sizeof(S));
	S.now = now;
	S.active = m->contention != SIM_CONTENTION_IDLE && m->threads_per_core > 1;
	if (!S.active)
		return;
	g_assert_cmpint(m->threads_per_core, <=, SMT_MAX_THREADS);
	double f = m->smt_throughput > 0 ? m->smt_throughput : 2;
	S.cpus_per_node = m->cpus_per_node;
	S.cores_per_node = sim_machine_cores_per_node(m);
	S.threads = m->threads_per_core;
	for (int k = 1; k <= S.threads; k++)
		S.stretch[k] = k / (1 + (k - 1) * (f - 1));
	int ncpus = m->nodes * m->cpus_per_node;
	S.siblings = g_new(int, (size_t)ncpus *(size_t)(S.threads - 1));
	for (int cpu = 0, *out = S.siblings; cpu < ncpus; cpu++) {
		int node_first = cpu - cpu % S.cpus_per_node;
		int first = node_first + cpu % S.cpus_per_node % S.cores_per_node;
		for (int j = 0; j < S.threads; j++)
			if (first + j * S.cores_per_node != cpu)
				*out++ = first + j * S.cores_per_node;
	}
	S.busy = g_new0(bool, ncpus);
	S.stop_at = stop_at;
	S.f = f;
	S.f_spin = m->smt_spin_throughput > 0 ? m->smt_spin_throughput : f;
	if (S.f_spin != f) {
		int n = m->nodes * m->cpus_per_node;
		S.spin_from = g_new0(sim_time_t, n);
		S.spin_until = g_new0(sim_time_t, n);
	}
}

void sim_smt_fini(void)
{
	g_free(S.spin_from);
	g_free(S.spin_until);
	g_free(S.siblings);
	g_free(S.busy);
	memset(&S, 0, sizeof(S));
}

void sim_smt_spin(int cpu, sim_time_t from, sim_time_t until)
{
	if (!S.spin_from)
		return;
	S.spin_from[cpu] = from;
	S.spin_until[cpu] = until;
}

/* Whether @cpu's task is waiting for a spinlock at the engine's time. */
static bool smt_spinning(int cpu)
{
	sim_time_t now = S.now();
	return S.spin_from[cpu] <= now && now < S.spin_until[cpu];
}

void sim_smt_busy(int cpu, bool busy)
{
	if (S.busy)
		S.busy[cpu] = busy;
}

bool sim_smt_active(void)
{
	return S.active;
}

/* The busy threads of @cpu's core, @cpu's own charge among them, and how
 * many of the others spin (*spinning; counted only when a spinner's worth
 * differs): CPU c's siblings are c + j x cores_per_node within its node
 * (sim_machine.h), listed at sim_smt_init. */
static int smt_busy_threads(int cpu, int *spinning)
{
	const int *sib = S.siblings + (size_t)cpu * (size_t)(S.threads - 1);
	int busy = 1;
	*spinning = 0;
	for (int j = 0; j < S.threads - 1; j++) {
		int sibling = sib[j];
		if (!S.busy[sibling])
			continue;
		busy++;
		*spinning += S.spin_from && smt_spinning(sibling);
	}
	return busy;
}

sim_time_t sim_smt_stretch(int cpu, sim_time_t d, sim_time_t at)
{
	if (!S.active || d <= 0)
		return d;
	int s;
	int k = smt_busy_threads(cpu, &s);
	if (k == 1)
		return d;
	/* each other busy thread adds its worth less one: f - 1, or f_spin - 1 */
	double stretch = s ? k / (1 + (k - 1 - s) * (S.f - 1) + s * (S.f_spin - 1)) : S.stretch[k];
	sim_time_t stretched = sim_round((double)d * stretch);
	if (!S.stop_at || at < S.stop_at)
		S.total += stretched - d;
	return stretched;
}

sim_time_t sim_smt_stretch_total(void)
{
	return S.total;
}

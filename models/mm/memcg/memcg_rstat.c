// SPDX-License-Identifier: GPL-2.0-or-later
/* The memcg statistics' flush of the mm tree of June 2024: memcg_rstat.h. */
#include "memcg_rstat.h"
#include "cacheline.h"
#include "insn.h"
#include "kernel.h"
#include "lock_stat.h"
#include "mm_const.h"
#include "spinlock.h"
#include <glib.h>

/* The lines of a CPU's counters a page's updates dirty, which a flush
 * reads back from that CPU: one of struct memcg_vmstats_percpu's state
 * array, one of its events, one of lruvec_stats_percpu's state (the LRU
 * counts). An estimate of where the page path's counters fall, not a
 * layout read off a build. */
#define RSTAT_PCPU_LINES 3
/* The lines a flush writes: the memcg's totals and its parent's pending
 * counts (struct memcg_vmstats state and events, lruvec state: one line of
 * each that the page's counters share). */
#define RSTAT_VMSTATS_LINES 3

struct memcg_rstat_cpu {
	long stats_updates; /* memcg_vmstats_percpu->stats_updates */
	bool updated;	    /* on the CPU's updated list (updated_next set) */
	struct cacheline counters[RSTAT_PCPU_LINES];
};

struct memcg_rstat {
	long stats_updates; /* vmstats->stats_updates (atomic64_t) */
	struct cacheline atomic_line;
	struct cacheline totals[RSTAT_VMSTATS_LINES];  /* vmstats->state ... */
	struct cacheline pending[RSTAT_VMSTATS_LINES]; /* ... ->state_pending, its children's */
	struct memcg_rstat_cpu *cpu;		       /* [ncpus] */
};

static struct {
	bool active;
	int ncpus;
	struct spinlock lock;	   /* cgroup_rstat_lock */
	struct spinlock *cpu_lock; /* [ncpus]: cgroup_rstat_cpu_lock */
	struct line_class *counters, *vmstats;
} R;

double memcg_rstat_bytes(int ncpus)
{
	return (double)sizeof(struct memcg_rstat) + (double)ncpus * sizeof(struct memcg_rstat_cpu);
}

bool memcg_rstat_active(void)
{
	return R.active;
}

void memcg_rstat_init(int ncpus)
{
	memset(&R, 0, sizeof(R));
	if (kernel_version() != KERNEL_MM_2024_06)
		return;
	R.active = true;
	R.ncpus = ncpus;
	spin_lock_init(&R.lock, lock_class_get("cgroup_rstat_lock"));
	struct lock_class *cpu_cls = lock_class_get("per_cpu_ptr(&cgroup_rstat_cpu_lock, cpu)");
	R.cpu_lock = g_new0(struct spinlock, ncpus);
	for (int cpu = 0; cpu < ncpus; cpu++)
		spin_lock_init(&R.cpu_lock[cpu], cpu_cls);
	R.counters = line_class_get("struct memcg_vmstats_percpu");
	R.vmstats = line_class_get("struct memcg_vmstats");
}

void memcg_rstat_free(struct mem_cgroup *memcg)
{
	if (memcg->rstat)
		g_free(memcg->rstat->cpu);
	g_free(memcg->rstat);
	memcg->rstat = NULL;
}

void memcg_rstat_fini(void)
{
	if (!R.active)
		return;
	spin_lock_destroy(&R.lock);
	for (int cpu = 0; cpu < R.ncpus; cpu++)
		spin_lock_destroy(&R.cpu_lock[cpu]);
	g_free(R.cpu_lock);
	memset(&R, 0, sizeof(R));
}

static struct memcg_rstat *rstat_of(struct mem_cgroup *memcg)
{
	if (memcg->rstat)
		return memcg->rstat;
	struct memcg_rstat *rs = g_new0(struct memcg_rstat, 1);
	int home = 0;
	line_init(&rs->atomic_line, R.vmstats, home);
	for (int i = 0; i < RSTAT_VMSTATS_LINES; i++) {
		line_init(&rs->totals[i], R.vmstats, home);
		line_init(&rs->pending[i], R.vmstats, home);
	}
	rs->cpu = g_new0(struct memcg_rstat_cpu, R.ncpus);
	for (int cpu = 0; cpu < R.ncpus; cpu++)
		for (int i = 0; i < RSTAT_PCPU_LINES; i++)
			line_init(&rs->cpu[cpu].counters[i], R.counters, sim_cpu_node(cpu));
	memcg->rstat = rs;
	return rs;
}

/* cgroup_rstat_updated: a cgroup not on the CPU's list goes on it, with its
 * ancestors, under the CPU's lock; its counters' lines are this CPU's
 * again from the updates that follow. */
static void cgroup_rstat_updated(struct sim_task *t, struct mem_cgroup *memcg, int cpu)
{
	if (memcg->rstat && memcg->rstat->cpu[cpu].updated)
		return;
	spin_lock_hold(t, &R.cpu_lock[cpu], insn_cost(INSN_CGROUP_RSTAT_UPDATED), SIM_CAT_SYS,
		       SPIN_IRQSAVE, __func__);
	for (struct mem_cgroup *m = memcg; m; m = m->parent) {
		struct memcg_rstat_cpu *rc = &rstat_of(m)->cpu[cpu];
		if (rc->updated)
			break;
		rc->updated = true;
		for (int i = 0; i < RSTAT_PCPU_LINES; i++)
			line_touch(t, &rc->counters[i], LINE_STORE, "__mod_memcg_lruvec_state");
	}
}

void memcg_rstat_updated(struct sim_task *t, struct mem_cgroup *memcg, long units)
{
	if (!R.active || units == 0 || mem_cgroup_disabled())
		return;
	int cpu = sim_task_cpu(t);
	const long threshold = MEMCG_CHARGE_BATCH * R.ncpus;
	cgroup_rstat_updated(t, memcg, cpu);
	for (struct mem_cgroup *m = memcg; m; m = m->parent) {
		struct memcg_rstat *rs = rstat_of(m);
		struct memcg_rstat_cpu *rc = &rs->cpu[cpu];
		rc->stats_updates += labs(units);
		if (rc->stats_updates < MEMCG_CHARGE_BATCH)
			continue;
		line_touch(t, &rs->atomic_line, LINE_LOAD,
			   __func__); /* memcg_vmstats_needs_flush */
		if (rs->stats_updates <= threshold) {
			line_atomic(t, &rs->atomic_line, SIM_CAT_SPIN, __func__);
			rs->stats_updates += rc->stats_updates;
		}
		rc->stats_updates = 0;
	}
}

struct rstat_cpu_section {
	struct mem_cgroup *target;
	int cpu;
	GPtrArray *popped;
};

/* cgroup_rstat_updated_list under the CPU's lock: the target's subtree off
 * that CPU's list. */
static sim_time_t rstat_updated_list(struct sim_task *t, void *arg)
{
	struct rstat_cpu_section *s = arg;
	for (struct mem_cgroup *m = mem_cgroup_iter(s->target, NULL); m;
	     m = mem_cgroup_iter(s->target, m)) {
		if (!m->rstat || !m->rstat->cpu[s->cpu].updated)
			continue;
		m->rstat->cpu[s->cpu].updated = false;
		g_ptr_array_add(s->popped, m);
	}
	return insn_cost(INSN_CGROUP_RSTAT_CPU);
}

/* mem_cgroup_css_rstat_flush(@memcg, @cpu): that CPU's counters read (the
 * lines it dirtied, independent loads), the memcg's totals and the
 * parent's pending counts written. */
static void css_rstat_flush(struct sim_task *t, struct mem_cgroup *memcg, int cpu)
{
	struct memcg_rstat *rs = memcg->rstat;
	struct line_req r[RSTAT_PCPU_LINES + 2 * RSTAT_VMSTATS_LINES];
	int n = 0;
	for (int i = 0; i < RSTAT_PCPU_LINES; i++)
		r[n++] = (struct line_req){&rs->cpu[cpu].counters[i], LINE_LOAD, __func__, -1};
	for (int i = 0; i < RSTAT_VMSTATS_LINES; i++) {
		r[n++] = (struct line_req){&rs->totals[i], LINE_STORE, __func__, -1};
		if (memcg->parent)
			r[n++] = (struct line_req){&rstat_of(memcg->parent)->pending[i], LINE_STORE,
						   __func__, -1};
	}
	sim_time_t lines = line_access_group(sim_task_cpu(t), r, n, sim_task_clock(t), NULL);
	sim_task_stall_next(t, lines);
	sim_task_charge(t, SIM_CAT_SYS, lines + insn_cost(INSN_MEMCG_RSTAT_FLUSH));
	rs->cpu[cpu].stats_updates = 0;
}

/* cgroup_rstat_flush(@memcg's cgroup): the global lock held over every
 * possible CPU (6.10 drops it between CPUs only when the flusher must
 * reschedule or, under CONFIG_PREEMPTION, when another CPU spins on it; a
 * spin_lock_irq section does neither here). */
static void cgroup_rstat_flush(struct sim_task *t, struct mem_cgroup *memcg)
{
	struct spin_entry *held = spin_lock(t, &R.lock, SPIN_IRQ, __func__);
	GPtrArray *popped = g_ptr_array_new();
	for (int cpu = 0; cpu < R.ncpus; cpu++) {
		struct rstat_cpu_section s = {memcg, cpu, popped};
		g_ptr_array_set_size(popped, 0);
		spin_lock_hold_fn(t, &R.cpu_lock[cpu], rstat_updated_list, &s, SIM_CAT_SYS,
				  SPIN_IRQSAVE, "cgroup_rstat_updated_list");
		for (guint i = 0; i < popped->len; i++)
			css_rstat_flush(t, popped->pdata[i], cpu);
	}
	for (struct mem_cgroup *m = mem_cgroup_iter(memcg, NULL); m; m = mem_cgroup_iter(memcg, m))
		if (m->rstat)
			m->rstat->stats_updates = 0; /* atomic64_set, once flushed */
	g_ptr_array_free(popped, TRUE);
	spin_unlock(t, &R.lock, held);
}

void mem_cgroup_flush_stats(struct sim_task *t, struct mem_cgroup *memcg)
{
	if (!R.active || mem_cgroup_disabled())
		return;
	struct memcg_rstat *rs = rstat_of(memcg);
	line_touch(t, &rs->atomic_line, LINE_LOAD, __func__); /* memcg_vmstats_needs_flush */
	if (rs->stats_updates > MEMCG_CHARGE_BATCH * R.ncpus)
		cgroup_rstat_flush(t, memcg);
}

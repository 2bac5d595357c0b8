// SPDX-License-Identifier: GPL-2.0-or-later
#include "rcu.h"
#include "cost.h"
#include "sim_hist.h"
#include "sim_irq.h"
#include <string.h>

struct gp_stats {
	uint64_t count;
	sim_time_t total, max;
	struct sim_hist hist;
};

static struct {
	bool on;
	int ncpus;
	/* the normal grace period in progress */
	bool gp_active;
	bool *qs_pending; /* per CPU: still owes a quiescent state */
	int npending;
	GPtrArray *waiters, *next_waiters; /* tasks in synchronize_rcu */
	/* the expedited grace period in progress */
	struct sim_task *exp_waiter;
	bool *exp_pending;
	int exp_npending;
	struct gp_stats normal, expedited;
} R;

static void gp_start(void);

static void gp_end(void)
{
	R.gp_active = false;
	for (guint i = 0; i < R.waiters->len; i++)
		sim_task_wake(R.waiters->pdata[i]);
	g_ptr_array_set_size(R.waiters, 0);
	if (R.next_waiters->len) { /* they arrived during it: they need a new one */
		GPtrArray *w = R.waiters;
		R.waiters = R.next_waiters;
		R.next_waiters = w;
		gp_start();
	}
}

/* rcu_report_qs_rdp */
static void rcu_report_qs(int cpu)
{
	if (!R.gp_active || !R.qs_pending[cpu])
		return;
	R.qs_pending[cpu] = false;
	if (--R.npending == 0)
		gp_end();
}

static void gp_start(void)
{
	R.gp_active = true;
	R.npending = R.ncpus;
	for (int c = 0; c < R.ncpus; c++)
		R.qs_pending[c] = true;
	for (int c = 0; c < R.ncpus && R.gp_active; c++)
		if (sim_cpu_idle(c)) /* idle is an extended quiescent state */
			rcu_report_qs(c);
}

/* A CPU switched tasks or went idle. */
static void rcu_note_context_switch(int cpu)
{
	rcu_report_qs(cpu);
}

/* rcu_sched_clock_irq: a tick that finds the CPU in user mode. */
static void rcu_tick(struct sim_task *t, void *arg)
{
	if (sim_task_interrupted_cat(t) == SIM_CAT_USER)
		rcu_report_qs(sim_task_cpu(t));
}

/* Preemption enabled again: the end of a read-side critical section an
 * expedited grace period may be waiting for. */
static void rcu_preempt_enabled(struct sim_task *t)
{
	int cpu = sim_task_cpu(t);
	if (!R.exp_waiter || !R.exp_pending[cpu])
		return;
	sim_task_flush(t); /* it ends at the task's time */
	R.exp_pending[cpu] = false;
	if (--R.exp_npending == 0)
		sim_task_wake(R.exp_waiter);
}

void rcu_init(int tick)
{
	memset(&R, 0, sizeof(R));
	R.on = true;
	R.ncpus = sim_ncpus();
	R.qs_pending = g_new0(bool, R.ncpus);
	R.exp_pending = g_new0(bool, R.ncpus);
	R.waiters = g_ptr_array_new();
	R.next_waiters = g_ptr_array_new();
	sim_engine_on_switch(rcu_note_context_switch);
	sim_engine_on_preempt_enable(rcu_preempt_enabled);
	if (tick >= 0) {
		sim_irq_source(tick)->action = rcu_tick;
		sim_irq_source(tick)->action_arg = NULL;
	}
}

void rcu_fini(void)
{
	if (!R.on)
		return;
	sim_engine_on_switch(NULL);
	sim_engine_on_preempt_enable(NULL);
	g_free(R.qs_pending);
	g_free(R.exp_pending);
	g_ptr_array_free(R.waiters, TRUE);
	g_ptr_array_free(R.next_waiters, TRUE);
	sim_hist_free(&R.normal.hist);
	sim_hist_free(&R.expedited.hist);
	memset(&R, 0, sizeof(R));
}

bool rcu_active(void)
{
	return R.on;
}

void rcu_read_lock(struct sim_task *t)
{
	sim_task_preempt_disable(t);
	sim_task_charge(t, SIM_CAT_SYS, cost(COST_PREEMPT) + cost(COST_RCU_READ_LOCK));
}

void rcu_read_unlock(struct sim_task *t)
{
	sim_task_preempt_enable(t);
}

static void gp_record(struct gp_stats *s, sim_time_t latency)
{
	s->count++;
	s->total += latency;
	s->max = MAX(s->max, latency);
	sim_hist_record(&s->hist, latency);
}

void synchronize_rcu(struct sim_task *t)
{
	sim_task_flush(t);
	sim_time_t start = sim_now();
	if (R.gp_active) {
		g_ptr_array_add(R.next_waiters, t); /* this one started before us */
	} else {
		g_ptr_array_add(R.waiters, t);
		gp_start();
	}
	sim_task_wait(t); /* our own CPU's quiescent state: this switch */
	gp_record(&R.normal, sim_task_clock(t) - start);
}

void synchronize_rcu_expedited(struct sim_task *t)
{
	sim_task_flush(t);
	sim_time_t start = sim_now();
	int me = sim_task_cpu(t);
	sim_task_charge(t, SIM_CAT_SYS, (R.ncpus - 1) * cost(COST_IPI));
	sim_task_flush(t);
	/* Each CPU reports at once unless it is in a read-side (preemption
	 * off) section: one still open reports when it ends (the hook); one
	 * planned to end later is known to end then. */
	sim_time_t latest = sim_now();
	R.exp_npending = 0;
	for (int c = 0; c < R.ncpus; c++) {
		struct sim_task *curr = c == me ? NULL : sim_cpu_curr(c);
		R.exp_pending[c] = curr && sim_task_preempt_count(curr) > 0;
		R.exp_npending += R.exp_pending[c];
		if (curr && !R.exp_pending[c])
			latest = MAX(latest, sim_task_preempt_off_until(curr));
	}
	if (R.exp_npending) {
		R.exp_waiter = t;
		sim_task_wait(t);
		R.exp_waiter = NULL;
	}
	if (latest > sim_task_clock(t))
		sim_task_sleep(t, latest - sim_task_clock(t));
	gp_record(&R.expedited, sim_task_clock(t) - start);
}

static json_t *gp_json(const struct gp_stats *s)
{
	return json_pack("{s:I, s:f, s:f, s:f}", "count", (json_int_t)s->count, "mean_ns",
			 s->count ? sim_to_ns(s->total) / (double)s->count : 0.0, "p99_ns",
			 sim_to_ns(sim_hist_quantile(&s->hist, 0.99)), "max_ns", sim_to_ns(s->max));
}

json_t *rcu_stats_json(void)
{
	return json_pack("{s:o, s:o}", "grace_periods", gp_json(&R.normal), "expedited",
			 gp_json(&R.expedited));
}

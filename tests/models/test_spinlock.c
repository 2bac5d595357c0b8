// SPDX-License-Identifier: GPL-2.0-or-later
/* The qspinlock model against hand-computed timelines.
 * Costs: acquire+release 15.4 ns, line same node 47.5 ns, other node 148.8 ns.
 * A (CPU 0) takes the lock at 0: granted 0 + 15.4 = 15.4, released 115.4.
 * B (CPU 1, same node) arrives at 10: granted 115.4 + 47.5 + 15.4 = 178.3,
 *   waits 168.3, releases 278.3.
 * C (CPU 2, other node) arrives at 20: granted 278.3 + 148.8 + 15.4 = 442.5,
 *   waits 422.5. */
#include "sim_engine.h"
#include "spinlock.h"
#include "test_util.h"
#include <stdlib.h>

static struct spinlock lock;
static bool a_dynamic;
static sim_time_t granted[3];

static void task_a(struct sim_task *t, void *arg)
{
	if (a_dynamic) {
		struct spin_entry *e = spin_lock(t, &lock, SPIN_PLAIN, "task_a");
		granted[0] = sim_task_clock(t);
		sim_task_charge(t, SIM_CAT_SYS, 100 * SIM_NS);
		spin_unlock(t, &lock, e);
	} else {
		spin_lock_hold(t, &lock, 100 * SIM_NS, SIM_CAT_SYS, SPIN_PLAIN, "task_a");
		granted[0] = sim_task_clock(t) - 100 * SIM_NS;
	}
}

static void task_bc(struct sim_task *t, void *arg)
{
	int i = GPOINTER_TO_INT(arg);
	sim_task_charge(t, SIM_CAT_USER, i * 10 * SIM_NS);
	spin_lock_hold(t, &lock, 100 * SIM_NS, SIM_CAT_SYS, i == 2 ? SPIN_IRQSAVE : SPIN_PLAIN,
		       i == 1 ? "task_b" : "task_c");
	granted[i] = sim_task_clock(t) - 100 * SIM_NS;
}

/* The timelines' machine: @nodes of 2 CPUs at 2.1 GHz, the lock's
 * instructions 15.4 ns; A's task is dynamic (spin_lock) or planned. */
static struct sim_machine timeline_machine(int nodes, bool dynamic)
{
	struct sim_machine m = {
	    .nodes = nodes, .cpus_per_node = 2, .clock_ghz = 2.1, .sched_slice = 750 * SIM_US};
	m.cost[COST_LOCK_ACQ_REL] = 15400;
	a_dynamic = dynamic;
	return m;
}

/* With preempt_disable/enable costing @p (ps), each acquisition pays it on
 * top of the lock's instructions: A's grant moves by p, B's by 2p, C's by 3p. */
static void run_timeline(bool dynamic, sim_time_t p)
{
	struct sim_machine m = timeline_machine(2, dynamic);
	m.cost[COST_LINE_LLC] = 47500;
	m.cost[COST_LINE_REMOTE] = 148800;
	m.cost[COST_IRQ_SAVE_RESTORE] = 7500;
	m.cost[COST_PREEMPT] = p;
	sim_engine_init(&m, 0, SIM_S, 1);
	struct lock_class *cls = lock_class_get("&test->lock");
	spin_lock_init(&lock, cls);
	sim_task_create("a", 0, task_a, NULL);
	sim_task_create("b", 1, task_bc, GINT_TO_POINTER(1));
	sim_task_create("c", 2, task_bc, GINT_TO_POINTER(2));
	g_assert_true(sim_engine_run());

	g_assert_cmpint(granted[0], ==, 15400 + p);
	g_assert_cmpint(granted[1], ==, 178300 + 2 * p);
	/* C pays the irqsave cost before it arrives (at 27.5), so it waits
	 * 442.5 - 27.5 = 415 ns. */
	g_assert_cmpint(granted[2], ==, 442500 + 3 * p);
	g_assert_cmpint(cls->acquisitions, ==, 3);
	g_assert_cmpint(cls->contentions, ==, 2);
	g_assert_cmpint(cls->acq_bounces, ==, 2);
	g_assert_cmpint(cls->con_bounces, ==, 2);
	g_assert_cmpint(cls->wait_total, ==, 168300 + 415000 + 5 * p);
	g_assert_cmpint(cls->wait_min, ==, 168300 + 2 * p);
	g_assert_cmpint(cls->wait_max, ==, 415000 + 3 * p);
	g_assert_cmpint(cls->hold_total, ==, 300 * SIM_NS);
	g_assert_cmpint(cls->irqoff_total, ==, 542500 + 3 * p - 27500);
	g_assert_cmpint(sim_cpu_time(1, SIM_CAT_SPIN), ==, 168300 + 2 * p);
	g_assert_cmpint(sim_cpu_time(2, SIM_CAT_SPIN), ==, 415000 + 3 * p);
	g_assert_cmpint(sim_cpu_time(0, SIM_CAT_SYS), ==, 115400 + p);
	/* Both waiters found A holding the lock. */
	struct lock_point *pt = g_hash_table_lookup(cls->contending_points, "task_a");
	g_assert_nonnull(pt);
	g_assert_cmpint(pt->count, ==, 2);
	g_assert_cmpint(g_hash_table_size(cls->contention_points), ==, 2);
	spin_lock_destroy(&lock);
	lock_class_reset_all();
	sim_engine_fini();
}

static void test_planned(void)
{
	run_timeline(false, 0);
}

static void test_preempt(void)
{
	run_timeline(false, 2000);
}

static void test_dynamic_holder(void)
{
	run_timeline(true, 0);
}

/* Nested locks: a convoy. The lock's instructions 15.4 ns, lines free.
 * H (CPU 1) holds `inner` from 0: granted 15.4, released 515.4.
 * A (CPU 0) at 10 takes `outer` (granted 25.4) and inside it `inner` for
 *   100 ns: it waits for H, granted 515.4 + 15.4 = 530.8 (a wait of 505.4
 *   while holding `outer`), releases both at 630.8.
 * C (CPU 2) at 20 wants `outer`: granted 630.8 + 15.4 = 646.2, a wait of
 *   626.2 holding nothing, so no convoy. */
static struct spinlock outer, inner;
static sim_time_t nested_done[3];

static void nested_h(struct sim_task *t, void *arg)
{
	spin_lock_hold(t, &inner, 500 * SIM_NS, SIM_CAT_SYS, SPIN_PLAIN, "h");
	nested_done[1] = sim_task_clock(t);
}

static void nested_a(struct sim_task *t, void *arg)
{
	sim_task_charge(t, SIM_CAT_USER, 10 * SIM_NS);
	struct spin_entry *e = spin_lock(t, &outer, SPIN_PLAIN, "a_outer");
	spin_lock_hold(t, &inner, 100 * SIM_NS, SIM_CAT_SYS, SPIN_PLAIN, "a_inner");
	spin_unlock(t, &outer, e);
	nested_done[0] = sim_task_clock(t);
}

static void nested_c(struct sim_task *t, void *arg)
{
	sim_task_charge(t, SIM_CAT_USER, 20 * SIM_NS);
	spin_lock_hold(t, &outer, 50 * SIM_NS, SIM_CAT_SYS, SPIN_PLAIN, "c_outer");
	nested_done[2] = sim_task_clock(t) - 50 * SIM_NS;
}

static void test_convoy(void)
{
	struct sim_machine m = timeline_machine(2, true);
	sim_engine_init(&m, 0, SIM_S, 1);
	struct lock_class *co = lock_class_get("&outer"), *ci = lock_class_get("&inner");
	spin_lock_init(&outer, co);
	spin_lock_init(&inner, ci);
	sim_task_create("a", 0, nested_a, NULL);
	sim_task_create("h", 1, nested_h, NULL);
	sim_task_create("c", 2, nested_c, NULL);
	g_assert_true(sim_engine_run());
	g_assert_cmpint(nested_done[1], ==, 515400);
	g_assert_cmpint(nested_done[0], ==, 630800);
	g_assert_cmpint(nested_done[2], ==, 646200);
	g_assert_cmpint(ci->wait_total, ==, 505400);
	g_assert_cmpint(co->wait_total, ==, 626200);
	g_assert_cmpint(g_hash_table_size(co->convoys), ==, 1);
	g_assert_cmpint(g_hash_table_size(ci->convoys), ==, 0);
	json_t *j = lock_stat_to_json(co, false);
	char *s = json_dumps(json_object_get(j, "convoys"), JSON_COMPACT | JSON_REAL_PRECISION(6));
	g_assert_cmpstr(s, ==,
			"[{\"waiting_for\":\"&inner\",\"count\":1,\"wait_total_ns\":505.4,"
			"\"wait_max_ns\":505.4}]");
	free(s);
	json_decref(j);
	g_assert_null(json_object_get(j = lock_stat_to_json(ci, false), "convoys"));
	json_decref(j);
	spin_lock_destroy(&outer);
	spin_lock_destroy(&inner);
	lock_class_reset_all();
	sim_engine_fini();
}

/* One task, one 100 ns hold, planned or dynamic, on an idle lock: what the
 * test-environment hypotheses add. lock_stat (kernel.debug_locks): 80 ns of
 * lock_acquire before the attempt (granted at 80 + 15.4), 50 + 90 ns of
 * lock_release and lock_acquired inside (held 240 ns). A KVM guest with
 * paravirt spinlocks: the unlock's cmpxchg, 7 ns more in the hold; with
 * steal 0.9 and 50 ns deschedules, p = 0.9 x 107 / 50 > 1: the holder is
 * always descheduled, the hold 50 ns longer, charged as idle. */

static void run_env(bool dynamic, int which)
{
	struct sim_machine m = timeline_machine(1, dynamic);
	m.cost[COST_LOCKED_RMW] = 7000;
	m.cost[COST_LOCKDEP_ACQUIRE] = 80000;
	m.cost[COST_LOCKDEP_RELEASE] = 50000;
	m.cost[COST_LOCK_STAT] = 90000;
	sim_engine_init(&m, 0, SIM_S, 1);
	if (which == 0)
		spinlock_debug(SPIN_DEBUG_LOCK_STAT);
	else
		spinlock_vm(true, 0.9, 50 * SIM_NS);
	struct lock_class *cls = lock_class_get("&test->lock");
	spin_lock_init(&lock, cls);
	sim_task_create("a", 0, task_a, NULL);
	g_assert_true(sim_engine_run());
	sim_time_t before = which == 0 ? 80000 : 0, hold = which == 0 ? 240000 : 157000;
	g_assert_cmpint(cls->hold_total, ==, hold);
	g_assert_cmpint(sim_cpu_time(0, SIM_CAT_SYS), ==,
			before + 15400 + hold - (which ? 50000 : 0));
	g_assert_cmpint(sim_cpu_time(0, SIM_CAT_IDLE), ==, which ? 50000 : 0);
	g_assert_cmpint(sim_end(), ==, before + 15400 + hold);
	spin_lock_destroy(&lock);
	spinlock_use(NULL);
	lock_class_reset_all();
	sim_engine_fini();
}

static void test_lock_stat(void)
{
	run_env(false, 0);
}

static void test_lock_stat_dynamic(void)
{
	run_env(true, 0);
}

static void test_vm(void)
{
	run_env(false, 1);
}

static void test_vm_dynamic(void)
{
	run_env(true, 1);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	mcs_test_add_subprocess("/spinlock/fifo/planned-holds", test_planned);
	mcs_test_add_subprocess("/spinlock/fifo/preempt-pair", test_preempt);
	mcs_test_add_subprocess("/spinlock/fifo/dynamic-holder-blocked-waiters",
				test_dynamic_holder);
	mcs_test_add_subprocess("/spinlock/nested/convoy", test_convoy);
	mcs_test_add_subprocess("/spinlock/env/lock_stat/planned", test_lock_stat);
	mcs_test_add_subprocess("/spinlock/env/lock_stat/dynamic", test_lock_stat_dynamic);
	mcs_test_add_subprocess("/spinlock/env/vm/planned", test_vm);
	mcs_test_add_subprocess("/spinlock/env/vm/dynamic", test_vm_dynamic);
	return g_test_run();
}

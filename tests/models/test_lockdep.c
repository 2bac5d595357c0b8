// SPDX-License-Identifier: GPL-2.0-or-later
/* lockdep: irq-safety and lock-order reports in the kernel's shape, and a
 * self-deadlock that really happens stopping the run. One timer interrupt
 * at 5 us (1 us handler cost) whose handler takes the test lock. */
#include "lockdep.h"
#include "sim_irq.h"
#include "spinlock.h"
#include "test_util.h"

static struct sim_irq_source src;
static struct spinlock L, A, B;

static void timer_handler(struct sim_task *t, void *arg)
{
	spin_lock_hold(t, &L, 100 * SIM_NS, SIM_CAT_IRQ, SPIN_PLAIN, "timer_handler");
}

static void setup(int cpus)
{
	struct sim_machine m = mcs_test_machine(1, cpus);
	memset(&src, 0, sizeof(src));
	src.name = "timer";
	src.kind = SIM_IRQ_PERIODIC;
	src.interval = 5 * SIM_US;
	src.handler = 1 * SIM_US;
	src.cpu_mask[0] = 1;
	src.action = timer_handler;
	sim_engine_init(&m, 0, SIM_S, 1);
	sim_engine_irqs(&src, 1);
	lockdep_reset();
	spin_lock_init(&L, lock_class_get("&test->lock"));
	spin_lock_init(&A, lock_class_get("&a->lock"));
	spin_lock_init(&B, lock_class_get("&b->lock"));
}

static void teardown(void)
{
	lock_class_reset_all();
	sim_engine_fini();
	sim_hist_free(&src.latency);
}

static char **report_lines(guint i)
{
	g_assert_cmpuint(lockdep_reports()->len, >, i);
	return g_strsplit(lockdep_reports()->pdata[i], "\n", -1);
}

/* The task holds the lock with interrupts on across the 5 us arrival. */
static void holder(struct sim_task *t, void *arg)
{
	spin_lock_hold(t, &L, 10 * SIM_US, SIM_CAT_SYS, *(enum spin_flavour *)arg, "holder");
	sim_task_charge(t, SIM_CAT_USER, 20 * SIM_US);
}

static void test_self_deadlock(void)
{
	setup(1);
	enum spin_flavour fl = SPIN_PLAIN;
	sim_task_create("irqtest", 0, holder, &fl);
	g_assert_false(sim_engine_run()); /* stopped */
	g_assert_true(lockdep_deadlocked());
	g_assert_cmpuint(lockdep_reports()->len, ==, 1);
	char **l = report_lines(0);
	g_assert_cmpstr(l[0], ==, "================================");
	g_assert_cmpstr(l[1], ==, "WARNING: inconsistent lock state");
	g_assert_cmpstr(l[2], ==, "--------------------------------");
	g_assert_cmpstr(l[3], ==, "inconsistent {HARDIRQ-ON-W} -> {IN-HARDIRQ-W} usage.");
	g_assert_cmpstr(l[4], ==, "irqtest/cpu0 [HC1[1]:SC0[0]:HE0:SE1] takes:");
	g_assert_cmpstr(l[5], ==, " (&test->lock), at: timer_handler");
	g_assert_cmpstr(l[6], ==, "{HARDIRQ-ON-W} state was registered at:");
	g_assert_cmpstr(l[7], ==, "  holder");
	g_assert_cmpstr(l[10], ==, " Possible unsafe locking scenario:");
	g_assert_cmpstr(l[12], ==, "       CPU0");
	g_assert_cmpstr(l[13], ==, "       ----");
	g_assert_cmpstr(l[14], ==, "  lock(&test->lock);");
	g_assert_cmpstr(l[15], ==, "  <Interrupt>");
	g_assert_cmpstr(l[16], ==, "    lock(&test->lock);");
	g_assert_cmpstr(l[18], ==, " *** DEADLOCK ***");
	g_assert_cmpstr(l[20], ==,
			"The simulated run reached it: the interrupt handler on cpu0 "
			"spins on &test->lock, which the task it interrupted holds "
			"(taken at holder).");
	g_strfreev(l);
	g_assert_cmpint(sim_end(), ==, 5 * SIM_US + 1 * SIM_US); /* at the handler's lock */
	teardown();
}

/* spin_lock_irq: the arrival waits for the unlock; the handler then takes a
 * free lock. The class is irq-safe everywhere: nothing to report. */
static void test_irq_safe(void)
{
	setup(1);
	enum spin_flavour fl = SPIN_IRQ;
	sim_task_create("irqtest", 0, holder, &fl);
	g_assert_true(sim_engine_run());
	g_assert_cmpuint(lockdep_reports()->len, ==, 0);
	teardown();
}

/* Taken with interrupts on, released before the arrival: no deadlock, but
 * lockdep warns about the usage. */
static void short_holder(struct sim_task *t, void *arg)
{
	spin_lock_hold(t, &L, 1 * SIM_US, SIM_CAT_SYS, SPIN_PLAIN, "short_holder");
	sim_task_charge(t, SIM_CAT_USER, 20 * SIM_US);
}

static void test_inconsistent_warning(void)
{
	setup(1);
	sim_task_create("irqtest", 0, short_holder, NULL);
	g_assert_true(sim_engine_run());
	g_assert_false(lockdep_deadlocked());
	g_assert_cmpuint(lockdep_reports()->len, ==, 1);
	char **l = report_lines(0);
	g_assert_cmpstr(l[1], ==, "WARNING: inconsistent lock state");
	g_assert_cmpstr(l[3], ==, "inconsistent {HARDIRQ-ON-W} -> {IN-HARDIRQ-W} usage.");
	g_assert_cmpstr(l[7], ==, "  short_holder");
	g_strfreev(l);
	teardown();
}

/* A then B in one task, B then A in another, far enough apart in time not
 * to deadlock: lockdep still reports the inversion. */
static void ab(struct sim_task *t, void *arg)
{
	struct spin_entry *a = spin_lock(t, &A, SPIN_IRQ, "path_ab");
	spin_lock_hold(t, &B, 100 * SIM_NS, SIM_CAT_SYS, SPIN_IRQ, "path_ab");
	spin_unlock(t, &A, a);
}

static void ba(struct sim_task *t, void *arg)
{
	sim_task_charge(t, SIM_CAT_USER, 3 * SIM_US);
	struct spin_entry *b = spin_lock(t, &B, SPIN_IRQ, "path_ba");
	spin_lock_hold(t, &A, 100 * SIM_NS, SIM_CAT_SYS, SPIN_IRQ, "path_ba");
	spin_unlock(t, &B, b);
}

static void test_order_inversion(void)
{
	setup(2);
	src.cpu_mask[0] = 0; /* no interrupts here */
	sim_task_create("ab", 0, ab, NULL);
	sim_task_create("ba", 1, ba, NULL);
	g_assert_true(sim_engine_run());
	g_assert_cmpuint(lockdep_reports()->len, ==, 1);
	char **l = report_lines(0);
	g_assert_cmpstr(l[0], ==, "======================================================");
	g_assert_cmpstr(l[1], ==, "WARNING: possible circular locking dependency detected");
	g_assert_cmpstr(l[3], ==, "ba/cpu1 [HC0[0]:SC0[0]:HE0:SE1] is trying to acquire lock:");
	g_assert_cmpstr(l[4], ==, " (&a->lock), at: path_ba");
	g_assert_cmpstr(l[6], ==, "but task is already holding lock:");
	g_assert_cmpstr(l[7], ==, " (&b->lock), at: path_ba");
	g_assert_cmpstr(l[9], ==, "which lock already depends on the new lock.");
	gchar *all = g_strjoinv("\n", l);
	g_assert_nonnull(
	    strstr(all, "  lock(&b->lock);\n                               lock(&a->lock);\n"
			"                               lock(&b->lock);\n  lock(&a->lock);\n"));
	g_assert_nonnull(strstr(all, " *** DEADLOCK ***"));
	g_free(all);
	g_strfreev(l);
	teardown();
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	mcs_test_add_subprocess("/lockdep/irq/self-deadlock", test_self_deadlock);
	mcs_test_add_subprocess("/lockdep/irq/irq-safe", test_irq_safe);
	mcs_test_add_subprocess("/lockdep/irq/inconsistent-warning", test_inconsistent_warning);
	mcs_test_add_subprocess("/lockdep/order/inversion", test_order_inversion);
	return g_test_run();
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* Interrupts: delivery deferred while interrupts are off, handlers taken
 * where they fall otherwise, idle CPUs, against hand-computed timelines.
 * One CPU, default costs (uncontended lock 15.4 ns), a periodic source every
 * 5 us with a 1 us handler, not skewed: arrivals at 5, 10, 15 ... us. */
#include "sim_engine.h"
#include "sim_irq.h"
#include "spinlock.h"
#include "test_util.h"

static struct sim_irq_source src;
static struct spinlock lock;

static void setup(void)
{
	struct sim_machine m = mcs_test_machine(1, 1);
	memset(&src, 0, sizeof(src));
	src.name = "timer";
	src.kind = SIM_IRQ_PERIODIC;
	src.interval = 5 * SIM_US;
	src.handler = 1 * SIM_US;
	src.cpu_mask[0] = 1;
	sim_engine_init(&m, 0, SIM_S, 1);
	sim_engine_irqs(&src, 1);
	spin_lock_init(&lock, lock_class_get("&test->lock"));
}

static void teardown(void)
{
	spin_lock_destroy(&lock);
	lock_class_reset_all();
	sim_engine_fini();
	sim_hist_free(&src.latency);
}

static void holder(struct sim_task *t, void *arg)
{
	sim_task_charge(t, SIM_CAT_USER, 100 * SIM_NS);
	spin_lock_hold(t, &lock, 10 * SIM_US, SIM_CAT_SYS, *(enum spin_flavour *)arg, "holder");
}

/* spin_lock_irq at 100 ns: granted 115.4 ns, released 10115.4 ns. The
 * arrivals at 5 and 10 us wait: handlers at 10115.4 and 11115.4 ns. */
static void test_irqs_off_window(void)
{
	setup();
	enum spin_flavour fl = SPIN_IRQ;
	sim_task_create("t", 0, holder, &fl);
	g_assert_true(sim_engine_run());
	g_assert_cmpint(src.count, ==, 2);
	g_assert_cmpint(src.latency_max, ==, 5115400);		   /* 10115.4 - 5000 ns */
	g_assert_cmpint(src.latency_total, ==, 5115400 + 1115400); /* + 11115.4 - 10000 */
	g_assert_cmpint(sim_cpu_time(0, SIM_CAT_IRQ), ==, 2 * SIM_US);
	g_assert_cmpint(sim_end(), ==, 12115400);
	g_assert_cmpint(lock.cls->irqoff_total, ==, 10015400); /* arrival to release */
	g_assert_cmpint(lock.cls->hold_total, ==, 10 * SIM_US);
	teardown();
}

/* spin_lock with interrupts on: both arrivals are taken at once and the
 * handlers lengthen the hold to 12 us. */
static void test_irqs_on(void)
{
	setup();
	enum spin_flavour fl = SPIN_PLAIN;
	sim_task_create("t", 0, holder, &fl);
	g_assert_true(sim_engine_run());
	g_assert_cmpint(src.count, ==, 2);
	g_assert_cmpint(src.latency_max, ==, 0);
	g_assert_cmpint(lock.cls->hold_total, ==, 12 * SIM_US);
	g_assert_cmpint(lock.cls->irqoff_total, ==, 0);
	g_assert_cmpint(sim_end(), ==, 12115400);
	teardown();
}

/* An idle CPU for 20 us takes the arrivals at 5, 10 and 15 us. */
static void test_idle(void)
{
	struct sim_machine m = {
	    .nodes = 1, .cpus_per_node = 1, .clock_ghz = 2.1, .sched_slice = 750 * SIM_US};
	memset(&src, 0, sizeof(src));
	src.name = "timer";
	src.kind = SIM_IRQ_PERIODIC;
	src.interval = 5 * SIM_US;
	src.handler = 1 * SIM_US;
	src.cpu_mask[0] = 1;
	sim_engine_init(&m, 20 * SIM_US, SIM_S, 1);
	sim_engine_irqs(&src, 1);
	g_assert_true(sim_engine_run());
	g_assert_cmpint(src.count, ==, 3);
	g_assert_cmpint(sim_cpu_time(0, SIM_CAT_IRQ), ==, 3 * SIM_US);
	g_assert_cmpint(sim_cpu_time(0, SIM_CAT_IDLE), ==, 17 * SIM_US);
	sim_engine_fini();
	sim_hist_free(&src.latency);
}

/* A handler whose body takes time (3 us of it, in the handler): arrivals of
 * another source during it wait, and run once it returns; none is lost. */
static struct sim_irq_source two[2];

static void slow_body(struct sim_task *t, void *arg)
{
	sim_task_charge(t, SIM_CAT_SYS, 3 * SIM_US);
}

static void user_100us(struct sim_task *t, void *arg)
{
	sim_task_run(t, SIM_CAT_USER, 100 * SIM_US);
}

static void test_arrivals_during_handler(void)
{
	struct sim_machine m = {
	    .nodes = 1, .cpus_per_node = 1, .clock_ghz = 2.1, .sched_slice = 750 * SIM_US};
	memset(two, 0, sizeof(two));
	two[0] = (struct sim_irq_source){.name = "slow",
					 .kind = SIM_IRQ_PERIODIC,
					 .interval = 10 * SIM_US,
					 .handler = 1 * SIM_US,
					 .action = slow_body};
	two[1] = (struct sim_irq_source){.name = "fast",
					 .kind = SIM_IRQ_PERIODIC,
					 .interval = 7 * SIM_US,
					 .handler = 1 * SIM_US};
	two[0].cpu_mask[0] = two[1].cpu_mask[0] = 1;
	sim_engine_init(&m, 0, SIM_S, 1);
	sim_engine_irqs(two, 2);
	sim_task_create("t", 0, user_100us, NULL);
	g_assert_true(sim_engine_run());
	/* every arrival before the end ran (arrivals at k x interval) */
	g_assert_cmpint(two[0].count, ==, (sim_end() - 1) / two[0].interval);
	g_assert_cmpint(two[1].count, ==, (sim_end() - 1) / two[1].interval);
	g_assert_cmpint(two[1].latency_max, >, 0); /* some waited for a slow body */
	/* all the time is the task's, the handlers' or their bodies' */
	g_assert_cmpint(sim_cpu_time(0, SIM_CAT_USER), ==, 100 * SIM_US);
	g_assert_cmpint(sim_cpu_time(0, SIM_CAT_IRQ) + sim_cpu_time(0, SIM_CAT_SYS) +
			    sim_cpu_time(0, SIM_CAT_USER),
			==, sim_end());
	sim_engine_fini();
	sim_hist_free(&two[0].latency);
	sim_hist_free(&two[1].latency);
}

/* A handler body on an idle CPU runs at its arrival, after the handler's
 * cost: CPU 1 is idle while CPU 0 works 20 us; arrivals at 5, 10, 15 us. */
static sim_time_t body_ran_at[8];
static int bodies;

static void record_body(struct sim_task *t, void *arg)
{
	g_assert_cmpint(sim_task_cpu(t), ==, 1);
	body_ran_at[bodies++] = sim_now();
}

static void user_20us(struct sim_task *t, void *arg)
{
	sim_task_run(t, SIM_CAT_USER, 20 * SIM_US);
}

static void test_body_on_idle_cpu(void)
{
	struct sim_machine m = {
	    .nodes = 1, .cpus_per_node = 2, .clock_ghz = 2.1, .sched_slice = 750 * SIM_US};
	memset(&src, 0, sizeof(src));
	src = (struct sim_irq_source){.name = "dev",
				      .kind = SIM_IRQ_PERIODIC,
				      .interval = 5 * SIM_US,
				      .handler = 1 * SIM_US,
				      .action = record_body};
	src.cpu_mask[0] = 2; /* CPU 1 only */
	bodies = 0;
	sim_engine_init(&m, 0, SIM_S, 1);
	sim_engine_irqs(&src, 1);
	sim_task_create("t", 0, user_20us, NULL);
	g_assert_true(sim_engine_run());
	g_assert_cmpint(sim_end(), ==, 20 * SIM_US);
	g_assert_cmpint(bodies, ==, 3);
	g_assert_cmpint(body_ran_at[0], ==, 6 * SIM_US);
	g_assert_cmpint(body_ran_at[1], ==, 11 * SIM_US);
	g_assert_cmpint(body_ran_at[2], ==, 16 * SIM_US);
	g_assert_cmpint(sim_cpu_time(1, SIM_CAT_IRQ), ==, 3 * SIM_US);
	g_assert_cmpint(sim_cpu_time(1, SIM_CAT_IDLE), ==, 17 * SIM_US);
	sim_engine_fini();
	sim_hist_free(&src.latency);
}

/* A run to completion that reaches its limit stops there, unfinished. */
static void test_limit(void)
{
	struct sim_machine m = {
	    .nodes = 1, .cpus_per_node = 1, .clock_ghz = 2.1, .sched_slice = 750 * SIM_US};
	sim_engine_init(&m, 0, 10 * SIM_US, 1);
	sim_task_create("t", 0, user_20us, NULL);
	g_assert_false(sim_engine_run());
	g_assert_cmpint(sim_end(), ==, 10 * SIM_US);
	sim_engine_fini();
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	mcs_test_add_subprocess("/irq/latency/irqs-off-window", test_irqs_off_window);
	mcs_test_add_subprocess("/irq/latency/irqs-on", test_irqs_on);
	mcs_test_add_subprocess("/irq/idle", test_idle);
	mcs_test_add_subprocess("/irq/arrivals-during-a-handler", test_arrivals_during_handler);
	mcs_test_add_subprocess("/irq/body-on-idle-cpu", test_body_on_idle_cpu);
	mcs_test_add_subprocess("/engine/limit", test_limit);
	return g_test_run();
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* RCU grace periods against hand-computed latencies. Four CPUs; the caller
 * runs on CPU 0, the other CPUs do what each case says. */
#include "rcu.h"
#include "sim_irq.h"
#include "spinlock.h"
#include "test_util.h"

static struct sim_irq_source tick;
static struct spinlock lock;
static sim_time_t latency;

static void setup(bool with_tick)
{
	struct sim_machine m = mcs_test_machine(1, 4);
	memset(&tick, 0, sizeof(tick));
	tick.name = "tick";
	tick.kind = SIM_IRQ_PERIODIC;
	tick.interval = 1 * SIM_MS; /* HZ=1000, all CPUs together: 1, 2, 3 ... ms */
	tick.handler = 1 * SIM_US;
	tick.cpu_mask[0] = 0xf;
	sim_engine_init(&m, 0, SIM_S, 1);
	sim_engine_irqs(&tick, with_tick);
	rcu_init(with_tick ? 0 : -1);
	spin_lock_init(&lock, lock_class_get("&test->lock"));
}

static void teardown(void)
{
	rcu_fini();
	lock_class_reset_all();
	sim_engine_fini();
	sim_hist_free(&tick.latency);
}

static void caller(struct sim_task *t, void *arg)
{
	sim_task_charge(t, SIM_CAT_SYS, *(sim_time_t *)arg);
	sim_task_flush(t);
	sim_time_t start = sim_now();
	synchronize_rcu(t);
	latency = sim_task_clock(t) - start;
}

static void exp_caller(struct sim_task *t, void *arg)
{
	sim_task_charge(t, SIM_CAT_SYS, *(sim_time_t *)arg);
	sim_task_flush(t);
	sim_time_t start = sim_now();
	synchronize_rcu_expedited(t);
	latency = sim_task_clock(t) - start;
}

static void kernel_5ms(struct sim_task *t, void *arg)
{
	sim_task_charge(t, SIM_CAT_SYS, 5 * SIM_MS); /* no switch, no user mode */
}

static void user_10ms(struct sim_task *t, void *arg)
{
	sim_task_run(t, SIM_CAT_USER, 10 * SIM_MS);
}

/* Every other CPU idle: the grace period ends as the caller sleeps. */
static void test_idle_machine(void)
{
	setup(false);
	sim_time_t at = 1 * SIM_US;
	sim_task_create("caller", 0, caller, &at);
	g_assert_true(sim_engine_run());
	g_assert_cmpint(latency, ==, 0);
	teardown();
}

/* CPUs 1-3 in the kernel for 5 ms without a switch: the grace period from
 * 1 ms ends when they leave their CPUs at 5 ms. */
static void test_busy_kernel(void)
{
	setup(true); /* ticks find them in the kernel: no quiescent state */
	sim_time_t at = 1 * SIM_MS;
	sim_task_create("caller", 0, caller, &at);
	for (int c = 1; c < 4; c++)
		sim_task_create("busy", c, kernel_5ms, NULL);
	g_assert_true(sim_engine_run());
	/* Each busy CPU also runs the handlers (1 us) of the ticks at 1, 2, 3
	 * and 4 ms, which push its work to 5.004 ms, past the tick at 5 ms:
	 * it leaves at 5.005 ms. */
	g_assert_cmpint(latency, ==, 4 * SIM_MS + 5 * SIM_US);
	teardown();
}

/* CPUs 1-3 in user mode: the tick at 2 ms reports for them, after its 1 us
 * handler, at 2.001 ms. The caller's 1.5 ms of kernel work took its own
 * tick at 1 ms, so it calls at 1.501 ms: the grace period takes 500 us. */
static void test_busy_user(void)
{
	setup(true);
	sim_time_t at = 1500 * SIM_US;
	sim_task_create("caller", 0, caller, &at);
	for (int c = 1; c < 4; c++)
		sim_task_create("busy", c, user_10ms, NULL);
	g_assert_true(sim_engine_run());
	g_assert_cmpint(latency, ==, 500 * SIM_US);
	teardown();
}

/* Expedited, nobody in a read-side section: three IPIs (1 us each). */
static void test_expedited_free(void)
{
	setup(false);
	sim_time_t at = 1 * SIM_MS;
	sim_task_create("caller", 0, exp_caller, &at);
	for (int c = 1; c < 4; c++)
		sim_task_create("busy", c, kernel_5ms, NULL);
	g_assert_true(sim_engine_run());
	g_assert_cmpint(latency, ==, 3 * SIM_US);
	teardown();
}

/* Expedited while CPU 1 holds a spinlock (preemption off) from 0.5 ms for
 * 2 ms (granted 15.4 ns after it asks): it reports at its unlock, 2.5000154
 * ms, so the call at 1 ms takes 1.5000154 ms. */
static void holder(struct sim_task *t, void *arg)
{
	sim_task_charge(t, SIM_CAT_SYS, 500 * SIM_US);
	spin_lock_hold(t, &lock, 2 * SIM_MS, SIM_CAT_SYS, SPIN_PLAIN, "holder");
}

static void test_expedited_reader(void)
{
	setup(false);
	sim_time_t at = 1 * SIM_MS;
	sim_task_create("caller", 0, exp_caller, &at);
	sim_task_create("holder", 1, holder, NULL);
	g_assert_true(sim_engine_run());
	g_assert_cmpint(latency, ==, 1500015400);
	teardown();
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	mcs_test_add_subprocess("/rcu/gp/idle-machine", test_idle_machine);
	mcs_test_add_subprocess("/rcu/gp/busy-kernel", test_busy_kernel);
	mcs_test_add_subprocess("/rcu/gp/busy-user-tick", test_busy_user);
	mcs_test_add_subprocess("/rcu/expedited/no-readers", test_expedited_free);
	mcs_test_add_subprocess("/rcu/expedited/reader-holds-lock", test_expedited_reader);
	return g_test_run();
}

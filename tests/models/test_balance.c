// SPDX-License-Identifier: GPL-2.0-or-later
/* Task migration (machine.migration, sim_balance.h) against hand-computed
 * choices and timelines: which CPU a newly idle CPU pulls from, where a
 * woken task runs, and what a move costs the task (its lines stay behind).
 *
 * The machine: 2 nodes of 4 cores x 2 threads; CPUs 0-3 are node 0's cores,
 * 4-7 their siblings. With 2 cores an LLC domain, CPU 0's LLC is {0, 1, 4,
 * 5} and CPUs 2, 3, 6, 7 are the socket's other LLC; node 1 is CPUs 8-15.
 * Costs: a line from another core of the LLC 40 ns, from the CPU's own
 * cache 0; no context-switch cost. */
#include "cacheline.h"
#include "sim_balance.h"
#include "sim_engine.h"
#include "test_util.h"

static struct sim_machine balance_machine(int cores_per_llc, bool migration)
{
	struct sim_machine m = mcs_test_machine(2, 8);
	m.threads_per_core = 2;
	m.cores_per_llc = cores_per_llc;
	m.nodes_per_socket = 1;
	m.cost[COST_LINE_SAME_CPU] = 0;
	m.cost[COST_LINE_LLC] = 40 * SIM_NS;
	m.context_switch = 0;
	m.migration = migration;
	return m;
}

static int waiting_on[16];
static bool idle_cpu[16];

static int fake_waiting(int c)
{
	return waiting_on[c];
}

static bool fake_idle(int c)
{
	return idle_cpu[c];
}

/* Newly idle CPU 1 pulls from the smallest domain with tasks waiting, not
 * from the machine's busiest CPU: CPU 0 (its LLC, 1 waiting) before CPU 2
 * (its socket, 2) before CPU 8 (the other node, 3); its SMT sibling, CPU 5,
 * before all; none waiting anywhere: -1. Ties go to the first from the
 * idle CPU + 1 on: CPUs 12 and 9 with 3 each, CPU 9 is first after 1. */
static void test_busiest(void)
{
	struct sim_machine m = balance_machine(2, true);
	sim_engine_init(&m, 0, SIM_S, 1);
	memset(waiting_on, 0, sizeof(waiting_on));
	g_assert_cmpint(sim_balance_busiest(sim_machine(), 1, fake_waiting), ==, -1);
	waiting_on[8] = 3;
	g_assert_cmpint(sim_balance_busiest(sim_machine(), 1, fake_waiting), ==, 8);
	waiting_on[2] = 2;
	g_assert_cmpint(sim_balance_busiest(sim_machine(), 1, fake_waiting), ==, 2);
	waiting_on[0] = 1;
	g_assert_cmpint(sim_balance_busiest(sim_machine(), 1, fake_waiting), ==, 0);
	waiting_on[5] = 1;
	g_assert_cmpint(sim_balance_busiest(sim_machine(), 1, fake_waiting), ==, 5);
	memset(waiting_on, 0, sizeof(waiting_on));
	waiting_on[12] = 3;
	waiting_on[9] = 3;
	g_assert_cmpint(sim_balance_busiest(sim_machine(), 1, fake_waiting), ==, 9);
	sim_engine_fini();
}

/* select_idle_sibling with one LLC a node (4 cores: CPUs 0-7). Woken while
 * CPU 0 is busy, with CPUs 1, 3 and 7 idle and CPU 5 busy: core {1, 5} is
 * not idle, core {3, 7} is, so CPU 3, though CPU 1 comes first. With only
 * CPU 1 idle: CPU 1. With CPU 8 idle alone (the other LLC): CPU 0 stays. */
static void test_idle_sibling(void)
{
	struct sim_machine m = balance_machine(4, true);
	sim_engine_init(&m, 0, SIM_S, 1);
	memset(idle_cpu, 0, sizeof(idle_cpu));
	idle_cpu[1] = idle_cpu[3] = idle_cpu[7] = true;
	g_assert_cmpint(sim_balance_idle_sibling(sim_machine(), 0, fake_idle), ==, 3);
	memset(idle_cpu, 0, sizeof(idle_cpu));
	idle_cpu[1] = true;
	g_assert_cmpint(sim_balance_idle_sibling(sim_machine(), 0, fake_idle), ==, 1);
	memset(idle_cpu, 0, sizeof(idle_cpu));
	idle_cpu[8] = true;
	g_assert_cmpint(sim_balance_idle_sibling(sim_machine(), 0, fake_idle), ==, 0);
	sim_engine_fini();
}

/* A and B share CPU 0, C runs on CPU 1. A stores its line, then works 1 ms:
 * at 750 us its slice ends and B takes CPU 0; at 800 us C exits and CPU 1,
 * newly idle, pulls A (waiting on CPU 0, in its LLC). A ends its work on
 * CPU 1 at 1050 us and loads its line there: a transfer from CPU 0, 40 ns.
 * B works 1 ms from 750 us, alone: 1750 us. Without migration A waits for
 * B's slice (750-1500 us), finishes at 1750 us and finds its line in CPU
 * 0's cache (0 ns); B's last 250 us end the run at 2000 us. So does a bound
 * A (sim_task_bind, a kernel thread's affinity) with migration on: CPU 1
 * finds nothing it may pull. */
static struct cacheline own_line;
static sim_time_t a_load, a_end;
static struct sim_task *task_a;

static void task_a_fn(struct sim_task *t, void *arg)
{
	sim_task_charge(t, SIM_CAT_SYS, line_access(sim_task_cpu(t), &own_line, LINE_STORE, "a"));
	sim_task_run(t, SIM_CAT_USER, SIM_MS);
	sim_task_flush(t);
	a_load = line_access(sim_task_cpu(t), &own_line, LINE_LOAD, "a");
	sim_task_charge(t, SIM_CAT_SYS, a_load);
	a_end = sim_task_clock(t);
}

static void work_fn(struct sim_task *t, void *arg)
{
	sim_task_run(t, SIM_CAT_USER, *(const sim_time_t *)arg);
}

static void line_follows(bool migration, bool bound)
{
	struct sim_machine m = balance_machine(2, migration);
	sim_engine_init(&m, 0, SIM_S, 1);
	line_init(&own_line, line_class_get("own"), 0);
	static const sim_time_t b_work = SIM_MS, c_work = 800 * SIM_US;
	task_a = sim_task_create("a", 0, task_a_fn, NULL);
	if (bound)
		sim_task_bind(task_a);
	migration &= !bound;
	sim_task_create("b", 0, work_fn, (void *)&b_work);
	sim_task_create("c", 1, work_fn, (void *)&c_work);
	g_assert_true(sim_engine_run());
	g_assert_cmpint(sim_task_cpu(task_a), ==, migration ? 1 : 0);
	g_assert_cmpint(sim_engine_migrations(), ==, migration ? 1 : 0);
	g_assert_cmpint(a_load, ==, migration ? 40 * SIM_NS : 0);
	g_assert_cmpint(a_end, ==, migration ? 1050 * SIM_US + 40 * SIM_NS : 1750 * SIM_US);
	g_assert_cmpint(sim_end(), ==, migration ? 1750 * SIM_US : 2000 * SIM_US);
	line_class_reset_all();
	sim_engine_fini();
}

static void test_line_follows(void)
{
	line_follows(true, false);
}

static void test_line_stays(void)
{
	line_follows(false, false);
}

static void test_bound_stays(void)
{
	line_follows(true, true);
}

/* A works 10 us on CPU 0, then sleeps 100 us; meanwhile B, waiting there,
 * takes CPU 0 for 1 ms of work (its slice ends at 760 us). A wakes at 110
 * us with CPU 0 busy: it runs its 200 us on CPU 1, idle in CPU 0's LLC,
 * and ends at 310 us. Without migration it waits for B's slice to end and
 * ends at 960 us. A task whose first act is to sleep (its start delay)
 * stays where it was created, which stands for fork balancing's choice:
 * sleeping 110 us first, A waits for B's slice (750 us) and ends at 950. */
static sim_time_t sleeper_end;

static void sleeper_fn(struct sim_task *t, void *arg)
{
	sim_time_t first = *(const sim_time_t *)arg;
	if (first)
		sim_task_charge(t, SIM_CAT_SYS, first);
	sim_task_sleep(t, 110 * SIM_US - first);
	sim_task_run(t, SIM_CAT_USER, 200 * SIM_US);
	sim_task_flush(t);
	sleeper_end = sim_task_clock(t);
}

static void wake_placement(bool migration, sim_time_t first, int cpu, sim_time_t end)
{
	struct sim_machine m = balance_machine(2, migration);
	sim_engine_init(&m, 0, SIM_S, 1);
	static const sim_time_t b_work = SIM_MS;
	struct sim_task *a = sim_task_create("a", 0, sleeper_fn, &first);
	sim_task_create("b", 0, work_fn, (void *)&b_work);
	g_assert_true(sim_engine_run());
	g_assert_cmpint(sim_task_cpu(a), ==, cpu);
	g_assert_cmpint(sleeper_end, ==, end);
	sim_engine_fini();
}

static void test_wake_moves(void)
{
	wake_placement(true, 10 * SIM_US, 1, 310 * SIM_US);
}

static void test_wake_waits(void)
{
	wake_placement(false, 10 * SIM_US, 0, 960 * SIM_US);
}

static void test_wake_fresh(void)
{
	wake_placement(true, 0, 0, 950 * SIM_US);
}

/* Periodic balance: A, B and C share CPU 0, D is alone on CPU 1, each
 * working 1 ms (D 2 ms, after 100 us that are not preemptible, so that its
 * slices end 100 us after CPU 0's). At 850 us, D's first slice end, CPU 1
 * has 1 task and CPU 0 3 (B running, C and A waiting): it pulls C, the
 * longest waiting, which runs 850-1600 us while D waits, then D 1600-2350.
 * CPU 0 runs A 0-750, B 750-1500, A 1500-1750, B 1750-2000 and goes idle:
 * its newly idle balance pulls C back (waiting on CPU 1), which ends its
 * last 250 us at 2250; D, alone again, ends at 2850 us. Two migrations.
 * Without migration CPU 0 runs A, B, C, A, B, C to 3000 us and D ends at
 * 2100 us alone. */
static const sim_time_t one_ms = SIM_MS;

static void long_fn(struct sim_task *t, void *arg)
{
	sim_task_charge(t, SIM_CAT_SYS, 100 * SIM_US);
	sim_task_run(t, SIM_CAT_USER, 2 * SIM_MS);
}

static void periodic(bool migration)
{
	struct sim_machine m = balance_machine(2, migration);
	sim_engine_init(&m, 0, SIM_S, 1);
	sim_task_create("a", 0, work_fn, (void *)&one_ms);
	sim_task_create("b", 0, work_fn, (void *)&one_ms);
	struct sim_task *c = sim_task_create("c", 0, work_fn, (void *)&one_ms);
	sim_task_create("d", 1, long_fn, NULL);
	g_assert_true(sim_engine_run());
	g_assert_cmpint(sim_task_cpu(c), ==, 0);
	g_assert_cmpint(sim_engine_migrations(), ==, migration ? 2 : 0);
	g_assert_cmpint(sim_end(), ==, migration ? 2850 * SIM_US : 3000 * SIM_US);
	sim_engine_fini();
}

static void test_periodic(void)
{
	periodic(true);
}

static void test_periodic_off(void)
{
	periodic(false);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	mcs_test_add_subprocess("/balance/newidle/busiest", test_busiest);
	mcs_test_add_subprocess("/balance/wake/idle-sibling", test_idle_sibling);
	mcs_test_add_subprocess("/balance/newidle/line-follows", test_line_follows);
	mcs_test_add_subprocess("/balance/off/line-stays", test_line_stays);
	mcs_test_add_subprocess("/balance/bound/stays", test_bound_stays);
	mcs_test_add_subprocess("/balance/wake/moves", test_wake_moves);
	mcs_test_add_subprocess("/balance/off/wake-waits", test_wake_waits);
	mcs_test_add_subprocess("/balance/wake/fresh-stays", test_wake_fresh);
	mcs_test_add_subprocess("/balance/periodic/two-more", test_periodic);
	mcs_test_add_subprocess("/balance/off/periodic", test_periodic_off);
	return g_test_run();
}

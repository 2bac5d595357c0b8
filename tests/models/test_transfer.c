// SPDX-License-Identifier: GPL-2.0-or-later
/* machine.contention "transfer" against hand-computed values: a transfer
 * queued behind k requests costs the pile-up rule's time, a CPU that uses
 * its line again before anyone asks (or before the asker's snoop reaches
 * it) pays nothing for the line, independent misses overlap and dependent
 * ones do not, and a tight loop's short interval comes out of the keeping.
 *
 * The test machine: 2 sockets (nodes) of 4 CPUs, one thread a core, one LLC
 * a socket. Costs: hit 0, a transfer in the socket 40 ns (so the line's way
 * back is 20), across 150, a locked RMW 5, line_pileup_ns 2 (unless a test
 * says), line_issue_ns 1. */
#include "cacheline.h"
#include "cost.h"
#include "test_util.h"
#include <math.h>

static struct sim_machine transfer_machine(void)
{
	struct sim_machine m = mcs_test_machine(2, 4);
	m.threads_per_core = 1;
	m.cores_per_llc = 4;
	m.nodes_per_socket = 1;
	m.contention = SIM_CONTENTION_TRANSFER;
	m.cost[COST_LINE_SAME_CPU] = 0;
	m.cost[COST_LINE_LLC] = 40 * SIM_NS;
	m.cost[COST_LINE_SOCKET] = 40 * SIM_NS;
	m.cost[COST_LINE_REMOTE] = 150 * SIM_NS;
	m.cost[COST_LOCKED_RMW] = 5 * SIM_NS;
	m.cost[COST_PREEMPT] = 0;
	m.cost[COST_LINE_INVAL] = 0;
	m.cost[COST_LINE_PILEUP] = 2 * SIM_NS;
	m.cost[COST_LINE_ISSUE] = 1 * SIM_NS;
	return m;
}

#define NS(x) ((sim_time_t)(x)*SIM_NS)

static struct sim_machine M;

static void engine_up(sim_time_t pileup)
{
	M = transfer_machine();
	M.cost[COST_LINE_PILEUP] = pileup;
	sim_engine_init(&M, 0, SIM_S, 1);
}

static void engine_down(void)
{
	line_class_reset_all();
	sim_engine_fini();
}

/* CPU 0 has the line (its first RMW, at 0, finds it fresh: 5 ns). With
 * line_pileup_ns 5, CPUs 1, 2, 3 ask for it at 0 and CPU 0 again at 1:
 *  - CPU 1 finds it idle in CPU 0's cache: the idle transfer 40 + 5 = 45;
 *  - CPU 2 waits for CPU 1's service (45); none waits besides: the way back
 *    20 + 5: 45 + 25 = 70;
 *  - CPU 3 waits until 70, with CPU 2 waiting behind the service (k = 1):
 *    20 + 5 + 5, ending at 100;
 *  - CPU 0 waits until 100, with k = 2: 20 + 10 + 5: 99 + 35 = 134.
 * CPU 2 holds the line from 70 until CPU 3's snoop, 70 + 5: its RMW at 70
 * ends by then, a hit (5); at 75 the line has gone, and it queues behind
 * CPU 3's service and CPU 0's request (k = 1): 135 - 75 + 30 = 90. */
static void test_pileup_and_keep(void)
{
	engine_up(NS(5));
	struct cacheline l;
	line_init(&l, line_class_get("line"), 0);
	sim_time_t w;
	g_assert_cmpint(line_access_at(0, &l, LINE_RMW, "a", 0, &w), ==, NS(5));
	g_assert_cmpint(line_access_at(0, &l, LINE_RMW, "a", NS(5), &w), ==, NS(5));
	g_assert_cmpint(line_access_at(1, &l, LINE_RMW, "a", 0, &w), ==, NS(45));
	g_assert_cmpint(w, ==, 0);
	g_assert_cmpint(line_access_at(2, &l, LINE_RMW, "a", 0, &w), ==, NS(70));
	g_assert_cmpint(w, ==, NS(45));
	g_assert_cmpint(line_access_at(3, &l, LINE_RMW, "a", 0, &w), ==, NS(100));
	g_assert_cmpint(w, ==, NS(70));
	g_assert_cmpint(line_access_at(0, &l, LINE_RMW, "a", NS(1), &w), ==, NS(134));
	g_assert_cmpint(w, ==, NS(99));
	g_assert_cmpint(line_access_at(2, &l, LINE_RMW, "a", NS(70), &w), ==, NS(5));
	g_assert_cmpint(line_access_at(2, &l, LINE_RMW, "a", NS(75), &w), ==, NS(90));
	g_assert_cmpint(w, ==, NS(60));
	struct line_counts n = line_class_counts(line_class_get("line"));
	g_assert_cmpint(n.from[LINE_RMW][LINE_HIT], ==, 3);
	g_assert_cmpint(n.transfers, ==, 5);
	engine_down();
}

/* A home that waits for every node's probe response (line_home_ns 30,
 * line_pileup_ns 5): an idle request pays only its idle transfer, a queued
 * one the way back, the pile-up and the home's 30. CPU 0 has the line; CPUs
 * 1, 2, 3 ask at 0: CPU 1 finds it idle, 40 + 5 = 45; CPU 2 waits 45 and is
 * served in 20 + 30 + 5: 100; CPU 3 waits until 100 with CPU 2 behind the
 * service (k = 1): 20 + 5 + 30 + 5, 160. */
static void test_home_round(void)
{
	M = transfer_machine();
	M.cost[COST_LINE_PILEUP] = NS(5);
	M.cost[COST_LINE_HOME] = NS(30);
	sim_engine_init(&M, 0, SIM_S, 1);
	struct cacheline l;
	line_init(&l, line_class_get("line"), 0);
	sim_time_t w;
	g_assert_cmpint(line_access_at(0, &l, LINE_RMW, "a", 0, &w), ==, NS(5));
	g_assert_cmpint(line_access_at(1, &l, LINE_RMW, "a", 0, &w), ==, NS(45));
	g_assert_cmpint(line_access_at(2, &l, LINE_RMW, "a", 0, &w), ==, NS(100));
	g_assert_cmpint(w, ==, NS(45));
	g_assert_cmpint(line_access_at(3, &l, LINE_RMW, "a", 0, &w), ==, NS(160));
	g_assert_cmpint(w, ==, NS(100));
	engine_down();
}

/* Five stores by CPU 0 to five lines CPU 4 (the other socket) holds:
 * independent, they overlap: the last is made 4 x 1 ns after the first and
 * takes the idle 150: 154. Each needing the one before (a pointer chase):
 * five latencies, 750. Under "queued" the same five independent stores are
 * made one after the other: 750. */
static sim_time_t five_stores(enum sim_contention c, bool chase)
{
	M = transfer_machine();
	M.contention = c;
	sim_engine_init(&M, 0, SIM_S, 1);
	struct cacheline l[5];
	struct line_req r[5];
	for (int i = 0; i < 5; i++) {
		line_init(&l[i], line_class_get("line"), 0);
		line_access_at(4, &l[i], LINE_STORE, "own", 0, NULL);
		r[i] = (struct line_req){&l[i], LINE_STORE, "step", chase ? i - 1 : -1};
	}
	sim_time_t wait, t = line_access_group(0, r, 5, NS(1000), &wait);
	g_assert_cmpint(wait, ==, 0);
	sim_time_t spent, waited;
	line_cpu_spent(0, &spent, &waited);
	g_assert_cmpint(spent, ==, t);
	engine_down();
	return t;
}

static void test_overlap(void)
{
	g_assert_cmpint(five_stores(SIM_CONTENTION_TRANSFER, false), ==, NS(154));
}

static void test_chase(void)
{
	g_assert_cmpint(five_stores(SIM_CONTENTION_TRANSFER, true), ==, NS(750));
}

static void test_queued_serial(void)
{
	g_assert_cmpint(five_stores(SIM_CONTENTION_QUEUED, false), ==, NS(750));
}

/* Twelve independent misses: ten in flight at most, so the eleventh is made
 * when the first ends (at 150) and the twelfth when the second does (151):
 * 151 + 150 = 301. */
static void test_mlp(void)
{
	engine_up(NS(2));
	struct cacheline l[12];
	struct line_req r[12];
	for (int i = 0; i < 12; i++) {
		line_init(&l[i], line_class_get("line"), 0);
		line_access_at(4, &l[i], LINE_STORE, "own", 0, NULL);
		r[i] = (struct line_req){&l[i], LINE_LOAD, "step", -1};
	}
	g_assert_cmpint(line_access_group(0, r, 12, 0, NULL), ==, NS(301));
	engine_down();
}

/* A tight loop of increments, 100 a CPU, on CPUs of one socket, with
 * line_pileup_ns 10. Every service of the line is its way back (20) + the
 * pile-up of the requests waiting besides the one in service + the RMW (5);
 * the holder keeps the line for the pile-up after the next service begins,
 * and increments it again every 5 ns meanwhile. Two CPUs: no request waits
 * besides the one in service, so one increment a visit, 25 ns apart, 2 in
 * 50. Three: one waits (k = 1), each visit takes 20 + 10 + 5 = 35 and its
 * holder then makes 2 more increments (at +0 and +5, both over by +10): 3
 * a visit, 9 in a round of the three CPUs, 105 ns. */
static struct cacheline counter;
static sim_time_t done[512];
static int ndone;

static void incrementer(struct sim_task *t, void *arg)
{
	(void)arg;
	for (int i = 0; i < 100; i++) {
		line_atomic(t, &counter, SIM_CAT_SYS, "atomic_inc");
		done[ndone++] = sim_task_clock(t);
	}
}

static void tight_loop_run(int cpus, sim_time_t pileup)
{
	M = transfer_machine();
	M.cost[COST_LINE_PILEUP] = pileup;
	sim_engine_init(&M, 0, SIM_S, 1);
	line_init(&counter, line_class_get("counter"), 0);
	ndone = 0;
	for (int i = 0; i < cpus; i++)
		sim_task_create("inc", i, incrementer, NULL);
	g_assert_true(sim_engine_run());
	g_assert_cmpint(ndone, ==, 100 * cpus);
}

static void tight_loop(int cpus, int every, sim_time_t span)
{
	tight_loop_run(cpus, NS(10));
	for (int i = 20 * cpus; i + every < 80 * cpus; i++)
		g_assert_cmpint(done[i + every] - done[i], ==, span);
	engine_down();
}

static void test_tight_loop_nokeep(void)
{
	tight_loop(2, 2, NS(50));
}

static void test_tight_loop_keep(void)
{
	tight_loop(3, 9, NS(105));
}

/* With line_pileup_ns 12.5 the third increment of a holder's window starts
 * at +10 and would end at +15, after the snoop at +12.5: it is kept half the
 * time. A visit then has 1 + 2 + 0.5 increments on average: 300 increments
 * over about 86 visits (the draws' spread is 4.6 increments, about 1.3
 * visits: the bound 3.5 +- 0.25 is more than five times that). */
static void test_tight_loop_straddle(void)
{
	tight_loop_run(3, 12500); /* 12.5 ns */
	struct line_counts n = line_class_counts(line_class_get("counter"));
	double per_visit = 300.0 / (double)n.transfers;
	g_test_message("%.3f increments a visit", per_visit);
	g_assert_cmpfloat(fabs(per_visit - 3.5), <, 0.25);
	engine_down();
}

/* A flat cost above its private bound (machine.private_ns): two calls of
 * anon_fault_ns 1000 with a bound of 300 charge 600 ns of sys and 1400 of
 * unexplained time; a cost without a bound, all of it as sys. */
static void flat_charger(struct sim_task *t, void *arg)
{
	(void)arg;
	cost_charge_flat(t, SIM_CAT_SYS, COST_ANON_FAULT, 2);
	cost_charge_flat(t, SIM_CAT_SYS, COST_ZAP_PAGE, 1);
}

static void test_unexplained(void)
{
	M = transfer_machine();
	M.cost[COST_ANON_FAULT] = NS(1000);
	M.cost_private[COST_ANON_FAULT] = NS(300);
	M.cost[COST_ZAP_PAGE] = NS(500);
	sim_engine_init(&M, 0, SIM_S, 1);
	sim_task_create("flat", 0, flat_charger, NULL);
	g_assert_true(sim_engine_run());
	g_assert_cmpint(sim_cpu_time(0, SIM_CAT_SYS), ==, NS(1100));
	g_assert_cmpint(sim_cpu_time(0, SIM_CAT_UNEXPLAINED), ==, NS(1400));
	engine_down();
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	mcs_test_add_subprocess("/transfer/pileup-and-keep", test_pileup_and_keep);
	mcs_test_add_subprocess("/transfer/home-round", test_home_round);
	mcs_test_add_subprocess("/transfer/overlap/independent", test_overlap);
	mcs_test_add_subprocess("/transfer/overlap/chase", test_chase);
	mcs_test_add_subprocess("/transfer/overlap/queued-serial", test_queued_serial);
	mcs_test_add_subprocess("/transfer/overlap/mlp", test_mlp);
	mcs_test_add_subprocess("/transfer/tight-loop/no-keep", test_tight_loop_nokeep);
	mcs_test_add_subprocess("/transfer/tight-loop/keep", test_tight_loop_keep);
	mcs_test_add_subprocess("/transfer/tight-loop/straddle", test_tight_loop_straddle);
	mcs_test_add_subprocess("/flat/unexplained", test_unexplained);
	return g_test_run();
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* The engine layer: exact time, time-sharing, accounting. Each simulation
 * runs in a subprocess: SimGrid allows one per process. */
#include "runner.h"
#include "scenario.h"
#include "sim_engine.h"
#include "sim_hist.h"
#include "sim_rng.h"
#include "sim_sched.h"
#include "sim_smt.h"
#include "sim_wakeq.h"
#include "test_util.h"

static struct sim_machine small_machine(int nodes, int cpus_per_node)
{
	struct sim_machine m = {.nodes = nodes,
				.cpus_per_node = cpus_per_node,
				.clock_ghz = 2.1,
				.sched_slice = 750 * SIM_US};
	return m;
}

static void seven_ns(struct sim_task *t, void *arg)
{
	sim_task_charge(t, SIM_CAT_SYS, sim_from_ns(7));
	sim_task_flush(t);
	g_assert_cmpint(sim_now(), ==, 7 * SIM_NS);
	for (int i = 0; i < 1000; i++) {
		sim_task_charge(t, SIM_CAT_SYS, sim_from_ns(7));
		sim_task_flush(t); /* one engine sleep each */
	}
	g_assert_cmpint(sim_now(), ==, 7007 * SIM_NS);
	sim_task_charge(t, SIM_CAT_SYS, sim_from_ns(15.4));
	sim_task_flush(t);
	g_assert_cmpint(sim_now(), ==, 7007 * SIM_NS + 15400);
}

/* SimGrid's clock itself keeps 7 ns exactly: every flush sleeps in the engine
 * (MEMCGSIM_NO_LOOKAHEAD, MEMCGSIM_ENGINE=sleep). With the lookahead a task
 * alone makes one engine call: at its first flush the run's watchdog,
 * created at 0, has not run. The hand-over engine keeps the time itself. */
static void time_7ns(bool lookahead)
{
	if (!lookahead)
		g_setenv("MEMCGSIM_NO_LOOKAHEAD", "1", TRUE);
	struct sim_machine m = small_machine(1, 1);
	sim_engine_init(&m, 0, SIM_S, 1);
	sim_task_create("t", 0, seven_ns, NULL);
	g_assert_true(sim_engine_run());
	g_assert_cmpint(sim_end(), ==, 7007 * SIM_NS + 15400);
	g_assert_cmpint(sim_cpu_time(0, SIM_CAT_SYS), ==, sim_end());
	/* Under the hand-over engine the task is always the first due: no
	 * hand-over, with the lookahead or without. */
	if (g_str_equal(sim_sched_name(), "sleep"))
		g_assert_cmpint(sim_engine_calls(), ==, lookahead ? 1 : 1002);
	else
		g_assert_cmpint(sim_engine_calls(), ==, 0);
	/* The sleep engine's first flush waits for the watchdog; the hand-over
	 * engine starts the run with it. */
	int first = g_str_equal(sim_sched_name(), "sleep");
	g_assert_cmpint(sim_engine_flushes_skipped(), ==, lookahead ? 1002 - first : 0);
	sim_engine_fini();
}

static void test_time_7ns(void)
{
	time_7ns(false);
}

static void test_time_7ns_lookahead(void)
{
	time_7ns(true);
}

/* Two tasks on two CPUs: A flushes every 10 ns up to 100 ns and records
 * when; B flushes at 55 ns, reads what A recorded, and flushes at 155 ns.
 * A runs first (created first). A at 10: B is runnable at 0, so A sleeps.
 * B at 55: A is due at 10, B sleeps. A at 20..50: nobody before 55, no
 * engine call; at 60 it sleeps. B wakes at 55 and must see A's 50, not a
 * later time; it sleeps to 155. A at 70..100: no call. So 4 engine calls,
 * 8 flushes without one. */
static sim_time_t a_flushed_at;

static void every_10ns(struct sim_task *t, void *arg)
{
	for (int i = 0; i < 10; i++) {
		sim_task_charge(t, SIM_CAT_SYS, 10 * SIM_NS);
		sim_task_flush(t);
		g_assert_cmpint(sim_now(), ==, sim_task_clock(t));
		a_flushed_at = sim_now();
	}
}

static void at_55_and_155(struct sim_task *t, void *arg)
{
	sim_task_charge(t, SIM_CAT_SYS, 55 * SIM_NS);
	sim_task_flush(t);
	*(sim_time_t *)arg = a_flushed_at;
	sim_task_charge(t, SIM_CAT_SYS, 100 * SIM_NS);
	sim_task_flush(t);
}

static void test_lookahead_two_tasks(void)
{
	struct sim_machine m = small_machine(1, 2);
	sim_time_t seen = -1;
	sim_engine_init(&m, 0, SIM_S, 1);
	sim_task_create("a", 0, every_10ns, NULL);
	sim_task_create("b", 1, at_55_and_155, &seen);
	g_assert_true(sim_engine_run());
	g_assert_cmpint(seen, ==, 50 * SIM_NS);
	g_assert_cmpint(sim_end(), ==, 155 * SIM_NS);
	g_assert_cmpint(sim_cpu_time(0, SIM_CAT_SYS), ==, 100 * SIM_NS);
	g_assert_cmpint(sim_cpu_time(1, SIM_CAT_SYS), ==, 155 * SIM_NS);
	g_assert_cmpint(sim_engine_calls(), ==, 4);
	g_assert_cmpint(sim_engine_flushes_skipped(), ==, 8);
	sim_engine_fini();
}

/* The queue's minimum after each change, against a scan of every waiter. */
static sim_time_t wakeq_scan(const struct sim_waiter *w, int n)
{
	sim_time_t min = SIM_TIME_MAX;
	for (int i = 0; i < n; i++)
		if (w[i].pos >= 0 && w[i].at < min)
			min = w[i].at;
	return min;
}

static void test_wakeq(void)
{
	struct sim_waiter w[40];
	sim_wakeq_init(4); /* grows */
	for (int i = 0; i < 40; i++)
		sim_waiter_init(&w[i]);
	g_assert_cmpint(sim_wakeq_min(), ==, SIM_TIME_MAX);
	sim_wakeq_set(&w[0], 30);
	sim_wakeq_set(&w[1], 10);
	sim_wakeq_set(&w[2], 20);
	g_assert_cmpint(sim_wakeq_min(), ==, 10);
	sim_wakeq_lower(&w[2], 25); /* later: stays at 20 */
	g_assert_cmpint(w[2].at, ==, 20);
	sim_wakeq_set(&w[1], 40); /* moved later */
	g_assert_cmpint(sim_wakeq_min(), ==, 20);
	sim_wakeq_clear(&w[2]);
	sim_wakeq_clear(&w[2]); /* not in it: nothing */
	g_assert_cmpint(sim_wakeq_min(), ==, 30);
	sim_wakeq_lower(&w[3], 5); /* not in it: entered */
	g_assert_cmpint(sim_wakeq_min(), ==, 5);
	g_assert_cmpint(sim_wakeq_len(), ==, 3);
	GRand *r = g_rand_new_with_seed(7);
	for (int k = 0; k < 20000; k++) {
		struct sim_waiter *x = &w[g_rand_int_range(r, 0, 40)];
		sim_time_t at = g_rand_int_range(r, 0, 1000);
		switch (g_rand_int_range(r, 0, 3)) {
		case 0:
			sim_wakeq_set(x, at);
			break;
		case 1:
			sim_wakeq_lower(x, at);
			break;
		default:
			sim_wakeq_clear(x);
		}
		g_assert_cmpint(sim_wakeq_min(), ==, wakeq_scan(w, 40));
	}
	g_rand_free(r);
	sim_wakeq_fini();
}

static void ten_ms_user(struct sim_task *t, void *arg)
{
	sim_task_run(t, SIM_CAT_USER, 10 * SIM_MS);
	*(sim_time_t *)arg = sim_task_clock(t);
}

static void test_timeshare(void)
{
	/* Two tasks on one CPU, 10 ms each, 0.75 ms slices, alternating:
	 * A's 14th slice (0.25 ms) runs 19.5..19.75 ms, B ends at 20 ms. */
	struct sim_machine m = small_machine(1, 1);
	sim_time_t done[2];
	sim_engine_init(&m, 0, SIM_S, 1);
	sim_task_create("a", 0, ten_ms_user, &done[0]);
	sim_task_create("b", 0, ten_ms_user, &done[1]);
	g_assert_true(sim_engine_run());
	g_assert_cmpint(done[0], ==, 19750 * SIM_US);
	g_assert_cmpint(done[1], ==, 20 * SIM_MS);
	g_assert_cmpint(sim_end(), ==, 20 * SIM_MS);
	g_assert_cmpint(sim_cpu_time(0, SIM_CAT_USER), ==, 20 * SIM_MS);
	g_assert_cmpint(sim_cpu_time(0, SIM_CAT_IDLE), ==, 0);
	sim_engine_fini();
}

static void test_idle_then_work(void)
{
	/* 2 CPUs, one task of 10 ms: the other CPU is idle all along. */
	struct sim_machine m = small_machine(1, 2);
	sim_time_t done;
	sim_engine_init(&m, 0, SIM_S, 1);
	sim_task_create("a", 1, ten_ms_user, &done);
	g_assert_true(sim_engine_run());
	g_assert_cmpint(sim_cpu_time(0, SIM_CAT_IDLE), ==, 10 * SIM_MS);
	g_assert_cmpint(sim_cpu_time(1, SIM_CAT_USER), ==, 10 * SIM_MS);
	g_assert_cmpint(sim_cpu_time(1, SIM_CAT_IDLE), ==, 0);
	sim_engine_fini();
}

/* Categories add up to elapsed x CPUs exactly, for runs that stop at a
 * duration in the middle of spins and holds, and runs to completion; and
 * so they do with SMT siblings sharing their cores, a tick interrupting. */
#define SMT_ON                                                                                     \
	"machine.threads_per_core=2", "machine.contention=\"queued\"",                             \
	    "machine.smt_throughput=1.6",                                                          \
	    "machine.interrupts=[{\"type\":\"periodic\",\"name\":\"tick\",\"hz\":10000,"           \
	    "\"handler_ns\":700}]"
static void test_accounting_sum(void)
{
	static const char *const cases[][7] = {
	    {"workloads.0.cpus=32", "stop.duration_ns=1000000", NULL},
	    {"workloads.0.cpus=5", "stop.duration_ns=333333.3", NULL},
	    {"workloads.0.iterations=1000", "stop={\"type\":\"completion\"}", NULL},
	    {"workloads.0.cpus=32", "stop.duration_ns=333333.3", SMT_ON, NULL},
	    {"workloads.0.iterations=1000", "stop={\"type\":\"completion\"}", SMT_ON, NULL},
	};
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		GError *err = NULL;
		struct scenario *sc = scenario_load_file(
		    MCS_SOURCE_DIR "/scenarios/lockbench_scope.json", cases[i], &err);
		g_assert_no_error(err);
		const struct scenario_variant *v = sc->variants->pdata[0];
		bool bad;
		json_t *r = runner_run_one(v->config, 7, &bad, &err);
		g_assert_no_error(err);
		double sum = 0;
		const char *k;
		json_t *x;
		json_object_foreach (json_object_get(r, "cpu_time_ns"), k, x)
			sum += json_number_value(x);
		double elapsed = json_number_value(json_object_get(r, "sim_time_ns"));
		double cpus = (double)json_integer_value(json_object_get(r, "cpus"));
		/* Sums of picoseconds are exact; only the ns conversion rounds. */
		g_assert_cmpfloat_with_epsilon(sum, elapsed * cpus, 1e-3);
		g_assert_cmpfloat(elapsed, >, 0);
		json_t *stretch = json_object_get(json_object_get(r, "metrics"), "smt_stretch_ns");
		g_assert_true((stretch != NULL) == (i >= 3));
		if (stretch)
			g_assert_cmpfloat(json_number_value(stretch), >, 0);
		json_decref(r);
		scenario_free(sc);
	}
}

/* SMT (sim_smt.h). One node of 2 cores x 2 threads: CPUs 0 and 2 are
 * siblings, and 1 and 3. Charges of X = 1 us; f = 1.6 makes a shared
 * thread's charge X x 2 / 1.6 = 1.25 us, exact in picoseconds; f = 1.65
 * gives 1e6 ps x 2 / 1.65 = 1212121.21 ps, rounded to nearest: 1212121. */
#define SMT_X SIM_US

static struct sim_machine smt_machine(double f, enum sim_contention contention)
{
	struct sim_machine m = small_machine(1, 4);
	m.threads_per_core = 2;
	m.cores_per_llc = 2;
	m.nodes_per_socket = 1;
	m.smt_throughput = f;
	m.contention = contention;
	return m;
}

static void smt_sys(struct sim_task *t, void *arg)
{
	sim_task_charge(t, SIM_CAT_SYS, SMT_X);
	*(sim_time_t *)arg = sim_task_clock(t);
}

/* Two tasks on CPUs @a and @b, X of sys each: when each finished. */
static void smt_pair(struct sim_machine m, int a, int b, sim_time_t done[2])
{
	sim_engine_init(&m, 0, SIM_S, 1);
	sim_task_create("a", a, smt_sys, &done[0]);
	sim_task_create("b", b, smt_sys, &done[1]);
	g_assert_true(sim_engine_run());
}

static void test_smt_siblings(void)
{
	sim_time_t done[2];
	smt_pair(smt_machine(1.6, SIM_CONTENTION_QUEUED), 0, 2, done);
	g_assert_cmpint(done[0], ==, 1250 * SIM_NS);
	g_assert_cmpint(done[1], ==, 1250 * SIM_NS);
	g_assert_cmpint(sim_cpu_time(0, SIM_CAT_SYS), ==, 1250 * SIM_NS);
	g_assert_cmpint(sim_cpu_time(2, SIM_CAT_SYS), ==, 1250 * SIM_NS);
	g_assert_cmpint(sim_smt_stretch_total(), ==, 2 * 250 * SIM_NS);
	sim_engine_fini();
}

static void test_smt_rounding(void)
{
	sim_time_t done[2];
	smt_pair(smt_machine(1.65, SIM_CONTENTION_QUEUED), 1, 3, done);
	g_assert_cmpint(done[0], ==, 1212121);
	g_assert_cmpint(done[1], ==, 1212121);
	sim_engine_fini();
}

/* Two tasks on other cores: X each. */
static void test_smt_other_cores(void)
{
	sim_time_t done[2];
	smt_pair(smt_machine(1.6, SIM_CONTENTION_QUEUED), 0, 1, done);
	g_assert_cmpint(done[0], ==, SMT_X);
	g_assert_cmpint(done[1], ==, SMT_X);
	g_assert_cmpint(sim_smt_stretch_total(), ==, 0);
	sim_engine_fini();
}

/* One task alone on its core: X. */
static void test_smt_alone(void)
{
	struct sim_machine m = smt_machine(1.6, SIM_CONTENTION_QUEUED);
	sim_time_t done;
	sim_engine_init(&m, 0, SIM_S, 1);
	sim_task_create("a", 0, smt_sys, &done);
	g_assert_true(sim_engine_run());
	g_assert_cmpint(done, ==, SMT_X);
	sim_engine_fini();
}

/* Contention "idle": siblings run at full speed, as before. */
static void test_smt_idle_contention(void)
{
	sim_time_t done[2];
	smt_pair(smt_machine(1.6, SIM_CONTENTION_IDLE), 0, 2, done);
	g_assert_false(sim_smt_active());
	g_assert_cmpint(done[0], ==, SMT_X);
	g_assert_cmpint(done[1], ==, SMT_X);
	sim_engine_fini();
}

/* A stall (a wait for a cache line) beside a busy sibling: X, not
 * stretched; the sibling's own work is (X x 2 / 1.6 = 1.25 us), and the
 * stall counts as sys time. */
static void smt_stall(struct sim_task *t, void *arg)
{
	sim_task_stall(t, SIM_CAT_SYS, SMT_X);
	*(sim_time_t *)arg = sim_task_clock(t);
}

static void test_smt_stall(void)
{
	struct sim_machine m = smt_machine(1.6, SIM_CONTENTION_QUEUED);
	sim_time_t done[2];
	sim_engine_init(&m, 0, SIM_S, 1);
	sim_task_create("a", 0, smt_stall, &done[0]);
	sim_task_create("b", 2, smt_sys, &done[1]);
	g_assert_true(sim_engine_run());
	g_assert_cmpint(done[0], ==, SMT_X);
	g_assert_cmpint(done[1], ==, 1250 * SIM_NS);
	g_assert_cmpint(sim_cpu_time(0, SIM_CAT_SYS), ==, SMT_X);
	g_assert_cmpint(sim_smt_stretch_total(), ==, 250 * SIM_NS);
	sim_engine_fini();
}

/* A step whose X of cost holds 400 ns of line stalls (sim_task_stall_next),
 * beside a busy sibling: 400 ns + 600 ns x 1.25 = 1150 ns. A spin charge
 * between the mark and the step neither takes nor drops it (100 ns, never
 * stretched); the mark is used once: a second X after it is 1.25 us. */
static void smt_marked(struct sim_task *t, void *arg)
{
	sim_time_t *at = arg;
	sim_task_stall_next(t, 400 * SIM_NS);
	sim_task_charge(t, SIM_CAT_SPIN, 100 * SIM_NS);
	sim_task_charge(t, SIM_CAT_SYS, SMT_X);
	at[0] = sim_task_clock(t);
	sim_task_charge(t, SIM_CAT_SYS, SMT_X);
	at[1] = sim_task_clock(t);
}

static void smt_sys_long(struct sim_task *t, void *arg)
{
	sim_task_charge(t, SIM_CAT_SYS, 4 * SMT_X);
	*(sim_time_t *)arg = sim_task_clock(t);
}

static void test_smt_stall_marked(void)
{
	struct sim_machine m = smt_machine(1.6, SIM_CONTENTION_QUEUED);
	sim_time_t at[2], other;
	sim_engine_init(&m, 0, SIM_S, 1);
	sim_task_create("a", 0, smt_marked, at);
	sim_task_create("b", 2, smt_sys_long, &other);
	g_assert_true(sim_engine_run());
	g_assert_cmpint(at[0], ==, (100 + 1150) * SIM_NS);
	g_assert_cmpint(at[1], ==, (100 + 1150 + 1250) * SIM_NS);
	g_assert_cmpint(sim_cpu_time(0, SIM_CAT_SPIN), ==, 100 * SIM_NS);
	g_assert_cmpint(sim_cpu_time(0, SIM_CAT_SYS), ==, (1150 + 1250) * SIM_NS);
	sim_engine_fini();
}

/* f = 2 (the default without a preset): no sharing. */
static void test_smt_no_sharing(void)
{
	sim_time_t done[2];
	smt_pair(smt_machine(2, SIM_CONTENTION_QUEUED), 0, 2, done);
	g_assert_true(sim_smt_active());
	g_assert_cmpint(done[0], ==, SMT_X);
	g_assert_cmpint(done[1], ==, SMT_X);
	sim_engine_fini();
}

struct smt_spin {
	struct sim_task *spinner;
	sim_time_t held, spun, spin_end;
};

/* The holder: X of sys, then it wakes the spinner (its "release"). */
static void smt_holder(struct sim_task *t, void *arg)
{
	struct smt_spin *s = arg;
	sim_task_charge(t, SIM_CAT_SYS, SMT_X);
	s->held = sim_task_clock(t);
	sim_task_flush(t);
	sim_task_wake(s->spinner);
}

/* The spinner: X of spin charged outright, then it spins until woken. */
static void smt_spinner(struct sim_task *t, void *arg)
{
	struct smt_spin *s = arg;
	sim_task_charge(t, SIM_CAT_SPIN, SMT_X);
	s->spun = sim_task_clock(t);
	sim_task_flush(t);
	sim_task_block(t, SIM_CAT_SPIN);
	s->spin_end = sim_task_clock(t);
}

/* A sibling spinning slows the holder; its own spin is not stretched. */
static void test_smt_spinner(void)
{
	struct sim_machine m = smt_machine(1.6, SIM_CONTENTION_QUEUED);
	struct smt_spin s = {0};
	sim_engine_init(&m, 0, SIM_S, 1);
	sim_task_create("holder", 0, smt_holder, &s);
	s.spinner = sim_task_create("spinner", 2, smt_spinner, &s);
	g_assert_true(sim_engine_run());
	g_assert_cmpint(s.held, ==, 1250 * SIM_NS);
	g_assert_cmpint(s.spun, ==, SMT_X);
	g_assert_cmpint(s.spin_end, ==, 1250 * SIM_NS);
	g_assert_cmpint(sim_cpu_time(0, SIM_CAT_SYS), ==, 1250 * SIM_NS);
	g_assert_cmpint(sim_cpu_time(2, SIM_CAT_SPIN), ==, 1250 * SIM_NS);
	g_assert_cmpint(sim_smt_stretch_total(), ==, 250 * SIM_NS);
	sim_engine_fini();
}

/* Four threads a core, all busy, f = 1.6: f_4 = 1 + 3 x 0.6 = 2.8, so
 * each charge takes 4 / 2.8 X = 1428571.43 ps: 1428571. */
static void test_smt_four_threads(void)
{
	struct sim_machine m = smt_machine(1.6, SIM_CONTENTION_QUEUED);
	m.threads_per_core = 4; /* one core of the node's 4 CPUs */
	m.cores_per_llc = 1;
	sim_time_t done[4];
	sim_engine_init(&m, 0, SIM_S, 1);
	for (int c = 0; c < 4; c++)
		sim_task_createf(c, smt_sys, &done[c], "t%d", c);
	g_assert_true(sim_engine_run());
	for (int c = 0; c < 4; c++)
		g_assert_cmpint(done[c], ==, 1428571);
	sim_engine_fini();
}

/* What cascadelake-2s implies: two busy threads of a core deliver 1.65
 * threads' worth (perfbook's count_end on the Xeon Platinum 8176,
 * docs/hardware.md: 2 / 2.89238 updates per ns against 1 / 2.39074, 1.653).
 * CPUs 0 and 26 are siblings: X of sys each takes 1e6 ps x 2 / 1.65 =
 * 1212121 ps, the core doing 2 X in that time: 1.65 X. A machine without a
 * preset shares nothing (2). */
static void test_smt_preset(void)
{
	const char *text = "{\"name\": \"t\", \"machine\": {\"preset\": \"cascadelake-2s\","
			   "\"contention\": \"queued\"},"
			   "\"workloads\": [{\"type\": \"lockbench\", \"cpus\": 1, "
			   "\"think_ns\": 1, \"hold_ns\": 1}],"
			   "\"stop\": {\"type\": \"duration\", \"duration_ns\": 1000}}";
	GError *err = NULL;
	struct scenario *plain =
	    scenario_load_file(MCS_SOURCE_DIR "/scenarios/lockbench_scope.json", NULL, &err);
	g_assert_no_error(err);
	const struct scenario_variant *pv = plain->variants->pdata[0];
	g_assert_cmpfloat(pv->config->machine.smt_throughput, ==, 2);
	scenario_free(plain);
	struct scenario *sc = scenario_load("t", text, strlen(text), NULL, &err);
	g_assert_no_error(err);
	const struct run_config *cfg = ((struct scenario_variant *)sc->variants->pdata[0])->config;
	g_assert_cmpfloat(cfg->machine.smt_throughput, ==, 1.65);
	sim_time_t done[2];
	smt_pair(cfg->machine, 0, 26, done);
	g_assert_cmpint(done[0], ==, 1212121);
	g_assert_cmpint(done[1], ==, 1212121);
	g_assert_cmpfloat_with_epsilon(2.0 * (double)SMT_X / (double)done[0], 1.65, 1e-6);
	sim_engine_fini();
	scenario_free(sc);
}

static void test_rng_streams(void)
{
	struct sim_dist d = {SIM_DIST_EXP, 1000.0, 1};
	struct sim_rng *a = sim_rng_new(1, "cpu0"), *b = sim_rng_new(1, "cpu0"),
		       *c = sim_rng_new(1, "cpu1"), *e = sim_rng_new(2, "cpu0");
	sim_time_t xa = sim_rng_sample(a, &d);
	g_assert_cmpint(xa, ==, sim_rng_sample(b, &d));
	g_assert_cmpint(xa, !=, sim_rng_sample(c, &d));
	g_assert_cmpint(xa, !=, sim_rng_sample(e, &d));
	/* Means of 200000 draws within 1% of the requested mean. */
	static const struct sim_dist dists[] = {{SIM_DIST_EXP, 1e6, 1},
						{SIM_DIST_UNIFORM, 1e6, 0.5},
						{SIM_DIST_LOGNORMAL, 1e6, 1},
						{SIM_DIST_CONST, 1e6, 0}};
	for (size_t i = 0; i < G_N_ELEMENTS(dists); i++) {
		double sum = 0;
		for (int k = 0; k < 200000; k++)
			sum += (double)sim_rng_sample(a, &dists[i]);
		g_assert_cmpfloat(fabs(sum / 200000 - 1e6) / 1e6, <, 0.01);
	}
	sim_rng_free(a);
	sim_rng_free(b);
	sim_rng_free(c);
	sim_rng_free(e);
}

static void test_hist(void)
{
	struct sim_hist h = {0};
	for (int i = 1; i <= 1000; i++)
		sim_hist_record(&h, i * SIM_NS);
	/* Within the bucket width, 1/128 of the value. */
	g_assert_cmpfloat(fabs((double)sim_hist_quantile(&h, 0.5) - 500e3), <=, 500e3 / 128);
	g_assert_cmpfloat(fabs((double)sim_hist_quantile(&h, 0.99) - 990e3), <=, 990e3 / 128);
	g_assert_cmpint(sim_hist_quantile(&h, 0), ==,
			sim_hist_bucket_value(sim_hist_index(SIM_NS)));
	for (sim_time_t v = 0; v < 200; v++) /* small values are exact */
		g_assert_cmpint(sim_hist_bucket_value(sim_hist_index(v)), ==, v);
	g_assert_cmpint(sim_hist_index(INT64_MAX), <, SIM_HIST_BUCKETS);
	sim_hist_free(&h);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	mcs_test_add_subprocess("/engine/time/7ns", test_time_7ns);
	mcs_test_add_subprocess("/engine/time/7ns_lookahead", test_time_7ns_lookahead);
	mcs_test_add_subprocess("/engine/lookahead/two_tasks", test_lookahead_two_tasks);
	g_test_add_func("/engine/lookahead/wakeq", test_wakeq);
	mcs_test_add_subprocess("/engine/sched/timeshare", test_timeshare);
	mcs_test_add_subprocess("/engine/accounting/idle", test_idle_then_work);
	mcs_test_add_subprocess("/engine/smt/siblings", test_smt_siblings);
	mcs_test_add_subprocess("/engine/smt/rounding", test_smt_rounding);
	mcs_test_add_subprocess("/engine/smt/other_cores", test_smt_other_cores);
	mcs_test_add_subprocess("/engine/smt/alone", test_smt_alone);
	mcs_test_add_subprocess("/engine/smt/idle_contention", test_smt_idle_contention);
	mcs_test_add_subprocess("/engine/smt/no_sharing", test_smt_no_sharing);
	mcs_test_add_subprocess("/engine/smt/stall", test_smt_stall);
	mcs_test_add_subprocess("/engine/smt/stall_marked", test_smt_stall_marked);
	mcs_test_add_subprocess("/engine/smt/spinner", test_smt_spinner);
	mcs_test_add_subprocess("/engine/smt/four_threads", test_smt_four_threads);
	mcs_test_add_subprocess("/engine/smt/preset", test_smt_preset);
	g_test_add_func("/engine/accounting/sum", test_accounting_sum);
	g_test_add_func("/engine/rng/streams", test_rng_streams);
	g_test_add_func("/engine/hist/quantiles", test_hist);
	return g_test_run();
}

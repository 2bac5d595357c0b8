// SPDX-License-Identifier: GPL-2.0-or-later
/* The engine layer: exact time, time-sharing, accounting. Each simulation
 * runs in a subprocess: SimGrid allows one per process. */
#include "runner.h"
#include "scenario.h"
#include "sim_engine.h"
#include "test_util.h"
#include "sim_hist.h"
#include "sim_rng.h"

static struct sim_machine small_machine(int nodes, int cpus_per_node)
{
	struct sim_machine m = {.nodes = nodes, .cpus_per_node = cpus_per_node, .clock_ghz = 2.1,
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

static void test_time_7ns(void)
{
	struct sim_machine m = small_machine(1, 1);
	sim_engine_init(&m, 0, SIM_S, 1);
	sim_task_create("t", 0, seven_ns, NULL);
	g_assert_true(sim_engine_run());
	g_assert_cmpint(sim_end(), ==, 7007 * SIM_NS + 15400);
	g_assert_cmpint(sim_cpu_time(0, SIM_CAT_SYS), ==, sim_end());
	g_assert_cmpint(sim_engine_calls(), ==, 1002);
	sim_engine_fini();
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
 * duration in the middle of spins and holds, and runs to completion. */
static void test_accounting_sum(void)
{
	static const char *const cases[][3] = {
		{"workloads.0.cpus=32", "stop.duration_ns=1000000", NULL},
		{"workloads.0.cpus=5", "stop.duration_ns=333333.3", NULL},
		{"workloads.0.iterations=1000", "stop={\"type\":\"completion\"}", NULL},
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
		json_decref(r);
		scenario_free(sc);
	}
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
	g_assert_cmpint(sim_hist_quantile(&h, 0), ==, sim_hist_bucket_value(sim_hist_index(SIM_NS)));
	for (sim_time_t v = 0; v < 200; v++) /* small values are exact */
		g_assert_cmpint(sim_hist_bucket_value(sim_hist_index(v)), ==, v);
	g_assert_cmpint(sim_hist_index(INT64_MAX), <, SIM_HIST_BUCKETS);
	sim_hist_free(&h);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	mcs_test_add_subprocess("/engine/time/7ns", test_time_7ns);
	mcs_test_add_subprocess("/engine/sched/timeshare", test_timeshare);
	mcs_test_add_subprocess("/engine/accounting/idle", test_idle_then_work);
	g_test_add_func("/engine/accounting/sum", test_accounting_sum);
	g_test_add_func("/engine/rng/streams", test_rng_streams);
	g_test_add_func("/engine/hist/quantiles", test_hist);
	return g_test_run();
}

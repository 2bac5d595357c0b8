// SPDX-License-Identifier: GPL-2.0-or-later
/* Simulated lock acquisitions per wall-clock second: memcgsim's lockbench
 * (hold 100 ns, think 900 ns, both exponential) against a bare loop of
 * SimGrid actors doing lock / sleep / unlock / sleep on one sg_mutex with
 * the same times (bare_loop.h), at N = 1, 8, 64 and 1024 CPUs. Each run is a child
 * process; the wall time includes building the platform. An argument is one
 * more --set for memcgsim's runs (machine.contention=queued). */
#include "bare_loop.h"
#include "runner.h"
#include "scenario.h"
#include <stdio.h>

static const char *extra_set; /* argv[1], or NULL */

static double run_memcgsim(int n, sim_time_t duration, long long *acq, long long *calls)
{
	char *cpus = g_strdup_printf("workloads.0.cpus=%d", n);
	char *dur = g_strdup_printf("stop.duration_ns=%lld", (long long)(duration / SIM_NS));
	const char *sets[] = {cpus, dur, extra_set, NULL};
	GError *err = NULL;
	struct scenario *sc =
	    scenario_load_file(MCS_SOURCE_DIR "/bench/lockbench_1024.json", sets, &err);
	g_assert_no_error(err);
	const struct scenario_variant *v = sc->variants->pdata[0];
	bool bad;
	gint64 t0 = g_get_monotonic_time();
	json_t *r = runner_run_one(v->config, 1, &bad, &err);
	double wall = (double)(g_get_monotonic_time() - t0) / 1e6;
	g_assert_no_error(err);
	*acq = json_integer_value(
	    json_object_get(json_array_get(json_object_get(r, "locks"), 0), "acquisitions"));
	*calls = json_integer_value(json_object_get(r, "engine_calls"));
	json_decref(r);
	scenario_free(sc);
	g_free(cpus);
	g_free(dur);
	return wall;
}

int main(int argc, char **argv)
{
	extra_set = argc > 1 ? argv[1] : NULL;
	static const int ns[] = {1, 8, 64, 1024};
	printf("%6s %12s %14s %14s %14s %8s %12s\n", "N", "sim time", "memcgsim acq",
	       "acq/s memcgsim", "acq/s bare", "ratio", "calls/acq");
	for (size_t i = 0; i < G_N_ELEMENTS(ns); i++) {
		int n = ns[i];
		sim_time_t duration = (n == 1 ? 300 : 40) * SIM_MS;
		long long acq_m, acq_b, calls;
		double wm = run_memcgsim(n, duration, &acq_m, &calls);
		double wb = bare_loop_run(n, duration, &acq_b);
		printf("%6d %9.0f ms %14lld %14.0f %14.0f %7.2fx %12.2f\n", n,
		       sim_to_us(duration) / 1e3, acq_m, acq_m / wm, acq_b / wb,
		       (acq_m / wm) / (acq_b / wb), (double)calls / acq_m);
	}
	return 0;
}

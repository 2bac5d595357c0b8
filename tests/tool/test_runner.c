// SPDX-License-Identifier: GPL-2.0-or-later
/* The order in which the runner starts its simulations (issue 34, item 5):
 * the longest first by the work estimate, so that the CPUs finish together;
 * the results, each in its job's slot, do not depend on it. */
#include "runner.h"
#include "test_util.h"

static void assert_order(const double *work, size_t n, const size_t *want)
{
	size_t *order = g_new(size_t, n + 1);
	runner_start_order(work, n, order);
	for (size_t i = 0; i < n; i++)
		g_assert_cmpuint(order[i], ==, want[i]);
	g_free(order);
}

/* Hand-made estimates: most work first, an unknown one (-1) before all,
 * equal ones in their given order. */
static void test_order_by_estimate(void)
{
	assert_order((const double[]){3, 10, -1, 10, 0.5, 7}, 6,
		     (const size_t[]){2, 1, 3, 5, 0, 4});
	assert_order((const double[]){1, 2, 3, 4}, 4, (const size_t[]){3, 2, 1, 0});
	assert_order((const double[]){5, 5, 5}, 3, (const size_t[]){0, 1, 2});
	assert_order((const double[]){-1, 0, -1}, 3, (const size_t[]){0, 2, 1});
	assert_order((const double[]){42}, 1, (const size_t[]){0});
	assert_order(NULL, 0, NULL);
}

static void record_done(struct runner_job *j, void *ctx)
{
	g_string_append_printf(ctx, "%s ", j->variant);
}

/* Real jobs, one at a time: 1, 5 and 3 simulated us on one CPU (estimates
 * 1e-6, 5e-6 and 3e-6 CPU-seconds) start, and so finish, longest first
 * (in the given order they would finish short, long, middle); each result
 * stays in its own job's slot. */
static void test_jobs_start_longest_first(void)
{
	const char *text =
	    "{\"name\": \"three\", \"machine\": {\"nodes\": 1, \"cpus_per_node\": 1},\n"
	    " \"workloads\": [{\"type\": \"lockbench\", \"cpus\": 1, \"think_ns\": 100, "
	    "\"hold_ns\": 10}],\n"
	    " \"stop\": {\"type\": \"duration\", \"duration_ns\": 1000},\n"
	    " \"variants\": [{\"name\": \"short\"},\n"
	    "   {\"name\": \"long\", \"set\": {\"stop.duration_ns\": 5000}},\n"
	    "   {\"name\": \"middle\", \"set\": {\"stop.duration_ns\": 3000}}]}\n";
	GError *err = NULL;
	struct scenario *sc = scenario_load("three.json", text, strlen(text), NULL, &err);
	g_assert_no_error(err);
	const double want_s[] = {1e-6, 5e-6, 3e-6};
	struct runner_job jobs[3];
	for (guint i = 0; i < 3; i++) {
		const struct scenario_variant *v = sc->variants->pdata[i];
		double horizon;
		g_assert_cmpfloat_with_epsilon(run_estimate_cpu_s(v->config, &horizon), want_s[i],
					       1e-15);
		jobs[i] = (struct runner_job){
		    .config = v->config, .seed = 1, .variant = v->name, .point = -1};
	}
	GString *done = g_string_new(NULL);
	g_assert_true(runner_jobs(jobs, 3, 1, NULL, record_done, done, &err));
	g_assert_no_error(err);
	g_assert_cmpstr(done->str, ==, "long middle short ");
	g_assert_cmpint(jobs[1].started, <, jobs[2].started);
	g_assert_cmpint(jobs[2].started, <, jobs[0].started);
	g_assert_cmpfloat(json_number_value(json_object_get(jobs[0].result, "sim_time_ns")), ==,
			  1000);
	g_assert_cmpfloat(json_number_value(json_object_get(jobs[1].result, "sim_time_ns")), ==,
			  5000);
	for (int i = 0; i < 3; i++)
		g_clear_pointer(&jobs[i].result, json_decref);
	g_string_free(done, TRUE);
	scenario_free(sc);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/runner/order/by-estimate", test_order_by_estimate);
	g_test_add_func("/runner/order/jobs", test_jobs_start_longest_first);
	return g_test_run();
}

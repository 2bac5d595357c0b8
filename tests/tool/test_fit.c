// SPDX-License-Identifier: GPL-2.0-or-later
/* memcgsim fit (issue 39, item 2): a variant's lock holds fitted to a
 * measurement the model itself made with a known extra hold recover that
 * extra, from /proc/lock_stat and from perf lock contention; the other
 * variants are labelled predictions; a measured row the model has not is
 * listed; a private constant with a range recovers the value that made a
 * measured time(1)'s sys; bad measurements get exact errors. */
#include "baseline.h"
#include "test_util.h"
#include <glib.h>
#include <glib/gstdio.h>
#include <jansson.h>
#include <string.h>

#define TRUE_EXTRA_NS 60.0 /* the hold the measurement was made with */

/* One lock among 8 CPUs, every lock and line cost 0: an M/M/1//8 queue
 * (docs/validation.md) whose hold the measurement lengthens. */
static const char scenario_head[] =
    "{\"name\": \"fit-lockbench\", \"seed\": 1,\n"
    " \"machine\": {\"nodes\": 1, \"cpus_per_node\": 16, \"costs\": "
    "{\"lock_acquire_release_ns\": 0, \"line_same_cpu_ns\": 0, \"line_llc_ns\": 0, "
    "\"line_remote_ns\": 0}},\n"
    " \"workloads\": [{\"type\": \"lockbench\", \"cpus\": 8, \"think_ns\": 900, \"think_dist\": "
    "\"exp\", \"hold_ns\": 100, \"hold_dist\": \"exp\"}],\n"
    " \"stop\": {\"type\": \"duration\", \"duration_ns\": 5000000},\n"
    " \"variants\": [\n";

static char *write_scenario(const char *dir, const char *name, const char *measured)
{
	char *path = g_build_filename(dir, name, NULL);
	char *text =
	    g_strdup_printf("%s  {\"name\": \"eight\"%s%s%s},\n"
			    "  {\"name\": \"sixteen\", \"set\": {\"workloads.0.cpus\": 16}}]}\n",
			    scenario_head,
			    measured ? ", \"measured\": {\"source\": \"the model, 60 ns added\", "
				       "\"locks\": \""
				     : "",
			    measured ? measured : "", measured ? "\", \"seconds\": 0.005}" : "");
	g_assert_true(g_file_set_contents(path, text, -1, NULL));
	g_free(text);
	return path;
}

/* The text report of variant eight run with TRUE_EXTRA_NS on &lb->lock. */
static char *truth_report(const char *scenario)
{
	char *out, *err;
	g_assert_cmpint(
	    mcs_cli((const char *[]){"run", scenario, "--variant", "eight", "-q", "--set",
				     "kernel.critical_section_extra=[{\"lock\": "
				     "\"&lb->lock\", \"ns\": 60}]",
				     NULL},
		    &out, &err),
	    ==, 0);
	g_free(err);
	return out;
}

/* The lines of @report from the one starting with @first to the one
 * before the first blank line after it (or to the @rules-th rule of
 * dashes, counting from @first), then @more. */
static char *block(const char *report, const char *first, int rules, const char *more)
{
	const char *from = strstr(report, first);
	g_assert_nonnull(from);
	GString *b = g_string_new(NULL);
	int seen = 0;
	for (const char *l = from; *l;) {
		const char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l) : strlen(l);
		bool rule = n > 10 && strspn(l, "-") == n;
		if ((!rules && n == 0) || (rules && rule && ++seen == rules))
			break;
		/* the model names a caller's lock after it: perf does not */
		const char *paren = memchr(l, '(', n);
		g_string_append_len(b, l, !rules && paren ? (size_t)(paren - l) : n);
		g_string_append_c(b, '\n');
		l = nl ? nl + 1 : l + n;
	}
	g_string_append(b, more);
	return g_string_free(b, FALSE);
}

/* fit @scenario; its JSON result. */
static json_t *fit(const char *scenario)
{
	char *out, *err;
	g_assert_cmpint(mcs_cli((const char *[]){"fit", scenario, "--tolerance", "0.01", "-q",
						 "--format", "json", NULL},
				&out, &err),
			==, 0);
	json_t *doc = json_loads(out, 0, NULL);
	g_assert_nonnull(doc);
	g_free(out);
	g_free(err);
	return doc;
}

static void assert_recovered(json_t *doc, const char *row, const char *unmatched)
{
	json_t *f = json_object_get(doc, "fit");
	g_assert_cmpstr(json_string_value(json_object_get(f, "variant")), ==, "eight");
	json_t *c = json_array_get(json_object_get(f, "classes"), 0);
	g_assert_cmpint(json_array_size(json_object_get(f, "classes")), ==, 1);
	g_assert_cmpstr(json_string_value(json_array_get(json_object_get(c, "classes"), 0)), ==,
			"&lb->lock");
	g_assert_cmpstr(json_string_value(json_array_get(json_object_get(c, "measured_as"), 0)), ==,
			row);
	g_assert_cmpstr(json_string_value(json_object_get(c, "state")), ==, "fitted");
	double extra = json_number_value(json_object_get(c, "extra_ns"));
	g_test_message("fitted %.2f ns against %.0f", extra, TRUE_EXTRA_NS);
	g_assert_cmpfloat(fabs(extra - TRUE_EXTRA_NS), <, 0.05 * TRUE_EXTRA_NS);
	double measured = json_number_value(json_object_get(c, "measured_wait_ns_per_s"));
	double model = json_number_value(json_object_get(c, "model_wait_ns_per_s"));
	g_assert_cmpfloat(fabs(model / measured - 1), <=, 0.01);
	/* not fitted, but the same lock: its contentions within 5% */
	double mc = json_number_value(json_object_get(c, "measured_contentions_per_s"));
	g_assert_cmpfloat(mc, >, 0);
	g_assert_cmpfloat(
	    fabs(json_number_value(json_object_get(c, "model_contentions_per_s")) / mc - 1), <,
	    0.05);
	/* nothing added, the model waits less than the measurement */
	g_assert_cmpfloat(json_number_value(json_object_get(c, "model_wait_ns_per_s_unfitted")), <,
			  0.8 * measured);
	g_assert_cmpstr(json_string_value(json_object_get(
			    json_array_get(json_object_get(f, "unmatched"), 0), "measured_as")),
			==, unmatched);
	json_t *vs = json_object_get(doc, "variants");
	g_assert_cmpstr(json_string_value(json_object_get(json_array_get(vs, 0), "fit_role")), ==,
			"fitted");
	g_assert_cmpstr(json_string_value(json_object_get(json_array_get(vs, 1), "name")), ==,
			"sixteen");
	g_assert_cmpstr(json_string_value(json_object_get(json_array_get(vs, 1), "fit_role")), ==,
			"predicted");
}

static void recovers(bool perf)
{
	char *dir = g_dir_make_tmp("memcgsim-fit-XXXXXX", NULL);
	char *plain = write_scenario(dir, "plain.json", NULL);
	char *report = truth_report(plain);
	char *measured =
	    perf ? block(report, " contended   total wait", 0,
			 "     1000    50.00 us     1.00 us    50.00 ns     spinlock   "
			 "elsewhere_in_the_kernel+0x1d\n")
		 : block(report, "lock_stat version 0.4", 3,
			 "\n                           &fake->lock:  1  1  0.10  0.10  0.10  0.10  "
			 "1  1  0.10  0.10  0.10  0.10\n");
	char *mpath = g_build_filename(dir, "measured.txt", NULL);
	g_assert_true(g_file_set_contents(mpath, measured, -1, NULL));
	char *scen = write_scenario(dir, "fit.json", "measured.txt");
	json_t *doc = fit(scen);
	assert_recovered(doc, perf ? "lockbench_critical_section" : "&lb->lock",
			 perf ? "elsewhere_in_the_kernel" : "&fake->lock");
	/* its report's Fitted paragraph: the holds, and no time(1) fit it did not make */
	char *rpath = g_build_filename(dir, "fitted.json", NULL), *out, *err;
	g_assert_cmpint(json_dump_file(doc, rpath, 0), ==, 0);
	g_assert_cmpint(mcs_cli((const char *[]){"report", rpath, NULL}, &out, &err), ==, 0);
	const char *at = strstr(out, "\nFitted: variant eight was fitted");
	g_assert_nonnull(at);
	char *para = g_strndup(at, strcspn(at + 1, "=") + 1); /* to the first variant's head */
	g_assert_null(strstr(para, "time(1)"));
	g_assert_nonnull(strstr(para, "lock holds: &lb->lock +"));
	g_assert_nonnull(strstr(para, " ns (fitted)."));
	g_free(para);
	g_free(out);
	g_free(err);
	g_free(rpath);
	json_decref(doc);
	g_free(report);
	g_free(measured);
	g_free(mpath);
	g_free(scen);
	g_free(plain);
	mcs_rm_tree(dir);
	g_free(dir);
}

static void test_recovers_lock_stat(void)
{
	recovers(false);
}

static void test_recovers_perf_lock(void)
{
	recovers(true);
}

/* The private constants: four make slots of 1 MiB jobs, anon_fault_ns
 * given the range [500, 1500]; the measurement is the model's time(1) at
 * 900 ns (t = 0.4), its lock_stat one row the model lacks. */
#define PRIVATE_TRUE_NS 900.0
static const char private_scenario[] =
    "{\"name\": \"fit-private\", \"seed\": 1,\n"
    " \"machine\": {\"preset\": \"cascadelake-2s\", \"nodes\": 1, \"cpus_per_node\": 4, "
    "\"threads_per_core\": 1, \"cores_per_llc\": 4, \"private_lo_ns\": {\"anon_fault_ns\": "
    "500}, \"private_ns\": {\"anon_fault_ns\": 1500}},\n"
    " \"memcg\": {\"cgroups\": [{\"name\": \"slot%%d\", \"count\": 4}]},\n"
    " \"workloads\": [{\"type\": \"memhog\", \"cgroup\": \"slot%%d\", \"count\": 4, "
    "\"size_mb\": 1, \"jobs\": 1000, \"user_ns\": 200000, \"start_spread_ns\": 0}],\n"
    " \"stop\": {\"type\": \"duration\", \"duration_ns\": 20000000},\n"
    " \"variants\": [{\"name\": \"base\"%s}]}\n";

static char *write_private(const char *dir, const char *name, const char *measured)
{
	char *path = g_build_filename(dir, name, NULL);
	char *text = g_strdup_printf(private_scenario, measured ? measured : "");
	g_assert_true(g_file_set_contents(path, text, -1, NULL));
	g_free(text);
	return path;
}

static void test_recovers_private(void)
{
	char *dir = g_dir_make_tmp("memcgsim-fit-XXXXXX", NULL);
	char *plain = write_private(dir, "plain.json", NULL);
	char *out, *err;
	g_assert_cmpint(mcs_cli((const char *[]){"run", plain, "-q", "--format", "json", "--set",
						 "machine.costs.anon_fault_ns=900", NULL},
				&out, &err),
			==, 0);
	json_t *truth = json_loads(out, 0, NULL);
	g_assert_nonnull(truth);
	g_free(out);
	g_free(err);
	json_t *v = json_array_get(json_object_get(truth, "variants"), 0);
	json_t *cpu = json_object_get(v, "cpu_time_ns");
	double real = json_number_value(json_object_get(v, "sim_time_ns")) * 1e-9, sys = 0;
	for (const char *const *c =
		 (const char *const[]){"sys", "spin", "irq", "unexplained", NULL};
	     *c; c++)
		sys += json_number_value(json_object_get(cpu, *c)) * 1e-9;
	g_assert_cmpfloat(sys, >, 0);
	char *mpath = g_build_filename(dir, "measured.txt", NULL);
	g_assert_true(
	    g_file_set_contents(mpath,
				"lock_stat version 0.4\n"
				"                           &fake->lock:  1  1  0.10  0.10  "
				"0.10  0.10  1  1  0.10  0.10  0.10  0.10\n",
				-1, NULL));
	char *measured = g_strdup_printf(
	    ", \"measured\": {\"source\": \"the model at 900 ns\", \"locks\": \"measured.txt\", "
	    "\"seconds\": %.17g, \"time\": {\"real_s\": %.17g, \"sys_s\": %.17g}}",
	    real, real, sys);
	char *scen = write_private(dir, "fit.json", measured);
	json_t *doc = fit(scen);
	json_t *tm = json_object_get(json_object_get(doc, "fit"), "time");
	g_assert_cmpstr(json_string_value(json_object_get(tm, "state")), ==, "fitted");
	json_t *k = json_array_get(json_object_get(tm, "constants"), 0);
	g_assert_cmpint(json_array_size(json_object_get(tm, "constants")), ==, 1);
	g_assert_cmpstr(json_string_value(json_object_get(k, "key")), ==, "anon_fault_ns");
	double ns = json_number_value(json_object_get(k, "ns"));
	g_test_message("fitted %.2f ns against %.0f", ns, PRIVATE_TRUE_NS);
	g_assert_cmpfloat(fabs(ns - PRIVATE_TRUE_NS), <, 0.05 * PRIVATE_TRUE_NS);
	double m = json_number_value(json_object_get(tm, "measured_sys_cpus"));
	g_assert_cmpfloat(fabs(m - sys / real), <, 1e-9);
	g_assert_cmpfloat(fabs(json_number_value(json_object_get(tm, "model_sys_cpus")) / m - 1),
			  <=, 0.01);
	/* as given (cost.c's 1000 ns), the model is over */
	g_assert_cmpfloat(json_number_value(json_object_get(tm, "model_sys_cpus_unfitted")), >, m);
	json_t *set = json_object_get(json_object_get(doc, "fit"), "set");
	g_assert_cmpint(json_array_size(set), ==, 1);
	g_assert_true(g_str_has_prefix(json_string_value(json_array_get(set, 0)),
				       "machine.costs.anon_fault_ns="));
	json_decref(doc);
	json_decref(truth);
	g_free(measured);
	g_free(mpath);
	g_free(scen);
	g_free(plain);
	mcs_rm_tree(dir);
	g_free(dir);
}

/* The predictions are the variants a comparison pairs with the fitted
 * one, or every default variant when none does. */
static void test_predicts_compared(void)
{
	char *dir = g_dir_make_tmp("memcgsim-fit-XXXXXX", NULL);
	char *scen = write_private(dir, "fit.json",
				   ", \"measured\": {\"source\": \"x\", \"time\": {\"real_s\": 1, "
				   "\"sys_s\": 2}}}, {\"name\": \"other\"}, {\"name\": \"third\"");
	const char *want[][4] = {{"comparisons=[\"third..base\"]", "base", "third", NULL},
				 {"comparisons=[]", "base", "other", "third"}};
	for (size_t i = 0; i < G_N_ELEMENTS(want); i++) {
		char *out, *err;
		g_assert_cmpint(
		    mcs_cli((const char *[]){"fit", scen, "-q", "--rounds", "1", "--format", "json",
					     "--set", want[i][0], NULL},
			    &out, &err),
		    ==, 0);
		json_t *doc = json_loads(out, 0, NULL);
		g_assert_nonnull(doc);
		json_t *vs = json_object_get(doc, "variants");
		g_assert_cmpint(json_array_size(vs), ==, want[i][3] ? 3 : 2);
		for (size_t k = 0; k < json_array_size(vs); k++)
			g_assert_cmpstr(
			    json_string_value(json_object_get(json_array_get(vs, k), "name")), ==,
			    want[i][1 + k]);
		json_decref(doc);
		g_free(out);
		g_free(err);
	}
	g_free(scen);
	mcs_rm_tree(dir);
	g_free(dir);
}

/* Exact errors: no measured variant; a measurement that is not there. */
static void test_errors(void)
{
	char *dir = g_dir_make_tmp("memcgsim-fit-XXXXXX", NULL);
	char *plain = write_scenario(dir, "plain.json", NULL);
	char *out, *err;
	g_assert_cmpint(mcs_cli((const char *[]){"fit", plain, NULL}, &out, &err), ==, 2);
	char *want =
	    g_strdup_printf("%s: no variant carries a measurement (\"measured\")\n", plain);
	g_assert_cmpstr(err, ==, want);
	g_assert_cmpstr(out, ==, "");
	g_free(want);
	g_free(out);
	g_free(err);
	char *scen = write_scenario(dir, "fit.json", "absent.txt");
	g_assert_cmpint(mcs_cli((const char *[]){"validate", scen, NULL}, &out, &err), ==, 2);
	char *absent = g_build_filename(dir, "absent.txt", NULL);
	want =
	    g_strdup_printf("%s:6:79: variants.0.measured.locks: %s:1:1: (root): cannot read: No "
			    "such file or directory\n",
			    scen, absent);
	g_assert_cmpstr(err, ==, want);
	g_free(want);
	g_free(absent);
	g_free(out);
	g_free(err);
	g_free(scen);
	/* neither locks nor time; locks without their seconds */
	const char *cases[][2] = {
	    {"", "expected \"locks\" (with \"seconds\"), \"time\", or both"},
	    {", \"locks\": \"m.txt\"", "\"locks\" needs \"seconds\": how long they were gathered"},
	    {", \"time\": {\"sys_s\": 3}",
	     "\"time\" needs \"real_s\" more than 0: what its CPU times are over"}};
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		char *m = g_strdup_printf(", \"measured\": {\"source\": \"x\"%s}", cases[i][0]);
		scen = write_private(dir, "bad.json", m);
		g_assert_cmpint(mcs_cli((const char *[]){"validate", scen, NULL}, &out, &err), ==,
				2);
		want = g_strdup_printf("%s:6:44: variants.0.measured: %s\n", scen, cases[i][1]);
		g_assert_cmpstr(err, ==, want);
		g_assert_cmpstr(out, ==, "");
		g_free(want);
		g_free(m);
		g_free(out);
		g_free(err);
		g_free(scen);
	}
	g_free(plain);
	mcs_rm_tree(dir);
	g_free(dir);
}

/* A class at a bound leaves it when the others' fit moves it (by hand,
 * measured 100 ns/s, tolerance 10%, at most 1000 ns added): over with
 * nothing added (300) it stops at 0; the others fitted, it waits 50 at 0:
 * its bracket starts anew and it tries its modelled hold, 40 ns; then 100
 * there is done. Short at the most (60 at 1000) it stops there; over
 * later (150) it leaves and halves; at 1000 within the tolerance (95) it
 * leaves the bound as done. While the bound binds (250 at 0) it stays. */
static void test_step_bound_left(void)
{
	const struct baseline_opts o = {.tolerance = 0.1, .max_extra_ns = 1000};
	struct baseline_target x = {.measured = 100, .hi = -1};
	baseline_target_step(&x, 300, 40, &o);
	g_assert_true(x.at_bound);
	g_assert_false(baseline_bound_left(&x, 250, &o));
	g_assert_true(x.at_bound);
	g_assert_true(baseline_bound_left(&x, 50, &o));
	g_assert_false(x.at_bound);
	baseline_target_step(&x, 50, 40, &o);
	g_assert_false(x.done);
	g_assert_cmpfloat(x.next_ns, ==, 40);
	x.extra_ns = x.next_ns;
	baseline_target_step(&x, 100, 40, &o);
	g_assert_true(x.done);

	struct baseline_target y = {.measured = 100, .hi = -1, .extra_ns = 1000};
	baseline_target_step(&y, 60, 40, &o);
	g_assert_true(y.at_bound);
	g_assert_false(baseline_bound_left(&y, 70, &o));
	g_assert_true(baseline_bound_left(&y, 150, &o));
	baseline_target_step(&y, 150, 40, &o);
	g_assert_false(y.at_bound);
	g_assert_cmpfloat(y.next_ns, ==, 500); /* between 0 and 1000, no wait known at 0 */
	y.at_bound = true;
	g_assert_true(baseline_bound_left(&y, 95, &o));
	baseline_target_step(&y, 95, 40, &o);
	g_assert_true(y.done);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/fit/recovers/lock_stat", test_recovers_lock_stat);
	g_test_add_func("/fit/recovers/perf_lock", test_recovers_perf_lock);
	g_test_add_func("/fit/recovers/private", test_recovers_private);
	g_test_add_func("/fit/predicts/compared", test_predicts_compared);
	g_test_add_func("/fit/errors", test_errors);
	g_test_add_func("/fit/step/bound-left", test_step_bound_left);
	return g_test_run();
}

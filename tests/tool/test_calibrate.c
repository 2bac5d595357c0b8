// SPDX-License-Identifier: GPL-2.0-or-later
/* memcgsim calibrate: the shipped presets are the command's output on the
 * shipped data, it recovers a parameter from curves the model itself made,
 * and bad fit files get exact errors. */
#include "test_util.h"
#include <glib.h>
#include <glib/gstdio.h>
#include <jansson.h>
#include <string.h>
#include <sys/wait.h>

#define DATA MCS_SOURCE_DIR "/data/contention/"

/* The shipped fits give the shipped presets' values. */
static void shipped(const char *fit, const char *row)
{
	char *out, *err;
	g_assert_cmpint(mcs_cli((const char *[]){"calibrate", fit, "-j", "2", NULL}, &out, &err),
			==, 0);
	g_assert_cmpstr(err, ==, "");
	g_assert_nonnull(strstr(out, row));
	g_assert_nonnull(strstr(out, "The preset's values are this fit's.\n"));
	g_free(out);
	g_free(err);
}

static void test_shipped_cascadelake(void)
{
	shipped(DATA "fit-cascadelake-2s.json",
		"line_pileup_ns               0.35  0.3 - 0.4                  0 - 1 by 0.05 "
		"         0.35\n");
}

static void test_shipped_broadwell(void)
{
	shipped(DATA "fit-broadwell-2s.json",
		"line_pileup_ns               0.25  0 - 0.55                   0 - 1 by 0.05 "
		"         0.25\n");
}

/* The model's ns per increment (a thread's) at @cpus CPUs with
 * line_pileup_ns @p, from a run of the command. */
static double model_point(int cpus, const char *p)
{
	char *cpus_set = g_strdup_printf("workloads.0.cpus=%d", cpus);
	char *p_set = g_strdup_printf("machine.costs.line_pileup_ns=%s", p);
	char *out, *err;
	g_assert_cmpint(
	    mcs_cli(
		(const char *[]){"run", MCS_SOURCE_DIR "/scenarios/validation/atomic_counter.json",
				 "--variant", "perfbook", "--set", "machine.contention=transfer",
				 "--set", "workloads.0.start_ns=1000", "--set", cpus_set, "--set",
				 p_set, "--format", "json", NULL},
		&out, &err),
	    ==, 0);
	json_t *doc = json_loads(out, 0, NULL);
	double v = json_number_value(json_object_get(
	    json_object_get(json_array_get(json_object_get(doc, "variants"), 0), "metrics"),
	    "ns_per_op_per_thread"));
	json_decref(doc);
	g_free(out);
	g_free(err);
	g_free(cpus_set);
	g_free(p_set);
	return v;
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char *path = g_build_filename(dir, name, NULL);
	g_assert_true(g_file_set_contents(path, text, -1, NULL));
	g_free(path);
}

/* A curve the model made at line_pileup_ns 0.6 (4, 16 and 40 threads):
 * the fit over 0-1 by 0.1 finds 0.6, with every point exact. */
static void test_recovers(void)
{
	char *dir = g_dir_make_tmp("memcgsim-calibrate-XXXXXX", NULL);
	GString *curve = g_string_new(NULL);
	g_string_append_printf(
	    curve,
	    "{\"format\": \"memcgsim-measurement-1\", \"name\": \"made\", \"source\": \"the "
	    "model\", \"model\": {\"scenario\": \"%s/scenarios/validation/atomic_counter.json\", "
	    "\"variant\": \"perfbook\", \"set\": {\"machine.contention\": \"transfer\", "
	    "\"workloads.0.start_ns\": 1000}, \"x\": \"workloads.0.cpus\", \"metric\": "
	    "\"ns_per_op_per_thread\"}, \"points\": [",
	    MCS_SOURCE_DIR);
	const int xs[] = {4, 16, 40};
	for (int i = 0; i < 3; i++)
		g_string_append_printf(curve, "%s{\"x\": %d, \"value\": %.17g}", i ? ", " : "",
				       xs[i], model_point(xs[i], "0.6"));
	g_string_append(curve, "]}");
	write_file(dir, "made.json", curve->str);
	write_file(dir, "fit.json",
		   "{\"format\": \"memcgsim-fit-1\", \"preset\": \"cascadelake-2s\", \"family\": "
		   "\"skylake-sp\", \"bound\": 0.25, \"params\": [{\"key\": \"line_pileup_ns\", "
		   "\"lo\": 0, \"hi\": 1, \"step\": 0.1}], \"curves\": [\"made.json\"]}");
	char *fit = g_build_filename(dir, "fit.json", NULL), *out, *err;
	g_assert_cmpint(mcs_cli((const char *[]){"calibrate", fit, "-j", "2", NULL}, &out, &err),
			==, 0);
	g_assert_nonnull(strstr(out, "\nline_pileup_ns                0.6  "));
	g_assert_nonnull(strstr(out, "largest error: +0.0% (made at x = "));
	g_free(out);
	g_free(err);
	g_free(fit);
	g_string_free(curve, TRUE);
	char *cmd = g_strdup_printf("rm -rf '%s'", dir);
	g_assert_cmpint(system(cmd), ==, 0);
	g_free(cmd);
	g_free(dir);
}

/* Bad fit files: the file, line:column, the member, what was expected;
 * exit 2 and nothing on standard output. */
static void bad_fit(const char *text, const char *want)
{
	char *dir = g_dir_make_tmp("memcgsim-calibrate-XXXXXX", NULL);
	write_file(dir, "fit.json", text);
	char *fit = g_build_filename(dir, "fit.json", NULL), *out, *err;
	g_assert_cmpint(mcs_cli((const char *[]){"calibrate", fit, NULL}, &out, &err), ==, 2);
	GString *expected = g_string_new(want); /* FIT: the fit file; DIR: its folder */
	g_string_replace(expected, "FIT", fit, 0);
	g_string_replace(expected, "DIR", dir, 0);
	g_assert_cmpstr(err, ==, expected->str);
	g_assert_cmpstr(out, ==, "");
	g_string_free(expected, TRUE);
	g_free(out);
	g_free(err);
	g_unlink(fit);
	g_rmdir(dir);
	g_free(fit);
	g_free(dir);
}

static void test_errors(void)
{
	bad_fit("{\"format\": \"x\"}", "FIT:1:12: format: expected \"memcgsim-fit-1\"\n");
	bad_fit("{\"format\": \"memcgsim-fit-1\", \"preset\": \"p\", \"family\": \"f\", "
		"\"bound\": 0.25, \"params\": []}",
		"FIT:1:85: params: expected a non-empty array\n");
	bad_fit("{\"format\": \"memcgsim-fit-1\", \"preset\": \"p\", \"family\": \"f\", "
		"\"bound\": 0.25, \"params\": [{\"key\": \"k\", \"lo\": 1, \"hi\": 0, \"step\": "
		"0.1}]}",
		"FIT:1:125: params.0.step: expected lo <= hi and a step > 0 giving at most 1000 "
		"values\n");
	bad_fit("{\"format\": \"memcgsim-fit-1\", \"preset\": \"p\", \"family\": \"f\", "
		"\"bound\": 0.25, \"params\": [{\"key\": \"k\", \"lo\": 0, \"hi\": 1, \"step\": "
		"0.1}], \"curves\": [\"nothere.json\"]}",
		"DIR/nothere.json:1:1: (root): cannot read: No such file or directory\n");
	bad_fit("{\"format\": \"memcgsim-fit-1\",", "FIT:1:28: (root): string or '}' expected "
						    "near end of file\n");
}

/* calibrate runs the probe's fit file @file in @dir, its one curve @curve. */
static void probe_calibrates(const char *dir, const char *file, const char *curve, int runs)
{
	char *out, *err;
	char *fit = g_build_filename(dir, file, NULL);
	g_assert_cmpint(mcs_cli((const char *[]){"calibrate", fit, "-j", "2", NULL}, &out, &err),
			==, 0);
	g_assert_cmpstr(err, ==, "");
	char *head = g_strdup_printf("memcgsim calibrate: %s: preset milan-2s (family milan-2s)\n"
				     "1 curves, 1 points, 1 parameters, %d runs; bound 25%%\n",
				     fit, runs);
	g_assert_true(g_str_has_prefix(out, head));
	char *title = g_strdup_printf("\n== %s ==\n", curve);
	g_assert_nonnull(strstr(out, title));
	g_free(title);
	g_free(head);
	g_free(out);
	g_free(err);
	g_free(fit);
}

/* memcgsim-probe on this machine's two CPUs (issue 39, item 4): the files'
 * form and their pipeline, not the numbers. It writes two curves of 1 and 2
 * threads (the shared counter; a ticket lock handed over with 2 lines in its
 * section) that data/contention/check.sh accepts, and a fit file each that
 * calibrate runs to its table on the one contended point; bad arguments,
 * exit 2. */
static void test_probe(void)
{
	char *top = g_dir_make_tmp("memcgsim-probe-XXXXXX", NULL);
	char *dir = g_build_filename(top, "new", "out", NULL); /* made by the probe */
	char *out, *err;
	int status;
	const char *probe[] = {MCS_PROBE, "--out",  dir, "--cpus",  "2", "--ops",
			       "20000",	  "--runs", "3", "--lines", "2", NULL};
	g_assert_true(g_spawn_sync(NULL, (char **)probe, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
				   &err, &status, NULL));
	g_assert_cmpstr(err, ==, "");
	g_assert_true(g_spawn_check_wait_status(status, NULL));
	g_free(out);
	g_free(err);
	char *curve = g_build_filename(dir, "probe-atomic-counter.json", NULL);
	json_t *doc = json_load_file(curve, 0, NULL);
	g_assert_nonnull(doc);
	json_t *points = json_object_get(doc, "points");
	g_assert_cmpuint(json_array_size(points), ==, 2);
	for (size_t i = 0; i < 2; i++) {
		json_t *p = json_array_get(points, i);
		g_assert_cmpint(json_integer_value(json_object_get(p, "x")), ==, (json_int_t)i + 1);
		g_assert_cmpfloat(json_number_value(json_object_get(p, "min")), <=,
				  json_number_value(json_object_get(p, "value")));
		g_assert_cmpfloat(json_number_value(json_object_get(p, "value")), >, 0);
	}
	json_decref(doc);
	char *lock = g_build_filename(dir, "probe-lock-handover.json", NULL);
	doc = json_load_file(lock, 0, NULL);
	g_assert_nonnull(doc);
	g_assert_cmpuint(json_array_size(json_object_get(doc, "points")), ==, 2);
	g_assert_cmpint(json_integer_value(json_object_get(json_object_get(doc, "benchmark"),
							   "lines_in_critical_section")),
			==, 2);
	g_assert_cmpint(
	    json_integer_value(json_object_get(
		json_object_get(json_object_get(doc, "model"), "set"), "workloads.0.data_lines")),
	    ==, 2);
	json_decref(doc);
	char *pairs = g_build_filename(dir, "probe-line-pairs.json", NULL);
	doc = json_load_file(pairs, 0, NULL);
	g_assert_nonnull(doc);
	g_assert_cmpuint(json_array_size(json_object_get(doc, "points")), >=, 1);
	json_decref(doc);
	const char *check[] = {MCS_SOURCE_DIR "/data/contention/check.sh", curve, lock, pairs,
			       NULL};
	g_assert_true(g_spawn_sync(NULL, (char **)check, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
				   &err, &status, NULL));
	g_assert_cmpstr(out, ==, "3 files OK\n");
	g_assert_true(g_spawn_check_wait_status(status, NULL));
	g_free(out);
	g_free(err);
	probe_calibrates(dir, "fit-probe.json", "probe-atomic-counter", 21);	 /* 0-1 by 0.05 */
	probe_calibrates(dir, "fit-probe-lock.json", "probe-lock-handover", 51); /* 0-200 by 4 */
	g_free(lock);
	g_free(pairs);
	const char *bad[] = {MCS_PROBE, "--out", dir, "--cpus", "1", NULL};
	g_assert_true(g_spawn_sync(NULL, (char **)bad, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
				   &err, &status, NULL));
	g_assert_cmpstr(err, ==,
			"memcgsim-probe: bad arguments (--out DIR; --cpus 2 to the CPUs online; "
			"--ops 1 to 1e9; --runs 1 to 101; --lines 0 to 64)\n");
	g_assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 2);
	g_free(out);
	g_free(err);
	/* --out made when missing (the files above went into one); not under a file */
	char *under = g_build_filename(curve, "sub", NULL);
	const char *file_out[] = {MCS_PROBE, "--out", under, "--cpus", "2", NULL};
	g_assert_true(g_spawn_sync(NULL, (char **)file_out, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
				   &err, &status, NULL));
	char *want = g_strdup_printf("memcgsim-probe: --out %s: cannot make or write the "
				     "directory: Not a directory\n",
				     under);
	g_assert_cmpstr(err, ==, want);
	g_assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 2);
	g_free(want);
	g_free(under);
	g_free(out);
	g_free(err);
	mcs_rm_tree(top);
	g_free(curve);
	g_free(dir);
	g_free(top);
}

/* Write CPU @cpu's topology under @sys: its core's and LLC's CPU lists
 * and its package (NULL: not written). */
static void fake_cpu(const char *sys, int cpu, const char *core, const char *llc, const char *pkg)
{
	const char *files[][2] = {{"topology/core_cpus_list", core},
				  {"cache/index3/shared_cpu_list", llc},
				  {"topology/physical_package_id", pkg}};
	for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
		if (!files[i][1])
			continue;
		char *path = g_strdup_printf("%s/cpu/cpu%d/%s", sys, cpu, files[i][0]);
		char *parent = g_path_get_dirname(path);
		g_assert_cmpint(g_mkdir_with_parents(parent, 0755), ==, 0);
		char *text = g_strdup_printf("%s\n", files[i][1]);
		g_assert_true(g_file_set_contents(path, text, -1, NULL));
		g_free(text);
		g_free(parent);
		g_free(path);
	}
}

/* The probe's machine file: the pair's class cost at its measured value,
 * on the preset, and a scenario takes it. */
static void machine_of_pairs(const char *dir, json_t *point)
{
	char *path = g_build_filename(dir, "machine-probe-pairs.json", NULL);
	json_t *m = json_load_file(path, 0, NULL);
	g_assert_cmpstr(json_string_value(json_object_get(m, "format")), ==, "memcgsim-machine-1");
	g_assert_cmpstr(json_string_value(json_object_get(m, "preset")), ==, "milan-2s");
	json_t *costs = json_object_get(m, "costs");
	g_assert_cmpuint(json_object_size(costs), ==, 1);
	g_assert_cmpfloat(json_number_value(json_object_get(
			      costs, json_string_value(json_object_get(point, "cost")))),
			  ==, json_number_value(json_object_get(point, "value")));
	json_decref(m);
	char *out, *err;
	g_assert_cmpint(
	    mcs_cli((const char *[]){"validate",
				     MCS_SOURCE_DIR "/scenarios/validation/atomic_counter.json",
				     "--machine", path, NULL},
		    &out, &err),
	    ==, 0);
	g_free(out);
	g_free(err);
	g_free(path);
}

/* The pairs' distance classes from a hand-made sysfs: CPUs 0 and 1 as SMT
 * siblings, then in one LLC, one socket, two sockets; with no topology,
 * an exact error and no file written. */
static void test_probe_pairs(void)
{
	const struct {
		const char *core0, *llc0, *pkg1;
		int x;
		const char *cls;
	} cases[] = {{"0-1", "0-1", "0", 1, "smt"},
		     {"0", "0-1", "0", 2, "llc"},
		     {"0", "0,2-3", "0", 3, "socket"},
		     {"0", "0", "1", 4, "remote"}};
	for (size_t i = 0; i <= G_N_ELEMENTS(cases); i++) {
		char *dir = g_dir_make_tmp("memcgsim-probe-XXXXXX", NULL);
		char *sys = g_build_filename(dir, "sys", NULL);
		char *out, *err;
		int status;
		if (i < G_N_ELEMENTS(cases)) {
			fake_cpu(sys, 0, cases[i].core0, cases[i].llc0, "0");
			fake_cpu(sys, 1, NULL, NULL, cases[i].pkg1);
		}
		const char *probe[] = {MCS_PROBE, "--out",  dir, "--cpus",  "2", "--ops",
				       "2000",	  "--runs", "1", "--sysfs", sys, NULL};
		g_assert_true(g_spawn_sync(NULL, (char **)probe, NULL, G_SPAWN_DEFAULT, NULL, NULL,
					   &out, &err, &status, NULL));
		char *pairs = g_build_filename(dir, "probe-line-pairs.json", NULL);
		char *counter = g_build_filename(dir, "probe-atomic-counter.json", NULL);
		if (i == G_N_ELEMENTS(cases)) { /* nothing written */
			g_assert_false(g_file_test(counter, G_FILE_TEST_EXISTS));
			char *want = g_strdup_printf(
			    "memcgsim-probe: %s/cpu: no CPU's distance from CPU 0 is known\n", sys);
			g_assert_cmpstr(err, ==, want);
			g_assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 1);
			g_assert_false(g_file_test(pairs, G_FILE_TEST_EXISTS));
			g_free(want);
		} else {
			g_assert_cmpstr(err, ==, "");
			json_t *doc = json_load_file(pairs, 0, NULL);
			g_assert_nonnull(doc);
			json_t *points = json_object_get(doc, "points");
			g_assert_cmpuint(json_array_size(points), ==, 1);
			json_t *p = json_array_get(points, 0);
			g_assert_cmpint(json_integer_value(json_object_get(p, "x")), ==,
					cases[i].x);
			g_assert_cmpstr(json_string_value(json_object_get(p, "class")), ==,
					cases[i].cls);
			g_assert_cmpint(
			    json_integer_value(json_array_get(json_object_get(p, "cpus"), 1)), ==,
			    1);
			g_assert_cmpfloat(json_number_value(json_object_get(p, "value")), >, 0);
			machine_of_pairs(dir, p);
			json_decref(doc);
		}
		g_free(pairs);
		g_free(counter);
		g_free(out);
		g_free(err);
		mcs_rm_tree(dir);
		g_free(sys);
		g_free(dir);
	}
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/calibrate/shipped/cascadelake-2s", test_shipped_cascadelake);
	g_test_add_func("/calibrate/shipped/broadwell-2s", test_shipped_broadwell);
	g_test_add_func("/calibrate/recovers", test_recovers);
	g_test_add_func("/calibrate/probe", test_probe);
	g_test_add_func("/calibrate/probe/pairs", test_probe_pairs);
	g_test_add_func("/calibrate/errors", test_errors);
	return g_test_run();
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* A machine file (--machine FILE, issue 39, item 4): its preset and costs
 * are --set overrides before the command line's, so a run with it is the
 * run with those --set, byte for byte; a later file and --set win; bad
 * files get exact errors, exit 2, nothing on standard output. calibrate
 * --machine-out writes its fit as one, and memcgsim-probe its pairs. */
#include "test_util.h"
#include <glib.h>
#include <glib/gstdio.h>
#include <jansson.h>
#include <string.h>
#include <sys/wait.h>

#define COUNTER MCS_SOURCE_DIR "/scenarios/validation/atomic_counter.json"

static char *dir;

static char *write_file(const char *name, const char *text)
{
	char *path = g_build_filename(dir, name, NULL);
	g_assert_true(g_file_set_contents(path, text, -1, NULL));
	return path;
}

/* A two-point run of the counter with @extra arguments (NULL-ended, at most
 * 12); its standard output. */
static char *counter_run(const char *const *extra)
{
	const char *args[24] = {"run",	    COUNTER,	  "--variant", "perfbook",
				"--set",    "replicas=1", "--set",     "stop.duration_ns=20000",
				"--format", "json",	  "-q"};
	size_t n = 11;
	for (; *extra; extra++)
		args[n++] = *extra;
	char *out, *err;
	g_assert_cmpint(mcs_cli(args, &out, &err), ==, 0);
	g_assert_cmpstr(err, ==, "");
	g_free(err);
	return out;
}

static void test_as_sets(void)
{
	char *m =
	    write_file("m.json", "{\"format\": \"memcgsim-machine-1\", \"source\": \"by hand\",\n"
				 " \"preset\": \"milan-2s\",\n"
				 " \"costs\": {\"line_llc_ns\": 316.9, \"line_pileup_ns\": 0}}\n");
	char *with = counter_run((const char *[]){"--machine", m, NULL});
	char *sets = counter_run((const char *[]){"--set", "machine.preset=milan-2s", "--set",
						  "machine.costs.line_llc_ns=316.9", "--set",
						  "machine.costs.line_pileup_ns=0", NULL});
	json_t *doc = json_loads(with, 0, NULL), *by_sets = json_loads(sets, 0, NULL);
	g_assert_true(
	    json_equal(json_object_get(doc, "variants"), json_object_get(by_sets, "variants")));
	json_decref(by_sets);
	json_t *o = json_object_get(doc, "overrides");
	g_assert_cmpuint(json_array_size(o), ==, 4); /* replicas is not one */
	g_assert_cmpstr(json_string_value(json_array_get(o, 0)), ==, "machine.preset=milan-2s");
	g_assert_cmpstr(json_string_value(json_array_get(o, 1)), ==,
			"machine.costs.line_llc_ns=316.9");
	json_decref(doc);
	/* a later file, then --set, win: they come after */
	char *m2 = write_file("m2.json", "{\"format\": \"memcgsim-machine-1\", \"source\": \"b\", "
					 "\"costs\": {\"line_llc_ns\": 50}}");
	char *later = counter_run((const char *[]){"--machine", m, "--machine", m2, "--set",
						   "machine.costs.line_llc_ns=60", NULL});
	doc = json_loads(later, 0, NULL);
	o = json_object_get(doc, "overrides");
	g_assert_cmpstr(json_string_value(json_array_get(o, 3)), ==,
			"machine.costs.line_llc_ns=50");
	g_assert_cmpstr(json_string_value(json_array_get(o, 5)), ==,
			"machine.costs.line_llc_ns=60");
	char *sixty = counter_run(
	    (const char *[]){"--machine", m, "--set", "machine.costs.line_llc_ns=60", NULL});
	json_t *at60 = json_loads(sixty, 0, NULL);
	g_assert_true(
	    json_equal(json_object_get(doc, "variants"), json_object_get(at60, "variants")));
	json_decref(at60);
	json_decref(doc);
	g_free(sixty);
	g_free(later);
	g_free(with);
	g_free(sets);
	g_free(m2);
	g_free(m);
}

/* @text as a machine file: validate refuses it with @want (FILE: its path). */
static void bad_machine(const char *text, const char *want)
{
	char *m = text ? write_file("bad.json", text) : g_build_filename(dir, "none.json", NULL);
	char *out, *err;
	g_assert_cmpint(
	    mcs_cli((const char *[]){"validate", COUNTER, "--machine", m, NULL}, &out, &err), ==,
	    2);
	GString *expected = g_string_new(want);
	g_string_replace(expected, "FILE", m, 0);
	g_assert_cmpstr(err, ==, expected->str);
	g_assert_cmpstr(out, ==, "");
	g_string_free(expected, TRUE);
	g_free(out);
	g_free(err);
	g_free(m);
}

#define HEAD "{\"format\": \"memcgsim-machine-1\", \"source\": \"s\", "

static void test_errors(void)
{
	bad_machine(NULL, "FILE:1:1: (root): cannot read: No such file or directory\n");
	bad_machine("[1]", "FILE:1:1: (root): expected an object: a memcgsim machine file\n");
	bad_machine("{\"format\": \"memcgsim-fit-1\"}",
		    "FILE:1:12: format: expected \"memcgsim-machine-1\"\n");
	bad_machine(HEAD "\"cost\": {}}", "FILE:1:57: cost: expected one of format, source, "
					  "preset and costs, not \"cost\" (did you mean "
					  "\"costs\"?)\n");
	bad_machine("{\"format\": \"memcgsim-machine-1\", \"costs\": {\"line_llc_ns\": 1}}",
		    "FILE:1:1: source: expected a non-empty string\n");
	bad_machine(HEAD "\"preset\": \"milan2s\", \"costs\": {\"line_llc_ns\": 1}}",
		    "FILE:1:59: preset: expected a preset, not \"milan2s\" (did you mean "
		    "\"milan-2s\"?) (memcgsim schema lists them)\n");
	bad_machine(HEAD "\"costs\": {}}", "FILE:1:58: costs: expected an object of "
					   "machine.costs keys and their ns, not empty\n");
	bad_machine(HEAD "\"costs\": {\"line_lc_ns\": 1}}",
		    "FILE:1:73: costs.line_lc_ns: expected a machine.costs key, not "
		    "\"line_lc_ns\" (did you mean \"line_llc_ns\"?) (memcgsim schema lists "
		    "them)\n");
	bad_machine(HEAD "\"costs\": {\"line_llc_ns\": \"1\"}}",
		    "FILE:1:74: costs.line_llc_ns: expected a finite number\n");
	bad_machine(HEAD "\"costs\": {\"line_llc_ns\": -1}}",
		    "FILE:1:74: costs.line_llc_ns: expected a cost of 0 to 1000000000 ns\n");
	bad_machine(HEAD "\"costs\": {\"line_llc_ns\": 1e308}}",
		    "FILE:1:74: costs.line_llc_ns: expected a cost of 0 to 1000000000 ns\n");
}

/* calibrate --machine-out: the fit of line_llc_ns (40 or 42) to one point
 * of the counter, 100 ns an increment a thread at 4 threads (the model's
 * is within 25%), as a machine file, which validate --machine takes; a
 * fit file as its own output refused; a fit beyond its bound writes none. */
static void test_calibrate_out(void)
{
	char *curve = g_strdup_printf(
	    "{\"format\": \"memcgsim-measurement-1\", \"name\": \"made\", \"source\": \"the "
	    "model\", \"model\": {\"scenario\": \"%s\", \"variant\": \"perfbook\", \"set\": "
	    "{\"machine.contention\": \"transfer\", \"workloads.0.start_ns\": 1000, "
	    "\"machine.costs.line_pileup_ns\": 0.6}, \"x\": \"workloads.0.cpus\", \"metric\": "
	    "\"ns_per_op_per_thread\"}, \"points\": [{\"x\": 4, \"value\": 100}]}",
	    COUNTER);
	g_free(write_file("made.json", curve));
	g_free(curve);
	char *fit =
	    write_file("fit.json", "{\"format\": \"memcgsim-fit-1\", \"preset\": "
				   "\"cascadelake-2s\", \"family\": \"skylake-sp\", "
				   "\"bound\": 0.25, \"params\": [{\"key\": \"line_llc_ns\", "
				   "\"lo\": 40, \"hi\": 42, \"step\": 2}], \"curves\": "
				   "[\"made.json\"]}");
	char *machine = g_build_filename(dir, "machine.json", NULL), *out, *err;
	g_assert_cmpint(
	    mcs_cli((const char *[]){"calibrate", fit, "--machine-out", machine, "-j", "2", NULL},
		    &out, &err),
	    ==, 0);
	char *text;
	g_assert_true(g_file_get_contents(machine, &text, NULL, NULL));
	json_t *doc = json_loads(text, 0, NULL);
	g_assert_cmpstr(json_string_value(json_object_get(doc, "format")), ==,
			"memcgsim-machine-1");
	g_assert_cmpstr(json_string_value(json_object_get(doc, "preset")), ==, "cascadelake-2s");
	double fitted =
	    json_number_value(json_object_get(json_object_get(doc, "costs"), "line_llc_ns"));
	g_assert_true(fitted == 40 || fitted == 42);
	char *row = g_strdup_printf("\n%-22s %10g  ", "line_llc_ns", fitted);
	g_assert_nonnull(strstr(out, row)); /* the file is the table's fit */
	g_free(row);
	json_decref(doc);
	g_free(text);
	g_free(out);
	g_free(err);
	g_assert_cmpint(
	    mcs_cli((const char *[]){"validate", COUNTER, "--machine", machine, NULL}, &out, &err),
	    ==, 0);
	g_free(out);
	g_free(err);
	g_assert_cmpint(
	    mcs_cli((const char *[]){"calibrate", fit, "--machine-out", fit, NULL}, &out, &err), ==,
	    2);
	char *want = g_strdup_printf("memcgsim: --machine-out: %s: is the fit file, an input: "
				     "refusing to replace it\n",
				     fit);
	g_assert_cmpstr(err, ==, want);
	g_free(want);
	g_free(out);
	g_free(err);
	/* a fit beyond its bound (here 0.01%): its table, no machine file */
	g_free(fit);
	fit = write_file("fit.json", "{\"format\": \"memcgsim-fit-1\", \"preset\": "
				     "\"cascadelake-2s\", \"family\": \"skylake-sp\", "
				     "\"bound\": 0.0001, \"params\": [{\"key\": \"line_llc_ns\", "
				     "\"lo\": 40, \"hi\": 42, \"step\": 2}], \"curves\": "
				     "[\"made.json\"]}");
	g_unlink(machine);
	g_assert_cmpint(
	    mcs_cli((const char *[]){"calibrate", fit, "--machine-out", machine, "-j", "2", NULL},
		    &out, &err),
	    ==, 1);
	const char *worst = strstr(out, "largest error: ");
	g_assert_nonnull(worst);
	char *pct = g_strndup(worst + strlen("largest error: "),
			      strcspn(worst + strlen("largest error: "), " "));
	want =
	    g_strdup_printf("memcgsim: --machine-out %s: not written: the fit's largest "
			    "error, %s, is beyond its bound of 0.01%%; a machine file holds only a "
			    "fit within it (widen the grid, or give the bound)\n",
			    machine, pct);
	g_assert_cmpstr(err, ==, want);
	g_assert_false(g_file_test(machine, G_FILE_TEST_EXISTS));
	g_free(pct);
	g_free(want);
	g_free(out);
	g_free(err);
	g_free(machine);
	g_free(fit);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	dir = g_dir_make_tmp("memcgsim-machine-XXXXXX", NULL);
	g_test_add_func("/machine/as-sets", test_as_sets);
	g_test_add_func("/machine/errors", test_errors);
	g_test_add_func("/machine/calibrate-out", test_calibrate_out);
	int rc = g_test_run();
	mcs_rm_tree(dir);
	g_free(dir);
	return rc;
}

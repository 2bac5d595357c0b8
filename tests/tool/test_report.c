// SPDX-License-Identifier: GPL-2.0-or-later
/* memcgsim report and run --trace: golden text, Markdown and CSV reports,
 * `run` and `report` agreeing, HTML with hostile names (escaped, and no
 * gnuplot injection), sort keys, input errors, a sweep's golden report, the
 * cache lines (counts by hand, replicas merged, the perf c2c table), and
 * Chrome traces that parse and cover what they claim. */
#include "change.h"
#include "lockstat.h"
#include "metrics.h"
#include "plot.h"
#include "report.h"
#include "result.h"
#include "result_format.h"
#include "run.h"
#include "test_util.h"
#include "workload.h"
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#define GOLDEN MCS_SOURCE_DIR "/tests/golden/"
#define FIXTURE GOLDEN "lockbench.result.json"
#define SCEN MCS_SOURCE_DIR "/scenarios/lockbench_scope.json"

/* `memcgsim @args` succeeds and prints exactly the golden file @golden. */
static void assert_golden(const char *const *args, const char *golden)
{
	char *out, *err;
	g_assert_cmpint(mcs_cli(args, &out, &err), ==, 0);
	char *path = g_strconcat(GOLDEN, golden, NULL);
	char *want = mcs_slurp(path);
	g_assert_nonnull(want);
	if (!g_str_equal(out, want)) { /* leave what it printed for a diff */
		char *actual = g_strconcat(golden, ".actual", NULL);
		g_file_set_contents(actual, out, -1, NULL);
		g_printerr("output differs from %s: see %s\n", path, actual);
		g_free(actual);
	}
	g_assert_true(g_str_equal(out, want));
	g_free(want);
	g_free(path);
	g_free(out);
	g_free(err);
}

static void test_golden(void)
{
	assert_golden((const char *[]){"report", FIXTURE, NULL}, "lockbench.txt");
	assert_golden((const char *[]){"report", FIXTURE, "--format", "md", NULL}, "lockbench.md");
	assert_golden((const char *[]){"report", FIXTURE, "--format", "csv", NULL},
		      "lockbench.csv");
	/* the summary (issue 23, item 2): golden, and no line past 78 columns */
	assert_golden((const char *[]){"report", FIXTURE, "--summary", NULL},
		      "lockbench.summary.txt");
	/* with the machine measured beside the baseline and the winner */
	assert_golden((const char *[]){"report", FIXTURE, "--lock-stat",
				       MCS_SOURCE_DIR "/tests/fixtures/lockstat/proc_lock_stat.txt",
				       "--summary", NULL},
		      "lockbench.lock_stat.summary.txt");
	static const char *const narrow[] = {GOLDEN "lockbench.summary.txt",
					     GOLDEN "lockbench.lock_stat.summary.txt"};
	for (size_t i = 0; i < G_N_ELEMENTS(narrow); i++) {
		char *sum = mcs_slurp(narrow[i]);
		char **lines = g_strsplit(sum, "\n", -1);
		for (char **l = lines; *l; l++)
			g_assert_cmpint(g_utf8_strlen(*l, -1), <=, 78);
		g_strfreev(lines);
		g_free(sum);
	}
}

/* What `run` prints is what `report` makes of the result it writes. */
static void test_run_matches_report(void)
{
	char *dir = g_dir_make_tmp("memcgsim-report-XXXXXX", NULL);
	char *res = g_build_filename(dir, "r.json", NULL);
	char *text, *out, *err;
	const char *set[] = {"run",   SCEN,	   "--set", "stop.duration_ns=100000",
			     "--set", "replicas=2"};
	g_assert_cmpint(
	    mcs_cli((const char *[]){set[0], set[1], set[2], set[3], set[4], set[5], NULL}, &text,
		    &err),
	    ==, 0);
	g_free(err);
	g_assert_cmpint(mcs_cli((const char *[]){set[0], set[1], set[2], set[3], set[4], set[5],
						 "--format", "json", "-o", res, NULL},
				&out, &err),
			==, 0);
	g_free(out);
	g_free(err);
	g_assert_cmpint(mcs_cli((const char *[]){"report", res, NULL}, &out, &err), ==, 0);
	g_assert_cmpstr(out, ==, text);
	g_free(out);
	g_free(err);
	g_free(text);
	mcs_rm_tree(dir);
	g_free(res);
	g_free(dir);
}

#define HOSTILE_SCENARIO "<script>alert(\"x\")</script>&"
#define HOSTILE_VARIANT "'; system(\"touch PWNED\"); x='\nset output 'PWNED' `touch PWNED`"

/* The HTML report opens with the verdict, then the comparison of the
 * figures with their intervals, before its contents and plots; its plots of the locks' waits
 * come most wait first (here the second variant's lock, made to wait
 * longest), whatever the order of the locks in the result. */
static void test_html_order(void)
{
	char *dir = g_dir_make_tmp("memcgsim-report-XXXXXX", NULL);
	json_t *doc = json_load_file(FIXTURE, 0, NULL);
	json_t *v1 = json_array_get(json_object_get(doc, "variants"), 1);
	json_t *lock = json_array_get(json_object_get(v1, "locks"), 0);
	json_object_set_new(json_object_get(lock, "wait_ns"), "total", json_real(2e7));
	char *in = g_build_filename(dir, "r.json", NULL);
	g_assert_cmpint(json_dump_file(doc, in, 0), ==, 0);
	json_decref(doc);
	char *plots = g_build_filename(dir, "plots", NULL);
	char *out, *err;
	g_assert_cmpint(
	    mcs_cli((const char *[]){"report", in, "--format", "html", "--plots", plots, NULL},
		    &out, &err),
	    ==, 0);
	const char *verdict = strstr(out, "\">verdict</h2>");
	const char *comparison = strstr(out, "\">comparison");
	const char *contents = strstr(out, "<nav id=\"contents\">");
	const char *first_plot = strstr(out, "<figcaption>");
	g_assert_nonnull(verdict);
	g_assert_nonnull(comparison);
	g_assert_nonnull(first_plot);
	g_assert_true(verdict < comparison && comparison < contents && contents < first_plot);
	g_assert_true(g_str_has_prefix(first_plot + strlen("<figcaption>"),
				       "&amp;lb-&gt;node_lock: wait-time distribution"));
	g_assert_nonnull(strstr(first_plot + 1, "<figcaption>&amp;lb-&gt;lock: wait-time"));
	g_free(out);
	g_free(err);
	mcs_rm_tree(dir);
	g_free(plots);
	g_free(in);
	g_free(dir);
}

static void test_html_hostile(void)
{
	char *dir = g_dir_make_tmp("memcgsim-report-XXXXXX", NULL);
	json_t *doc = json_load_file(FIXTURE, 0, NULL);
	json_object_set_new(doc, "scenario", json_string(HOSTILE_SCENARIO));
	json_t *v0 = json_array_get(json_object_get(doc, "variants"), 0);
	json_object_set_new(v0, "name", json_string(HOSTILE_VARIANT));
	json_t *lock = json_array_get(json_object_get(v0, "locks"), 0);
	json_object_set_new(lock, "class", json_string("</pre><img src=x onerror=alert(1)>"));
	char *in = g_build_filename(dir, "hostile.json", NULL);
	g_assert_cmpint(json_dump_file(doc, in, 0), ==, 0);
	json_decref(doc);
	char *plots = g_build_filename(dir, "plots", NULL);
	char *html = g_build_filename(dir, "r.html", NULL);
	char *out, *err;
	g_assert_cmpint(mcs_cli((const char *[]){"report", in, "--format", "html", "--plots", plots,
						 "-o", html, NULL},
				&out, &err),
			==, 0);
	g_free(out);
	g_free(err);
	char *text = mcs_slurp(html);
	/* one script, the page's own (image sizes on load); none from the input */
	g_assert_nonnull(strstr(text, "<script>addEventListener('load'"));
	g_assert_null(strstr(strstr(text, "<script>") + 1, "<script>"));
	g_assert_null(strstr(text, "<script>alert"));
	g_assert_null(strstr(text, "<img src=x"));
	g_assert_nonnull(strstr(text, "<title>memcgsim 0.1.0: scenario &quot;&lt;script&gt;alert("
				      "&quot;x&quot;)&lt;/script&gt;&amp;&quot;, seed 1</title>"));
	g_assert_nonnull(strstr(text, "&lt;/pre&gt;&lt;img src=x onerror=alert(1)&gt;"));
	/* the plots are inline: no file outside the page is needed */
	guint imgs = 0;
	for (const char *p = text; (p = strstr(p, "<img alt=")); p++)
		imgs++;
	g_assert_cmpuint(imgs, ==, 3); /* wait CDFs of two lock classes, CPU time */
	g_assert_cmpuint(
	    imgs, ==,
	    (guint)(g_strv_length(g_strsplit(text, "data:image/svg+xml;base64,", -1)) - 1));
	/* the name reached gnuplot as one quoted string, and did nothing */
	char *pwned = g_build_filename(plots, "PWNED", NULL);
	g_assert_false(g_file_test(pwned, G_FILE_TEST_EXISTS));
	g_assert_false(g_file_test("PWNED", G_FILE_TEST_EXISTS));
	char *gp_path = g_build_filename(plots, "cpu-time.gp", NULL);
	char *gp = mcs_slurp(gp_path);
	char *quoted = plot_quote(HOSTILE_VARIANT);
	g_assert_cmpstr(quoted, ==,
			"'\u2019; system(\"touch PWNED\"); x=\u2019 set output \u2019PWNED\u2019 "
			"`touch PWNED`'");
	g_assert_nonnull(strstr(gp, quoted));
	g_free(quoted);
	g_free(gp);
	g_free(gp_path);
	g_free(pwned);
	g_free(text);
	mcs_rm_tree(dir);
	g_free(html);
	g_free(plots);
	g_free(in);
	g_free(dir);
}

static void test_sort_and_errors(void)
{
	char *out, *err;
	g_assert_cmpint(
	    mcs_cli((const char *[]){"report", FIXTURE, "--sort", "wait_max", NULL}, &out, &err),
	    ==, 0);
	g_assert_nonnull(strstr(out, " contended   total wait     max wait     avg wait"));
	g_free(out);
	g_free(err);
	static const struct {
		const char *args[6];
		const char *err;
	} cases[] = {
	    {{"report", FIXTURE, "--sort", "bogus"},
	     "memcgsim: --sort: expected contended, wait_total, wait_max or wait_avg, got "
	     "\"bogus\"\n"},
	    {{"report", FIXTURE, "--format", "pdf"},
	     "memcgsim: --format: expected text, md, html, summary, json or csv, got \"pdf\"\n"},
	    /* one edit from a format's name (mcs_named_near): a typo of it */
	    {{"report", FIXTURE, "--format", "htm"},
	     "memcgsim: --format: expected text, md, html, summary, json or csv, got \"htm\" (did "
	     "you "
	     "mean \"html\"?)\n"},
	    {{"report", SCEN},
	     SCEN ": format: expected \"memcgsim-result-1\" or "
		  "\"memcgsim-sweep-1\"\n"},
	    {{"report", GOLDEN "lockbench.txt"},
	     GOLDEN "lockbench.txt:1:8: (root): '[' or '{' expected near 'memcgsim'\n"},
	    {{"report", FIXTURE, "--point", "0"},
	     "--point: " MCS_SOURCE_DIR "/tests/golden/lockbench.result.json is a single result, "
	     "not a sweep\n"},
	    {{"report", "/nonexistent/r.json"},
	     "/nonexistent/r.json:1:1: (root): cannot read: No such file or directory\n"},
	};
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_assert_cmpint(mcs_cli(cases[i].args, &out, &err), ==, 2);
		g_assert_cmpstr(err, ==, cases[i].err);
		g_assert_cmpstr(out, ==, "");
		g_free(out);
		g_free(err);
	}
}

/* A result edited to carry terminal escapes (a title-setting OSC in the
 * scenario's name, CSI in a lock class, a C1 CSI in a variant's name): the
 * text and Markdown reports show them escaped and send the terminal none. */
static void test_text_escapes(void)
{
	char *dir = g_dir_make_tmp("memcgsim-report-XXXXXX", NULL);
	json_t *doc = json_load_file(FIXTURE, 0, NULL);
	json_object_set_new(doc, "scenario", json_string("x\x1b]0;pwned\x07"));
	json_t *v0 = json_array_get(json_object_get(doc, "variants"), 0);
	json_object_set_new(v0, "name",
			    json_string("v\xc2\x9b"
					"2J"));
	json_t *lock = json_array_get(json_object_get(v0, "locks"), 0);
	json_object_set_new(lock, "class", json_string("\x1b[2Jlock"));
	char *in = g_build_filename(dir, "escapes.json", NULL);
	g_assert_cmpint(json_dump_file(doc, in, 0), ==, 0);
	json_decref(doc);
	for (const char *const *f = (const char *const[]){"text", "md", NULL}; *f; f++) {
		char *out, *err;
		g_assert_cmpint(
		    mcs_cli((const char *[]){"report", in, "--format", *f, NULL}, &out, &err), ==,
		    0);
		g_assert_null(strchr(out, '\x1b'));
		g_assert_null(strchr(out, '\x07'));
		g_assert_null(strstr(out, "\xc2\x9b"));
		g_assert_nonnull(strstr(out, "scenario \"x\\x1b]0;pwned\\x07\", seed 1"));
		g_assert_nonnull(strstr(out, "\\x1b[2Jlock"));
		g_assert_nonnull(strstr(out, "v\\u009b2J"));
		g_assert_true(g_utf8_validate(out, -1, NULL));
		g_free(out);
		g_free(err);
	}
	mcs_rm_tree(dir);
	g_free(in);
	g_free(dir);
}

/* A result file edited by hand or by an attacker: a clear error, exit 2. */
static void test_hostile_result(void)
{
	char *dir = g_dir_make_tmp("memcgsim-report-XXXXXX", NULL);
	char *in = g_build_filename(dir, "r.json", NULL);
	static const struct {
		const char *path; /* JSON pointer-ish: keys and indices */
		const char *value, *err;
	} cases[] = {
	    {"variants.0.name", "5", "variants.0.name: expected a string"},
	    {"variants.0.per_replica.1.metrics.elapsed_ns", "\"x\"",
	     "variants.0.per_replica.1.metrics.elapsed_ns: expected a finite number"},
	    {"variants.1.locks.0.contention_points.0.site", "null",
	     "variants.1.locks.0.contention_points.0.site: expected a string"},
	    {"variants.1", "3", "variants.1: expected an object"},
	    {"variants", "{}", "variants: expected an array"},
	    {"variants", "[]", "variants: expected at least one variant"},
	    {"variants.0.per_replica", "[]",
	     "variants.0.per_replica: expected at least one replica"},
	    /* ranges, not only types (issue 37: a run file's edited times were reported) */
	    {"variants.0.per_replica.0.sim_time_ns", "-5",
	     "variants.0.per_replica.0.sim_time_ns: expected a time in ns: a finite number, 0 or "
	     "more"},
	    {"variants.0.cpu_time_ns.user", "-1e300",
	     "variants.0.cpu_time_ns.user: expected a time in ns: a finite number, 0 or more"},
	    {"variants.1.locks.0.wait_ns.max", "-1",
	     "variants.1.locks.0.wait_ns.max: expected a count or time: a finite number, 0 or "
	     "more"},
	    /* a figure's description, read by the reports (docs/results.md; the
	     * fixture is given a valid one below) */
	    {"variants.1.metric_info", "[]", "variants.1.metric_info: expected an object"},
	    {"variants.0.metric_info.elapsed_ns", "3",
	     "variants.0.metric_info.elapsed_ns: expected an object"},
	    {"variants.0.metric_info.elapsed_ns.higher_is_better", "1",
	     "variants.0.metric_info.elapsed_ns.higher_is_better: expected true or false"},
	    {"variants.0.metric_info.elapsed_ns.meaning", "null",
	     "variants.0.metric_info.elapsed_ns.meaning: expected a string"},
	};
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		json_t *doc = json_load_file(FIXTURE, 0, NULL);
		json_object_set_new(json_array_get(json_object_get(doc, "variants"), 0),
				    "metric_info",
				    json_pack("{s:{s:s, s:b, s:s}}", "elapsed_ns", "unit", "ns",
					      "higher_is_better", false, "meaning", "m"));
		char **keys = g_strsplit(cases[i].path, ".", -1);
		json_t *at = doc;
		guint n = g_strv_length(keys);
		for (guint k = 0; k + 1 < n; k++)
			at = json_is_array(at) ? json_array_get(at, (size_t)atoi(keys[k]))
					       : json_object_get(at, keys[k]);
		json_t *v = json_loads(cases[i].value, JSON_DECODE_ANY, NULL);
		if (json_is_array(at))
			json_array_set_new(at, (size_t)atoi(keys[n - 1]), v);
		else
			json_object_set_new(at, keys[n - 1], v);
		g_strfreev(keys);
		g_assert_cmpint(json_dump_file(doc, in, 0), ==, 0);
		static const char *const formats[] = {"text", "md", "html", "csv"};
		for (size_t f = 0; f < G_N_ELEMENTS(formats); f++) {
			char *out, *err;
			g_assert_cmpint(
			    mcs_cli((const char *[]){"report", in, "--format", formats[f], NULL},
				    &out, &err),
			    ==, 2);
			/* "IN:LINE:COL: ERR", LINE:COL where the bad value starts */
			int line = 0, col = 0, used = 0;
			g_assert_true(g_str_has_prefix(err, in));
			g_assert_cmpint(sscanf(err + strlen(in), ":%d:%d: %n", &line, &col, &used),
					==, 2);
			char *want = g_strdup_printf("%s\n", cases[i].err);
			g_assert_cmpstr(err + strlen(in) + used, ==, want);
			g_free(want);
			char *text = mcs_slurp(in);
			char **lines = g_strsplit(text, "\n", -1);
			g_assert_cmpint(line, <=, (int)g_strv_length(lines));
			char *dumped = json_dumps(v, JSON_ENCODE_ANY);
			g_assert_true(g_str_has_prefix(lines[line - 1] + col - 1, dumped));
			free(dumped);
			g_strfreev(lines);
			g_free(text);
			g_assert_cmpstr(out, ==, "");
			g_free(out);
			g_free(err);
		}
		json_decref(doc); /* and @v with it */
	}
	/* nesting deeper than any parser should follow */
	GString *deep = g_string_new(NULL);
	for (int i = 0; i < 100000; i++)
		g_string_append_c(deep, '[');
	g_assert_true(g_file_set_contents(in, deep->str, (gssize)deep->len, NULL));
	g_string_free(deep, TRUE);
	char *out, *err;
	g_assert_cmpint(mcs_cli((const char *[]){"report", in, NULL}, &out, &err), ==, 2);
	g_assert_true(g_str_has_prefix(err, in));
	g_free(out);
	g_free(err);
	mcs_rm_tree(dir);
	g_free(in);
	g_free(dir);
}

static void test_sweep_golden(void)
{
	char *dir = g_dir_make_tmp("memcgsim-report-XXXXXX", NULL);
	char *sweep = g_build_filename(dir, "sweep", NULL);
	char *out, *err;
	/* the model line the report shows, the same for every build */
	g_setenv("MEMCGSIM_TEST_MODEL", "0.1.0+golden", TRUE);
	g_assert_cmpint(mcs_cli((const char *[]){"sweep", SCEN, "--set", "stop.duration_ns=100000",
						 "--param", "workloads.0.hold_ns=50,200",
						 "--replicas", "3", "--out", sweep, NULL},
				&out, &err),
			==, 0);
	g_unsetenv("MEMCGSIM_TEST_MODEL");
	g_free(out);
	g_free(err);
	assert_golden((const char *[]){"report", sweep, NULL}, "sweep.txt");
	/* the plots (issue 23, item 4): a ratio's axis fits the ratios and
	 * shows the resolution band around 1; the legend is below the plot;
	 * series differ in colour, then in dashes */
	char *plots = g_build_filename(dir, "plots", NULL);
	g_assert_cmpint(
	    mcs_cli((const char *[]){"report", sweep, "--plots", plots, "-o", "/dev/null", NULL},
		    &out, &err),
	    ==, 0);
	g_free(out);
	g_free(err);
	char *gp_path = g_build_filename(plots, "ratio-01.gp", NULL);
	char *gp = mcs_slurp(gp_path);
	g_assert_nonnull(strstr(gp, "\nset key outside below horizontal\n"));
	g_assert_nonnull(strstr(gp, "\nset linetype 8 lc rgb '#666666' lw 2 pt 8 dt 1\n"
				    "set linetype 9 lc rgb '#1b9e77' lw 2 pt 7 dt 2\n"));
	g_assert_nonnull(strstr(gp, "\nset object 1 rectangle from graph 0, first 0.9900 to "
				    "graph 1, first 1.0100 behind fillcolor rgb '#e8e8e8' "
				    "fillstyle solid noborder\n"));
	const char *yr = strstr(gp, "\nset yrange [");
	g_assert_nonnull(yr);
	double low = g_ascii_strtod(yr + strlen("\nset yrange ["), NULL);
	g_assert_cmpfloat(low, >, 0.5); /* not from 0: a difference of 1% shows */
	g_assert_cmpfloat(low, <=, 0.98);
	g_free(gp);
	g_free(gp_path);
	g_free(plots);
	g_assert_cmpint(
	    mcs_cli((const char *[]){"report", sweep, "--point", "1", NULL}, &out, &err), ==, 0);
	g_assert_nonnull(strstr(out, "lock_stat version 0.4\n"));
	g_free(out);
	g_free(err);
	mcs_rm_tree(dir);
	g_free(sweep);
	g_free(dir);
}

#define C2C_SCEN MCS_SOURCE_DIR "/scenarios/validation/ticket_vs_mcs.json"
#define C2C_LLC_NS 52.4 /* the scenario's line_llc_ns */
#define C2C_RMW_NS 8.8	/* and locked_rmw_ns */

static json_int_t ival(json_t *o, const char *path)
{
	char **keys = g_strsplit(path, ".", -1);
	for (char **k = keys; *k && o; k++)
		o = json_object_get(o, *k);
	g_strfreev(keys);
	g_assert_true(json_is_integer(o));
	return json_integer_value(o);
}

/* The counts @o (a line class or a site) of a run where every access of the
 * @per lines moved the line from the previous holder on the same die: @n
 * accesses a line, the first a hit (the line starts there), the others
 * transfers, all "llc"; a transfer costs @each_ns, and each RMW
 * locked_rmw_ns. */
static void assert_line_counts(json_t *o, const char *op, json_int_t n, int per, double each_ns)
{
	json_int_t moved = per * (n - 1);
	g_assert_cmpint(ival(o, "accesses"), ==, per * n);
	g_assert_cmpint(ival(o, "transfers"), ==, moved);
	static const char *const ops[] = {"load", "store", "rmw"};
	static const char *const hops[] = {"self", "smt", "llc", "socket", "remote"};
	for (size_t i = 0; i < G_N_ELEMENTS(ops); i++) {
		json_t *k = json_object_get(json_object_get(o, "ops"), ops[i]);
		bool this = g_str_equal(ops[i], op);
		g_assert_cmpint(ival(k, "hit"), ==, this ? per : 0);
		g_assert_cmpint(ival(k, "peer"), ==, this ? moved : 0);
		g_assert_cmpint(ival(k, "llc_hit") + ival(k, "dram"), ==, 0);
		for (size_t h = 0; h < G_N_ELEMENTS(hops); h++)
			g_assert_cmpint(ival(json_object_get(k, "hops"), hops[h]), ==,
					this && g_str_equal(hops[h], "llc") ? moved : 0);
	}
	double rmw = g_str_equal(op, "rmw") ? C2C_RMW_NS : 0;
	double time = (double)moved * each_ns + (double)per * n * rmw;
	g_assert_cmpfloat_with_epsilon(json_number_value(json_object_get(o, "time_ns")), time,
				       1e-6);
}

/* Line class @c: its counts, and its one site's, the same. */
static void assert_line_class(json_t *c, const char *name, const char *op, json_int_t n, int per,
			      double each_ns)
{
	g_assert_cmpstr(json_string_value(json_object_get(c, "class")), ==, name);
	assert_line_counts(c, op, n, per, each_ns);
	json_t *sites = json_object_get(c, "sites");
	g_assert_cmpuint(json_array_size(sites), ==, 1);
	json_t *s = json_array_get(sites, 0);
	g_assert_cmpstr(json_string_value(json_object_get(s, "site")), ==,
			"lockbench_critical_section");
	assert_line_counts(s, op, n, per, each_ns);
}

/* The queued lock on 4 cores of one die: each acquisition moves the lock
 * word (a locked RMW) and the 4 data lines (stores) from the previous
 * holder. The counts, by hand, in the replica and the variant; the text
 * report's first row of the cache-line table. */
static void test_cachelines_exact(void)
{
	char *dir = g_dir_make_tmp("memcgsim-c2c-XXXXXX", NULL);
	char *res = g_build_filename(dir, "r.json", NULL);
	char *out, *err;
	g_assert_cmpint(
	    mcs_cli((const char *[]){"run", C2C_SCEN, "--set", "workloads.0.cpus=4", "--variant",
				     "mcs", "--format", "json", "-o", res, NULL},
		    &out, &err),
	    ==, 0);
	g_free(out);
	g_free(err);
	json_t *doc = json_load_file(res, 0, NULL);
	json_t *v = json_array_get(json_object_get(doc, "variants"), 0);
	json_int_t acq = ival(json_array_get(json_object_get(v, "locks"), 0), "acquisitions");
	g_assert_cmpint(acq, >, 1000);
	json_t *rep =
	    json_object_get(json_array_get(json_object_get(v, "per_replica"), 0), "cachelines");
	g_assert_cmpuint(json_array_size(rep), ==, 2); /* the replica's: in creation order */
	assert_line_class(json_array_get(rep, 0), "&lb->lock", "rmw", acq, 1, C2C_LLC_NS);
	assert_line_class(json_array_get(rep, 1), "lockbench data", "store", acq, 4, C2C_LLC_NS);
	json_t *merged = json_object_get(v, "cachelines"); /* the variant's: most transfers first */
	g_assert_cmpuint(json_array_size(merged), ==, 2);
	g_assert_true(json_equal(json_array_get(merged, 0), json_array_get(rep, 1)));
	g_assert_true(json_equal(json_array_get(merged, 1), json_array_get(rep, 0)));
	g_assert_cmpint(mcs_cli((const char *[]){"report", res, NULL}, &out, &err), ==, 0);
	json_int_t moved = 4 * (acq - 1);
	double ms = (double)moved * C2C_LLC_NS / 1e6;
	char *time = g_strdup_printf("%.2f ms", ms);
	char *row = g_strdup_printf("\n%40s %10lld %10lld %10d %10lld %10d %10d %10lld %10d %10d "
				    "%10d %12s\n",
				    "lockbench data:", (long long)(4 * acq), (long long)moved, 0,
				    (long long)moved, 0, 0, (long long)moved, 0, 0, 0, time);
	g_assert_cmpfloat(ms, >=, 1);
	char *table = strstr(out, "Cache lines (perf c2c): ");
	g_assert_nonnull(table);
	char *first = strstr(table, "\n\n"); /* the first row follows the header's dashes */
	g_assert_nonnull(first);
	g_assert_true(g_str_has_prefix(first + 1, row));
	g_free(row);
	g_free(time);
	g_free(out);
	g_free(err);
	/* a hand-edited result: a clear error, exit 2 */
	json_object_set_new(json_array_get(merged, 0), "class", json_integer(5));
	g_assert_cmpint(json_dump_file(doc, res, 0), ==, 0);
	g_assert_cmpint(mcs_cli((const char *[]){"report", res, NULL}, &out, &err), ==, 2);
	char *text = mcs_slurp(res); /* one line: the error is at the 5's column */
	const char *five = strstr(text, "\"class\": 5");
	g_assert_nonnull(five);
	char *want = g_strdup_printf("%s:1:%d: variants.0.cachelines.0.class: expected a string\n",
				     res, (int)(five - text) + (int)strlen("\"class\": ") + 1);
	g_free(text);
	g_assert_cmpstr(err, ==, want);
	g_free(want);
	g_free(out);
	g_free(err);
	json_decref(doc);
	mcs_rm_tree(dir);
	g_free(res);
	g_free(dir);
}

/* Replicas merged: classes matched by name, counts and times summed
 * (integers stay integers, members one replica lacks come from the other),
 * sites summed by name and sorted again, classes by transfers then name;
 * each replica keeps its own. A result without cache lines has none. */
static void test_cachelines_merge(void)
{
	static const char *const reps[] = {
	    "{\"sim_time_ns\": 1, \"cpu_time_ns\": {}, \"metrics\": {}, \"locks\": [], "
	    "\"cachelines\": ["
	    "{\"class\": \"b\", \"accesses\": 3, \"transfers\": 3, \"ops\": {\"store\": {\"peer\": "
	    "3}},"
	    " \"time_ns\": 3.0, \"sites\": [{\"site\": \"h\", \"accesses\": 3, \"transfers\": 3, "
	    "\"time_ns\": 3.0}]},"
	    "{\"class\": \"a\", \"accesses\": 10, \"transfers\": 2,"
	    " \"ops\": {\"load\": {\"hit\": 8, \"peer\": 2, \"hops\": {\"llc\": 2}}}, \"time_ns\": "
	    "1.5,"
	    " \"sites\": [{\"site\": \"f\", \"accesses\": 6, \"transfers\": 2, \"time_ns\": 1.0},"
	    "            {\"site\": \"g\", \"accesses\": 4, \"transfers\": 0, \"time_ns\": "
	    "0.5}]}]}",
	    "{\"sim_time_ns\": 1, \"cpu_time_ns\": {}, \"metrics\": {}, \"locks\": [], "
	    "\"cachelines\": ["
	    "{\"class\": \"c\", \"accesses\": 1, \"transfers\": 0, \"ops\": {}, \"time_ns\": 0.0, "
	    "\"sites\": []},"
	    "{\"class\": \"a\", \"accesses\": 5, \"transfers\": 4,"
	    " \"ops\": {\"load\": {\"hit\": 1, \"peer\": 4, \"hops\": {\"llc\": 1, \"remote\": "
	    "3}}},"
	    " \"time_ns\": 2.25, \"sites\": [{\"site\": \"g\", \"accesses\": 5, \"transfers\": 4, "
	    "\"time_ns\": 2.25}]}]}",
	};
	static const char *const want =
	    "[{\"class\": \"a\", \"accesses\": 15, \"transfers\": 6,"
	    "  \"ops\": {\"load\": {\"hit\": 9, \"peer\": 6, \"hops\": {\"llc\": 3, \"remote\": "
	    "3}}},"
	    "  \"time_ns\": 3.75,"
	    "  \"sites\": [{\"site\": \"g\", \"accesses\": 9, \"transfers\": 4, \"time_ns\": 2.75},"
	    "             {\"site\": \"f\", \"accesses\": 6, \"transfers\": 2, \"time_ns\": 1.0}]},"
	    " {\"class\": \"b\", \"accesses\": 3, \"transfers\": 3, \"ops\": {\"store\": "
	    "{\"peer\": 3}},"
	    "  \"time_ns\": 3.0, \"sites\": [{\"site\": \"h\", \"accesses\": 3, \"transfers\": 3, "
	    "\"time_ns\": 3.0}]},"
	    " {\"class\": \"c\", \"accesses\": 1, \"transfers\": 0, \"ops\": {}, \"time_ns\": 0.0, "
	    "\"sites\": []}]";
	json_t *replicas = json_array();
	for (size_t i = 0; i < G_N_ELEMENTS(reps); i++)
		json_array_append_new(replicas, json_loads(reps[i], 0, NULL));
	json_t *v = result_variant("v", NULL, replicas);
	json_t *expect = json_loads(want, 0, NULL);
	g_assert_nonnull(expect);
	g_assert_true(json_equal(json_object_get(v, "cachelines"), expect));
	for (size_t i = 0; i < G_N_ELEMENTS(reps); i++) {
		json_t *own = json_array_get(json_object_get(v, "per_replica"), i);
		g_assert_true(
		    json_equal(json_object_get(own, "cachelines"),
			       json_object_get(json_array_get(replicas, i), "cachelines")));
	}
	json_decref(v);
	json_decref(expect);
	/* replicas from before the line model: no "cachelines", no report section */
	for (size_t i = 0; i < G_N_ELEMENTS(reps); i++)
		json_object_del(json_array_get(replicas, i), "cachelines");
	v = result_variant("v", NULL, replicas);
	g_assert_null(json_object_get(v, "cachelines"));
	json_decref(v);
	json_decref(replicas);
	char *out, *err;
	g_assert_cmpint(mcs_cli((const char *[]){"report", FIXTURE, NULL}, &out, &err), ==, 0);
	g_assert_null(strstr(out, "Cache lines"));
	g_free(out);
	g_free(err);
}

/* Every span of the trace, by category; checks the trace's shape. */
static GHashTable *trace_categories(const char *path, double from_us, double to_us)
{
	json_error_t je;
	json_t *t = json_load_file(path, 0, &je);
	g_assert_nonnull(t);
	json_t *events = json_object_get(t, "traceEvents");
	g_assert_true(json_is_array(events));
	GHashTable *cats = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	size_t i;
	json_t *e;
	json_array_foreach (events, i, e) {
		const char *ph = json_string_value(json_object_get(e, "ph"));
		if (g_str_equal(ph, "M"))
			continue;
		const char *cat = json_string_value(json_object_get(e, "cat"));
		double ts = json_number_value(json_object_get(e, "ts"));
		double dur = json_number_value(json_object_get(e, "dur"));
		if (g_str_equal(ph, "i")) { /* a lock held for no time: an instant */
			g_assert_cmpstr(cat, ==, "lock");
			g_assert_null(json_object_get(e, "dur"));
			g_assert_cmpstr(json_string_value(json_object_get(e, "s")), ==, "t");
		} else {
			g_assert_cmpstr(ph, ==, "X");
			g_assert_cmpfloat(dur, >, 0);
		}
		g_assert_cmpfloat(ts + dur, >=, from_us); /* overlaps the window */
		g_assert_cmpfloat(ts, <, to_us);
		g_hash_table_insert(
		    cats, g_strdup(cat),
		    GINT_TO_POINTER(GPOINTER_TO_INT(g_hash_table_lookup(cats, cat)) + 1));
	}
	json_decref(t);
	return cats;
}

static void test_trace(void)
{
	char *dir = g_dir_make_tmp("memcgsim-trace-XXXXXX", NULL);
	char *trace = g_build_filename(dir, "t.json", NULL);
	const char *irq = MCS_SOURCE_DIR "/scenarios/irq_latency.json";
	char *plain, *traced, *err;
	g_assert_cmpint(
	    mcs_cli((const char *[]){"run", irq, "--set", "replicas=1", NULL}, &plain, &err), ==,
	    0);
	g_free(err);
	g_assert_cmpint(mcs_cli((const char *[]){"run", irq, "--set", "replicas=1", "--trace",
						 trace, "--trace-window", "1000000:3000000", NULL},
				&traced, &err),
			==, 0);
	g_free(err);
	g_assert_cmpstr(traced, ==, plain); /* tracing changes nothing */
	GHashTable *cats = trace_categories(trace, 1000, 3000);
	static const char *const want[] = {"lock", "wait", "irqoff", "irq"};
	for (size_t i = 0; i < G_N_ELEMENTS(want); i++)
		g_assert_cmpint(GPOINTER_TO_INT(g_hash_table_lookup(cats, want[i])), >, 0);
	g_hash_table_destroy(cats);
	g_free(plain);
	g_free(traced);
	/* holds of no simulated time (issue 23, item 9: 6 of 8,496 acquisitions
	 * showed): each acquisition is in the trace, as an instant */
	g_assert_cmpint(
	    mcs_cli((const char *[]){"run", MCS_SOURCE_DIR "/scenarios/lockbench_scope.json",
				     "--variant", "per-node", "--set", "replicas=1", "--set",
				     "stop.duration_ns=20000", "--set", "workloads.0.hold_ns=0",
				     "--format", "json", "--trace", trace, "--trace-window",
				     "0:1000000", NULL},
		    &traced, &err),
	    ==, 0);
	g_free(err);
	json_t *res = json_loads(traced, 0, NULL);
	json_t *lock = json_array_get(
	    json_object_get(json_array_get(json_object_get(res, "variants"), 0), "locks"), 0);
	json_int_t acquisitions = json_integer_value(json_object_get(lock, "acquisitions"));
	g_assert_cmpint(acquisitions, >, 100);
	g_assert_cmpfloat(
	    json_number_value(json_object_get(json_object_get(lock, "hold_ns"), "max")), ==, 0);
	json_decref(res);
	g_free(traced);
	cats = trace_categories(trace, 0, 1000);
	g_assert_cmpint(GPOINTER_TO_INT(g_hash_table_lookup(cats, "lock")), ==, acquisitions);
	g_hash_table_destroy(cats);
	/* reclaim phases, on a small swap run */
	g_assert_cmpint(
	    mcs_cli((const char *[]){"run",
				     MCS_SOURCE_DIR "/scenarios/seeds/list_lru_swap.json",
				     "--set",
				     "memcg.cgroups.0.count=2",
				     "--set",
				     "workloads.0.count=2",
				     "--set",
				     "workloads.0.size_mb=96",
				     "--set",
				     "replicas=1",
				     "--set",
				     "machine.cpus_per_node=2",
				     "--set",
				     "machine.cores_per_llc=1",
				     "--variant",
				     "v1-after",
				     "--trace",
				     trace,
				     "--trace-window",
				     "0:1000000000000",
				     NULL},
		    &plain, &err),
	    ==, 0);
	cats = trace_categories(trace, 0, 1e9);
	/* the one variant traced is the process the trace names */
	char *text = mcs_slurp(trace);
	g_assert_nonnull(strstr(
	    text,
	    "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"v1-after\"}}"));
	g_assert_null(strstr(text, "\"pid\":2"));
	g_free(text);
	g_assert_cmpint(GPOINTER_TO_INT(g_hash_table_lookup(cats, "reclaim")), >, 0);
	g_hash_table_destroy(cats);
	g_free(plain);
	g_free(err);
	g_assert_cmpint(
	    mcs_cli((const char *[]){"run", irq, "--trace", trace, "--trace-window", "5:1", NULL},
		    &plain, &err),
	    ==, 2);
	g_assert_cmpstr(err, ==,
			"memcgsim: --trace-window: expected FROM:TO in ns with 0 <= FROM < "
			"TO <= 3.6e12, got \"5:1\"\n");
	g_free(plain);
	g_free(err);
	mcs_rm_tree(dir);
	g_free(trace);
	g_free(dir);
}

#define LOCKSTAT MCS_SOURCE_DIR "/tests/fixtures/lockstat/"

static const struct lockstat_class *measured_class(const struct lockstat *ls, const char *name)
{
	for (guint i = 0; i < ls->classes->len; i++) {
		const struct lockstat_class *c = ls->classes->pdata[i];
		if (g_str_equal(c->name, name))
			return c;
	}
	return NULL;
}

/* A lock of a result (the fields the measured report reads). */
static json_t *lock_json(const char *cls, const char *kernel, double acq, double con,
			 double wait_ns)
{
	json_t *l = json_pack(
	    "{s:s, s:s, s:f, s:f, s:i, s:i, s:{s:f, s:f, s:f, s:f}, s:{s:f, s:f, s:f, s:f}}",
	    "class", cls, "type", "spinlock", "acquisitions", acq, "contentions", con,
	    "con_bounces", 0, "acq_bounces", 0, "wait_ns", "min", 1.0, "max", wait_ns, "total",
	    wait_ns * con, "avg", wait_ns, "hold_ns", "min", 1.0, "max", 10.0, "total", 10.0 * acq,
	    "avg", 10.0);
	if (kernel)
		json_object_set_new(l, "lockdep_class", json_string(kernel));
	return l;
}

/* The kernel's names (issue 39, item 1): a hand-written /proc/lock_stat in
 * 6.12's names matches the model's classes by their kernel names, each
 * "#N" left out and the name lock_stat cut at 37 characters by its start;
 * two model classes of one kernel name add up (the swap cache's and zswap's
 * xarrays, 10 + 20 acquisitions); then the classes either side lacks. */
static void test_lockstat_kernel_names(void)
{
	json_t *locks = json_array();
	json_array_append_new(locks, lock_json("&si->lock", "&p->lock", 1000, 100, 50));
	json_array_append_new(locks, lock_json("&nlru->lock (shadow_nodes)", "key", 777, 7, 5));
	json_array_append_new(locks,
			      lock_json("&xa->xa_lock (swapper_spaces)", "&xa->xa_lock", 10, 1, 5));
	json_array_append_new(locks,
			      lock_json("&xa->xa_lock (zswap_trees)", "&xa->xa_lock", 20, 1, 5));
	json_array_append_new(
	    locks, lock_json("per_cpu_ptr(&cgroup_rstat_cpu_lock, cpu)", NULL, 55, 0, 0));
	json_array_append_new(locks, lock_json("&ci->lock", "&cluster_info[i].lock", 66, 0, 0));
	json_array_append_new(locks, lock_json("&pc->lock", "", 88, 0, 0));
	json_t *rep = json_pack("{s:f, s:{}, s:o, s:{s:f}}", "sim_time_ns", 1e9, "cpu_time_ns",
				"locks", locks, "metrics", "elapsed_ns", 1e9);
	json_t *doc =
	    json_pack("{s:s, s:s, s:i, s:[o]}", "format", RESULT_FORMAT, "scenario", "k", "seed", 1,
		      "variants", result_variant("v", NULL, json_pack("[o]", rep)));
	char *dir = g_dir_make_tmp("memcgsim-report-XXXXXX", NULL);
	char *in = g_build_filename(dir, "r.json", NULL);
	g_assert_cmpint(json_dump_file(doc, in, 0), ==, 0);
	json_decref(doc);
	char *out, *err;
	g_assert_cmpint(mcs_cli((const char *[]){"report", in, "--lock-stat",
						 LOCKSTAT "proc_lock_stat_kernel_names.txt", NULL},
				&out, &err),
			==, 0);
	g_assert_nonnull(strstr(out, "5 classes, 4\nof them the model's too"));
	static const char *const rows[] = {
	    "&p->lock +measured +2000 +300 ",
	    " +v +1000 +100 ",
	    "key#3 +measured +5000 +50 ",
	    " +v +777 +7 ",
	    "&xa->xa_lock#2 +measured +4000 +20 ",
	    " +v +30 +2 ",
	    "per_cpu_ptr\\(&cgroup_rstat_c\\.\\.\\. measured +100 +2 ",
	    " +v +55 +0 ",
	    "Measured, not in the model \\(1 classes, most wait first\\): &rq->lock\\.",
	    "In the model, not measured: &ci->lock \\(lock_stat: &cluster_info\\[i\\]\\.lock\\),\n"
	    "  &pc->lock \\(lockdep does not track it\\)\\.",
	};
	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++)
		if (!g_regex_match_simple(rows[i], out, G_REGEX_MULTILINE, 0))
			g_error("no match for /%s/ in:\n%s", rows[i], out);
	g_free(out);
	g_free(err);
	mcs_rm_tree(dir);
	g_free(in);
	g_free(dir);
}

/* A variant of one replica that swapped @pswpout pages and whose shrinkers
 * scanned @scanned objects, in @elapsed_ns. */
static json_t *swapping_variant(const char *name, double pswpout, double scanned, double elapsed_ns)
{
	json_t *rep =
	    json_pack("{s:f, s:{}, s:[], s:{s:f}, s:{s:{s:f, s:f}}}", "sim_time_ns", elapsed_ns,
		      "cpu_time_ns", "locks", "metrics", "elapsed_ns", elapsed_ns, "memcg",
		      "reclaim", "pswpout", pswpout, "slab_scanned", scanned);
	return result_variant(name, NULL, json_pack("[o]", rep));
}

/* The summary of @doc (written to a file in @dir). */
static char *summary_of(json_t *doc, const char *dir)
{
	char *in = g_build_filename(dir, "r.json", NULL);
	g_assert_cmpint(json_dump_file(doc, in, 0), ==, 0);
	char *out, *err;
	int rc = mcs_cli((const char *[]){"report", in, "--summary", NULL}, &out, &err);
	if (rc)
		g_error("report: %d: %s", rc, err);
	g_free(err);
	g_free(in);
	return out;
}

/* A shrunk run (issue 39, item 6): its --set left at 0 what the scenario
 * exercises (b's shrinkers scanned nothing), so the summary says it does not
 * stand for the scenario, before its figures, and marks the published block
 * not comparable; the unmodified run shows the published figures, and says
 * nothing of the kind. */
static void test_shrunk_run(void)
{
	char *dir = g_dir_make_tmp("memcgsim-report-XXXXXX", NULL);
	json_t *doc = json_pack(
	    "{s:s, s:s, s:i, s:{s:s, s:s, s:{s:f, s:f}}, s:[s, s], s:[s], s:[o, o]}", "format",
	    RESULT_FORMAT, "scenario", "s", "seed", 1, "published", "source", "a paper", "metric",
	    "elapsed_ns", "values", "a", 2e9, "b", 1e9, "exercises", "memcg.reclaim.pswpout",
	    "b:memcg.reclaim.slab_scanned", "overrides", "workloads.0.size_mb=96", "variants",
	    swapping_variant("a", 5, 0, 1.0e9), swapping_variant("b", 5, 0, 0.9e9));
	char *out = summary_of(doc, dir);
	g_assert_nonnull(
	    strstr(out, "Not the scenario: this run's --set (workloads.0.size_mb=96) leaves at 0 "
			"what\n  the unmodified scenario exercises (memcg.reclaim.slab_scanned in "
			"b); its\n  figures do not stand for the scenario's.\n\nvariant"));
	g_assert_nonnull(strstr(out, "Published: a paper\nNot comparable: its figures stand for "
				     "the unmodified scenario; this run\n                changed "
				     "it (workloads.0.size_mb=96)\n"));
	g_assert_null(strstr(out, "published    change"));
	g_free(out);
	json_object_del(doc, "overrides");
	out = summary_of(doc, dir);
	g_assert_null(strstr(out, "Not the scenario"));
	g_assert_null(strstr(out, "Not comparable"));
	g_assert_nonnull(strstr(out, "published    change"));
	g_free(out);
	json_decref(doc);
	mcs_rm_tree(dir);
	g_free(dir);
}

/* A variant of two replicas whose x_ns are @x0 and @x1. */
static json_t *two_replicas(const char *name, double x0, double x1)
{
	json_t *reps = json_array();
	for (int i = 0; i < 2; i++)
		json_array_append_new(reps, json_pack("{s:f, s:{}, s:[], s:{s:f}}", "sim_time_ns",
						      1.0, "cpu_time_ns", "locks", "metrics",
						      "x_ns", i ? x1 : x0));
	return result_variant(name, NULL, reps);
}

/* The comparisons a scenario exists for (issue 39, item 5), in the summary
 * and the text report: b against a, 100 - 91 / 101 = +9.90% (a time: less
 * is better); d against c, 100 - 96 / 101 = +4.95%; their difference,
 * +4.95% - +9.90% = -4.95%; one naming a variant that did not run, said. */
static void test_asked_comparisons(void)
{
	json_t *doc =
	    json_pack("{s:s, s:s, s:i, s:[s, s, s], s:[o, o, o, o]}", "format", RESULT_FORMAT,
		      "scenario", "s", "seed", 1, "comparisons", "a..b", "a..b vs c..d", "a..e",
		      "variants", two_replicas("a", 100, 102), two_replicas("b", 90, 92),
		      two_replicas("c", 100, 102), two_replicas("d", 95, 97));
	char *dir = g_dir_make_tmp("memcgsim-report-XXXXXX", NULL);
	char *out = summary_of(doc, dir);
	static const char *const want[] = {
	    "\nAsked: the comparisons the scenario exists for\nb against a on x_ns: +9.90% (",
	    "\nd against c, less b against a, on x_ns: +4.95% less +9.90% = -4.95% (the two",
	    "\nNot run here (their variants did not run: --variant): a..e.\n",
	};
	for (size_t i = 0; i < G_N_ELEMENTS(want); i++)
		if (!strstr(out, want[i]))
			g_error("no \"%s\" in:\n%s", want[i], out);
	g_free(out);
	char *in = g_build_filename(dir, "r.json", NULL);
	char *err;
	g_assert_cmpint(mcs_cli((const char *[]){"report", in, NULL}, &out, &err), ==, 0);
	g_assert_nonnull(strstr(out, "== the comparisons the scenario exists for ==\nb against a "
				     "on x_ns: +9.90% ("));
	g_free(out);
	g_free(err);
	g_free(in);
	json_decref(doc);
	mcs_rm_tree(dir);
	g_free(dir);
}

/* /proc/lock_stat, version 0.4, written by hand after
 * Documentation/locking/lockstat.rst: every class with its 12 numbers
 * (times in us, kept in ns), read/write states and subclasses as named; the
 * report puts the classes the model has beside each variant's. */
static void test_lockstat_proc(void)
{
	GError *err = NULL;
	struct lockstat *ls = lockstat_read(LOCKSTAT "proc_lock_stat.txt", &err);
	g_assert_no_error(err);
	g_assert_cmpint(ls->source, ==, LOCKSTAT_PROC);
	static const char *const names[] = {"&mm->mmap_sem-W", "&mm->mmap_sem-R", "&lb->lock",
					    "&lb->node_lock", "&rq->lock/1"};
	g_assert_cmpuint(ls->classes->len, ==, G_N_ELEMENTS(names));
	for (size_t i = 0; i < G_N_ELEMENTS(names); i++)
		g_assert_cmpstr(((struct lockstat_class *)ls->classes->pdata[i])->name, ==,
				names[i]);
	const struct lockstat_class *c = measured_class(ls, "&lb->lock");
	g_assert_cmpfloat(c->con_bounces, ==, 2800);
	g_assert_cmpfloat(c->contentions, ==, 2819);
	g_assert_cmpfloat_with_epsilon(c->wait_min, 150, 1e-6);
	g_assert_cmpfloat_with_epsilon(c->wait_max, 9620, 1e-6);
	g_assert_cmpfloat_with_epsilon(c->wait_total, 20114000, 1e-3);
	g_assert_cmpfloat(c->acq_bounces, ==, 2822);
	g_assert_cmpfloat(c->acquisitions, ==, 2822);
	g_assert_cmpfloat_with_epsilon(c->hold_min, 90, 1e-6);
	g_assert_cmpfloat_with_epsilon(c->hold_max, 1310, 1e-6);
	g_assert_cmpfloat_with_epsilon(c->hold_total, 301950, 1e-6);
	c = measured_class(ls, "&mm->mmap_sem-W");
	g_assert_cmpfloat_with_epsilon(c->hold_total, 17464026916320.0, 1);
	lockstat_free(ls);
	assert_golden(
	    (const char *[]){"report", FIXTURE, "--lock-stat", LOCKSTAT "proc_lock_stat.txt", NULL},
	    "lockbench.lock_stat.txt");
}

/* perf lock contention's output (tools/perf/Documentation/perf-lock.txt),
 * by caller: offsets dropped, a caller's rows added up, beside the model's
 * contention points of that function; the callers the model has not, listed
 * after. */
static void test_lockstat_perf(void)
{
	GError *err = NULL;
	struct lockstat *ls = lockstat_read(LOCKSTAT "perf_lock_contention.txt", &err);
	g_assert_no_error(err);
	g_assert_cmpint(ls->source, ==, LOCKSTAT_PERF);
	g_assert_cmpuint(ls->classes->len, ==, 3);
	const struct lockstat_class *c = measured_class(ls, "lockbench_critical_section");
	g_assert_cmpfloat(c->contentions, ==, 2819 + 7368);
	g_assert_cmpfloat_with_epsilon(c->wait_total, 17.25e6 + 12.40e6, 1e-3);
	g_assert_cmpfloat_with_epsilon(c->wait_max, 11020, 1e-6);
	g_assert_cmpfloat(c->acquisitions, ==, 0);
	c = measured_class(ls, "khugepaged_scan_mm_slot");
	g_assert_cmpfloat(c->contentions, ==, 1);
	g_assert_cmpfloat_with_epsilon(c->wait_total, 960, 1e-9);
	lockstat_free(ls);
	char *out, *err_text;
	g_assert_cmpint(mcs_cli((const char *[]){"report", FIXTURE, "--lock-stat",
						 LOCKSTAT "perf_lock_contention.txt", NULL},
				&out, &err_text),
			==, 0);
	g_assert_nonnull(strstr(
	    out,
	    "== the machine measured, beside the model ==\n"
	    "perf_lock_contention.txt, perf lock contention: 3 callers, 1 of them the\n"
	    "model's too (most measured wait first; counts: the machine's over its\n"
	    "measurement, each variant's over all its replicas, which --lock-stat-seconds S\n"
	    "turns into rates a second; waits per contention, holds per acquisition)\n\n"
	    "caller                         source          acquisitions  contentions   wait avg"
	    "   wait max   hold avg   hold max\n"
	    "lockbench_critical_section     measured                   -        10187    2.91 us"
	    "   11.02 us          -          -\n"
	    "                               global                     -         2819    5.89 us"
	    "    7.97 us          -          -\n"
	    "                               per-node                   -         7368    1.61 us"
	    "    3.22 us          -          -\n\n"
	    "Measured, not in the model (2 callers, most wait first): __do_page_fault,\n"
	    "  khugepaged_scan_mm_slot.\n\n"
	    "== verdict ==\n"));
	g_free(out);
	g_free(err_text);
}

/* The lockbench fixture's one contention point renamed @site, matched to
 * perf rows @rows (a header prepended): the report's text. */
static char *perf_renamed(const char *site, const char *rows)
{
	char *text = mcs_slurp(FIXTURE);
	g_assert_nonnull(text);
	char **parts = g_strsplit(text, "\"lockbench_critical_section\"", -1);
	char *quoted = g_strdup_printf("\"%s\"", site);
	char *renamed = g_strjoinv(quoted, parts);
	char *dir = g_dir_make_tmp("memcgsim-inlined-XXXXXX", NULL);
	char *result = g_build_filename(dir, "r.json", NULL);
	char *perf = g_build_filename(dir, "perf.txt", NULL);
	char *table = g_strdup_printf(
	    " contended   total wait     max wait     avg wait         type   caller\n\n%s", rows);
	g_assert_true(g_file_set_contents(result, renamed, -1, NULL));
	g_assert_true(g_file_set_contents(perf, table, -1, NULL));
	char *out, *err;
	g_assert_cmpint(
	    mcs_cli((const char *[]){"report", result, "--lock-stat", perf, NULL}, &out, &err), ==,
	    0);
	g_free(err);
	mcs_rm_tree(dir);
	g_free(table);
	g_free(result);
	g_free(perf);
	g_free(dir);
	g_free(renamed);
	g_free(quoted);
	g_strfreev(parts);
	g_free(text);
	return out;
}

/* A site inlined into its only caller matches that caller (6.12's
 * __swap_entries_free as free_swap_and_cache_nr), and its own name; a
 * section whose lock a helper takes matches the helper (folios_put_refs as
 * folio_lruvec_lock_irqsave). */
static void test_lockstat_perf_inlined(void)
{
	char *out = perf_renamed("__swap_entries_free",
				 "     34948     53.63 s       7.11 ms      1.53 ms     spinlock   "
				 "free_swap_and_cache_nr+0x350\n"
				 "        10     10.00 us      1.00 us      1.00 us     spinlock   "
				 "__swap_entries_free+0x10\n");
	g_assert_nonnull(strstr(out, "2 callers, 2 of them the model's too"));
	g_assert_nonnull(strstr(out, "free_swap_and_cache_nr         measured                   -"
				     "        34948    1.53 ms    7.11 ms          -          -\n"
				     "                               global                     -"
				     "         2819    5.89 us"));
	g_assert_nonnull(strstr(out, "__swap_entries_free            measured                   -"
				     "           10    1.00 us    1.00 us          -          -\n"
				     "                               global"));
	g_free(out);
	out = perf_renamed("folios_put_refs",
			   "   9448820     14.96 m      1.54 ms     95.01 us     spinlock   "
			   "folio_lruvec_lock_irqsave+0x64\n");
	g_assert_nonnull(strstr(out, "folio_lruvec_lock_irqsave      measured                   -"
				     "      9448820   95.00 us    1.54 ms          -          -\n"
				     "                               global                     -"
				     "         2819    5.89 us"));
	g_free(out);
}

/* A caller whose function takes two of the model's classes (6.12's
 * get_swap_pages: swap_avail_lock, then si->lock) is one perf row, one
 * call of spin_lock: its figures add up both classes' points there, and
 * the class it names (the fit's) is the one with most of the wait. */
static void test_lockstat_perf_one_class(void)
{
	const char perf[] =
	    " contended   total wait     max wait     avg wait         type   caller\n\n"
	    "     16569     40.05 s       6.45 ms      2.42 ms     spinlock   "
	    "get_swap_pages+0x231\n";
	GError *err = NULL;
	struct lockstat *ls = lockstat_parse("perf.txt", perf, strlen(perf), &err);
	g_assert_no_error(err);
	json_t *v = json_pack(
	    "{s:[{s:s, s:[{s:s, s:i, s:f, s:f}]}, {s:s, s:[{s:s, s:i, s:f, s:f}, {s:s, s:i, s:f, "
	    "s:f}]}]}",
	    "locks", "class", "swap_avail_lock", "contention_points", "site", "get_swap_pages",
	    "count", 36, "wait_total_ns", 16590.0, "wait_max_ns", 620.0, "class", "&si->lock",
	    "contention_points", "site", "get_swap_pages", "count", 2069, "wait_total_ns", 9.9e7,
	    "wait_max_ns", 209100.0, "site", "__swap_entries_free", "count", 50, "wait_total_ns",
	    2.1e6, "wait_max_ns", 80000.0);
	struct report_lock_figures f;
	GPtrArray *classes = g_ptr_array_new();
	report_measured_match(v, ls, ls->classes->pdata[0], &f, classes);
	g_assert_cmpint(f.matched, ==, 2);
	g_assert_cmpfloat(f.contentions, ==, 36 + 2069);
	g_assert_cmpfloat(f.wait_total, ==, 16590.0 + 9.9e7);
	g_assert_cmpfloat(f.wait_max, ==, 209100.0);
	g_assert_cmpuint(classes->len, ==, 1);
	g_assert_cmpstr(classes->pdata[0], ==, "&si->lock");
	g_ptr_array_free(classes, TRUE);
	json_decref(v);
	lockstat_free(ls);
}

/* --lock-stat-seconds: counts become rates a second, the machine's over
 * the given length, the model's over its replicas' simulated time: the
 * fixture's 3 replicas of 200 us make 2822 acquisitions 4703333.3 a second
 * (2822 / 600e-6); given 0.0006 s the machine's are the same. */
static void test_lockstat_seconds(void)
{
	char *out, *err;
	g_assert_cmpint(mcs_cli((const char *[]){"report", FIXTURE, "--lock-stat",
						 LOCKSTAT "proc_lock_stat.txt",
						 "--lock-stat-seconds", "0.0006", NULL},
				&out, &err),
			==, 0);
	g_assert_nonnull(strstr(
	    out,
	    "model's too (most measured wait first; acquisitions and contentions a second,\n"
	    "the machine's over its 0.0006 s, each variant's over its replicas' simulated\n"
	    "time; waits per contention, holds per acquisition)\n\n"
	    "class                          source                acq /s      cont /s   wait avg"
	    "   wait max   hold avg   hold max\n"
	    "&lb->lock                      measured             4703333      4698333    7.14 us"
	    "    9.62 us  107.00 ns    1.31 us\n"
	    "                               global               4703333      4698333    5.89 us"
	    "    7.97 us  102.61 ns  741.64 ns\n"));
	g_free(out);
	g_free(err);
	static const struct {
		const char *with_file, *seconds, *want;
	} bad[] = {
	    {NULL, "2",
	     "memcgsim: --lock-stat-seconds: the length of --lock-stat's measurement; give "
	     "--lock-stat FILE too\n"},
	    {LOCKSTAT "proc_lock_stat.txt", "0",
	     "memcgsim: --lock-stat-seconds: expected the measurement's length in seconds, more "
	     "than 0 and at most 1e9, got \"0\"\n"},
	    {LOCKSTAT "proc_lock_stat.txt", "10s",
	     "memcgsim: --lock-stat-seconds: expected the measurement's length in seconds, more "
	     "than 0 and at most 1e9, got \"10s\"\n"},
	};
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		const char *argv[] = {"report",
				      FIXTURE,
				      "--lock-stat-seconds",
				      bad[i].seconds,
				      bad[i].with_file ? "--lock-stat" : NULL,
				      bad[i].with_file,
				      NULL};
		g_assert_cmpint(mcs_cli(argv, &out, &err), ==, 2);
		g_assert_cmpstr(err, ==, bad[i].want);
		g_assert_cmpstr(out, ==, "");
		g_free(out);
		g_free(err);
	}
}

/* The summary shows the first 3 measured classes by measured wait and
 * says how many it left out: the fixture's result given the file's other
 * classes too (mmap_sem's -R and -W both match "&mm->mmap_sem"), 5 in all:
 * mmap_sem-R (325.6 ms of wait), rq->lock/1 (136.3 ms), lb->lock (20.1
 * ms) shown; mmap_sem-W (16.4 ms) and lb->node_lock (13.5 ms) left out. */
static void test_lockstat_summary_cut(void)
{
	char *dir = g_dir_make_tmp("memcgsim-lockstat-XXXXXX", NULL);
	char *res = g_build_filename(dir, "r.json", NULL);
	json_t *doc = json_load_file(FIXTURE, 0, NULL);
	json_t *locks =
	    json_object_get(json_array_get(json_object_get(doc, "variants"), 0), "locks");
	static const char *const more[] = {"&mm->mmap_sem", "&rq->lock/1", "&lb->node_lock"};
	for (size_t i = 0; i < G_N_ELEMENTS(more); i++)
		json_array_append_new(locks,
				      json_pack("{s:s, s:i, s:i, s:{s:f, s:f}, s:{s:f, s:f}}",
						"class", more[i], "acquisitions", 10, "contentions",
						2, "wait_ns", "total", 300.0, "max", 200.0,
						"hold_ns", "total", 50.0, "max", 9.0));
	g_assert_cmpint(json_dump_file(doc, res, 0), ==, 0);
	json_decref(doc);
	char *out, *err;
	g_assert_cmpint(mcs_cli((const char *[]){"report", res, "--lock-stat",
						 LOCKSTAT "proc_lock_stat.txt", "--summary", NULL},
				&out, &err),
			==, 0);
	g_assert_nonnull(strstr(
	    out, "Measured: proc_lock_stat.txt, /proc/lock_stat (version 0.4): 5 classes, 5 of\n"
		 "          them the model's too, 2 left out here (most measured wait first;\n"));
	g_assert_nonnull(strstr(out, "&mm->mmap_sem-R\n"
				     "  measured                   34316685          100    3.26 ms"
				     "    2.77 us\n"
				     "  global                           10            2  150.00 ns"
				     "    5.00 ns\n"
				     "  per-node               (not in this variant)\n"
				     "&rq->lock/1\n"));
	g_assert_nonnull(strstr(out, "&lb->lock\n"));
	g_assert_null(strstr(out, "&mm->mmap_sem-W\n"));
	g_assert_null(strstr(out, "&lb->node_lock\n"));
	g_free(out);
	g_free(err);
	mcs_rm_tree(dir);
	g_free(res);
	g_free(dir);
}

/* Malformed inputs: the file, the line and what was expected, exit 2. */
#define RANGE "beyond what a machine measures (counts up to 2^53, times up to 1e18 ns)"
static void test_lockstat_errors(void)
{
	static const struct {
		const char *file, *want;
	} cases[] = {
	    {"bad_version.txt", "bad_version.txt:1: lock_stat version 0.3: this reader knows "
				"version 0.4\n"},
	    {"bad_class.txt", "bad_class.txt:6: expected a class (\"NAME:\" and 12 numbers), a "
			      "contention point (\"NAME COUNT [<IP>] SYMBOL\") or a separator\n"},
	    {"bad_perf_unit.txt",
	     "bad_perf_unit.txt:3: expected a row of perf lock contention: a count, three times "
	     "with their units (ns, us, ms, s, m or h), the lock type and the caller or lock\n"},
	    {"neither.txt", "neither.txt:1: expected /proc/lock_stat (its first line \"lock_stat "
			    "version 0.4\") or perf lock contention's output (a header "
			    "\"contended   total wait   max wait   avg wait ...\")\n"},
	};
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		char *path = g_strconcat(LOCKSTAT, cases[i].file, NULL);
		char *want = g_strconcat(LOCKSTAT, cases[i].want, NULL);
		char *out, *err;
		g_assert_cmpint(
		    mcs_cli((const char *[]){"report", FIXTURE, "--lock-stat", path, NULL}, &out,
			    &err),
		    ==, 2);
		g_assert_cmpstr(err, ==, want);
		g_assert_cmpstr(out, ==, "");
		g_free(out);
		g_free(err);
		g_free(want);
		g_free(path);
	}
	GError *e = NULL;
	g_assert_null(lockstat_parse("nul.txt", "lock_stat version 0.4\n\0x", 24, &e));
	g_assert_cmpstr(e->message, ==, "nul.txt:1: a NUL byte: not a text file");
	g_clear_error(&e);
	/* figures that overflow once in ns (1e308 us, 1e308 s), or once summed
	 * over rows: refused, never "inf s" or "-nan s" (issue 37) */
	static const struct {
		const char *text, *want;
	} ranges[] = {
	    {"lock_stat version 0.4\n&lb->lock: 1 1 1 1e308 1 1 1 1 1 1 1 1\n",
	     "r.txt:2: &lb->lock: waittime-max is " RANGE},
	    {"lock_stat version 0.4\n&lb->lock: 1e16 1 1 1 1 1 1 1 1 1 1 1\n",
	     "r.txt:2: &lb->lock: con-bounces is " RANGE},
	    {" contended   total wait     max wait     avg wait         type   caller\n"
	     "      1  1e308 s  1 s  1 s  spinlock  f+0x1d\n",
	     "r.txt:2: f: a figure (or its sum over the rows so far) is " RANGE},
	    {" contended   total wait     max wait     avg wait         type   caller\n"
	     "      5000000000000000  1 s  1 s  1 s  spinlock  f+0x1d\n"
	     "      5000000000000000  1 s  1 s  1 s  spinlock  f+0x2d\n",
	     "r.txt:3: f: a figure (or its sum over the rows so far) is " RANGE},
	    /* a sign, a count in parts: no machine prints them */
	    {"lock_stat version 0.4\n&lb->lock: -0 -0 -0 -0 -0 -0 -0 -0 -0 -0 -0 -0\n",
	     "r.txt:2: expected a class (\"NAME:\" and 12 numbers), a contention point "
	     "(\"NAME COUNT [<IP>] SYMBOL\") or a separator"},
	    {"lock_stat version 0.4\n&lb->lock: 1 1e-320 1 1 1 1 1 1 1 1 1 1\n",
	     "r.txt:2: &lb->lock: contentions is not a whole number (a count)"},
	    {"lock_stat version 0.4\n&lb->lock: 1 1 0.5 1 1 1 1 2.5 1 1 1 1\n",
	     "r.txt:2: &lb->lock: acquisitions is not a whole number (a count)"},
	    {" contended   total wait     max wait     avg wait         type   caller\n"
	     "      -0  1 s  1 s  1 s  spinlock  f+0x1d\n",
	     "r.txt:2: expected a row of perf lock contention: a count, three times with their "
	     "units (ns, us, ms, s, m or h), the lock type and the caller or lock"},
	};
	for (size_t i = 0; i < G_N_ELEMENTS(ranges); i++) {
		g_assert_null(lockstat_parse("r.txt", ranges[i].text, strlen(ranges[i].text), &e));
		g_assert_cmpstr(e->message, ==, ranges[i].want);
		g_clear_error(&e);
	}
	char *out, *err;
	g_assert_cmpint(
	    mcs_cli((const char *[]){"report", FIXTURE, "--format", "json", "--lock-stat",
				     LOCKSTAT "proc_lock_stat.txt", NULL},
		    &out, &err),
	    ==, 2);
	g_assert_cmpstr(
	    err, ==,
	    "memcgsim: --lock-stat: a section of the text, md, html and summary reports, "
	    "not of --format json\n");
	g_free(out);
	g_free(err);
}

/* A figure that is 0 in the baseline and not after has no change in %:
 * the tables say "new", never 0.00%, and when no figure changes by a %, the
 * verdict names the new one (issue 37; before: "( 0.00%)" and "gives the
 * same figures"). */
/* `memcgsim report` of @doc (written to a file of its own, removed after)
 * with @format ("text" for the default): it succeeds, and its standard
 * output is returned (g_free it). @doc is released. */
static char *report_of(json_t *doc, const char *format)
{
	char *dir = g_dir_make_tmp("memcgsim-report-XXXXXX", NULL);
	char *in = g_build_filename(dir, "r.json", NULL);
	g_assert_cmpint(json_dump_file(doc, in, JSON_COMPACT), ==, 0);
	json_decref(doc);
	char *out, *err;
	g_assert_cmpint(
	    mcs_cli((const char *[]){"report", in, "--format", format, NULL}, &out, &err), ==, 0);
	g_free(err);
	g_unlink(in);
	g_rmdir(dir);
	g_free(in);
	g_free(dir);
	return out;
}

static void test_zero_baseline(void)
{
	json_t *doc = json_load_file(FIXTURE, 0, NULL);
	json_t *base = json_array_get(json_object_get(doc, "variants"), 0);
	const char *zeroed[] = {"acquisitions_per_us", "lock_utilisation",
				"wait_per_acquisition_ns"};
	json_t *runs = json_object_get(base, "per_replica"), *r;
	size_t i;
	for (size_t k = 0; k < G_N_ELEMENTS(zeroed); k++) {
		json_object_set_new(json_object_get(base, "metrics"), zeroed[k], json_real(0));
		json_array_foreach (runs, i, r)
			json_object_set_new(json_object_get(r, "metrics"), zeroed[k], json_real(0));
	}
	char *out = report_of(doc, "text");
	g_assert_nonnull(strstr(out, "\nper-node gives acquisitions_per_us a figure where global "
				     "gives 0 (12.29 /us against 0.00 /us): new: the baseline's "
				     "figure is 0 (significant, Welch p 0.00 across 3 seeds).\n"));
	g_assert_null(strstr(out, "gives the same figures"));
	const char *row = strstr(out, "Amean     wait_per_acquisition (ns)");
	g_assert_nonnull(row);
	char *line = g_strndup(row, strcspn(row, "\n"));
	g_assert_true(g_str_has_suffix(line, "*     new*"));
	g_free(line);
	g_free(out);
}

/* Markdown with result strings that try to close the fence: a
 * description with ``` lines and a heading, a lock class with a longer
 * run of backticks. Read as CommonMark reads fences (closed only by a line
 * of at least as many backticks), every line outside a fence is one of the
 * report's own headings or blank (issue 37; before, the description's
 * heading and image were rendered). */
static void test_md_fences(void)
{
	json_t *doc = json_load_file(FIXTURE, 0, NULL);
	json_object_set_new(doc, "description",
			    json_string("ok\n```\n# INJECTED HEADING\n<img src=x.png>\n```"));
	json_t *lock = json_array_get(
	    json_object_get(json_array_get(json_object_get(doc, "variants"), 0), "locks"), 0);
	json_object_set_new(lock, "class", json_string("`````\n# INJECTED TOO\n"));
	char *out = report_of(doc, "md");
	char **lines = g_strsplit(out, "\n", -1);
	size_t open = 0, fences = 0;
	for (char **l = lines; *l; l++) {
		size_t n = strspn(*l, "`");
		if (n >= 3 && !(*l)[n] && (!open || n >= open)) {
			open = open ? 0 : n;
			fences++;
			continue;
		}
		if (!open && **l)
			g_assert_true(g_str_has_prefix(*l, "# memcgsim ") ||
				      g_str_has_prefix(*l, "## "));
	}
	g_assert_cmpuint(open, ==, 0);
	g_assert_cmpuint(fences, >, 2);
	g_assert_nonnull(strstr(out, "# INJECTED HEADING"));
	g_strfreev(lines);
	g_free(out);
}

/* CSV cells a spreadsheet would run as a formula (a scenario or variant
 * name starting with @, =, + or -): a ' before them, quoted; numbers,
 * negative ones too, as they are (issue 37). */
static void test_csv_formulas(void)
{
	json_t *doc = json_load_file(FIXTURE, 0, NULL);
	json_object_set_new(doc, "scenario", json_string("@SUM(1+1)*cmd|x"));
	json_object_set_new(json_array_get(json_object_get(doc, "variants"), 1), "name",
			    json_string("=HYPERLINK(\"x\")"));
	char *out = report_of(doc, "csv");
	char **lines = g_strsplit(out, "\n", -1);
	g_assert_true(g_str_has_prefix(lines[1], "\"'@SUM(1+1)*cmd|x\","));
	bool named = false;
	for (char **l = lines + 1; *l && **l; l++) {
		g_assert_true(g_str_has_prefix(*l, "\"'@SUM(1+1)*cmd|x\","));
		named = named || strstr(*l, ",\"'=HYPERLINK(\"\"x\"\")\",") != NULL;
		g_assert_null(strstr(*l, ",@"));
		g_assert_null(strstr(*l, ",="));
	}
	g_assert_true(named);
	g_strfreev(lines);
	g_free(out);
}

/* --resolution METRIC=PCT names a metric the result has: a typo is an
 * error (exit 2), not a setting silently ignored (issue 37). */
static void test_resolution_typo(void)
{
	char *out, *err;
	g_assert_cmpint(
	    mcs_cli((const char *[]){"report", FIXTURE, "--resolution", "typo_metric=50", NULL},
		    &out, &err),
	    ==, 2);
	g_assert_cmpstr(err, ==,
			"memcgsim: --resolution: typo_metric: no such metric in the result (its "
			"metrics are those the report's tables show)\n");
	g_assert_cmpstr(out, ==, "");
	g_free(out);
	g_free(err);
	g_assert_cmpint(mcs_cli((const char *[]){"report", FIXTURE, "--resolution",
						 "acquisitions_per_us=50", NULL},
				&out, &err),
			==, 0);
	g_free(out);
	g_free(err);
}

/* One variant of one replica whose figure x_ns is @x, described as
 * @higher_is_better (no "metric_info" when @info is false). */
static json_t *described_variant(const char *name, double x, bool info, bool higher_is_better)
{
	json_t *r = json_pack("{s:f, s:{}, s:[], s:{s:f}}", "sim_time_ns", 1.0, "cpu_time_ns",
			      "locks", "metrics", "x_ns", x);
	if (info)
		json_object_set_new(r, "metric_info",
				    json_pack("{s:{s:s, s:b, s:s}}", "x_ns", "unit", "ns",
					      "higher_is_better", higher_is_better, "meaning",
					      "x"));
	json_t *v = result_variant(name, NULL, json_pack("[o]", r));
	return v;
}

/* A result's figures are compared as the result describes them: x_ns from
 * 100 to 200 is 100% worse for a cost and 100% better when the result says
 * more is better; a result without "metric_info" (written before it
 * existed) is read with this build's description: a time, a cost. The
 * variant keeps the description, its replicas' copies do not. */
static void test_metric_info(void)
{
	static const struct {
		bool info, higher;
		double pct;
	} cases[] = {{true, false, -100}, {true, true, 100}, {false, true, -100}};
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		json_t *b = described_variant("b", 100, cases[i].info, cases[i].higher);
		json_t *v = described_variant("v", 200, cases[i].info, cases[i].higher);
		struct change c;
		change_of(b, v, "x_ns", NULL, &c);
		g_assert_cmpfloat(c.pct, ==, cases[i].pct);
		struct run_metric buf;
		g_assert_cmpint(metric_info(b, "x_ns", &buf)->higher_is_better, ==,
				cases[i].info && cases[i].higher);
		g_assert_true(!json_object_get(b, "metric_info") == !cases[i].info);
		g_assert_null(json_object_get(json_array_get(json_object_get(b, "per_replica"), 0),
					      "metric_info"));
		json_decref(b);
		json_decref(v);
	}
}

/* A run describes each figure by the workload that made it: page_faults is
 * swapcycle's (fewer is better) as the first workload's and
 * pagefault_loop's (more is better) as the second's, w1.page_faults; the
 * run's own figures and sys and spin time are there too. */
static void test_metric_info_of_run(void)
{
	struct run_workload w[] = {{workload_type_find("swapcycle"), NULL},
				   {workload_type_find("pagefault_loop"), NULL}};
	struct run_config cfg = {.workloads = w, .nworkloads = 2};
	json_t *metrics = json_pack("{s:f, s:i, s:i, s:i}", "elapsed_ns", 1.0, "page_faults", 1,
				    "w1.page_faults", 1, "w1.unheard_of", 1);
	json_t *info = run_metric_info(&cfg, metrics);
	static const struct {
		const char *key, *unit, *meaning;
		bool higher;
	} want[] = {
	    {"elapsed_ns", "ns", "simulated time from the run's start to its end", false},
	    {"page_faults", "", "page faults taken (each swapped page faulted back)", false},
	    {"w1.page_faults", "", "page faults taken", true},
	    {"w1.unheard_of", "", RUN_METRIC_UNDESCRIBED, false},
	    {"cpu_time_ns.sys", "ns", "kernel CPU time summed over CPUs, not counting spinning",
	     false},
	    {"cpu_time_ns.spin", "ns",
	     "CPU time spent spinning on locks and contended lines, summed over CPUs", false},
	};
	g_assert_cmpint(json_object_size(info), ==, G_N_ELEMENTS(want));
	for (size_t i = 0; i < G_N_ELEMENTS(want); i++) {
		json_t *d = json_object_get(info, want[i].key);
		g_assert_nonnull(d);
		g_assert_cmpstr(json_string_value(json_object_get(d, "unit")), ==, want[i].unit);
		g_assert_cmpstr(json_string_value(json_object_get(d, "meaning")), ==,
				want[i].meaning);
		g_assert_cmpint(json_is_true(json_object_get(d, "higher_is_better")), ==,
				want[i].higher);
	}
	json_decref(info);
	json_decref(metrics);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/report/golden", test_golden);
	g_test_add_func("/report/run-matches-report", test_run_matches_report);
	g_test_add_func("/report/html/hostile-names", test_html_hostile);
	g_test_add_func("/report/html/order", test_html_order);
	g_test_add_func("/report/sort-and-errors", test_sort_and_errors);
	g_test_add_func("/report/hostile-result", test_hostile_result);
	g_test_add_func("/report/metric-info", test_metric_info);
	g_test_add_func("/lockstat/kernel-names", test_lockstat_kernel_names);
	g_test_add_func("/report/shrunk-run", test_shrunk_run);
	g_test_add_func("/report/asked-comparisons", test_asked_comparisons);
	g_test_add_func("/report/metric-info/run", test_metric_info_of_run);
	g_test_add_func("/report/zero-baseline", test_zero_baseline);
	g_test_add_func("/report/md/fences", test_md_fences);
	g_test_add_func("/report/csv/formulas", test_csv_formulas);
	g_test_add_func("/report/resolution-typo", test_resolution_typo);
	g_test_add_func("/report/text-escapes", test_text_escapes);
	g_test_add_func("/report/sweep/golden", test_sweep_golden);
	g_test_add_func("/report/cachelines/exact", test_cachelines_exact);
	g_test_add_func("/report/cachelines/merge", test_cachelines_merge);
	g_test_add_func("/trace/chrome", test_trace);
	g_test_add_func("/lockstat/proc", test_lockstat_proc);
	g_test_add_func("/lockstat/perf", test_lockstat_perf);
	g_test_add_func("/lockstat/perf/inlined", test_lockstat_perf_inlined);
	g_test_add_func("/lockstat/perf/one-class", test_lockstat_perf_one_class);
	g_test_add_func("/lockstat/seconds", test_lockstat_seconds);
	g_test_add_func("/lockstat/summary-cut", test_lockstat_summary_cut);
	g_test_add_func("/lockstat/errors", test_lockstat_errors);
	return g_test_run();
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* What the text report says and leaves out: the verdict line against
 * hand-built results, and sections with nothing in them left out. */
#include "change.h"
#include "report.h"
#include "report_sections.h"
#include "report_util.h"
#include "test_util.h"
#include "version.h"
#include <jansson.h>
#include <string.h>

/* A variant whose replicas give @x (3 values) for x_ns, and 100 for
 * elapsed_ns in each. */
static json_t *variant(const char *name, double x0, double x1, double x2)
{
	json_t *reps = json_array();
	double xs[3] = {x0, x1, x2};
	for (int i = 0; i < 3; i++)
		json_array_append_new(reps, json_pack("{s:{s:f, s:f}}", "metrics", "elapsed_ns",
						      100.0, "x_ns", xs[i]));
	return json_pack("{s:s, s:i, s:{s:f, s:f}, s:o}", "name", name, "replicas", 3, "metrics",
			 "elapsed_ns", 100.0, "x_ns", xs[1], "per_replica", reps);
}

/* The verdict line with --resolution @r (NULL: none). */
static char *verdict_at(json_t *variants, const struct change_resolution *r)
{
	GString *out = g_string_new(NULL);
	report_verdict(variants, &(struct report_opts){.resolution = r}, out);
	json_decref(variants);
	return g_string_free(out, FALSE);
}

static char *verdict(json_t *variants)
{
	return verdict_at(variants, NULL);
}

/* elapsed_ns is the same everywhere: x_ns is the main figure. Means 50, 40
 * and 45 ns: b is 20% better (Welch's t 12.2 on 4 degrees of freedom, p <
 * 0.001). */
static void test_verdict(void)
{
	char *v = verdict(json_pack("[o, o, o]", variant("a", 49, 50, 51), variant("b", 39, 40, 41),
				    variant("c", 44, 45, 46)));
	g_assert_cmpstr(v, ==,
			"b beats a by 20.00% on x_ns (40.00 ns against 50.00 ns): significant "
			"(across 3 seeds).\n");
	g_free(v);
	/* 60 and 55 against 50: the baseline stays best, c is 10% worse */
	v = verdict(json_pack("[o, o, o]", variant("a", 49, 50, 51), variant("b", 59, 60, 61),
			      variant("c", 54, 55, 56)));
	g_assert_cmpstr(v, ==,
			"a stays best on x_ns; the closest, c, is 10.00% worse (55.00 ns against "
			"50.00 ns): significant (across 3 seeds).\n");
	g_free(v);
	/* 50.5 against 50, spread over +-10: p far above 0.05 */
	v = verdict(json_pack("[o, o]", variant("a", 40, 50, 60), variant("b", 40.5, 50.5, 60.5)));
	g_assert_cmpstr(v, ==,
			"b is 1.00% worse than a on x_ns (50.50 ns against 50.00 ns): not "
			"significant (Welch p 0.95 across 3 seeds).\n");
	g_free(v);
	/* 0.5% better, the seeds in lockstep (Welch p 0.00): below the model's
	 * 1% resolution, so no material difference, not significant */
	v = verdict(
	    json_pack("[o, o]", variant("a", 99.9, 100, 100.1), variant("b", 99.4, 99.5, 99.6)));
	g_assert_cmpstr(v, ==,
			"b beats a by 0.50% on x_ns (99.50 ns against 100.00 ns): no material "
			"difference (0.50% < resolution 1.00%, the model's stated minimum).\n");
	g_free(v);
	/* the reader's resolution (--resolution), for every metric or one; what
	 * set it is named */
	GError *err = NULL;
	struct change_resolution *res = change_resolution_new();
	g_assert_true(change_resolution_set(res, "0.25", &err));
	v = verdict_at(
	    json_pack("[o, o]", variant("a", 99.9, 100, 100.1), variant("b", 99.4, 99.5, 99.6)),
	    res);
	g_assert_cmpstr(v, ==,
			"b beats a by 0.50% on x_ns (99.50 ns against 100.00 ns): significant "
			"(across 3 seeds).\n");
	g_free(v);
	g_assert_true(change_resolution_set(res, "x_ns=0.6", &err));
	g_assert_true(change_resolution_set(res, "y_ns=50", &err)); /* another metric's */
	v = verdict_at(
	    json_pack("[o, o]", variant("a", 99.9, 100, 100.1), variant("b", 99.4, 99.5, 99.6)),
	    res);
	g_assert_cmpstr(v, ==,
			"b beats a by 0.50% on x_ns (99.50 ns against 100.00 ns): no material "
			"difference (0.50% < resolution 0.60%, --resolution x_ns=0.6).\n");
	g_free(v);
	v = verdict_at(json_pack("[o, o, o]", variant("a", 49, 50, 51), variant("b", 39, 40, 41),
				 variant("c", 44, 45, 46)),
		       res);
	g_assert_cmpstr(v, ==,
			"b beats a by 20.00% on x_ns (40.00 ns against 50.00 ns): significant "
			"(across 3 seeds).\n");
	g_free(v);
	g_assert_true(change_resolution_set(res, "30", &err)); /* x_ns keeps its own */
	v = verdict_at(json_pack("[o, o, o]", variant("a", 49, 50, 51), variant("b", 39, 40, 41),
				 variant("c", 44, 45, 46)),
		       res);
	g_assert_cmpstr(v, ==,
			"b beats a by 20.00% on x_ns (40.00 ns against 50.00 ns): significant "
			"(across 3 seeds).\n");
	g_free(v);
	change_resolution_free(res);
	res = change_resolution_new();
	g_assert_true(change_resolution_set(res, "30", &err));
	v = verdict_at(json_pack("[o, o, o]", variant("a", 49, 50, 51), variant("b", 39, 40, 41),
				 variant("c", 44, 45, 46)),
		       res);
	g_assert_cmpstr(v, ==,
			"b beats a by 20.00% on x_ns (40.00 ns against 50.00 ns): no material "
			"difference (20.00% < resolution 30.00%, --resolution 30).\n");
	g_free(v);
	change_resolution_free(res);
	res = change_resolution_new();
	static const char *const bad[] = {"",	   "x",	 "-1",	  "100.5", "nan",
					  "x_ns=", "=5", "a b=1", "1%"};
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_assert_false(change_resolution_set(res, bad[i], &err));
		char *want = g_strdup_printf("--resolution: expected PCT or METRIC=PCT, PCT from 0 "
					     "to 100, got \"%s\"",
					     bad[i]);
		g_assert_cmpstr(err->message, ==, want);
		g_free(want);
		g_clear_error(&err);
	}
	v = verdict(json_pack("[o, o]", variant("a", 1, 2, 3), variant("b", 1, 2, 3)));
	g_assert_cmpstr(v, ==, "b gives the same figures as a.\n");
	g_free(v);
	v = verdict(json_pack("[o, o, o]", variant("a", 1, 2, 3), variant("b", 1, 2, 3),
			      variant("c", 1, 2, 3)));
	g_assert_cmpstr(v, ==, "No variant changes any figure of a.\n");
	g_free(v);
	change_resolution_free(res);
}

/* Grace periods never waited for, an interrupt source that never waited,
 * a page_cgroup without charge moves: none of it is printed. */
static void test_leaves_out_empty(void)
{
	json_t *v =
	    json_pack("{s:{s:{s:i, s:f, s:f, s:f}, s:{s:i, s:f, s:f, s:f}},"
		      " s:{s:[{s:s, s:i, s:f, s:f, s:f}, {s:s, s:i, s:f, s:f, s:f}], s:[]},"
		      " s:[]}",
		      "rcu", "grace_periods", "count", 0, "mean_ns", 0.0, "p99_ns", 0.0, "max_ns",
		      0.0, "expedited", "count", 0, "mean_ns", 0.0, "p99_ns", 0.0, "max_ns", 0.0,
		      "interrupts", "sources", "name", "tick", "count", 10, "mean_ns", 0.0,
		      "p99_ns", 0.0, "max_ns", 0.0, "name", "disk", "count", 4, "mean_ns", 250.0,
		      "p99_ns", 500.0, "max_ns", 500.0, "cpus", "locks");
	GString *out = g_string_new(NULL);
	report_rcu(v, out);
	g_assert_cmpstr(out->str, ==, "");
	report_irq(v, out);
	g_assert_cmpstr(out->str, ==,
			"Interrupt latency (arrival to handler)\n"
			"  source                count         mean          p99          max\n"
			"  disk                      4    250.00 ns    500.00 ns    500.00 ns\n\n");
	g_string_truncate(out, 0);
	report_lock_stat(json_object_get(v, "locks"), out);
	report_perf_lock(json_object_get(v, "locks"), &(struct report_opts){.sort = "wait_total"},
			 out);
	g_assert_cmpstr(out->str, ==, "");
	/* a titled section with an empty body is not rendered */
	GPtrArray *sections = report_sections_new();
	report_section_add(sections, "head");
	report_section_add(sections, "nothing");
	g_string_append(report_section_add(sections, "something")->body, "x\n");
	report_format_text(sections, NULL, out);
	g_assert_cmpstr(out->str, ==, "head\n\n== something ==\nx\n");
	g_ptr_array_free(sections, TRUE);
	g_string_truncate(out, 0);
	json_decref(v);
	v = json_pack("{s:{s:{s:s, s:i, s:i, s:i, s:i}}}", "memcg", "page_cgroup", "locking", "rcu",
		      "updates", 5, "locked", 0, "lockless", 5, "moves", 0);
	report_memcg(v, out);
	g_assert_cmpstr(
	    out->str, ==,
	    "page_cgroup (rcu): 5 statistics updates, 0 under the lock, 5 lockless\n\n");
	g_string_free(out, TRUE);
	json_decref(v);
}

#define FIXTURE MCS_SOURCE_DIR "/tests/golden/lockbench.result.json"

/* The fixture with its "global" variant left out and every
 * acquisitions_per_us of "per-node" 1.1 times as large, in @dir. */
static char *faster_copy(const char *dir)
{
	json_t *doc = json_load_file(FIXTURE, 0, NULL);
	json_t *variants = json_object_get(doc, "variants");
	json_array_remove(variants, 0);
	size_t i;
	json_t *r;
	json_t *v = json_array_get(variants, 0);
	json_array_foreach (json_object_get(v, "per_replica"), i, r) {
		json_t *m = json_object_get(r, "metrics");
		double x = json_number_value(json_object_get(m, "acquisitions_per_us"));
		json_object_set_new(m, "acquisitions_per_us", json_real(x * 1.1));
	}
	char *path = g_build_filename(dir, "faster.json", NULL);
	g_assert_cmpint(json_dump_file(doc, path, 0), ==, 0);
	json_decref(doc);
	return path;
}

/* A replica's details of every JSON kind, as JSON; a bare string was printed
 * as "(null)" before json_dumps was given JSON_ENCODE_ANY. */
static void test_details(void)
{
	json_t *v = json_pack("{s:[{s:{s:s, s:[i, i], s:{s:b}}}]}", "per_replica", "details",
			      "mode", "batched", "hist", 1, 2, "flags", "on", true);
	GString *out = g_string_new(NULL);
	report_details(v, out);
	g_assert_cmpstr(out->str, ==,
			"mode (first replica): \"batched\"\n"
			"hist (first replica): [1,2]\n"
			"flags (first replica): {\"on\":true}\n");
	g_string_free(out, TRUE);
	json_decref(v);
}

static void test_compare(void)
{
	char *dir = g_dir_make_tmp("memcgsim-compare-XXXXXX", NULL);
	char *faster = faster_copy(dir), *out, *err;
	g_assert_cmpint(mcs_cli((const char *[]){"compare", FIXTURE, faster, NULL}, &out, &err), ==,
			0);
	g_assert_true(g_str_has_prefix(
	    out, "memcgsim " MEMCGSIM_VERSION ": compare "
		 "lockbench.result (scenario \"lockbench-lock-scope\", "
		 "seed 1) with faster (scenario \"lockbench-lock-scope\", "
		 "seed 1)\n\n== what the two results were made of ==\n"
		 "the same: model, command, scenario, machine, seed, description\n\n"
		 "== variant per-node: lockbench.result against faster ==\n"));
	g_assert_nonnull(strstr(out, "\n== variants in one file only ==\nonly in "
				     "lockbench.result: global\n"));
	g_assert_true(g_str_has_suffix(
	    out, "\n== verdict ==\nper-node: faster beats "
		 "lockbench.result by 10.00% on acquisitions_per_us "
		 "(13.52 /us against 12.29 /us): significant (across 3 seeds).\n"));
	g_assert_cmpstr(err, ==, "");
	g_free(out);
	g_free(err);
	/* two models: compared, with a note on standard error */
	json_t *doc = json_load_file(faster, 0, NULL);
	json_object_set_new(doc, "model", json_string("model-b"));
	g_assert_cmpint(json_dump_file(doc, faster, 0), ==, 0);
	json_decref(doc);
	g_assert_cmpint(mcs_cli((const char *[]){"compare", FIXTURE, faster, NULL}, &out, &err), ==,
			0);
	g_assert_cmpstr(err, ==,
			"memcgsim: note: lockbench.result was made by model (not "
			"recorded), faster by model model-b; the differences are also the "
			"models'\n");
	g_free(out);
	g_free(err);
	/* the same file twice */
	g_assert_cmpint(mcs_cli((const char *[]){"compare", FIXTURE, FIXTURE, NULL}, &out, &err),
			==, 0);
	g_assert_true(g_str_has_suffix(out,
				       "global: " FIXTURE " (2) gives the same figures as " FIXTURE
				       " (1).\nper-node: " FIXTURE " (2) gives the same "
				       "figures as " FIXTURE " (1).\n"));
	g_free(out);
	g_free(err);
	struct {
		const char *args[6];
		const char *err;
	} bad[] = {
	    {{"compare", FIXTURE, NULL}, "memcgsim: expected two result files A.json B.json\n"},
	    {{"compare", FIXTURE, FIXTURE, "--format", "json", NULL},
	     "memcgsim: --format: expected text, md or html, got \"json\"\n"},
	    {{"compare", FIXTURE, MCS_SOURCE_DIR "/tests/golden/lockbench.txt", NULL},
	     MCS_SOURCE_DIR "/tests/golden/lockbench.txt:1:8: (root): '[' or '{' expected near "
			    "'memcgsim'\n"},
	};
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_assert_cmpint(mcs_cli(bad[i].args, &out, &err), ==, 2);
		g_assert_cmpstr(err, ==, bad[i].err);
		g_assert_cmpstr(out, ==, "");
		g_free(out);
		g_free(err);
	}
	mcs_rm_tree(dir);
	g_free(dir);
	g_free(faster);
}

/* Where a swapped page's time goes, by hand: 2 replicas of 500 pages (the
 * mean), 30 ms of sys a replica and 6 ms unexplained; over both, a lock taken 2000 times, held
 * 200 us, waited 50 us (40 contended in list_lru_del), hand-overs 10 us; a
 * line site that moved 500 lines in 40 us. A variant without swap-out gets
 * nothing. */
static void test_per_page(void)
{
	json_t *v = json_loads(
	    "{\"replicas\": 2, \"memcg\": {\"reclaim\": {\"pswpout\": 500}},"
	    " \"cpu_time_ns\": {\"sys\": 1.5e7, \"spin\": 2.5e4, \"user\": 5e5,"
	    "   \"unexplained\": 3e6},"
	    " \"locks\": [{\"class\": \"&nlru->lock\", \"acquisitions\": 2000,"
	    "   \"hold_ns\": {\"total\": 2e5}, \"wait_ns\": {\"total\": 5e4},"
	    "   \"handover_ns\": {\"total\": 1e4},"
	    "   \"contention_points\": [{\"site\": \"list_lru_del\", \"count\": 40}]}],"
	    " \"cachelines\": [{\"class\": \"zram->stats\", \"sites\":"
	    "   [{\"site\": \"zram_write_page\", \"transfers\": 500, \"time_ns\": 4e4}]}]}",
	    0, NULL);
	GString *out = g_string_new(NULL);
	report_per_page(v, out);
	g_assert_cmpstr(
	    out->str, ==,
	    "\nWhere a swapped page's time goes (per page swapped out, 500 pages): "
	    "sys 30.00 us, spin 0.05 us, user 1.00 us, unexplained 6.00 us\n"
	    "lock class                          acq/page   hold ns   wait ns  handover  "
	    "waited in (contended/page)\n"
	    "&nlru->lock                            2.000     200.0      50.0      10.0  "
	    "list_lru_del 0.040\n"
	    "\nkernel function (line site)    line class                              "
	    " xfers/page   ns/page\n"
	    "zram_write_page                zram->stats                                   "
	    "0.500      40.0\n");
	g_string_truncate(out, 0);
	json_object_del(v, "memcg");
	report_per_page(v, out);
	g_assert_cmpstr(out->str, ==, "");
	g_string_free(out, TRUE);
	json_decref(v);
}

/* The tasks the scheduler moved, summed over the replicas: 3 + 4 in two;
 * none, a negative count or a string (a damaged result): no line. */
static void test_migrations(void)
{
	static const struct {
		const char *replicas, *line;
	} cases[] = {
	    {"[{\"cpus\": 2, \"migrations\": 3}, {\"cpus\": 2, \"migrations\": 4}]",
	     "Tasks moved between CPUs: 7 in 2 replicas\n"},
	    {"[{\"cpus\": 2}]", NULL},
	    {"[{\"cpus\": 2, \"migrations\": -5}]", NULL},
	    {"[{\"cpus\": 2, \"migrations\": \"9\"}]", NULL},
	};
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		char *text =
		    g_strdup_printf("{\"replicas\": 1, \"sim_time_ns\": 1e6, \"metrics\": {},"
				    " \"per_replica\": %s}",
				    cases[i].replicas);
		json_t *v = json_loads(text, 0, NULL);
		g_assert_nonnull(v);
		GString *out = g_string_new(NULL);
		report_summary(v, out);
		if (cases[i].line)
			g_assert_nonnull(strstr(out->str, cases[i].line));
		else
			g_assert_null(strstr(out->str, "Tasks moved"));
		g_string_free(out, TRUE);
		json_decref(v);
		g_free(text);
	}
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/report/verdict", test_verdict);
	g_test_add_func("/report/leaves-out-empty", test_leaves_out_empty);
	g_test_add_func("/compare/two-results", test_compare);
	g_test_add_func("/report/details", test_details);
	g_test_add_func("/report/per-page", test_per_page);
	g_test_add_func("/report/migrations", test_migrations);
	return g_test_run();
}

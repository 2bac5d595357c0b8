// SPDX-License-Identifier: GPL-2.0-or-later
/* Uncertainty bands (issue 10, item 9): cost draws by hand from the random
 * stream, the same quantiles for variants of different presets, the draws'
 * runs in results and sweeps, byte-identical output, --draw-costs and the
 * scenario's draw_costs; the changes' intervals, "within model
 * uncertainty" and the significance marker on results made by hand; bad
 * input. */
#include "change.h"
#include "result.h"
#include "runner.h"
#include "scenario.h"
#include "sim_rng.h"
#include "test_util.h"
#include <jansson.h>
#include <math.h>
#include <string.h>

/* Two presets: the variants' costs have different ranges. */
static const char *const SCENARIO =
    "{\"name\": \"draws\", \"seed\": 3, \"replicas\": 2,\n"
    " \"machine\": {\"preset\": \"westmere-2s\"},\n"
    " \"workloads\": [{\"type\": \"lockbench\", \"cpus\": 4, \"think_ns\": 200, "
    "\"hold_ns\": 100}],\n"
    " \"stop\": {\"type\": \"duration\", \"duration_ns\": 50000},\n"
    " \"variants\": [{\"name\": \"westmere\"},\n"
    "              {\"name\": \"milan\", \"set\": {\"machine.preset\": \"milan-2s\"}}]}\n";

static struct scenario *load(const char *const *sets)
{
	GError *err = NULL;
	struct scenario *sc = scenario_load("s.json", SCENARIO, strlen(SCENARIO), sets, &err);
	g_assert_no_error(err);
	return sc;
}

static const struct run_config *config_of(const struct scenario *sc, const char *variant)
{
	return scenario_variant_find(sc, variant)->config;
}

/* u of draw @d for cost @id, from the stream as docs/hardware.md names it
 * (not through cost_draw_quantile: the test derives it on its own). */
static double stream_u(uint64_t seed, int d, enum cost_id id)
{
	char name[128];
	g_snprintf(name, sizeof(name), "cost_draw.%d.%s", d, cost_table[id].key);
	struct sim_rng *rng = sim_rng_new(seed, name);
	double u = sim_rng_uniform01(rng);
	sim_rng_free(rng);
	return u;
}

/* Each cost with a range at lo + u (hi - lo) for the u the stream gives, the
 * others as they were; by hand for line_llc_ns at seed 3, draw 0: u =
 * 0.15718316892161965, westmere's range 31.2-38.2 ns gives 31.2 + 1.10028
 * = 32.300 ns, milan's 20.0-32.8 ns gives 20.0 + 2.01194 = 22.012 ns. */
static void test_draw_by_hand(void)
{
	struct scenario *sc = load(NULL);
	g_assert_cmpfloat_with_epsilon(stream_u(3, 0, COST_LINE_LLC), 0.15718316892161965, 1e-15);
	static const struct {
		const char *variant;
		sim_time_t lo, hi, drawn0;
	} want[] = {{"westmere", 31200, 38200, 32300}, {"milan", 20000, 32800, 22012}};
	for (size_t w = 0; w < G_N_ELEMENTS(want); w++) {
		const struct run_config *cfg = config_of(sc, want[w].variant);
		g_assert_cmpint(cfg->cost_range[COST_LINE_LLC].lo, ==, want[w].lo);
		g_assert_cmpint(cfg->cost_range[COST_LINE_LLC].hi, ==, want[w].hi);
		for (int d = 0; d < 4; d++) {
			struct sim_machine m = cfg->machine;
			cost_draw(&m, cfg->cost_range, 3, d);
			if (d == 0)
				g_assert_cmpint(m.cost[COST_LINE_LLC], ==, want[w].drawn0);
			int ranged = 0;
			for (int i = 0; i < COST_N; i++) {
				const struct cost_range *r = &cfg->cost_range[i];
				double u = stream_u(3, d, (enum cost_id)i);
				sim_time_t x = r->hi > r->lo
						   ? r->lo + llround(u * (double)(r->hi - r->lo))
						   : cfg->machine.cost[i];
				ranged += r->hi > r->lo;
				g_assert_cmpint(m.cost[i], ==, x);
				g_assert_cmpint(m.cost[i], >=, r->hi > r->lo ? r->lo : 0);
				g_assert_cmpint(m.cost[i], <=, r->hi > r->lo ? r->hi : m.cost[i]);
			}
			g_assert_cmpint(ranged, ==, 12); /* every preset cost: none set by hand */
			g_assert_cmpint(m.context_switch, ==, m.cost[COST_CONTEXT_SWITCH]);
		}
	}
	/* a cost the scenario sets has no range and is never drawn */
	const char *sets[] = {"machine.costs.line_llc_ns=40", NULL};
	struct scenario *own = load(sets);
	const struct run_config *cfg = config_of(own, "westmere");
	struct sim_machine m = cfg->machine;
	cost_draw(&m, cfg->cost_range, 3, 0);
	g_assert_cmpint(m.cost[COST_LINE_LLC], ==, 40000);
	scenario_free(own);
	scenario_free(sc);
}

static double num_at(json_t *o, const char *key)
{
	g_assert_true(json_is_number(json_object_get(o, key)));
	return json_number_value(json_object_get(o, key));
}

/* Variant @v's runs in the result: its replicas, then its draws with the
 * draws' seeds and the costs @cfg draws; the aggregates are the replicas'. */
static void assert_variant_runs(json_t *v, const struct run_config *cfg)
{
	json_t *per = json_object_get(v, "per_replica"), *draws = json_object_get(v, "draws");
	g_assert_cmpuint(json_array_size(per), ==, 2);
	g_assert_cmpuint(json_array_size(draws), ==, 3);
	for (int r = 0; r < 2; r++) {
		json_t *rep = json_array_get(per, (size_t)r);
		g_assert_cmpint(json_integer_value(json_object_get(rep, "seed")), ==,
				(json_int_t)scenario_replica_seed(3, r));
		g_assert_null(json_object_get(rep, "cost_draw"));
	}
	for (int d = 0; d < 3; d++) {
		json_t *run = json_array_get(draws, (size_t)d);
		g_assert_cmpint(json_integer_value(json_object_get(run, "seed")), ==,
				(json_int_t)scenario_draw_seed(3, d));
		g_assert_cmpint(json_integer_value(json_object_get(run, "draw")), ==, d);
		json_t *costs = json_object_get(run, "cost_draw");
		g_assert_cmpuint(json_object_size(costs), ==, 12);
		struct sim_machine m = cfg->machine;
		cost_draw(&m, cfg->cost_range, 3, d);
		g_assert_cmpfloat(num_at(costs, "line_llc_ns"), ==,
				  sim_to_ns(m.cost[COST_LINE_LLC]));
		g_assert_cmpfloat(num_at(costs, "dram_local_ns"), ==,
				  sim_to_ns(m.cost[COST_DRAM_LOCAL]));
	}
	json_t *metrics = json_object_get(v, "metrics");
	double mean =
	    (num_at(json_object_get(json_array_get(per, 0), "metrics"), "acquisitions_per_us") +
	     num_at(json_object_get(json_array_get(per, 1), "metrics"), "acquisitions_per_us")) /
	    2;
	g_assert_cmpfloat_with_epsilon(num_at(metrics, "acquisitions_per_us"), mean, 1e-12);
}

/* A run with draws: each variant's replicas and draws apart, draw d with
 * the same seed and the same cost quantiles in both presets. */
static void test_run_paired(void)
{
	const char *sets[] = {"draw_costs=3", NULL};
	struct scenario *sc = load(sets);
	GError *err = NULL;
	bool violation = true;
	json_t *doc = runner_run(sc, 2, NULL, NULL, &violation, &err);
	g_assert_no_error(err);
	g_assert_false(violation);
	json_t *vs = json_object_get(doc, "variants");
	assert_variant_runs(json_array_get(vs, 0), config_of(sc, "westmere"));
	assert_variant_runs(json_array_get(vs, 1), config_of(sc, "milan"));
	for (int d = 0; d < 3; d++) { /* the same quantile of line_llc_ns in both */
		double x[2];
		for (int v = 0; v < 2; v++) {
			json_t *run = json_array_get(
			    json_object_get(json_array_get(vs, (size_t)v), "draws"), (size_t)d);
			const struct cost_range *r =
			    &config_of(sc, v ? "milan" : "westmere")->cost_range[COST_LINE_LLC];
			x[v] =
			    (sim_from_ns(num_at(json_object_get(run, "cost_draw"), "line_llc_ns")) -
			     r->lo) /
			    (double)(r->hi - r->lo);
		}
		g_assert_cmpfloat_with_epsilon(x[0], x[1], 1e-3); /* a picosecond of either range */
		g_assert_cmpfloat_with_epsilon(x[0], stream_u(3, d, COST_LINE_LLC), 1e-3);
	}
	json_decref(doc);
	scenario_free(sc);
}

/* A scenario file in a new directory; g_free the path, mcs_rm_tree the
 * directory. */
static char *scenario_file(char **dir, const char *text)
{
	*dir = g_dir_make_tmp("memcgsim-unc-XXXXXX", NULL);
	char *path = g_build_filename(*dir, "s.json", NULL);
	g_assert_true(g_file_set_contents(path, text, -1, NULL));
	return path;
}

static char *run_json(const char *const *args)
{
	char *out, *err;
	g_assert_cmpint(mcs_cli(args, &out, &err), ==, 0);
	g_free(err);
	return out;
}

/* @json without its "command" (which names the file and the options that
 * gave it), the rest byte for byte as memcgsim writes it. */
static char *results_of(char *json)
{
	json_t *doc = json_loads(json, 0, NULL);
	g_assert_nonnull(json_object_get(doc, "command"));
	json_object_del(doc, "command");
	char *s = json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
	json_decref(doc);
	g_free(json);
	return s;
}

/* --draw-costs N and the scenario's draw_costs give the same bytes, at any
 * -j; another seed other draws; --draw-costs 0 none. */
static void test_cli_determinism(void)
{
	char *dir;
	char *path = scenario_file(&dir, SCENARIO);
	GString *field = g_string_new(SCENARIO);
	g_string_replace(field, "\"replicas\": 2,", "\"replicas\": 2, \"draw_costs\": 3,", 1);
	char *dir2;
	char *with_field = scenario_file(&dir2, field->str);
	char *a = run_json(
	    (const char *[]){"run", path, "--draw-costs", "3", "--format", "json", "-j1", NULL});
	char *b = run_json(
	    (const char *[]){"run", path, "--draw-costs", "3", "--format", "json", "-j2", NULL});
	char *c = results_of(
	    run_json((const char *[]){"run", with_field, "--format", "json", "-j2", NULL}));
	char *d = run_json((const char *[]){"run", path, "--draw-costs", "3", "--seed", "4",
					    "--format", "json", NULL});
	char *none = results_of(run_json(
	    (const char *[]){"run", with_field, "--draw-costs", "0", "--format", "json", NULL}));
	char *plain = results_of(run_json((const char *[]){"run", path, "--format", "json", NULL}));
	a = results_of(a);
	b = results_of(b);
	g_assert_nonnull(strstr(a, "\"cost_draw\""));
	g_assert_cmpstr(a, ==, b);
	g_assert_cmpstr(a, ==, c);
	g_assert_cmpstr(a, !=, d);
	g_assert_cmpstr(none, ==, plain);
	g_assert_null(strstr(plain, "\"cost_draw\""));
	g_free(a), g_free(b), g_free(c), g_free(d), g_free(none), g_free(plain);
	g_string_free(field, TRUE);
	mcs_rm_tree(dir);
	mcs_rm_tree(dir2);
	g_free(path), g_free(with_field), g_free(dir), g_free(dir2);
}

/* Bad --draw-costs values and bad draw_costs in a file: the exact error,
 * exit status 2, nothing on standard output. */
static void test_cli_errors(void)
{
	char *dir;
	GString *bad = g_string_new(SCENARIO);
	g_string_replace(bad, "\"replicas\": 2,", "\"replicas\": 2,\n \"draw_costs\": \"many\",",
			 1);
	char *path = scenario_file(&dir, bad->str);
	char *lockbench = MCS_SOURCE_DIR "/scenarios/lockbench_scope.json";
	char *want_file = g_strdup_printf("%s:2:16: draw_costs: expected an integer in [0, 10000], "
					  "got \"many\"\n",
					  path);
	const struct {
		const char *args[8];
		const char *err;
	} cases[] = {
	    {{"run", lockbench, "--draw-costs", "-1"},
	     "memcgsim: --draw-costs: expected 0 to 10000, got -1\n"},
	    {{"run", lockbench, "--draw-costs", "10001"},
	     "memcgsim: --draw-costs: expected 0 to 10000, got 10001\n"},
	    {{"sweep", lockbench, "--draw-costs", "20000", "--out", "/nonexistent/x"},
	     "memcgsim: --draw-costs: expected 0 to 10000, got 20000\n"},
	    {{"run", lockbench, "--draw-costs", "lots"},
	     "memcgsim: Cannot parse integer value “lots” for --draw-costs\n"},
	    {{"run", lockbench, "--draw-costs", "3"},
	     "--set:1:12: draw_costs: no cost has a range to draw from (name a machine.preset "
	     "and leave its costs at the preset's values; docs/hardware.md)\n"},
	    {{"run", path}, want_file},
	    {{"validate", path}, want_file},
	};
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		char *out, *err;
		g_assert_cmpint(mcs_cli(cases[i].args, &out, &err), ==, 2);
		g_assert_cmpstr(err, ==, cases[i].err);
		g_assert_cmpstr(out, ==, "");
		g_free(out);
		g_free(err);
	}
	g_free(want_file);
	g_string_free(bad, TRUE);
	mcs_rm_tree(dir);
	g_free(path);
	g_free(dir);
}

/* A variant made by hand: acquisitions_per_us (a rate) over its replicas
 * and its cost draws (none when @draws is NULL). */
static json_t *hand_variant(const char *name, const double *reps, size_t nreps, const double *draws,
			    size_t ndraws)
{
	json_t *per = json_array(), *dr = json_array();
	for (size_t i = 0; i < nreps + ndraws; i++) {
		bool drawn = i >= nreps;
		double x = drawn ? draws[i - nreps] : reps[i];
		json_t *r = json_pack("{s:i, s:f, s:i, s:{s:f}, s:[], s:{s:f}}", "seed", (int)i,
				      "sim_time_ns", 1e6, "cpus", 4, "cpu_time_ns", "sys", 1.0,
				      "locks", "metrics", "acquisitions_per_us", x);
		if (drawn)
			json_object_set_new(r, "cost_draw",
					    json_pack("{s:f}", "line_llc_ns", 30.0 + (double)i));
		json_array_append_new(drawn ? dr : per, r);
	}
	json_t *v = result_variant(name, "", per);
	result_variant_draws(v, dr);
	json_decref(per);
	json_decref(dr);
	return v;
}

static const double BASE_REPS[] = {10, 10.1, 9.9}, NEW_REPS[] = {11, 11.1, 10.9};
static const double BASE_DRAWS[] = {10, 10, 10, 10, 10};
/* changes 5, 10, -2, 2, 4 %: min-max [-2, 10] covers 0 */
static const double NEW_DRAWS_COVER[] = {10.5, 11, 9.8, 10.2, 10.4};
/* changes 5, 10, 1, 2, 4 %: min-max [1, 10] excludes 0 */
static const double NEW_DRAWS_EXCLUDE[] = {10.5, 11, 10.1, 10.2, 10.4};

static json_t *hand_result(const double *new_draws, size_t ndraws)
{
	json_t *vs = json_array();
	json_array_append_new(vs, hand_variant("base", BASE_REPS, 3, BASE_DRAWS, ndraws));
	json_array_append_new(vs, hand_variant("new", NEW_REPS, 3, new_draws, ndraws));
	return json_pack("{s:s, s:s, s:s, s:i, s:o}", "format", "memcgsim-result-1", "scenario",
			 "h", "description", "", "seed", 1, "variants", vs);
}

/* `memcgsim report` of @doc (written to a file); @format: text, csv ... */
static char *report_of(json_t *doc, const char *format, int want_status)
{
	char *dir = g_dir_make_tmp("memcgsim-unc-XXXXXX", NULL);
	char *in = g_build_filename(dir, "r.json", NULL);
	g_assert_cmpint(json_dump_file(doc, in, 0), ==, 0);
	char *out, *err;
	g_assert_cmpint(
	    mcs_cli((const char *[]){"report", in, "--format", format, NULL}, &out, &err), ==,
	    want_status);
	if (want_status) { /* the error, less "FILE:LINE:COL: " (test_report checks those) */
		int line = 0, col = 0, used = 0;
		g_assert_true(g_str_has_prefix(err, in));
		g_assert_cmpint(sscanf(err + strlen(in), ":%d:%d: %n", &line, &col, &used), ==, 2);
		g_free(out);
		out = g_strdup(err + strlen(in) + used);
	}
	g_free(err);
	mcs_rm_tree(dir);
	g_free(in);
	g_free(dir);
	return out;
}

/* The change's figures by hand: Hmean 9.99933 -> 10.99939, +10.00%; Welch:
 * difference 1, se sqrt(0.01/3 + 0.01/3), df 4, t(0.975, 4) = 2.7764451:
 * 1 -+ 0.2266958, of the base's mean 10: [7.733042%, 12.266958%]. */
static void test_change_by_hand(void)
{
	json_t *doc = hand_result(NEW_DRAWS_COVER, 5);
	json_t *vs = json_object_get(doc, "variants");
	struct change c;
	change_of(json_array_get(vs, 0), json_array_get(vs, 1), "acquisitions_per_us", NULL, &c);
	g_assert_cmpfloat_with_epsilon(c.pct, 10.0013, 1e-4);
	g_assert_true(c.seeds);
	g_assert_cmpfloat_with_epsilon(c.seeds_lo, 7.733042, 1e-6);
	g_assert_cmpfloat_with_epsilon(c.seeds_hi, 12.266958, 1e-6);
	g_assert_cmpfloat(c.p, <, 0.001);
	g_assert_cmpuint(c.draws, ==, 5);
	g_assert_false(c.percentiles);
	g_assert_cmpfloat_with_epsilon(c.draws_lo, -2, 1e-9);
	g_assert_cmpfloat_with_epsilon(c.draws_hi, 10, 1e-9);
	g_assert_true(c.within_model);
	g_assert_false(c.significant); /* Welch alone would say it is */
	json_decref(doc);
	doc = hand_result(NEW_DRAWS_EXCLUDE, 5);
	vs = json_object_get(doc, "variants");
	change_of(json_array_get(vs, 0), json_array_get(vs, 1), "acquisitions_per_us", NULL, &c);
	g_assert_cmpfloat_with_epsilon(c.draws_lo, 1, 1e-9);
	g_assert_false(c.within_model);
	g_assert_true(c.significant);
	json_decref(doc);
	/* 40 draws: changes of 1 .. 40%, percentiles 1.975% and 39.025% */
	double base[40], more[40];
	for (int d = 0; d < 40; d++) {
		base[d] = 100;
		more[d] = 101 + d;
	}
	json_t *b = hand_variant("base", BASE_REPS, 3, base, 40);
	json_t *v = hand_variant("new", NEW_REPS, 3, more, 40);
	change_of(b, v, "acquisitions_per_us", NULL, &c);
	g_assert_cmpuint(c.draws, ==, 40);
	g_assert_true(c.percentiles);
	g_assert_cmpfloat_with_epsilon(c.draws_lo, 1.975, 1e-9);
	g_assert_cmpfloat_with_epsilon(c.draws_hi, 39.025, 1e-9);
	g_assert_cmpstr(change_draws_spread(c.draws), ==, "2.5th-97.5th percentile");
	json_decref(b);
	json_decref(v);
}

/* The reports: the marker needs Welch and an interval that excludes 0;
 * "within model uncertainty" exactly when the interval covers 0; without
 * draws, Welch alone and no changes table. */
static void test_report_marker(void)
{
	const char *hmean_plain = "Hmean     acquisitions_per_us               10.00 (   0.00%)    "
				  "    11.00 (  10.00%)\n";
	const char *hmean_star = "Hmean     acquisitions_per_us               10.00 (   0.00%)     "
				 "   11.00 *  10.00%*\n";
	json_t *cover = hand_result(NEW_DRAWS_COVER, 5),
	       *exclude = hand_result(NEW_DRAWS_EXCLUDE, 5);
	json_t *none = hand_result(NULL, 0);
	char *a = report_of(cover, "text", 0), *b = report_of(exclude, "text", 0);
	char *c = report_of(none, "text", 0);
	g_assert_nonnull(strstr(a, hmean_plain));
	g_assert_nonnull(strstr(a, "acquisitions_per_us  new         10.00%  [   7.73%,   12.27%]  "
				   "[  -2.00%,   10.00%]  within model uncertainty\n"));
	g_assert_nonnull(strstr(a, "variant new (3 replicas, 5 cost draws)"));
	g_assert_nonnull(strstr(b, hmean_star));
	g_assert_nonnull(strstr(b, "acquisitions_per_us  new         10.00%  [   7.73%,   12.27%]  "
				   "[   1.00%,   10.00%]  significant (across 3 seeds)\n"));
	g_assert_null(
	    strstr(b, "  within model uncertainty\n")); /* a verdict; the legend names it */
	g_assert_nonnull(strstr(c, hmean_star));
	g_assert_null(strstr(c, "cost draws"));
	g_assert_null(strstr(c, "within model uncertainty"));
	char *md = report_of(cover, "md", 0);
	g_assert_nonnull(strstr(md, "## changes against base, across seeds and 5 cost draws\n"));
	g_assert_nonnull(strstr(md, "within model uncertainty\n"));
	char *csv = report_of(cover, "csv", 0);
	g_assert_nonnull(strstr(csv, "h,0,new,d2,5,acquisitions_per_us,9.8\n"));
	g_assert_nonnull(strstr(csv, "h,0,new,d2,5,cost:line_llc_ns,35\n"));
	g_assert_nonnull(strstr(csv, "h,0,new,2,2,acquisitions_per_us,10.9\n"));
	g_free(a), g_free(b), g_free(c), g_free(md), g_free(csv);
	json_decref(cover), json_decref(exclude), json_decref(none);
}

/* A sweep of two points made by hand: the cell's draw interval, the
 * marker, the changes within model uncertainty named under the table. */
static void test_sweep_report(void)
{
	json_t *points =
	    json_pack("[{s:i, s:s, s:[i], s:o}, {s:i, s:s, s:[i], s:o}]", "index", 0, "label",
		      "x=1", "values", 1, "result", hand_result(NEW_DRAWS_COVER, 5), "index", 1,
		      "label", "x=2", "values", 2, "result", hand_result(NEW_DRAWS_EXCLUDE, 5));
	json_t *sweep =
	    json_pack("{s:s, s:s, s:s, s:i, s:[{s:[s], s:s, s:[i, i], s:b}], s:o}", "format",
		      "memcgsim-sweep-1", "scenario", "h", "description", "", "seed", 1, "params",
		      "paths", "x", "spec", "1,2", "values", 1, 2, "log", 0, "points", points);
	char *out = report_of(sweep, "text", 0);
	g_assert_nonnull(strstr(out, "Grid: 2 points x 2 variants x (3 replicas + 5 cost draws) = "
				     "32 runs\n"));
	g_assert_nonnull(strstr(out, "11 +- 0.25 (  10.00%) [-2.00%, 10.00%]\n"));
	g_assert_nonnull(strstr(out, "11 +- 0.25 *  10.00%* [1.00%, 10.00%]\n"));
	/* under acquisitions_per_us's table (sys time does not change: all of it is) */
	g_assert_nonnull(strstr(out, "within model uncertainty (the change's interval across cost "
				     "draws covers 0): new at x=1\n\n== cpu_time_ns.sys"));
	g_free(out);
	json_decref(sweep);
}

/* Hand-edited draws: a clear error, exit status 2. */
static void test_hostile_draws(void)
{
	static const struct {
		const char *member, *value, *err;
	} cases[] = {
	    {"draws", "{}", "variants.1.draws: expected an array\n"},
	    {"cost_draw", "[]", "variants.1.draws.2.cost_draw: expected an object\n"},
	    {"cost_draw", "{\"line_llc_ns\": \"x\"}",
	     "variants.1.draws.2.cost_draw.line_llc_ns: expected a finite number\n"},
	    {"cost_draw", NULL, "variants.1.draws.2.cost_draw: expected an object\n"},
	};
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		json_t *doc = hand_result(NEW_DRAWS_COVER, 5);
		json_t *v = json_array_get(json_object_get(doc, "variants"), 1);
		json_t *run = json_array_get(json_object_get(v, "draws"), 2);
		json_t *at = g_str_equal(cases[i].member, "draws") ? v : run;
		if (cases[i].value)
			json_object_set_new(at, cases[i].member,
					    json_loads(cases[i].value, JSON_DECODE_ANY, NULL));
		else
			json_object_del(at, cases[i].member);
		char *err = report_of(doc, "text", 2);
		g_assert_cmpstr(err, ==, cases[i].err);
		g_free(err);
		json_decref(doc);
	}
}

/* A sweep with draws: their run files, the result, the report; shards
 * merged give the same result. */
static void test_sweep_draws(void)
{
	char *dir;
	char *path = scenario_file(&dir, SCENARIO);
	char *whole = g_build_filename(dir, "whole", NULL),
	     *merged = g_build_filename(dir, "m", NULL);
	char *s1 = g_build_filename(dir, "s1", NULL), *s2 = g_build_filename(dir, "s2", NULL);
	const char *sweep[] = {"sweep",	       path,	"--param",    "workloads.0.hold_ns=50,100",
			       "--draw-costs", "2",	"--replicas", "1",
			       "-j2",	       "--out", whole,	      NULL,
			       NULL,	       NULL};
	g_free(run_json(sweep));
	char *file = g_build_filename(whole, "runs", "p0001-v01-d0001.json", NULL);
	json_t *run = json_load_file(file, 0, NULL);
	g_assert_cmpint(json_integer_value(json_object_get(run, "draw")), ==, 1);
	g_assert_cmpint(json_integer_value(json_object_get(json_object_get(run, "result"), "draw")),
			==, 1);
	json_decref(run);
	g_free(file);
	for (int k = 1; k <= 2; k++) {
		sweep[10] = k == 1 ? s1 : s2;
		sweep[11] = "--shard";
		sweep[12] = k == 1 ? "1/2" : "2/2";
		g_free(run_json(sweep));
	}
	g_free(run_json((const char *[]){"merge", "--out", merged, s1, s2, NULL}));
	char *a = g_build_filename(whole, "result.json", NULL),
	     *b = g_build_filename(merged, "result.json", NULL);
	char *ta = mcs_slurp(a), *tb = mcs_slurp(b);
	g_assert_cmpstr(ta, ==, tb);
	g_assert_nonnull(strstr(ta, "\"cost_draw\""));
	char *out = run_json((const char *[]){"report", whole, NULL});
	g_assert_nonnull(strstr(out, "Grid: 2 points x 2 variants x (1 replicas + 2 cost draws) = "
				     "12 runs\n"));
	g_free(out), g_free(ta), g_free(tb), g_free(a), g_free(b);
	mcs_rm_tree(dir);
	g_free(whole), g_free(merged), g_free(s1), g_free(s2), g_free(path), g_free(dir);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/uncertainty/draw/by-hand", test_draw_by_hand);
	g_test_add_func("/uncertainty/run/paired", test_run_paired);
	g_test_add_func("/uncertainty/cli/determinism", test_cli_determinism);
	g_test_add_func("/uncertainty/cli/errors", test_cli_errors);
	g_test_add_func("/uncertainty/change/by-hand", test_change_by_hand);
	g_test_add_func("/uncertainty/report/marker", test_report_marker);
	g_test_add_func("/uncertainty/report/sweep", test_sweep_report);
	g_test_add_func("/uncertainty/report/hostile", test_hostile_draws);
	g_test_add_func("/uncertainty/sweep/draws", test_sweep_draws);
	return g_test_run();
}

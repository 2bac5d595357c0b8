// SPDX-License-Identifier: GPL-2.0-or-later
/* memcgsim fit SCENARIO: the variant that carries a measurement ("measured")
 * fitted to it (baseline.h), then the scenario's variants run with the fit,
 * the others' figures labelled as predictions (the result's "fit"). */
#include "baseline.h"
#include "cli_util.h"
#include "mcs_json.h"
#include "output.h"
#include "report.h"
#include "result_keys.h"
#include "runner.h"
#include <stdio.h>
#include <unistd.h>

/* fit's own options (the others: struct cli). */
static struct {
	int rounds;
	double tolerance, max_extra_ns;
	gboolean fit_only; /* --fit-only: no predictions */
} fit_args = {.rounds = 12, .tolerance = 0.05, .max_extra_ns = 20000};

struct fit_load {
	struct cli *c;
	const char *variant; /* the fitted one; NULL: the choice the run makes */
};

/* The scenario with the command line's --set, then @more (NULL-terminated,
 * or NULL), and one choice. */
static struct scenario *load_with(struct cli *c, const char *const *more, const char *choice,
				  GError **err)
{
	GPtrArray *sets = cli_collect_sets(c);
	for (const char *const *s = more; s && *s; s++)
		g_ptr_array_insert(sets, (gint)sets->len - 1, g_strdup(*s));
	struct scenario *sc =
	    scenario_load_file(c->files[0], (const char *const *)sets->pdata, err);
	g_ptr_array_free(sets, TRUE);
	if (sc && !scenario_choose(sc, choice, err)) {
		scenario_free(sc);
		sc = NULL;
	}
	return sc;
}

static struct scenario *fit_load_round(const char *const *sets, void *ctx, GError **err)
{
	struct fit_load *l = ctx;
	return load_with(l->c, sets, l->variant, err);
}

/* The scenario, every variant loaded, and the one to fit in *@v: --variant's,
 * or the first that carries "measured"; NULL with @err when there is none. */
static struct scenario *fitted_variant(struct cli *c, const struct scenario_variant **v,
				       GError **err)
{
	struct scenario *sc = load_with(c, NULL, SCENARIO_ALL_VARIANTS, err);
	*v = NULL;
	for (guint i = 0; sc && i < sc->variants->len && !*v; i++) {
		const struct scenario_variant *x = sc->variants->pdata[i];
		if (x->measured && (!c->variant || g_str_equal(x->name, c->variant)))
			*v = x;
	}
	if (sc && !*v) {
		if (c->variant)
			g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
				    "%s: variant \"%s\" carries no measurement (\"measured\"), or "
				    "there is no such variant",
				    c->files[0], c->variant);
		else
			g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
				    "%s: no variant carries a measurement (\"measured\")",
				    c->files[0]);
		scenario_free(sc);
		sc = NULL;
	}
	return sc;
}

/* The comparisons' variants that a comparison naming @fitted names (into
 * @list, once each); false when no comparison names it. */
static bool compared_with(const struct scenario *sc, const char *fitted, GPtrArray *list)
{
	size_t i;
	json_t *c;
	bool named = false;
	json_array_foreach (json_object_get(sc->base, "comparisons"), i, c) {
		char *names[4];
		unsigned n = scenario_comparison_names(json_string_value(c), names);
		bool has = false;
		for (unsigned k = 0; k < n; k++)
			has = has || g_str_equal(names[k], fitted);
		for (unsigned k = 0; k < n; k++) {
			if (has &&
			    !g_ptr_array_find_with_equal_func(list, names[k], g_str_equal, NULL))
				g_ptr_array_add(list, g_strdup(names[k]));
			g_free(names[k]);
		}
		named = named || has;
	}
	return named;
}

/* The variants the predictions run, as --variant's list (g_free it): the
 * fitted one and those the scenario's comparisons pair with it, or, when
 * none names it, the scenario's default_variants (every variant without
 * them). */
static char *prediction_choice(const struct scenario *sc, const char *fitted)
{
	GPtrArray *list = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(list, g_strdup(fitted));
	if (!compared_with(sc, fitted, list))
		for (guint i = 0; i < sc->variants->len; i++) {
			const char *name =
			    ((const struct scenario_variant *)sc->variants->pdata[i])->name;
			bool runs =
			    !sc->default_variants ||
			    g_strv_contains((const char *const *)sc->default_variants, name);
			if (runs && !g_str_equal(name, fitted))
				g_ptr_array_add(list, g_strdup(name));
		}
	g_ptr_array_add(list, NULL);
	char *choice = g_strjoinv(",", (char **)list->pdata);
	g_ptr_array_free(list, TRUE);
	return choice;
}

static void fit_note(const char *msg)
{
	if (!cli_args.quiet)
		cli_say("%s", msg);
}

/* The scenario's variants run with @f's values: the result, its "fit" and
 * its overrides set; NULL with @err. */
static json_t *predictions(struct cli *c, const struct scenario *all, const struct baseline_fit *f,
			   GError **err)
{
	char *choice = prediction_choice(all, f->variant);
	char **sets = baseline_fit_sets(f);
	struct scenario *sc = load_with(c, (const char *const *)sets, choice, err);
	g_free(choice);
	json_t *result = NULL;
	if (sc) {
		struct runner_opts ro = {.note = cli_note};
		bool violation = false;
		result = runner_run(sc, c->jobs, NULL, &ro, &violation, err);
		scenario_free(sc);
	}
	if (result) {
		json_object_set_new(result, RK_fit, baseline_fit_json(f));
		json_t *overrides = json_array(); /* the fit's own is in "fit" */
		for (char **s = c->sets; s && *s; s++)
			json_array_append_new(overrides, json_string(*s));
		if (json_array_size(overrides))
			json_object_set_new(result, RK_overrides, overrides);
		else
			json_decref(overrides);
		size_t i;
		json_t *v;
		json_array_foreach (json_object_get(result, RK_variants), i, v)
			json_object_set_new(
			    v, RK_fit_role,
			    json_string(g_str_equal(json_string_value(json_object_get(v, "name")),
						    f->variant)
					    ? "fitted"
					    : "predicted"));
	}
	g_strfreev(sets);
	return result;
}

static bool fit_options_valid(const struct cli *c)
{
	if (!cli_jobs_valid(c) || !cli_seed_valid(c))
		return false;
	if (fit_args.rounds < 1 || fit_args.rounds > 100)
		cli_say("--rounds: expected 1 to 100, got %d", fit_args.rounds);
	else if (!(fit_args.tolerance > 0 && fit_args.tolerance < 1))
		cli_say("--tolerance: expected a share between 0 and 1, got %g",
			fit_args.tolerance);
	else if (!(fit_args.max_extra_ns > 0 && fit_args.max_extra_ns <= 1e9))
		cli_say("--max-extra: expected 0 < NS <= 1e9, got %g", fit_args.max_extra_ns);
	else if (!g_str_equal(c->format, "text") && !g_str_equal(c->format, "json"))
		cli_say("--format: fit writes text or json, not %s", c->format);
	else
		return true;
	return false;
}

static int cmd_fit(struct cli *c)
{
	if (!fit_options_valid(c))
		return EXIT_USAGE;
	GError *err = NULL;
	if (!output_check(c->output, "-o", &err))
		return cli_error(err, "memcgsim: ");
	const struct scenario_variant *v;
	struct scenario *all = fitted_variant(c, &v, &err);
	if (!all)
		return cli_error(err, "");
	struct fit_load l = {c, v->name};
	struct baseline_opts o = {.rounds = fit_args.rounds,
				  .tolerance = fit_args.tolerance,
				  .max_extra_ns = fit_args.max_extra_ns,
				  .jobs = c->jobs,
				  .load = fit_load_round,
				  .ctx = &l,
				  .note = fit_note};
	struct baseline_fit *f = baseline_fit_run(v->measured, v->name, &o, &err);
	json_t *result = f && !fit_args.fit_only ? predictions(c, all, f, &err) : NULL;
	GString *out = g_string_new(NULL);
	bool ok = f && (fit_args.fit_only || result);
	if (ok && g_str_equal(c->format, "json")) {
		json_t *doc = result ? json_incref(result) : baseline_fit_json(f);
		char *text = json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
		g_string_append_printf(out, "%s\n", text);
		free(text);
		json_decref(doc);
	} else if (ok) {
		baseline_fit_text(f, out);
		if (result) {
			g_string_append_c(out, '\n');
			report_text(result, c->resolution, out);
		}
	}
	ok = ok && cli_output(c, out, "the fit", &err);
	g_string_free(out, TRUE);
	json_decref(result);
	baseline_fit_free(f);
	scenario_free(all);
	return ok ? 0 : cli_error(err, "memcgsim: ");
}

static const GOptionEntry fit_options[] = {
    CLI_OPT_SET,
    CLI_OPT_FILES("FILE"),
    CLI_OPT_VARIANT,
    CLI_OPT_FORMAT("Output format: text (the fit, then the report) or json (the result)"),
    CLI_OPT_OUTPUT,
    CLI_OPT_JOBS,
    CLI_OPT_QUIET,
    {"rounds", 0, 0, G_OPTION_ARG_INT, &fit_args.rounds,
     "At most this many runs of the measured variant (default 12)", "N"},
    {"tolerance", 0, 0, G_OPTION_ARG_DOUBLE, &fit_args.tolerance,
     "A class is fitted when its wait is within this share of the measured (default 0.05)", "F"},
    {"max-extra", 0, 0, G_OPTION_ARG_DOUBLE, &fit_args.max_extra_ns,
     "The most a class's hold may gain, in ns (default 20000)", "NS"},
    {"fit-only", 0, 0, G_OPTION_ARG_NONE, &fit_args.fit_only, "Fit, but do not run the predictions",
     NULL},
    CLI_OPT_RESOLUTION,
    {NULL}};

const struct cli_command cli_fit_command = {
    .name = "fit",
    .doc = "fit a variant's lock costs and private constants to its measurement, then "
	   "predict the others",
    .synopsis = "FILE - fit the measured variant's lock holds and private constants, and "
		"predict the other variants",
    .options = fit_options,
    .files = 1,
    .files_what = "scenario FILE",
    .scenario = true,
    .fn = cmd_fit,
};

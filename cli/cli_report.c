// SPDX-License-Identifier: GPL-2.0-or-later
/* memcgsim report DIR|RESULT.json: a result or a sweep rendered (text, md,
 * html, json, csv), with its plots. */
#include "change.h"
#include "cli_util.h"
#include "lockstat.h"
#include "output.h"
#include "report.h"
#include "result.h"
#include "result_keys.h"
#include <stdio.h>
#include <sys/types.h>

/* report's own options (the others: struct cli). */
static struct {
	char *sort;		 /* --sort */
	char *plots;		 /* --plots DIR */
	char *lock_stat;	 /* --lock-stat FILE */
	char *lock_stat_seconds; /* --lock-stat-seconds S */
	int point;		 /* --point N */
	gboolean point_given;	 /* without --point: the whole sweep */
} report_args;

/* What to report: the input, or one point of it (--point). */
static json_t *report_input(struct cli *c, GError **err)
{
	json_t *doc = cli_result_load(c->files[0], RESULT_MAX_PARSED, err);
	if (!doc || !report_args.point_given)
		return doc;
	json_t *points = json_object_get(doc, RK_points);
	json_t *p =
	    report_args.point >= 0 ? json_array_get(points, (size_t)report_args.point) : NULL;
	json_t *r = p ? json_incref(json_object_get(p, "result")) : NULL;
	if (!points)
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
			    "--point: %s is a single result, not a sweep", c->files[0]);
	else if (!p)
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
			    "--point: expected a point of the sweep (0 to %zd), got %d",
			    (ssize_t)json_array_size(points) - 1, report_args.point);
	json_decref(doc);
	return r;
}

/* --point N: any int, so that every value is told apart from no --point
 * (a sentinel value once stood for that, and --point -2147483648 printed
 * the whole sweep); the range is checked against the sweep. */
static gboolean parse_point(const char *name, const char *value, gpointer data, GError **err)
{
	(void)name;
	(void)data;
	gint64 n;
	if (!g_ascii_string_to_signed(value, 10, G_MININT, G_MAXINT, &n, NULL)) {
		g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
			    "--point: expected a point of the sweep (an integer), got \"%s\"",
			    value);
		return FALSE;
	}
	report_args.point = (int)n;
	report_args.point_given = TRUE;
	return TRUE;
}

/* -o can be written and is not the input: a result file, or a sweep's
 * result and plan. */
static bool report_outputs(const struct cli *c, GError **err)
{
	const char *in = c->files[0];
	bool dir = g_file_test(in, G_FILE_TEST_IS_DIR);
	char *result = dir ? g_build_filename(in, "result.json", NULL) : NULL;
	char *plan = dir ? g_build_filename(in, "sweep.json", NULL) : NULL;
	const struct cli_path outs[] = {{"-o", c->output}, {NULL, NULL}};
	const struct cli_path ins[] = {
	    {dir ? "the sweep's result" : "the result", dir ? result : in},
	    {"the sweep's plan", plan},
	    {"--lock-stat's file", report_args.lock_stat},
	    {NULL, NULL}};
	bool ok = output_check(c->output, "-o", err) && cli_outputs_apart(outs, ins, err);
	g_free(result);
	g_free(plan);
	return ok;
}

/* --lock-stat-seconds: how long the machine measured, with --lock-stat. */
static bool lock_stat_seconds(const struct cli *c, double *seconds)
{
	char *end;
	*seconds = g_ascii_strtod(report_args.lock_stat_seconds, &end);
	if (!report_args.lock_stat) {
		cli_say("--lock-stat-seconds: the length of --lock-stat's measurement; give "
			"--lock-stat FILE too");
		return false;
	}
	if (end == report_args.lock_stat_seconds || *end || !(*seconds > 0 && *seconds <= 1e9)) {
		cli_say("--lock-stat-seconds: expected the measurement's length in seconds, more "
			"than 0 and at most 1e9, got \"%s\"",
			report_args.lock_stat_seconds);
		return false;
	}
	return true;
}

/* What the options ask of @doc: --lock-stat (@measured) beside a result,
 * not a sweep; every metric --resolution named one of its (a sweep's: its
 * first point's), a typo said, not ignored. */
static bool doc_check(json_t *doc, const struct lockstat *measured,
		      const struct change_resolution *res, GError **err)
{
	json_t *points = json_object_get(doc, RK_points);
	if (measured && points) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
			    "--lock-stat: beside a result, not a sweep (give --point N)");
		return false;
	}
	json_t *r = points ? json_object_get(json_array_get(points, 0), "result") : doc;
	char *typo = change_resolution_unknown(res, json_object_get(r, RK_variants));
	if (typo)
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
			    "--resolution: %s: no such metric in the result (its metrics are those "
			    "the report's tables show)",
			    typo);
	g_free(typo);
	return !typo;
}

static int cmd_report(struct cli *c)
{
	struct report_opts o = {.format = report_format_find(c->format),
				.sort = report_args.sort ? report_args.sort : "wait_total",
				.plots = report_args.plots,
				.resolution = c->resolution};
	if (!o.format) {
		char *names = report_format_names();
		const char *near = report_format_near(c->format);
		cli_say("--format: expected %s, got \"%s\"%s%s%s", names, c->format,
			near ? " (did you mean \"" : "", near ? near : "", near ? "\"?)" : "");
		g_free(names);
		return EXIT_USAGE;
	}
	if (!report_sort_valid(o.sort)) {
		cli_say("--sort: expected contended, wait_total, wait_max or wait_avg, got \"%s\"",
			o.sort);
		return EXIT_USAGE;
	}
	GError *err = NULL;
	if (!report_outputs(c, &err) ||
	    (report_args.plots && !output_check_dir(report_args.plots, "--plots", &err)))
		return cli_error(err, "memcgsim: ");
	if (report_args.lock_stat && !o.format->measured) {
		cli_say("--lock-stat: a section of the text, md, html and summary reports, not of "
			"--format %s",
			c->format);
		return EXIT_USAGE;
	}
	double seconds = 0;
	if (report_args.lock_stat_seconds && !lock_stat_seconds(c, &seconds))
		return EXIT_USAGE;
	struct lockstat *measured = NULL;
	if (report_args.lock_stat && !(measured = lockstat_read(report_args.lock_stat, &err)))
		return cli_error(err, "");
	if (measured)
		measured->seconds = seconds;
	o.measured = measured;
	o.measured_path = report_args.lock_stat;
	json_t *doc = report_input(c, &err);
	if (doc && !doc_check(doc, measured, c->resolution, &err)) {
		json_decref(doc);
		lockstat_free(measured);
		return cli_error(err, "memcgsim: ");
	}
	if (!doc) {
		lockstat_free(measured);
		return cli_error(err, "");
	}
	GString *out = g_string_new(NULL);
	bool ok = report_render(doc, &o, out, &err) && cli_output(c, out, "the report", &err);
	g_string_free(out, TRUE);
	lockstat_free(measured);
	if (!output_interrupted()) /* else it dies of the signal now: a large result takes seconds
				    */
		json_decref(doc);
	return ok ? 0 : cli_error(err, "memcgsim: ");
}

static const GOptionEntry report_options[] = {
    CLI_OPT_FILES("DIR|RESULT.json"),
    CLI_OPT_FORMAT("text (default), md, html, summary (under 80 columns), json or csv"),
    CLI_OPT_OUTPUT,
    {"sort", 0, 0, G_OPTION_ARG_STRING, &report_args.sort,
     "perf lock contention order: contended, wait_total (default), wait_max, wait_avg", "KEY"},
    {"plots", 0, 0, G_OPTION_ARG_FILENAME, &report_args.plots,
     "Write the plots (SVG, PNG, data, gnuplot script) into DIR", "DIR"},
    {"point", 0, 0, G_OPTION_ARG_CALLBACK, (gpointer)parse_point,
     "Report one point of a sweep in full", "N"},
    {"lock-stat", 0, 0, G_OPTION_ARG_FILENAME, &report_args.lock_stat,
     "The real machine's /proc/lock_stat (version 0.4) or perf lock contention output, "
     "beside the model's, class by class",
     "FILE"},
    {"lock-stat-seconds", 0, 0, G_OPTION_ARG_STRING, &report_args.lock_stat_seconds,
     "How long --lock-stat's machine measured: counts become rates a second, the model's "
     "over its simulated time",
     "S"},
    CLI_OPT_SUMMARY,
    CLI_OPT_RESOLUTION,
    {NULL}};

/* What report's options set, freed after it ran. */
static void report_args_free(void)
{
	g_free(report_args.sort);
	g_free(report_args.plots);
	g_free(report_args.lock_stat);
	g_free(report_args.lock_stat_seconds);
}

const struct cli_command cli_report_command = {
    .cleanup = report_args_free,
    .name = "report",
    .doc = "render a result or a sweep: text, md, html, json, csv; plots",
    .synopsis = "DIR|RESULT.json - render a result or a sweep",
    .options = report_options,
    .files = 1,
    .files_what = "DIR or RESULT.json",
    .fn = cmd_report,
};

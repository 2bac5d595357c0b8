// SPDX-License-Identifier: GPL-2.0-or-later
/* The report of a sweep: per metric, its value at each grid point for each
 * variant with the 95% confidence interval and the change against the
 * baseline; then each point's mmtests comparison. `memcgsim report --point`
 * gives one point's full report (lock tables, per cgroup). */
#include "change.h"
#include "metrics.h"
#include "output.h"
#include "report.h"
#include "report_sections.h"
#include "report_util.h"
#include "result.h"
#include "result_keys.h"
#include "stats.h"
#include "version.h"
#include <math.h>
#include <string.h>

#define LABEL_W 28
#define CELL_W 34
#define CELL_DRAWS_W 52 /* with the change's interval across cost draws */
#define NOTE_W 100

/* The unit a time metric reads best in over all points. */
static double metric_scale(json_t *points, const char *metric, const char **unit)
{
	double top = 0;
	size_t n;
	double *x = result_points_samples(points, metric, &n);
	for (size_t k = 0; k < n; k++)
		top = MAX(top, fabs(x[k]));
	g_free(x);
	*unit = "";
	struct run_metric info;
	json_t *first = json_array_get(result_point_variants(json_array_get(points, 0)), 0);
	if (!g_str_equal(metric_info(first, metric, &info)->unit, "ns"))
		return 1;
	return report_unit(top, unit);
}

/* A variant's cell at a point: its mean +- 95% CI and its change against
 * the baseline (*...* when significant), then, with cost draws, the
 * change's interval across them. True when that interval covers 0. */
static bool metric_cell(GString *out, json_t *base, json_t *var, const char *metric, double scale,
			int width, const struct change_resolution *r)
{
	struct run_metric info;
	const struct run_metric *d = metric_info(base, metric, &info);
	size_t nv;
	double *xv = result_samples(var, metric, &nv);
	struct stats_summary sv;
	stats_summarise(xv, nv, !d->higher_is_better, &sv);
	struct change c;
	change_of(base, var, metric, r, &c);
	bool sig = base != var && c.significant;
	GString *cell = g_string_new(NULL);
	char buf[32];
	g_string_printf(cell, "%.4g +- %.2g %s%8s%s",
			(d->higher_is_better ? sv.hmean : sv.amean) / scale,
			stats_ci95(xv, nv) / scale, sig ? "*" : "(",
			change_pct_text(buf, "%7.2f%%", c.pct), sig ? "*" : ")");
	if (c.draws && base != var)
		g_string_append_printf(cell, " [%.2f%%, %.2f%%]", c.draws_lo, c.draws_hi);
	g_string_append_printf(out, " %*s", width, cell->str);
	g_string_free(cell, TRUE);
	g_free(xv);
	return base != var && c.within_model;
}

/* The most cost draws a variant has at any point (0: none). */
static size_t sweep_draws(json_t *points)
{
	size_t most = 0, i;
	json_t *p;
	json_array_foreach (points, i, p)
		most = MAX(most, change_draws(result_point_variants(p)));
	return most;
}

/* "within model uncertainty (...): b at x=1, b at x=2", wrapped. */
static void within_model_note(GString *out, GPtrArray *within)
{
	if (!within->len)
		return;
	GString *line = g_string_new("within model uncertainty (the change's interval across cost "
				     "draws covers 0):");
	for (guint i = 0; i < within->len; i++) {
		const char *item = within->pdata[i];
		if (line->len + strlen(item) + 2 > NOTE_W) {
			g_string_append_printf(out, "%s\n", line->str);
			g_string_assign(line, "   ");
		}
		g_string_append_printf(line, " %s%s", item, i + 1 < within->len ? "," : "");
	}
	g_string_append_printf(out, "%s\n", line->str);
	g_string_free(line, TRUE);
}

/* The longest point label's, at least LABEL_W. */
static int label_width(json_t *points)
{
	int width = LABEL_W;
	size_t i;
	json_t *p;
	json_array_foreach (points, i, p)
		width = MAX(width,
			    (int)g_utf8_strlen(json_string_value(json_object_get(p, "label")), -1));
	return width;
}

static void metric_table(json_t *points, const char *metric, const struct change_resolution *r,
			 GString *out)
{
	const char *unit;
	double scale = metric_scale(points, metric, &unit);
	size_t i, v;
	json_t *p, *var;
	int width = label_width(points), cell_w = sweep_draws(points) ? CELL_DRAWS_W : CELL_W;
	GPtrArray *within = g_ptr_array_new_with_free_func(g_free);
	g_string_append_printf(out, "%-*s", width, "");
	json_array_foreach (result_point_variants(json_array_get(points, 0)), v, var)
		g_string_append_printf(out, " %*s", cell_w,
				       json_string_value(json_object_get(var, "name")));
	g_string_append_c(out, '\n');
	json_array_foreach (points, i, p) {
		const char *label = json_string_value(json_object_get(p, "label"));
		g_string_append_printf(out, "%-*s", width, label);
		json_t *vars = result_point_variants(p);
		json_array_foreach (vars, v, var)
			if (metric_cell(out, json_array_get(vars, 0), var, metric, scale, cell_w,
					r))
				g_ptr_array_add(
				    within,
				    g_strdup_printf("%s at %s",
						    json_string_value(json_object_get(var, "name")),
						    label));
		g_string_append_c(out, '\n');
	}
	if (*unit)
		g_string_append_printf(out, "(values in %s)\n", unit);
	within_model_note(out, within);
	g_ptr_array_free(within, TRUE);
}

/* A metric's section title: what its cells say. */
static char *metric_title(json_t *points, const char *metric, const char *base)
{
	return g_strdup_printf("%s by point: mean +- 95%% CI (change against %s%s; *...* = "
			       "significant)",
			       metric, base, sweep_draws(points) ? " [across cost draws]" : "");
}

/* With cost draws, what the cells' intervals and markers mean. */
static void draws_legend(size_t draws, GString *out)
{
	g_string_append_printf(
	    out,
	    "Cost draws: %zu runs a variant and point with every cost that has a "
	    "preset range drawn from it,\nthe same draws for every variant. "
	    "[lo, hi]: the %s of the %zu paired changes (2.5th-97.5th\n"
	    "percentile from %d draws on); within model uncertainty when it "
	    "covers 0.\n*...* = significant: Welch's t-test p < 0.05 across "
	    "seeds, and [lo, hi] excludes 0.\n",
	    draws, change_draws_spread(draws), draws, STATS_SPREAD95_MIN);
}

static void header(json_t *sweep, GString *out)
{
	json_t *points = json_object_get(sweep, RK_points);
	json_t *first = json_array_get(result_point_variants(json_array_get(points, 0)), 0);
	size_t nv = json_array_size(result_point_variants(json_array_get(points, 0)));
	size_t reps = (size_t)json_integer_value(json_object_get(first, "replicas"));
	size_t i;
	json_t *p;
	json_array_foreach (json_object_get(sweep, "params"), i, p) {
		char *paths = NULL;
		json_t *ps = json_object_get(p, "paths");
		GString *s = g_string_new(NULL);
		size_t k;
		json_t *x;
		json_array_foreach (ps, k, x)
			g_string_append_printf(s, "%s%s", k ? "," : "", json_string_value(x));
		paths = g_string_free(s, FALSE);
		g_string_append_printf(out, "Parameter %s = %s (%zu values)\n", paths,
				       json_string_value(json_object_get(p, "spec")),
				       json_array_size(json_object_get(p, "values")));
		g_free(paths);
	}
	size_t draws = sweep_draws(points);
	if (!draws)
		g_string_append_printf(
		    out, "Grid: %zu points x %zu variants x %zu replicas = %zu runs\n",
		    json_array_size(points), nv, reps, json_array_size(points) * nv * reps);
	else
		g_string_append_printf(out,
				       "Grid: %zu points x %zu variants x (%zu replicas + %zu cost "
				       "draws) = %zu runs\n",
				       json_array_size(points), nv, reps, draws,
				       json_array_size(points) * nv * (reps + draws));
	if (draws)
		draws_legend(draws, out);
}

/* Last, as in a result's report: the verdict of each point, wrapped at 78
 * columns to paste. */
void report_sweep_verdicts(json_t *sweep, const struct report_opts *o, GPtrArray *sections)
{
	json_t *points = json_object_get(sweep, RK_points);
	GString *verdicts = report_section_add(sections, "verdict, point by point")->body;
	GString *line = g_string_new(NULL);
	size_t i;
	json_t *p;
	json_array_foreach (points, i, p) {
		if (json_array_size(result_point_variants(p)) < 2)
			continue;
		g_string_printf(line, "point %zu (%s): ", i,
				json_string_value(json_object_get(p, "label")));
		report_verdict(result_point_variants(p), o, line);
		char **lines = g_strsplit(line->str, "\n", -1); /* a line a variant */
		for (char **l = lines; *l; l++)
			if (l == lines)
				report_hanging(verdicts, *l, 78, 2);
			else
				report_wrapped(verdicts, *l, 78, 2);
		g_strfreev(lines);
	}
	g_string_free(line, TRUE);
}

void report_sweep_head(json_t *sweep, const struct report_opts *o, GPtrArray *sections)
{
	(void)o;
	char *head =
	    g_strdup_printf("memcgsim %s: sweep of scenario \"%s\", seed %lld", MEMCGSIM_VERSION,
			    json_string_value(json_object_get(sweep, "scenario")),
			    (long long)json_integer_value(json_object_get(sweep, "seed")));
	GString *about = report_section_add(sections, head)->body;
	report_about(sweep, about);
	header(sweep, about);
	g_free(head);
}

void report_sweep_metrics(json_t *sweep, const struct report_opts *o, GPtrArray *sections)
{
	json_t *points = json_object_get(sweep, RK_points);
	json_t *base = json_array_get(result_point_variants(json_array_get(points, 0)), 0);
	GPtrArray *keys = metric_sweep_keys(points);
	for (guint n = 0; n < keys->len; n++) {
		const char *k = keys->pdata[n];
		char *title =
		    metric_title(points, k, json_string_value(json_object_get(base, "name")));
		metric_table(points, k, report_resolution(o),
			     report_section_add(sections, title)->body);
		g_free(title);
	}
	g_ptr_array_free(keys, TRUE);
}

void report_sweep_lines(json_t *sweep, const struct report_opts *o, GPtrArray *sections)
{
	(void)o;
	json_t *points = json_object_get(sweep, RK_points);
	report_sweep_cachelines(points, label_width(points), sections);
}

void report_sweep_points(json_t *sweep, const struct report_opts *o, GPtrArray *sections)
{
	size_t i;
	json_t *p;
	json_array_foreach (json_object_get(sweep, RK_points), i, p) {
		if (output_interrupted()) /* the report is not used: stop at once */
			break;
		char *title = g_strdup_printf("point %zu: %s", i,
					      json_string_value(json_object_get(p, "label")));
		GString *body = report_section_add(sections, title)->body;
		g_free(title);
		json_t *vars = result_point_variants(p);
		report_comparison(vars, o, body);
		if (change_draws(vars) && json_array_size(vars) >= 2) {
			g_string_append_c(body, '\n');
			report_changes(vars, o, body);
		}
	}
}

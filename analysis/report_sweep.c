/* The report of a sweep: per metric, its value at each grid point for each
 * variant with the 95% confidence interval and the change against the
 * baseline; then each point's mmtests comparison. `memcgsim report --point`
 * gives one point's full report (lock tables, per cgroup). */
#include "metrics.h"
#include "report.h"
#include "result.h"
#include "stats.h"
#include "version.h"
#include <math.h>
#include <string.h>

#define LABEL_W 28
#define CELL_W 34

/* The unit a time metric reads best in over all points. */
static double metric_scale(json_t *points, const char *metric, const char **unit)
{
	double top = 0;
	size_t i, v;
	json_t *p, *var;
	json_array_foreach (points, i, p)
		json_array_foreach (result_point_variants(p), v, var) {
			size_t n;
			double *x = result_samples(var, metric, &n);
			for (size_t k = 0; k < n; k++)
				top = MAX(top, fabs(x[k]));
			g_free(x);
		}
	*unit = "";
	if (!g_str_equal(run_metric_find(metric)->unit, "ns"))
		return 1;
	return report_unit(top, unit);
}

static void metric_cell(GString *out, json_t *base, json_t *var, const char *metric, double scale)
{
	const struct run_metric *d = run_metric_find(metric);
	size_t nb, nv;
	double *xb = result_samples(base, metric, &nb), *xv = result_samples(var, metric, &nv);
	struct stats_summary sb, sv;
	stats_summarise(xb, nb, !d->higher_is_better, &sb);
	stats_summarise(xv, nv, !d->higher_is_better, &sv);
	double mb = d->higher_is_better ? sb.hmean : sb.amean;
	double mv = d->higher_is_better ? sv.hmean : sv.amean;
	double g = mb == 0 ? 0 : d->higher_is_better ? mv * 100 / mb - 100 : 100 - mv * 100 / mb;
	if (fabs(g) < 0.005)
		g = 0;
	bool sig = base != var && stats_welch_p(xb, nb, xv, nv) < 0.05;
	char cell[96];
	g_snprintf(cell, sizeof(cell), "%.4g +- %.2g %s%7.2f%%%s", mv / scale,
		   stats_ci95(xv, nv) / scale, sig ? "*" : "(", g, sig ? "*" : ")");
	g_string_append_printf(out, " %*s", CELL_W, cell);
	g_free(xb);
	g_free(xv);
}

/* The longest point label's, at least LABEL_W. */
static int label_width(json_t *points)
{
	int width = LABEL_W;
	size_t i;
	json_t *p;
	json_array_foreach (points, i, p)
		width = MAX(width, (int)g_utf8_strlen(json_string_value(json_object_get(p, "label")),
						      -1));
	return width;
}

static void metric_table(json_t *points, const char *metric, GString *out)
{
	const char *unit;
	double scale = metric_scale(points, metric, &unit);
	size_t i, v;
	json_t *p, *var;
	int width = label_width(points);
	g_string_append_printf(out, "%-*s", width, "");
	json_array_foreach (result_point_variants(json_array_get(points, 0)), v, var)
		g_string_append_printf(out, " %*s", CELL_W, json_string_value(json_object_get(var, "name")));
	g_string_append_c(out, '\n');
	json_array_foreach (points, i, p) {
		g_string_append_printf(out, "%-*s", width,
				       json_string_value(json_object_get(p, "label")));
		json_t *vars = result_point_variants(p);
		json_array_foreach (vars, v, var)
			metric_cell(out, json_array_get(vars, 0), var, metric, scale);
		g_string_append_c(out, '\n');
	}
	if (*unit)
		g_string_append_printf(out, "(values in %s)\n", unit);
}

static void header(json_t *sweep, GString *out)
{
	json_t *points = json_object_get(sweep, "points");
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
	g_string_append_printf(out, "Grid: %zu points x %zu variants x %zu replicas = %zu runs\n",
			       json_array_size(points), nv, reps, json_array_size(points) * nv * reps);
}

GPtrArray *report_sweep_sections(json_t *sweep)
{
	GPtrArray *sections = report_sections_new();
	char *head = g_strdup_printf("memcgsim %s: sweep of scenario \"%s\", seed %lld",
				     MEMCGSIM_VERSION,
				     json_string_value(json_object_get(sweep, "scenario")),
				     (long long)json_integer_value(json_object_get(sweep, "seed")));
	header(sweep, report_section_add(sections, head)->body);
	g_free(head);
	json_t *points = json_object_get(sweep, "points");
	json_t *base = json_array_get(result_point_variants(json_array_get(points, 0)), 0);
	GPtrArray *keys = metric_sweep_keys(base);
	for (guint n = 0; n < keys->len; n++) {
		const char *k = keys->pdata[n];
		char *title = g_strdup_printf("%s by point: mean +- 95%% CI (change against %s; "
					      "*...* = significant)",
					      k, json_string_value(json_object_get(base, "name")));
		metric_table(points, k, report_section_add(sections, title)->body);
		g_free(title);
	}
	g_ptr_array_free(keys, TRUE);
	report_sweep_cachelines(points, label_width(points), sections);
	size_t i;
	json_t *p;
	json_array_foreach (points, i, p) {
		char *title = g_strdup_printf("point %zu: %s", i,
					      json_string_value(json_object_get(p, "label")));
		GString *body = report_section_add(sections, title)->body;
		g_free(title);
		json_t *vars = result_point_variants(p);
		if (json_array_size(vars) >= 2) {
			report_compare(vars, body);
			g_string_append_c(body, '\n');
		}
		report_duration(vars, body);
	}
	return sections;
}

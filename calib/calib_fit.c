// SPDX-License-Identifier: GPL-2.0-or-later
/* calib: the grid search and its report (calib.h). */
#include "calib.h"
#include "calib_run.h"
#include "preset.h"
#include <math.h>
#include <string.h>

/* How well the model's values at some parameters meet every point. */
struct calib_score {
	double worst;		      /* the largest |model / measured - 1| */
	double sumsq;		      /* the sum of squared log(model / measured) */
	const struct calib_curve *at; /* where the worst is */
	double at_x, at_err;
};

static int grid_n(const struct calib_param *p)
{
	return (int)lround((p->hi - p->lo) / p->step);
}

static double grid_value(const struct calib_param *p, int i)
{
	return i == grid_n(p) ? p->hi : p->lo + i * p->step;
}

static struct calib_score score(const struct calib_cache *k, const struct calib_spec *s,
				const double *values)
{
	struct calib_score sc = {0};
	for (guint ci = 0; ci < s->curves->len; ci++) {
		const struct calib_curve *c = s->curves->pdata[ci];
		for (guint pi = 0; pi < c->points->len; pi++) {
			const struct calib_point *pt = c->points->pdata[pi];
			double m = calib_value(k, s, c, pt, values), e = m / pt->measured - 1;
			sc.sumsq += log(m / pt->measured) * log(m / pt->measured);
			if (fabs(e) > sc.worst || !sc.at) {
				sc.worst = fabs(e);
				sc.at = c;
				sc.at_x = pt->x;
				sc.at_err = e;
			}
		}
	}
	return sc;
}

static bool better(struct calib_score a, struct calib_score b)
{
	if (fabs(a.worst - b.worst) > 1e-9)
		return a.worst < b.worst;
	return a.sumsq < b.sumsq - 1e-12;
}

/* Parameter @i over its grid, the others at @values: set it to the best;
 * true if it moved. */
static bool fit_one(struct calib_cache *k, const struct calib_spec *s, double *values, int i,
		    bool *moved, GError **err)
{
	const struct calib_param *p = &s->params[i];
	double was = values[i], best = was;
	struct calib_score best_sc = {INFINITY, INFINITY, NULL, 0, 0};
	for (int g = 0; g <= grid_n(p); g++) {
		values[i] = grid_value(p, g);
		if (!calib_run_all(k, s, values, err))
			return false;
		struct calib_score sc = score(k, s, values);
		if (better(sc, best_sc)) {
			best_sc = sc;
			best = values[i];
		}
	}
	values[i] = best;
	*moved = best != was;
	return true;
}

/* @p's range: the grid values next to the fit, out from it, over which the
 * worst error stays within the bound (the others at the fit). */
static void param_range(struct calib_cache *k, const struct calib_spec *s, double *values, int i)
{
	struct calib_param *p = &s->params[i];
	double fit = values[i];
	int at = (int)lround((fit - p->lo) / p->step);
	p->range_lo = p->range_hi = fit;
	for (int dir = -1; dir <= 1; dir += 2)
		for (int g = at + dir; g >= 0 && g <= grid_n(p); g += dir) {
			values[i] = grid_value(p, g);
			if (score(k, s, values).worst > s->bound)
				break;
			if (dir < 0)
				p->range_lo = values[i];
			else
				p->range_hi = values[i];
		}
	values[i] = fit;
}

static void preset_values(struct calib_spec *s)
{
	const struct preset *pr = preset_find(s->preset);
	for (int i = 0; pr && i < s->nparams; i++) {
		const struct preset_value *v = preset_cost(pr, s->params[i].key);
		if (v)
			s->params[i].preset = v->value;
	}
}

static void report_params(const struct calib_spec *s, GString *out)
{
	g_string_append_printf(out, "%-22s %10s  %-26s %-22s %s\n", "parameter", "fit",
			       "range (all within bound)", "grid", "preset");
	bool same = true;
	for (int i = 0; i < s->nparams; i++) {
		const struct calib_param *p = &s->params[i];
		char *range = g_strdup_printf("%g - %g", p->range_lo, p->range_hi);
		char *grid = g_strdup_printf("%g - %g by %g", p->lo, p->hi, p->step);
		char *pre =
		    isnan(p->preset) ? g_strdup("(none)") : g_strdup_printf("%g", p->preset);
		g_string_append_printf(out, "%-22s %10g  %-26s %-22s %s\n", p->key, p->fit, range,
				       grid, pre);
		same = same && !isnan(p->preset) && fabs(p->preset - p->fit) < p->step / 2;
		g_free(range);
		g_free(grid);
		g_free(pre);
	}
	g_string_append_printf(out, "%s\n",
			       same ? "The preset's values are this fit's."
				    : "The preset's values are not this fit's.");
}

static void report_curves(const struct calib_cache *k, const struct calib_spec *s,
			  const double *values, GString *out)
{
	for (guint ci = 0; ci < s->curves->len; ci++) {
		const struct calib_curve *c = s->curves->pdata[ci];
		g_string_append_printf(out, "\n== %s ==\nsource: %s\n", c->name, c->source);
		g_string_append_printf(out, "model: %s, variant %s, %s%s against %s\n", c->scenario,
				       c->variant, c->period ? "1000 x threads / " : "", c->metric,
				       c->measured_what);
		g_string_append_printf(out, "%10s %14s %14s %9s\n", "x", "measured", "model",
				       "error");
		for (guint pi = 0; pi < c->points->len; pi++) {
			const struct calib_point *pt = c->points->pdata[pi];
			double m = calib_value(k, s, c, pt, values);
			g_string_append_printf(out, "%10g %14.6g %14.6g %+8.1f%%\n", pt->x,
					       pt->measured, m, 100 * (m / pt->measured - 1));
		}
	}
}

bool calib_fit(struct calib_spec *s, const char *self, int jobs, GString *out, GError **err)
{
	struct calib_cache k;
	calib_cache_init(&k, self, jobs);
	double *values = g_new(double, (gsize)s->nparams);
	for (int i = 0; i < s->nparams; i++)
		values[i] = grid_value(&s->params[i], grid_n(&s->params[i]) / 2);
	bool ok = true, moved = true;
	for (int sweep = 0; ok && moved && sweep < 5; sweep++) {
		moved = false;
		for (int i = 0; ok && i < s->nparams; i++) {
			bool m = false;
			ok = fit_one(&k, s, values, i, &m, err);
			moved = moved || m;
		}
	}
	if (ok) {
		for (int i = 0; i < s->nparams; i++) {
			s->params[i].fit = values[i];
			param_range(&k, s, values, i);
		}
		preset_values(s);
		guint npoints = 0;
		for (guint ci = 0; ci < s->curves->len; ci++)
			npoints += ((struct calib_curve *)s->curves->pdata[ci])->points->len;
		struct calib_score sc = score(&k, s, values);
		s->worst = sc.at_err;
		g_string_append_printf(
		    out,
		    "memcgsim calibrate: %s: preset %s (family %s)\n"
		    "%u curves, %u points, %d parameters, %ld runs; bound %g%%\n\n",
		    s->path, s->preset, s->family, s->curves->len, npoints, s->nparams, k.runs,
		    100 * s->bound);
		report_params(s, out);
		g_string_append_printf(out, "largest error: %+.1f%% (%s at x = %g)\n",
				       100 * sc.at_err, sc.at->name, sc.at_x);
		report_curves(&k, s, values, out);
	}
	g_free(values);
	calib_cache_fini(&k);
	return ok;
}

// SPDX-License-Identifier: GPL-2.0-or-later
#include "change.h"
#include "metrics.h"
#include "result.h"
#include "stats.h"
#include <glib.h>
#include <math.h>
#include <string.h>

/* To the reports' resolution: no "-0.00%", and 0 is 0 where it shows. */
static double snap(double pct)
{
	return fabs(pct) < 0.005 ? 0 : pct;
}

double change_pct(double base, double v, bool higher_is_better)
{
	if (base == 0)
		return 0;
	return snap(higher_is_better ? v * 100 / base - 100 : 100 - v * 100 / base);
}

/* Welch's interval of the difference of the means, as a change in % of
 * the baseline's mean @mean_base. */
static void seeds_interval(const double *xb, size_t nb, const double *xv, size_t nv,
			   double mean_base, bool higher_is_better, struct change *c)
{
	double lo, hi;
	c->seeds = mean_base != 0 && stats_welch_ci95(xb, nb, xv, nv, &lo, &hi);
	if (!c->seeds)
		return;
	double sign = higher_is_better ? 1 : -1;
	double a = snap(sign * lo * 100 / mean_base), b = snap(sign * hi * 100 / mean_base);
	c->seeds_lo = MIN(a, b);
	c->seeds_hi = MAX(a, b);
}

/* The paired changes of the cost draws both variants have, and where the
 * middle 95% of them lie. */
static void draws_interval(json_t *base, json_t *v, const char *metric, bool higher_is_better,
			   struct change *c)
{
	size_t nb, nv;
	double *xb = result_draw_samples(base, metric, &nb);
	double *xv = result_draw_samples(v, metric, &nv);
	c->draws = MIN(nb, nv);
	double *g = g_new(double, c->draws ? c->draws : 1);
	for (size_t d = 0; d < c->draws; d++)
		g[d] = change_pct(xb[d], xv[d], higher_is_better);
	if (c->draws) {
		c->percentiles = stats_spread95(g, c->draws, &c->draws_lo, &c->draws_hi);
		c->draws_lo = snap(c->draws_lo);
		c->draws_hi = snap(c->draws_hi);
		c->within_model = c->draws_lo <= 0 && c->draws_hi >= 0;
	}
	g_free(g);
	g_free(xb);
	g_free(xv);
}

void change_of(json_t *base, json_t *v, const char *metric, struct change *c)
{
	const struct run_metric *d = run_metric_find(metric);
	size_t nb, nv;
	double *xb = result_samples(base, metric, &nb), *xv = result_samples(v, metric, &nv);
	struct stats_summary sb, sv;
	stats_summarise(xb, nb, !d->higher_is_better, &sb);
	stats_summarise(xv, nv, !d->higher_is_better, &sv);
	memset(c, 0, sizeof(*c));
	c->base_mean = d->higher_is_better ? sb.hmean : sb.amean;
	c->mean = d->higher_is_better ? sv.hmean : sv.amean;
	c->pct = change_pct(c->base_mean, c->mean, d->higher_is_better);
	c->replicas = MIN(nb, nv);
	c->p = stats_welch_p(xb, nb, xv, nv);
	seeds_interval(xb, nb, xv, nv, sb.amean, d->higher_is_better, c);
	draws_interval(base, v, metric, d->higher_is_better, c);
	double spread = c->draws ? (c->draws_hi - c->draws_lo) / 2 : 0;
	c->resolution_from_draws = spread > CHANGE_MIN_RESOLUTION_PCT;
	c->resolution = MAX(spread, CHANGE_MIN_RESOLUTION_PCT);
	c->material = fabs(c->pct) >= c->resolution;
	c->significant = c->p < 0.05 && !c->within_model && c->material;
	g_free(xb);
	g_free(xv);
}

size_t change_draws(json_t *variants)
{
	size_t most = 0, i;
	json_t *v;
	json_array_foreach (variants, i, v)
		most = MAX(most, json_array_size(json_object_get(v, "draws")));
	return most;
}

const char *change_draws_spread(size_t n)
{
	return n >= STATS_SPREAD95_MIN ? "2.5th-97.5th percentile" : "min-max";
}

char *change_verdict(const struct change *c)
{
	if (c->within_model)
		return g_strdup("within model uncertainty");
	if (!c->material)
		return g_strdup_printf("no material difference (%.2f%% < resolution %.2f%%, %s)",
				       fabs(c->pct), c->resolution,
				       c->resolution_from_draws ? "half the cost draws' interval"
								: "the model's stated minimum");
	if (c->significant)
		return g_strdup("significant");
	if (c->replicas < 2)
		return g_strdup("not significant (no test across seeds: fewer than 2 replicas)");
	return g_strdup_printf("not significant (Welch p %.2f)", c->p);
}

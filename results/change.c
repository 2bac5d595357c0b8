// SPDX-License-Identifier: GPL-2.0-or-later
#include "change.h"
#include "metrics.h"
#include "result.h"
#include "result_keys.h"
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
		return v == 0 ? 0 : NAN; /* a change from 0 has no % */
	return snap(higher_is_better ? v * 100 / base - 100 : 100 - v * 100 / base);
}

/* The interval [@lo, @hi] of the difference, as a change in % of the
 * baseline's mean @mean_base. */
static void interval_pct(double lo, double hi, double mean_base, bool higher_is_better,
			 struct change *c)
{
	double sign = higher_is_better ? 1 : -1;
	double a = snap(sign * lo * 100 / mean_base), b = snap(sign * hi * 100 / mean_base);
	c->seeds_lo = MIN(a, b);
	c->seeds_hi = MAX(a, b);
}

/* Welch's interval of the difference of the means. */
static void seeds_interval(const double *xb, size_t nb, const double *xv, size_t nv,
			   double mean_base, bool higher_is_better, struct change *c)
{
	double lo, hi;
	c->seeds = mean_base != 0 && stats_welch_ci95(xb, nb, xv, nv, &lo, &hi);
	if (c->seeds)
		interval_pct(lo, hi, mean_base, higher_is_better, c);
}

/* One replica each: the test and interval of the two runs' batch means,
 * when both recorded batches of @metric. The interval covers the steady
 * parts; what lies outside them (the warm-up, and from the first exit on)
 * is taken as it came: when the two runs differ there by more than the
 * interval's half-width, the change is not decided within the runs. */
static void batches_interval(json_t *base, json_t *v, const char *metric, double xb, double xv,
			     bool higher_is_better, struct change *c)
{
	size_t nb, nv;
	double *ib = result_batch_increments(base, metric, &nb);
	double *iv = result_batch_increments(v, metric, &nv);
	struct stats_batch bb, bv;
	double lo, hi, p;
	if (ib && iv && xb != 0 && stats_batch_means(ib, nb, &bb) &&
	    stats_batch_means(iv, nv, &bv) && stats_batch_welch(&bb, xb, &bv, xv, &p, &lo, &hi)) {
		double outside = (xv - bv.steady) - (xb - bb.steady);
		if (fabs(outside) > (hi - lo) / 2) {
			c->unsteady = true;
			c->unsteady_pct = snap(fabs(outside) * 100 / fabs(xb));
		} else {
			c->p = p;
			c->seeds = true;
			c->batches = MIN(bb.k, bv.k);
			interval_pct(lo, hi, xb, higher_is_better, c);
		}
	}
	g_free(ib);
	g_free(iv);
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

/* --resolution: a minimum for every metric, and metrics' own. */
struct change_resolution {
	bool given;
	double all;
	char *all_why;
	GHashTable *by_metric; /* metric -> struct given_resolution */
};

struct given_resolution {
	double pct;
	char *why; /* "--resolution METRIC=PCT" */
};

static void given_free(gpointer p)
{
	struct given_resolution *g = p;
	g_free(g->why);
	g_free(g);
}

struct change_resolution *change_resolution_new(void)
{
	struct change_resolution *r = g_new0(struct change_resolution, 1);
	r->all = CHANGE_MIN_RESOLUTION_PCT;
	r->by_metric = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, given_free);
	return r;
}

void change_resolution_free(struct change_resolution *r)
{
	if (!r)
		return;
	g_hash_table_destroy(r->by_metric);
	g_free(r->all_why);
	g_free(r);
}

static bool metric_name_ok(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!g_ascii_isalnum(s[i]) && s[i] != '_' && s[i] != '.')
			return false;
	return true;
}

bool change_resolution_set(struct change_resolution *r, const char *spec, GError **err)
{
	const char *eq = strchr(spec, '=');
	const char *num = eq ? eq + 1 : spec;
	char *end = NULL;
	double pct = g_ascii_strtod(num, &end);
	if ((eq && !metric_name_ok(spec, (size_t)(eq - spec))) || !*num || *end || !isfinite(pct) ||
	    pct < 0 || pct > 100) {
		g_set_error(
		    err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
		    "--resolution: expected PCT or METRIC=PCT, PCT from 0 to 100, got \"%s\"",
		    spec);
		return false;
	}
	char *why = g_strdup_printf("--resolution %s", spec);
	if (!eq) {
		r->given = true;
		r->all = pct;
		g_free(r->all_why);
		r->all_why = why;
		return true;
	}
	struct given_resolution *g = g_new(struct given_resolution, 1);
	g->pct = pct;
	g->why = why;
	g_hash_table_insert(r->by_metric, g_strndup(spec, (gsize)(eq - spec)), g);
	return true;
}

/* Is @metric a figure of a variant of @variants? */
static bool variants_have(json_t *variants, const char *metric)
{
	size_t i;
	json_t *v;
	json_array_foreach (variants, i, v)
		if (json_object_get(json_object_get(v, RK_metrics), metric))
			return true;
	return false;
}

char *change_resolution_unknown(const struct change_resolution *r, json_t *variants)
{
	if (!r)
		return NULL;
	GHashTableIter it;
	gpointer k;
	const char *least = NULL; /* of those missing: the first by name, for a stable message */
	g_hash_table_iter_init(&it, r->by_metric);
	while (g_hash_table_iter_next(&it, &k, NULL))
		if (!variants_have(variants, k) && (!least || strcmp(k, least) < 0))
			least = k;
	return g_strdup(least);
}

/* The minimum on @metric and what set it. */
static double min_resolution(const struct change_resolution *r, const char *metric,
			     const char **why)
{
	const struct given_resolution *g = r ? g_hash_table_lookup(r->by_metric, metric) : NULL;
	if (g) {
		*why = g->why;
		return g->pct;
	}
	if (r && r->given) {
		*why = r->all_why;
		return r->all;
	}
	*why = "the model's stated minimum";
	return CHANGE_MIN_RESOLUTION_PCT;
}

double change_resolution_pct(const struct change_resolution *r, const char *metric)
{
	const char *why;
	return min_resolution(r, metric, &why);
}

void change_of(json_t *base, json_t *v, const char *metric, const struct change_resolution *r,
	       struct change *c)
{
	struct run_metric info;
	const struct run_metric *d = metric_info(base, metric, &info);
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
	if (nb == 1 && nv == 1)
		batches_interval(base, v, metric, xb[0], xv[0], d->higher_is_better, c);
	draws_interval(base, v, metric, d->higher_is_better, c);
	c->from_zero = isnan(c->pct);
	if (c->from_zero) { /* the intervals are in % of the baseline: none */
		c->seeds = c->unsteady = c->within_model = false;
		c->batches = c->draws = 0;
	}
	double spread = c->draws ? (c->draws_hi - c->draws_lo) / 2 : 0;
	double least = min_resolution(r, metric, &c->resolution_why);
	c->resolution_from_draws = spread > least;
	c->resolution = MAX(spread, least);
	if (c->resolution_from_draws)
		c->resolution_why = "half the cost draws' interval";
	c->material = c->from_zero || fabs(c->pct) >= c->resolution;
	c->significant = c->p < 0.05 && !c->within_model && c->material;
	g_free(xb);
	g_free(xv);
}

size_t change_draws(json_t *variants)
{
	size_t most = 0, i;
	json_t *v;
	json_array_foreach (variants, i, v)
		most = MAX(most, json_array_size(json_object_get(v, RK_draws)));
	return most;
}

const char *change_draws_spread(size_t n)
{
	return n >= STATS_SPREAD95_MIN ? "2.5th-97.5th percentile" : "min-max";
}

const char *change_pct_text(char buf[32], const char *fmt, double pct)
{
	if (isnan(pct))
		return "new";
	g_snprintf(buf, 32, fmt, pct);
	return buf;
}

char *change_verdict(const struct change *c)
{
	if (c->from_zero && c->replicas < 2)
		return g_strdup(
		    "new: the baseline's figure is 0 (no test across seeds: fewer than 2 "
		    "replicas)");
	if (c->from_zero)
		return g_strdup_printf(
		    "new: the baseline's figure is 0 (%s, Welch p %.2f across %zu "
		    "seeds)",
		    c->significant ? "significant" : "not significant", c->p, c->replicas);
	if (c->within_model)
		return g_strdup("within model uncertainty");
	if (!c->material)
		return g_strdup_printf("no material difference (%.2f%% < resolution %.2f%%, %s)",
				       fabs(c->pct), c->resolution, c->resolution_why);
	if (c->unsteady)
		return g_strdup_printf("not decided (one replica: %.2f%% of the baseline differs "
				       "outside the runs' steady parts, the warm-up and the exits, "
				       "which batch means do not cover; give --replicas 3)",
				       c->unsteady_pct);
	if (c->batches)
		return g_strdup_printf(
		    "%s%.2f, batch means within the run, 95%% CI [%.2f%%, %.2f%%])",
		    c->significant ? "significant (p " : "not significant (p ", c->p, c->seeds_lo,
		    c->seeds_hi);
	if (c->significant)
		return g_strdup_printf("significant (across %zu seeds)", c->replicas);
	if (c->replicas < 2)
		return g_strdup("not significant (no test across seeds: fewer than 2 replicas)");
	return g_strdup_printf("not significant (Welch p %.2f across %zu seeds)", c->p,
			       c->replicas);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* change: a variant's change against the baseline in one figure, as the
 * reports give it (docs/results.md, "Changes and their uncertainty"): in
 * percent with positive = better (mmtests), its interval across seeds and,
 * when the results have cost draws, across them, and whether it is
 * significant.
 *
 * Across seeds: Welch's 95% confidence interval of the difference of the
 * replicas' means, in percent of the baseline's mean. Across cost draws:
 * the change of each draw (variant draw d against baseline draw d: the same
 * costs' quantiles and the same seed) and where the middle 95% of those
 * lie (stats_spread95: the 2.5th-97.5th percentiles, or min-max below
 * STATS_SPREAD95_MIN draws). A change whose draw interval covers 0 is
 * within model uncertainty, and never significant; otherwise it is
 * significant when Welch's t-test across seeds gives p < 0.05. With one
 * replica a variant, the interval and the test come from the batch means
 * within each run (stats_batch_means), when both runs recorded batches of
 * the figure. Values are taken at the reports' resolution, 0.01%. */
#pragma once
#include <glib.h>
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

struct change {
	double pct; /* of the main statistic: Hmean for a rate, else Amean */
	/* The baseline's statistic is 0 and the variant's is not: no change in
	 * % exists (pct is NAN); the figure is new. */
	bool from_zero;
	double base_mean, mean; /* that statistic of the baseline and of the variant */
	size_t replicas;	/* the fewer of the two variants' */
	double p;		/* Welch's t-test, two-sided: across seeds, or of the batch means */
	/* The change's 95% interval is defined: across seeds (2 replicas each),
	 * or, with one replica each, from the batch means within the two runs
	 * (batches > 0: the fewer steady batches of the two). */
	bool seeds;
	double seeds_lo, seeds_hi; /* in % */
	size_t batches;
	/* One replica each, but the two runs differ outside their steady parts
	 * (the warm-up, the exits) by more than the batch means' half-interval:
	 * that part of the change (in %) has no interval, and no test is made. */
	bool unsteady;
	double unsteady_pct;
	size_t draws;		   /* cost draws paired (0: none) */
	bool percentiles;	   /* the draws' interval: 2.5th-97.5th percentiles, or min-max */
	double draws_lo, draws_hi; /* in % */
	bool within_model;	   /* the draws' interval covers 0 */
	/* The model's resolution on the metric, in %: CHANGE_MIN_RESOLUTION_PCT,
	 * or half the draws' interval when that is wider; a smaller change is
	 * no material difference, whatever the seeds say. */
	double resolution;
	bool resolution_from_draws;
	const char *resolution_why; /* what set it, for the verdict */
	bool material;
	bool significant;
};

/* The smallest change the model claims to resolve (docs/results.md). */
#define CHANGE_MIN_RESOLUTION_PCT 1.0

/* The reader's own minimums (--resolution), passed to what compares; NULL
 * everywhere stands for none given: CHANGE_MIN_RESOLUTION_PCT on every
 * metric. */
struct change_resolution;
struct change_resolution *change_resolution_new(void);
void change_resolution_free(struct change_resolution *r);
/* Into @r: "PCT" for every metric, or "METRIC=PCT" for one (the later of
 * two for the same metric wins), PCT from 0 to 100. False with the error
 * when @spec is neither. */
bool change_resolution_set(struct change_resolution *r, const char *spec, GError **err);
/* The minimum on @metric (before the cost draws' say): @r's, or
 * CHANGE_MIN_RESOLUTION_PCT. */
double change_resolution_pct(const struct change_resolution *r, const char *metric);

/* @v against @base, positive = better (a rate: new * 100 / base - 100,
 * else 100 - new * 100 / base); 0 when @base is. */
double change_pct(double base, double v, bool higher_is_better);
/* The change of variant @v against @base in @metric (a "metrics" key, or
 * "cpu_time_ns.<category>"), material past @r's minimum. */
void change_of(json_t *base, json_t *v, const char *metric, const struct change_resolution *r,
	       struct change *c);
/* The most cost draws a variant of @variants has (0: none). */
size_t change_draws(json_t *variants);
/* How the interval of @n draws is taken: "min-max" or "2.5th-97.5th percentile". */
const char *change_draws_spread(size_t n);
/* "within model uncertainty", "no material difference (...)",
 * "significant (across 3 seeds)", "not significant (Welch p 0.31 across 3
 * seeds)", with batch means "significant (p 0.00, batch means within the
 * run, 95% CI [1.95%, 4.05%])" or "not significant (p 0.15, batch means
 * within the run, 95% CI [...])", or, with fewer than 2 replicas a variant and no
 * batches, "not significant (no test across seeds: ...)"; g_free it. */
char *change_verdict(const struct change *c);
/* @pct as a table cell: @fmt ("%+.2f%%") into @buf, or "new" for a change
 * from a zero baseline (NAN). */
const char *change_pct_text(char buf[32], const char *fmt, double pct);
/* The first (by name) metric that --resolution METRIC=PCT named and no
 * variant of @variants has (g_free it), or NULL: a typo is said, not
 * ignored. */
char *change_resolution_unknown(const struct change_resolution *r, json_t *variants);

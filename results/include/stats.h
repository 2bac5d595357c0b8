/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stats: summary statistics of replica samples, mmtests style, over GSL. */
#pragma once
#include <stdbool.h>
#include <stddef.h>

struct stats_summary {
	size_t n;
	double min, max, amean, hmean, stddev, coeffvar;
	double bamean50, bamean95, bamean99; /* mean of the best 50/95/99% */
};

/* @lower_is_better decides which samples are "best" for BAmean. */
void stats_summarise(const double *x, size_t n, bool lower_is_better, struct stats_summary *s);
/* Welch's two-sample t-test: the two-sided p-value (1 when undefined). */
double stats_welch_p(const double *a, size_t na, const double *b, size_t nb);
/* Welch's 95% confidence interval of mean(b) - mean(a); false when it is
 * undefined (fewer than 2 samples in either). */
bool stats_welch_ci95(const double *a, size_t na, const double *b, size_t nb, double *lo,
		      double *hi);
/* Where the middle 95% of the @n (>= 1) samples @x lie: from
 * STATS_SPREAD95_MIN samples on, their 2.5th and 97.5th percentiles
 * (linear interpolation between order statistics; true), else their
 * minimum and maximum (false). */
#define STATS_SPREAD95_MIN 40
bool stats_spread95(const double *x, size_t n, double *lo, double *hi);
/* Half-width of the 95% confidence interval of the mean (Student's t). */
double stats_ci95(const double *x, size_t n);

/* Batch means within one run (docs/results.md, "Batch means within the
 * run"): @x are the increments of a figure over the run's fine batches of
 * equal work, in order. They are summed in batches of STATS_BATCH_GROUP;
 * MSER-5 (White 1997: MSER on batches of 5) truncates the warm-up, at most
 * half the batches; the k batches left are the steady part, whose sum has
 * the variance k s^2 (s^2 the batches' sample variance: the non-overlapping
 * batch means estimate, Law & Kelton ch. 9) with k - 1 degrees of freedom.
 * The warm-up's increments and what comes after the last fine batch (the
 * exit) are constants to it. False when there are fewer than 4 batches,
 * or more than STATS_BATCH_MAX increments (a run records 100). */
#define STATS_BATCH_GROUP 5
#define STATS_BATCH_MAX 10000
struct stats_batch {
	size_t warmup;	/* batches truncated */
	size_t k;	/* batches left, the steady part */
	double before;	/* the sum of the increments truncated */
	double steady;	/* the sum of the steady part's */
	double var, se; /* the variance of that sum (k s^2), its square root */
	double df;	/* k - 1 */
	double half;	/* of its 95% interval: t(0.975, k - 1) se */
	size_t lag;	/* stats_batch_spectral's window M; 0: the batch means stand */
};
bool stats_batch_means(const double *x, size_t n, struct stats_batch *b);
/* The same steady part (MSER-5 on the batches), its sum's variance the
 * long-run variance of the steady fine increments times their number n:
 * the flat-top lag-window estimate (Politis and Romano 1995, trapezoid
 * kernel), its window M = 2m, m by Politis and White's (2004) empirical
 * rule over STATS_FLATTOP_K lags, 1.5 n / M equivalent degrees of freedom
 * (docs/results.md). When that estimate is not positive (a flat top can be
 * negative), @b keeps the batch means (lag 0). False as stats_batch_means. */
#define STATS_FLATTOP_K 5
bool stats_batch_spectral(const double *x, size_t n, struct stats_batch *b);
/* Welch's test and 95% interval of @xb - @xa, two figures of independent
 * runs with their batch means @a and @b (the variances of the two sums
 * added, the Welch-Satterthwaite degrees of freedom); false when either
 * has fewer than 2 steady batches. */
bool stats_batch_welch(const struct stats_batch *a, double xa, const struct stats_batch *b,
		       double xb, double *p, double *lo, double *hi);

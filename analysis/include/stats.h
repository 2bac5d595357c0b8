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

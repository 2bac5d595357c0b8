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
/* Half-width of the 95% confidence interval of the mean (Student's t). */
double stats_ci95(const double *x, size_t n);

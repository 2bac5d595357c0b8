// SPDX-License-Identifier: GPL-2.0-or-later
#include "stats.h"
#include <glib.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <string.h>

static double best_mean(const double *sorted, size_t n, bool lower_is_better, double frac)
{
	size_t k = (size_t)floor((double)n * frac);
	if (k < 1)
		k = 1;
	double sum = 0;
	for (size_t i = 0; i < k; i++)
		sum += lower_is_better ? sorted[i] : sorted[n - 1 - i];
	return sum / (double)k;
}

void stats_summarise(const double *x, size_t n, bool lower_is_better, struct stats_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->n = n;
	if (!n)
		return;
	double *y = g_memdup2(x, n * sizeof(double));
	gsl_sort(y, 1, n);
	s->min = y[0];
	s->max = y[n - 1];
	s->amean = gsl_stats_mean(y, 1, n);
	double inv = 0;
	bool positive = true;
	for (size_t i = 0; i < n; i++) {
		positive &= y[i] > 0;
		inv += positive ? 1 / y[i] : 0;
	}
	s->hmean = positive ? (double)n / inv : 0;
	s->stddev = n > 1 ? gsl_stats_sd(y, 1, n) : 0;
	s->coeffvar = s->amean != 0 ? 100 * s->stddev / fabs(s->amean) : 0;
	s->bamean50 = best_mean(y, n, lower_is_better, 0.50);
	s->bamean95 = best_mean(y, n, lower_is_better, 0.95);
	s->bamean99 = best_mean(y, n, lower_is_better, 0.99);
	g_free(y);
}

/* Welch's statistics of mean(b) - mean(a): the difference, its standard
 * error and the Welch-Satterthwaite degrees of freedom; false when they are
 * undefined (fewer than 2 samples in either). The degrees of freedom are
 * taken from the variances' shares (no square of a variance, which
 * overflows for values near double's range, as a hostile result's can be)
 * and held between min(na, nb) - 1 and na + nb - 2, where they lie: GSL's t
 * distribution aborts the process on a NaN or a huge one. */
struct welch {
	double diff, se, df;
};

static bool welch(const double *a, size_t na, const double *b, size_t nb, struct welch *w)
{
	if (na < 2 || nb < 2)
		return false;
	double va = gsl_stats_variance(a, 1, na) / (double)na;
	double vb = gsl_stats_variance(b, 1, nb) / (double)nb;
	w->diff = gsl_stats_mean(b, 1, nb) - gsl_stats_mean(a, 1, na);
	w->se = sqrt(va + vb);
	double ra = va / (va + vb), rb = vb / (va + vb);
	double df = 1 / (ra * ra / (double)(na - 1) + rb * rb / (double)(nb - 1));
	double lo = (double)MIN(na, nb) - 1, hi = (double)(na + nb - 2);
	w->df = va + vb == 0 ? 0 : isnan(df) ? lo : CLAMP(df, lo, hi);
	return true;
}

double stats_welch_p(const double *a, size_t na, const double *b, size_t nb)
{
	struct welch w;
	if (!welch(a, na, b, nb, &w))
		return 1;
	if (w.se == 0)
		return w.diff == 0 ? 1 : 0;
	double t = fabs(w.diff / w.se);
	if (!isfinite(t)) /* a difference past double's range, or no standard error left */
		return isnan(t) ? 1 : 0;
	return 2 * gsl_cdf_tdist_Q(t, w.df);
}

bool stats_welch_ci95(const double *a, size_t na, const double *b, size_t nb, double *lo,
		      double *hi)
{
	struct welch w;
	if (!welch(a, na, b, nb, &w))
		return false;
	double half = w.se == 0 ? 0 : gsl_cdf_tdist_Qinv(0.025, w.df) * w.se;
	*lo = w.diff - half;
	*hi = w.diff + half;
	return true;
}

bool stats_spread95(const double *x, size_t n, double *lo, double *hi)
{
	double *y = g_memdup2(x, n * sizeof(double));
	gsl_sort(y, 1, n);
	bool percentiles = n >= STATS_SPREAD95_MIN;
	*lo = percentiles ? gsl_stats_quantile_from_sorted_data(y, 1, n, 0.025) : y[0];
	*hi = percentiles ? gsl_stats_quantile_from_sorted_data(y, 1, n, 0.975) : y[n - 1];
	g_free(y);
	return percentiles;
}

double stats_ci95(const double *x, size_t n)
{
	if (n < 2)
		return 0;
	return gsl_cdf_tdist_Qinv(0.025, (double)(n - 1)) * gsl_stats_sd(x, 1, n) / sqrt((double)n);
}

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

/* Welch's statistics of two estimates: @va and @vb the variances of the
 * estimates, @dfa and @dfb their degrees of freedom. */
static void welch_of(double diff, double va, double dfa, double vb, double dfb, struct welch *w)
{
	w->diff = diff;
	w->se = sqrt(va + vb);
	double ra = va / (va + vb), rb = vb / (va + vb);
	double df = 1 / (ra * ra / dfa + rb * rb / dfb);
	double lo = MIN(dfa, dfb), hi = dfa + dfb;
	w->df = va + vb == 0 ? 0 : isnan(df) ? lo : CLAMP(df, lo, hi);
}

static bool welch(const double *a, size_t na, const double *b, size_t nb, struct welch *w)
{
	if (na < 2 || nb < 2)
		return false;
	double va = gsl_stats_variance(a, 1, na) / (double)na;
	double vb = gsl_stats_variance(b, 1, nb) / (double)nb;
	welch_of(gsl_stats_mean(b, 1, nb) - gsl_stats_mean(a, 1, na), va, (double)(na - 1), vb,
		 (double)(nb - 1), w);
	return true;
}

static double welch_p(const struct welch *w)
{
	if (w->se == 0)
		return w->diff == 0 ? 1 : 0;
	double t = fabs(w->diff / w->se);
	if (!isfinite(t)) /* a difference past double's range, or no standard error left */
		return isnan(t) ? 1 : 0;
	return 2 * gsl_cdf_tdist_Q(t, w->df);
}

static void welch_ci95(const struct welch *w, double *lo, double *hi)
{
	double half = w->se == 0 ? 0 : gsl_cdf_tdist_Qinv(0.025, w->df) * w->se;
	*lo = w->diff - half;
	*hi = w->diff + half;
}

double stats_welch_p(const double *a, size_t na, const double *b, size_t nb)
{
	struct welch w;
	return welch(a, na, b, nb, &w) ? welch_p(&w) : 1;
}

bool stats_welch_ci95(const double *a, size_t na, const double *b, size_t nb, double *lo,
		      double *hi)
{
	struct welch w;
	if (!welch(a, na, b, nb, &w))
		return false;
	welch_ci95(&w, lo, hi);
	return true;
}

bool stats_batch_welch(const struct stats_batch *a, double xa, const struct stats_batch *b,
		       double xb, double *p, double *lo, double *hi)
{
	if (a->k < 2 || b->k < 2 || !isfinite(a->var) || !isfinite(b->var))
		return false;
	struct welch w;
	welch_of(xb - xa, a->var, a->df, b->var, b->df, &w);
	*p = welch_p(&w);
	welch_ci95(&w, lo, hi);
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

/* MSER (White 1997) on the @m batch sums @y: the truncation d in 0..m/2
 * that minimises the squared standard error of the mean of what is left,
 * sum((y_i - mean)^2) / (m - d)^2; the first of equal ones. */
static size_t mser(const double *y, size_t m)
{
	size_t best = 0;
	double least = INFINITY;
	for (size_t d = 0; d <= m / 2 && m - d >= 2; d++) {
		double mean = gsl_stats_mean(y + d, 1, m - d), ss = 0;
		for (size_t i = d; i < m; i++)
			ss += (y[i] - mean) * (y[i] - mean);
		double v = ss / ((double)(m - d) * (double)(m - d));
		if (v < least) {
			least = v;
			best = d;
		}
	}
	return best;
}

bool stats_batch_means(const double *x, size_t n, struct stats_batch *b)
{
	memset(b, 0, sizeof(*b));
	size_t m = n / STATS_BATCH_GROUP, lead = n % STATS_BATCH_GROUP;
	if (m < 4 || n > STATS_BATCH_MAX) /* MSER takes m^2 steps: a hostile file's */
		return false;
	double *y = g_new0(double, m);
	for (size_t j = 0; j < m; j++)
		for (size_t i = 0; i < STATS_BATCH_GROUP; i++)
			y[j] += x[lead + j * STATS_BATCH_GROUP + i];
	b->warmup = mser(y, m);
	b->k = m - b->warmup;
	for (size_t i = 0; i < lead + b->warmup * STATS_BATCH_GROUP; i++)
		b->before += x[i];
	for (size_t j = b->warmup; j < m; j++)
		b->steady += y[j];
	b->var = (double)b->k * gsl_stats_variance(y + b->warmup, 1, b->k);
	b->se = sqrt(b->var);
	b->df = (double)(b->k - 1);
	b->half = b->se == 0 ? 0 : gsl_cdf_tdist_Qinv(0.025, b->df) * b->se;
	g_free(y);
	return true;
}

/* The lag-@j sample autocovariance of the @n values @x about @mean (divided
 * by n, as the lag window's estimate wants: positive semi-definite). */
static double autocov(const double *x, size_t n, double mean, size_t j)
{
	double s = 0;
	for (size_t i = 0; i + j < n; i++)
		s += (x[i] - mean) * (x[i + j] - mean);
	return s / (double)n;
}

/* Politis (2003), Politis and White (2004): the smallest lag m after which
 * the next STATS_FLATTOP_K sample autocorrelations are all within 2
 * sqrt(log10(n) / n); searched up to sqrt(n) + K (at most 105 lags of
 * n <= STATS_BATCH_MAX: bounded work), that bound when none is. */
static size_t flattop_m(const double *x, size_t n, double mean, double g0)
{
	size_t top = (size_t)ceil(sqrt((double)n)) + STATS_FLATTOP_K, run = 0;
	double bound = 2 * sqrt(log10((double)n) / (double)n);
	for (size_t j = 1; j <= top + STATS_FLATTOP_K && j < n; j++) {
		run = fabs(autocov(x, n, mean, j) / g0) < bound ? run + 1 : 0;
		if (run == STATS_FLATTOP_K)
			return MIN(j - STATS_FLATTOP_K, top);
	}
	return top;
}

/* The trapezoid flat-top window (Politis and Romano 1995): 1 to M / 2,
 * falling linearly to 0 at M. */
static double flattop_w(size_t j, size_t big_m)
{
	double t = (double)j / (double)big_m;
	return t <= 0.5 ? 1 : t < 1 ? 2 * (1 - t) : 0;
}

bool stats_batch_spectral(const double *x, size_t n, struct stats_batch *b)
{
	if (!stats_batch_means(x, n, b))
		return false;
	size_t from = n % STATS_BATCH_GROUP + b->warmup * STATS_BATCH_GROUP, k = n - from;
	const double *y = x + from;
	double mean = gsl_stats_mean(y, 1, k), g0 = autocov(y, k, mean, 0);
	if (!(g0 > 0) || !isfinite(g0)) /* constant, or past double's range */
		return true;
	size_t big_m = MIN(2 * flattop_m(y, k, mean, g0), k - 1);
	double lrv = g0;
	for (size_t j = 1; j < big_m; j++)
		lrv += 2 * flattop_w(j, big_m) * autocov(y, k, mean, j);
	double var = (double)k * lrv;
	if (!(var > 0) || !isfinite(var)) /* a flat top can be negative: batch means */
		return true;
	b->lag = big_m;
	b->var = var;
	b->se = sqrt(var);
	b->df = MAX(1.5 * (double)k / (double)big_m, 1);
	b->half = gsl_cdf_tdist_Qinv(0.025, b->df) * b->se;
	return true;
}

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

double stats_welch_p(const double *a, size_t na, const double *b, size_t nb)
{
	if (na < 2 || nb < 2)
		return 1;
	double ma = gsl_stats_mean(a, 1, na), mb = gsl_stats_mean(b, 1, nb);
	double va = gsl_stats_variance(a, 1, na) / (double)na;
	double vb = gsl_stats_variance(b, 1, nb) / (double)nb;
	if (va + vb == 0)
		return ma == mb ? 1 : 0;
	double t = (ma - mb) / sqrt(va + vb);
	double df = (va + vb) * (va + vb) /
		    (va * va / (double)(na - 1) + vb * vb / (double)(nb - 1));
	return 2 * gsl_cdf_tdist_Q(fabs(t), df);
}

double stats_ci95(const double *x, size_t n)
{
	if (n < 2)
		return 0;
	return gsl_cdf_tdist_Qinv(0.025, (double)(n - 1)) * gsl_stats_sd(x, 1, n) / sqrt((double)n);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* Summary statistics, Welch's t-test and interval, and the middle 95% of
 * samples, against hand-computed values. */
#include "stats.h"
#include <glib.h>
#include <math.h>

static void test_summary(void)
{
	const double x[] = {510, 520, 530, 556};
	struct stats_summary s;
	stats_summarise(x, 4, true, &s);
	g_assert_cmpfloat_with_epsilon(s.min, 510, 1e-12);
	g_assert_cmpfloat_with_epsilon(s.max, 556, 1e-12);
	g_assert_cmpfloat_with_epsilon(s.amean, 529, 1e-12);
	/* sample sd: sqrt(((-19)^2 + (-9)^2 + 1^2 + 27^2) / 3) = sqrt(1172/3) */
	g_assert_cmpfloat_with_epsilon(s.stddev, 19.7652894, 1e-6);
	g_assert_cmpfloat_with_epsilon(s.bamean50, 515, 1e-12); /* best half: 510, 520 */
	g_assert_cmpfloat_with_epsilon(s.hmean, 4 / (1 / 510.0 + 1 / 520.0 + 1 / 530.0 + 1 / 556.0),
				       1e-9);
	stats_summarise(x, 4, false, &s);
	g_assert_cmpfloat_with_epsilon(s.bamean50, 543, 1e-12); /* best half, higher: 556, 530 */
}

static void test_welch(void)
{
	/* a: mean 2, var 1 (n=3); b: mean 5, var 1 (n=3):
	 * t = -3 / sqrt(2/3) = -3.674235, df = 4, two-sided p = 0.021312. */
	const double a[] = {1, 2, 3}, b[] = {4, 5, 6};
	g_assert_cmpfloat_with_epsilon(stats_welch_p(a, 3, b, 3), 0.021312, 2e-6);
	g_assert_cmpfloat_with_epsilon(stats_welch_p(a, 3, a, 3), 1.0, 1e-12);
	g_assert_cmpfloat_with_epsilon(stats_welch_p(a, 1, b, 3), 1.0, 1e-12);
	/* 95% CI half-width of {1,2,3}: t(0.975, 2) * 1 / sqrt(3) = 4.302653 / 1.732051 */
	g_assert_cmpfloat_with_epsilon(stats_ci95(a, 3), 2.484138, 1e-6);
	/* Unequal sizes and variances: c = {1..5} (mean 3, var 2.5), d = {2,4,6}
	 * (mean 4, var 4): s^2 = 2.5/5 + 4/3 = 11/6, t = -1 / sqrt(11/6) =
	 * -0.7385489, df = (11/6)^2 / (0.5^2/4 + (4/3)^2/2) = 3.5328467,
	 * p = I_{df/(df+t^2)}(df/2, 1/2) = 0.5062142 (mpmath, 30 digits). */
	const double c[] = {1, 2, 3, 4, 5}, d[] = {2, 4, 6};
	g_assert_cmpfloat_with_epsilon(stats_welch_p(c, 5, d, 3), 0.5062142, 1e-6);
	g_assert_cmpfloat_with_epsilon(stats_welch_p(d, 3, c, 5), 0.5062142, 1e-6);
	/* 95% CI of c: t(0.975, 4) * sqrt(2.5) / sqrt(5) = 2.7764451 * 0.7071068 */
	g_assert_cmpfloat_with_epsilon(stats_ci95(c, 5), 1.9632432, 1e-6);
}

/* Welch's interval of mean(b) - mean(a), by hand: a = {1,2,3}, b = {4,5,6}:
 * 3 -+ t(0.975, 4) sqrt(2/3) = 3 -+ 2.7764451 * 0.8164966 = 3 -+ 2.2669580. */
static void test_welch_ci(void)
{
	const double a[] = {1, 2, 3}, b[] = {4, 5, 6};
	double lo, hi;
	g_assert_true(stats_welch_ci95(a, 3, b, 3, &lo, &hi));
	g_assert_cmpfloat_with_epsilon(lo, 0.733042, 1e-6);
	g_assert_cmpfloat_with_epsilon(hi, 5.266958, 1e-6);
	const double c[] = {5, 5, 5}, d[] = {7, 7, 7};
	g_assert_true(stats_welch_ci95(c, 3, d, 3, &lo, &hi)); /* no spread: the difference */
	g_assert_cmpfloat(lo, ==, 2);
	g_assert_cmpfloat(hi, ==, 2);
	g_assert_false(stats_welch_ci95(a, 1, b, 3, &lo, &hi));
}

/* Values near double's range (a hostile result's, found by fuzzing: GSL's t
 * distribution aborted on the NaN degrees of freedom that squaring a
 * variance of 1e193 gave): a = {2e5 x 3}, b = {2e5, x, 2e5} with x =
 * 2.08e97: var(b) = x^2 / 3, se = x / 3 = the difference, t = 1, df = 2
 * (a has no spread): p = 2 Q_t(1; 2) = 1 - 1 / sqrt(3) = 0.4226497. */
static void test_welch_huge(void)
{
	const double a[] = {2e5, 2e5, 2e5}, b[] = {2e5, 2.08e97, 2e5};
	g_assert_cmpfloat_with_epsilon(stats_welch_p(a, 3, b, 3), 1 - 1 / sqrt(3), 1e-7);
	double lo, hi;
	g_assert_true(stats_welch_ci95(a, 3, b, 3, &lo, &hi));
	/* 2.08e97 / 3 -+ t(0.975, 2) 2.08e97 / 3, t(0.975, 2) = 4.3026527 */
	g_assert_cmpfloat_with_epsilon(lo / (2.08e97 / 3), 1 - 4.3026527, 1e-6);
	g_assert_cmpfloat_with_epsilon(hi / (2.08e97 / 3), 1 + 4.3026527, 1e-6);
	const double big[] = {1e300, -1e300, 1e300}; /* variance past double's range */
	g_assert_cmpfloat_with_epsilon(stats_welch_p(a, 3, big, 3), 1.0, 1e-12);
}

/* Below STATS_SPREAD95_MIN samples, min and max; from it on, the 2.5th and
 * 97.5th percentiles: of 1..40, 1 + 0.975 = 1.975 and 39 + 0.025 = 39.025. */
static void test_spread95(void)
{
	double x[STATS_SPREAD95_MIN], lo, hi;
	for (int i = 0; i < STATS_SPREAD95_MIN; i++)
		x[i] = STATS_SPREAD95_MIN - i; /* unsorted */
	g_assert_false(stats_spread95(x + 1, STATS_SPREAD95_MIN - 1, &lo, &hi));
	g_assert_cmpfloat(lo, ==, 1);
	g_assert_cmpfloat(hi, ==, STATS_SPREAD95_MIN - 1);
	g_assert_cmpint(STATS_SPREAD95_MIN, ==, 40);
	g_assert_true(stats_spread95(x, STATS_SPREAD95_MIN, &lo, &hi));
	g_assert_cmpfloat_with_epsilon(lo, 1.975, 1e-12);
	g_assert_cmpfloat_with_epsilon(hi, 39.025, 1e-12);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/stats/summary", test_summary);
	g_test_add_func("/stats/welch", test_welch);
	g_test_add_func("/stats/welch-ci", test_welch_ci);
	g_test_add_func("/stats/welch-huge", test_welch_huge);
	g_test_add_func("/stats/spread95", test_spread95);
	return g_test_run();
}

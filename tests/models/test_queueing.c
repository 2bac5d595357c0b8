// SPDX-License-Identifier: GPL-2.0-or-later
/* lockbench against the exact finite-source queueing results
 * (docs/validation.md): M/M/1//N by the closed form (cross-checked with
 * Mean Value Analysis) and M/D/1//N by the embedded Markov chain. */
#include "runner.h"
#include "scenario.h"
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_randist.h>
#include <math.h>

#define S_NS 100.0
#define Z_NS 900.0

struct exact {
	double u; /* lock utilisation */
	double w; /* mean wait per acquisition, ns */
};

static struct exact exact_mm1n(int n)
{
	double rho = S_NS / Z_NS, term = 1, sum = 1;
	for (int k = 1; k <= n; k++) {
		term *= (double)(n - k + 1) * rho; /* N!/(N-k)! rho^k */
		sum += term;
	}
	double u = 1 - 1 / sum, x = u / S_NS;
	return (struct exact){u, n / x - Z_NS - S_NS};
}

static struct exact exact_mva(int n)
{
	double q = 0, x = 0, r = 0;
	for (int k = 1; k <= n; k++) {
		r = S_NS * (1 + q);
		x = k / (r + Z_NS);
		q = x * r;
	}
	return (struct exact){x * S_NS, r - S_NS};
}

static struct exact exact_md1n(int n)
{
	double q = 1 - exp(-S_NS / Z_NS);
	size_t m = (size_t)n; /* states 0 .. n-1 waiters after a release */
	gsl_matrix *a = gsl_matrix_calloc(m, m);
	gsl_vector *b = gsl_vector_calloc(m), *pi = gsl_vector_alloc(m);
	/* pi P = pi, i.e. (P^T - I) pi = 0, with the last row replaced by sum = 1. */
	for (size_t from = 0; from < m; from++) {
		unsigned trials = from == 0 ? (unsigned)n - 1 : (unsigned)(n - (int)from);
		size_t base = from == 0 ? 0 : from - 1;
		for (unsigned k = 0; k <= trials; k++)
			if (base + k < m)
				*gsl_matrix_ptr(a, base + k, from) +=
				    gsl_ran_binomial_pdf(k, q, trials);
		*gsl_matrix_ptr(a, from, from) -= 1;
	}
	for (size_t j = 0; j < m; j++)
		gsl_matrix_set(a, m - 1, j, 1);
	gsl_vector_set(b, m - 1, 1);
	gsl_permutation *p = gsl_permutation_alloc(m);
	int sign;
	gsl_linalg_LU_decomp(a, p, &sign);
	gsl_linalg_LU_solve(a, p, b, pi);
	double x = 1 / (S_NS + gsl_vector_get(pi, 0) * Z_NS / n);
	gsl_permutation_free(p);
	gsl_vector_free(pi);
	gsl_vector_free(b);
	gsl_matrix_free(a);
	return (struct exact){x * S_NS, n / x - Z_NS - S_NS};
}

struct qcase {
	int n;
	const char *hold;
};

static void test_exact_references(void)
{
	/* The closed form and MVA agree, and both give the brief's table. */
	static const struct {
		int n;
		double u, w;
	} table[] = {{1, 0.10000, 0.0},	  {2, 0.19802, 10.0},	{4, 0.38619, 35.8},
		     {8, 0.71084, 125.4}, {16, 0.98895, 617.9}, {32, 1.0, 2200.0}};
	for (size_t i = 0; i < G_N_ELEMENTS(table); i++) {
		struct exact cf = exact_mm1n(table[i].n), mva = exact_mva(table[i].n);
		g_assert_cmpfloat_with_epsilon(cf.u, mva.u, 1e-9);
		g_assert_cmpfloat_with_epsilon(cf.w, mva.w, 1e-6);
		g_assert_cmpfloat_with_epsilon(cf.u, table[i].u, 6e-5);
		g_assert_cmpfloat_with_epsilon(cf.w, table[i].w, 0.06);
	}
	static const struct {
		int n;
		double u, w;
	} det[] = {{2, 0.19893, 5.4}, {4, 0.39220, 19.9}, {8, 0.74028, 80.7}, {16, 0.99900, 601.6}};
	for (size_t i = 0; i < G_N_ELEMENTS(det); i++) {
		struct exact e = exact_md1n(det[i].n);
		g_assert_cmpfloat_with_epsilon(e.u, det[i].u, 6e-5);
		g_assert_cmpfloat_with_epsilon(e.w, det[i].w, 0.06);
	}
}

/* At most one engine call per acquisition (docs/performance.md): a hold is
 * planned, so a task sleeps once for wait + hold + the next think. Beyond
 * those, a task yields at the end of each scheduler time slice of think
 * time (sim_task_run), at most duration / slice + 1 times. */
static void assert_engine_calls(json_t *r, const struct run_config *cfg, int n)
{
	json_int_t calls = json_integer_value(json_object_get(r, "engine_calls"));
	json_int_t acq = json_integer_value(
	    json_object_get(json_array_get(json_object_get(r, "locks"), 0), "acquisitions"));
	json_int_t slices = (json_int_t)(cfg->stop_at / cfg->machine.sched_slice) + 1;
	g_test_message("N=%d: %lld engine calls, %lld acquisitions, %.4f per acquisition", n,
		       (long long)calls, (long long)acq, (double)calls / (double)acq);
	g_assert_cmpint(acq, >, 0);
	g_assert_cmpint(calls - n * slices, <=, acq);
}

static void test_lockbench(gconstpointer data)
{
	const struct qcase *c = data;
	struct exact e = g_str_equal(c->hold, "exp") ? exact_mm1n(c->n) : exact_md1n(c->n);
	char *cpus = g_strdup_printf("workloads.0.cpus=%d", c->n);
	char *hold = g_strdup_printf("workloads.0.hold_dist=\"%s\"", c->hold);
	/* Long enough that the sampling error sits well inside the 2% bound. */
	const char *sets[] = {cpus, hold, "stop.duration_ns=200000000", NULL};
	GError *err = NULL;
	struct scenario *sc =
	    scenario_load_file(MCS_SOURCE_DIR "/scenarios/validation/lockbench.json", sets, &err);
	g_assert_no_error(err);
	const struct scenario_variant *v = sc->variants->pdata[0];
	bool violation = true;
	json_t *r = runner_run_one(v->config, v->seed, &violation, &err);
	g_assert_no_error(err);
	g_assert_false(violation);
	json_t *lock = json_array_get(json_object_get(r, "locks"), 0);
	g_assert_cmpstr(json_string_value(json_object_get(lock, "class")), ==, "&lb->lock");
	double acq = (double)json_integer_value(json_object_get(lock, "acquisitions"));
	double w =
	    json_number_value(json_object_get(json_object_get(lock, "wait_ns"), "total")) / acq;
	double u =
	    json_number_value(json_object_get(json_object_get(r, "metrics"), "lock_utilisation"));
	g_test_message(
	    "N=%d hold=%s: W %.2f ns (exact %.2f, %+.2f%%), U %.5f (exact %.5f, %+.2f%%), "
	    "%.0f acquisitions",
	    c->n, c->hold, w, e.w, e.w ? 100 * (w - e.w) / e.w : 0, u, e.u, 100 * (u - e.u) / e.u,
	    acq);
	if (e.w < 100)
		g_assert_cmpfloat(fabs(w - e.w), <=, 2.0);
	else
		g_assert_cmpfloat(fabs(w - e.w) / e.w, <=, 0.02);
	g_assert_cmpfloat(fabs(u - e.u) / e.u, <=, 0.02);
	assert_engine_calls(r, v->config, c->n);
	json_decref(r);
	scenario_free(sc);
	g_free(cpus);
	g_free(hold);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/queueing/exact/references", test_exact_references);
	static const int ns[] = {1, 2, 4, 8, 16, 32, 64};
	static const char *const holds[] = {"exp", "const"};
	static struct qcase cases[G_N_ELEMENTS(ns) * G_N_ELEMENTS(holds)];
	size_t k = 0;
	for (size_t h = 0; h < G_N_ELEMENTS(holds); h++)
		for (size_t i = 0; i < G_N_ELEMENTS(ns); i++, k++) {
			cases[k] = (struct qcase){ns[i], holds[h]};
			char *path =
			    g_strdup_printf("/queueing/lockbench/%s-hold/N=%d", holds[h], ns[i]);
			g_test_add_data_func(path, &cases[k], test_lockbench);
			g_free(path);
		}
	return g_test_run();
}

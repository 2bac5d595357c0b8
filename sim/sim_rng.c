// SPDX-License-Identifier: GPL-2.0-or-later
#include "sim_rng.h"
#include <glib.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

struct sim_rng {
	gsl_rng *r;
};

static uint64_t fnv1a(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

struct sim_rng *sim_rng_new(uint64_t scenario_seed, const char *stream_name)
{
	struct sim_rng *rng = g_new0(struct sim_rng, 1);
	rng->r = gsl_rng_alloc(gsl_rng_mt19937);
	/* mt19937 takes an unsigned long seed; 0 selects GSL's default seed. */
	unsigned long s = (unsigned long)sim_rng_mix(scenario_seed, fnv1a(stream_name));
	gsl_rng_set(rng->r, s ? s : 1);
	return rng;
}

void sim_rng_free(struct sim_rng *rng)
{
	if (!rng)
		return;
	gsl_rng_free(rng->r);
	g_free(rng);
}

double sim_rng_uniform01(struct sim_rng *rng)
{
	return gsl_rng_uniform(rng->r);
}

static double sample_real(struct sim_rng *rng, const struct sim_dist *d)
{
	switch (d->kind) {
	case SIM_DIST_CONST:
		return d->mean_ps;
	case SIM_DIST_EXP:
		return gsl_ran_exponential(rng->r, d->mean_ps);
	case SIM_DIST_UNIFORM: {
		double half = sqrt(3.0) * d->cv * d->mean_ps;
		return gsl_ran_flat(rng->r, d->mean_ps - half, d->mean_ps + half);
	}
	case SIM_DIST_LOGNORMAL: {
		double s2 = log1p(d->cv * d->cv);
		return gsl_ran_lognormal(rng->r, log(d->mean_ps) - s2 / 2, sqrt(s2));
	}
	}
	return d->mean_ps;
}

sim_time_t sim_rng_sample(struct sim_rng *rng, const struct sim_dist *dist)
{
	if (dist->mean_ps <= 0)
		return 0;
	double v = sample_real(rng, dist);
	return v <= 0 ? 0 : sim_round(v);
}

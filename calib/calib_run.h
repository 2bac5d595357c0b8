/* SPDX-License-Identifier: GPL-2.0-or-later */
/* calib_run: the model's value at each point of a fit's curves, for given
 * parameter values: runs of this program in child processes, at most `jobs`
 * at once, each (point, values) run once and kept. Private to calib/. */
#pragma once
#include "calib.h"
#include <math.h>

struct calib_cache {
	const char *self; /* the program to run */
	int jobs;
	GHashTable *values; /* point key -> double */
	long runs;	    /* child processes started */
};

void calib_cache_init(struct calib_cache *k, const char *self, int jobs);
void calib_cache_fini(struct calib_cache *k);
/* Run every point of @s not yet run with the parameters at @values (one
 * for each of @s->params). False and @err if a run failed. */
bool calib_run_all(struct calib_cache *k, const struct calib_spec *s, const double *values,
		   GError **err);
/* The model's value at @pt of @c under @values, as the curve compares it
 * (NAN if not run). */
double calib_value(const struct calib_cache *k, const struct calib_spec *s,
		   const struct calib_curve *c, const struct calib_point *pt, const double *values);

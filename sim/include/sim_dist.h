/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sim_dist: descriptions of random durations (constant, exponential, uniform,
 * lognormal), parsed from scenarios and sampled through sim_rng streams. */
#pragma once
#include "sim_time.h"
#include <stdbool.h>

enum sim_dist_kind { SIM_DIST_CONST, SIM_DIST_EXP, SIM_DIST_UNIFORM, SIM_DIST_LOGNORMAL };

struct sim_dist {
	enum sim_dist_kind kind;
	double mean_ps;
	double cv; /* coefficient of variation, for uniform and lognormal */
};

/* Names accepted in scenarios, NULL-terminated, index == enum value. */
extern const char *const sim_dist_names[];
/* Default coefficient of variation: uniform on [0, 2 mean]; lognormal cv 1. */
double sim_dist_default_cv(enum sim_dist_kind kind);

// SPDX-License-Identifier: GPL-2.0-or-later
#include "sim_dist.h"
#include <string.h>

const char *const sim_dist_names[] = {"const", "exp", "uniform", "lognormal", NULL};

double sim_dist_default_cv(enum sim_dist_kind kind)
{
	switch (kind) {
	case SIM_DIST_UNIFORM:
		return 1.0 / sqrt(3.0); /* U(0, 2 mean) */
	case SIM_DIST_LOGNORMAL:
		return 1.0;
	case SIM_DIST_EXP:
		return 1.0;
	case SIM_DIST_CONST:
		break;
	}
	return 0.0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sim_json: a simulated time in a result (mcs_json.h's accessors beside it). */
#pragma once
#include "mcs_json.h"
#include "sim_time.h"

/* A simulated time as a result's "..._ns" figure: nanoseconds, a real. */
static inline json_t *sim_json_ns(sim_time_t t)
{
	return json_real(sim_to_ns(t));
}

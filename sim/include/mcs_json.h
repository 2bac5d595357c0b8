/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mcs_json: the few JSON accessors every layer uses (jansson). */
#pragma once
#include "sim_time.h"
#include <jansson.h>

/* The number at @key of @o (0 when @o is not an object, the key is missing
 * or its value is not a number). */
static inline double mcs_json_num(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

/* A simulated time as a result's "..._ns" figure: nanoseconds, a real. */
static inline json_t *mcs_json_ns(sim_time_t t)
{
	return json_real(sim_to_ns(t));
}

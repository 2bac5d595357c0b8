/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sim_time: simulated time in integer picoseconds.
 *
 * One SimGrid time unit is one picosecond, so every clock value is an integer
 * held exactly in a double (up to 2^53 ps, about 2.5 hours of simulated time),
 * and costs such as 15.4 ns are represented without rounding. */
#pragma once
#include <math.h>
#include <stdint.h>

typedef int64_t sim_time_t;

#define SIM_PS ((sim_time_t)1)
#define SIM_NS ((sim_time_t)1000)
#define SIM_US (1000 * SIM_NS)
#define SIM_MS (1000 * SIM_US)
#define SIM_S (1000 * SIM_MS)
#define SIM_TIME_MAX INT64_MAX
/* Longest simulated run a scenario may ask for: one hour, well inside 2^53 ps. */
#define SIM_TIME_LIMIT (3600 * SIM_S)

/* llround(@x), the same value for every input, without the library call on
 * the hot paths: halves round away from zero. x - trunc(x) is exact for
 * every finite double, so the comparison with 0.5 is too. */
static inline sim_time_t sim_round(double x)
{
	if (!(fabs(x) < 9.0e18)) /* NaN, infinities, past int64: the library's answer */
		return (sim_time_t)llround(x);
	sim_time_t t = (sim_time_t)x; /* toward zero */
	double frac = x - (double)t;
	if (frac >= 0.5)
		t++;
	else if (frac <= -0.5)
		t--;
	return t;
}

static inline sim_time_t sim_from_ns(double ns)
{
	return sim_round(ns * (double)SIM_NS);
}

static inline double sim_to_ns(sim_time_t t)
{
	return (double)t / (double)SIM_NS;
}

static inline double sim_to_us(sim_time_t t)
{
	return (double)t / (double)SIM_US;
}

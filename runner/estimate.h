/* SPDX-License-Identifier: GPL-2.0-or-later */
/* estimate: the wall time a run will take on this machine, from its own
 * simulations' pace (pace.h), and the limit past which it is stopped and
 * refused (runner_opts.wall_limit, docs/scenario.md). Private to runner/. */
#pragma once
#include "runner.h"

/* Reports must span this much wall time before they make an estimate. */
#define ESTIMATE_SPAN_S 1.0
/* wall seconds of simulated time standing still that make a run refused */
#define ESTIMATE_STUCK_S 30.0
/* A run whose simulations' progress says it would take more than this
 * much wall time on this machine is stopped and refused (MCS_ERROR_INPUT,
 * docs/scenario.md) unless --force. */
#define RUNNER_MAX_WALL_S 1800.0

/* The limit, in wall seconds, when @on: RUNNER_MAX_WALL_S, or less by
 * MEMCGSIM_TEST_MAX_WALL_S (the tests'); 0: none. */
double estimate_limit_s(bool on);
/* After each look at the reports of @jobs, @parallel run at a time: false
 * (with @err, MCS_ERROR_INPUT) when a running job's sweep point (every job,
 * for a run) would take past @limit_s (> 0), the message saying why. */
bool estimate_check(const struct runner_job *jobs, size_t n, int parallel, double limit_s,
		    GError **err);

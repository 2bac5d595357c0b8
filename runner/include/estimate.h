/* SPDX-License-Identifier: GPL-2.0-or-later */
/* estimate: the wall time a run will take on this machine, from its own
 * simulations' pace (pace.h), and the limit past which it is stopped and
 * refused (estimate_wall_limit, docs/scenario.md). */
#pragma once
#include "runner.h"

/* Reports must span this much wall time before they make an estimate. */
#define ESTIMATE_SPAN_S 1.0
/* wall seconds of simulated time standing still that make a run refused */
#define ESTIMATE_STUCK_S 30.0

/* From now on (@on), or no more, stop the jobs and refuse (MCS_ERROR_INPUT)
 * a run whose simulations' progress says it would take more than
 * RUNNER_MAX_WALL_S of wall time on this machine (docs/scenario.md); off
 * at first, --force keeps it off. MEMCGSIM_TEST_MAX_WALL_S may lower it. */
#define RUNNER_MAX_WALL_S 1800.0
void estimate_wall_limit(bool on);
/* Is the limit on? */
bool estimate_on(void);
/* After each look at the reports of @jobs, @parallel run at a time: false
 * (with @err, MCS_ERROR_INPUT) when a running job's sweep point (every job,
 * for a run) would take past the limit, the message saying why. */
bool estimate_check(const struct runner_job *jobs, size_t n, int parallel, GError **err);

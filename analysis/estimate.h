/* SPDX-License-Identifier: GPL-2.0-or-later */
/* estimate: the wall time a run will take on this machine, from its own
 * simulations' progress reports (live.h reads them), and the limit past
 * which it is stopped and refused (runner_wall_limit, docs/scenario.md). */
#pragma once
#include "runner.h"

/* Reports must span this much wall time before they make an estimate. */
#define ESTIMATE_SPAN_S 1.0
/* wall seconds of simulated time standing still that make a run refused */
#define ESTIMATE_STUCK_S 30.0

/* Is the limit on (runner_wall_limit)? */
bool estimate_on(void);
/* @j reported that it had simulated @ns, just now, and done @share of its
 * work (-1: it does not say). */
void estimate_report(struct runner_job *j, double ns, double share);
/* After each look at the reports of @jobs, @parallel run at a time: false
 * (with @err, MCS_ERROR_INPUT) when a running job's sweep point (every job,
 * for a run) would take past the limit, the message saying why. */
bool estimate_check(const struct runner_job *jobs, size_t n, int parallel, GError **err);

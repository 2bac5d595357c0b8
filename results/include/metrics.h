/* SPDX-License-Identifier: GPL-2.0-or-later */
/* metrics: what a result's figures mean, and which figures a sweep is
 * summarised and plotted by. A result carries each figure's unit, direction
 * and meaning ("metric_info", docs/results.md), as the model that made it
 * described them; a result written before it did is read with this build's
 * descriptions (run_metric_find(), models/run/include/run.h). */
#pragma once
#include "run.h"
#include <glib.h>
#include <jansson.h>

/* The keys the sweep of @points is summarised and plotted by: the first
 * variant's metrics but those that are the same in every run (a timed
 * run's elapsed_ns), then sys and spin time (pointers into the points, or
 * static); free with g_ptr_array_free(a, TRUE). */
GPtrArray *metric_sweep_keys(json_t *points);

/* @metric's description in @variant's "metric_info", filled into @buf
 * (its strings @variant's), or this build's when the variant has none. */
const struct run_metric *metric_info(const json_t *variant, const char *metric,
				     struct run_metric *buf);

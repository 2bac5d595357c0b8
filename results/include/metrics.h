/* SPDX-License-Identifier: GPL-2.0-or-later */
/* metrics: which figures a sweep is summarised and plotted by. What each
 * figure means in a comparison is run_metric_find()'s (models/run/include/run.h): the
 * models that produce the figures describe them. */
#pragma once
#include "run.h"
#include <glib.h>
#include <jansson.h>

/* The keys the sweep of @points is summarised and plotted by: the first
 * variant's metrics but those that are the same in every run (a timed
 * run's elapsed_ns), then sys and spin time (pointers into the points, or
 * static); free with g_ptr_array_free(a, TRUE). */
GPtrArray *metric_sweep_keys(json_t *points);

/* metrics: which figures a sweep is summarised and plotted by. What each
 * figure means in a comparison is run_metric_find()'s (models/run.h): the
 * models that produce the figures describe them. */
#pragma once
#include "run.h"
#include <glib.h>
#include <jansson.h>

/* The keys a sweep is summarised and plotted by (pointers into @variant,
 * or static); free with g_ptr_array_free(a, TRUE). */
GPtrArray *metric_sweep_keys(json_t *variant);

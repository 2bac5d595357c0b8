// SPDX-License-Identifier: GPL-2.0-or-later
#include "metrics.h"
#include "result.h"
#include "result_keys.h"
#include <glib.h>
#include <string.h>

/* A sweep's summary and plots: every metric, then kernel and spinning CPU
 * time (what `time` reports as sys, the figure published comparisons use). */
/* Does @key take one value in every run of every point's variants (a timed
 * run's elapsed_ns)? */
static bool constant(json_t *points, const char *key)
{
	size_t n, k = 1;
	double *x = result_points_samples(points, key, &n);
	while (k < n && x[k] == x[0])
		k++;
	g_free(x);
	return k >= n;
}

GPtrArray *metric_sweep_keys(json_t *points)
{
	json_t *variant = json_array_get(result_point_variants(json_array_get(points, 0)), 0);
	GPtrArray *keys = g_ptr_array_new();
	const char *k;
	json_t *m;
	json_object_foreach (json_object_get(variant, RK_metrics), k, m)
		if (!constant(points, k))
			g_ptr_array_add(keys, (gpointer)k);
	g_ptr_array_add(keys, (gpointer) "cpu_time_ns.sys");
	g_ptr_array_add(keys, (gpointer) "cpu_time_ns.spin");
	return keys;
}

const struct run_metric *metric_info(const json_t *variant, const char *metric,
				     struct run_metric *buf)
{
	json_t *d = json_object_get(json_object_get(variant, RK_metric_info), metric);
	const char *unit = json_string_value(json_object_get(d, "unit"));
	json_t *higher = json_object_get(d, "higher_is_better");
	if (!unit || !json_is_boolean(higher))
		return run_metric_find(metric);
	const char *meaning = json_string_value(json_object_get(d, "meaning"));
	*buf = (struct run_metric){metric, json_is_true(higher), unit, meaning ? meaning : ""};
	return buf;
}

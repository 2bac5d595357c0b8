#include "metrics.h"
#include <glib.h>
#include <string.h>

/* A sweep's summary and plots: every metric, then kernel and spinning CPU
 * time (what `time` reports as sys, the figure published comparisons use). */
GPtrArray *metric_sweep_keys(json_t *variant)
{
	GPtrArray *keys = g_ptr_array_new();
	const char *k;
	json_t *m;
	json_object_foreach (json_object_get(variant, "metrics"), k, m)
		g_ptr_array_add(keys, (gpointer)k);
	g_ptr_array_add(keys, (gpointer) "cpu_time_ns.sys");
	g_ptr_array_add(keys, (gpointer) "cpu_time_ns.spin");
	return keys;
}

#include "metrics.h"
#include <glib.h>
#include <string.h>

static const struct metric_desc metric_table[] = {
	{"elapsed_ns", false, "ns"},
	{"acquisitions_per_us", true, "/us"},
	{"lock_utilisation", false, ""},
	{"wait_per_acquisition_ns", false, "ns"},
	{"cpu_time_ns.sys", false, "ns"},
	{"cpu_time_ns.spin", false, "ns"},
	{NULL, false, NULL},
};

static const struct metric_desc unknown = {"", false, ""};
static const struct metric_desc unknown_ns = {"", false, "ns"};

const struct metric_desc *metric_desc_find(const char *name)
{
	if (name[0] == 'w' && strchr(name, '.'))
		name = strchr(name, '.') + 1;
	for (const struct metric_desc *d = metric_table; d->name; d++)
		if (strcmp(d->name, name) == 0)
			return d;
	return g_str_has_suffix(name, "_ns") ? &unknown_ns : &unknown;
}

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

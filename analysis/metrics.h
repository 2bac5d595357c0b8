/* metrics: what each result metric means for a comparison. */
#pragma once
#include <stdbool.h>

struct metric_desc {
	const char *name;
	bool higher_is_better; /* a rate: compared by Hmean */
	const char *unit;
};

/* The description of @name (a "w<N>." prefix is ignored); unknown metrics
 * are taken as lower-is-better (times when they end in "_ns"). */
const struct metric_desc *metric_desc_find(const char *name);
/* The keys a sweep is summarised and plotted by (pointers into @variant,
 * or static); free with g_ptr_array_free(a, TRUE). */
#include <glib.h>
#include <jansson.h>
GPtrArray *metric_sweep_keys(json_t *variant);

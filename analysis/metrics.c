#include "metrics.h"
#include <string.h>

static const struct metric_desc metric_table[] = {
	{"elapsed_ns", false, "ns"},
	{"acquisitions_per_us", true, "/us"},
	{"lock_utilisation", false, ""},
	{"wait_per_acquisition_ns", false, "ns"},
	{NULL, false, NULL},
};

static const struct metric_desc unknown = {"", false, ""};

const struct metric_desc *metric_desc_find(const char *name)
{
	if (name[0] == 'w' && strchr(name, '.'))
		name = strchr(name, '.') + 1;
	for (const struct metric_desc *d = metric_table; d->name; d++)
		if (strcmp(d->name, name) == 0)
			return d;
	return &unknown;
}

/* scenario_memcg: the memcg section of a scenario: expanding the cgroup
 * list ("job%d" x count) and checking names, parents and references. */
#pragma once
#include "spec.h"

struct scenario_cgroup {
	char *name;
	long max_pages; /* 0: no limit */
};

/* "job%d" with @i -> "job7"; a name without "%d" is returned as is. */
char *scenario_cgroup_instance(const char *tmpl, long i);
/* Every cgroup of the validated @doc, parents first. */
GPtrArray *scenario_cgroups(json_t *doc);
bool scenario_memcg_check(json_t *doc, GHashTable *locs, GError **err);

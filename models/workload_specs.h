/* workload_specs: the scenario keys of each workload type, and the checks
 * that need more than one key (a workload's CPUs against the machine's). */
#pragma once
#include "sim_machine.h"
#include "spec.h"

struct workload_spec {
	const char *type;
	const struct spec *spec;
	/* Cross-key checks of workload @w at @path, after spec validation. */
	bool (*check)(json_t *w, const char *path, const struct sim_machine *m, GHashTable *locs,
		      GError **err);
	/* Does the workload end by itself (so a "completion" stop can end)? */
	bool (*finite)(json_t *w);
};

/* NULL-terminated list of types; and the same as tags for a SPEC_TAGGED. */
extern const struct workload_spec *const workload_specs[];
extern const struct spec_tag workload_tags[];
const struct workload_spec *workload_spec_find(const char *type);

/* Shared by workload types: a duration distribution "<prefix>_dist" and
 * "<prefix>_cv" beside "<prefix>_ns". */
extern const struct spec workload_dist_spec;
extern const struct spec workload_cv_spec;
bool workload_check_dist(json_t *w, const char *prefix, const char *path, GHashTable *locs,
			 GError **err);

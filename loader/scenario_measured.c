// SPDX-License-Identifier: GPL-2.0-or-later
/* A variant's "measured": what a real machine measured for the kernel the
 * variant stands for (its lock statistics, /proc/lock_stat or perf lock
 * contention, over a known time, and time(1)'s), which `memcgsim fit`
 * fits the variant's uncertain costs to. The lock file is read at load,
 * relative to the scenario's directory, so that validate refuses one that
 * is not there or not either format. */
#include "scenario.h"
#include "scenario_parts.h"
#include <math.h>

#define AT(member) SPEC_AT(struct scenario_time, member)
#define SECONDS(key_, doc_, member)                                                                \
	{                                                                                          \
		key_,                                                                              \
		    &(const struct spec){.kind = SPEC_NUMBER, .doc = doc_, .min = 0, .max = 1e9},  \
		    false, NULL, AT(member)                                                        \
	}
static const struct spec_field time_fields[] = {
    SECONDS("real_s", "time(1)'s real, in s", real_s),
    SECONDS("user_s", "time(1)'s user, in s (all CPUs')", user_s),
    SECONDS("sys_s", "time(1)'s sys, in s (all CPUs')", sys_s),
    {NULL},
};
#undef SECONDS
#undef AT

#define AT(member) SPEC_AT(struct scenario_measured, member)
static const struct spec_field measured_fields[] = {
    {"source",
     &(const struct spec){
	 .kind = SPEC_STRING, .doc = "who measured it, on what, where", .min = 1, .max = 4096},
     true, NULL, AT(source)},
    {"locks",
     &(const struct spec){.kind = SPEC_STRING,
			  .doc = "a /proc/lock_stat (version 0.4) or perf lock contention output, "
				 "relative to the scenario's directory",
			  .min = 1,
			  .max = 4096},
     false, NULL, AT(locks_path)},
    {"seconds",
     &(const struct spec){.kind = SPEC_NUMBER,
			  .doc = "how long the lock statistics were gathered, in s (perf lock "
				 "contention -a sleep S: S); required with locks",
			  .min = 1e-6,
			  .max = 1e7},
     false, NULL, AT(seconds)},
    {"time",
     &(const struct spec){.kind = SPEC_OBJECT,
			  .doc = "time(1) of the measured run: its sys fits the private constants, "
				 "its user is shown beside the model's",
			  .fields = time_fields,
			  .size = sizeof(struct scenario_time)},
     false, NULL, AT(time)},
    {NULL},
};
#undef AT

const struct spec scenario_measured_spec = {
    .kind = SPEC_OBJECT,
    .doc = "what a machine measured for this variant's kernel, which memcgsim fit fits the "
	   "variant's uncertain costs to",
    .fields = measured_fields,
    .size = sizeof(struct scenario_measured)};

struct scenario_measured *scenario_measured_read(struct scenario *sc, json_t *variant, size_t i,
						 GError **err)
{
	json_t *m = json_object_get(variant, "measured");
	if (!m)
		return NULL;
	struct scenario_measured *out = spec_decode(&scenario_measured_spec, m);
	char *at = g_strdup_printf("variants.%zu.measured", i);
	bool ok = out->locks_path || out->time;
	if (!ok)
		spec_fail(sc->locs, variant, "measured", at, err,
			  "expected \"locks\" (with \"seconds\"), \"time\", or both");
	else if (out->time && !(out->time->real_s > 0))
		ok =
		    spec_fail(sc->locs, variant, "measured", at, err,
			      "\"time\" needs \"real_s\" more than 0: what its CPU times are over");
	else if (out->locks_path && !(out->seconds > 0))
		ok = spec_fail(sc->locs, variant, "measured", at, err,
			       "\"locks\" needs \"seconds\": how long they were gathered");
	g_free(at);
	if (!ok || !out->locks_path) {
		if (!ok)
			scenario_measured_free(out);
		return ok ? out : NULL;
	}
	char *dir = g_path_get_dirname(sc->file);
	char *path = g_path_is_absolute(out->locks_path) || g_str_equal(sc->file, "-")
			 ? g_strdup(out->locks_path)
			 : g_build_filename(dir, out->locks_path, NULL);
	g_free(dir);
	GError *e = NULL;
	out->locks = lockstat_read(path, &e);
	g_free(path);
	if (!out->locks) {
		char *where = g_strdup_printf("variants.%zu.measured.locks", i);
		spec_fail(sc->locs, m, "locks", where, err, "%s", e->message);
		g_free(where);
		g_error_free(e);
		scenario_measured_free(out);
		return NULL;
	}
	out->locks->seconds = out->seconds;
	return out;
}

void scenario_measured_free(struct scenario_measured *m)
{
	if (!m)
		return;
	lockstat_free(m->locks);
	spec_decoded_free(&scenario_measured_spec, m);
}

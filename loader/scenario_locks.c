// SPDX-License-Identifier: GPL-2.0-or-later
/* A variant's what-ifs that name a lock class, checked against the classes
 * the runs make (scenario.h, scenario_lock_classes_check): a class no
 * variant has is an error before anything runs, with the nearest name; one
 * that only another variant has, a warning. */
#include "kernel.h"
#include "mcs_named.h"
#include "scenario.h"
#include "spec_json.h"
#include <string.h>

/* Where item @i of kernel.@member (critical_section_extra, lock_whatif),
 * giving lock @lock, was written: in the set of variant @name, else at the
 * top level (the file's or a --set); *@path its path. NULL when neither has
 * it (the defaults). */
static const json_t *extra_written(const struct scenario *sc, const char *name, const char *member,
				   size_t i, const char *lock, char **path)
{
	char *key = g_strconcat("kernel.", member, NULL);
	size_t v;
	json_t *var = NULL, *each;
	json_array_foreach (json_object_get(sc->base, "variants"), v, each)
		if (g_strcmp0(json_string_value(json_object_get(each, "name")), name) == 0) {
			var = each;
			break;
		}
	json_t *sets[] = {json_object_get(json_object_get(var, "set"), key),
			  json_object_get(json_object_get(sc->base, "kernel"), member)};
	for (int s = 0; s < 2; s++) {
		json_t *item = json_array_get(sets[s], i);
		if (g_strcmp0(json_string_value(json_object_get(item, "lock")), lock) != 0)
			continue;
		*path = s ? g_strdup_printf("%s.%zu.lock", key, i)
			  : g_strdup_printf("variants.%zu.set.%s.%zu.lock", v, key, i);
		g_free(key);
		return item;
	}
	*path = g_strdup_printf("%s.%zu.lock", key, i);
	g_free(key);
	return NULL;
}

/* Lock @lock of item @i of kernel.@member: an error (false) when no variant
 * has it, @i appended to @lacking when only another variant does. */
static bool class_check(const struct scenario *sc, const struct scenario_variant *var,
			const char *member, size_t i, const char *lock, const char *const *own,
			const char *const *any, GArray *lacking, GError **err)
{
	if (g_strv_contains(own, lock))
		return true;
	if (g_strv_contains(any, lock)) {
		if (lacking)
			g_array_append_val(lacking, i);
		return true;
	}
	const char *near = mcs_near_miss(lock, any);
	char *path;
	const json_t *item = extra_written(sc, var->name, member, i, lock, &path);
	char *msg = g_strdup_printf("no variant has a lock class \"%s\" (%s%s%smemcgsim locks "
				    "lists each variant's classes)",
				    lock, near ? "did you mean \"" : "", near ? near : "",
				    near ? "\"? " : "");
	if (item && sc->locs)
		spec_fail(sc->locs, item, "lock", path, err, "%s", msg);
	else
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT, "%s: %s: %s", sc->file, path, msg);
	g_free(msg);
	g_free(path);
	return false;
}

bool scenario_lock_classes_check(const struct scenario *sc, const struct scenario_variant *var,
				 const char *const *own, const char *const *any, GArray *lacking,
				 GError **err)
{
	const struct kernel_params *k = var->config->kernel;
	for (size_t i = 0; k && i < k->hold_extra.n; i++)
		if (!class_check(sc, var, "critical_section_extra", i, k->hold_extra.items[i]->lock,
				 own, any, lacking, err))
			return false;
	for (size_t i = 0; k && i < k->whatif.n; i++)
		if (!class_check(sc, var, "lock_whatif", i, k->whatif.items[i]->lock, own, any,
				 NULL, err))
			return false;
	return true;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* Which variants run: the names a variant may not take (they are
 * --variant's words), the scenario's default_variants checked, and a
 * choice (--variant, or the default) applied to a loaded scenario. */
#include "mcs_json.h"
#include "mcs_named.h"
#include "scenario.h"
#include "scenario_parts.h"
#include <string.h>

bool scenario_variant_name_check(GHashTable *locs, json_t *variant, size_t i, GError **err)
{
	const char *name = json_string_value(json_object_get(variant, "name"));
	const char *why = g_str_equal(name, SCENARIO_ALL_VARIANTS)
			      ? "\"all\" is --variant's word for every variant: name it otherwise"
			  : strchr(name, ',')
			      ? "a ',' separates the names --variant lists: name it "
				"otherwise"
			      : NULL;
	if (!why)
		return true;
	char *path = g_strdup_printf("variants.%zu.name", i);
	spec_fail(locs, variant, "name", path, err, "%s", why);
	g_free(path);
	return false;
}

/* A variant's set may not choose what runs: that is the whole scenario's. */
static bool defaults_not_in_sets(const struct scenario *sc, GError **err)
{
	size_t i;
	json_t *v;
	json_array_foreach (json_object_get(sc->base, "variants"), i, v) {
		const char *key;
		json_t *value;
		json_object_foreach (json_object_get(v, "set"), key, value) {
			if (!g_str_equal(key, "default_variants") &&
			    !g_str_has_prefix(key, "default_variants."))
				continue;
			char *path = g_strdup_printf("variants.%zu.set.%s", i, key);
			spec_fail(sc->locs, json_object_get(v, "set"), key, path, err,
				  "which variants run is the whole scenario's choice: give "
				  "default_variants at the top level");
			g_free(path);
			return false;
		}
	}
	return true;
}

/* Item @i of default_variants, @name: a variant of the scenario (@names),
 * not given before. */
static bool default_valid(const struct scenario *sc, json_t *list, size_t i, const char **names,
			  GError **err)
{
	const char *name = json_string_value(json_array_get(list, i));
	bool known = g_strv_contains((const char *const *)names, name), again = false;
	for (size_t k = 0; known && k < i; k++)
		again |= g_str_equal(name, json_string_value(json_array_get(list, k)));
	if (known && !again)
		return true;
	char key[32], path[48];
	g_snprintf(key, sizeof(key), "%zu", i);
	g_snprintf(path, sizeof(path), "default_variants.%zu", i);
	const char *near = names[0] && names[1] ? mcs_near_miss(name, names) : NULL;
	if (again)
		return spec_fail(sc->locs, list, key, path, err, "\"%s\" is given twice", name);
	if (!names[0])
		return spec_fail(sc->locs, list, key, path, err,
				 "no variant \"%s\" in the scenario (it has no variants)", name);
	return spec_fail(sc->locs, list, key, path, err, "no variant \"%s\" in the scenario%s%s%s",
			 name, near ? " (did you mean \"" : "", near ? near : "",
			 near ? "\"?)" : "");
}

bool scenario_defaults_check(struct scenario *sc, GError **err)
{
	if (!defaults_not_in_sets(sc, err))
		return false;
	json_t *list = json_object_get(sc->base, "default_variants");
	if (!list)
		return true;
	const char **names = mcs_json_strings(json_object_get(sc->base, "variants"), "name");
	bool ok = true;
	for (size_t i = 0; ok && i < json_array_size(list); i++)
		ok = default_valid(sc, list, i, names, err);
	g_free(names);
	if (!ok)
		return false;
	sc->default_variants = g_new0(char *, json_array_size(list) + 1);
	for (size_t i = 0; i < json_array_size(list); i++)
		sc->default_variants[i] = g_strdup(json_string_value(json_array_get(list, i)));
	return true;
}

/* The scenario's variants as "\"a\", \"b\"" (g_free it). */
static char *names_text(const struct scenario *sc)
{
	GString *s = g_string_new(NULL);
	for (guint i = 0; i < sc->variants->len; i++)
		g_string_append_printf(
		    s, "%s\"%s\"", i ? ", " : "",
		    ((const struct scenario_variant *)sc->variants->pdata[i])->name);
	return g_string_free(s, FALSE);
}

/* No variant @name: the error, with the nearest name when it looks like a
 * typo of it, and the names there are. */
static bool unknown_variant(const struct scenario *sc, const char *name, GError **err)
{
	const char **known = g_new0(const char *, sc->variants->len + 1);
	for (guint i = 0; i < sc->variants->len; i++)
		known[i] = ((const struct scenario_variant *)sc->variants->pdata[i])->name;
	const char *near = sc->variants->len > 1 ? mcs_near_miss(name, known) : NULL;
	char *all = names_text(sc);
	g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
		    "%s: --variant: no variant \"%s\" (%s%s%sthe scenario has %s; --variant all "
		    "runs them all)",
		    sc->file, name, near ? "did you mean \"" : "", near ? near : "",
		    near ? "\"? " : "", all);
	g_free(all);
	g_free(known);
	return false;
}

/* Each name of --variant @choice (split into @names) is a variant, once. */
static bool choice_valid(const struct scenario *sc, const char *choice, char **names, GError **err)
{
	for (guint i = 0; names[i]; i++) {
		const char *why = !*names[i] ? "an empty name"
				  : g_str_equal(names[i], SCENARIO_ALL_VARIANTS)
				      ? "\"all\" runs every variant: give it alone"
				      : NULL;
		for (guint k = 0; !why && k < i; k++)
			if (g_str_equal(names[k], names[i]))
				why = "a name given twice";
		if (why) {
			g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
				    "%s: --variant: \"%s\": %s (expected NAME[,NAME...], or all)",
				    sc->file, choice, why);
			return false;
		}
		if (!scenario_variant_find(sc, names[i]))
			return unknown_variant(sc, names[i], err);
	}
	return true;
}

bool scenario_choose(struct scenario *sc, const char *choice, GError **err)
{
	if (choice && g_str_equal(choice, SCENARIO_ALL_VARIANTS))
		return true;
	char **names = choice ? g_strsplit(choice, ",", -1) : g_strdupv(sc->default_variants);
	bool ok = !names || !choice || choice_valid(sc, choice, names, err);
	for (guint i = sc->variants->len; ok && names && i-- > 0;) {
		const struct scenario_variant *v = sc->variants->pdata[i];
		if (!g_strv_contains((const char *const *)names, v->name))
			g_ptr_array_remove_index(sc->variants, i);
	}
	for (guint i = sc->warnings->len; ok && names && i-- > 0;) {
		const struct scenario_warning *w = sc->warnings->pdata[i];
		if (w->variant && !g_strv_contains((const char *const *)names, w->variant))
			g_ptr_array_remove_index(sc->warnings, i);
	}
	g_strfreev(names);
	return ok;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* Loading a scenario: the file parsed with the positions of its values,
 * the command line's overrides applied, checked and completed from its
 * preset and defaults, its variants built and checked across keys, and the
 * warnings said before a run. The format's top is scenario.c's. */
#include "cost.h"
#include "mcs_file.h"
#include "mcs_json.h"
#include "mm.h"
#include "scenario.h"
#include "scenario_parts.h"
#include <string.h>

/* Overrides ------------------------------------------------------------- */

/* Parse "PATH=VALUE" and set it; VALUE is JSON, or else a bare string. */
static bool apply_set(json_t *doc, GHashTable *locs, const char *arg, GError **err)
{
	const char *eq = strchr(arg, '=');
	struct jpos at = {"--set", 1, 1};
	if (!eq || eq == arg) {
		char *got = g_strescape(arg, NULL);
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
			    "--set:1:1: (root): expected PATH=VALUE, got \"%s\"", got);
		g_free(got);
		return false;
	}
	char *path = g_strndup(arg, (gsize)(eq - arg));
	const char *text = eq + 1;
	at.col = (int)g_utf8_strlen(arg, eq + 1 - arg) + 1;
	json_error_t jerr;
	json_t *value = json_loads(text, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &jerr);
	bool ok = true;
	if (!value && strchr("{[\"", *text) && *text) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT, "--set:1:%d: %s: invalid JSON: %s",
			    at.col + jerr.column - 1, path, jerr.text);
		ok = false;
	} else if (!value) {
		value = json_string(text);
		if (!value) {
			g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
				    "--set:1:%d: %s: expected UTF-8 text", at.col, path);
			ok = false;
		}
	}
	if (ok) {
		json_t *holder = json_object(); /* positions inside VALUE, then moved */
		jpos_scan(locs, "--set", text, strlen(text), holder, "v", value, at.col);
		ok = spec_set_path(scenario_spec(), doc, path, value, text, locs, &at, err);
		json_decref(holder);
	}
	g_free(path);
	return ok;
}

static bool apply_sets(json_t *doc, GHashTable *locs, const char *const *sets, bool variants_too,
		       GError **err)
{
	for (; sets && *sets; sets++) {
		if (!variants_too && g_str_has_prefix(*sets, "variants"))
			continue;
		if (!apply_set(doc, locs, *sets, err))
			return false;
	}
	return true;
}

static bool apply_variant(json_t *doc, GHashTable *locs, json_t *set, GError **err)
{
	const char *path;
	json_t *v;
	json_object_foreach (set, path, v) {
		const struct jpos *at = jpos_get(locs, set, path);
		struct jpos here = at ? *at : (struct jpos){"?", 0, 0};
		if (!spec_set_path(scenario_spec(), doc, path, jpos_copy(locs, v), NULL, locs,
				   &here, err))
			return false;
	}
	return true;
}

/* Loading ---------------------------------------------------------------- */

/* published.values: a number, at least 0, for a variant the scenario has. */
static bool check_published(json_t *doc, GHashTable *locs, GError **err)
{
	json_t *values = json_object_get(json_object_get(doc, "published"), "values");
	const char *name;
	json_t *v;
	json_object_foreach (values, name, v) {
		bool known = mcs_json_find(json_object_get(doc, "variants"), "name", name, NULL);
		char *path = g_strdup_printf("published.values.%s", name);
		bool ok = true;
		if (!known)
			ok = spec_fail(locs, values, name, path, err,
				       "no variant \"%s\" in the scenario", name);
		else if (!json_is_number(v) || json_number_value(v) < 0)
			ok = spec_fail(locs, values, name, path, err, "expected a number >= 0");
		g_free(path);
		if (!ok)
			return false;
	}
	return true;
}

unsigned scenario_comparison_names(const char *comparison, char *names[4])
{
	char **pairs = g_strsplit(comparison, " vs ", -1);
	guint n = g_strv_length(pairs), got = 0;
	bool ok = n >= 1 && n <= 2;
	for (guint k = 0; ok && k < n; k++) {
		const char *dots = strstr(pairs[k], "..");
		ok = dots && dots != pairs[k] && dots[2] && !strstr(dots + 2, "..");
		if (ok) {
			names[got++] = g_strstrip(g_strndup(pairs[k], (gsize)(dots - pairs[k])));
			names[got++] = g_strstrip(g_strdup(dots + 2));
		}
	}
	g_strfreev(pairs);
	if (ok)
		return got;
	for (guint k = 0; k < got; k++)
		g_free(names[k]);
	return 0;
}

/* comparisons: each "A..B" or "A..B vs C..D", of the scenario's variants. */
static bool check_comparisons(json_t *doc, GHashTable *locs, GError **err)
{
	json_t *list = json_object_get(doc, "comparisons");
	size_t i;
	json_t *e;
	json_array_foreach (list, i, e) {
		char *names[4];
		unsigned n = scenario_comparison_names(json_string_value(e), names);
		const char *bad = NULL;
		for (unsigned k = 0; k < n; k++)
			if (!bad && !mcs_json_find(json_object_get(doc, "variants"), "name",
						   names[k], NULL))
				bad = names[k];
		bool ok = n && !bad;
		char key[24], *at = g_strdup_printf("comparisons.%zu", i);
		g_snprintf(key, sizeof(key), "%zu", i);
		if (bad)
			spec_fail(locs, list, key, at, err, "no variant \"%s\" in the scenario",
				  bad);
		else if (!n)
			spec_fail(locs, list, key, at, err,
				  "expected \"A..B\" or \"A..B vs C..D\", of variants' names");
		g_free(at);
		for (unsigned k = 0; k < n; k++)
			g_free(names[k]);
		if (!ok)
			return false;
	}
	return true;
}

/* exercises: each "[VARIANT:]PATH", the variant one of the scenario's, the
 * path dotted names. */
static bool check_exercises(json_t *doc, GHashTable *locs, GError **err)
{
	json_t *list = json_object_get(doc, "exercises");
	size_t i;
	json_t *e;
	json_array_foreach (list, i, e) {
		const char *s = json_string_value(e), *colon = strchr(s, ':');
		const char *path = colon ? colon + 1 : s;
		char *variant = colon ? g_strndup(s, (gsize)(colon - s)) : NULL;
		char *at = g_strdup_printf("exercises.%zu", i);
		char key[24];
		g_snprintf(key, sizeof(key), "%zu", i);
		bool ok = true;
		if (variant &&
		    !mcs_json_find(json_object_get(doc, "variants"), "name", variant, NULL))
			ok = spec_fail(locs, list, key, at, err,
				       "no variant \"%s\" in the scenario", variant);
		else if (!*path || *path == '.' || g_str_has_suffix(path, ".") ||
			 strstr(path, ".."))
			ok = spec_fail(locs, list, key, at, err,
				       "expected [VARIANT:]PATH, a dotted path into a variant's "
				       "result (\"memcg.reclaim.pswpout\")");
		g_free(variant);
		g_free(at);
		if (!ok)
			return false;
	}
	return true;
}

/* The rules across keys of the whole document (the base's too, though
 * only variants run). */
static bool check_doc(json_t *doc, GHashTable *locs, GError **err)
{
	if (!check_published(doc, locs, err) || !check_exercises(doc, locs, err) ||
	    !check_comparisons(doc, locs, err))
		return false;
	struct run_config *cfg = scenario_config_new(doc, locs, err);
	scenario_config_free(cfg);
	return cfg != NULL;
}

/* Fill in @doc's preset values, then its defaults, checking it. */
static bool complete(json_t *doc, GHashTable *locs, GError **err)
{
	scenario_preset_apply(doc, locs);
	return spec_validate(scenario_spec(), doc, locs, err);
}

/* A variant: the file with the command line's overrides (@raw, before any
 * default or preset value is filled in, so that a variant may name another
 * preset), then the variant's, then the command line's again (they win). */
static bool build_variant(struct scenario *sc, json_t *raw, const char *name, const char *desc,
			  json_t *set, const char *const *sets, GError **err)
{
	json_t *doc = jpos_copy(sc->locs, raw);
	json_object_del(doc, "variants");
	struct run_config *cfg = NULL;
	bool ok = (!set || apply_variant(doc, sc->locs, set, err)) &&
		  apply_sets(doc, sc->locs, sets, false, err) && complete(doc, sc->locs, err) &&
		  (cfg = scenario_config_new(doc, sc->locs, err));
	if (ok) {
		struct scenario_variant *v = g_new0(struct scenario_variant, 1);
		v->name = g_strdup(name);
		v->description = g_strdup(desc);
		v->seed = (uint64_t)json_integer_value(json_object_get(doc, "seed"));
		v->replicas = (int)json_integer_value(json_object_get(doc, "replicas"));
		v->draws = (int)json_integer_value(json_object_get(doc, "draw_costs"));
		v->draw_seed = (uint64_t)json_integer_value(json_object_get(sc->base, "seed"));
		v->config = cfg;
		g_ptr_array_add(sc->variants, v);
	}
	json_decref(doc);
	return ok;
}

static bool build_variants(struct scenario *sc, json_t *raw, const char *const *sets, GError **err)
{
	json_t *vs = json_object_get(sc->base, "variants");
	if (json_array_size(vs) == 0)
		return build_variant(sc, raw, "base", "", NULL, sets, err);
	size_t i;
	json_t *v;
	json_array_foreach (vs, i, v) {
		const char *name = json_string_value(json_object_get(v, "name"));
		if (!scenario_variant_name_check(sc->locs, v, i, err))
			return false;
		if (scenario_variant_find(sc, name)) {
			char *path = g_strdup_printf("variants.%zu.name", i);
			spec_fail(sc->locs, v, "name", path, err, "duplicate variant name \"%s\"",
				  name);
			g_free(path);
			return false;
		}
		if (!build_variant(sc, raw, name,
				   json_string_value(json_object_get(v, "description")),
				   json_object_get(v, "set"), sets, err)) {
			if (err && *err) { /* which variant the error is in */
				char *m = g_strdup_printf("%s (in variant \"%s\")", (*err)->message,
							  name);
				g_free((*err)->message);
				(*err)->message = m;
			}
			return false;
		}
		struct scenario_variant *built = sc->variants->pdata[sc->variants->len - 1];
		if (json_object_get(v, "measured") &&
		    !(built->measured = scenario_measured_read(sc, v, i, err)))
			return false;
	}
	return true;
}

static bool has_ranges(const struct run_config *cfg)
{
	for (int i = 0; i < COST_N; i++)
		if (cost_range_drawn(&cfg->cost_range[i]))
			return true;
	return false;
}

/* Cost draws need a cost with a range to draw: a preset's, left at its
 * value, in some variant. The error points at the base's draw_costs, or
 * else at the first variant's that asks for draws. */
static bool check_draws(const struct scenario *sc, json_t *raw, GError **err)
{
	bool want = false, ranged = false;
	for (guint i = 0; i < sc->variants->len; i++) {
		const struct scenario_variant *v = sc->variants->pdata[i];
		want |= v->draws > 0;
		ranged |= has_ranges(v->config);
	}
	if (!want || ranged)
		return true;
	json_t *parent = sc->base;
	char *path = g_strdup("draw_costs");
	size_t i;
	json_t *v;
	bool in_base = json_integer_value(json_object_get(sc->base, "draw_costs")) > 0;
	json_array_foreach (json_object_get(raw, "variants"), i, v) {
		json_t *set = json_object_get(v, "set");
		if (in_base || json_integer_value(json_object_get(set, "draw_costs")) <= 0)
			continue;
		parent = set;
		g_free(path);
		path = g_strdup_printf("variants.%zu.set.draw_costs", i);
		break;
	}
	spec_fail(sc->locs, parent, "draw_costs", path, err,
		  "no cost has a range to draw from (name a machine.preset and leave its costs at "
		  "the preset's values; docs/hardware.md)");
	g_free(path);
	return false;
}

/* Every run's per-cgroup figures, kept by the parent until the result is
 * written, within SCENARIO_MAX_RESULT_BYTES. The error points at the base's
 * replicas, or its draw_costs when they are more. */
static bool check_result(const struct scenario *sc, GError **err)
{
	double bytes = 0;
	long most = 0, runs = 0;
	for (guint i = 0; i < sc->variants->len; i++) {
		const struct scenario_variant *v = sc->variants->pdata[i];
		long n = mm_cgroups_count(v->config), r = v->replicas + v->draws;
		bytes += (double)n * (SCENARIO_RESULT_CGROUP_BYTES +
				      (double)(r - 1) * SCENARIO_RESULT_CGROUP_RUN_BYTES);
		most = MAX(most, n);
		runs += r;
	}
	if (bytes <= SCENARIO_MAX_RESULT_BYTES)
		return true;
	const char *key = json_integer_value(json_object_get(sc->base, "draw_costs")) >
				  json_integer_value(json_object_get(sc->base, "replicas"))
			      ? "draw_costs"
			      : "replicas";
	spec_fail(sc->locs, sc->base, key, key, err,
		  "the result would hold about %.3g GiB of per-cgroup figures (up to %ld cgroups "
		  "in each of %ld runs: every variant's replicas and cost draws), more than the "
		  "%.0f GiB memcgsim keeps",
		  bytes / (1 << 30), most, runs, SCENARIO_MAX_RESULT_BYTES / (1 << 30));
	return false;
}

static struct scenario *load(const char *file, const char *text, size_t len,
			     const char *const *sets, GError **err)
{
	struct scenario *sc = scenario_new(file);
	if (len > SCENARIO_MAX_BYTES) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
			    "%s:1:1: (root): file too large (%zu bytes, at most %d)", file, len,
			    SCENARIO_MAX_BYTES);
		goto fail;
	}
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
			    "%s:1:1: (root): invalid JSON: the file starts with a UTF-8 byte order "
			    "mark (U+FEFF), which JSON does not allow; save it without one",
			    file);
		goto fail;
	}
	json_error_t jerr;
	json_t *raw = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!raw) {
		char *path = jpos_path_at(text, len, (size_t)jerr.position);
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT, "%s:%d:%d: %s: invalid JSON: %s", file,
			    jerr.line < 1 ? 1 : jerr.line, jerr.column < 1 ? 1 : jerr.column, path,
			    jerr.text);
		g_free(path);
		goto fail;
	}
	jpos_scan(sc->locs, file, text, len, NULL, "", raw, 1);
	bool ok = apply_sets(raw, sc->locs, sets, true, err);
	if (ok) {
		sc->base = jpos_copy(sc->locs, raw);
		ok = complete(sc->base, sc->locs, err) && check_doc(sc->base, sc->locs, err) &&
		     build_variants(sc, raw, sets, err) && scenario_defaults_check(sc, err) &&
		     check_draws(sc, raw, err) && check_result(sc, err);
	}
	if (ok)
		scenario_warnings(sc, raw, sets);
	json_decref(raw);
	if (ok)
		return sc;
fail:
	scenario_free(sc);
	return NULL;
}

struct scenario *scenario_load(const char *file, const char *text, size_t len,
			       const char *const *sets, GError **err)
{
	mcs_file_abandonable_begin(); /* a signal ends the command at once */
	struct scenario *sc = load(file, text, len, sets, err);
	mcs_file_abandonable_end();
	return sc;
}

struct scenario *scenario_load_file(const char *path, const char *const *sets, GError **err)
{
	gsize len = 0;
	char *text = mcs_file_read_input(path, SCENARIO_MAX_BYTES, &len, err);
	if (!text)
		return NULL;
	struct scenario *sc = scenario_load(path, text, len, sets, err);
	g_free(text);
	return sc;
}

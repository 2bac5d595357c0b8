// SPDX-License-Identifier: GPL-2.0-or-later
/* calib: a machine file, the costs one machine measured or a fit found for
 * it, as --set overrides of any scenario (calib.h). */
#include "calib.h"
#include "calib_in.h"
#include "cost.h"
#include "mcs_error.h"
#include "mcs_named.h"
#include "output.h"
#include "preset.h"
#include <math.h>

#define MACHINE_FORMAT "memcgsim-machine-1"

/* The cost keys, NULL-terminated: what a machine file's costs may name. */
static const char *const *cost_keys(void)
{
	static const char *keys[COST_N + 1];
	for (int i = 0; i < COST_N; i++)
		keys[i] = cost_table[i].key;
	return keys;
}

/* "WHERE: expected KIND, not "NAME" (did you mean "NEAR"?)TAIL"; false. */
static bool unknown(const struct calib_in *in, const char *where, const char *kind,
		    const char *name, const char *near, const char *tail, GError **err)
{
	char *what =
	    g_strdup_printf("%s, not \"%s\"%s%s%s%s", kind, name, near ? " (did you mean \"" : "",
			    near ? near : "", near ? "\"?)" : "", tail);
	calib_in_bad(err, in, where, what);
	g_free(what);
	return false;
}

/* Is @key a cost key? If not, the error, with its did-you-mean. */
static bool cost_key_check(const struct calib_in *in, const char *key, GError **err)
{
	const char *const *keys = cost_keys();
	if (g_strv_contains(keys, key))
		return true;
	char *where = calib_in_path("costs", key);
	unknown(in, where, "a machine.costs key", key, mcs_near_miss(key, keys),
		" (memcgsim schema lists them)", err);
	g_free(where);
	return false;
}

static bool preset_check(const struct calib_in *in, json_t *doc, GPtrArray *sets, GError **err)
{
	json_t *p = json_object_get(doc, "preset");
	if (!p)
		return true;
	const char *name = calib_in_string(in, doc, NULL, "preset", err);
	if (!name)
		return false;
	if (!preset_find(name))
		return unknown(in, "preset", "a preset", name, mcs_named_near(presets, name),
			       " (memcgsim schema lists them)", err);
	g_ptr_array_add(sets, g_strdup_printf("machine.preset=%s", name));
	return true;
}

static bool costs_sets(const struct calib_in *in, json_t *doc, GPtrArray *sets, GError **err)
{
	json_t *costs = json_object_get(doc, "costs");
	if (!json_is_object(costs) || !json_object_size(costs))
		return calib_in_bad(err, in, "costs",
				    "an object of machine.costs keys and their ns, not empty");
	const char *key;
	json_t *v;
	json_object_foreach (costs, key, v) {
		double ns;
		if (!cost_key_check(in, key, err) ||
		    !calib_in_number(in, costs, "costs", key, &ns, err))
			return false;
		if (ns < 0 || ns > COST_MAX_NS) {
			char *where = calib_in_path("costs", key);
			char *what = g_strdup_printf("a cost of 0 to %.0f ns", COST_MAX_NS);
			calib_in_bad(err, in, where, what);
			g_free(what);
			g_free(where);
			return false;
		}
		char buf[G_ASCII_DTOSTR_BUF_SIZE];
		g_ptr_array_add(sets,
				g_strdup_printf("machine.costs.%s=%s", key,
						g_ascii_formatd(buf, sizeof buf, "%.15g", ns)));
	}
	return true;
}

static bool members_check(const struct calib_in *in, json_t *doc, GError **err)
{
	static const char *const known[] = {"format", "source", "preset", "costs", NULL};
	const char *key;
	json_t *v;
	json_object_foreach (doc, key, v) {
		if (!g_strv_contains(known, key))
			return unknown(in, key, "one of format, source, preset and costs", key,
				       mcs_near_miss(key, known), "", err);
	}
	return true;
}

bool calib_machine_sets(const char *path, GPtrArray *sets, GError **err)
{
	struct calib_in in = {path, NULL, 0};
	json_t *doc = calib_in_load(&in, err);
	bool ok = doc != NULL;
	if (ok && !json_is_object(doc))
		ok = calib_in_bad(err, &in, "(root)", "an object: a memcgsim machine file");
	const char *format = ok ? calib_in_string(&in, doc, NULL, "format", err) : NULL;
	if (format && !g_str_equal(format, MACHINE_FORMAT))
		ok = calib_in_bad(err, &in, "format", "\"" MACHINE_FORMAT "\"");
	ok = ok && format && members_check(&in, doc, err) &&
	     calib_in_string(&in, doc, NULL, "source", err);
	guint first = sets->len;
	ok = ok && preset_check(&in, doc, sets, err) && costs_sets(&in, doc, sets, err);
	if (!ok)
		g_ptr_array_remove_range(sets, first, sets->len - first);
	json_decref(doc);
	g_free(in.text);
	return ok;
}

bool calib_machine_write(const struct calib_spec *s, const char *path, GError **err)
{
	if (!(fabs(s->worst) <= s->bound)) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_FAILED,
			    "--machine-out %s: not written: the fit's largest error, %+.1f%%, is "
			    "beyond its bound of %g%%; a machine file holds only a fit within it "
			    "(widen the grid, or give the bound)",
			    path, 100 * s->worst, 100 * s->bound);
		return false;
	}
	json_t *costs = json_object();
	for (int i = 0; i < s->nparams; i++)
		json_object_set_new(costs, s->params[i].key, json_real(s->params[i].fit));
	char *source = g_strdup_printf("memcgsim calibrate %s: the fit of %d parameter%s of the "
				       "preset %s to its %u curve%s",
				       s->path, s->nparams, s->nparams == 1 ? "" : "s", s->preset,
				       s->curves->len, s->curves->len == 1 ? "" : "s");
	json_t *doc = json_pack("{s:s, s:s, s:s, s:o}", "format", MACHINE_FORMAT, "source", source,
				"preset", s->preset, "costs", costs);
	g_free(source);
	char *text = json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
	json_decref(doc);
	GString *out = g_string_new(text);
	free(text);
	g_string_append_c(out, '\n');
	bool ok = output_write(path, out->str, out->len, err);
	if (!ok && err && !*err)
		g_set_error(err, MCS_ERROR, MCS_ERROR_FAILED, "%s: cannot write the machine file",
			    path);
	g_string_free(out, TRUE);
	return ok;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* A sweep's plan: the scenario at every grid point, its runs, sweep.json,
 * and the points' warnings. */
#include "identity.h"
#include "mcs_file.h"
#include "output.h"
#include "sweep_parts.h"
#include <errno.h>
#include <string.h>

void sweep_plan_free(struct sweep_plan *pl)
{
	runfile_runs_free(pl->runs);
	json_decref(pl->point_runs);
	if (pl->points)
		g_ptr_array_free(pl->points, TRUE);
	if (pl->params)
		g_ptr_array_free(pl->params, TRUE);
	json_decref(pl->manifest);
	g_free(pl->plan);
	g_free(pl);
}

/* A parameter replaces an earlier one with the same paths. */
static void add_param(GPtrArray *params, struct sweep_param *p)
{
	for (guint i = 0; i < params->len; i++) {
		struct sweep_param *q = params->pdata[i];
		if (g_strv_equal((const char *const *)q->paths, (const char *const *)p->paths)) {
			sweep_param_free(q);
			params->pdata[i] = p;
			return;
		}
	}
	g_ptr_array_add(params, p);
}

/* The scenario's own "sweep" parameters, then the command line's; errors
 * point at the string in the file, or at the --param argument. */
static bool plan_params(struct sweep_plan *pl, const struct scenario *sc, GError **err)
{
	pl->params = g_ptr_array_new_with_free_func((GDestroyNotify)sweep_param_free);
	json_t *own = json_object_get(sc->base, "sweep");
	GString *why = g_string_new(NULL);
	int col;
	bool ok = true;
	size_t i;
	json_t *s;
	json_array_foreach (own, i, s) {
		struct sweep_param *p = sweep_param_parse(json_string_value(s), why, &col);
		if (!p) {
			char key[32], path[48];
			g_snprintf(key, sizeof(key), "%zu", i);
			g_snprintf(path, sizeof(path), "sweep.%zu", i);
			ok = spec_fail(sc->locs, own, key, path, err, "%s", why->str);
			break;
		}
		add_param(pl->params, p);
	}
	for (const char *const *args = pl->o->params; ok && args && *args; args++) {
		struct sweep_param *p = sweep_param_parse(*args, why, &col);
		if (!p) {
			const char *eq = strchr(*args, '=');
			char *path = eq && eq != *args ? g_strndup(*args, (gsize)(eq - *args))
						       : g_strdup("(root)");
			g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT, "--param:1:%d: %s: %s", col,
				    path, why->str);
			g_free(path);
			ok = false;
			break;
		}
		add_param(pl->params, p);
	}
	g_string_free(why, TRUE);
	return ok;
}

static struct sweep_param *const *plan_param_array(const struct sweep_plan *pl)
{
	return (struct sweep_param *const *)pl->params->pdata;
}

const struct scenario *sweep_point_scenario(const struct sweep_plan *pl, guint p)
{
	return pl->points->pdata[p];
}

static json_t *manifest_params(const struct sweep_plan *pl)
{
	json_t *a = json_array();
	for (guint i = 0; i < pl->params->len; i++) {
		const struct sweep_param *p = pl->params->pdata[i];
		json_t *paths = json_array();
		for (char **s = p->paths; *s; s++)
			json_array_append_new(paths, json_string(*s));
		json_array_append_new(a, json_pack("{s:o, s:s, s:O, s:b}", "paths", paths, "spec",
						   p->values_text, "values", p->values, "log",
						   p->log));
	}
	return a;
}

/* What identifies the sweep: a directory holds runs of one manifest only. */
static json_t *manifest_new(const struct sweep_plan *pl, const char *text, size_t len)
{
	const struct sweep_opts *o = pl->o;
	const struct scenario *sc0 = sweep_point_scenario(pl, 0);
	json_t *sets = json_array(), *variants = json_array(), *points = json_array();
	for (const char *const *s = o->sets; s && *s; s++)
		json_array_append_new(sets, json_string(*s));
	for (guint v = 0; v < sc0->variants->len; v++) {
		const struct scenario_variant *sv = sc0->variants->pdata[v];
		json_array_append_new(variants, json_pack("{s:s, s:s}", "name", sv->name,
							  "description", sv->description));
	}
	for (guint p = 0; p < pl->points->len; p++) {
		char *label = sweep_grid_label(plan_param_array(pl), pl->params->len, p);
		json_array_append_new(points, json_string(label));
		g_free(label);
	}
	char *sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)text, len);
	/* the file's name, not its path: shards run from other directories */
	char *file = g_path_get_basename(o->scenario);
	json_t *base = sc0->base;
	json_t *m =
	    json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:I, s:o, s:o, s:o, s:o, s:i, s:I, "
		      "s:O}",
		      "format", "memcgsim-sweep-plan-1", IDENTITY_KEY, identity_model(),
		      "scenario_file", file, "scenario_sha256", sum, "scenario",
		      json_string_value(json_object_get(base, "name")), "description",
		      json_string_value(json_object_get(base, "description")), "seed",
		      json_integer_value(json_object_get(base, "seed")), "sets", sets, "params",
		      manifest_params(pl), "variants", variants, "points", points, "replicas",
		      o->replicas, "runs", (json_int_t)pl->nruns, "point_runs", pl->point_runs);
	g_free(sum);
	g_free(file);
	return m;
}

/* The overrides every point starts from: --set, --seed, --replicas. */
static char **base_sets(const struct sweep_opts *o)
{
	GPtrArray *sets = g_ptr_array_new();
	for (const char *const *s = o->sets; s && *s; s++)
		g_ptr_array_add(sets, g_strdup(*s));
	if (o->replicas)
		g_ptr_array_add(sets, g_strdup_printf("replicas=%d", o->replicas));
	g_ptr_array_add(sets, NULL);
	return (char **)g_ptr_array_free(sets, FALSE);
}

/* The parameters, from the scenario with the overrides @sets alone, and
 * the number of grid points they span. */
static bool plan_grid(struct sweep_plan *pl, const char *text, gsize len, char **sets,
		      size_t *npoints, GError **err)
{
	struct scenario *sc =
	    scenario_load(pl->o->scenario, text, len, (const char *const *)sets, err);
	if (!sc)
		return false;
	bool ok = plan_params(pl, sc, err);
	scenario_free(sc);
	*npoints = ok ? sweep_grid_size(plan_param_array(pl), pl->params->len) : 0;
	if (ok && !*npoints) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
			    "--param: the grid has more than %d points", SWEEP_MAX_RUNS);
		ok = false;
	}
	return ok;
}

/* Grid point @p's runs, as the plan keeps them (runfile_runs() lists them
 * from it): each variant's seed, replicas and cost draws. */
static void plan_runs(struct sweep_plan *pl, const struct scenario *at)
{
	json_t *variants = json_array();
	for (guint v = 0; v < at->variants->len; v++) {
		const struct scenario_variant *sv = at->variants->pdata[v];
		json_array_append_new(variants, runfile_variant_runs(sv->seed, sv->replicas,
								     sv->draws, sv->draw_seed));
		pl->nruns += (size_t)sv->replicas + (size_t)sv->draws;
	}
	json_array_append_new(pl->point_runs, variants);
}

/* The scenario at grid point @p (the overrides @sets, then the point's
 * values) and its runs. */
static bool plan_point(struct sweep_plan *pl, const char *text, gsize len, char **sets, size_t p,
		       GError **err)
{
	char **values = sweep_grid_sets(plan_param_array(pl), pl->params->len, p);
	GPtrArray *at_sets = g_ptr_array_new();
	for (char **s = sets; *s; s++)
		g_ptr_array_add(at_sets, *s);
	for (char **s = values; *s; s++)
		g_ptr_array_add(at_sets, *s);
	g_ptr_array_add(at_sets, NULL);
	GError *e = NULL;
	struct scenario *at =
	    scenario_load(pl->o->scenario, text, len, (const char *const *)at_sets->pdata, &e);
	g_ptr_array_free(at_sets, TRUE);
	g_strfreev(values);
	if (!at) {
		char *label = sweep_grid_label(plan_param_array(pl), pl->params->len, p);
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT, "%s (at sweep point %s)", e->message,
			    label);
		g_free(label);
		g_error_free(e);
		return false;
	}
	g_ptr_array_add(pl->points, at);
	if (!scenario_choose(at, pl->o->variant, err)) /* the same at every point */
		return false;
	plan_runs(pl, at);
	if (pl->nruns > SWEEP_MAX_RUNS) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
			    "--param: the sweep has more than %d runs", SWEEP_MAX_RUNS);
		return false;
	}
	return true;
}

struct sweep_plan *sweep_plan_new(const struct sweep_opts *o, GError **err)
{
	struct sweep_plan *pl = g_new0(struct sweep_plan, 1);
	pl->o = o;
	pl->points = g_ptr_array_new_with_free_func((GDestroyNotify)scenario_free);
	pl->point_runs = json_array();
	gsize len = 0;
	char *text = mcs_file_read_input(o->scenario, SCENARIO_MAX_BYTES, &len, err);
	char **sets = base_sets(o);
	size_t npoints = 0;
	bool ok = text && plan_grid(pl, text, len, sets, &npoints, err);
	for (size_t p = 0; ok && p < npoints; p++) {
		/* a signal stops the plan at its next point (within one, the
		 * loader abandons it at once): seconds, for 20,000 runs */
		ok = output_go_on(err) && plan_point(pl, text, len, sets, p, err);
		char *where = g_strdup_printf(" at sweep point %zu", p);
		ok = ok && runner_check_work(pl->points->pdata[p], o->force, where, err);
		g_free(where);
		if (ok && p > 0) /* checked: its runs need its variants alone */
			scenario_drop_source(pl->points->pdata[p]);
	}
	if (ok) {
		pl->manifest = manifest_new(pl, text, len);
		pl->plan = runfile_plan_hash(pl->manifest);
		pl->runs = runfile_runs(pl->manifest); /* the list a reader makes of it */
		ok = pl->runs != NULL;
		if (!ok)
			g_set_error(err, MCS_ERROR, MCS_ERROR_FAILED,
				    "the sweep's runs cannot be listed from its plan");
	}
	g_strfreev(sets);
	g_free(text);
	if (!ok)
		g_clear_pointer(&pl, sweep_plan_free);
	return pl;
}

/* @text of a warning at a point whose swept values are @values ("PATH=VALUE"),
 * each value's "--set PATH=VALUE" said as the "--param PATH" it is, so that
 * every point's is the same text. */
static char *point_warning(char **values, const char *text)
{
	GString *s = g_string_new(text);
	for (char **v = values; *v; v++) {
		char *set = g_strconcat("--set ", *v, NULL);
		char *param = g_strconcat("--param ", *v, NULL);
		param[strcspn(param, "=")] = '\0';
		g_string_replace(s, set, param, 0);
		g_free(param);
		g_free(set);
	}
	return g_string_free(s, FALSE);
}

GPtrArray *sweep_plan_warnings(const struct sweep_plan *pl)
{
	GHashTable *count = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	GPtrArray *first = g_ptr_array_new();			/* the texts, first met first */
	GArray *at = g_array_new(FALSE, FALSE, sizeof(size_t)); /* and their points */
	for (size_t p = 0; p < pl->points->len; p++) {
		const struct scenario *sc = pl->points->pdata[p];
		char **values = sc->warnings->len
				    ? sweep_grid_sets(plan_param_array(pl), pl->params->len, p)
				    : NULL;
		for (guint w = 0; w < sc->warnings->len; w++) {
			char *text = point_warning(
			    values,
			    ((const struct scenario_warning *)sc->warnings->pdata[w])->text);
			gsize n = GPOINTER_TO_SIZE(g_hash_table_lookup(count, text));
			if (!n) {
				g_ptr_array_add(first, text);
				g_array_append_val(at, p);
			}
			/* a text met before: the table keeps the first and frees this one */
			g_hash_table_insert(count, text, GSIZE_TO_POINTER(n + 1));
		}
		g_strfreev(values);
	}
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < first->len; i++) {
		size_t p = g_array_index(at, size_t, i);
		gsize more = GPOINTER_TO_SIZE(g_hash_table_lookup(count, first->pdata[i])) - 1;
		char *label = sweep_grid_label(plan_param_array(pl), pl->params->len, p);
		char *and = more ? g_strdup_printf(", and %zu more", (size_t)more) : g_strdup("");
		g_ptr_array_add(out, g_strdup_printf("%s (at sweep point %zu: %s%s)",
						     (const char *)first->pdata[i], p, label, and));
		g_free(and);
		g_free(label);
	}
	g_array_free(at, TRUE);
	g_ptr_array_free(first, TRUE);
	g_hash_table_destroy(count);
	return out;
}

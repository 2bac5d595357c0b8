// SPDX-License-Identifier: GPL-2.0-or-later
#include "runfile.h"
#include "identity.h"
#include "mcs_file.h"
#include "output.h"
#include "result.h"
#include "sweep.h"
#include <errno.h>
#include <stdlib.h>

char *runfile_plan_hash(json_t *manifest)
{
	json_t *plan = identity_strip(manifest); /* the plan, whichever build made it */
	char *text = json_dumps(plan, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(plan);
	char *sum = g_compute_checksum_for_string(G_CHECKSUM_SHA256, text, -1);
	free(text);
	return sum;
}

/* The result's own fields: what the report and merge read from it. */
static char *result_problem(json_t *r, json_int_t seed)
{
	if (!json_is_object(r))
		return g_strdup("result: expected an object");
	if (!json_is_integer(json_object_get(r, "seed")) ||
	    json_integer_value(json_object_get(r, "seed")) != seed)
		return g_strdup_printf("result.seed: expected %lld", (long long)seed);
	if (!json_is_boolean(json_object_get(r, "completed")))
		return g_strdup("result.completed: expected true or false");
	GError *e = NULL;
	if (result_check_run(r, &e))
		return NULL;
	char *why = g_strdup(e->message);
	g_error_free(e);
	return why;
}

/* The run's identity and outcome around the result. */
char *runfile_problem(json_t *doc, const char *name, const char *plan, json_int_t seed)
{
	if (!json_is_object(doc))
		return g_strdup("expected an object");
	const char *p = json_string_value(json_object_get(doc, "plan"));
	if (!p || !g_str_equal(p, plan))
		return g_strdup("not a run of this sweep (plan: its plan's SHA-256 differs)");
	const char *n = json_string_value(json_object_get(doc, "run_name"));
	if (!n || !g_str_equal(n, name))
		return g_strdup_printf("run_name: expected \"%s\"", name);
	json_t *s = json_object_get(doc, "seed");
	if (!json_is_integer(s) || (seed >= 0 && json_integer_value(s) != seed))
		return g_strdup_printf("seed: expected %lld", (long long)(seed >= 0 ? seed : 0));
	if (!json_is_boolean(json_object_get(doc, "violation")))
		return g_strdup("violation: expected true or false");
	return result_problem(json_object_get(doc, "result"), json_integer_value(s));
}

json_t *runfile_read_json(const char *path, gsize max, gsize max_parsed, char **why)
{
	char *text = NULL;
	gsize len = 0;
	GError *e = NULL;
	*why = NULL;
	if (!mcs_file_read_owned(path, max, &text, &len, &e)) {
		*why = g_strdup(e->message);
		g_error_free(e);
		return NULL;
	}
	output_test_signal_at(path);
	json_error_t je;
	json_t *doc = len ? mcs_file_parse(text, len, 0, max_parsed, &je, &e) : NULL;
	g_free(text);
	if (!len)
		*why = g_strdup("empty");
	else if (e)
		*why = g_strdup(e->message);
	else if (!doc)
		*why = g_strdup_printf("not JSON: %d:%d: %s", je.line, je.column, je.text);
	g_clear_error(&e);
	return doc;
}

json_t *runfile_load(const char *path, const char *name, const char *plan, json_int_t seed,
		     char **why)
{
	json_t *doc = runfile_read_json(path, RUNFILE_MAX_BYTES, RUNFILE_MAX_PARSED, why);
	if (doc && (*why = runfile_problem(doc, name, plan, seed)))
		g_clear_pointer(&doc, json_decref);
	return doc;
}

void runfile_quarantine(const char *dir, const char *name, const char *why, runner_note_fn note)
{
	char *from = g_strdup_printf("%s/runs/%s.json", dir, name);
	char *bad = g_build_filename(dir, "bad", NULL);
	char *to = g_strdup_printf("%s/%s.json", bad, name);
	GError *e = NULL;
	/* bad/ and the name in it as any owned output: not through a symlink */
	bool moved = output_check_owned(bad, true, &e) && g_mkdir_with_parents(bad, 0777) == 0 &&
		     output_move(from, to, &e);
	/* @why may quote the file: said printable */
	char *msg = moved ? g_strdup_printf("%s: damaged (%s); moved to %s, running it again", from,
					    why, to)
			  : g_strdup_printf("%s: damaged (%s); cannot move it aside (%s)", from,
					    why, e ? e->message : g_strerror(errno));
	if (note)
		note(msg); /* cli/ says it, printable */
	g_free(msg);
	g_clear_error(&e);
	g_free(from);
	g_free(bad);
	g_free(to);
}

char *runfile_path(const char *dir, const char *name)
{
	return g_strdup_printf("%s/runs/%s.json", dir, name);
}

char *runfile_name(guint point, guint variant, bool drawn, int index)
{
	return drawn ? g_strdup_printf("p%04u-v%02u-d%04d", point, variant, index)
		     : g_strdup_printf("p%04u-v%02u-r%03d", point, variant, index);
}

json_t *runfile_variant_runs(uint64_t seed, int replicas, int draws, uint64_t draw_seed)
{
	return json_pack("{s:I, s:i, s:i, s:I}", "seed", (json_int_t)seed, "replicas", replicas,
			 "draws", draws, "draw_seed", (json_int_t)draw_seed);
}

static void runs_add(GArray *runs, guint p, guint v, bool drawn, int i, uint64_t seed)
{
	struct runfile_run r = {p, v, i, drawn, seed, runfile_name(p, v, drawn, i)};
	g_array_append_val(runs, r);
}

/* Variant @v's runs at point @p from its entry @e; false when @e is not
 * one runfile_variant_runs() makes. */
static bool variant_runs(GArray *runs, guint p, guint v, json_t *e)
{
	json_t *seed = json_object_get(e, "seed"), *draw_seed = json_object_get(e, "draw_seed");
	json_int_t nr = json_integer_value(json_object_get(e, "replicas"));
	json_int_t nd = json_integer_value(json_object_get(e, "draws"));
	if (!json_is_integer(seed) || !json_is_integer(draw_seed) || nr < 1 ||
	    nr > SCENARIO_MAX_REPLICAS || nd < 0 || nd > SCENARIO_MAX_DRAWS ||
	    runs->len + (guint)(nr + nd) > SWEEP_MAX_RUNS)
		return false;
	for (int r = 0; r < nr; r++)
		runs_add(runs, p, v, false, r,
			 scenario_replica_seed((uint64_t)json_integer_value(seed), r));
	for (int d = 0; d < nd; d++)
		runs_add(runs, p, v, true, d,
			 scenario_draw_seed((uint64_t)json_integer_value(draw_seed), d));
	return true;
}

GArray *runfile_runs(json_t *manifest)
{
	json_t *points = json_object_get(manifest, "point_runs");
	size_t nv = json_array_size(json_object_get(manifest, "variants"));
	GArray *runs = g_array_new(FALSE, TRUE, sizeof(struct runfile_run));
	bool ok = json_array_size(points) == json_array_size(json_object_get(manifest, "points")) &&
		  json_array_size(points) > 0;
	size_t p;
	json_t *at;
	json_array_foreach (points, p, at) {
		ok = ok && json_array_size(at) == nv && nv > 0;
		for (size_t v = 0; ok && v < nv; v++)
			ok = variant_runs(runs, (guint)p, (guint)v, json_array_get(at, v));
		if (!ok)
			break;
	}
	ok = ok && (json_int_t)runs->len == json_integer_value(json_object_get(manifest, "runs"));
	if (!ok)
		g_clear_pointer(&runs, runfile_runs_free);
	return runs;
}

void runfile_runs_free(GArray *runs)
{
	for (guint i = 0; runs && i < runs->len; i++)
		g_free(g_array_index(runs, struct runfile_run, i).name);
	if (runs)
		g_array_free(runs, TRUE);
}

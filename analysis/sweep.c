/* Running a sweep: the plan (grid x variants x replicas), its directory,
 * resuming, shards and merging. */
#include "sweep.h"
#include "output.h"
#include "progress.h"
#include "result.h"
#include "runner.h"
#include "scenario.h"
#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#define EXIT_FAILED 1
#define EXIT_USAGE 2

struct run {
	guint point, variant;
	int replica;
	uint64_t seed;
	char *name; /* pPPPP-vVV-rRRR */
};

struct plan {
	GPtrArray *params;   /* struct sweep_param * */
	GPtrArray *points;   /* struct scenario *, one per grid point */
	GArray *runs;	     /* struct run, in run-index order */
	json_t *manifest;    /* DIR/sweep.json */
};

static void plan_free(struct plan *p)
{
	for (guint i = 0; p->runs && i < p->runs->len; i++)
		g_free(g_array_index(p->runs, struct run, i).name);
	if (p->runs)
		g_array_free(p->runs, TRUE);
	if (p->points)
		g_ptr_array_free(p->points, TRUE);
	if (p->params)
		g_ptr_array_free(p->params, TRUE);
	json_decref(p->manifest);
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
static bool plan_params(struct plan *pl, const struct scenario *sc, const char *const *args,
			GError **err)
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
	for (; ok && args && *args; args++) {
		struct sweep_param *p = sweep_param_parse(*args, why, &col);
		if (!p) {
			const char *eq = strchr(*args, '=');
			char *path = eq && eq != *args ? g_strndup(*args, (gsize)(eq - *args))
						      : g_strdup("(root)");
			g_set_error(err, MCS_ERROR, 0, "--param:1:%d: %s: %s", col, path, why->str);
			g_free(path);
			ok = false;
			break;
		}
		add_param(pl->params, p);
	}
	g_string_free(why, TRUE);
	return ok;
}

static const struct scenario *point_scenario(const struct plan *pl, guint p)
{
	return pl->points->pdata[p];
}

static json_t *manifest_params(const struct plan *pl)
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
static json_t *manifest_new(const struct plan *pl, const struct sweep_opts *o, const char *text,
			    size_t len)
{
	const struct scenario *sc0 = point_scenario(pl, 0);
	json_t *sets = json_array(), *variants = json_array(), *points = json_array();
	for (const char *const *s = o->sets; s && *s; s++)
		json_array_append_new(sets, json_string(*s));
	for (guint v = 0; v < sc0->variants->len; v++) {
		const struct scenario_variant *sv = sc0->variants->pdata[v];
		json_array_append_new(variants, json_pack("{s:s, s:s}", "name", sv->name,
							  "description", sv->description));
	}
	for (guint p = 0; p < pl->points->len; p++) {
		char *label = sweep_grid_label((struct sweep_param *const *)pl->params->pdata,
					       pl->params->len, p);
		json_array_append_new(points, json_string(label));
		g_free(label);
	}
	char *sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)text, len);
	/* the file's name, not its path: shards run from other directories */
	char *file = g_path_get_basename(o->scenario);
	json_t *base = sc0->base;
	json_t *m = json_pack("{s:s, s:s, s:s, s:s, s:s, s:I, s:o, s:o, s:o, s:o, s:i, s:I}",
			      "format", "memcgsim-sweep-plan-1", "scenario_file", file,
			      "scenario_sha256", sum, "scenario",
			      json_string_value(json_object_get(base, "name")), "description",
			      json_string_value(json_object_get(base, "description")), "seed",
			      json_integer_value(json_object_get(base, "seed")), "sets", sets,
			      "params", manifest_params(pl), "variants", variants, "points", points,
			      "replicas", o->replicas, "runs", (json_int_t)pl->runs->len);
	g_free(sum);
	g_free(file);
	return m;
}

/* Load the scenario at every grid point (all checked before anything
 * runs) and list the runs. */
static bool plan_build(struct plan *pl, const struct sweep_opts *o, GError **err)
{
	char *text = NULL;
	gsize len = 0;
	GError *ferr = NULL;
	if (!g_file_get_contents(o->scenario, &text, &len, &ferr)) {
		g_set_error(err, MCS_ERROR, 0, "%s:1:1: (root): cannot read: %s", o->scenario,
			    ferr->message);
		g_error_free(ferr);
		return false;
	}
	GPtrArray *sets = g_ptr_array_new_with_free_func(g_free);
	for (const char *const *s = o->sets; s && *s; s++)
		g_ptr_array_add(sets, g_strdup(*s));
	if (o->replicas)
		g_ptr_array_add(sets, g_strdup_printf("replicas=%d", o->replicas));
	guint nsets = sets->len;
	g_ptr_array_add(sets, NULL);
	struct scenario *sc = scenario_load(o->scenario, text, len,
					    (const char *const *)sets->pdata, err);
	bool ok = sc && plan_params(pl, sc, o->params, err);
	scenario_free(sc);
	size_t npoints = ok ? sweep_grid_size((struct sweep_param *const *)pl->params->pdata,
					      pl->params->len)
			    : 0;
	if (ok && !npoints) {
		g_set_error(err, MCS_ERROR, 0, "--param: the grid has more than %d points",
			    SWEEP_MAX_RUNS);
		ok = false;
	}
	pl->points = g_ptr_array_new_with_free_func((GDestroyNotify)scenario_free);
	pl->runs = g_array_new(FALSE, TRUE, sizeof(struct run));
	for (size_t p = 0; ok && p < npoints; p++) {
		char **ps = sweep_grid_sets((struct sweep_param *const *)pl->params->pdata,
					    pl->params->len, p);
		g_ptr_array_set_size(sets, nsets); /* drops the last point's and the NULL */
		for (char **s = ps; *s; s++)
			g_ptr_array_add(sets, g_strdup(*s));
		g_ptr_array_add(sets, NULL);
		g_strfreev(ps);
		GError *e = NULL;
		struct scenario *at = scenario_load(o->scenario, text, len,
						    (const char *const *)sets->pdata, &e);
		if (!at) {
			char *label = sweep_grid_label((struct sweep_param *const *)pl->params->pdata,
						       pl->params->len, p);
			g_set_error(err, MCS_ERROR, 0, "%s (at sweep point %s)", e->message, label);
			g_free(label);
			g_error_free(e);
			ok = false;
			break;
		}
		g_ptr_array_add(pl->points, at);
		for (guint v = 0; v < at->variants->len; v++) {
			const struct scenario_variant *sv = at->variants->pdata[v];
			for (int r = 0; r < sv->replicas; r++) {
				struct run run = {(guint)p, v, r, scenario_replica_seed(sv->seed, r),
						  g_strdup_printf("p%04zu-v%02u-r%03d", p, v, r)};
				g_array_append_val(pl->runs, run);
			}
		}
		if (pl->runs->len > SWEEP_MAX_RUNS) {
			g_set_error(err, MCS_ERROR, 0, "--param: the sweep has more than %d runs",
				    SWEEP_MAX_RUNS);
			ok = false;
		}
	}
	if (ok)
		pl->manifest = manifest_new(pl, o, text, len);
	g_ptr_array_free(sets, TRUE);
	g_free(text);
	return ok;
}

static char *run_path(const char *dir, const char *name)
{
	return g_strdup_printf("%s/runs/%s.json", dir, name);
}

/* Create @dir for the sweep, or check that it holds this very sweep.
 * Returns the exit status to stop with, or -1 to go on. */
static int dir_prepare(const char *dir, json_t *manifest, bool resume, bool merging)
{
	char *mpath = g_build_filename(dir, "sweep.json", NULL);
	char *runs = g_build_filename(dir, "runs", NULL);
	int rc = -1;
	json_t *old = json_load_file(mpath, 0, NULL);
	GDir *d = g_dir_open(dir, 0, NULL);
	bool empty = !d || !g_dir_read_name(d);
	if (d)
		g_dir_close(d);
	if (old && !json_equal(old, manifest)) {
		fprintf(stderr, "memcgsim: %s: holds a different sweep (its sweep.json differs); "
				"choose another --out\n", dir);
		rc = EXIT_USAGE;
	} else if (!old && !empty) {
		fprintf(stderr, "memcgsim: %s: exists and is not a sweep directory\n", dir);
		rc = EXIT_USAGE;
	} else if (old && !resume && !merging) {
		fprintf(stderr, "memcgsim: %s: already holds this sweep; --resume continues it\n",
			dir);
		rc = EXIT_USAGE;
	} else if (g_mkdir_with_parents(runs, 0777) != 0) {
		fprintf(stderr, "memcgsim: %s: %s\n", runs, g_strerror(errno));
		rc = EXIT_FAILED;
	} else if (!old) {
		char *text = json_dumps(manifest, JSON_INDENT(2));
		GError *e = NULL;
		if (!g_file_set_contents(mpath, text, -1, &e)) {
			fprintf(stderr, "memcgsim: %s\n", e->message);
			g_error_free(e);
			rc = EXIT_FAILED;
		}
		free(text);
	}
	json_decref(old);
	g_free(mpath);
	g_free(runs);
	return rc;
}

/* Files a killed run left half-written. */
static void dir_clean(const char *dir)
{
	char *runs = g_build_filename(dir, "runs", NULL);
	output_remove_files(runs, ".tmp.");
	g_free(runs);
}

static gint by_name(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sweep's result from its manifest and run files alone (so that any
 * way of getting the runs there gives the same bytes). NULL when a run is
 * missing: *missing counts them. */
static json_t *result_build(const char *dir, json_t *m, size_t *missing, bool *violation)
{
	json_t *variants_m = json_object_get(m, "variants"), *points_m = json_object_get(m, "points");
	size_t nv = json_array_size(variants_m), np = json_array_size(points_m);
	json_t ***reps = g_new0(json_t **, np);
	for (size_t p = 0; p < np; p++) {
		reps[p] = g_new0(json_t *, nv);
		for (size_t v = 0; v < nv; v++)
			reps[p][v] = json_array();
	}
	*missing = (size_t)json_integer_value(json_object_get(m, "runs"));
	*violation = false;
	char *runs = g_build_filename(dir, "runs", NULL);
	GDir *d = g_dir_open(runs, 0, NULL);
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	const char *n;
	while (d && (n = g_dir_read_name(d)))
		if (g_str_has_suffix(n, ".json") && !strstr(n, ".tmp."))
			g_ptr_array_add(names, g_strdup(n));
	if (d)
		g_dir_close(d);
	g_ptr_array_sort(names, by_name); /* pPPPP-vVV-rRRR: run order */
	for (guint i = 0; i < names->len; i++) {
		unsigned p, v, r;
		if (sscanf(names->pdata[i], "p%4u-v%2u-r%3u.json", &p, &v, &r) != 3 || p >= np ||
		    v >= nv)
			continue;
		char *path = g_build_filename(runs, names->pdata[i], NULL);
		json_t *run = json_load_file(path, 0, NULL);
		g_free(path);
		if (!run)
			continue;
		*violation |= json_is_true(json_object_get(run, "violation"));
		if (json_array_size(reps[p][v]) == r) /* replicas in order, from 0 */
			json_array_append(reps[p][v], json_object_get(run, "result"));
		json_decref(run);
		(*missing)--;
	}
	g_ptr_array_free(names, TRUE);
	g_free(runs);
	json_t *points = *missing ? NULL : json_array();
	json_t *base = json_pack("{s:O, s:O, s:O}", "name", json_object_get(m, "scenario"),
				 "description", json_object_get(m, "description"), "seed",
				 json_object_get(m, "seed"));
	for (size_t p = 0; p < np; p++) {
		json_t *variants = json_array();
		for (size_t v = 0; points && v < nv; v++) {
			json_t *vm = json_array_get(variants_m, v);
			json_array_append_new(
				variants,
				result_variant(json_string_value(json_object_get(vm, "name")),
					       json_string_value(json_object_get(vm, "description")),
					       reps[p][v]));
		}
		if (points)
			json_array_append_new(points,
					      json_pack("{s:I, s:O, s:o, s:o}", "index", (json_int_t)p,
							"label", json_array_get(points_m, p), "values",
							sweep_point_values(json_object_get(m, "params"), p),
							"result", result_document(base, variants)));
		else
			json_decref(variants);
		for (size_t v = 0; v < nv; v++)
			json_decref(reps[p][v]);
		g_free(reps[p]);
	}
	g_free(reps);
	json_decref(base);
	if (!points)
		return NULL;
	return json_pack("{s:s, s:O, s:O, s:O, s:O, s:o}", "format", "memcgsim-sweep-1", "scenario",
			 json_object_get(m, "scenario"), "description",
			 json_object_get(m, "description"), "seed", json_object_get(m, "seed"),
			 "params", json_object_get(m, "params"), "points", points);
}

/* Write DIR/result.json when every run is in; print where things stand. */
static int finish(const char *dir, json_t *m, bool failed)
{
	size_t missing;
	bool violation;
	json_t *r = result_build(dir, m, &missing, &violation);
	size_t total = (size_t)json_integer_value(json_object_get(m, "runs"));
	if (!r) {
		fprintf(stderr, "memcgsim: %s: %zu of %zu runs done; resume the sweep, or merge its "
				"shards, for the result\n", dir, total - missing, total);
		return failed ? EXIT_FAILED : 0;
	}
	char *text = json_dumps(r, JSON_INDENT(1));
	char *path = g_build_filename(dir, "result.json", NULL);
	GError *e = NULL;
	bool ok = g_file_set_contents(path, text, -1, &e);
	if (ok)
		fprintf(stderr, "memcgsim: %s: all %zu runs done; result in %s\n", dir, total, path);
	else
		fprintf(stderr, "memcgsim: %s\n", e->message);
	g_clear_error(&e);
	g_free(path);
	free(text);
	json_decref(r);
	if (violation)
		fprintf(stderr, "memcgsim: a run of the sweep reported a failure\n");
	return !ok || failed || violation ? EXIT_FAILED : 0;
}

static void run_done(struct runner_job *j, void *bar)
{
	progress_step(bar, json_string_value(json_object_get(j->meta, "run_name")), j->wall_s);
}

int sweep_run(const struct sweep_opts *o)
{
	struct plan pl = {0};
	GError *err = NULL;
	if (!plan_build(&pl, o, &err)) {
		fprintf(stderr, "%s\n", err->message);
		g_error_free(err);
		plan_free(&pl);
		return EXIT_USAGE;
	}
	int rc = dir_prepare(o->out, pl.manifest, o->resume, false);
	if (rc >= 0) {
		plan_free(&pl);
		return rc;
	}
	dir_clean(o->out);
	GArray *jobs = g_array_new(FALSE, TRUE, sizeof(struct runner_job));
	size_t mine = 0;
	for (guint i = 0; i < pl.runs->len; i++) {
		const struct run *r = &g_array_index(pl.runs, struct run, i);
		if ((int)(i % (guint)o->shard_n) != o->shard_k - 1)
			continue;
		mine++;
		char *path = run_path(o->out, r->name);
		if (g_file_test(path, G_FILE_TEST_EXISTS)) {
			g_free(path);
			continue;
		}
		const struct scenario *sc = point_scenario(&pl, r->point);
		const struct scenario_variant *v = sc->variants->pdata[r->variant];
		struct runner_job j = {.config = v->config, .seed = r->seed, .dest = path};
		j.meta = json_pack("{s:s, s:I, s:I, s:s, s:i, s:I}", "run_name", r->name, "point",
				   (json_int_t)r->point, "variant", (json_int_t)r->variant, "variant_name",
				   v->name, "replica", r->replica, "seed", (json_int_t)r->seed);
		g_array_append_val(jobs, j);
	}
	struct progress bar;
	progress_start(&bar, stderr, mine, mine - jobs->len, o->tty);
	struct runner_job *js = (struct runner_job *)(void *)jobs->data;
	bool ok = runner_jobs(js, jobs->len, o->jobs, run_done, &bar, &err);
	progress_finish(&bar);
	if (!ok) {
		fprintf(stderr, "memcgsim: %s\n", err->message);
		g_error_free(err);
	}
	for (guint k = 0; k < jobs->len; k++) {
		g_free((char *)js[k].dest);
		json_decref(js[k].meta);
	}
	g_array_free(jobs, TRUE);
	rc = finish(o->out, pl.manifest, !ok);
	plan_free(&pl);
	return rc;
}

/* Copy @src's run files into @out; a run found twice must be the same. */
static bool merge_runs(const char *out, const char *src)
{
	char *runs = g_build_filename(src, "runs", NULL);
	GDir *d = g_dir_open(runs, 0, NULL);
	const char *n;
	bool ok = true;
	while (ok && d && (n = g_dir_read_name(d))) {
		if (!g_str_has_suffix(n, ".json") || strstr(n, ".tmp."))
			continue;
		char *from = g_build_filename(runs, n, NULL);
		char *to = g_strdup_printf("%s/runs/%s", out, n);
		char *a = NULL, *b = NULL;
		gsize la = 0, lb = 0;
		GError *e = NULL;
		if (!g_file_get_contents(from, &a, &la, &e)) {
			fprintf(stderr, "memcgsim: %s\n", e->message);
			ok = false;
		} else if (g_file_get_contents(to, &b, &lb, NULL)) {
			if (la != lb || memcmp(a, b, la) != 0) {
				fprintf(stderr, "memcgsim: %s: differs from %s\n", from, to);
				ok = false;
			}
		} else if (!g_file_set_contents(to, a, (gssize)la, &e)) {
			fprintf(stderr, "memcgsim: %s\n", e->message);
			ok = false;
		}
		g_clear_error(&e);
		g_free(a);
		g_free(b);
		g_free(from);
		g_free(to);
	}
	if (d)
		g_dir_close(d);
	g_free(runs);
	return ok;
}

int sweep_merge(const char *out, const char *const *dirs)
{
	json_t *m = NULL;
	int rc = -1;
	for (const char *const *d = dirs; rc < 0 && *d; d++) {
		char *path = g_build_filename(*d, "sweep.json", NULL);
		json_t *x = json_load_file(path, 0, NULL);
		if (!x) {
			fprintf(stderr, "memcgsim: %s: not a sweep directory (no readable sweep.json)\n",
				*d);
			rc = EXIT_USAGE;
		} else if (m && !json_equal(m, x)) {
			fprintf(stderr, "memcgsim: %s: a different sweep from %s (sweep.json differs)\n",
				*d, dirs[0]);
			rc = EXIT_USAGE;
		}
		if (!m)
			m = json_incref(x);
		json_decref(x);
		g_free(path);
	}
	if (rc < 0)
		rc = dir_prepare(out, m, false, true);
	for (const char *const *d = dirs; rc < 0 && *d; d++)
		if (!merge_runs(out, *d))
			rc = EXIT_FAILED;
	if (rc < 0)
		rc = finish(out, m, false);
	json_decref(m);
	return rc;
}

json_t *sweep_result_load(const char *dir, GError **err)
{
	char *path = g_build_filename(dir, "result.json", NULL);
	json_error_t je;
	json_t *r = json_load_file(path, 0, &je);
	if (!r) {
		char *m = g_build_filename(dir, "sweep.json", NULL);
		if (g_file_test(m, G_FILE_TEST_EXISTS))
			g_set_error(err, MCS_ERROR, 0, "%s: the sweep is not complete (no result.json): "
						       "resume it, or merge its shards", dir);
		else
			g_set_error(err, MCS_ERROR, 0, "%s: not a sweep directory", dir);
		g_free(m);
	}
	g_free(path);
	return r;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* Running a sweep: the plan (grid x variants x replicas), its directory,
 * resuming, shards and merging. */
#include "sweep.h"
#include "identity.h"
#include "mcs_file.h"
#include "output.h"
#include "output_dir.h"
#include "progress.h"
#include "result.h"
#include "runfile.h"
#include "runner.h"
#include "scenario.h"
#include "sweep_result.h"
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#define SWEEP_LOCK ".memcgsim.lock"

/* Take the exclusive lock of @dir (made if missing): its file DIR/.memcgsim.lock,
 * flock()ed for as long as the sweep or merge runs, holding the pid. A second
 * memcgsim finds it taken and stops (MCS_ERROR_INPUT) naming the holder.
 * The descriptor to close, or -1. */
static int dir_lock(const char *dir, GError **err)
{
	if (g_mkdir_with_parents(dir, 0777) != 0) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_FAILED, "%s: %s", dir, g_strerror(errno));
		return -1;
	}
	char *path = g_build_filename(dir, SWEEP_LOCK, NULL);
	int fd = output_lock_open(path, err);
	if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) != 0) {
		char holder[32] = "";
		ssize_t n = pread(fd, holder, sizeof(holder) - 1, 0);
		holder[n > 0 ? n : 0] = '\0';
		g_strchomp(holder);
		g_set_error(
		    err, MCS_ERROR, MCS_ERROR_INPUT,
		    "%s: in use by another memcgsim (pid %s); wait for it, or choose another "
		    "--out",
		    dir, *holder ? holder : "unknown");
		close(fd);
		fd = -1;
	} else if (fd >= 0) {
		char pid[32];
		int len = g_snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
		if (ftruncate(fd, 0) != 0 || !output_fd_put(fd, path, pid, (size_t)len, err)) {
			if (err && !*err)
				g_set_error(err, MCS_ERROR, MCS_ERROR_FAILED,
					    "%s: cannot write: %s", path, g_strerror(errno));
			close(fd);
			fd = -1;
		}
	}
	g_free(path);
	return fd;
}

static void dir_unlock(int fd)
{
	output_dir_release_all();
	if (fd >= 0)
		close(fd); /* releases the flock; the file stays, harmlessly */
}

/* From here on DIR and DIR/runs are the command's (output_dir.h): their
 * files are written through descriptors held open, and a name replaced
 * stops the next write. */
static bool dir_own(const char *dir, GError **err)
{
	char *runs = g_build_filename(dir, "runs", NULL);
	bool ok = output_dir_own(dir, err) && output_dir_own(runs, err);
	g_free(runs);
	return ok;
}

struct sweep_plan {
	const struct sweep_opts *o; /* what it was made from */
	GPtrArray *params;	    /* struct sweep_param * */
	GPtrArray *points;	    /* struct scenario *, one per grid point */
	json_t *point_runs;	    /* each point's variants' runs, as sweep.json keeps them */
	size_t nruns;		    /* how many they are */
	GArray *runs;		    /* struct runfile_run, in run-index order, from the manifest */
	json_t *manifest;	    /* DIR/sweep.json */
	char *plan;		    /* its SHA-256, in every run file */
};

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

static const struct scenario *point_scenario(const struct sweep_plan *pl, guint p)
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

/* Two sweep plans alike but for the builds that made them. */
static bool same_plan(json_t *a, json_t *b)
{
	json_t *sa = identity_strip(a), *sb = identity_strip(b);
	bool same = json_equal(sa, sb);
	json_decref(sa);
	json_decref(sb);
	return same;
}

/* A directory's sweep.json, or NULL when it has none it can read. */
static json_t *manifest_read(const char *path)
{
	char *why = NULL;
	json_t *m =
	    runfile_read_json(path, SWEEP_MANIFEST_MAX_BYTES, SWEEP_MANIFEST_MAX_PARSED, &why);
	g_free(why);
	return m;
}

/* Does @dir hold nothing of a sweep's but what one interrupted (a signal,
 * a full disk) before its plan was in place leaves: the lock, an empty
 * runs/, the plan's temporary? Such a directory starts afresh, so an
 * interruption at any moment leaves one that --resume or a rerun takes. */
static bool dir_unplanned(const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	bool empty = true;
	for (const char *n; empty && d && (n = g_dir_read_name(d));) {
		char *path = g_build_filename(dir, n, NULL);
		GDir *sub = g_str_equal(n, "runs") ? g_dir_open(path, 0, NULL) : NULL;
		GStatBuf st;
		bool runs_empty =
		    sub && !g_dir_read_name(sub) && g_lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
		if (sub)
			g_dir_close(sub);
		empty = g_str_equal(n, SWEEP_LOCK) || runs_empty ||
			g_str_has_prefix(n, "sweep.json.tmp.");
		g_free(path);
	}
	if (d)
		g_dir_close(d);
	return empty;
}

/* Create @dir for the sweep, or check that it holds this very sweep. */
static bool dir_prepare(const char *dir, json_t *manifest, bool resume, bool merging, bool mix,
			GError **err)
{
	char *mpath = g_build_filename(dir, "sweep.json", NULL);
	char *runs = g_build_filename(dir, "runs", NULL);
	bool ok = false;
	json_t *old = manifest_read(mpath);
	bool empty = dir_unplanned(dir);
	char *rpath = g_build_filename(dir, "result.json", NULL);
	bool owned = output_check_owned(mpath, false, err) && output_check_owned(runs, true, err) &&
		     output_check_owned(rpath, false, err);
	g_free(rpath);
	if (!owned) {
		/* said */
	} else if (old && !same_plan(old, manifest)) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
			    "%s: holds a different sweep (its sweep.json differs); choose another "
			    "--out",
			    dir);
	} else if (old && !mix && !g_str_equal(identity_of(old), identity_of(manifest))) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
			    "%s: made by model %s, but this %s model %s; runs of two builds do not "
			    "make one result (use the build that made it, or accept the mix with "
			    "--mix-builds)",
			    mpath, identity_of(old), merging ? "merge's shards are of" : "build is",
			    identity_of(manifest));
	} else if (!old && !empty) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
			    "%s: exists and is not a sweep directory", dir);
	} else if (old && !resume && !merging) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
			    "%s: already holds this sweep; --resume continues it", dir);
	} else if (g_mkdir_with_parents(runs, 0777) != 0) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_FAILED, "%s: %s", runs, g_strerror(errno));
	} else if (!old) {
		char *text = json_dumps(manifest, JSON_INDENT(2));
		ok = output_file(mpath, text, -1, err);
		free(text);
	} else {
		ok = true;
	}
	json_decref(old);
	g_free(mpath);
	g_free(runs);
	return ok;
}

/* Files a killed run or merge left half-written: a run's own temporaries
 * (NAME.json.tmp.PID) and those of the files written atomically
 * (NAME.json.XXXXXX, result.json.XXXXXX). */
static void dir_clean(const char *dir)
{
	char *runs = g_build_filename(dir, "runs", NULL);
	output_remove_files(runs, ".json.");
	output_remove_files(dir, "result.json.");
	g_free(runs);
}

void sweep_outcome_clear(struct sweep_outcome *so)
{
	g_clear_pointer(&so->result_path, g_free);
}

static void run_done(struct runner_job *j, void *bar)
{
	progress_step(bar, json_string_value(json_object_get(j->meta, "run_name")), j->wall_s);
}

static void run_tick(const struct runner_job *jobs, size_t n, int parallel, void *bar)
{
	progress_tick(bar, jobs, n, parallel);
}

/* Is the run file @path there and sound? A damaged one (empty, truncated,
 * not JSON, of another plan or seed, a directory ...) is moved aside and
 * the run made again. A sound one's model goes into @ids. */
static bool run_file_done(const struct sweep_opts *o, const char *path, const char *name,
			  const char *plan, json_int_t seed, struct identity_set *ids)
{
	GStatBuf st;
	if (g_lstat(path, &st) != 0)
		return false;
	char *why = NULL;
	json_t *doc = runfile_load(path, name, plan, seed, &why);
	if (doc)
		identity_set_add(ids, doc, path);
	else if (!output_interrupted()) /* stopped while read: not damaged */
		runfile_quarantine(o->out, name, why, o->note);
	json_decref(doc);
	g_free(why);
	return doc != NULL;
}

/* The jobs of shard K of N's runs that are not in the directory yet;
 * *mine counts the shard's runs, and @ids gets the models of those in. */
static GArray *shard_jobs(const struct sweep_plan *pl, size_t *mine, struct identity_set *ids)
{
	const struct sweep_opts *o = pl->o;
	GArray *jobs = g_array_new(FALSE, TRUE, sizeof(struct runner_job));
	*mine = 0;
	for (guint i = 0; i < pl->runs->len && !output_interrupted(); i++) {
		const struct runfile_run *r = &g_array_index(pl->runs, struct runfile_run, i);
		if ((int)(i % (guint)o->shard_n) != o->shard_k - 1)
			continue;
		(*mine)++;
		char *path = runfile_path(o->out, r->name);
		if (run_file_done(o, path, r->name, pl->plan, (json_int_t)r->seed, ids)) {
			g_free(path);
			continue;
		}
		const struct scenario *sc = point_scenario(pl, r->point);
		const struct scenario_variant *v = sc->variants->pdata[r->variant];
		struct runner_job j =
		    r->drawn ? runner_draw_job(v, r->index)
			     : (struct runner_job){.config = v->config, .seed = r->seed};
		j.dest = path;
		j.variant = v->name;
		j.point = (int)r->point;
		j.meta = json_pack("{s:s, s:s, s:s, s:I, s:I, s:s, s:i, s:I}", IDENTITY_KEY,
				   identity_model(), "plan", pl->plan, "run_name", r->name, "point",
				   (json_int_t)r->point, "variant", (json_int_t)r->variant,
				   "variant_name", v->name, r->drawn ? "draw" : "replica", r->index,
				   "seed", (json_int_t)r->seed);
		g_array_append_val(jobs, j);
	}
	return jobs;
}

/* Run the shard's runs that are not in the directory yet, with a progress
 * bar (or lines) on stderr; none when the runs in are of another model
 * than the plan (MCS_ERROR_INPUT, unless --mix-builds). */
static bool run_shard(const struct sweep_plan *pl, GError **err)
{
	size_t mine;
	struct identity_set ids;
	identity_set_init(&ids);
	char *mpath = g_build_filename(pl->o->out, "sweep.json", NULL);
	identity_set_add(&ids, pl->manifest, mpath);
	g_free(mpath);
	GArray *jobs = shard_jobs(pl, &mine, &ids);
	bool ok = identity_set_check(&ids, pl->o->mix_builds, err);
	identity_set_clear(&ids);
	struct runner_job *js = (struct runner_job *)(void *)jobs->data;
	if (ok) {
		struct progress bar;
		progress_start(&bar, pl->o->quiet ? NULL : stderr, mine, mine - jobs->len,
			       pl->o->tty);
		struct runner_opts ro = {.wall_limit = !pl->o->force,
					 .tick =
					     run_tick, /* the ETA from the running runs' progress */
					 .tick_ctx = &bar,
					 .note = pl->o->note};
		ok = runner_jobs(js, jobs->len, pl->o->jobs, &ro, run_done, &bar, err);
		progress_finish(&bar);
	}
	for (guint k = 0; k < jobs->len; k++) {
		g_free((char *)js[k].dest);
		json_decref(js[k].meta);
	}
	g_array_free(jobs, TRUE);
	return ok;
}

bool sweep_run(const struct sweep_plan *pl, struct sweep_outcome *out, GError **err)
{
	const struct sweep_opts *o = pl->o;
	*out = (struct sweep_outcome){0};
	int lock = dir_lock(o->out, err);
	if (lock < 0)
		return false;
	if (!dir_prepare(o->out, pl->manifest, o->resume, false, o->mix_builds, err) ||
	    !dir_own(o->out, err)) {
		dir_unlock(lock);
		return false;
	}
	dir_clean(o->out);
	GError *run_err = NULL;
	bool ran = run_shard(pl, &run_err);
	if (!ran) /* the half-written files of runs killed (a signal, the limit) */
		dir_clean(o->out);
	if (output_interrupted()) {
		dir_unlock(lock);
		g_propagate_error(err, run_err);
		return false;
	}
	/* the runs that are in count also when one failed, whose error is first */
	bool ok = sweep_result_write(o->out, pl->manifest, pl->runs, o->shard_k, o->shard_n,
				     o->mix_builds, out, ran ? err : NULL);
	if (!ran)
		g_propagate_error(err, run_err);
	dir_unlock(lock);
	return ran && ok;
}

/* Shard directory @dir's plan, which must be @m's (when given; the plan
 * of the first shard, @first) but for the model that made it. */
static json_t *shard_manifest(const char *dir, json_t *m, const char *first, GError **err)
{
	char *path = g_build_filename(dir, "sweep.json", NULL);
	json_t *x = manifest_read(path);
	g_free(path);
	if (!x) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
			    "%s: not a sweep directory (no readable sweep.json)", dir);
	} else if (m && !same_plan(m, x)) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
			    "%s: a different sweep from %s (sweep.json differs)", dir, first);
		g_clear_pointer(&x, json_decref);
	}
	return x;
}

/* The plan the shard directories @dirs share, made by one model unless
 * @mix. */
static json_t *merge_manifest(const char *const *dirs, bool mix, GError **err)
{
	json_t *m = NULL;
	struct identity_set ids;
	identity_set_init(&ids);
	bool ok = true;
	for (const char *const *d = dirs; ok && *d; d++) {
		json_t *x = shard_manifest(*d, m, dirs[0], err);
		char *path = g_build_filename(*d, "sweep.json", NULL);
		if (x)
			identity_set_add(&ids, x, path);
		g_free(path);
		ok = x != NULL;
		if (!m)
			m = x;
		else
			json_decref(x);
	}
	ok = ok && identity_set_check(&ids, mix, err);
	identity_set_clear(&ids);
	if (!ok)
		g_clear_pointer(&m, json_decref);
	return m;
}

/* Copy the run file @from to @to; a run found twice must be the same. */
static bool merge_run(const char *from, const char *to, GError **err)
{
	char *a = NULL, *b = NULL;
	gsize la = 0, lb = 0;
	GError *e = NULL;
	bool ok = true;
	if (!mcs_file_read_owned(from, RUNFILE_MAX_BYTES, &a, &la, &e)) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT, "%s: cannot read: %s", from,
			    e->message);
		g_error_free(e);
		ok = false;
	} else if (mcs_file_read_owned(to, RUNFILE_MAX_BYTES, &b, &lb, NULL)) {
		if (la != lb || memcmp(a, b, la) != 0) {
			g_set_error(err, MCS_ERROR, MCS_ERROR_FAILED, "%s: differs from %s", from,
				    to);
			ok = false;
		}
	} else {
		ok = output_file(to, a, (gssize)la, err);
	}
	g_free(a);
	g_free(b);
	return ok;
}

/* Copy @src's files of the plan's @runs into @out. */
static bool merge_runs(const char *out, const char *src, const GArray *runs, GError **err)
{
	bool ok = true;
	for (guint i = 0; ok && i < runs->len; i++) {
		const char *name = g_array_index(runs, struct runfile_run, i).name;
		char *from = runfile_path(src, name);
		char *to = runfile_path(out, name);
		GStatBuf st;
		ok = output_go_on(err) && (g_lstat(from, &st) != 0 || merge_run(from, to, err));
		g_free(from);
		g_free(to);
	}
	return ok;
}

/* Is run @r's file in @dir, and sound? A damaged one is an error. */
static bool merge_has(const char *dir, const struct runfile_run *r, const char *plan, bool *has,
		      struct identity_set *ids, GError **err)
{
	char *path = runfile_path(dir, r->name);
	GStatBuf st;
	char *why = NULL;
	json_t *doc = g_lstat(path, &st) == 0
			  ? runfile_load(path, r->name, plan, (json_int_t)r->seed, &why)
			  : NULL;
	if (why && output_interrupted()) /* stopped while read: not damaged */
		output_go_on(err);
	else if (why)
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
			    "%s: damaged (%s); resume its sweep (--resume) to run it again", path,
			    why);
	*has = *has || doc;
	if (doc)
		identity_set_add(ids, doc, path);
	json_decref(doc);
	g_free(why);
	g_free(path);
	return !why;
}

/* Before anything is written: every file of the plan's @runs in the
 * directories @from checked as --resume checks it, every run in one of
 * them, and all made by one model unless @mix. MCS_ERROR_INPUT when a file
 * is damaged, a run is in none or two models made them. */
static bool merge_check(const GPtrArray *from, json_t *m, const GArray *runs, bool mix,
			GError **err)
{
	char *plan = runfile_plan_hash(m);
	size_t missing = 0;
	const char *first = NULL;
	bool ok = true;
	struct identity_set ids;
	identity_set_init(&ids);
	for (guint i = 0; ok && i < runs->len; i++) {
		const struct runfile_run *r = &g_array_index(runs, struct runfile_run, i);
		bool has = false;
		ok = output_go_on(err);
		for (guint d = 0; ok && d < from->len; d++)
			ok = merge_has(from->pdata[d], r, plan, &has, &ids, err);
		if (ok && !has && !missing++)
			first = r->name;
	}
	if (ok && missing)
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
			    "merge: %zu of the sweep's %u runs are in none of the directories (the "
			    "first: %s); give every shard, and resume any that did not finish",
			    missing, runs->len, first);
	ok = ok && !missing && identity_set_check(&ids, mix, err);
	identity_set_clear(&ids);
	g_free(plan);
	return ok;
}

/* The directories a merge into @out takes runs from: @dirs, and @out when
 * it holds the sweep @m already. */
static GPtrArray *merge_sources(const char *out, const char *const *dirs, json_t *m)
{
	GPtrArray *from = g_ptr_array_new();
	for (const char *const *d = dirs; *d; d++)
		g_ptr_array_add(from, (gpointer)*d);
	char *path = g_build_filename(out, "sweep.json", NULL);
	json_t *had = manifest_read(path);
	if (had && same_plan(had, m))
		g_ptr_array_add(from, (gpointer)out);
	json_decref(had);
	g_free(path);
	return from;
}

/* The runs of the plan @m that the shard directory @dir holds. */
static GArray *merge_plan_runs(json_t *m, const char *dir, GError **err)
{
	GArray *runs = runfile_runs(m);
	if (!runs)
		g_set_error(
		    err, MCS_ERROR, MCS_ERROR_INPUT,
		    "%s/sweep.json: point_runs: expected each point's runs (a sweep.json of "
		    "an older memcgsim: run the sweep again)",
		    dir);
	return runs;
}

bool sweep_merge(const char *dir, const char *const *dirs, bool mix, struct sweep_outcome *out,
		 GError **err)
{
	*out = (struct sweep_outcome){0};
	json_t *m = merge_manifest(dirs, mix, err);
	GArray *runs = m ? merge_plan_runs(m, dirs[0], err) : NULL;
	GPtrArray *from = runs ? merge_sources(dir, dirs, m) : NULL;
	bool ok = from && merge_check(from, m, runs, mix, err);
	int lock = ok ? dir_lock(dir, err) : -1;
	ok = lock >= 0 && dir_prepare(dir, m, false, true, mix, err) && dir_own(dir, err);
	if (ok)
		dir_clean(dir);
	for (const char *const *d = dirs; ok && *d; d++)
		ok = merge_runs(dir, *d, runs, err);
	ok = ok && sweep_result_write(dir, m, runs, 1, 1, mix, out, err);
	dir_unlock(lock);
	if (from)
		g_ptr_array_free(from, TRUE);
	runfile_runs_free(runs);
	json_decref(m);
	return ok;
}

json_t *sweep_result_load(const char *dir, size_t max_parsed, GError **err)
{
	char *path = g_build_filename(dir, "result.json", NULL);
	char *why = NULL;
	json_t *r = runfile_read_json(path, RESULT_MAX_BYTES, max_parsed, &why);
	GStatBuf st;
	if (!r && g_lstat(path, &st) == 0) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT, "%s:1:1: (root): cannot read: %s",
			    path, why);
	} else if (!r) {
		char *m = g_build_filename(dir, "sweep.json", NULL);
		if (g_file_test(m, G_FILE_TEST_EXISTS))
			g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
				    "%s: the sweep is not complete (no result.json): resume it, or "
				    "merge its shards",
				    dir);
		else
			g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT, "%s: not a sweep directory",
				    dir);
		g_free(m);
	}
	g_free(why);
	g_free(path);
	return r;
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

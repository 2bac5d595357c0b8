// SPDX-License-Identifier: GPL-2.0-or-later
/* Running a sweep's runs (a shard of them), resuming, and loading a sweep
 * directory's result. */
#include "sweep.h"
#include "identity.h"
#include "output.h"
#include "progress.h"
#include "result.h"
#include "sweep_parts.h"
#include "sweep_result.h"
#include <errno.h>
#include <glib/gstdio.h>

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
		const struct scenario *sc = sweep_point_scenario(pl, r->point);
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
	int lock = sweep_dir_lock(o->out, err);
	if (lock < 0)
		return false;
	if (!sweep_dir_prepare(o->out, pl->manifest, o->resume, false, o->mix_builds, err) ||
	    !sweep_dir_own(o->out, err)) {
		sweep_dir_unlock(lock);
		return false;
	}
	sweep_dir_clean(o->out);
	GError *run_err = NULL;
	bool ran = run_shard(pl, &run_err);
	if (!ran) /* the half-written files of runs killed (a signal, the limit) */
		sweep_dir_clean(o->out);
	if (output_interrupted()) {
		sweep_dir_unlock(lock);
		g_propagate_error(err, run_err);
		return false;
	}
	/* the runs that are in count also when one failed, whose error is first */
	bool ok = sweep_result_write(o->out, pl->manifest, pl->runs, o->shard_k, o->shard_n,
				     o->mix_builds, out, ran ? err : NULL);
	if (!ran)
		g_propagate_error(err, run_err);
	sweep_dir_unlock(lock);
	return ran && ok;
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

// SPDX-License-Identifier: GPL-2.0-or-later
/* Merging sweep directories (shards) into one: their plans checked to be
 * one sweep's, their run files checked and copied, the result written. */
#include "identity.h"
#include "mcs_file.h"
#include "output.h"
#include "sweep_parts.h"
#include "sweep_result.h"
#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

/* Shard directory @dir's plan, which must be @m's (when given; the plan
 * of the first shard, @first) but for the model that made it. */
static json_t *shard_manifest(const char *dir, json_t *m, const char *first, GError **err)
{
	char *path = g_build_filename(dir, "sweep.json", NULL);
	json_t *x = sweep_manifest_read(path);
	g_free(path);
	if (!x) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
			    "%s: not a sweep directory (no readable sweep.json)", dir);
	} else if (m && !sweep_same_plan(m, x)) {
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
	json_t *had = sweep_manifest_read(path);
	if (had && sweep_same_plan(had, m))
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
	int lock = ok ? sweep_dir_lock(dir, err) : -1;
	ok = lock >= 0 && sweep_dir_prepare(dir, m, false, true, mix, err) &&
	     sweep_dir_own(dir, err);
	if (ok)
		sweep_dir_clean(dir);
	for (const char *const *d = dirs; ok && *d; d++)
		ok = merge_runs(dir, *d, runs, err);
	ok = ok && sweep_result_write(dir, m, runs, 1, 1, mix, out, err);
	sweep_dir_unlock(lock);
	if (from)
		g_ptr_array_free(from, TRUE);
	runfile_runs_free(runs);
	json_decref(m);
	return ok;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sweep_parts: what sweep.c (the runs), sweep_plan.c (the plan),
 * sweep_dir.c (the directory) and sweep_merge.c (merging) share; private to
 * sweep/. */
#pragma once
#include "runfile.h"
#include "sweep.h"
#include <glib.h>
#include <jansson.h>
#include <stdbool.h>

struct scenario;

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

/* sweep_dir.c */
/* Take the exclusive lock of @dir (made if missing): its file DIR/.memcgsim.lock,
 * flock()ed for as long as the sweep or merge runs, holding the pid. A second
 * memcgsim finds it taken and stops (MCS_ERROR_INPUT) naming the holder.
 * The descriptor to close, or -1. */
int sweep_dir_lock(const char *dir, GError **err);
void sweep_dir_unlock(int fd);
/* From here on DIR and DIR/runs are the command's (output_dir.h): their
 * files are written through descriptors held open, and a name replaced
 * stops the next write. */
bool sweep_dir_own(const char *dir, GError **err);
/* Two sweep plans alike but for the builds that made them. */
bool sweep_same_plan(json_t *a, json_t *b);
/* A directory's sweep.json, or NULL when it has none it can read. */
json_t *sweep_manifest_read(const char *path);
/* Create @dir for the sweep, or check that it holds this very sweep. */
bool sweep_dir_prepare(const char *dir, json_t *manifest, bool resume, bool merging, bool mix,
		       GError **err);
/* Files a killed run or merge left half-written: a run's own temporaries
 * (NAME.json.tmp.PID) and those of the files written atomically
 * (NAME.json.XXXXXX, result.json.XXXXXX). */
void sweep_dir_clean(const char *dir);

/* sweep_plan.c: the scenario at the plan's point @p */
const struct scenario *sweep_point_scenario(const struct sweep_plan *pl, guint p);

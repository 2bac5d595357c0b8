/* SPDX-License-Identifier: GPL-2.0-or-later */
/* runfile: a sweep's run files (DIR/runs/NAME.json), checked before they are
 * trusted: each is bound to its plan (the SHA-256 of the sweep's manifest),
 * its name and seed, and holds a well-formed result. A damaged one is moved
 * to DIR/bad/ and run again. */
#pragma once
#include "runner.h"
#include <glib.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

/* One run of a sweep: its place in the grid and its seed. */
struct runfile_run {
	guint point, variant;
	int index; /* the replica, or the cost draw when @drawn */
	bool drawn;
	uint64_t seed;
	char *name; /* runfile_name() */
};

/* The name of run @index of variant @variant at grid point @point (a cost
 * draw's when @drawn): "p0042-v01-r003", "p12345-v00-d0007" (the point
 * takes a fifth digit from 10000 on). The one place a run file's name is
 * made: the sweep that writes a run file and every reader (--resume, the
 * result, merge) look it up by this name; g_free it. */
char *runfile_name(guint point, guint variant, bool drawn, int index);
/* A variant's runs at a grid point as the plan (sweep.json's "point_runs":
 * per point, per variant) keeps them: its seed and replicas, its cost
 * draws and their seed. */
json_t *runfile_variant_runs(uint64_t seed, int replicas, int draws, uint64_t draw_seed);
/* The runs of the plan @manifest, in run-index order (a point's variants
 * in order, each one's replicas, then its cost draws), from its
 * "point_runs": a GArray of struct runfile_run; runfile_runs_free(). NULL
 * when "point_runs" is missing or not what runfile_variant_runs() makes. */
GArray *runfile_runs(json_t *manifest);
void runfile_runs_free(GArray *runs);

/* DIR/runs/NAME.json, the file of run @name in the sweep directory @dir;
 * g_free it. */
char *runfile_path(const char *dir, const char *name);
/* The plan's fingerprint, which every run file carries ("plan"): of the
 * manifest less the model that made it (identity.h), which is checked
 * apart so that a mix is named as such. */
char *runfile_plan_hash(json_t *manifest);
/* Run file @path of run @name: the document, or NULL with *why (g_free)
 * saying what is wrong with it. @seed < 0: any seed its result agrees on. */
json_t *runfile_load(const char *path, const char *name, const char *plan, json_int_t seed,
		     char **why);
/* The JSON document in @path, read with the limit @max applied while
 * reading and @max_parsed while parsing (mcs_file_parse); NULL with *@why
 * (g_free) when it cannot be read or parsed, "interrupted" when a signal
 * came (output_interrupted() says so: not a damaged file). */
json_t *runfile_read_json(const char *path, gsize max, gsize max_parsed, char **why);
/* The largest run file and what it may take once parsed: one replica's
 * result, 16 MB at the scenario's limits (65,535 cgroups, a line each);
 * and sweep.json, a plan of at most SWEEP_MAX_RUNS runs (3 MB there).
 * A sweep's result.json is read as report reads it (RESULT_MAX_BYTES). */
#define RUNFILE_MAX_BYTES (64 << 20)
#define RUNFILE_MAX_PARSED ((gsize)512 << 20)
#define SWEEP_MANIFEST_MAX_BYTES (16 << 20)
#define SWEEP_MANIFEST_MAX_PARSED ((gsize)128 << 20)

/* What is wrong with run-file document @doc (NULL: nothing; g_free it). */
char *runfile_problem(json_t *doc, const char *name, const char *plan, json_int_t seed);
/* Move @dir's run file @name aside to DIR/bad/ and say so through @note
 * (NULL: not said). */
void runfile_quarantine(const char *dir, const char *name, const char *why, runner_note_fn note);

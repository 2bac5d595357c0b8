/* SPDX-License-Identifier: GPL-2.0-or-later */
/* runfile: a sweep's run files (DIR/runs/NAME.json), checked before they are
 * trusted: each is bound to its plan (the SHA-256 of the sweep's manifest),
 * its name and seed, and holds a well-formed result. A damaged one is moved
 * to DIR/bad/ and run again. */
#pragma once
#include <glib.h>
#include <jansson.h>

/* The plan's fingerprint, which every run file carries ("plan"). */
char *runfile_plan_hash(json_t *manifest);
/* Run file @path of run @name: the document, or NULL with *why (g_free)
 * saying what is wrong with it. @seed < 0: any seed its result agrees on. */
json_t *runfile_load(const char *path, const char *name, const char *plan, json_int_t seed,
		     char **why);
/* The JSON document in @path, read with the limit @max applied while
 * reading; NULL with *@why (g_free) when it cannot be read or parsed. */
json_t *runfile_read_json(const char *path, gsize max, char **why);
/* The largest run file (one replica's result: far below this), sweep.json (a plan of at most 100000 runs) and result.json. */
#define RUNFILE_MAX_BYTES (256 * 1024 * 1024)
#define SWEEP_MANIFEST_MAX_BYTES (64 * 1024 * 1024)
#define SWEEP_RESULT_MAX_BYTES (1024 * 1024 * 1024)

/* What is wrong with run-file document @doc (NULL: nothing; g_free it). */
char *runfile_problem(json_t *doc, const char *name, const char *plan, json_int_t seed);
/* Move @dir's run file @name aside to DIR/bad/ and say so on stderr. */
void runfile_quarantine(const char *dir, const char *name, const char *why);

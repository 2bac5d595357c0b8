/* SPDX-License-Identifier: GPL-2.0-or-later */
/* result: the result document and the aggregation of replicas.
 *
 * A variant's aggregate takes, over its replicas: the mean of sim_time_ns,
 * of each cpu_time_ns category and of each metric; lock statistics merged
 * (counts and totals summed, min/max over all, averages and percentiles
 * recomputed from the merged samples); cache-line classes merged by name
 * (counts and times summed, sites by name). Per-replica values are kept
 * under "per_replica", the runs of cost draws apart under "draws". */
#pragma once
#include "result_keys.h"
#include "sim_machine.h"
#include <jansson.h>

/* The largest result that report and compare read, and a sweep's
 * result.json: its text, and what it may take once parsed (a result's
 * parsed form is 5 to 7 times its text, so a real one meets the first
 * limit first). Reading one at these limits, the text and the parsed form
 * held together and the report made, stays under 2 GiB (docs/results.md,
 * "Inputs"); compare gives each of its two inputs half of RESULT_MAX_PARSED. */
#define RESULT_MAX_BYTES (192 << 20)
#define RESULT_MAX_PARSED ((size_t)1536 << 20)

/* @replicas: the replica results of runner_run_one (not stolen). */
json_t *result_variant(const char *name, const char *description, json_t *replicas);
/* The machine a variant ran on, as its result says it ("machine"): the
 * topology, the clock and the contention model; the costs are the
 * command's and the scenario's to tell. */
json_t *result_machine(const struct sim_machine *m);
/* The same in a line ("2 nodes x 16 CPUs, 1 thread a core, 8 cores an
 * LLC, 2.45 GHz, queued"); g_free it. NULL when @machine is not one. */
char *result_machine_text(json_t *machine);
/* Add the results of the variant's cost draws (not stolen), in draw order,
 * as its "draws" (none: nothing). The aggregates are the replicas' alone. */
void result_variant_draws(json_t *variant, json_t *draws);
/* Per-replica values of a metric (or of a cpu_time_ns category when
 * @key starts with "cpu_time_ns."), as a newly allocated array of doubles. */
double *result_samples(json_t *variant, const char *key, size_t *n);
/* The increments of @key (as result_samples names it) over the fine batches
 * of @variant's run (its replica's "batches"), from the run's start to its
 * steady part's end (the batches' "steady": the first task's exit); NULL
 * unless the variant has one replica and it has batches of @key. */
double *result_batch_increments(json_t *variant, const char *key, size_t *n);
/* The same over the variant's cost draws, in draw order (none: *n = 0). */
double *result_draw_samples(json_t *variant, const char *key, size_t *n);
/* The result document of a scenario whose base is @base: @variants
 * (result_variant()s, stolen) with the scenario's name, description, seed,
 * and the model identity @model (identity.h; NULL: none, as in a sweep's
 * points, whose sweep records it once). */
json_t *result_document(json_t *base, json_t *variants, const char *model);
/* The variants of a sweep's point. */
json_t *result_point_variants(json_t *point);
/* Every replica's figure @key of every variant at every point of a sweep,
 * point by point; *@n of them (g_free it). */
double *result_points_samples(json_t *points, const char *key, size_t *n);
/* Check that @doc (a result or sweep result read from a file) has what the
 * reports use, with the right types; false with "PATH: expected ..." in @err. */
#include <glib.h>
#include <stdbool.h>
bool result_check(json_t *doc, GError **err);
/* The same checks of one run's result (a sweep's run file's "result", a
 * replica of a variant): merge, --resume and report share them. */
bool result_check_run(json_t *r, GError **err);
/* The order of line classes ("cachelines"; on json_t **, for sorting):
 * most transfers first, ties by class name. */
gint result_line_cmp(gconstpointer a, gconstpointer b);

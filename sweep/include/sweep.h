/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sweep: a scenario run over a grid of parameters (docs/sweeps.md).
 *
 * A parameter is "PATH[,PATH...]=VALUES": every PATH is set to the same
 * value (a cgroup count and the workload count that follows it). VALUES is a
 * list "1,2,4" or "node,memcg", a linear range "lin:START:STOP:N" or a log
 * range "log:START:STOP:N" (N points, ends included; integers when both ends
 * are). The grid is the cartesian product of the parameters, the first
 * slowest; each grid point runs every variant and replica, one process per
 * run, each written atomically as DIR/runs/pPPPP-vVV-rRRR.json. A sweep
 * killed at any moment resumes (--resume) without losing or repeating a run;
 * --shard K/N runs the runs whose index is K-1 modulo N, and
 * sweep_merge() puts shard directories together. Once every run is in,
 * DIR/result.json is built from the run files alone, so a merged sweep's
 * result is byte-identical to the unsharded one's. */
#pragma once
#include "runner.h"
#include <glib.h>
#include <jansson.h>
#include <stdbool.h>

#define SWEEP_MAX_VALUES 1024 /* per parameter */
/* The result of a sweep of this many runs of the smallest scenario (one run
 * a point, 7 KB of result each) is 139 MB, within what report reads
 * (RESULT_MAX_BYTES); docs/results.md, "Inputs". */
#define SWEEP_MAX_RUNS 20000

struct sweep_param {
	char **paths;	   /* NULL-terminated */
	char *values_text; /* as written */
	json_t *values;	   /* array of scalars */
	bool log;	   /* a log range: plotted on a log axis */
};

/* Parse "PATH[,PATH...]=VALUES". On error NULL, with what was wrong in @why
 * and the 1-based column of @arg it is about in *col. */
struct sweep_param *sweep_param_parse(const char *arg, GString *why, int *col);
void sweep_param_free(struct sweep_param *p);
/* The grid's size (0 when it exceeds SWEEP_MAX_RUNS), and point @i's value
 * index for each parameter (@idx has @nparams entries). */
size_t sweep_grid_size(struct sweep_param *const *params, size_t nparams);
void sweep_grid_point(struct sweep_param *const *params, size_t nparams, size_t i, size_t *idx);
/* "PATH=VALUE" overrides for point @i, NULL-terminated; g_strfreev. */
char **sweep_grid_sets(struct sweep_param *const *params, size_t nparams, size_t i);
/* "count=4, scope=memcg": a point's label (first path of each parameter, its
 * last component). */
char *sweep_grid_label(struct sweep_param *const *params, size_t nparams, size_t i);

/* Point @i's values, one per parameter, from a manifest's or result's
 * "params" array. */
json_t *sweep_point_values(json_t *params, size_t i);

struct sweep_opts {
	const char *scenario;
	const char *const *sets;   /* --set and --seed, NULL-terminated */
	const char *const *params; /* --param, NULL-terminated */
	int replicas;		   /* 0: the scenario's */
	const char *variant;	   /* --variant: which run (scenario_choose); NULL: the default */
	int jobs;
	const char *out;
	bool resume;
	int shard_k, shard_n; /* 1/1 when not sharded */
	bool tty;	      /* a progress bar rather than lines */
	bool quiet;	      /* no progress at all */
	bool force;	      /* run what the work estimate would refuse */
	bool mix_builds;      /* resume runs of another model (identity.h) */
	runner_note_fn note;  /* what is not an error (a run file moved aside); NULL: nothing */
};

/* The sweep's plan: the scenario at every grid point, and the runs. */
struct sweep_plan;

/* Load the scenario of @o at every grid point (all checked before anything
 * runs) and list the runs. NULL with @err (MCS_ERROR_INPUT, nothing written)
 * when the scenario, an override or a parameter is wrong; the message begins
 * with where: "FILE:LINE:COL: ", "--set:1:COL: " or "--param...". @o must
 * outlive the plan. */
struct sweep_plan *sweep_plan_new(const struct sweep_opts *o, GError **err);
void sweep_plan_free(struct sweep_plan *pl);
/* What the grid points' scenarios warn about (scenario.h), each text once,
 * with the first point that has it and how many more do ("TEXT (at sweep
 * point 0: hold_ns=50, and 3 more)"), in the order first met; free with
 * g_ptr_array_free(a, TRUE). */
GPtrArray *sweep_plan_warnings(const struct sweep_plan *pl);

/* Where a sweep's directory stands after sweep_run() or sweep_merge(); all
 * zero when they stopped before counting its runs. */
struct sweep_outcome {
	size_t done, total;  /* runs in the directory (done != total: not all of them) */
	char *result_path;   /* DIR/result.json, written now that every run is in */
	size_t result_bytes; /* its size */
	bool violation;	     /* every run is in, and one reported a failure */
};

/* Free what @so holds. */
void sweep_outcome_clear(struct sweep_outcome *so);
/* Run the plan's runs (of shard K of N) that are not in its directory yet,
 * then write DIR/result.json when every run is in. False with @err:
 * MCS_ERROR_INPUT when the directory holds another sweep, something else, or
 * this sweep without --resume (nothing written); MCS_ERROR_FAILED when it
 * cannot be written, a run's process failed or result.json cannot be
 * written. @out is filled in once the runs are counted, also after a failed
 * run (the first failure is the one in @err). */
bool sweep_run(const struct sweep_plan *pl, struct sweep_outcome *out, GError **err);
/* Merge the shard directories @dirs into @dir, then as sweep_run(): @err
 * is MCS_ERROR_INPUT when a directory is not a sweep's, or another sweep's
 * than the first, or its runs are of two models and @mix does not accept
 * that (identity.h), MCS_ERROR_FAILED when a run file cannot be copied or
 * differs from the one already there. */
bool sweep_merge(const char *dir, const char *const *dirs, bool mix, struct sweep_outcome *out,
		 GError **err);
/* The result of the complete sweep in @dir (DIR/result.json), read as
 * report reads a result (RESULT_MAX_BYTES, at most @max_parsed bytes once
 * parsed); NULL with @err (MCS_ERROR_INPUT) when it is not there. */
json_t *sweep_result_load(const char *dir, size_t max_parsed, GError **err);

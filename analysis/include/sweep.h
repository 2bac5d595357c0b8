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
#include <glib.h>
#include <jansson.h>
#include <stdbool.h>

#define SWEEP_MAX_VALUES 1024 /* per parameter */
#define SWEEP_MAX_RUNS 100000

struct sweep_param {
	char **paths;	/* NULL-terminated */
	char *values_text; /* as written */
	json_t *values;	/* array of scalars */
	bool log;	/* a log range: plotted on a log axis */
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
	int jobs;
	const char *out;
	bool resume;
	int shard_k, shard_n; /* 1/1 when not sharded */
	bool tty;	      /* a progress bar rather than lines */
};

/* Run a sweep. Returns the exit status: 0, 1 (a run failed or reported a
 * violation), 2 (bad usage or input: nothing written). */
int sweep_run(const struct sweep_opts *o);
/* Merge the shard directories @dirs into @out; exit status as above. */
int sweep_merge(const char *out, const char *const *dirs);
/* The result of the complete sweep in @dir (DIR/result.json). */
json_t *sweep_result_load(const char *dir, GError **err);

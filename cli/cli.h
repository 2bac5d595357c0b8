/* cli: the command line's options and commands (memcgsim.c: run, validate,
 * schema; cli_sweep.c: sweep, merge, report). Exit status 0 on success, 1
 * when a simulation fails or detects a violation, 2 for bad usage or bad
 * input. */
#pragma once
#include <glib.h>
#include <stdbool.h>

#define EXIT_VIOLATION 1
#define EXIT_USAGE 2
#define CLI_DRAW_COSTS_UNSET G_MININT

struct cli {
	char **sets;
	char *seed;
	char *variant;
	char *format;
	char *output;
	char **files;
	int jobs;
	char *trace;
	char *trace_window;
	int draw_costs; /* CLI_DRAW_COSTS_UNSET: the scenario's */
	/* sweep, merge, report */
	char **params;
	int replicas;
	char *out;
	gboolean resume;
	char *shard;
	char *sort;
	char *plots;
	int point;
	int timeout; /* --timeout SECONDS; 0: none */
	gboolean force; /* --force: past the work estimate's limit */
	gboolean quiet; /* --quiet: no progress on stderr */
	gboolean names; /* list --names */
	char *scenario_arg; /* the scenario as named, when files[0] is its path */
	gboolean version; /* no command: --version */
};

int cmd_sweep(struct cli *c);
int cmd_merge(struct cli *c);
int cmd_report(struct cli *c);
int cmd_compare(struct cli *c);
int cmd_list(struct cli *c);
/* A scenario argument: a path that exists (or has a '/', or ends in .json)
 * as it is; else the bundled scenario whose file name without ".json", or
 * whose "name", it is (cli_bundled.c); else NULL. g_free it. */
char *cli_scenario_path(const char *arg);
/* A result file, or the result of the sweep in directory @in, read and
 * checked; NULL with @err ("FILE:LINE:COL: ...") when it is not one. */
#include <jansson.h>
json_t *cli_report_load(const char *in, GError **err);
/* The overrides, with --seed N as one more "seed=N" and --draw-costs N as
 * "draw_costs=N"; NULL-terminated. */
GPtrArray *cli_collect_sets(struct cli *c);
/* Is --draw-costs absent or in range? False, having said why, when not. */
bool cli_draw_costs_valid(const struct cli *c);
/* --seed is a non-negative integer (says why on stderr when not). */
bool cli_seed_valid(const struct cli *c);
/* Check --timeout and start its clock (false, said on stderr, when bad). */
bool cli_timeout_start(const struct cli *c);
/* Print @err after @prefix ("memcgsim: "; "" for an error in the input,
 * which begins with where it is: "FILE:LINE:COL: ..."), free it, and return
 * the exit status for it: EXIT_USAGE for bad input (MCS_ERROR_INPUT),
 * EXIT_VIOLATION for any other failure. */
int cli_error(GError *err, const char *prefix);
/* Write @out to --output (standard output by default); false with @err,
 * "cannot write @what" when standard output fails. */
bool cli_output(const struct cli *c, GString *out, const char *what, GError **err);

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

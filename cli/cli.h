/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cli: the memcgsim command line. One file a command, cli_NAME.c, with its
 * options and its descriptor, cli_NAME_command; memcgsim.c: main(), the
 * option parsing and the table of commands; cli_util.h: what several
 * commands share. Exit status 0 on success, 1 when a simulation fails or
 * detects a violation, 2 for bad usage or bad input. */
#pragma once
#include "mcs_named.h"
#include <glib.h>
#include <limits.h>
#include <stdbool.h>

#define EXIT_VIOLATION 1
#define EXIT_USAGE 2
#define CLI_DRAW_COSTS_UNSET G_MININT

#define CLI_TIMEOUT_UNSET INT_MIN /* no --timeout given (0 given is refused) */
struct cli {
	char **sets;
	char **machines; /* --machine FILE: applied to sets (cli_machines_apply) */
	char *seed;
	char *variant;
	char *format;
	gboolean summary; /* --summary: --format summary */
	char *output;
	char **files;
	int jobs;
	int draw_costs; /* CLI_DRAW_COSTS_UNSET: the scenario's */
	/* run and sweep; sweep and merge */
	int replicas;
	char *out;
	struct change_resolution *resolution; /* --resolution (change.h); NULL: none given */
	int timeout;			      /* --timeout SECONDS; CLI_TIMEOUT_UNSET: none */
	gboolean force;			      /* --force: past the work estimate's limit */
	gboolean mix_builds;		      /* --mix-builds: runs of two models in one sweep */
	gboolean quiet;			      /* --quiet: no progress on stderr */
	char *scenario_arg;		      /* the scenario as named, when files[0] is its path */
	gboolean version;		      /* no command: --version */
};

/* A command's FILE arguments, when not exactly 0 (unchecked), 1 or 2. */
#define CLI_FILES_ONE_OR_MORE (-1)
#define CLI_FILES_AT_MOST_ONE (-2)

/* A command: what main() parses for it and the function it runs. */
struct cli_command {
	MCS_NAMED;		     /* .doc: its line in memcgsim --help's list of commands */
	const char *synopsis;	     /* the help's first line, after "memcgsim NAME" */
	const GOptionEntry *options; /* they write into cli_args (cli_util.h) */
	int files;		     /* FILE arguments: 0 (unchecked), 1, 2, or CLI_FILES_* */
	const char *files_what;	     /* what they are, in the error when they are not */
	bool scenario;		     /* its FILE may name a bundled scenario (cli_scenario_path) */
	int (*fn)(struct cli *c);    /* the exit status */
	void (*cleanup)(void);	     /* after fn: frees what its own options set; NULL: none */
};

/* The commands, each in its file cli_NAME.c. */
extern const struct cli_command cli_run_command;
extern const struct cli_command cli_validate_command;
extern const struct cli_command cli_schema_command;
extern const struct cli_command cli_sweep_command;
extern const struct cli_command cli_merge_command;
extern const struct cli_command cli_report_command;
extern const struct cli_command cli_compare_command;
extern const struct cli_command cli_list_command;
extern const struct cli_command cli_calibrate_command;
extern const struct cli_command cli_locks_command;
extern const struct cli_command cli_fit_command;

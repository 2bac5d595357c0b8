/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What several commands share. cli_util.c: the values the options set and
 * the option entries that set them, the checks of those values, errors and
 * their exit statuses, the output, the scenario a command loads, a sweep's
 * end; cli_bundled.c: the bundled scenarios; cli_result.c: a result read. */
#pragma once
#include "cli.h"
#include <jansson.h>

/* What the options set: every command's GOptionEntry list writes here, and
 * main() passes it to the command. */
extern struct cli cli_args;

/* The option entries of more than one command. */
#define CLI_OPT_SET                                                                                \
	{"set",                                                                                    \
	 0,                                                                                        \
	 0,                                                                                        \
	 G_OPTION_ARG_FILENAME_ARRAY,                                                              \
	 &cli_args.sets,                                                                           \
	 "Override a scenario value by dotted path (repeatable)",                                  \
	 "PATH=VALUE"},                                                                            \
	    {"machine",                                                                            \
	     0,                                                                                    \
	     0,                                                                                    \
	     G_OPTION_ARG_FILENAME_ARRAY,                                                          \
	     &cli_args.machines,                                                                   \
	     "A machine file's preset and costs (memcgsim-probe, calibrate --machine-out), as "    \
	     "--set "                                                                              \
	     "overrides before the others (repeatable: a later file wins)",                        \
	     "FILE"},                                                                              \
	{                                                                                          \
		"seed", 0, 0, G_OPTION_ARG_STRING, &cli_args.seed, "Override the scenario's seed", \
		    "N"                                                                            \
	}
#define CLI_OPT_TIMEOUT                                                                            \
	{                                                                                          \
		"timeout", 0, 0, G_OPTION_ARG_INT, &cli_args.timeout,                              \
		    "Stop after SECONDS of wall time: the simulations are killed, nothing is "     \
		    "written, exit 1",                                                             \
		    "SECONDS"                                                                      \
	}
#define CLI_OPT_FORCE                                                                              \
	{                                                                                          \
		"force", 0, 0, G_OPTION_ARG_NONE, &cli_args.force,                                 \
		    "Run even what the work estimates refuse (10000 simulated CPU-seconds, 30 "    \
		    "minutes of wall time)",                                                       \
		    NULL                                                                           \
	}
#define CLI_OPT_MIX_BUILDS                                                                         \
	{                                                                                          \
		"mix-builds", 0, 0, G_OPTION_ARG_NONE, &cli_args.mix_builds,                       \
		    "Accept runs made by another build (model) in the sweep's result", NULL        \
	}
#define CLI_OPT_JOBS                                                                               \
	{                                                                                          \
		"jobs", 'j', 0, G_OPTION_ARG_INT, &cli_args.jobs,                                  \
		    "Simulations run at once (default: the CPUs online); results do not depend "   \
		    "on it",                                                                       \
		    "N"                                                                            \
	}
/* The FILE arguments; @what names them in the help's synopsis. */
#define CLI_OPT_FILES(what)                                                                        \
	{                                                                                          \
		G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &cli_args.files, NULL, what \
	}
#define CLI_OPT_DRAW_COSTS                                                                         \
	{                                                                                          \
		"draw-costs", 0, 0, G_OPTION_ARG_INT, &cli_args.draw_costs,                        \
		    "Also run N cost draws a variant: every cost with a preset range drawn from "  \
		    "it, the same draws for every variant (the scenario's draw_costs)",            \
		    "N"                                                                            \
	}
#define CLI_OPT_QUIET                                                                              \
	{                                                                                          \
		"quiet", 'q', 0, G_OPTION_ARG_NONE, &cli_args.quiet,                               \
		    "No progress on standard error", NULL                                          \
	}
#define CLI_OPT_OUTPUT                                                                             \
	{                                                                                          \
		"output", 'o', 0, G_OPTION_ARG_FILENAME, &cli_args.output,                         \
		    "Write the output to FILE (atomically)", "FILE"                                \
	}
/* --format, with @doc the formats the command takes. */
#define CLI_OPT_FORMAT(doc)                                                                        \
	{                                                                                          \
		"format", 0, 0, G_OPTION_ARG_STRING, &cli_args.format, doc, "FMT"                  \
	}
/* --resolution: the reader's minimum material change (change.h). */
gboolean cli_parse_resolution(const char *name, const char *value, gpointer data, GError **err);
#define CLI_OPT_RESOLUTION                                                                         \
	{                                                                                          \
		"resolution", 0, 0, G_OPTION_ARG_CALLBACK, (gpointer)cli_parse_resolution,         \
		    "The smallest change a verdict calls material, in % (default 1, the model's "  \
		    "stated minimum; half the cost draws' interval when wider): PCT, or "          \
		    "METRIC=PCT for one metric (repeatable)",                                      \
		    "[METRIC=]PCT"                                                                 \
	}
/* --variant, once (a second is an error, not silently the last): the
 * variants that run, scenario_choose()'s choice. */
gboolean cli_parse_variant(const char *name, const char *value, gpointer data, GError **err);
#define CLI_OPT_VARIANT                                                                            \
	{                                                                                          \
		"variant", 0, 0, G_OPTION_ARG_CALLBACK, (gpointer)cli_parse_variant,               \
		    "Run only these variants, in the scenario's order (the first is the "          \
		    "baseline), or all (default: the scenario's default_variants, else every "     \
		    "variant)",                                                                    \
		    "NAME[,NAME...]|all"                                                           \
	}
#define CLI_OPT_SUMMARY                                                                            \
	{                                                                                          \
		"summary", 0, 0, G_OPTION_ARG_NONE, &cli_args.summary,                             \
		    "The report in under 80 columns, to paste: --format summary", NULL             \
	}
/* --out DIR, with @doc what the directory is. */
#define CLI_OPT_OUT(doc)                                                                           \
	{                                                                                          \
		"out", 0, 0, G_OPTION_ARG_FILENAME, &cli_args.out, doc, "DIR"                      \
	}

/* Print @err after @prefix ("memcgsim: "; "" for an error in the input,
 * which begins with where it is: "FILE:LINE:COL: ..."), free it, and return
 * the exit status for it: EXIT_USAGE for bad input (MCS_ERROR_INPUT),
 * EXIT_VIOLATION for any other failure. */
int cli_error(GError *err, const char *prefix);
/* Say on standard error "memcgsim: " and the message, made printable and
 * cut (mcs_error_printable(): it may quote an argument or a file). */
void cli_say(const char *fmt, ...) G_GNUC_PRINTF(1, 2);
/* A runner's or sweep's note (runner_note_fn), said as cli_say says it. */
void cli_note(const char *msg);
/* Write @out to --output (standard output by default); false with @err,
 * "cannot write @what" when standard output fails. */
bool cli_output(const struct cli *c, GString *out, const char *what, GError **err);
/* Check --timeout and start its clock (false, said on stderr, when bad). */
bool cli_timeout_start(const struct cli *c);
/* --seed is a non-negative integer (says why on stderr when not). */
bool cli_seed_valid(const struct cli *c);
/* Is --jobs 1 to 1024? False, having said why, when not. */
bool cli_jobs_valid(const struct cli *c);
/* Is --out given? False, having said that @command requires it, when not. */
bool cli_out_given(const struct cli *c, const char *command);
/* Is --draw-costs absent or in range? False, having said why, when not. */
bool cli_draw_costs_valid(const struct cli *c);
/* The overrides, with --seed N as one more "seed=N" and --draw-costs N as
 * "draw_costs=N"; NULL-terminated. */
GPtrArray *cli_collect_sets(struct cli *c);
/* --machine FILE...: each file's overrides (calib_machine_sets) put before
 * the command line's --set, in c->sets, so that every command and the
 * result's overrides see them. False, said, on a bad file. */
bool cli_machines_apply(struct cli *c);
/* The scenario files[0] with the overrides (cli_collect_sets), only the
 * variants that run kept (--variant, or the scenario's default:
 * scenario_choose), and their warnings said; NULL with @err when it is not
 * one, or --variant names a variant it does not have. */
struct scenario *cli_scenario_load(struct cli *c, GError **err);
/* Every lock class @sc's variants' what-ifs name is one some variant's run
 * makes (each variant's set-up run in a child, cli_locks.c); else false,
 * with the error and the nearest class. One that only another variant has
 * is said as a warning, and kept in @lacking ("VARIANT\nINDEX", when
 * given). */
bool cli_lock_classes_check(const struct scenario *sc, GHashTable *lacking, GError **err);
/* Say how a sweep or a merge into @dir ended: @err (freed), if any, how many
 * of its runs are done, where its result is, whether a run failed; clear
 * @so. The exit status. */
struct sweep_outcome;
int cli_sweep_status(const char *dir, struct sweep_outcome *so, GError *err);

/* A file a command reads or writes, and what it is to the command: "-o",
 * "--trace"; "the scenario", "A". */
struct cli_path {
	const char *what;
	const char *path; /* NULL: not given */
};
/* The outputs @outs (a list ended by a NULL .what; a NULL path or "-" is
 * not a file) are none of the inputs @ins (the same) nor each other's file,
 * by inode when the files exist (through symlinks and hard links alike).
 * Else MCS_ERROR_INPUT: "-o: s.json: is the scenario, an input: refusing to
 * replace it", "--trace: t.json: is also -o's file: give each output its
 * own". */
bool cli_outputs_apart(const struct cli_path *outs, const struct cli_path *ins, GError **err);
/* The file an output named @path replaces: a symlink's target (the one
 * rule for -o and --trace: through a link, its target is written, and the
 * link stays), else @path; g_free it. */
char *cli_output_target(const char *path);

/* A bundled scenario (cli_bundled.c). */
struct cli_bundled {
	char *rel;  /* its file, under the bundled scenarios' directory */
	char *path; /* its file */
	char *name; /* the name it goes by: its file name without ".json" */
};
/* The bundled scenarios, sorted by file, and their directory (*@dir, g_free
 * it); free with g_ptr_array_free(a, TRUE). */
GPtrArray *cli_bundled_scenarios(char **dir);
/* The bundled file @path's document, for its "name" and "description";
 * NULL when unreadable. */
json_t *cli_bundled_header(const char *path);
/* A scenario argument: a path that exists (or has a '/', or ends in .json)
 * as it is; else the bundled scenario whose file name without ".json", or
 * whose "name", it is (cli_bundled.c); else NULL. g_free it. */
char *cli_scenario_path(const char *arg);
/* The bundled scenario's name closest to @arg when it looks like a typo of
 * it (mcs_near_miss), else NULL; g_free it. */
char *cli_bundled_near(const char *arg);
/* A result file, or the result of the sweep in directory @in, read and
 * checked, its parsed form at most @max_parsed bytes (RESULT_MAX_PARSED);
 * NULL with @err ("FILE:LINE:COL: ...") when it is not one, or "FILE:
 * interrupted by signal N (...)" when a signal came while it was read
 * (cli_result.c). */
json_t *cli_result_load(const char *in, size_t max_parsed, GError **err);

// SPDX-License-Identifier: GPL-2.0-or-later
/* memcgsim sweep SCENARIO: a scenario run over a grid of parameters, into
 * a directory (resumable, shardable). */
#include "cli_util.h"
#include "output.h"
#include "sweep.h"
#include <stdio.h>
#include <unistd.h>

/* sweep's own options (the others: struct cli). */
static struct {
	char **params;	 /* --param, repeatable */
	gboolean resume; /* --resume */
	char *shard;	 /* --shard K/N */
} sweep_args;

static bool parse_shard(const char *s, int *k, int *n)
{
	char *end;
	gint64 a = g_ascii_strtoll(s, &end, 10);
	if (end == s || *end != '/')
		return false;
	const char *b_at = end + 1;
	gint64 b = g_ascii_strtoll(b_at, &end, 10);
	if (end == b_at || *end || b < 1 || b > 100000 || a < 1 || a > b)
		return false;
	*k = (int)a;
	*n = (int)b;
	return true;
}

/* What the points' scenarios warn about, each once: at most
 * SWEEP_WARNINGS_SHOWN, then how many more. */
#define SWEEP_WARNINGS_SHOWN 5
static void print_warnings(const struct sweep_plan *pl)
{
	GPtrArray *w = sweep_plan_warnings(pl);
	for (guint i = 0; i < w->len && i < SWEEP_WARNINGS_SHOWN; i++)
		cli_say("warning: %s", (const char *)w->pdata[i]);
	if (w->len > SWEEP_WARNINGS_SHOWN)
		cli_say("warning: ... and %u more warnings at other points",
			w->len - SWEEP_WARNINGS_SHOWN);
	g_ptr_array_free(w, TRUE);
}

static int cmd_sweep(struct cli *c)
{
	struct sweep_opts o = {.scenario = c->files[0],
			       .params = (const char *const *)sweep_args.params,
			       .replicas = c->replicas,
			       .variant = c->variant,
			       .jobs = c->jobs,
			       .out = c->out,
			       .resume = sweep_args.resume,
			       .shard_k = 1,
			       .shard_n = 1,
			       .tty = isatty(STDERR_FILENO),
			       .force = c->force,
			       .mix_builds = c->mix_builds,
			       .quiet = c->quiet,
			       .note = cli_note};
	if (!cli_out_given(c, "sweep") || !cli_jobs_valid(c))
		return EXIT_USAGE;
	if (c->replicas < 0 || c->replicas > 100) {
		fprintf(stderr, "memcgsim: --replicas: expected 1 to 100, got %d\n", c->replicas);
		return EXIT_USAGE;
	}
	if (!cli_draw_costs_valid(c) || !cli_seed_valid(c) || !cli_timeout_start(c))
		return EXIT_USAGE;
	GError *err = NULL;
	if (!output_check_dir(c->out, "--out", &err))
		return cli_error(err, "memcgsim: ");
	if (sweep_args.shard && !parse_shard(sweep_args.shard, &o.shard_k, &o.shard_n)) {
		cli_say("--shard: expected K/N with 1 <= K <= N, got \"%s\"", sweep_args.shard);
		return EXIT_USAGE;
	}
	GPtrArray *sets = cli_collect_sets(c);
	o.sets = (const char *const *)sets->pdata;
	struct sweep_plan *pl = sweep_plan_new(&o, &err);
	int rc;
	if (!pl) { /* a scenario's error says where; another (a signal's) is memcgsim's */
		rc = cli_error(
		    err, g_error_matches(err, MCS_ERROR, MCS_ERROR_INPUT) ? "" : "memcgsim: ");
	} else {
		print_warnings(pl);
		struct sweep_outcome so;
		bool ok = sweep_run(pl, &so, &err);
		rc = cli_sweep_status(c->out, &so, ok ? NULL : err);
		sweep_plan_free(pl);
	}
	g_ptr_array_free(sets, TRUE);
	return rc;
}

static const GOptionEntry sweep_options[] = {
    CLI_OPT_SET,
    CLI_OPT_FILES("SCENARIO"),
    {"param", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sweep_args.params,
     "A swept parameter (repeatable): values a,b,c or lin:START:STOP:N or log:START:STOP:N",
     "PATH[,PATH...]=VALUES"},
    {"replicas", 0, 0, G_OPTION_ARG_INT, &cli_args.replicas,
     "Replicas per variant and point (default: the scenario's)", "R"},
    CLI_OPT_VARIANT,
    CLI_OPT_DRAW_COSTS,
    CLI_OPT_JOBS,
    CLI_OPT_TIMEOUT,
    CLI_OPT_FORCE,
    CLI_OPT_QUIET,
    CLI_OPT_OUT("The sweep's directory"),
    {"resume", 0, 0, G_OPTION_ARG_NONE, &sweep_args.resume, "Continue the sweep in DIR", NULL},
    CLI_OPT_MIX_BUILDS,
    {"shard", 0, 0, G_OPTION_ARG_STRING, &sweep_args.shard, "Run only shard K of N of the runs",
     "K/N"},
    {NULL}};

/* What sweep's options set, freed after it ran. */
static void sweep_args_free(void)
{
	g_strfreev(sweep_args.params);
	g_free(sweep_args.shard);
}

const struct cli_command cli_sweep_command = {
    .cleanup = sweep_args_free,
    .name = "sweep",
    .doc = "run a scenario over a grid of parameters into a directory",
    .synopsis = "SCENARIO - run a scenario over a grid of parameters",
    .options = sweep_options,
    .files = 1,
    .files_what = "SCENARIO",
    .scenario = true,
    .fn = cmd_sweep,
};

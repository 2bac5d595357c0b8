// SPDX-License-Identifier: GPL-2.0-or-later
/* memcgsim run FILE: a scenario's variants run, and their report. */
#include "cli_util.h"
#include "kernel.h"
#include "mcs_json.h"
#include "output.h"
#include "report.h"
#include "result_keys.h"
#include "runner.h"
#include "scenario.h"
#include "sim_trace.h"
#include <stdio.h>
#include <unistd.h>

/* run's own options (the others: struct cli). */
static struct {
	char *trace;	    /* --trace FILE */
	char *trace_window; /* --trace-window FROM:TO */
	int progress_every; /* --progress-every SECONDS; -1: not given */
} run_args = {.progress_every = -1};

#define PROGRESS_EVERY_S 10 /* without a terminal, a progress line this often */

/* --trace-window FROM:TO in ns of simulated time, into @window. */
static bool parse_window(const char *s, struct runner_trace *window)
{
	char *end;
	double from = g_ascii_strtod(s, &end), to = 0;
	bool ok = end != s && *end == ':';
	if (ok) {
		const char *t = end + 1;
		to = g_ascii_strtod(t, &end);
		ok = end != t && !*end && from >= 0 && to > from && to <= 3.6e12;
	}
	if (!ok)
		cli_say("--trace-window: expected FROM:TO in ns with 0 <= FROM < TO <= 3.6e12, got "
			"\"%s\"",
			s);
	else
		*window = (struct runner_trace){.from = sim_from_ns(from), .to = sim_from_ns(to)};
	return ok;
}

/* The result as run prints it: the text report, or the JSON. */
static void run_output(const struct cli *c, json_t *result, GString *out)
{
	if (g_str_equal(c->format, "json")) {
		char *text = json_dumps(result, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
		g_string_append(out, text);
		g_string_append_c(out, '\n');
		free(text);
	} else if (g_str_equal(c->format, "summary")) {
		report_summary_text(result, c->resolution, out);
	} else {
		report_text(result, c->resolution, out);
	}
}

/* Every failed replica, and why, on standard error. */
static void print_failures(json_t *result)
{
	size_t i, j;
	json_t *v, *r;
	json_array_foreach (json_object_get(result, RK_variants), i, v)
		json_array_foreach (json_object_get(v, RK_per_replica), j, r) {
			const char *why = json_string_value(json_object_get(r, "failure"));
			if (why)
				cli_say("variant %s, replica %zu (seed %lld) failed: %s",
					json_string_value(json_object_get(v, "name")), j,
					(long long)json_integer_value(json_object_get(r, "seed")),
					why);
		}
}

/* Each kernel.critical_section_extra entry whose lock class no run of a
 * variant took: it added nothing, which only the runs can tell (but for
 * the classes the variant lacks, @lacking, said before the run). */
static void print_untaken_extras(const struct scenario *sc, json_t *result, GHashTable *lacking)
{
	size_t i;
	json_t *v;
	json_array_foreach (json_object_get(result, RK_variants), i, v) {
		const char *name = json_string_value(json_object_get(v, "name"));
		const struct scenario_variant *sv = scenario_variant_find(sc, name);
		const struct kernel_params *k = sv ? sv->config->kernel : NULL;
		for (size_t x = 0; k && x < k->hold_extra.n; x++) {
			char *key = g_strdup_printf("%s\n%zu", name, x);
			bool said = g_hash_table_contains(lacking, key);
			g_free(key);
			if (!said &&
			    !mcs_json_find(json_object_get(v, RK_locks), "class", /* taken */
					   k->hold_extra.items[x]->lock, NULL))
				cli_say("warning: kernel.critical_section_extra.%zu: no run of "
					"variant \"%s\" took a lock of class \"%s\", so it added "
					"nothing",
					x, name, k->hold_extra.items[x]->lock);
		}
	}
}

/* The command that gives @c's result: the scenario as it was named, and
 * the options that change the result (not -j, -o, --format, --quiet,
 * --timeout or --trace). */
static char *run_command(const struct cli *c)
{
	GString *cmd = g_string_new("memcgsim run");
	output_shell_arg(cmd, c->scenario_arg ? c->scenario_arg : c->files[0]);
	for (char **s = c->sets; s && *s; s++) {
		g_string_append(cmd, " --set");
		output_shell_arg(cmd, *s);
	}
	const char *flags[] = {"--seed", c->seed, "--variant", c->variant};
	for (size_t i = 0; i < G_N_ELEMENTS(flags); i += 2)
		if (flags[i + 1]) {
			g_string_append_printf(cmd, " %s", flags[i]);
			output_shell_arg(cmd, flags[i + 1]);
		}
	if (c->draw_costs != CLI_DRAW_COSTS_UNSET)
		g_string_append_printf(cmd, " --draw-costs %d", c->draw_costs);
	if (c->force)
		g_string_append(cmd, " --force");
	return g_string_free(cmd, FALSE);
}

/* -o and --trace can be written, are not the scenario nor each other; the
 * trace goes to a file, through a symlink to its target (as -o does).
 * *@trace: the file the trace replaces (g_free it), or NULL. */
static bool run_outputs(const struct cli *c, char **trace, GError **err)
{
	const struct cli_path outs[] = {
	    {"-o", c->output}, {"--trace", run_args.trace}, {NULL, NULL}};
	const struct cli_path ins[] = {{"the scenario", c->files[0]}, {NULL, NULL}};
	*trace = NULL;
	if (run_args.trace && g_str_equal(run_args.trace, "-")) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
			    "--trace: \"-\": a trace goes to a file, not to standard output");
		return false;
	}
	if (!output_check(c->output, "-o", err) || !output_check(run_args.trace, "--trace", err) ||
	    !cli_outputs_apart(outs, ins, err))
		return false;
	*trace = run_args.trace ? cli_output_target(run_args.trace) : NULL;
	return true;
}

/* The options' values, checked; --replicas R becomes --set replicas=R. */
/* The options checked, and --trace-window's window into @t. */
static bool run_options_valid(struct cli *c, struct runner_trace *t)
{
	if (!cli_jobs_valid(c))
		return false;
	if (!g_str_equal(c->format, "text") && !g_str_equal(c->format, "json") &&
	    !g_str_equal(c->format, "summary")) {
		cli_say("--format: expected text, json or summary, got \"%s\"", c->format);
		return false;
	}
	if (run_args.trace_window && !parse_window(run_args.trace_window, t))
		return false;
	if (!cli_draw_costs_valid(c) || !cli_seed_valid(c) || !cli_timeout_start(c))
		return false;
	if (c->replicas < 0 || c->replicas > 100) {
		cli_say("--replicas: expected 1 to 100, got %d", c->replicas);
		return false;
	}
	if (run_args.progress_every < -1 || run_args.progress_every > 86400) {
		cli_say("--progress-every: expected 0 to 86400 seconds, got %d",
			run_args.progress_every);
		return false;
	}
	if (c->replicas > 0) { /* after the other --set, so that it wins */
		guint n = c->sets ? g_strv_length(c->sets) : 0;
		c->sets = g_renew(char *, c->sets, n + 2);
		c->sets[n] = g_strdup_printf("replicas=%d", c->replicas);
		c->sets[n + 1] = NULL;
	}
	return true;
}

/* The --set overrides that change what runs, as the result's "overrides": a
 * run that is not the unmodified scenario. Not replicas (more of the same
 * runs) nor what only the reports read. */
static void run_overrides(const struct cli *c, json_t *result)
{
	static const char *const unchanged[] = {"replicas",  "published",   "comparisons",
						"exercises", "description", "name",
						"sweep",     NULL};
	json_t *sets = json_array();
	for (char **s = c->sets; s && *s; s++) {
		bool runs = true;
		for (const char *const *u = unchanged; runs && *u; u++)
			runs = !(g_str_has_prefix(*s, *u) &&
				 ((*s)[strlen(*u)] == '=' || (*s)[strlen(*u)] == '.'));
		if (runs)
			json_array_append_new(sets, json_string(*s));
	}
	if (json_array_size(sets))
		json_object_set_new(result, RK_overrides, sets);
	else
		json_decref(sets);
}

/* The scenario, its what-ifs' lock classes checked (those a variant lacks
 * into @lacking) and its work within the limits; NULL with @err (its
 * @prefix: a scenario's error says where) otherwise. */
static struct scenario *run_scenario_load(struct cli *c, GHashTable *lacking, const char **prefix,
					  GError **err)
{
	struct scenario *sc = cli_scenario_load(c, err);
	if (!sc || !cli_lock_classes_check(sc, lacking, err))
		goto fail;
	if (runner_check_work(sc, c->force, "", err))
		return sc;
	*prefix = "memcgsim: ";
fail:
	if (sc)
		scenario_free(sc);
	return NULL;
}

static int cmd_run(struct cli *c)
{
	struct runner_trace window = {.to = SIM_TRACE_DEFAULT_TO};
	if (!run_options_valid(c, &window))
		return EXIT_USAGE;
	GError *err = NULL;
	char *trace;
	if (!run_outputs(c, &trace, &err))
		return cli_error(err, "memcgsim: ");
	GHashTable *lacking = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	const char *prefix = "";
	struct scenario *sc = run_scenario_load(c, lacking, &prefix, &err);
	if (!sc) {
		g_free(trace);
		g_hash_table_destroy(lacking);
		return cli_error(err, prefix);
	}
	bool violation = false;
	bool tty = isatty(STDERR_FILENO);
	struct runner_opts ro = {.live = !c->quiet && tty ? stderr : NULL,
				 .plain = !c->quiet && !tty ? stderr : NULL,
				 .plain_every_s = run_args.progress_every >= 0
						      ? run_args.progress_every
						      : PROGRESS_EVERY_S,
				 .wall_limit = !c->force,
				 .note = cli_note};
	window.path = trace;
	json_t *result = runner_run(sc, c->jobs, trace ? &window : NULL, &ro, &violation, &err);
	g_free(trace);
	if (result)
		print_untaken_extras(sc, result, lacking);
	g_hash_table_destroy(lacking);
	scenario_free(sc);
	if (!result)
		return cli_error(err, "memcgsim: ");
	char *command = run_command(c);
	json_object_set_new(result, "command", json_string(command));
	g_free(command);
	run_overrides(c, result);
	GString *out = g_string_new(NULL);
	run_output(c, result, out);
	if (violation)
		print_failures(result);
	json_decref(result);
	bool to_file = c->output && !g_str_equal(c->output, "-");
	if (violation && to_file) /* a failed run leaves an existing output as it was */
		cli_say("%s left as it was; the report follows on standard output", c->output);
	bool ok = violation && to_file ? output_write(NULL, out->str, out->len, &err)
				       : cli_output(c, out, "output", &err);
	g_string_free(out, TRUE);
	if (!ok)
		return cli_error(err, "memcgsim: ");
	return violation ? EXIT_VIOLATION : 0;
}

static const GOptionEntry run_options[] = {
    CLI_OPT_SET,
    CLI_OPT_FILES("FILE"),
    CLI_OPT_VARIANT,
    CLI_OPT_FORMAT("Output format: text, json or summary (under 80 columns)"),
    CLI_OPT_OUTPUT,
    {"replicas", 0, 0, G_OPTION_ARG_INT, &cli_args.replicas,
     "Replicas per variant (default: the scenario's), as --set replicas=R", "R"},
    CLI_OPT_JOBS,
    {"trace", 0, 0, G_OPTION_ARG_FILENAME, &run_args.trace,
     "Write a Chrome/Perfetto trace of each variant's first replica to FILE", "FILE"},
    {"trace-window", 0, 0, G_OPTION_ARG_STRING, &run_args.trace_window,
     "Simulated time the trace covers, in ns (default 0:1000000)", "FROM:TO"},
    CLI_OPT_DRAW_COSTS,
    CLI_OPT_TIMEOUT,
    CLI_OPT_FORCE,
    CLI_OPT_QUIET,
    {"progress-every", 0, 0, G_OPTION_ARG_INT, &run_args.progress_every,
     "Without a terminal (a pipe, a file): a progress line on standard error every SECONDS "
     "(default 10; 0: none)",
     "SECONDS"},
    CLI_OPT_SUMMARY,
    CLI_OPT_RESOLUTION,
    {NULL}};

/* What run's options set, freed after it ran. */
static void run_args_free(void)
{
	g_free(run_args.trace);
	g_free(run_args.trace_window);
}

const struct cli_command cli_run_command = {
    .cleanup = run_args_free,
    .name = "run",
    .doc = "run a scenario's variants and print the report",
    .synopsis = "FILE - run a scenario and print its report",
    .options = run_options,
    .files = 1,
    .files_what = "scenario FILE",
    .scenario = true,
    .fn = cmd_run,
};

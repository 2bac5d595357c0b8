/* memcgsim: the command line. Exit status 0 on success, 1 when a simulation
 * fails or detects a violation, 2 for bad usage or bad input. */
#include "cli_util.h"
#include "output.h"
#include <signal.h>
#include "live.h"
#include "report.h"
#include "runner.h"
#include "scenario.h"
#include "sim_trace.h"
#include "version.h"
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *usage_text =
	"Commands:\n"
	"  run       run a scenario's variants and print the report\n"
	"  validate  check a scenario (and --set overrides) without running it\n"
	"  schema    print the scenario JSON Schema\n"
	"  sweep     run a scenario over a grid of parameters into a directory\n"
	"  merge     put the directories of a sharded sweep together\n"
	"  report    render a result or a sweep: text, md, html, json, csv; plots\n"
	"  compare   two results side by side, variant by variant, with significance\n"
	"  list      the bundled scenarios (run one by name), or a scenario's variants\n"
	"\n"
	"Run 'memcgsim COMMAND --help' for a command's options.";

/* --trace-window FROM:TO in ns of simulated time. */
static bool parse_window(const char *s)
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
		fprintf(stderr, "memcgsim: --trace-window: expected FROM:TO in ns with 0 <= FROM < TO "
				"<= 3.6e12, got \"%s\"\n", s);
	else
		sim_trace_window(sim_from_ns(from), sim_from_ns(to));
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
	} else {
		report_text(result, out);
	}
}

/* Every failed replica, and why, on standard error. */
static void print_failures(json_t *result)
{
	size_t i, j;
	json_t *v, *r;
	json_array_foreach (json_object_get(result, "variants"), i, v)
		json_array_foreach (json_object_get(v, "per_replica"), j, r) {
			const char *why = json_string_value(json_object_get(r, "failure"));
			if (why)
				fprintf(stderr, "memcgsim: variant %s, replica %zu (seed %lld) failed: %s\n",
					json_string_value(json_object_get(v, "name")), j,
					(long long)json_integer_value(json_object_get(r, "seed")), why);
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

static int cmd_run(struct cli *c)
{
	if (c->jobs < 1 || c->jobs > 1024) {
		fprintf(stderr, "memcgsim: --jobs: expected 1 to 1024, got %d\n", c->jobs);
		return EXIT_USAGE;
	}
	if (!g_str_equal(c->format, "text") && !g_str_equal(c->format, "json")) {
		fprintf(stderr, "memcgsim: --format: expected text or json, got \"%s\"\n",
			c->format);
		return EXIT_USAGE;
	}
	if (c->trace_window && !parse_window(c->trace_window))
		return EXIT_USAGE;
	if (!cli_draw_costs_valid(c) || !cli_seed_valid(c) || !cli_timeout_start(c))
		return EXIT_USAGE;
	GError *err = NULL;
	if (!output_check(c->output, "-o", &err) || !output_check(c->trace, "--trace", &err))
		return cli_error(err, "memcgsim: ");
	struct scenario *sc = cli_scenario_load(c, &err);
	if (!sc)
		return cli_error(err, "");
	if (!runner_check_work(sc, c->variant, c->force, "", &err)) {
		scenario_free(sc);
		return cli_error(err, "memcgsim: ");
	}
	bool violation = false;
	if (!c->quiet && isatty(STDERR_FILENO))
		live_enable(stderr);
	json_t *result = runner_run(sc, c->variant, c->jobs, c->trace, &violation, &err);
	scenario_free(sc);
	if (!result)
		return cli_error(err, "memcgsim: ");
	char *command = run_command(c);
	json_object_set_new(result, "command", json_string(command));
	g_free(command);
	GString *out = g_string_new(NULL);
	run_output(c, result, out);
	if (violation)
		print_failures(result);
	json_decref(result);
	bool to_file = c->output && !g_str_equal(c->output, "-");
	if (violation && to_file) /* a failed run leaves an existing output as it was */
		fprintf(stderr, "memcgsim: %s left as it was; the report follows on standard output\n",
			c->output);
	bool ok = violation && to_file ? output_write(NULL, out->str, out->len, &err)
				       : cli_output(c, out, "output", &err);
	g_string_free(out, TRUE);
	if (!ok)
		return cli_error(err, "memcgsim: ");
	return violation ? EXIT_VIOLATION : 0;
}

static int cmd_validate(struct cli *c)
{
	GError *err = NULL;
	struct scenario *sc = cli_scenario_load(c, &err);
	if (!sc)
		return cli_error(err, "");
	printf("%s: ok, %u variant%s\n", c->files[0], sc->variants->len,
	       sc->variants->len == 1 ? "" : "s");
	scenario_free(sc);
	return 0;
}

static int cmd_schema(struct cli *c)
{
	json_t *s = scenario_json_schema();
	char *text = json_dumps(s, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
	printf("%s\n", text);
	free(text);
	json_decref(s);
	return 0;
}

/* memcgsim --version, without a command. */
static int cmd_version(struct cli *c)
{
	printf("memcgsim %s\n", MEMCGSIM_VERSION);
	return 0;
}

/* GOption reads "-j2" as grouped flags: split it into "-j" "2", as make does. */
static char **split_jobs_option(int *argc, char **argv)
{
	GPtrArray *a = g_ptr_array_new();
	for (int i = 0; i < *argc; i++) {
		if (g_str_has_prefix(argv[i], "-j") && g_ascii_isdigit(argv[i][2])) {
			g_ptr_array_add(a, g_strdup("-j"));
			g_ptr_array_add(a, g_strdup(argv[i] + 2));
		} else {
			g_ptr_array_add(a, g_strdup(argv[i]));
		}
	}
	*argc = (int)a->len;
	g_ptr_array_add(a, NULL);
	return (char **)g_ptr_array_free(a, FALSE);
}

/* --variant, once: a second one is an error, not silently the last. */
static gboolean parse_variant(const char *name, const char *value, gpointer data, GError **err)
{
	(void)name;
	(void)data;
	if (cli_args.variant) {
		g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
			    "--variant: given twice (\"%s\", then \"%s\"); give one", cli_args.variant,
			    value);
		return FALSE;
	}
	cli_args.variant = g_strdup(value);
	return TRUE;
}

static const GOptionEntry top_options[] = {
	{"version", 0, 0, G_OPTION_ARG_NONE, &cli_args.version, "Print the version", NULL}, {NULL}};
static const GOptionEntry no_options[] = {{NULL}};
static const GOptionEntry validate_options[] = {CLI_OPT_SET, CLI_OPT_FILES("FILE"), {NULL}};
static const GOptionEntry run_options[] = {
	CLI_OPT_SET,
	CLI_OPT_FILES("FILE"),
	{"variant", 0, 0, G_OPTION_ARG_CALLBACK, (gpointer)parse_variant, "Run only this variant", \
	 "NAME"},
	CLI_OPT_FORMAT("Output format: text or json"),
	CLI_OPT_OUTPUT,
	CLI_OPT_JOBS,
	{"trace", 0, 0, G_OPTION_ARG_FILENAME, &cli_args.trace,
	 "Write a Chrome/Perfetto trace of each variant's first replica to FILE", "FILE"},
	{"trace-window", 0, 0, G_OPTION_ARG_STRING, &cli_args.trace_window,
	 "Simulated time the trace covers, in ns (default 0:1000000)", "FROM:TO"},
	CLI_OPT_DRAW_COSTS,
	CLI_OPT_TIMEOUT,
	CLI_OPT_FORCE,
	CLI_OPT_QUIET,
	{NULL}};
static const GOptionEntry sweep_options[] = {
	CLI_OPT_SET,
	CLI_OPT_FILES("SCENARIO"),
	{"param", 0, 0, G_OPTION_ARG_STRING_ARRAY, &cli_args.params,
	 "A swept parameter (repeatable): values a,b,c or lin:START:STOP:N or log:START:STOP:N",
	 "PATH[,PATH...]=VALUES"},
	{"replicas", 0, 0, G_OPTION_ARG_INT, &cli_args.replicas,
	 "Replicas per variant and point (default: the scenario's)", "R"},
	CLI_OPT_DRAW_COSTS,
	CLI_OPT_JOBS,
	CLI_OPT_TIMEOUT,
	CLI_OPT_FORCE,
	CLI_OPT_QUIET,
	CLI_OPT_OUT("The sweep's directory"),
	{"resume", 0, 0, G_OPTION_ARG_NONE, &cli_args.resume, "Continue the sweep in DIR", NULL},
	{"shard", 0, 0, G_OPTION_ARG_STRING, &cli_args.shard, "Run only shard K of N of the runs",
	 "K/N"},
	{NULL}};
static const GOptionEntry merge_options[] = {
	CLI_OPT_FILES("SHARD_DIR..."),
	CLI_OPT_OUT("The merged sweep's directory"),
	{NULL}};
static const GOptionEntry list_options[] = {
	CLI_OPT_FILES("[SCENARIO]"),
	{"names", 0, 0, G_OPTION_ARG_NONE, &cli_args.names, "Print the names alone, one a line", NULL},
	{NULL}};
static const GOptionEntry compare_options[] = {
	CLI_OPT_FILES("A.json B.json"),
	CLI_OPT_FORMAT("text (default), md or html"),
	CLI_OPT_OUTPUT,
	{NULL}};
static const GOptionEntry report_options[] = {
	CLI_OPT_FILES("DIR|RESULT.json"),
	CLI_OPT_FORMAT("text (default), md, html, json or csv"),
	CLI_OPT_OUTPUT,
	{"sort", 0, 0, G_OPTION_ARG_STRING, &cli_args.sort,
	 "perf lock contention order: contended, wait_total (default), wait_max, wait_avg", "KEY"},
	{"plots", 0, 0, G_OPTION_ARG_FILENAME, &cli_args.plots,
	 "Write the plots (SVG, PNG, data, gnuplot script) into DIR", "DIR"},
	{"point", 0, 0, G_OPTION_ARG_INT, &cli_args.point, "Report one point of a sweep in full", "N"},
	{NULL}};

#define FILES_ONE_OR_MORE (-1)
#define FILES_AT_MOST_ONE (-2)

struct command {
	const char *name;
	const char *synopsis; /* the help's first line, after "memcgsim NAME" */
	const GOptionEntry *options;
	int files;		/* FILE arguments: 0 (unchecked), 1, 2, or FILES_* */
	const char *files_what; /* what they are, in the error when they are not */
	bool scenario; /* its FILE may name a bundled scenario */
	int (*fn)(struct cli *c);
};

static const struct command commands[] = {
	{.name = "run",
	 .synopsis = "FILE - run a scenario and print its report",
	 .options = run_options,
	 .files = 1,
	 .files_what = "scenario FILE",
	 .scenario = true,
	 .fn = cmd_run},
	{.name = "validate",
	 .synopsis = "FILE - check a scenario without running it",
	 .options = validate_options,
	 .files = 1,
	 .files_what = "scenario FILE",
	 .scenario = true,
	 .fn = cmd_validate},
	{.name = "schema",
	 .synopsis = "- print the scenario JSON Schema",
	 .options = no_options,
	 .fn = cmd_schema},
	{.name = "sweep",
	 .synopsis = "SCENARIO - run a scenario over a grid of parameters",
	 .options = sweep_options,
	 .files = 1,
	 .files_what = "SCENARIO",
	 .scenario = true,
	 .fn = cmd_sweep},
	{.name = "merge",
	 .synopsis = "SHARD_DIR... - merge the directories of a sharded sweep",
	 .options = merge_options,
	 .files = FILES_ONE_OR_MORE,
	 .files_what = "shard directories",
	 .fn = cmd_merge},
	{.name = "report",
	 .synopsis = "DIR|RESULT.json - render a result or a sweep",
	 .options = report_options,
	 .files = 1,
	 .files_what = "DIR or RESULT.json",
	 .fn = cmd_report},
	{.name = "list",
	 .synopsis = "[SCENARIO] - list the bundled scenarios, or a scenario's variants",
	 .options = list_options,
	 .files = FILES_AT_MOST_ONE,
	 .files_what = "scenario",
	 .fn = cmd_list},
	{.name = "compare",
	 .synopsis = "A.json B.json - compare two results variant by variant (A is the baseline)",
	 .options = compare_options,
	 .files = 2,
	 .files_what = "result files A.json B.json",
	 .fn = cmd_compare},
};

/* memcgsim with no command, or options only. */
static const struct command top_level = {
	.synopsis = "COMMAND [OPTIONS] FILE - simulate kernel locking designs",
	.options = top_options,
	.fn = cmd_version};

static const struct command *command_find(const char *name)
{
	for (size_t i = 0; i < G_N_ELEMENTS(commands); i++)
		if (g_str_equal(name, commands[i].name))
			return &commands[i];
	return NULL;
}

/* What is wrong with the command line once its options are parsed; NULL
 * when nothing is. */
static char *arguments_check(const struct command *cmd, const struct cli *c)
{
	if (!cmd->name && !c->version)
		return g_strdup("no command given (try --help)");
	guint n = c->files ? g_strv_length(c->files) : 0;
	if (cmd->files == 1 && n != 1)
		return g_strdup_printf("expected exactly one %s", cmd->files_what);
	if (cmd->files == 2 && n != 2)
		return g_strdup_printf("expected two %s", cmd->files_what);
	if (cmd->files == FILES_ONE_OR_MORE && !n)
		return g_strdup_printf("expected one or more %s", cmd->files_what);
	if (cmd->files == FILES_AT_MOST_ONE && n > 1)
		return g_strdup_printf("expected at most one %s", cmd->files_what);
	return NULL;
}

/* Parse @cmd's options (--help prints its help and exits) into cli, and
 * check its arguments; false, having said why, when they are wrong. */
static bool options_parse(const struct command *cmd, int argc, char **argv)
{
	GOptionContext *ctx = g_option_context_new(cmd->synopsis);
	g_option_context_add_main_entries(ctx, cmd->options, NULL);
	if (!cmd->name)
		g_option_context_set_description(ctx, usage_text);
	GError *err = NULL;
	char *msg = NULL;
	/* GOption takes the arguments it parses out of the array: give it a
	 * copy, so that the caller still frees every string. */
	char **args = g_memdup2(argv, sizeof(char *) * ((size_t)argc + 1));
	if (!g_option_context_parse(ctx, &argc, &args, &err))
		msg = g_strdup(err->message);
	else
		msg = arguments_check(cmd, &cli_args);
	g_free(args);
	g_clear_error(&err);
	g_option_context_free(ctx);
	bool ok = !msg;
	if (msg)
		fprintf(stderr, "memcgsim: %s\n", msg);
	else if (!cli_args.format)
		cli_args.format = g_strdup("text");
	g_free(msg);
	return ok;
}

static void cli_free(struct cli *c)
{
	g_strfreev(c->sets);
	g_strfreev(c->files);
	g_strfreev(c->params);
	g_free(c->seed);
	g_free(c->variant);
	g_free(c->format);
	g_free(c->output);
	g_free(c->trace);
	g_free(c->trace_window);
	g_free(c->out);
	g_free(c->shard);
	g_free(c->sort);
	g_free(c->plots);
	g_free(c->scenario_arg);
}

int main(int argc, char **argv_in)
{
	char **argv = split_jobs_option(&argc, argv_in);
	const char *name = argc > 1 && argv[1][0] != '-' ? argv[1] : NULL;
	const struct command *cmd = name ? command_find(name) : &top_level;
	int rc = EXIT_USAGE;
	output_signals_install();
	cli_args.jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
	cli_args.point = -1;
	cli_args.draw_costs = CLI_DRAW_COSTS_UNSET;
	if (!cmd)
		fprintf(stderr, "memcgsim: unknown command \"%s\"\n%s\n", name, usage_text);
	else if (options_parse(cmd, name ? argc - 1 : argc, name ? argv + 1 : argv)) {
		char *path = cmd->scenario ? cli_scenario_path(cli_args.files[0]) : NULL;
		if (cmd->scenario && !path)
			fprintf(stderr,
				"memcgsim: no scenario file \"%s\", and no bundled scenario of that "
				"name (memcgsim list shows them)\n",
				cli_args.files[0]);
		if (path) { /* a bundled scenario's name becomes its path */
			cli_args.scenario_arg = cli_args.files[0];
			cli_args.files[0] = path;
		}
		if (path || !cmd->scenario)
			rc = cmd->fn(&cli_args);
	}
	cli_free(&cli_args);
	g_strfreev(argv);
	int sig = output_interrupted();
	if (sig) { /* outputs as they were, temporaries gone, and die of the signal */
		output_temps_remove();
		if (sig == SIGALRM) /* --timeout: a failure, said, not a death */
			return EXIT_VIOLATION;
		signal(sig, SIG_DFL);
		raise(sig);
	}
	return rc;
}

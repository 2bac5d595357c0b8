// SPDX-License-Identifier: GPL-2.0-or-later
/* memcgsim: the command line. main(), the option parsing, and the table of
 * commands (each in its file, cli_NAME.c). Exit status 0 on success, 1 when
 * a simulation fails or detects a violation, 2 for bad usage or bad input. */
#include "change.h"
#include "cli_util.h"
#include "identity.h"
#include "mcs_error.h"
#include "output.h"
#include "runner.h"
#include "version.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* memcgsim --version, without a command: the version, and the model
 * identity every result records (identity.h). */
static int cmd_version(struct cli *c)
{
	printf("memcgsim %s (model %s)\n", MEMCGSIM_VERSION, identity_model());
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

static const GOptionEntry top_options[] = {
    {"version", 0, 0, G_OPTION_ARG_NONE, &cli_args.version, "Print the version", NULL}, {NULL}};

/* The commands, in the order --help lists them. */
static const struct mcs_named *const commands[] = {
    &cli_run_command.named,	  &cli_validate_command.named, &cli_schema_command.named,
    &cli_sweep_command.named,	  &cli_merge_command.named,    &cli_report_command.named,
    &cli_compare_command.named,	  &cli_list_command.named,     &cli_locks_command.named,
    &cli_calibrate_command.named, &cli_fit_command.named,      NULL};

/* What memcgsim --help says after its options, and after an unknown
 * command: the commands, each with its doc. g_free it. */
static char *usage_text(void)
{
	GString *s = g_string_new("Commands:\n");
	for (size_t i = 0; commands[i]; i++)
		g_string_append_printf(s, "  %-9s %s\n", commands[i]->name, commands[i]->doc);
	g_string_append(s, "\nRun 'memcgsim COMMAND --help' for a command's options.");
	return g_string_free(s, FALSE);
}

/* memcgsim with no command, or options only. */
static const struct cli_command top_level = {
    .synopsis = "COMMAND [OPTIONS] FILE - simulate kernel locking designs",
    .options = top_options,
    .fn = cmd_version};

static const struct cli_command *command_find(const char *name)
{
	return (const struct cli_command *)mcs_named_find(commands, name);
}

/* What is wrong with the command line once its options are parsed; NULL
 * when nothing is. */
static char *arguments_check(const struct cli_command *cmd, const struct cli *c)
{
	if (!cmd->name && !c->version)
		return g_strdup("no command given (try --help)");
	guint n = c->files ? g_strv_length(c->files) : 0;
	if (cmd->files == 1 && n != 1)
		return g_strdup_printf("expected exactly one %s", cmd->files_what);
	if (cmd->files == 2 && n != 2)
		return g_strdup_printf("expected two %s", cmd->files_what);
	if (cmd->files == CLI_FILES_ONE_OR_MORE && !n)
		return g_strdup_printf("expected one or more %s", cmd->files_what);
	if (cmd->files == CLI_FILES_AT_MOST_ONE && n > 1)
		return g_strdup_printf("expected at most one %s", cmd->files_what);
	return NULL;
}

/* Whether GOption converts @e's value from the locale's character set (and
 * says only "Invalid byte sequence in conversion input" when it cannot). */
static bool converted(const GOptionEntry *e)
{
	if (e->arg == G_OPTION_ARG_CALLBACK)
		return !(e->flags & (G_OPTION_FLAG_FILENAME | G_OPTION_FLAG_NO_ARG));
	return e->arg != G_OPTION_ARG_NONE && e->arg != G_OPTION_ARG_FILENAME &&
	       e->arg != G_OPTION_ARG_FILENAME_ARRAY;
}

/* The entry of @opt ("--name", "--name=VALUE" or "-x", at least two
 * characters) in @entries. */
static const GOptionEntry *entry_of(const GOptionEntry *entries, const char *opt)
{
	bool is_long = opt[1] == '-';
	size_t n = is_long ? strcspn(opt + 2, "=") : 0;
	for (const GOptionEntry *e = entries; e->long_name; e++)
		if (is_long ? strlen(e->long_name) == n && !strncmp(e->long_name, opt + 2, n)
			    : e->short_name && e->short_name == opt[1])
			return e;
	return NULL;
}

/* A value of a text option that is not UTF-8, said with the option's name
 * (file names may be any bytes; GOption passes them through). */
static char *text_values_check(const GOptionEntry *entries, int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		/* "-" alone is a file (standard output or input), not an option */
		const GOptionEntry *e =
		    argv[i][0] == '-' && argv[i][1] ? entry_of(entries, argv[i]) : NULL;
		if (!e || !converted(e))
			continue;
		const char *eq = argv[i][1] == '-' ? strchr(argv[i], '=') : NULL;
		const char *v = eq				  ? eq + 1
				: argv[i][1] != '-' && argv[i][2] ? argv[i] + 2
				: i + 1 < argc			  ? argv[++i]
								  : "";
		if (!g_utf8_validate(v, -1, NULL)) {
			char *shown = mcs_error_printable(v);
			bool number = e->arg == G_OPTION_ARG_INT || e->arg == G_OPTION_ARG_INT64 ||
				      e->arg == G_OPTION_ARG_DOUBLE;
			char *msg = g_strdup_printf("--%s: expected %s, got \"%s\"", e->long_name,
						    number ? "a number" : "UTF-8 text", shown);
			g_free(shown);
			return msg;
		}
	}
	return NULL;
}

/* Parse @cmd's options (--help prints its help and exits) into cli, and
 * check its arguments; false, having said why, when they are wrong. */
/* @cmd's synopsis as GOption's usage line wants it: without the arguments'
 * names when the command takes G_OPTION_REMAINING, whose description GOption
 * prints itself ("run [OPTION...] FILE - ..."). */
static const char *usage_synopsis(const struct cli_command *cmd)
{
	for (const GOptionEntry *e = cmd->options; e && (e->long_name || e->short_name); e++)
		if (g_str_equal(e->long_name, G_OPTION_REMAINING) && strstr(cmd->synopsis, " - "))
			return strstr(cmd->synopsis, " - ") + 1;
	return cmd->synopsis;
}

/* --help, -h or -?: @ctx's help on standard output, its ellipses as "..."
 * (GOption's own would print "[OPTION?]" in an ASCII locale), exit 0. */
static void help_print(GOptionContext *ctx, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (g_str_equal(argv[i], "--"))
			return;
		if (g_str_equal(argv[i], "--help") || g_str_equal(argv[i], "-h") ||
		    g_str_equal(argv[i], "-?")) {
			char *help = g_option_context_get_help(ctx, TRUE, NULL);
			char **parts = g_strsplit(help, "\u2026", -1);
			char *ascii = g_strjoinv("...", parts);
			fputs(ascii, stdout);
			g_free(ascii);
			g_strfreev(parts);
			g_free(help);
			exit(EXIT_SUCCESS);
		}
	}
}

static bool options_parse(const struct cli_command *cmd, int argc, char **argv)
{
	GOptionContext *ctx = g_option_context_new(usage_synopsis(cmd));
	g_option_context_add_main_entries(ctx, cmd->options, NULL);
	char *usage = cmd->name ? NULL : usage_text();
	g_option_context_set_description(ctx, usage);
	g_free(usage);
	GError *err = NULL;
	char *msg = NULL;
	/* GOption takes the arguments it parses out of the array: give it a
	 * copy, so that the caller still frees every string. */
	char **args = g_memdup2(argv, sizeof(char *) * ((size_t)argc + 1));
	char *prgname = g_strconcat("memcgsim", cmd->name ? " " : "", cmd->name, NULL);
	args[0] = prgname; /* the usage line's "memcgsim run" */
	g_set_prgname(prgname);
	help_print(ctx, argc, args);
	msg = text_values_check(cmd->options, argc, argv);
	if (!msg && !g_option_context_parse(ctx, &argc, &args, &err))
		msg = g_strdup(err->message);
	else if (!msg)
		msg = arguments_check(cmd, &cli_args);
	g_free(args);
	g_free(prgname);
	g_clear_error(&err);
	g_option_context_free(ctx);
	if (!msg && cli_args.summary && cli_args.format && !g_str_equal(cli_args.format, "summary"))
		msg = g_strdup_printf("--summary: the same as --format summary, and --format %s is "
				      "given too; give one",
				      cli_args.format);
	bool ok = !msg;
	if (msg)
		cli_say("%s", msg);
	else if (!cli_args.format)
		cli_args.format = g_strdup(cli_args.summary ? "summary" : "text");
	g_free(msg);
	return ok;
}

static void cli_free(struct cli *c)
{
	g_strfreev(c->sets);
	g_strfreev(c->machines);
	g_strfreev(c->files);
	g_free(c->seed);
	g_free(c->variant);
	g_free(c->format);
	g_free(c->output);
	change_resolution_free(c->resolution);
	g_free(c->out);
	g_free(c->scenario_arg);
}

/* What a command printed with stdio (list, schema, validate, --version)
 * is checked here, once: a write error fails the command. */
static bool stdout_said; /* stdout_check said it cannot write */

static int stdout_check(int rc)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return rc;
	stdout_said = true;
	fprintf(stderr, "memcgsim: standard output: cannot write: %s\n",
		g_strerror(errno ? errno : EIO));
	return rc ? rc : EXIT_VIOLATION;
}

/* Whatever exits (GOption's --help exits from inside its parse): the help
 * a full disk or /dev/full swallowed is a failure too, said, status 1. */
static void stdout_at_exit(void)
{
	int e = errno; /* a write that failed in there left its reason */
	if (stdout_said || (fflush(stdout) == 0 && !ferror(stdout)))
		return;
	fprintf(stderr, "memcgsim: standard output: cannot write: %s\n",
		g_strerror(errno ? errno
			   : e	 ? e
				 : EIO));
	_exit(EXIT_VIOLATION);
}

int main(int argc, char **argv_in)
{
	char **argv = split_jobs_option(&argc, argv_in);
	const char *name = argc > 1 && argv[1][0] != '-' ? argv[1] : NULL;
	const struct cli_command *cmd = name ? command_find(name) : &top_level;
	int rc = EXIT_USAGE;
	output_signals_install();
	atexit(stdout_at_exit);
	cli_args.jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
	cli_args.draw_costs = CLI_DRAW_COSTS_UNSET;
	cli_args.timeout = CLI_TIMEOUT_UNSET;
	if (!cmd) {
		char *usage = usage_text();
		const char *near = mcs_named_near(commands, name);
		cli_say("unknown command \"%s\"%s%s%s", name, near ? " (did you mean \"" : "",
			near ? near : "", near ? "\"?)" : "");
		fprintf(stderr, "%s\n", usage);
		g_free(usage);
	} else if (options_parse(cmd, name ? argc - 1 : argc, name ? argv + 1 : argv)) {
		char *path = cmd->scenario ? cli_scenario_path(cli_args.files[0]) : NULL;
		if (cmd->scenario && !path) {
			char *near = cli_bundled_near(cli_args.files[0]);
			cli_say("no scenario file \"%s\", and no bundled scenario of that name "
				"(%s%s%smemcgsim list shows them)",
				cli_args.files[0], near ? "did you mean \"" : "", near ? near : "",
				near ? "\"? " : "");
			g_free(near);
		}
		if (path) { /* a bundled scenario's name becomes its path */
			cli_args.scenario_arg = cli_args.files[0];
			cli_args.files[0] = path;
		}
		if ((path || !cmd->scenario) && cli_machines_apply(&cli_args))
			rc = cmd->fn(&cli_args);
	}
	rc = stdout_check(rc);
	if (cmd && cmd->cleanup)
		cmd->cleanup();
	cli_free(&cli_args);
	g_strfreev(argv);
	int sig = output_interrupted();
	/* a signal after a command's outputs were all in place (it succeeded,
	 * and every commit refuses once a signal came): it has done its work,
	 * and exits normally */
	if (sig && rc == 0 && output_any_in_place())
		sig = 0;
	if (sig) { /* outputs as they were, temporaries gone, and die of the signal */
		output_temps_remove();
		if (sig == SIGALRM) /* --timeout: a failure, said, not a death */
			return EXIT_VIOLATION;
		signal(sig, SIG_DFL);
		raise(sig);
	}
	return rc;
}

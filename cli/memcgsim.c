/* memcgsim: the command line. Exit status 0 on success, 1 when a simulation
 * fails or detects a violation, 2 for bad usage or bad input. */
#include "output.h"
#include "report.h"
#include "runner.h"
#include "scenario.h"
#include "version.h"
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define EXIT_VIOLATION 1
#define EXIT_USAGE 2

static const char *usage_text =
	"Commands:\n"
	"  run       run a scenario's variants and print the report\n"
	"  validate  check a scenario (and --set overrides) without running it\n"
	"  schema    print the scenario JSON Schema\n"
	"\n"
	"Run 'memcgsim COMMAND --help' for a command's options.";

struct cli {
	char **sets;
	char *seed;
	char *variant;
	char *format;
	char *output;
	char **files;
	int jobs;
};

static int usage_error(GOptionContext *ctx, const char *msg)
{
	fprintf(stderr, "memcgsim: %s\n", msg);
	g_option_context_free(ctx);
	return EXIT_USAGE;
}

/* The overrides, with --seed N as one more "seed=N". */
static GPtrArray *collect_sets(struct cli *c)
{
	GPtrArray *sets = g_ptr_array_new_with_free_func(g_free);
	for (char **s = c->sets; s && *s; s++)
		g_ptr_array_add(sets, g_strdup(*s));
	if (c->seed)
		g_ptr_array_add(sets, g_strdup_printf("seed=%s", c->seed));
	g_ptr_array_add(sets, NULL);
	return sets;
}

static struct scenario *load(struct cli *c)
{
	GPtrArray *sets = collect_sets(c);
	GError *err = NULL;
	struct scenario *sc =
		scenario_load_file(c->files[0], (const char *const *)sets->pdata, &err);
	g_ptr_array_free(sets, TRUE);
	if (!sc) {
		fprintf(stderr, "%s\n", err->message);
		g_error_free(err);
		return NULL;
	}
	if (c->variant && !scenario_variant_find(sc, c->variant)) {
		GString *names = g_string_new(NULL);
		for (guint i = 0; i < sc->variants->len; i++)
			g_string_append_printf(names, "%s\"%s\"", i ? ", " : "",
					       ((struct scenario_variant *)sc->variants->pdata[i])->name);
		fprintf(stderr, "%s: --variant: no variant \"%s\" (the scenario has %s)\n",
			c->files[0], c->variant, names->str);
		g_string_free(names, TRUE);
		scenario_free(sc);
		return NULL;
	}
	return sc;
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
	struct scenario *sc = load(c);
	if (!sc)
		return EXIT_USAGE;
	bool violation = false;
	GError *err = NULL;
	json_t *result = runner_run(sc, c->variant, c->jobs, &violation, &err);
	scenario_free(sc);
	if (!result) {
		fprintf(stderr, "memcgsim: %s\n", err->message);
		g_error_free(err);
		return EXIT_VIOLATION;
	}
	GString *out = g_string_new(NULL);
	if (g_str_equal(c->format, "json")) {
		char *text = json_dumps(result, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
		g_string_append(out, text);
		g_string_append_c(out, '\n');
		free(text);
	} else {
		report_text(result, out);
	}
	json_decref(result);
	gboolean ok = output_write(c->output, out->str, out->len, &err);
	g_string_free(out, TRUE);
	if (!ok) {
		fprintf(stderr, "memcgsim: %s\n", err ? err->message : "cannot write output");
		g_clear_error(&err);
		return EXIT_VIOLATION;
	}
	if (violation)
		fprintf(stderr, "memcgsim: a simulation reported a failure\n");
	return violation ? EXIT_VIOLATION : 0;
}

static int cmd_validate(struct cli *c)
{
	struct scenario *sc = load(c);
	if (!sc)
		return EXIT_USAGE;
	printf("%s: ok, %u variant%s\n", c->files[0], sc->variants->len,
	       sc->variants->len == 1 ? "" : "s");
	scenario_free(sc);
	return 0;
}

static int cmd_schema(void)
{
	json_t *s = scenario_json_schema();
	char *text = json_dumps(s, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
	printf("%s\n", text);
	free(text);
	json_decref(s);
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

int main(int argc, char **argv_in)
{
	char **argv = split_jobs_option(&argc, argv_in);
	struct cli c = {.format = g_strdup("text"), .jobs = (int)sysconf(_SC_NPROCESSORS_ONLN)};
	gboolean version = FALSE;
	GOptionEntry common[] = {
		{"set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &c.sets,
		 "Override a scenario value by dotted path (repeatable)", "PATH=VALUE"},
		{"seed", 0, 0, G_OPTION_ARG_STRING, &c.seed, "Override the scenario's seed", "N"},
		{G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &c.files, NULL, "FILE"},
		{NULL}};
	GOptionEntry run_only[] = {
		{"variant", 0, 0, G_OPTION_ARG_STRING, &c.variant, "Run only this variant", "NAME"},
		{"format", 0, 0, G_OPTION_ARG_STRING, &c.format, "Output format: text or json",
		 "FMT"},
		{"output", 'o', 0, G_OPTION_ARG_FILENAME, &c.output,
		 "Write the output to FILE (atomically)", "FILE"},
		{"jobs", 'j', 0, G_OPTION_ARG_INT, &c.jobs,
		 "Simulations run at once (default: the CPUs online); results do not depend on it",
		 "N"},
		{NULL}};
	GOptionEntry top[] = {{"version", 0, 0, G_OPTION_ARG_NONE, &version, "Print the version",
			       NULL},
			      {NULL}};

	const char *cmd = argc > 1 && argv[1][0] != '-' ? argv[1] : NULL;
	GOptionContext *ctx;
	if (!cmd) {
		ctx = g_option_context_new("COMMAND [OPTIONS] FILE - simulate kernel locking designs");
		g_option_context_add_main_entries(ctx, top, NULL);
		g_option_context_set_description(ctx, usage_text);
	} else if (g_str_equal(cmd, "run") || g_str_equal(cmd, "validate")) {
		ctx = g_option_context_new(g_str_equal(cmd, "run")
						   ? "FILE - run a scenario and print its report"
						   : "FILE - check a scenario without running it");
		g_option_context_add_main_entries(ctx, common, NULL);
		if (g_str_equal(cmd, "run"))
			g_option_context_add_main_entries(ctx, run_only, NULL);
	} else if (g_str_equal(cmd, "schema")) {
		ctx = g_option_context_new("- print the scenario JSON Schema");
	} else {
		fprintf(stderr, "memcgsim: unknown command \"%s\"\n%s\n", cmd, usage_text);
		return EXIT_USAGE;
	}
	GError *err = NULL;
	int sub_argc = cmd ? argc - 1 : argc;
	char **sub_argv = cmd ? argv + 1 : argv;
	if (!g_option_context_parse(ctx, &sub_argc, &sub_argv, &err)) {
		int rc = usage_error(ctx, err->message);
		g_error_free(err);
		return rc;
	}
	int rc = 0;
	if (!cmd) {
		if (version)
			printf("memcgsim %s\n", MEMCGSIM_VERSION);
		else
			rc = usage_error(ctx, "no command given (try --help)");
		if (version)
			g_option_context_free(ctx);
		return rc;
	}
	if (g_str_equal(cmd, "schema")) {
		g_option_context_free(ctx);
		return cmd_schema();
	}
	if (!c.files || !c.files[0] || c.files[1])
		return usage_error(ctx, "expected exactly one scenario FILE");
	g_option_context_free(ctx);
	rc = g_str_equal(cmd, "run") ? cmd_run(&c) : cmd_validate(&c);
	g_strfreev(c.sets);
	g_strfreev(c.files);
	g_free(c.seed);
	g_free(c.variant);
	g_free(c.format);
	g_free(c.output);
	g_strfreev(argv);
	return rc;
}

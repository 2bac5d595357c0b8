/* memcgsim sweep, merge and report. */
#include "cli_util.h"
#include "jpos.h"
#include "output.h"
#include "mcs_file.h"
#include "report.h"
#include "result.h"
#include "spec.h"
#include "sweep.h"
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

/* Print the failure of a sweep or a merge into @dir, if any, and where the
 * directory stands; the exit status. */
static int sweep_status(const char *dir, struct sweep_outcome *so, GError *err)
{
	int rc = err ? cli_error(err, "memcgsim: ") : 0;
	if (so->done != so->total) /* more, with stray run files */
		fprintf(stderr, "memcgsim: %s: %zu of %zu runs done; resume the sweep, or merge "
				"its shards, for the result\n", dir, so->done, so->total);
	else if (so->result_path)
		fprintf(stderr, "memcgsim: %s: all %zu runs done; result in %s\n", dir, so->total,
			so->result_path);
	if (so->violation) {
		fprintf(stderr, "memcgsim: a run of the sweep reported a failure\n");
		rc = EXIT_VIOLATION;
	}
	sweep_outcome_clear(so);
	return rc;
}

static int cmd_sweep(struct cli *c)
{
	struct sweep_opts o = {.scenario = c->files[0], .params = (const char *const *)c->params,
			       .replicas = c->replicas, .jobs = c->jobs, .out = c->out,
			       .resume = c->resume, .shard_k = 1, .shard_n = 1,
			       .tty = isatty(STDERR_FILENO), .force = c->force,
			       .quiet = c->quiet};
	if (!c->out) {
		fprintf(stderr, "memcgsim: sweep: --out DIR is required\n");
		return EXIT_USAGE;
	}
	if (c->jobs < 1 || c->jobs > 1024) {
		fprintf(stderr, "memcgsim: --jobs: expected 1 to 1024, got %d\n", c->jobs);
		return EXIT_USAGE;
	}
	if (c->replicas < 0 || c->replicas > 100) {
		fprintf(stderr, "memcgsim: --replicas: expected 1 to 100, got %d\n", c->replicas);
		return EXIT_USAGE;
	}
	if (!cli_draw_costs_valid(c) || !cli_seed_valid(c) || !cli_timeout_start(c))
		return EXIT_USAGE;
	GError *err = NULL;
	if (!output_check_dir(c->out, "--out", &err))
		return cli_error(err, "memcgsim: ");
	if (c->shard && !parse_shard(c->shard, &o.shard_k, &o.shard_n)) {
		fprintf(stderr, "memcgsim: --shard: expected K/N with 1 <= K <= N, got \"%s\"\n",
			c->shard);
		return EXIT_USAGE;
	}
	GPtrArray *sets = cli_collect_sets(c);
	o.sets = (const char *const *)sets->pdata;
	struct sweep_plan *pl = sweep_plan_new(&o, &err);
	int rc;
	if (!pl) {
		rc = cli_error(err, "");
	} else {
		struct sweep_outcome so;
		bool ok = sweep_run(pl, &so, &err);
		rc = sweep_status(c->out, &so, ok ? NULL : err);
		sweep_plan_free(pl);
	}
	g_ptr_array_free(sets, TRUE);
	return rc;
}

static int cmd_merge(struct cli *c)
{
	if (!c->out) {
		fprintf(stderr, "memcgsim: merge: --out DIR is required\n");
		return EXIT_USAGE;
	}
	GError *err = NULL;
	if (!output_check_dir(c->out, "--out", &err))
		return cli_error(err, "memcgsim: ");
	struct sweep_outcome so;
	bool ok = sweep_merge(c->out, (const char *const *)c->files, &so, &err);
	return sweep_status(c->out, &so, ok ? NULL : err);
}

/* The largest result file report reads (a sweep's result of 100000 runs
 * is about this size). */
#define REPORT_MAX_BYTES (1024 * 1024 * 1024)

/* The member of object @o that @p starts with (the longest: metric names
 * hold dots), as its key; NULL when none. */
static char *member_prefix(json_t *o, const char *p)
{
	char *best = NULL;
	const char *k;
	json_t *v;
	json_object_foreach (o, k, v) {
		size_t n = strlen(k);
		if (!strncmp(p, k, n) && (p[n] == '.' || !p[n]) && (!best || n > strlen(best))) {
			g_free(best);
			best = g_strdup(k);
		}
	}
	return best;
}

/* Where the value at dotted @path of @doc (or the deepest of it that
 * exists) sits in the file. */
static const struct jpos *locate(GHashTable *map, json_t *doc, const char *path)
{
	const struct jpos *at = jpos_get(map, NULL, "");
	json_t *node = doc;
	for (const char *p = path; *p && at;) {
		char *key = NULL;
		if (json_is_object(node))
			key = member_prefix(node, p);
		else if (json_is_array(node) && g_ascii_isdigit(*p))
			key = g_strndup(p, strspn(p, "0123456789"));
		json_t *child = !key ? NULL
			       : json_is_array(node) ? json_array_get(node, strtoul(key, NULL, 10))
						     : json_object_get(node, key);
		const struct jpos *next = child ? jpos_get(map, node, key) : NULL;
		p += key ? strlen(key) + (p[strlen(key)] == '.') : strlen(p);
		g_free(key);
		if (!next)
			break;
		at = next;
		node = child;
	}
	return at;
}

/* A result file, read with its size limit applied while reading. */
static json_t *report_read_json(const char *in, GHashTable *map, GError **err)
{
	gsize len = 0;
	char *text = mcs_file_read_input(in, REPORT_MAX_BYTES, &len, err);
	if (!text)
		return NULL;
	json_error_t je;
	json_t *doc = json_loadb(text, len, 0, &je);
	if (doc)
		jpos_scan(map, in, text, len, NULL, "", doc, 1);
	g_free(text);
	if (!doc)
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT, "%s:%d:%d: (root): %s", in,
			    je.line < 1 ? 1 : je.line, je.column < 1 ? 1 : je.column, je.text);
	return doc;
}

/* A result file, or the result of the sweep in a directory: checked. */
json_t *cli_report_load(const char *in, GError **err)
{
	json_t *doc = NULL;
	GHashTable *map = jpos_map_new();
	if (g_file_test(in, G_FILE_TEST_IS_DIR))
		doc = sweep_result_load(in, err);
	else
		doc = report_read_json(in, map, err);
	const char *fmt = doc ? json_string_value(json_object_get(doc, "format")) : NULL;
	if (doc && !g_str_equal(fmt ? fmt : "", "memcgsim-result-1") &&
	    !g_str_equal(fmt ? fmt : "", "memcgsim-sweep-1")) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
			    "%s: format: expected \"memcgsim-result-1\" or \"memcgsim-sweep-1\"", in);
		g_clear_pointer(&doc, json_decref);
	}
	GError *bad = NULL;
	if (doc && !result_check(doc, &bad)) { /* "PATH: expected ...", at PATH's place */
		const char *colon = strstr(bad->message, ": ");
		char *path = g_strndup(bad->message, colon ? (gsize)(colon - bad->message) : 0);
		const struct jpos *at = locate(map, doc, path);
		if (at)
			g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT, "%s:%d:%d: %s", in, at->line,
				    at->col, bad->message);
		else
			g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT, "%s: %s", in, bad->message);
		g_free(path);
		g_error_free(bad);
		g_clear_pointer(&doc, json_decref);
	}
	g_hash_table_destroy(map);
	return doc;
}

/* What to report: the input, or one point of it (--point). */
static json_t *report_input(struct cli *c, GError **err)
{
	json_t *doc = cli_report_load(c->files[0], err);
	if (!doc || c->point < 0)
		return doc;
	json_t *points = json_object_get(doc, "points");
	json_t *p = json_array_get(points, (size_t)c->point);
	json_t *r = p ? json_incref(json_object_get(p, "result")) : NULL;
	if (!points)
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
			    "--point: %s is a single result, not a sweep", c->files[0]);
	else if (!p)
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
			    "--point: expected a point of the sweep (0 to %zd), got %d",
			    (ssize_t)json_array_size(points) - 1, c->point);
	json_decref(doc);
	return r;
}

static int cmd_report(struct cli *c)
{
	struct report_opts o = {.format = report_format_find(c->format),
				.sort = c->sort ? c->sort : "wait_total",
				.plots = c->plots};
	if (!o.format) {
		char *names = report_format_names();
		fprintf(stderr, "memcgsim: --format: expected %s, got \"%s\"\n", names, c->format);
		g_free(names);
		return EXIT_USAGE;
	}
	if (!report_sort_valid(o.sort)) {
		fprintf(stderr, "memcgsim: --sort: expected contended, wait_total, wait_max or "
				"wait_avg, got \"%s\"\n", o.sort);
		return EXIT_USAGE;
	}
	GError *err = NULL;
	if (!output_check(c->output, "-o", &err) ||
	    (c->plots && !output_check_dir(c->plots, "--plots", &err)))
		return cli_error(err, "memcgsim: ");
	json_t *doc = report_input(c, &err);
	if (!doc)
		return cli_error(err, "");
	GString *out = g_string_new(NULL);
	bool ok = report_render(doc, &o, out, &err) && cli_output(c, out, "the report", &err);
	g_string_free(out, TRUE);
	json_decref(doc);
	return ok ? 0 : cli_error(err, "memcgsim: ");
}

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

const struct cli_command cli_sweep_command = {
	.name = "sweep",
	.synopsis = "SCENARIO - run a scenario over a grid of parameters",
	.options = sweep_options,
	.files = 1,
	.files_what = "SCENARIO",
	.scenario = true,
	.fn = cmd_sweep,
};

static const GOptionEntry merge_options[] = {
	CLI_OPT_FILES("SHARD_DIR..."),
	CLI_OPT_OUT("The merged sweep's directory"),
	{NULL}};

const struct cli_command cli_merge_command = {
	.name = "merge",
	.synopsis = "SHARD_DIR... - merge the directories of a sharded sweep",
	.options = merge_options,
	.files = CLI_FILES_ONE_OR_MORE,
	.files_what = "shard directories",
	.fn = cmd_merge,
};

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

const struct cli_command cli_report_command = {
	.name = "report",
	.synopsis = "DIR|RESULT.json - render a result or a sweep",
	.options = report_options,
	.files = 1,
	.files_what = "DIR or RESULT.json",
	.fn = cmd_report,
};

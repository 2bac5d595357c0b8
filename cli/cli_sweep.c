/* memcgsim sweep, merge and report. */
#include "cli.h"
#include "output.h"
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

int cmd_sweep(struct cli *c)
{
	struct sweep_opts o = {.scenario = c->files[0], .params = (const char *const *)c->params,
			       .replicas = c->replicas, .jobs = c->jobs, .out = c->out,
			       .resume = c->resume, .shard_k = 1, .shard_n = 1,
			       .tty = isatty(STDERR_FILENO)};
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
	if (c->shard && !parse_shard(c->shard, &o.shard_k, &o.shard_n)) {
		fprintf(stderr, "memcgsim: --shard: expected K/N with 1 <= K <= N, got \"%s\"\n",
			c->shard);
		return EXIT_USAGE;
	}
	GPtrArray *sets = cli_collect_sets(c);
	o.sets = (const char *const *)sets->pdata;
	int rc = sweep_run(&o);
	g_ptr_array_free(sets, TRUE);
	return rc;
}

int cmd_merge(struct cli *c)
{
	if (!c->out) {
		fprintf(stderr, "memcgsim: merge: --out DIR is required\n");
		return EXIT_USAGE;
	}
	return sweep_merge(c->out, (const char *const *)c->files);
}

/* A result file, a sweep directory, or one point of a sweep (--point). */
static json_t *report_input(struct cli *c)
{
	const char *in = c->files[0];
	json_t *doc = NULL;
	GError *err = NULL;
	if (g_file_test(in, G_FILE_TEST_IS_DIR)) {
		doc = sweep_result_load(in, &err);
	} else {
		json_error_t je;
		doc = json_load_file(in, 0, &je);
		if (!doc)
			g_set_error(&err, MCS_ERROR, 0,
				    "%s:%d:%d: (root): %s", in, je.line < 1 ? 1 : je.line,
				    je.column < 1 ? 1 : je.column, je.text);
	}
	const char *fmt = doc ? json_string_value(json_object_get(doc, "format")) : NULL;
	if (doc && !g_str_equal(fmt ? fmt : "", "memcgsim-result-1") &&
	    !g_str_equal(fmt ? fmt : "", "memcgsim-sweep-1")) {
		g_set_error(&err, MCS_ERROR, 0,
			    "%s: format: expected \"memcgsim-result-1\" or \"memcgsim-sweep-1\"", in);
		g_clear_pointer(&doc, json_decref);
	}
	GError *bad = NULL;
	if (doc && !result_check(doc, &bad)) {
		g_set_error(&err, MCS_ERROR, 0, "%s: %s", in, bad->message);
		g_error_free(bad);
		g_clear_pointer(&doc, json_decref);
	}
	json_t *points = doc ? json_object_get(doc, "points") : NULL;
	if (doc && c->point >= 0) {
		json_t *p = json_array_get(points, (size_t)c->point);
		if (!p) {
			g_set_error(&err, MCS_ERROR, 0,
				    "--point: expected a point of the sweep (0 to %zd), got %d",
				    (ssize_t)json_array_size(points) - 1, c->point);
			g_clear_pointer(&doc, json_decref);
		} else {
			json_t *r = json_incref(json_object_get(p, "result"));
			json_decref(doc);
			doc = r;
		}
	}
	if (!doc) {
		fprintf(stderr, "%s\n", err->message);
		g_error_free(err);
	}
	return doc;
}

int cmd_report(struct cli *c)
{
	struct report_opts o = {.sort = c->sort ? c->sort : "wait_total", .plots = c->plots};
	if (!report_format_parse(c->format, &o.format)) {
		fprintf(stderr, "memcgsim: --format: expected text, md, html, json or csv, got \"%s\"\n",
			c->format);
		return EXIT_USAGE;
	}
	if (!report_sort_valid(o.sort)) {
		fprintf(stderr, "memcgsim: --sort: expected contended, wait_total, wait_max or "
				"wait_avg, got \"%s\"\n", o.sort);
		return EXIT_USAGE;
	}
	json_t *doc = report_input(c);
	if (!doc)
		return EXIT_USAGE;
	GString *out = g_string_new(NULL);
	GError *err = NULL;
	bool ok = report_render(doc, &o, out, &err) &&
		  output_write(c->output, out->str, out->len, &err);
	if (!ok) {
		fprintf(stderr, "memcgsim: %s\n", err ? err->message : "cannot write the report");
		g_clear_error(&err);
	}
	g_string_free(out, TRUE);
	json_decref(doc);
	return ok ? 0 : EXIT_VIOLATION;
}

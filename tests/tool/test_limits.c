// SPDX-License-Identifier: GPL-2.0-or-later
/* Input limits and the memory a reader takes (docs/results.md, "Inputs"):
 * a result or run file past its size limit refused before it is read, a run
 * file whose parsed form would pass its budget refused while it is parsed,
 * a reader's peak memory against what the text and its parsed form take, a
 * sweep past its run limit refused, and the place of an error deep in a
 * large result. */
#include "result.h"
#include "runfile.h"
#include "runner.h"
#include "scenario.h"
#include "sweep.h"
#include "test_util.h"
#include <fcntl.h>
#include <jansson.h>
#include <malloc.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FIXTURE MCS_SOURCE_DIR "/tests/golden/lockbench.result.json"
/* What the memcgsim process takes besides the input's text and its parsed
 * form: the program, its libraries, a report of a few lines. */
#define READER_SLACK ((size_t)64 << 20)

/* A file of @size bytes of zeros that takes no room (a hole). */
static void sparse_file(const char *path, off_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	g_assert_cmpint(fd, >=, 0);
	g_assert_cmpint(ftruncate(fd, size), ==, 0);
	close(fd);
}

static void expect_err(const char *const *args, int status, const char *want)
{
	char *out, *err;
	int got = mcs_cli(args, &out, &err);
	g_assert_cmpstr(err, ==, want);
	g_assert_cmpint(got, ==, status);
	g_free(out);
	g_free(err);
}

/* The bytes jansson takes for the parsed form of @text, here. */
static size_t parsed_bytes(const char *text, size_t len)
{
	struct mallinfo2 before = mallinfo2();
	json_t *doc = json_loadb(text, len, 0, NULL);
	g_assert_nonnull(doc);
	struct mallinfo2 after = mallinfo2();
	json_decref(doc);
	return (after.uordblks + after.hblkhd) - (before.uordblks + before.hblkhd);
}

/* A result one byte past RESULT_MAX_BYTES is refused before it is read, by
 * report and compare, and so is a sweep's. (Before, 1 GiB was read.) */
static void test_result_too_long(void)
{
	char *dir = g_dir_make_tmp("memcgsim-limits-XXXXXX", NULL);
	char *big = g_build_filename(dir, "big.json", NULL);
	sparse_file(big, (off_t)RESULT_MAX_BYTES + 1);
	char *want = g_strdup_printf("%s:1:1: (root): cannot read: more than %d bytes\n", big,
				     RESULT_MAX_BYTES);
	expect_err((const char *[]){"report", big, NULL}, 2, want);
	expect_err((const char *[]){"compare", big, FIXTURE, NULL}, 2, want);
	g_free(want);
	char *sweep = g_build_filename(dir, "s", NULL);
	char *result = g_build_filename(sweep, "result.json", NULL);
	g_assert_cmpint(g_mkdir(sweep, 0755), ==, 0);
	sparse_file(result, (off_t)RESULT_MAX_BYTES + 1);
	want = g_strdup_printf("%s:1:1: (root): cannot read: more than %d bytes\n", result,
			       RESULT_MAX_BYTES);
	expect_err((const char *[]){"report", sweep, NULL}, 2, want);
	g_free(want);
	g_free(result);
	g_free(sweep);
	g_free(big);
	mcs_rm_tree(dir);
	g_free(dir);
}

/* report holds a result's text and its parsed form, and not a record of
 * where each of its values sits: 4 million numbers (8 MB, 170 MB parsed)
 * took 630 MB before, for their positions. */
static void test_result_memory(void)
{
	char *dir = g_dir_make_tmp("memcgsim-limits-XXXXXX", NULL);
	char *in = g_build_filename(dir, "padded.json", NULL);
	json_t *doc = json_load_file(FIXTURE, 0, NULL);
	g_assert_nonnull(doc);
	char *compact = json_dumps(doc, JSON_COMPACT);
	json_decref(doc);
	GString *text = g_string_new(compact);
	free(compact);
	g_string_truncate(text, text->len - 1); /* its closing brace */
	g_string_append(text, ",\"pad\":[0");
	for (int i = 1; i < 4 << 20; i++)
		g_string_append(text, ",0");
	g_string_append(text, "]}");
	g_assert_true(g_file_set_contents(in, text->str, (gssize)text->len, NULL));
	size_t parsed = parsed_bytes(text->str, text->len), rss;
	char *err;
	g_assert_cmpint(mcs_cli_rss((const char *[]){"report", in, NULL}, &err, &rss), ==, 0);
	g_assert_cmpstr(err, ==, "");
	g_test_message("report of %zu bytes, %zu parsed: peak %zu bytes", text->len, parsed, rss);
	if (MCS_RSS_CHECKED)
		g_assert_cmpuint(rss, <, text->len + parsed + READER_SLACK);
	g_free(err);
	g_string_free(text, TRUE);
	g_free(in);
	mcs_rm_tree(dir);
	g_free(dir);
}

/* Where a value deep in a large result is wrong is found by scanning its
 * text again: line and column of the value itself. */
static void test_result_positions(void)
{
	char *dir = g_dir_make_tmp("memcgsim-limits-XXXXXX", NULL);
	char *in = g_build_filename(dir, "r.json", NULL);
	json_t *doc = json_load_file(FIXTURE, 0, NULL);
	json_t *v1 = json_array_get(json_object_get(doc, "variants"), 1);
	json_t *reps = json_object_get(v1, "per_replica"), *first = json_array_get(reps, 0);
	for (int i = 0; i < 6000; i++)
		json_array_append_new(reps, json_deep_copy(first));
	json_t *last = json_array_get(reps, json_array_size(reps) - 1);
	json_object_set_new(json_object_get(last, "metrics"), "lock_utilisation",
			    json_string("damaged"));
	g_assert_cmpint(json_dump_file(doc, in, JSON_INDENT(1)), ==, 0);
	json_decref(doc);
	char *text = mcs_slurp(in);
	const char *at = strstr(text, "\"damaged\"");
	g_assert_nonnull(at);
	int line = 1;
	const char *bol = text;
	for (const char *c = text; c < at; c++)
		if (*c == '\n') {
			line++;
			bol = c + 1;
		}
	char *want = g_strdup_printf("%s:%d:%d: variants.1.per_replica.6002.metrics."
				     "lock_utilisation: expected a finite number\n",
				     in, line, (int)(at - bol) + 1);
	g_assert_cmpuint(strlen(text), >, 8 << 20);
	expect_err((const char *[]){"report", in, NULL}, 2, want);
	g_free(want);
	g_free(text);
	g_free(in);
	mcs_rm_tree(dir);
	g_free(dir);
}

/* A sweep of the tiny scenario, 2 points: DIR/s. */
static char *tiny_sweep(const char *top)
{
	char *file = mcs_tiny_scenario(top);
	char *dir = g_build_filename(top, "s", NULL);
	char *out, *err;
	g_assert_cmpint(
	    mcs_cli((const char *[]){"sweep", file, "--param", "workloads.0.hold_ns=10,20", "-q",
				     "-j2", "--out", dir, NULL},
		    &out, &err),
	    ==, 0);
	g_free(out);
	g_free(err);
	g_free(file);
	return dir;
}

/* --resume of DIR/s with its run p0001-v00-r000 made damaged by @damage:
 * moved aside as damaged (@why) and run again, within @bound bytes of peak
 * memory (0: not checked), to the sweep's very result. */
static void resume_damaged(const char *top, void (*damage)(const char *), const char *why,
			   size_t bound)
{
	char *dir = g_build_filename(top, "s", NULL);
	char *file = g_build_filename(top, "tiny.json", NULL);
	char *run = runfile_path(dir, "p0001-v00-r000");
	char *result = g_build_filename(dir, "result.json", NULL);
	char *good = mcs_slurp(result);
	g_assert_cmpint(g_unlink(result), ==, 0);
	damage(run);
	char *want = g_strdup_printf(
	    "memcgsim: %s: damaged (%s); moved to %s/bad/p0001-v00-r000.json, running it again\n"
	    "memcgsim: %s: all 2 runs done; result in %s\n",
	    run, why, dir, dir, result);
	size_t rss;
	char *err;
	g_assert_cmpint(
	    mcs_cli_rss((const char *[]){"sweep", file, "--param", "workloads.0.hold_ns=10,20",
					 "-q", "-j2", "--out", dir, "--resume", NULL},
			&err, &rss),
	    ==, 0);
	g_assert_cmpstr(err, ==, want);
	g_test_message("--resume: peak %zu bytes", rss);
	if (bound && MCS_RSS_CHECKED)
		g_assert_cmpuint(rss, <, bound);
	char *again = mcs_slurp(result);
	g_assert_cmpstr(again, ==, good);
	g_free(again);
	g_free(err);
	g_free(want);
	g_free(good);
	g_free(result);
	g_free(run);
	g_free(file);
	g_free(dir);
}

static void past_size_limit(const char *run)
{
	sparse_file(run, (off_t)RUNFILE_MAX_BYTES + 1);
}

/* 12 MB of empty objects: a gigabyte once parsed. */
#define HOSTILE_OBJECTS (4 << 20)
static void empty_objects(const char *run)
{
	GString *text = g_string_new("{\"pad\":[{}");
	for (int i = 1; i < HOSTILE_OBJECTS; i++)
		g_string_append(text, ",{}");
	g_string_append(text, "]}");
	g_assert_true(g_file_set_contents(run, text->str, (gssize)text->len, NULL));
	g_string_free(text, TRUE);
}

/* A damaged run file past RUNFILE_MAX_BYTES is not read, and one whose
 * parsed form would pass RUNFILE_MAX_PARSED is not parsed past it: each is
 * moved aside and run again. (Before, 256 MiB were read, and parsed whole:
 * the 12 MB of empty objects took 1.2 GB.) */
static void test_runfile_limits(void)
{
	char *top = g_dir_make_tmp("memcgsim-limits-XXXXXX", NULL);
	char *dir = tiny_sweep(top);
	char *why = g_strdup_printf("more than %d bytes", RUNFILE_MAX_BYTES);
	resume_damaged(top, past_size_limit, why, 0);
	g_free(why);
	why = g_strdup_printf("needs more than %zu MiB once parsed (the most read here)",
			      (size_t)RUNFILE_MAX_PARSED >> 20);
	resume_damaged(top, empty_objects, why,
		       (size_t)HOSTILE_OBJECTS * 3 + RUNFILE_MAX_PARSED + READER_SLACK);
	g_free(why);
	g_free(dir);
	mcs_rm_tree(top);
	g_free(top);
}

/* A grid of more than SWEEP_MAX_RUNS points is refused before a point is
 * loaded. (Before, up to 100,000: its result was more than report reads.) */
static void test_sweep_runs(void)
{
	GString *why = g_string_new(NULL);
	int col;
	struct sweep_param *ps[] = {sweep_param_parse("a=lin:1:101:101", why, &col),
				    sweep_param_parse("b=lin:1:200:200", why, &col)};
	g_assert_cmpuint(sweep_grid_size(ps, 2), ==, 0); /* 20,200 points */
	for (int i = 0; i < 2; i++)
		sweep_param_free(ps[i]);
	g_string_free(why, TRUE);
	char *top = g_dir_make_tmp("memcgsim-limits-XXXXXX", NULL);
	char *file = mcs_tiny_scenario(top);
	char *dir = g_build_filename(top, "s", NULL);
	char *want = g_strdup_printf("--param: the grid has more than %d points\n", SWEEP_MAX_RUNS);
	expect_err((const char *[]){"sweep", file, "--param", "workloads.0.hold_ns=lin:1:101:101",
				    "--param", "workloads.0.think_ns=lin:1:200:200", "--out", dir,
				    NULL},
		   2, want);
	g_assert_false(g_file_test(dir, G_FILE_TEST_EXISTS));
	g_free(want);
	g_free(dir);
	g_free(file);
	mcs_rm_tree(top);
	g_free(top);
}

/* The memory budget is the command's: -j 8 of a scenario whose every
 * simulation may hold about 3 GiB (fileread, 10^7 files) runs as many at
 * once as half the machine's memory holds (at least 4 GiB), and says so
 * with both figures (issue 37; before, 8 at once: about 30 GB). Stopped
 * by --timeout once started. */
static void test_memory_per_command(void)
{
	char *dir = g_dir_make_tmp("memcgsim-limits-XXXXXX", NULL);
	char *scen = g_build_filename(dir, "fr.json", NULL);
	const char *json = "{\"name\": \"fr\", \"seed\": 1, \"replicas\": 8, \"machine\": "
			   "{\"nodes\": 1, \"cpus_per_node\": 2}, \"memcg\": {\"cgroups\": "
			   "[{\"name\": \"c\"}]}, \"workloads\": [{\"type\": \"fileread\", "
			   "\"cgroup\": \"c\", \"count\": 1, \"files\": 10000000}], \"stop\": "
			   "{\"type\": \"completion\"}, \"variants\": [{\"name\": \"only\"}]}";
	g_assert_true(g_file_set_contents(scen, json, -1, NULL));
	struct scenario *sc = scenario_load_file(scen, NULL, NULL);
	g_assert_nonnull(sc);
	const struct scenario_variant *v = sc->variants->pdata[0];
	double each = scenario_memory_bytes(v->config), budget = runner_memory_budget();
	int fits = (int)MIN(8, MAX(1, floor(budget / each)));
	char *out, *err;
	g_assert_cmpint(mcs_cli((const char *[]){"run", scen, "-j", "8", "-q", "--timeout", "1",
						 "-o", "/dev/null", NULL},
				&out, &err),
			==, 1);
	char *want = g_strdup_printf("memcgsim: -j 8 reduced to %d: a simulation may hold about "
				     "%.3g GiB of model objects, and the simulations running at "
				     "once at most %.3g GiB (half this machine's memory)\n",
				     fits, each / (1 << 30), budget / (1 << 30));
	if (fits < 8)
		g_assert_true(g_str_has_prefix(err, want));
	else /* a machine with room for all 8 */
		g_assert_null(strstr(err, "reduced"));
	g_assert_cmpfloat(each, >, 2.0 * (1 << 30)); /* the case needs a run that big */
	g_free(want);
	g_free(out);
	g_free(err);
	scenario_free(sc);
	mcs_rm_tree(dir);
	g_free(dir);
	g_free(scen);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/limits/result/too-long", test_result_too_long);
	g_test_add_func("/limits/result/memory", test_result_memory);
	g_test_add_func("/limits/result/positions", test_result_positions);
	g_test_add_func("/limits/runfile", test_runfile_limits);
	g_test_add_func("/limits/sweep/runs", test_sweep_runs);
	g_test_add_func("/limits/memory/per-command", test_memory_per_command);
	return g_test_run();
}

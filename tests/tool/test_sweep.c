// SPDX-License-Identifier: GPL-2.0-or-later
/* Sweeps: grid expansion against hand-written grids, exact error text,
 * resume after a real SIGKILL, and shards merged into the unsharded
 * sweep's very bytes. */
#include "result_format.h"
#include "runfile.h"
#include "scenario.h"
#include "sweep.h"
#include "test_util.h"
#include <signal.h>
#include <string.h>
#include <unistd.h>

#define SCEN MCS_SOURCE_DIR "/scenarios/lockbench_scope.json"

static char *values_of(const char *arg)
{
	GString *why = g_string_new(NULL);
	int col;
	struct sweep_param *p = sweep_param_parse(arg, why, &col);
	g_assert_nonnull(p);
	g_string_free(why, TRUE);
	char *s = json_dumps(p->values, JSON_COMPACT | JSON_REAL_PRECISION(15));
	char *r = g_strdup(s);
	free(s);
	sweep_param_free(p);
	return r;
}

static void test_values(void)
{
	static const struct {
		const char *arg, *values;
	} cases[] = {
	    {"a=1,2,4", "[1,2,4]"},
	    {"a=node,memcg", "[\"node\",\"memcg\"]"},
	    {"a=true,0.5,\"x,y\"", NULL}, /* a quoted comma still splits: see below */
	    {"a=lin:0:100:5", "[0,25,50,75,100]"},
	    {"a=lin:0:10:5", "[0.0,2.5,5.0,7.5,10.0]"},
	    {"a=lin:1:1:1", "[1]"},
	    {"a=1,1,2,1", "[1,2]"}, /* a value given twice counts once, as in lin:2:2:3 */
	    {"a=lin:2:2:3", "[2]"},
	    {"a=log:1:256:9", "[1,2,4,8,16,32,64,128,256]"},
	    {"a=log:1:10:3", "[1,3,10]"},	/* 3.162 rounds to 3 */
	    {"a=log:1:4:10", "[1,2,3,4]"},	/* rounding repeats values: once each */
	    {"a=log:0.5:2:3", "[0.5,1.0,2.0]"}, /* real ends: reals */
	};
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		if (!cases[i].values)
			continue;
		char *v = values_of(cases[i].arg);
		g_assert_cmpstr(v, ==, cases[i].values);
		g_free(v);
	}
	GString *why = g_string_new(NULL);
	int col;
	struct sweep_param *p =
	    sweep_param_parse("memcg.cgroups.0.count,workloads.0.count=1,2", why, &col);
	g_assert_cmpuint(g_strv_length(p->paths), ==, 2);
	g_assert_cmpstr(p->paths[1], ==, "workloads.0.count");
	g_assert_false(p->log);
	sweep_param_free(p);
	g_string_free(why, TRUE);
}

static void test_errors(void)
{
	static const struct {
		const char *arg, *why;
		int col;
	} cases[] = {
	    {"=1,2", "expected PATH[,PATH...]=VALUES, got \"=1,2\"", 1},
	    {"a.b", "expected PATH[,PATH...]=VALUES, got \"a.b\"", 1},
	    {"a,,b=1", "empty path in \"a,,b=1\"", 1},
	    {"a=1,,2", "value 2: expected a number, a string or a boolean", 3},
	    {"a=[1],2", "value 1: expected a number, a string or a boolean", 3},
	    {"a=lin:1:2", "expected lin:START:STOP:N with numbers START, STOP and a count N", 3},
	    {"a=lin:x:2:3", "expected lin:START:STOP:N with numbers START, STOP and a count N", 3},
	    {"a=log:0:8:4", "a log range needs START and STOP > 0", 3},
	    {"a=lin:1:2:0", "expected a count N from 1 to 1024, got 0", 3},
	    {"a=lin:1:2:99999999999", "expected a count N from 1 to 1024, got 99999999999", 3},
	    {"a=log:1:2:18446744073709551617",
	     "expected a count N from 1 to 1024, got 18446744073709551617", 3},
	    {"a=", "expected VALUES after \"=\"", 3},
	    {"a=lin:1:2:1", "a count N of 1 needs START = STOP, got 1 and 2", 3},
	    {"a,b=zip:1|x;2", "zip tuple 2: expected 2 values (one a path), got 1", 5},
	    {"a,b=zip:", "zip: expected TUPLE[;TUPLE...]", 5},
	};
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		GString *why = g_string_new(NULL);
		int col = 0;
		g_assert_null(sweep_param_parse(cases[i].arg, why, &col));
		g_assert_cmpstr(why->str, ==, cases[i].why);
		g_assert_cmpint(col, ==, cases[i].col);
		g_string_free(why, TRUE);
	}
}

/* zip: each tuple sets its paths value by value; the label and the
 * plots' x are the first path's. */
static void test_zip(void)
{
	GString *why = g_string_new(NULL);
	int col;
	struct sweep_param *p =
	    sweep_param_parse("m.cpus,m.preset=zip:16|broadwell-2s;52|cascadelake-2s", why, &col);
	g_assert_nonnull(p);
	g_assert_cmpuint(sweep_grid_size(&p, 1), ==, 2);
	char **sets = sweep_grid_sets(&p, 1, 1);
	g_assert_cmpstr(sets[0], ==, "m.cpus=52");
	g_assert_cmpstr(sets[1], ==, "m.preset=\"cascadelake-2s\"");
	g_assert_null(sets[2]);
	g_strfreev(sets);
	char *label = sweep_grid_label(&p, 1, 0);
	g_assert_cmpstr(label, ==, "cpus=16");
	g_free(label);
	sweep_param_free(p);
	/* two paths of a tuple may take the same value (a list would count it
	 * once): a container a CPU, 32 and 32 */
	p = sweep_param_parse("a,b,c=zip:16|32|32;20|40|40", why, &col);
	g_assert_nonnull(p);
	sets = sweep_grid_sets(&p, 1, 0);
	g_assert_cmpstr(sets[0], ==, "a=16");
	g_assert_cmpstr(sets[1], ==, "b=32");
	g_assert_cmpstr(sets[2], ==, "c=32");
	g_assert_null(sets[3]);
	g_strfreev(sets);
	sweep_param_free(p);
	g_string_free(why, TRUE);
}

static void test_grid(void)
{
	GString *why = g_string_new(NULL);
	int col;
	struct sweep_param *ps[] = {sweep_param_parse("x.a=1,2,3", why, &col),
				    sweep_param_parse("y.b,z.b=node,memcg", why, &col)};
	g_assert_cmpuint(sweep_grid_size(ps, 2), ==, 6);
	/* the last parameter varies fastest: (1,node) (1,memcg) (2,node) ... */
	size_t idx[2];
	sweep_grid_point(ps, 2, 3, idx);
	g_assert_cmpuint(idx[0], ==, 1);
	g_assert_cmpuint(idx[1], ==, 1);
	char **sets = sweep_grid_sets(ps, 2, 4);
	g_assert_cmpuint(g_strv_length(sets), ==, 3);
	g_assert_cmpstr(sets[0], ==, "x.a=3");
	g_assert_cmpstr(sets[1], ==, "y.b=\"node\"");
	g_assert_cmpstr(sets[2], ==, "z.b=\"node\"");
	g_strfreev(sets);
	char *label = sweep_grid_label(ps, 2, 5);
	g_assert_cmpstr(label, ==, "a=3, b=memcg");
	g_free(label);
	json_t *params =
	    json_pack("[{s:O}, {s:O}]", "values", ps[0]->values, "values", ps[1]->values);
	json_t *vals = sweep_point_values(params, 5);
	char *v = json_dumps(vals, JSON_COMPACT);
	g_assert_cmpstr(v, ==, "[3,\"memcg\"]");
	free(v);
	json_decref(vals);
	json_decref(params);
	/* a grid past SWEEP_MAX_RUNS is refused, not allocated */
	struct sweep_param *big[] = {sweep_param_parse("a=lin:1:1000:1000", why, &col),
				     sweep_param_parse("b=lin:1:1000:1000", why, &col)};
	g_assert_cmpuint(sweep_grid_size(big, 2), ==, 0);
	for (int i = 0; i < 2; i++) {
		sweep_param_free(ps[i]);
		sweep_param_free(big[i]);
	}
	g_string_free(why, TRUE);
}

/* A sweep of 2 hold times x 2 variants x 3 replicas, runs long enough
 * (20 ms simulated each) that a kill lands in the middle. */
#define SWEEP_ARGS(dir)                                                                            \
	"sweep", SCEN, "--set", "stop.duration_ns=20000000", "--param",                            \
	    "workloads.0.hold_ns,workloads.0.think_ns=lin:100:300:2", "--replicas", "3", "-j2",    \
	    "--out", dir
#define SWEEP_RUNS 12

static char *sweep_reference(const char *top)
{
	char *dir = g_build_filename(top, "ref", NULL);
	char *out, *err;
	g_assert_cmpint(mcs_cli((const char *[]){SWEEP_ARGS(dir), NULL}, &out, &err), ==, 0);
	char *want = g_strdup_printf("memcgsim: %s: all %d runs done; result in %s/result.json\n",
				     dir, SWEEP_RUNS, dir);
	g_assert_true(g_str_has_suffix(err, want));
	g_free(want);
	g_free(out);
	g_free(err);
	char *path = g_build_filename(dir, "result.json", NULL);
	char *text = mcs_slurp(path);
	g_assert_nonnull(text);
	g_free(path);
	g_free(dir);
	return text;
}

static guint count_runs(const char *dir, guint *tmp)
{
	char *runs = g_build_filename(dir, "runs", NULL);
	GDir *d = g_dir_open(runs, 0, NULL);
	guint n = 0;
	*tmp = 0;
	const char *name;
	while (d && (name = g_dir_read_name(d)))
		if (strstr(name, ".tmp."))
			(*tmp)++;
		else
			n++;
	if (d)
		g_dir_close(d);
	g_free(runs);
	return n;
}

static void test_resume_after_kill(void)
{
	char *top = g_dir_make_tmp("memcgsim-sweep-XXXXXX", NULL);
	char *ref = sweep_reference(top);
	/* Kill the sweep for real at two moments: after its first run file, and
	 * after half of them; each time --resume finishes the same sweep. */
	const guint kill_after[] = {1, SWEEP_RUNS / 2};
	for (size_t k = 0; k < G_N_ELEMENTS(kill_after); k++) {
		char *dir = g_strdup_printf("%s/killed%zu", top, k);
		const char *argv[] = {MCS_BINARY, SWEEP_ARGS(dir), NULL};
		GPid pid;
		int errfd;
		g_assert_true(g_spawn_async_with_pipes(NULL, (char **)argv, NULL,
						       G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid,
						       NULL, NULL, &errfd, NULL));
		guint tmp = 0;
		for (int i = 0; i < 20000 && count_runs(dir, &tmp) < kill_after[k]; i++)
			g_usleep(1000);
		kill(pid, SIGKILL);
		int status;
		g_assert_cmpint(waitpid(pid, &status, 0), ==, pid);
		g_assert_true(WIFSIGNALED(status));
		close(errfd);
		g_usleep(200000); /* its children die with it (PR_SET_PDEATHSIG) */
		guint done = count_runs(dir, &tmp);
		g_test_message("killed after %u runs", done);
		g_assert_cmpuint(done, >=, kill_after[k]);
		g_assert_cmpuint(done, <, SWEEP_RUNS);
		char *res = g_build_filename(dir, "result.json", NULL);
		g_assert_false(g_file_test(res, G_FILE_TEST_EXISTS));
		char *out, *err;
		/* without --resume the directory is not touched */
		g_assert_cmpint(mcs_cli((const char *[]){SWEEP_ARGS(dir), NULL}, &out, &err), ==,
				2);
		char *want = g_strdup_printf(
		    "memcgsim: %s: already holds this sweep; --resume continues it\n", dir);
		g_assert_cmpstr(err, ==, want);
		g_free(want);
		g_free(out);
		g_free(err);
		g_assert_cmpint(
		    mcs_cli((const char *[]){SWEEP_ARGS(dir), "--resume", NULL}, &out, &err), ==,
		    0);
		g_free(out);
		g_free(err);
		g_assert_cmpuint(count_runs(dir, &tmp), ==, SWEEP_RUNS);
		g_assert_cmpuint(tmp, ==, 0);
		char *text = mcs_slurp(res);
		g_assert_cmpstr(text, ==, ref);
		g_free(text);
		g_free(res);
		g_free(dir);
	}
	g_free(ref);
	mcs_rm_tree(top);
	g_free(top);
}

/* Run file @text with member @path of its result (dotted; a number is an
 * array index) set to the JSON @value: the damage a hand edit or a hostile
 * file does that the run file's syntax does not show. */
static char *edited_result(const char *text, const char *path, const char *value)
{
	json_t *doc = json_loads(text, 0, NULL);
	g_assert_nonnull(doc);
	json_t *at = json_object_get(doc, "result");
	char **keys = g_strsplit(path, ".", -1);
	guint n = g_strv_length(keys);
	for (guint i = 0; i + 1 < n; i++)
		at = json_is_array(at) ? json_array_get(at, (size_t)atoi(keys[i]))
				       : json_object_get(at, keys[i]);
	g_assert_nonnull(at);
	json_t *v = json_loads(value, JSON_DECODE_ANY, NULL);
	g_assert_nonnull(v);
	if (json_is_array(at))
		g_assert_cmpint(json_array_set_new(at, (size_t)atoi(keys[n - 1]), v), ==, 0);
	else
		g_assert_cmpint(json_object_set_new(at, keys[n - 1], v), ==, 0);
	char *out = json_dumps(doc, JSON_COMPACT);
	char *r = g_strdup(out);
	free(out);
	json_decref(doc);
	g_strfreev(keys);
	return r;
}

/* The damage each of the checks of a run's result finds, with its message. */
#define TIME_OR_COUNT "expected a count or time: a finite number, 0 or more"
#define A_TIME "expected a time in ns: a finite number, 0 or more"
static const struct {
	const char *path, *value, *why;
} result_damage[] = {
    {"locks", "[{\"class\": 5}]", "result.locks.0.class: expected a string"},
    {"cachelines", "\"zzz\"", "result.cachelines: expected an array"},
    {"sim_time_ns", "-5", "result.sim_time_ns: " A_TIME},
    {"cpu_time_ns.user", "-1e300", "result.cpu_time_ns.user: " A_TIME},
    {"locks.0.wait_ns.max", "-1", "result.locks.0.wait_ns.max: " TIME_OR_COUNT},
    {"cachelines.0.sites.0.time_ns", "-0.5", "result.cachelines.0.sites.0.time_ns: " TIME_OR_COUNT},
    {"metrics.elapsed_ns", "\"x\"", "result.metrics.elapsed_ns: expected a finite number"},
};

/* Each kind of damaged run file, result_damage's too: --resume moves it
 * aside to DIR/bad/, says why, runs it again, and the result is the
 * undamaged sweep's. */
static void test_damaged_run_files(void)
{
	char *top = g_dir_make_tmp("memcgsim-sweep-XXXXXX", NULL);
	char *ref = sweep_reference(top);
	char *dir = g_build_filename(top, "ref", NULL);
	char *run = g_build_filename(dir, "runs", "p0000-v00-r000.json", NULL);
	char *bad = g_build_filename(dir, "bad", NULL);
	char *good = mcs_slurp(run);
	char *reseeded = g_strdup(good);
	char *at = strstr(reseeded, "\"seed\":1,");
	g_assert_nonnull(at);
	at[7] = '5'; /* the run's seed edited */
	char *no_metrics = g_strdup(good);
	at = strstr(no_metrics, "\"metrics\"");
	g_assert_nonnull(at);
	memcpy(at, "\"metricz\"", 9);
	char *truncated = g_strndup(good, strlen(good) / 2);
	const struct {
		const char *text; /* NULL: a directory */
		const char *why;
	} cases[] = {
	    {"", "empty"},
	    {truncated, NULL}, /* "not JSON: ..." at the cut */
	    {"garbage", "not JSON: 1:7: '[' or '{' expected near 'garbage'"},
	    {"{\"x\": NaN}", "not JSON: 1:9: invalid token near 'NaN'"},
	    {NULL, "not a regular file (a directory)"},
	    {no_metrics, "result.metrics: expected an object"},
	    {reseeded, "seed: expected 1"},
	};
	for (size_t i = 0; i < G_N_ELEMENTS(cases) + G_N_ELEMENTS(result_damage); i++) {
		size_t d = i - G_N_ELEMENTS(cases);
		char *damaged = i < G_N_ELEMENTS(cases) ? NULL
							: edited_result(good, result_damage[d].path,
									result_damage[d].value);
		const char *text = damaged ? damaged : cases[i].text;
		const char *why = damaged ? result_damage[d].why : cases[i].why;
		g_unlink(run);
		if (text)
			g_assert_true(g_file_set_contents(run, text, -1, NULL));
		else
			g_assert_cmpint(g_mkdir(run, 0777), ==, 0);
		char *out, *err;
		g_assert_cmpint(
		    mcs_cli((const char *[]){SWEEP_ARGS(dir), "--resume", NULL}, &out, &err), ==,
		    0);
		char *want =
		    g_strdup_printf("memcgsim: %s: damaged (%s); moved to %s/p0000-v00-r000.json,"
				    " running it again\n",
				    run, why ? why : "", bad);
		if (why && !strstr(err, want))
			g_printerr("case %zu: stderr:\n%s\nwant:\n%s", i, err, want);
		if (why)
			g_assert_nonnull(strstr(err, want));
		else
			g_assert_nonnull(strstr(err, "damaged (not JSON: "));
		char *res = g_build_filename(dir, "result.json", NULL);
		char *resumed = mcs_slurp(res);
		g_assert_cmpstr(resumed, ==, ref);
		g_free(resumed);
		g_free(res);
		g_free(want);
		g_free(out);
		g_free(err);
		g_free(damaged);
		mcs_rm_tree(bad);
	}
	g_free(good);
	g_free(reseeded);
	g_free(no_metrics);
	g_free(truncated);
	g_free(bad);
	g_free(run);
	g_free(dir);
	g_free(ref);
	mcs_rm_tree(top);
	g_free(top);
}

/* Two sweeps started together on one directory (the second with other
 * values): the second finds the directory locked and exits 2 naming the
 * first, which finishes with the same result as alone. */
static void test_concurrent_sweeps(void)
{
	char *top = g_dir_make_tmp("memcgsim-sweep-XXXXXX", NULL);
	char *ref = sweep_reference(top);
	char *dir = g_build_filename(top, "shared", NULL);
	const char *argv[] = {MCS_BINARY, SWEEP_ARGS(dir), NULL};
	GPid pid;
	g_assert_true(g_spawn_async(NULL, (char **)argv, NULL,
				    G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDERR_TO_DEV_NULL, NULL,
				    NULL, &pid, NULL));
	char *lock = g_build_filename(dir, ".memcgsim.lock", NULL);
	char *holder = NULL;
	for (int i = 0; i < 20000 && (!holder || !*holder); i++) {
		g_free(holder);
		holder = NULL;
		g_file_get_contents(lock, &holder, NULL, NULL);
		g_usleep(1000);
	}
	g_assert_nonnull(holder);
	g_strchomp(holder);
	g_assert_cmpint(atoi(holder), ==, pid);
	char *out, *err;
	g_assert_cmpint(mcs_cli((const char *[]){SWEEP_ARGS(dir), "--seed", "7", NULL}, &out, &err),
			==, 2);
	char *want = g_strdup_printf("memcgsim: %s: in use by another memcgsim (pid %d); wait for "
				     "it, or choose another --out\n",
				     dir, (int)pid);
	g_assert_cmpstr(err, ==, want);
	int status;
	g_assert_cmpint(waitpid(pid, &status, 0), ==, pid);
	g_assert_true(WIFEXITED(status));
	g_assert_cmpint(WEXITSTATUS(status), ==, 0);
	char *res = g_build_filename(dir, "result.json", NULL);
	char *text = mcs_slurp(res);
	g_assert_cmpstr(text, ==, ref);
	g_free(text);
	g_free(res);
	g_free(want);
	g_free(out);
	g_free(err);
	g_free(holder);
	g_free(lock);
	g_free(dir);
	g_free(ref);
	mcs_rm_tree(top);
	g_free(top);
}

static void test_shard_merge(void)
{
	char *top = g_dir_make_tmp("memcgsim-sweep-XXXXXX", NULL);
	char *ref = sweep_reference(top);
	char *shards[4] = {NULL};
	guint total = 0, tmp;
	for (int k = 0; k < 3; k++) {
		shards[k] = g_strdup_printf("%s/shard%d", top, k + 1);
		char spec[8];
		g_snprintf(spec, sizeof(spec), "%d/3", k + 1);
		char *out, *err;
		g_assert_cmpint(
		    mcs_cli((const char *[]){SWEEP_ARGS(shards[k]), "--shard", spec, NULL}, &out,
			    &err),
		    ==, 0);
		guint n = count_runs(shards[k], &tmp);
		g_assert_cmpuint(n, ==, SWEEP_RUNS / 3); /* runs k, k+3, k+6, k+9 */
		char *want =
		    g_strdup_printf("memcgsim: %s: %u of %d runs done; resume the sweep, or "
				    "merge its shards, for the result\n",
				    shards[k], n, SWEEP_RUNS);
		if (!g_str_has_suffix(err, want))
			g_printerr("got: %s\nwant: %s\n", err, want);
		g_assert_true(g_str_has_suffix(err, want));
		total += n;
		g_free(want);
		g_free(out);
		g_free(err);
	}
	g_assert_cmpuint(total, ==, SWEEP_RUNS);
	char *merged = g_build_filename(top, "merged", NULL);
	char *out, *err;
	g_assert_cmpint(mcs_cli((const char *[]){"merge", "--out", merged, shards[0], shards[1],
						 shards[2], NULL},
				&out, &err),
			==, 0);
	g_free(out);
	g_free(err);
	char *res = g_build_filename(merged, "result.json", NULL);
	char *text = mcs_slurp(res);
	g_assert_cmpstr(text, ==, ref);
	/* a shard of another sweep does not merge */
	char *other = g_build_filename(top, "other", NULL);
	g_assert_cmpint(
	    mcs_cli((const char *[]){SWEEP_ARGS(other), "--seed", "2", "--shard", "1/3", NULL},
		    &out, &err),
	    ==, 0);
	g_free(out);
	g_free(err);
	char *merged2 = g_build_filename(top, "merged2", NULL);
	g_assert_cmpint(mcs_cli((const char *[]){"merge", "--out", merged2, shards[0], other, NULL},
				&out, &err),
			==, 2);
	char *want = g_strdup_printf(
	    "memcgsim: %s: a different sweep from %s (sweep.json differs)\n", other, shards[0]);
	g_assert_cmpstr(err, ==, want);
	g_assert_false(g_file_test(merged2, G_FILE_TEST_EXISTS));
	g_free(want);
	g_free(out);
	g_free(err);
	g_free(other);
	g_free(merged2);
	g_free(text);
	g_free(res);
	g_free(merged);
	for (int k = 0; k < 3; k++)
		g_free(shards[k]);
	g_free(ref);
	mcs_rm_tree(top);
	g_free(top);
}

static void test_cli_errors(void)
{
	char *top = g_dir_make_tmp("memcgsim-sweep-XXXXXX", NULL);
	char *dir = g_build_filename(top, "out", NULL);
	static const struct {
		const char *param, *err;
	} cases[] = {
	    {"workloads.0.hold_ns=lin:1:2", "--param:1:21: workloads.0.hold_ns: expected "
					    "lin:START:STOP:N with numbers START, STOP and a "
					    "count N\n"},
	    {"workloads.0.hold_nz=1,2", "--set:1:21: workloads.0.hold_nz: unknown key "
					"\"hold_nz\" (did you mean \"hold_ns\"?) (at sweep point "
					"hold_nz=1)\n"},
	    {"workloads.0.hold_ns=abc", "--set:1:21: workloads.0.hold_ns: expected a number in "
					"[0, 1000000000000], got \"abc\" (at sweep point "
					"hold_ns=abc)\n"},
	};
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		char *out, *err;
		g_assert_cmpint(mcs_cli((const char *[]){"sweep", SCEN, "--param", cases[i].param,
							 "--out", dir, NULL},
					&out, &err),
				==, 2);
		g_assert_cmpstr(err, ==, cases[i].err);
		g_assert_false(g_file_test(dir, G_FILE_TEST_EXISTS)); /* nothing written */
		g_free(out);
		g_free(err);
	}
	/* a parameter in the scenario's "sweep" is pointed at in the file */
	char *file = g_build_filename(top, "s.json", NULL);
	g_assert_true(g_file_set_contents(
	    file,
	    "{\"name\": \"t\", \"machine\": {\"nodes\": 1, \"cpus_per_node\": 2},\n"
	    " \"workloads\": [{\"type\": \"lockbench\", \"cpus\": 2, \"think_ns\": 100, "
	    "\"hold_ns\": 10}],\n"
	    " \"stop\": {\"type\": \"duration\", \"duration_ns\": 1000},\n"
	    " \"sweep\": [\"workloads.0.hold_ns=log:0:1:3\"]}\n",
	    -1, NULL));
	char *out, *err;
	g_assert_cmpint(mcs_cli((const char *[]){"sweep", file, "--out", dir, NULL}, &out, &err),
			==, 2);
	char *want =
	    g_strdup_printf("%s:4:12: sweep.0: a log range needs START and STOP > 0\n", file);
	g_assert_cmpstr(err, ==, want);
	g_assert_false(g_file_test(dir, G_FILE_TEST_EXISTS));
	g_free(want);
	g_free(file);
	g_free(out);
	g_free(err);
	g_assert_cmpint(
	    mcs_cli((const char *[]){"sweep", SCEN, "--shard", "4/3", "--out", dir, NULL}, &out,
		    &err),
	    ==, 2);
	g_assert_cmpstr(err, ==, "memcgsim: --shard: expected K/N with 1 <= K <= N, got \"4/3\"\n");
	g_free(out);
	g_free(err);
	mcs_rm_tree(top);
	g_free(dir);
	g_free(top);
}

/* A sweep of 2 points x 2 variants x 1 replica that runs in no time. */
#define QUICK_ARGS(dir)                                                                            \
	"sweep", SCEN, "--set", "stop.duration_ns=100000", "--param",                              \
	    "workloads.0.hold_ns=100,200", "--replicas", "1", "-j2", "--out", dir

/* Run memcgsim; check its exit status and, when @want is not NULL, that its
 * standard error ends with @want. */
static void expect(const char *const *args, int status, const char *want)
{
	char *out, *err;
	int got = mcs_cli(args, &out, &err);
	if (got != status || (want && !g_str_has_suffix(err, want)))
		g_printerr("exit status %d, stderr:\n%s\nwant %d, ending with:\n%s\n", got, err,
			   status, want ? want : "");
	g_assert_cmpint(got, ==, status);
	if (want)
		g_assert_true(g_str_has_suffix(err, want));
	g_free(out);
	g_free(err);
}

/* The exit status and the last line of each way a sweep, a merge or a
 * report of a sweep ends. */
static void test_statuses(void)
{
	char *top = g_dir_make_tmp("memcgsim-sweep-XXXXXX", NULL);
	char *dir = g_build_filename(top, "s", NULL), *shard = g_build_filename(top, "shard", NULL);
	char *want =
	    g_strdup_printf("memcgsim: %s: all 4 runs done; result in %s/result.json\n", dir, dir);
	expect((const char *[]){QUICK_ARGS(dir), NULL}, 0, want);
	g_free(want);
	want = g_strdup_printf("memcgsim: %s: holds a different sweep (its sweep.json differs); "
			       "choose another --out\n",
			       dir);
	expect((const char *[]){QUICK_ARGS(dir), "--seed", "2", "--resume", NULL}, 2, want);
	g_free(want);
	want = g_strdup_printf("memcgsim: %s: 2 of 4 runs done; resume the sweep, or merge its "
			       "shards, for the result\n",
			       shard);
	expect((const char *[]){QUICK_ARGS(shard), "--shard", "1/2", NULL}, 0, want);
	g_free(want);
	want = g_strdup_printf("%s: the sweep is not complete (no result.json): resume it, or "
			       "merge its shards\n",
			       shard);
	expect((const char *[]){"report", shard, NULL}, 2, want);
	g_free(want);
	expect((const char *[]){"report", dir, "--point", "2", NULL}, 2,
	       "--point: expected a point of the sweep (0 to 1), got 2\n");
	/* a negative one too (it was the whole sweep) */
	expect((const char *[]){"report", dir, "--point", "-5", NULL}, 2,
	       "--point: expected a point of the sweep (0 to 1), got -5\n");
	/* the least int too (it stood for no --point, and was the whole sweep) */
	expect((const char *[]){"report", dir, "--point", "-2147483648", NULL}, 2,
	       "--point: expected a point of the sweep (0 to 1), got -2147483648\n");
	expect((const char *[]){"report", dir, "--point", "x1", NULL}, 2,
	       "memcgsim: --point: expected a point of the sweep (an integer), got \"x1\"\n");
	/* a directory that is not a sweep's */
	char *file = g_build_filename(top, "file", NULL);
	g_assert_true(g_file_set_contents(file, "x", -1, NULL));
	want = g_strdup_printf("memcgsim: %s: exists and is not a sweep directory\n", top);
	expect((const char *[]){QUICK_ARGS(top), NULL}, 2, want);
	g_free(want);
	want =
	    g_strdup_printf("memcgsim: %s: not a sweep directory (no readable sweep.json)\n", top);
	expect((const char *[]){"merge", "--out", shard, top, NULL}, 2, want);
	g_free(want);
	want = g_strdup_printf("%s: not a sweep directory\n", top);
	expect((const char *[]){"report", top, NULL}, 2, want);
	g_free(want);
	/* a directory that cannot be made */
	char *under = g_build_filename(file, "s", NULL);
	want = g_strdup_printf("memcgsim: --out: %s: its directory %s is a regular file\n", under,
			       file);
	expect((const char *[]){QUICK_ARGS(under), NULL}, 2, want);
	g_free(want);
	g_free(under);
	/* a new directory named with a trailing slash (the README's demo's
	 * "--out demo/") is made like one without */
	char *slash = g_strconcat(top, "/new/", NULL);
	expect((const char *[]){QUICK_ARGS(slash), NULL}, 0, NULL);
	char *made = g_build_filename(top, "new", "result.json", NULL);
	g_assert_true(g_file_test(made, G_FILE_TEST_IS_REGULAR));
	g_free(made);
	g_free(slash);
	/* a run found twice that differs (each sound: one has a newline more) */
	char *other = g_build_filename(top, "other", NULL);
	char *merged = g_build_filename(top, "m", NULL);
	expect((const char *[]){QUICK_ARGS(other), NULL}, 0, NULL);
	char *run = g_build_filename(other, "runs", "p0000-v00-r000.json", NULL);
	char *text = mcs_slurp(run);
	char *longer = g_strconcat(text, "\n", NULL);
	g_assert_true(g_file_set_contents(run, longer, -1, NULL));
	g_free(longer);
	g_free(text);
	want = g_strdup_printf("memcgsim: %s: differs from %s/runs/p0000-v00-r000.json\n", run,
			       merged);
	expect((const char *[]){"merge", "--out", merged, dir, other, NULL}, 1, want);
	g_free(want);
	g_free(run);
	/* a run that reports a failure: the result is written, the status is 1 */
	char *viol = g_build_filename(top, "viol", NULL);
	want = g_strdup_printf("memcgsim: %s: all 2 runs done; result in %s/result.json\n"
			       "memcgsim: a run of the sweep reported a failure\n",
			       viol, viol);
	expect((const char *[]){"sweep", MCS_SOURCE_DIR "/scenarios/sweeps/list_lru_cgroups.json",
				"--set", "stop.limit_ns=1000000", "--param",
				"memcg.cgroups.0.count,workloads.0.count=1", "--replicas", "1",
				"-j2", "--out", viol, NULL},
	       1, want);
	g_free(want);
	g_free(viol);
	g_free(other);
	g_free(merged);
	g_free(file);
	g_free(shard);
	g_free(dir);
	mcs_rm_tree(top);
	g_free(top);
}

/* A plan (sweep.json) of @np points of @nv variants, each with @replicas
 * replicas and (the last variant only) @draws cost draws, seed 7. */
static json_t *plan_of(size_t np, size_t nv, int replicas, int draws)
{
	json_t *points = json_array(), *variants = json_array(), *point_runs = json_array();
	for (size_t v = 0; v < nv; v++)
		json_array_append_new(variants, json_pack("{s:s}", "name", "v"));
	size_t runs = 0;
	for (size_t p = 0; p < np; p++) {
		json_array_append_new(points, json_string("x"));
		json_t *at = json_array();
		for (size_t v = 0; v < nv; v++) {
			int d = v == nv - 1 ? draws : 0;
			json_array_append_new(at, runfile_variant_runs(7, replicas, d, 7));
			runs += (size_t)(replicas + d);
		}
		json_array_append_new(point_runs, at);
	}
	return json_pack("{s:o, s:o, s:o, s:I}", "points", points, "variants", variants,
			 "point_runs", point_runs, "runs", (json_int_t)runs);
}

/* Every run's name is its own, at each limit a sweep allows: 20,000
 * points (the fifth digit from 10,000 on), 32 variants, 100 replicas,
 * 10,000 cost draws; and the seeds are the scenario's. */
static void test_names_at_limits(void)
{
	static const struct {
		size_t np, nv;
		int replicas, draws;
		guint at[3];
		const char *name[3];
	} cases[] = {
	    {SWEEP_MAX_RUNS,
	     1,
	     1,
	     0,
	     {9999, 10000, SWEEP_MAX_RUNS - 1},
	     {"p9999-v00-r000", "p10000-v00-r000", "p19999-v00-r000"}},
	    {1,
	     SCENARIO_MAX_VARIANTS,
	     SCENARIO_MAX_REPLICAS,
	     SCENARIO_MAX_DRAWS,
	     {99, 3199, 3200 + SCENARIO_MAX_DRAWS - 1},
	     {"p0000-v00-r099", "p0000-v31-r099", "p0000-v31-d9999"}},
	};
	for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
		json_t *m = plan_of(cases[c].np, cases[c].nv, cases[c].replicas, cases[c].draws);
		GArray *runs = runfile_runs(m);
		g_assert_nonnull(runs);
		g_assert_cmpuint(runs->len, ==, json_integer_value(json_object_get(m, "runs")));
		GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
		for (guint i = 0; i < runs->len; i++) {
			const struct runfile_run *r = &g_array_index(runs, struct runfile_run, i);
			g_assert_true(g_hash_table_add(seen, r->name));
			g_assert_cmpuint(r->seed, ==,
					 r->drawn ? scenario_draw_seed(7, r->index)
						  : scenario_replica_seed(7, r->index));
		}
		for (size_t k = 0; k < 3; k++)
			g_assert_cmpstr(
			    g_array_index(runs, struct runfile_run, cases[c].at[k]).name, ==,
			    cases[c].name[k]);
		g_hash_table_destroy(seen);
		runfile_runs_free(runs);
		json_decref(m);
	}
	/* a plan past the limit, or whose count disagrees, lists no runs */
	json_t *m = plan_of(SWEEP_MAX_RUNS + 1, 1, 1, 0);
	g_assert_null(runfile_runs(m));
	json_decref(m);
	m = plan_of(3, 1, 1, 0);
	json_object_set_new(m, "runs", json_integer(4));
	g_assert_null(runfile_runs(m));
	json_decref(m);
}

/* 73 x 137 = 10,001 points, one run each. */
#define BIG_ARGS(file, dir)                                                                        \
	"sweep", file, "--param", "workloads.0.hold_ns=lin:1:73:73", "--param",                    \
	    "workloads.0.think_ns=lin:100:236:137", "--replicas", "1", "-q", "-j2", "--out", dir
#define BIG_RUNS 10001
/* What a sweep of @points points of one run each may take at most, from
 * docs/results.md ("Inputs"): 64 MiB, and 8 KiB a point for its plan (5 KB
 * measured for this scenario) and the run file it reads at a time. */
#define SWEEP_RSS_BOUND(points) ((size_t)64 << 20) + (size_t)(points)*8192

/* Runs from point 10,000 on are counted: the shard that runs only the last
 * one has 1 run done; with the other 10,000 run files made from it, --resume
 * runs nothing and writes the result, and so does a merge. (Before, the
 * names were read back with 4 digits: 0 runs done, then 10,000 of 10,001,
 * exit 0, for ever.) */
static void test_past_10000_points(void)
{
	char *top = g_dir_make_tmp("memcgsim-sweep-XXXXXX", NULL);
	char *file = mcs_tiny_scenario(top);
	char *dir = g_build_filename(top, "big", NULL);
	char *want = g_strdup_printf("memcgsim: %s: 1 of %d runs done; resume the sweep, or merge "
				     "its shards, for the result\n",
				     dir, BIG_RUNS);
	expect((const char *[]){BIG_ARGS(file, dir), "--shard", "10001/10001", NULL}, 0, want);
	g_free(want);
	char *last = g_build_filename(dir, "runs", "p10000-v00-r000.json", NULL);
	char *text = mcs_slurp(last);
	g_assert_nonnull(text);
	char *tail = strstr(text, "\"point\":");
	g_assert_nonnull(tail);
	for (guint p = 0; p < BIG_RUNS - 1; p++) {
		char *name = runfile_name(p, 0, false, 0);
		char *path = g_strdup_printf("%s/runs/%s.json", dir, name);
		char *run =
		    g_strdup_printf("%.*s\"run_name\":\"%s\",%s",
				    (int)(strstr(text, "\"run_name\"") - text), text, name, tail);
		g_assert_true(g_file_set_contents(path, run, -1, NULL));
		g_free(run);
		g_free(path);
		g_free(name);
	}
	want = g_strdup_printf("memcgsim: %s: all %d runs done; result in %s/result.json\n", dir,
			       BIG_RUNS, dir);
	/* the plan keeps each point's runs alone, and the result is written a
	 * point at a time (before: 1 GB here, the whole sweep in memory) */
	size_t rss;
	char *err;
	g_assert_cmpint(
	    mcs_cli_rss((const char *[]){BIG_ARGS(file, dir), "--resume", NULL}, &err, &rss), ==,
	    0);
	g_assert_cmpstr(err, ==, want);
	g_free(err);
	g_test_message("--resume of %d points: peak %zu bytes", BIG_RUNS, rss);
	if (MCS_RSS_CHECKED)
		g_assert_cmpuint(rss, <, SWEEP_RSS_BOUND(BIG_RUNS));
	g_free(want);
	char *merged = g_build_filename(top, "merged", NULL);
	want = g_strdup_printf("memcgsim: %s: all %d runs done; result in %s/result.json\n", merged,
			       BIG_RUNS, merged);
	expect((const char *[]){"merge", "--out", merged, dir, NULL}, 0, want);
	g_free(want);
	g_free(merged);
	g_free(text);
	g_free(last);
	g_free(dir);
	g_free(file);
	mcs_rm_tree(top);
	g_free(top);
}

/* Replace every "\"seed\":1," in @text by "\"seed\":5," and the first
 * metric's value by 0: a run file edited to stay consistent in itself. */
static char *reseeded(const char *text)
{
	char **parts = g_strsplit(text, "\"seed\":1,", -1);
	char *s = g_strjoinv("\"seed\":5,", parts);
	g_strfreev(parts);
	char *m = strstr(s, "\"metrics\":{\"");
	g_assert_nonnull(m);
	char *colon = strchr(m + strlen("\"metrics\":{\""), ':');
	char *end = colon + 1 + strcspn(colon + 1, ",}");
	char *r = g_strdup_printf("%.*s0%s", (int)(colon + 1 - s), s, end);
	g_free(s);
	return r;
}

/* merge checks every run file as --resume does and writes a result or
 * fails: a shard missing, a run file of a shard with its seed (and a
 * metric) edited, truncated, or with a member of its result of the wrong
 * type or out of range (result_damage): exit 2 and nothing written. (Before, each
 * exited 0: the first two without a result, the edited seed into it.) */
static void test_merge_checked(void)
{
	char *top = g_dir_make_tmp("memcgsim-sweep-XXXXXX", NULL);
	char *s1 = g_build_filename(top, "s1", NULL), *s2 = g_build_filename(top, "s2", NULL);
	char *m = g_build_filename(top, "m", NULL);
	expect((const char *[]){QUICK_ARGS(s1), "--shard", "1/2", NULL}, 0, NULL);
	expect((const char *[]){QUICK_ARGS(s2), "--shard", "2/2", NULL}, 0, NULL);
	expect(
	    (const char *[]){"merge", "--out", m, s1, NULL}, 2,
	    "memcgsim: merge: 2 of the sweep's 4 runs are in none of the directories (the first: "
	    "p0000-v01-r000); give every shard, and resume any that did not finish\n");
	g_assert_false(g_file_test(m, G_FILE_TEST_EXISTS));
	char *run = g_build_filename(s2, "runs", "p0000-v01-r000.json", NULL);
	char *good = mcs_slurp(run);
	char *edited = reseeded(good);
	char *truncated = g_strndup(good, strlen(good) / 2);
	const struct {
		const char *text, *why;
	} cases[] = {
	    {edited, "seed: expected 1"},
	    {truncated, "not JSON: 1:"},
	};
	for (size_t i = 0; i < G_N_ELEMENTS(cases) + G_N_ELEMENTS(result_damage); i++) {
		size_t d = i - G_N_ELEMENTS(cases);
		char *damaged = i < G_N_ELEMENTS(cases) ? NULL
							: edited_result(good, result_damage[d].path,
									result_damage[d].value);
		g_assert_true(
		    g_file_set_contents(run, damaged ? damaged : cases[i].text, -1, NULL));
		char *out, *err;
		g_assert_cmpint(
		    mcs_cli((const char *[]){"merge", "--out", m, s1, s2, NULL}, &out, &err), ==,
		    2);
		char *want = g_strdup_printf("memcgsim: %s: damaged (%s%s", run,
					     damaged ? result_damage[d].why : cases[i].why,
					     damaged ? ")" : "");
		g_assert_true(g_str_has_prefix(err, want));
		g_assert_true(
		    g_str_has_suffix(err, "); resume its sweep (--resume) to run it again\n"));
		g_assert_false(g_file_test(m, G_FILE_TEST_EXISTS));
		g_free(want);
		g_free(out);
		g_free(err);
		g_free(damaged);
	}
	g_assert_true(g_file_set_contents(run, good, -1, NULL));
	char *want =
	    g_strdup_printf("memcgsim: %s: all 4 runs done; result in %s/result.json\n", m, m);
	expect((const char *[]){"merge", "--out", m, s1, s2, NULL}, 0, want);
	g_free(want);
	g_free(run);
	g_free(good);
	g_free(edited);
	g_free(truncated);
	g_free(m);
	g_free(s1);
	g_free(s2);
	mcs_rm_tree(top);
	g_free(top);
}

/* The "model" member of the JSON file @path ("" when it has none). */
static char *model_in(const char *path)
{
	json_error_t je;
	json_t *doc = json_load_file(path, 0, &je);
	g_assert_nonnull(doc);
	const char *m = json_string_value(json_object_get(doc, "model"));
	char *copy = g_strdup(m ? m : "");
	json_decref(doc);
	return copy;
}

/* Run @args as the build of model @model (MEMCGSIM_TEST_MODEL). */
static void expect_as(const char *model, const char *const *args, int status, const char *want)
{
	g_setenv("MEMCGSIM_TEST_MODEL", model, TRUE);
	expect(args, status, want);
	g_unsetenv("MEMCGSIM_TEST_MODEL");
}

/* Two builds in one sweep (issue 20, item 4): shards of model-a and
 * model-b are not merged, a sweep model-a began is not resumed by model-b
 * (exit 2, naming both, nothing written), unless --mix-builds, whose result
 * names both; the plan, every run file and the result record the model.
 * (Before, neither recorded one, and the mix went into the result.) */
static void test_model_mix(void)
{
	char *top = g_dir_make_tmp("memcgsim-sweep-XXXXXX", NULL);
	char *s1 = g_build_filename(top, "s1", NULL), *s2 = g_build_filename(top, "s2", NULL);
	char *m = g_build_filename(top, "m", NULL);
	expect_as("model-a", (const char *[]){QUICK_ARGS(s1), "--shard", "1/2", NULL}, 0, NULL);
	expect_as("model-b", (const char *[]){QUICK_ARGS(s2), "--shard", "2/2", NULL}, 0, NULL);
	const char *tail = "; runs of two builds do not make one result (use one build, or accept "
			   "the mix with --mix-builds)\n";
	char *want = g_strdup_printf("memcgsim: %s/sweep.json: made by model model-b, but "
				     "%s/sweep.json by model model-a%s",
				     s2, s1, tail);
	expect_as("model-c", (const char *[]){"merge", "--out", m, s1, s2, NULL}, 2, want);
	g_free(want);
	g_assert_false(g_file_test(m, G_FILE_TEST_EXISTS));
	/* a run file of another model in a shard of model-a, plan alike */
	char *a_run = g_build_filename(s1, "runs", "p0000-v00-r000.json", NULL);
	char *b_run = g_build_filename(s2, "runs", "p0000-v01-r000.json", NULL);
	char *b_file = g_build_filename(s1, "runs", "p0000-v01-r000.json", NULL);
	char *b_text = mcs_slurp(b_run);
	g_assert_true(g_file_set_contents(b_file, b_text, -1, NULL));
	want =
	    g_strdup_printf("memcgsim: %s: made by model model-b, but %s/sweep.json by model "
			    "model-a%smemcgsim: %s: 3 of 4 runs done; resume the sweep, or merge "
			    "its shards, for the result\n",
			    b_file, s1, tail, s1);
	expect_as("model-a", (const char *[]){QUICK_ARGS(s1), "--resume", NULL}, 2, want);
	g_free(want);
	g_assert_true(g_unlink(b_file) == 0);
	/* model-b resuming model-a's sweep */
	want = g_strdup_printf("memcgsim: %s/sweep.json: made by model model-a, but this build is "
			       "model model-b; runs of two builds do not make one result (use the "
			       "build that made it, or accept the mix with --mix-builds)\n",
			       s1);
	expect_as("model-b", (const char *[]){QUICK_ARGS(s1), "--resume", NULL}, 2, want);
	g_free(want);
	char *result = g_build_filename(s1, "result.json", NULL);
	g_assert_false(g_file_test(result, G_FILE_TEST_EXISTS));
	char *got = model_in(a_run);
	g_assert_cmpstr(got, ==, "model-a");
	g_free(got);
	/* accepted: the result names both */
	expect_as("model-c", (const char *[]){"merge", "--out", m, s1, s2, "--mix-builds", NULL}, 0,
		  NULL);
	char *mresult = g_build_filename(m, "result.json", NULL);
	got = model_in(mresult);
	g_assert_cmpstr(got, ==, "model-a + model-b");
	g_free(got);
	expect_as("model-b", (const char *[]){QUICK_ARGS(s1), "--resume", "--mix-builds", NULL}, 0,
		  NULL);
	got = model_in(result);
	g_assert_cmpstr(got, ==, "model-a + model-b");
	g_free(got);
	/* one model: the result names it */
	expect_as("model-b", (const char *[]){QUICK_ARGS(s2), "--resume", NULL}, 0, NULL);
	char *s2result = g_build_filename(s2, "result.json", NULL);
	got = model_in(s2result);
	g_assert_cmpstr(got, ==, "model-b");
	g_free(got);
	g_free(s2result);
	g_free(mresult);
	g_free(result);
	g_free(b_text);
	g_free(a_run);
	g_free(b_run);
	g_free(b_file);
	g_free(m);
	g_free(s1);
	g_free(s2);
	mcs_rm_tree(top);
	g_free(top);
}

/* What a killed merge leaves behind (the temporaries of the files it writes
 * atomically, NAME.json.XXXXXX) is gone after the next one. */
static void test_merge_temporaries(void)
{
	char *top = g_dir_make_tmp("memcgsim-sweep-XXXXXX", NULL);
	char *s = g_build_filename(top, "s", NULL), *m = g_build_filename(top, "m", NULL);
	expect((const char *[]){QUICK_ARGS(s), NULL}, 0, NULL);
	expect((const char *[]){"merge", "--out", m, s, NULL}, 0, NULL);
	char *left[] = {g_build_filename(m, "runs", "p0001-v00-r000.json.AbC123", NULL),
			g_build_filename(m, "result.json.Xyz789", NULL)};
	for (size_t i = 0; i < G_N_ELEMENTS(left); i++)
		g_assert_true(g_file_set_contents(left[i], "{\"plan\":", -1, NULL));
	char *want =
	    g_strdup_printf("memcgsim: %s: all 4 runs done; result in %s/result.json\n", m, m);
	expect((const char *[]){"merge", "--out", m, s, NULL}, 0, want);
	for (size_t i = 0; i < G_N_ELEMENTS(left); i++) {
		g_assert_false(g_file_test(left[i], G_FILE_TEST_EXISTS));
		g_free(left[i]);
	}
	g_free(want);
	g_free(m);
	g_free(s);
	mcs_rm_tree(top);
	g_free(top);
}

/* A log range's values in a hand-edited result are numbers > 0, in the
 * parameter and at each point; else the report (and its plots) stop with
 * the place, exit 2. (Before, gnuplot's own error, for the plots.) */
static void test_log_axis_values(void)
{
	char *top = g_dir_make_tmp("memcgsim-sweep-XXXXXX", NULL);
	char *file = mcs_tiny_scenario(top);
	char *dir = g_build_filename(top, "s", NULL), *plots = g_build_filename(top, "plots", NULL);
	expect((const char *[]){"sweep", file, "--param", "workloads.0.hold_ns=log:1:4:3", "-q",
				"-j2", "--out", dir, NULL},
	       0, NULL);
	char *path = g_build_filename(dir, "result.json", NULL);
	json_t *good = json_load_file(path, 0, NULL);
	g_assert_nonnull(good);
	const struct {
		const char *at, *why;
	} cases[] = {
	    {"points.1.values.0", "points.1.values.0: expected a number > 0 (params.0 is a log "
				  "range)\n"},
	    {"params.0.values.2", "params.0.values.2: expected a number > 0 (params.0 is a log "
				  "range)\n"},
	};
	char *bad = g_build_filename(top, "bad.json", NULL);
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		json_t *doc = json_deep_copy(good);
		json_t *values =
		    i == 0 ? json_object_get(json_array_get(json_object_get(doc, "points"), 1),
					     "values")
			   : json_object_get(json_array_get(json_object_get(doc, "params"), 0),
					     "values");
		json_array_set_new(values, i == 0 ? 0 : 2, json_integer(i == 0 ? -2 : 0));
		g_assert_cmpint(json_dump_file(doc, bad, JSON_INDENT(1)), ==, 0);
		json_decref(doc);
		char *out, *err;
		g_assert_cmpint(
		    mcs_cli((const char *[]){"report", bad, "--plots", plots, NULL}, &out, &err),
		    ==, 2);
		g_assert_true(g_str_has_prefix(err, bad)); /* FILE:LINE:COL: PATH: ... */
		int line, col, used = 0;
		g_assert_cmpint(sscanf(err + strlen(bad), ":%d:%d: %n", &line, &col, &used), ==, 2);
		g_assert_cmpint(line, >, 1);
		g_assert_cmpstr(err + strlen(bad) + used, ==, cases[i].why);
		g_free(out);
		g_free(err);
	}
	json_decref(good);
	expect((const char *[]){"report", dir, "--plots", plots, NULL}, 0, NULL);
	g_free(bad);
	g_free(path);
	g_free(plots);
	g_free(dir);
	g_free(file);
	mcs_rm_tree(top);
	g_free(top);
}

/* A sweep says what its points' scenarios warn about, before it runs: each
 * text once, with the first point and how many more; a swept value as the
 * --param it is; at most 5, then how many more (issue 23, item 5). */
static void test_warnings(void)
{
	char *top = g_dir_make_tmp("memcgsim-sweep-XXXXXX", NULL);
	char *dir = g_build_filename(top, "s", NULL), *many = g_build_filename(top, "m", NULL);
	char *out, *err;
	g_assert_cmpint(
	    mcs_cli((const char *[]){"sweep", SCEN, "--param", "memcg.list_lru_scope=node,memcg",
				     "--set", "stop.duration_ns=20000", "--set",
				     "workloads.0.lock_scope=global", "--replicas", "1", "--out",
				     dir, "-q", NULL},
		    &out, &err),
	    ==, 0);
	char *want = g_strdup_printf(
	    "memcgsim: warning: --param memcg.list_lru_scope sets a key no workload reads: none "
	    "puts objects on a list_lru (fileread would; memhog, pagefault_loop would with "
	    "memcg.swap) (at sweep point 0: list_lru_scope=node, and 1 more)\n"
	    "memcgsim: warning: --set workloads.0.lock_scope=global overrides variant "
	    "\"per-node\"'s workloads.0.lock_scope = \"node\": its runs keep the variant's name "
	    "(at sweep point 0: list_lru_scope=node, and 1 more)\n"
	    "memcgsim: %s: all 4 runs done; result in %s/result.json\n",
	    dir, dir);
	g_assert_cmpstr(err, ==, want);
	g_free(want);
	g_free(out);
	g_free(err);
	/* 12 points, an idle-cgroup warning each, all different */
	g_assert_cmpint(
	    mcs_cli((const char *[]){"sweep", MCS_SOURCE_DIR "/scenarios/seeds/list_lru_swap.json",
				     "--param", "workloads.0.count=lin:1:12:12", "--set",
				     "workloads.0.size_mb=1", "--replicas", "1", "--out", many,
				     "-q", NULL},
		    &out, &err),
	    ==, 0);
	char **lines = g_strsplit(err, "\n", -1);
	g_assert_cmpuint(g_strv_length(lines), ==, 8); /* 5, "... more", the status, "" */
	g_assert_cmpstr(
	    lines[0], ==,
	    "memcgsim: warning: memcg.cgroups.0 (\"job%d\"): 63 of its 64 cgroups have "
	    "no task and no pages in any variant (job1, job2, job3, ...) (at sweep point "
	    "0: count=1)");
	g_assert_cmpstr(
	    lines[4], ==,
	    "memcgsim: warning: memcg.cgroups.0 (\"job%d\"): 59 of its 64 cgroups have "
	    "no task and no pages in any variant (job5, job6, job7, ...) (at sweep point "
	    "4: count=5)");
	g_assert_cmpstr(lines[5], ==, "memcgsim: warning: ... and 7 more warnings at other points");
	g_strfreev(lines);
	g_free(out);
	g_free(err);
	mcs_rm_tree(top);
	g_free(dir);
	g_free(many);
	g_free(top);
}

/* docs/results.md's list of the members checked is what the declaration
 * the checker walks prints (result_format.c). */
static void test_format_doc(void)
{
	char *text = NULL;
	g_assert_true(g_file_get_contents(MCS_SOURCE_DIR "/docs/results.md", &text, NULL, NULL));
	const char *begin = strstr(text, "<!-- result-format: begin -->\n```\n");
	const char *end = begin ? strstr(begin, "```\n<!-- result-format: end -->") : NULL;
	g_assert_nonnull(end);
	begin += strlen("<!-- result-format: begin -->\n```\n");
	GString *want = g_string_new(NULL);
	result_format_doc(want);
	char *got = g_strndup(begin, (gsize)(end - begin));
	g_assert_cmpstr(got, ==, want->str);
	g_free(got);
	g_string_free(want, TRUE);
	g_free(text);
}

static void declared_keys(const struct result_shape *s, GHashTable *seen, GPtrArray *done)
{
	if (g_ptr_array_find(done, s, NULL))
		return;
	g_ptr_array_add(done, (gpointer)s);
	for (const struct result_key *k = s->keys; k->key; k++) {
		g_hash_table_add(seen, (gpointer)k->key);
		if (k->of)
			declared_keys(k->of, seen, done);
	}
}

/* Every member result_keys.h names is one the shapes declare, so that the
 * checker and docs/results.md know each member the writers and readers
 * name; but "format", which the readers check before the shapes (an older
 * or newer format is refused with the one expected). */
static void test_format_keys(void)
{
	GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
	GPtrArray *done = g_ptr_array_new();
	declared_keys(&result_shape_result, seen, done);
	declared_keys(&result_shape_sweep, seen, done);
#define CHECK(name)                                                                                \
	if (strcmp(#name, "format") != 0)                                                          \
		g_assert_true(g_hash_table_contains(seen, RK_##name));
	RESULT_KEYS(CHECK)
#undef CHECK
	g_assert_false(g_hash_table_contains(seen, RK_format));
	g_ptr_array_free(done, TRUE);
	g_hash_table_destroy(seen);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sweep/grid/values", test_values);
	g_test_add_func("/sweep/grid/errors", test_errors);
	g_test_add_func("/sweep/grid/points", test_grid);
	g_test_add_func("/sweep/grid/zip", test_zip);
	g_test_add_func("/sweep/concurrent", test_concurrent_sweeps);
	g_test_add_func("/sweep/damaged-run-files", test_damaged_run_files);
	g_test_add_func("/sweep/cli/errors", test_cli_errors);
	g_test_add_func("/sweep/cli/statuses", test_statuses);
	g_test_add_func("/sweep/cli/warnings", test_warnings);
	g_test_add_func("/sweep/resume/sigkill", test_resume_after_kill);
	g_test_add_func("/sweep/shard/merge", test_shard_merge);
	g_test_add_func("/sweep/names/limits", test_names_at_limits);
	g_test_add_func("/sweep/names/past-10000-points", test_past_10000_points);
	g_test_add_func("/sweep/merge/checked", test_merge_checked);
	g_test_add_func("/sweep/merge/temporaries", test_merge_temporaries);
	g_test_add_func("/sweep/model/mix", test_model_mix);
	g_test_add_func("/sweep/report/log-axis-values", test_log_axis_values);
	g_test_add_func("/result/format/doc", test_format_doc);
	g_test_add_func("/result/format/keys", test_format_keys);
	return g_test_run();
}

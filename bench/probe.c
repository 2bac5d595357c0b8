// SPDX-License-Identifier: GPL-2.0-or-later
/* memcgsim-probe: this machine's contended lines, measured, as measurement
 * files that `memcgsim calibrate` fits a preset's contention parameters to
 * (data/contention/README.md, "memcgsim-measurement-1").
 *
 * Two curves, for T = 1 .. N threads, thread i pinned to CPU i, every
 * thread waiting for a start flag and then making OPS operations, the T
 * threads' operations over the wall time from the flag to the last
 * thread's end; the median of RUNS runs is the point:
 *  - probe-atomic-counter.json: increments of one shared counter
 *    (__atomic_fetch_add, relaxed: a lock xadd on x86), its model block
 *    scenarios/validation/atomic_counter.json;
 *  - probe-lock-handover.json: acquisitions of one ticket lock whose
 *    critical section stores to K shared lines of its own (--lines, default
 *    1), nothing outside it, its model block
 *    scenarios/validation/lock_handover.json's ticket variant with K data
 *    lines and no hold time besides.
 * Each with the preset given, and a fit file for each (fit-probe.json: the
 * counter's line_pileup_ns; fit-probe-lock.json: the hand-over's
 * line_queue_llc_ns). And one line passed between CPU 0 and a CPU of each
 * distance class (probe-line-pairs.json, probe_pairs.h), and those
 * transfers as a machine file (machine-probe-pairs.json: the classes'
 * line_<class>_ns on the preset, for memcgsim run --machine). The numbers
 * are this machine's; only the files' form and their pipeline are tested. */
#define _GNU_SOURCE
#include "probe_pairs.h"
#include "probe_util.h"
#include <errno.h>
#include <glib.h>
#include <jansson.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_THREADS 256
#define MAX_LINES 64

struct line {
	long v;
	char pad[64 - sizeof(long)];
};

struct probe {
	int threads;
	long ops;
	int lines; /* the lock's critical section's shared lines */
	atomic_int ready;
	atomic_int go;
	char pad1[64];
	long counter; /* the counter's shared line */
	char pad2[64];
	atomic_uint next; /* the ticket lock: the next ticket ... */
	char pad3[64];
	atomic_uint serving; /* ... and the one served */
	char pad4[64];
	struct line data[MAX_LINES];
};

struct worker {
	struct probe *p;
	int cpu;
	bool pinned;
};

/* A curve's operation, OPS times on each thread. */
static void counter_ops(struct probe *p)
{
	for (long i = 0; i < p->ops; i++)
		__atomic_fetch_add(&p->counter, 1, __ATOMIC_RELAXED);
}

static void lock_ops(struct probe *p)
{
	for (long i = 0; i < p->ops; i++) {
		unsigned t = atomic_fetch_add_explicit(&p->next, 1, memory_order_relaxed);
		while (atomic_load_explicit(&p->serving, memory_order_acquire) != t)
			;
		for (int k = 0; k < p->lines; k++)
			p->data[k].v++;
		atomic_store_explicit(&p->serving, t + 1, memory_order_release);
	}
}

struct curve {
	const char *name, *file; /* the measurement's name, and its file */
	void (*ops)(struct probe *p);
};

static const struct curve *curve_now;

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	w->pinned = probe_pin(w->cpu);
	atomic_fetch_add(&w->p->ready, 1);
	while (!atomic_load_explicit(&w->p->go, memory_order_acquire))
		;
	curve_now->ops(w->p);
	return NULL;
}

/* One run of @threads threads on CPUs 0 .. @threads - 1: total ops a second;
 * -1 when a thread could not start or be pinned. */
static double one_run(int threads, long ops, int lines)
{
	struct probe *p = g_malloc0(sizeof(*p));
	p->threads = threads;
	p->ops = ops;
	p->lines = lines;
	pthread_t tid[MAX_THREADS];
	struct worker w[MAX_THREADS];
	int started = 0;
	for (; started < threads; started++) {
		w[started] = (struct worker){p, started, false};
		if (pthread_create(&tid[started], NULL, worker_main, &w[started]) != 0)
			break;
	}
	while (atomic_load(&p->ready) < started)
		;
	double t0 = probe_now_s();
	atomic_store_explicit(&p->go, 1, memory_order_release);
	bool pinned = true;
	for (int i = 0; i < started; i++) {
		pthread_join(tid[i], NULL);
		pinned &= w[i].pinned;
	}
	double wall = probe_now_s() - t0;
	long done = curve_now->ops == counter_ops ? p->counter : (long)p->serving;
	bool ok = started == threads && pinned && done == (long)threads * ops && wall > 0 &&
		  (!lines || p->data[0].v == (long)threads * ops);
	g_free(p);
	return ok ? (double)threads * (double)ops / wall : -1;
}

/* The curve: a point a thread count, the median of @runs runs. */
static json_t *curve_points(int n, long ops, int runs, int lines)
{
	json_t *points = json_array();
	double *v = g_new(double, (gsize)runs);
	for (int t = 1; t <= n; t++) {
		for (int r = 0; r < runs; r++)
			if ((v[r] = one_run(t, ops, lines)) < 0) {
				g_free(v);
				json_decref(points);
				return NULL;
			}
		qsort(v, (size_t)runs, sizeof(double), probe_cmp_double);
		json_array_append_new(points,
				      json_pack("{s:i, s:f, s:f, s:f}", "x", t, "value",
						v[runs / 2], "min", v[0], "max", v[runs - 1]));
	}
	g_free(v);
	return points;
}

static json_t *measurement(json_t *points, int n, long ops, int runs, const char *scenario,
			   const char *preset)
{
	json_t *xs = json_array();
	for (int t = 2; t <= n; t++) /* one thread: no contention, as the shipped curves */
		json_array_append_new(xs, json_integer(t));
	json_t *doc = probe_doc("probe-atomic-counter", "bench/probe.c", preset, n);
	json_t *rest = json_pack(
	    "{s:o, s:{s:s, s:s}, s:{s:s, s:n, s:s, s:s, s:s, s:n, s:i, s:i, s:s, s:i}, "
	    "s:{s:s, s:s}, s:{s:s, s:s, s:s, s:s}, s:s, s:o}",
	    "model",
	    json_pack("{s:s, s:s, s:{s:s, s:i, s:i, s:i, s:i, s:s, s:s, s:i}, s:s, s:s, s:f, s:o, "
		      "s:s}",
		      "scenario", scenario, "variant", "gambhir", "set", "machine.preset", preset,
		      "machine.nodes", 1, "machine.cpus_per_node", n, "machine.threads_per_core", 1,
		      "machine.cores_per_llc", n, "machine.contention", "transfer",
		      "workloads.0.placement", "cores", "workloads.0.start_ns", 1000, "x",
		      "workloads.0.cpus", "metric", "ops_per_us", "scale", 1e-6, "points", xs,
		      "note", "ops/s to ops/us; 1 thread left out: no contention"),
	    "placement", "kind", "cores-socket-first", "text",
	    "thread i pinned to CPU i (pthread_setaffinity_np)", "benchmark", "kind",
	    "atomic-counter", "lock", "critical_section",
	    "none: __atomic_fetch_add(1, relaxed) on one shared counter", "work_outside",
	    "none: a tight loop of increments", "compiler", "the project's build",
	    "lines_in_critical_section", "shared_lines", 1, "work_outside_ns", 0, "ops_per_thread",
	    "see notes", "runs_per_point", runs, "x", "name", "threads", "text",
	    "T, the number of threads, thread i pinned to CPU i", "measure", "quantity",
	    "ops_per_s_total", "unit", "ops/s", "text",
	    "T x OPS increments over the wall time from the start flag to the last thread's end, "
	    "median of the runs (min and max beside it)",
	    "derived", "ns per operation machine-wide = 1e9 / value (not stored)", "notes", "",
	    "points", points);
	json_object_update(doc, rest);
	json_decref(rest);
	char *notes = g_strdup_printf("OPS = %ld increments a thread; %d runs a point", ops, runs);
	json_object_set_new(doc, "notes", json_string(notes));
	json_object_set_new(json_object_get(doc, "benchmark"), "ops_per_thread", json_integer(ops));
	g_free(notes);
	return doc;
}

/* The hand-over curve's document: the counter's, with the lock's benchmark
 * and model block. */
static json_t *lock_measurement(json_t *points, int n, long ops, int runs, int lines,
				const char *scenario, const char *preset)
{
	json_t *doc = measurement(points, n, ops, runs, scenario, preset);
	json_object_set_new(doc, "name", json_string("probe-lock-handover"));
	char *cs = g_strdup_printf("a store to each of %d shared lines of its own", lines);
	json_t *b = json_object_get(doc, "benchmark");
	json_object_set_new(b, "kind", json_string("lock"));
	json_object_set_new(b, "lock", json_string("ticket"));
	json_object_set_new(b, "implementation",
			    json_string("a ticket lock: fetch_add on next, spin on serving, "
					"store serving + 1 (bench/probe.c)"));
	json_object_set_new(b, "critical_section", json_string(cs));
	json_object_set_new(b, "work_outside", json_string("none: the next acquisition"));
	json_object_set_new(b, "lines_in_critical_section", json_integer(lines));
	json_object_del(b, "shared_lines");
	json_t *m = json_object_get(doc, "model");
	json_object_set_new(m, "variant", json_string("ticket"));
	json_object_set_new(m, "metric", json_string("acquisitions_per_us"));
	json_object_set_new(m, "note",
			    json_string("acquisitions/s to /us; 1 thread left out: "
					"no contention"));
	json_t *set = json_object_get(m, "set");
	json_object_set_new(set, "machine.contention", json_string("queued"));
	json_object_set_new(set, "workloads.0.hold_ns", json_integer(0));
	json_object_set_new(set, "workloads.0.data_lines", json_integer(lines));
	json_object_set_new(
	    json_object_get(doc, "x"), "text",
	    json_string("T, the threads sharing the lock, thread i pinned to CPU i"));
	json_object_set_new(json_object_get(doc, "measure"), "quantity",
			    json_string("acquisitions_per_s"));
	json_object_set_new(json_object_get(doc, "measure"), "unit", json_string("acquisitions/s"));
	json_object_set_new(json_object_get(doc, "measure"), "text",
			    json_string("T x OPS acquisitions over the wall time from the start "
					"flag to the last thread's end, median of the runs (min "
					"and max beside it)"));
	json_object_set_new(json_object_get(doc, "measure"), "derived",
			    json_string("ns per hand-over = 1e9 / value (not stored)"));
	g_free(cs);
	return doc;
}

/* The fit of @param in [@lo, @hi] by @step to curve @curve. */
static json_t *fit(const char *preset, const char *what, const char *param, double lo, double hi,
		   double step, const char *curve)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:f, s:[{s:s, s:f, s:f, s:f}], s:[s]}", "format",
			 "memcgsim-fit-1", "preset", preset, "family", preset, "description", what,
			 "bound", 0.25, "params", "key", param, "lo", lo, "hi", hi, "step", step,
			 "curves", curve);
}

static bool write_doc(const char *dir, const char *file, json_t *doc)
{
	char *path = g_build_filename(dir, file, NULL);
	bool ok = json_dump_file(doc, path, JSON_INDENT(2) | JSON_SORT_KEYS) == 0;
	if (!ok)
		fprintf(stderr, "memcgsim-probe: %s: cannot write: %s\n", path, g_strerror(errno));
	g_free(path);
	json_decref(doc);
	return ok;
}

/* The source tree's scenario @rel, else the installed one beside the
 * executable (share/memcgsim/scenarios). */
static char *default_scenario(const char *rel)
{
	char *src = g_build_filename(MCS_SOURCE_DIR, rel, NULL);
	if (g_file_test(src, G_FILE_TEST_IS_REGULAR))
		return src;
	g_free(src);
	char *exe = g_file_read_link("/proc/self/exe", NULL);
	char *bin = exe ? g_path_get_dirname(exe) : g_strdup(".");
	char *installed = g_build_filename(bin, "..", "share", "memcgsim", rel, NULL);
	g_free(bin);
	g_free(exe);
	return installed;
}

static const struct curve counter_curve = {"probe-atomic-counter", "probe-atomic-counter.json",
					   counter_ops},
			  lock_curve = {"probe-lock-handover", "probe-lock-handover.json",
					lock_ops};

/* Both curves and their fits, and the pairs, into @out. */
static int probe_all(const char *out, int cpus, long ops, int runs, int lines, const char *scenario,
		     const char *preset, const char *sysfs)
{
	curve_now = &counter_curve;
	json_t *counter = curve_points(cpus, ops, runs, 0);
	curve_now = &lock_curve;
	json_t *lock = counter ? curve_points(cpus, ops, runs, lines) : NULL;
	if (!lock) {
		json_decref(counter);
		fprintf(stderr,
			"memcgsim-probe: a thread could not start or be pinned to its CPU\n");
		return 1;
	}
	json_t *pairs = probe_pairs_measure(sysfs, cpus, ops, runs); /* before any is written */
	if (!pairs) {
		json_decref(counter);
		json_decref(lock);
		return 1;
	}
	char *handover = default_scenario("scenarios/validation/lock_handover.json");
	bool ok =
	    write_doc(out, counter_curve.file,
		      measurement(counter, cpus, ops, runs, scenario, preset)) &&
	    write_doc(out, "fit-probe.json",
		      fit(preset,
			  "machine.contention transfer's pile-up fitted to this machine's shared "
			  "counter, as memcgsim-probe measured it",
			  "line_pileup_ns", 0, 1, 0.05, counter_curve.file)) &&
	    write_doc(out, lock_curve.file,
		      lock_measurement(lock, cpus, ops, runs, lines, handover, preset)) &&
	    write_doc(out, "fit-probe-lock.json",
		      fit(preset,
			  "machine.contention queued's service in an LLC fitted to this machine's "
			  "ticket lock hand-over, as memcgsim-probe measured it",
			  "line_queue_llc_ns", 0, 200, 4, lock_curve.file));
	g_free(handover);
	ok = ok && write_doc(out, "probe-line-pairs.json", json_incref(pairs)) &&
	     write_doc(out, "machine-probe-pairs.json", probe_pairs_machine(pairs, preset));
	json_decref(pairs);
	return ok ? 0 : 1;
}

/* --out DIR made if missing, and writable: before anything is measured. */
static bool out_ready(const char *out)
{
	if (g_mkdir_with_parents(out, 0777) == 0 && access(out, W_OK) == 0)
		return true;
	fprintf(stderr, "memcgsim-probe: --out %s: cannot make or write the directory: %s\n", out,
		g_strerror(errno));
	return false;
}

int main(int argc, char **argv)
{
	char *out = NULL, *scenario = NULL, *preset = NULL, *sysfs = NULL;
	int cpus = (int)sysconf(_SC_NPROCESSORS_ONLN), runs = 5, lines = 1;
	gint64 ops = 2000000;
	GOptionEntry entries[] = {
	    {"out", 0, 0, G_OPTION_ARG_FILENAME, &out, "Write the files into DIR", "DIR"},
	    {"cpus", 0, 0, G_OPTION_ARG_INT, &cpus, "Up to N threads (default: the CPUs online)",
	     "N"},
	    {"ops", 0, 0, G_OPTION_ARG_INT64, &ops,
	     "Operations a thread, each curve (default 2000000)", "OPS"},
	    {"runs", 0, 0, G_OPTION_ARG_INT, &runs, "Runs a point, the median kept (default 5)",
	     "R"},
	    {"lines", 0, 0, G_OPTION_ARG_INT, &lines,
	     "Shared lines the lock's critical section stores to (default 1)", "K"},
	    {"scenario", 0, 0, G_OPTION_ARG_FILENAME, &scenario,
	     "The counter's model scenario (default: the source tree's "
	     "scenarios/validation/atomic_counter.json)",
	     "FILE"},
	    {"preset", 0, 0, G_OPTION_ARG_STRING, &preset,
	     "The preset fitted, whose costs the model runs (default milan-2s)", "NAME"},
	    {"sysfs", 0, 0, G_OPTION_ARG_FILENAME, &sysfs,
	     "Where the CPUs' topology is read, DIR/cpu/cpuN/... (default /sys/devices/system)",
	     "DIR"},
	    {NULL}};
	GOptionContext *ctx = g_option_context_new("- measure this machine's contended lines");
	g_option_context_add_main_entries(ctx, entries, NULL);
	GError *err = NULL;
	bool ok = g_option_context_parse(ctx, &argc, &argv, &err);
	g_option_context_free(ctx);
	if (!ok || !out || cpus < 2 || cpus > MAX_THREADS ||
	    cpus > (int)sysconf(_SC_NPROCESSORS_ONLN) || ops < 1 || ops > 1000000000L || runs < 1 ||
	    runs > 101 || lines < 0 || lines > MAX_LINES) {
		fprintf(stderr,
			"memcgsim-probe: %s (--out DIR; --cpus 2 to the CPUs online; --ops 1 to "
			"1e9; --runs 1 to 101; --lines 0 to 64)\n",
			err ? err->message : "bad arguments");
		g_clear_error(&err);
		return 2;
	}
	if (!out_ready(out)) {
		g_free(out);
		g_free(scenario);
		g_free(preset);
		g_free(sysfs);
		return 2;
	}
	if (!scenario)
		scenario = default_scenario("scenarios/validation/atomic_counter.json");
	if (!preset)
		preset = g_strdup("milan-2s");
	if (!sysfs)
		sysfs = g_strdup("/sys/devices/system");
	int rc = probe_all(out, cpus, (long)ops, runs, lines, scenario, preset, sysfs);
	g_free(sysfs);
	g_free(out);
	g_free(scenario);
	g_free(preset);
	return rc;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* One line passed between two CPUs of each distance class (probe_pairs.h). */
#define _GNU_SOURCE
#include "probe_pairs.h"
#include "probe_util.h"
#include <glib.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

static const char *const class_names[PROBE_CLASSES] = {"smt", "llc", "socket", "remote"};
static const char *const class_costs[PROBE_CLASSES] = {"line_smt_ns", "line_llc_ns",
						       "line_socket_ns", "line_remote_ns"};

/* sysfs file @rel of CPU @cpu, stripped; NULL when it cannot be read. */
static char *cpu_file(const char *sysfs, int cpu, const char *rel)
{
	char *path = g_strdup_printf("%s/cpu/cpu%d/%s", sysfs, cpu, rel);
	char *text = NULL;
	if (!g_file_get_contents(path, &text, NULL, NULL))
		text = NULL;
	g_free(path);
	return text ? g_strstrip(text) : NULL;
}

/* Does the CPU list @list ("0-3,8,10-11") hold @cpu? */
static bool list_has(const char *list, int cpu)
{
	char **parts = g_strsplit(list, ",", -1);
	bool has = false;
	for (char **p = parts; *p && !has; p++) {
		char *end;
		long lo = strtol(*p, &end, 10), hi = *end == '-' ? strtol(end + 1, NULL, 10) : lo;
		has = end != *p && cpu >= lo && cpu <= hi;
	}
	g_strfreev(parts);
	return has;
}

/* Does CPU 0's list file @rel hold @k? -1 when it cannot be read. */
static int shares(const char *sysfs, int k, const char *rel)
{
	char *list = cpu_file(sysfs, 0, rel);
	int r = list ? list_has(list, k) : -1;
	g_free(list);
	return r;
}

int probe_pair_class(const char *sysfs, int k)
{
	int smt = shares(sysfs, k, "topology/core_cpus_list");
	if (smt < 0)
		smt = shares(sysfs, k, "topology/thread_siblings_list");
	int llc = shares(sysfs, k, "cache/index3/shared_cpu_list");
	char *p0 = cpu_file(sysfs, 0, "topology/physical_package_id");
	char *pk = cpu_file(sysfs, k, "topology/physical_package_id");
	int cls = smt < 0 || llc < 0 || !p0 || !pk ? -1
		  : smt				   ? PROBE_SMT
		  : llc				   ? PROBE_LLC
		  : g_str_equal(p0, pk)		   ? PROBE_SOCKET
						   : PROBE_REMOTE;
	g_free(p0);
	g_free(pk);
	return cls;
}

struct pingpong {
	atomic_long rounds;
	atomic_int ready, go;
	char pad0[64];
	_Alignas(64) atomic_long line; /* the line passed: 2 i + 1 from CPU 0, 2 i + 2 back */
	char pad1[64];
};

struct side {
	struct pingpong *p;
	int cpu, first; /* first: 1 for CPU 0's side (stores odd values), 0 for the other */
	bool pinned;
};

static void *side_main(void *arg)
{
	struct side *s = arg;
	s->pinned = probe_pin(s->cpu);
	atomic_fetch_add(&s->p->ready, 1);
	while (!atomic_load_explicit(&s->p->go, memory_order_acquire))
		;
	long rounds = atomic_load(&s->p->rounds);
	for (long i = 0; i < rounds; i++) {
		long want = 2 * i + (s->first ? 0 : 1); /* the value before this side's store */
		while (atomic_load_explicit(&s->p->line, memory_order_acquire) != want)
			;
		atomic_store_explicit(&s->p->line, want + 1, memory_order_release);
	}
	return NULL;
}

/* One run between CPU 0 and CPU @k: ns a transfer; -1 when a thread could
 * not start or be pinned. */
static double one_pair(int k, long ops)
{
	struct pingpong *p = g_malloc0(sizeof(*p));
	atomic_store(&p->rounds, ops);
	struct side s[2] = {{p, 0, 1, false}, {p, k, 0, false}};
	pthread_t tid[2];
	int started = 0;
	for (; started < 2; started++)
		if (pthread_create(&tid[started], NULL, side_main, &s[started]) != 0)
			break;
	if (started < 2) /* the one started would wait for ever: let it through */
		atomic_store(&p->rounds, 0);
	while (atomic_load(&p->ready) < started)
		;
	double t0 = probe_now_s();
	atomic_store_explicit(&p->go, 1, memory_order_release);
	for (int i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	double wall = probe_now_s() - t0;
	bool ok = started == 2 && s[0].pinned && s[1].pinned && atomic_load(&p->line) == 2 * ops;
	g_free(p);
	return ok ? wall * 1e9 / (2.0 * (double)ops) : -1;
}

static json_t *pairs_doc(json_t *points, long ops, int runs)
{
	json_t *doc = probe_doc("probe-line-pairs", "bench/probe_pairs.c", "unknown", 0);
	json_t *rest = json_pack(
	    "{s:{s:s, s:s}, s:{s:s, s:n, s:s, s:s, s:n, s:i, s:I, s:i}, s:{s:s, s:s}, "
	    "s:{s:s, s:s, s:s, s:s}, s:s, s:o}",
	    "placement", "kind", "cpu-pairs", "text",
	    "CPU 0 and the first CPU of each distance class from it (sysfs topology), each "
	    "thread pinned (pthread_setaffinity_np)",
	    "benchmark", "kind", "line-ping-pong", "lock", "critical_section",
	    "none: each side waits for the other's value on one shared line, then stores its "
	    "own",
	    "work_outside", "none", "lines_in_critical_section", "work_outside_ns", 0,
	    "round_trips", (json_int_t)ops, "runs_per_point", runs, "x", "name", "distance", "text",
	    "the class of the pair: 1 SMT siblings (line_smt_ns), 2 one LLC (line_llc_ns), 3 one "
	    "socket, another LLC (line_socket_ns), 4 another socket (line_remote_ns)",
	    "measure", "quantity", "ns_per_transfer", "unit", "ns", "text",
	    "the run's wall time over its 2 x OPS transfers of the line, median of the runs "
	    "(min and max beside it)",
	    "derived", "none", "notes",
	    "a store's hand-over of a line held modified by the other CPU: the model's idle "
	    "transfer cost of the class; mctop's idle_cas_latency_cycles are the published "
	    "figures of the same, in cycles",
	    "points", points);
	json_object_update(doc, rest);
	json_decref(rest);
	return doc;
}

json_t *probe_pairs_machine(const json_t *pairs, const char *preset)
{
	json_t *costs = json_object();
	GString *from = g_string_new("memcgsim-probe (bench/probe_pairs.c), probe-line-pairs.json: "
				     "the median ns a transfer of one line between CPU 0 and");
	size_t i;
	json_t *p;
	json_array_foreach (json_object_get(pairs, "points"), i, p) {
		json_object_set(costs, json_string_value(json_object_get(p, "cost")),
				json_object_get(p, "value"));
		g_string_append_printf(
		    from, "%s CPU %d (%s)", i ? "," : "",
		    (int)json_integer_value(json_array_get(json_object_get(p, "cpus"), 1)),
		    json_string_value(json_object_get(p, "class")));
	}
	g_string_append_printf(from, "; the other costs the preset %s's", preset);
	json_t *doc = json_pack("{s:s, s:s, s:s, s:o}", "format", "memcgsim-machine-1", "source",
				from->str, "preset", preset, "costs", costs);
	g_string_free(from, TRUE);
	return doc;
}

json_t *probe_pairs_measure(const char *sysfs, int cpus, long ops, int runs)
{
	int first[PROBE_CLASSES] = {-1, -1, -1, -1};
	for (int k = 1; k < cpus; k++) {
		int c = probe_pair_class(sysfs, k);
		if (c >= 0 && first[c] < 0)
			first[c] = k;
	}
	json_t *points = json_array();
	double *v = g_new(double, (gsize)runs);
	for (int c = 0; c < PROBE_CLASSES; c++) {
		if (first[c] < 0)
			continue;
		for (int r = 0; r < runs; r++)
			if ((v[r] = one_pair(first[c], ops)) < 0) {
				fprintf(stderr,
					"memcgsim-probe: a thread could not start or be pinned to "
					"CPU 0 or %d\n",
					first[c]);
				g_free(v);
				json_decref(points);
				return NULL;
			}
		qsort(v, (size_t)runs, sizeof(double), probe_cmp_double);
		json_array_append_new(points,
				      json_pack("{s:i, s:s, s:s, s:[i, i], s:f, s:f, s:f}", "x",
						c + 1, "class", class_names[c], "cost",
						class_costs[c], "cpus", 0, first[c], "value",
						v[runs / 2], "min", v[0], "max", v[runs - 1]));
	}
	g_free(v);
	if (!json_array_size(points)) {
		fprintf(stderr, "memcgsim-probe: %s/cpu: no CPU's distance from CPU 0 is known\n",
			sysfs);
		json_decref(points);
		return NULL;
	}
	return pairs_doc(points, ops, runs);
}

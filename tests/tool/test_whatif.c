// SPDX-License-Identifier: GPL-2.0-or-later
/* kernel.lock_whatif, every kind on a small lockbench against its hand
 * count (tests/fixtures/lock_whatif.json): 2 CPUs, one a node, each 100
 * iterations of 100 ns thinking and 400 ns holding, every lock and line
 * cost 0 but a locked RMW (20 ns) and rcu_read_lock (5 ns). */
#include "mcs_json.h"
#include "runner.h"
#include "scenario.h"
#include <string.h>

#define FIXTURE MCS_SOURCE_DIR "/tests/fixtures/lock_whatif.json"

struct expect {
	const char *variant;
	double elapsed_ns, spin_ns;
	const char *cls; /* the class the run takes; NULL: none */
	double acquisitions, contentions;
};

/* One variant's run against @e. */
static void check(gconstpointer data)
{
	const struct expect *e = data;
	GError *err = NULL;
	struct scenario *sc = scenario_load_file(FIXTURE, (const char *[]){NULL}, &err);
	g_assert_no_error(err);
	const struct scenario_variant *v = scenario_variant_find(sc, e->variant);
	g_assert_nonnull(v);
	bool violation = true;
	json_t *r = runner_run_one(v->config, 1, &violation, &err);
	g_assert_no_error(err);
	g_assert_false(violation);
	g_assert_cmpfloat_with_epsilon(mcs_json_num(json_object_get(r, "metrics"), "elapsed_ns"),
				       e->elapsed_ns, 1e-6);
	json_t *cpu = json_object_get(r, "cpu_time_ns");
	g_assert_cmpfloat_with_epsilon(mcs_json_num(cpu, "spin"), e->spin_ns, 1e-6);
	g_assert_cmpfloat_with_epsilon(mcs_json_num(cpu, "user"), 2 * 100 * 100.0, 1e-6);
	json_t *locks = json_object_get(r, "locks");
	if (!e->cls) {
		g_assert_cmpuint(json_array_size(locks), ==, 0);
	} else {
		json_t *l = json_array_get(locks, 0);
		g_assert_cmpuint(json_array_size(locks), ==, 1);
		g_assert_cmpstr(json_string_value(json_object_get(l, "class")), ==, e->cls);
		g_assert_cmpfloat(mcs_json_num(l, "acquisitions"), ==, e->acquisitions);
		g_assert_cmpfloat(mcs_json_num(l, "contentions"), ==, e->contentions);
	}
	json_decref(r);
	scenario_free(sc);
}

/* The hand counts. One global lock, both CPUs starting together: the
 * lock is never free once taken (2 x 400 ns held a 500 ns cycle), so the
 * run is the first think and 200 holds back to back, 100 + 200 x 400 ns.
 * Every acquisition but the first waits: the second CPU's first 400 ns
 * (the whole first hold), the other 198 300 ns each (a hold less the
 * think): 199 contentions, 400 + 198 x 300 = 59,800 ns spun. No lock
 * (removed), or one a CPU: each CPU alone, 100 x 500 ns. An atomic:
 * 100 x (500 + 20) ns, and the second CPU's first RMW waits 20 ns for the
 * first's (they arrive together; after that they are 20 ns apart): 52,020
 * ns. RCU readers: 100 x (500 + 5) ns. The per-node lock: 100 x 500 ns;
 * made global: the global lock's 80,100 ns. */
static const struct expect expects[] = {
    {"as-is", 80100, 59800, "&lb->lock", 200, 199},
    {"removed", 50000, 0, NULL, 0, 0},
    {"per-cpu", 50000, 0, "&lb->lock", 200, 0},
    {"atomic", 52020, 0, NULL, 0, 0},
    {"rcu", 50500, 0, NULL, 0, 0},
    {"node", 50000, 0, "&lb->node_lock", 200, 0},
    {"node-global", 80100, 59800, "&lb->node_lock", 200, 199},
};

#define MEMCG_FIXTURE MCS_SOURCE_DIR "/tests/fixtures/lock_whatif_memcg.json"

/* Variant @name of the per-memcg fixture, run. */
static json_t *memcg_run(const struct scenario *sc, const char *name)
{
	GError *err = NULL;
	const struct scenario_variant *v = scenario_variant_find(sc, name);
	g_assert_nonnull(v);
	bool violation = true;
	json_t *r = runner_run_one(v->config, 1, &violation, &err);
	g_assert_no_error(err);
	g_assert_false(violation);
	return r;
}

/* @r's &si->lock row. */
static json_t *si_lock(json_t *r)
{
	size_t i;
	json_t *l;
	json_array_foreach (json_object_get(r, "locks"), i, l)
		if (g_str_equal(json_string_value(json_object_get(l, "class")), "&si->lock"))
			return l;
	g_assert_not_reached();
}

/* A per-memcg scope (tests/fixtures/lock_whatif_memcg.json): two memhogs
 * swapping, each in its own cgroup and on its own CPU, tasks not moved.
 * si->lock made one a memcg is then one a CPU: the two runs the same to
 * the last figure (the time, every CPU-time category, every lock's row);
 * as is, the two tasks contend on it. */
static void test_memcg(void)
{
	GError *err = NULL;
	struct scenario *sc = scenario_load_file(MEMCG_FIXTURE, (const char *[]){NULL}, &err);
	g_assert_no_error(err);
	json_t *as_is = memcg_run(sc, "as-is"), *cpu = memcg_run(sc, "per-cpu"),
	       *memcg = memcg_run(sc, "per-memcg");
	g_assert_true(
	    json_equal(json_object_get(memcg, "metrics"), json_object_get(cpu, "metrics")));
	g_assert_true(
	    json_equal(json_object_get(memcg, "cpu_time_ns"), json_object_get(cpu, "cpu_time_ns")));
	g_assert_true(json_equal(json_object_get(memcg, "locks"), json_object_get(cpu, "locks")));
	g_assert_cmpfloat(mcs_json_num(si_lock(memcg), "contentions"), ==, 0);
	g_assert_cmpfloat(mcs_json_num(si_lock(as_is), "contentions"), >, 0);
	g_assert_cmpfloat(mcs_json_num(si_lock(memcg), "acquisitions"), ==,
			  mcs_json_num(si_lock(as_is), "acquisitions"));
	json_decref(as_is);
	json_decref(cpu);
	json_decref(memcg);
	scenario_free(sc);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	for (size_t i = 0; i < G_N_ELEMENTS(expects); i++) {
		char *path = g_strdup_printf("/whatif/%s", expects[i].variant);
		g_test_add_data_func(path, &expects[i], check);
		g_free(path);
	}
	g_test_add_func("/whatif/memcg", test_memcg);
	return g_test_run();
}

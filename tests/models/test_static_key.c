// SPDX-License-Identifier: GPL-2.0-or-later
/* Static key against plain branch, through the static-key benchmark. */
#include "runner.h"
#include "scenario.h"

#define SCEN MCS_SOURCE_DIR "/scenarios/seeds/static_key_swap.json"

static json_t *run(const char *variant, const char *const *sets)
{
	GError *err = NULL;
	struct scenario *sc = scenario_load_file(SCEN, sets, &err);
	g_assert_no_error(err);
	bool bad = true;
	json_t *r = runner_run_one(scenario_variant_find(sc, variant)->config, 1, &bad, &err);
	g_assert_no_error(err);
	g_assert_false(bad);
	scenario_free(sc);
	return r;
}

static double metric(json_t *r, const char *k)
{
	return json_number_value(json_object_get(json_object_get(r, "metrics"), k));
}

/* No misses, no mispredicts, and the branch's load + test (0.5 + 0.5 cycles)
 * as dear as the patched NOP (1 cycle): the same time, the same cycles. */
static void test_equal_costs(void)
{
	const char *sets[] = {"workloads.0.size_mb=64",
			      "workloads.0.load_cycles=0.5",
			      "workloads.0.test_branch_cycles=0.5",
			      "workloads.0.nop_cycles=1",
			      "workloads.0.miss_prob=0",
			      "workloads.0.mispredict_prob=0",
			      NULL};
	json_t *b = run("branch", sets), *k = run("static-key", sets);
	g_assert_cmpfloat(metric(b, "cycles"), ==, metric(k, "cycles"));
	g_assert_cmpfloat(metric(b, "task_clock_ms"), ==, metric(k, "task_clock_ms"));
	g_assert_cmpfloat(metric(b, "elapsed_ns"), ==, metric(k, "elapsed_ns"));
	g_assert_cmpfloat(metric(b, "branch_misses"), ==, metric(k, "branch_misses"));
	/* the branch variant's checks are branches; the NOPs are not:
	 * 6 checks a page (1 every 32 pages for get_nr_swap_pages) */
	double pages = 64 * 256;
	g_assert_cmpfloat(metric(b, "branches") - metric(k, "branches"), ==,
			  pages * 6 + pages / 32);
	json_decref(b);
	json_decref(k);
}

/* Mispredicts only count for the branch: with probability 1, each check is
 * a miss and costs mispredict_cycles more. */
static void test_mispredicts(void)
{
	const char *sets[] = {"workloads.0.size_mb=16", "workloads.0.mispredict_prob=1", NULL};
	json_t *b = run("branch", sets);
	double pages = 16 * 256, checks = pages * 6 + pages / 32;
	g_assert_cmpfloat(metric(b, "branch_misses"), ==,
			  checks + pages * 6.348915); /* + the fitted misses elsewhere */
	json_decref(b);
}

/* A cold flag: with miss_prob 1 the core's caches have lost the flag's line
 * before every check but the first, and each of those loads waits for the
 * LLC (llc_hit_ns = 30 ns, at 1.796973 GHz); the static key never loads it. */
static void test_cold_flag(void)
{
	const char *warm[] = {"workloads.0.size_mb=16", "machine.costs.llc_hit_ns=30", NULL};
	const char *cold[] = {"workloads.0.size_mb=16", "machine.costs.llc_hit_ns=30",
			      "workloads.0.miss_prob=1", NULL};
	json_t *w = run("branch", warm), *c = run("branch", cold);
	json_t *kw = run("static-key", warm), *kc = run("static-key", cold);
	double pages = 16 * 256, checks = pages * 6 + pages / 32;
	g_assert_cmpfloat_with_epsilon(metric(c, "cycles") - metric(w, "cycles"),
				       (checks - 1) * 30 * 1.796973, 1e-3 * checks);
	g_assert_cmpfloat(metric(kc, "cycles"), ==, metric(kw, "cycles"));
	/* the cache-line report: the flag's line, every check a load, all but
	 * the first from the LLC */
	json_t *line = json_array_get(json_object_get(c, "cachelines"), 0);
	g_assert_cmpstr(json_string_value(json_object_get(line, "class")), ==,
			"cgroup_memory_noswap");
	json_t *load = json_object_get(json_object_get(line, "ops"), "load");
	g_assert_cmpint(json_integer_value(json_object_get(load, "llc_hit")), ==, (long)checks - 1);
	g_assert_cmpint(json_integer_value(json_object_get(load, "hit")), ==, 1);
	json_decref(w);
	json_decref(c);
	json_decref(kw);
	json_decref(kc);
}

/* Flipping the key at 1 ms, batched: the caller pays 1.4 ms; each of the 3
 * other (idle) CPUs takes 3 IPI rounds of 2 us stall. */
static void test_flip_cost(void)
{
	const char *sets[] = {"workloads.0.size_mb=16", "workloads.0.flip_at_ns=1000000", NULL};
	const char *plain[] = {"workloads.0.size_mb=16", NULL};
	json_t *f = run("static-key", sets), *n = run("static-key", plain);
	g_assert_cmpfloat(metric(f, "task_clock_ms") - metric(n, "task_clock_ms"), >=, 1.4 - 1e-6);
	double irq = json_number_value(json_object_get(json_object_get(f, "cpu_time_ns"), "irq"));
	g_assert_cmpfloat(irq, ==, 3 * 3 * 2000.0);
	json_decref(f);
	json_decref(n);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/static_key/equal-costs", test_equal_costs);
	g_test_add_func("/static_key/mispredicts", test_mispredicts);
	g_test_add_func("/static_key/cold-flag", test_cold_flag);
	g_test_add_func("/static_key/flip-cost", test_flip_cost);
	return g_test_run();
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* page_cgroup locking schemes end to end, through the read-fault scenario. */
#include "runner.h"
#include "scenario.h"
#include <string.h>

#define SCEN MCS_SOURCE_DIR "/scenarios/seeds/page_cgroup_fault.json"

static json_t *run(const char *variant, const char *const *sets, bool *violation)
{
	GError *err = NULL;
	struct scenario *sc = scenario_load_file(SCEN, sets, &err);
	g_assert_no_error(err);
	const struct scenario_variant *v = scenario_variant_find(sc, variant);
	json_t *r = runner_run_one(v->config, 1, violation, &err);
	g_assert_no_error(err);
	scenario_free(sc);
	return r;
}

static double pc_stat(json_t *r, const char *k)
{
	return json_number_value(
	    json_object_get(json_object_get(json_object_get(r, "memcg"), "page_cgroup"), k));
}

/* With no move, the rcu scheme never takes the lock. */
static void test_rcu_no_move(void)
{
	const char *sets[] = {"workloads.0.iterations=5", NULL};
	bool bad;
	json_t *r = run("rcu", sets, &bad);
	g_assert_false(bad);
	g_assert_cmpfloat(pc_stat(r, "updates"), ==, 5 * 2560 * 2);
	g_assert_cmpfloat(pc_stat(r, "locked"), ==, 0);
	g_assert_cmpfloat(pc_stat(r, "lockless"), ==, 5 * 2560 * 2);
	json_decref(r);
}

/* A mover on CPU 1 moves the charges back and forth while CPU 0 faults:
 * no update takes the lock outside a move, none skips it while pages move,
 * and the movers wait for grace periods. */
static void test_rcu_with_moves(void)
{
	const char *sets[] = {"memcg.cgroups=[{\"name\":\"bench\"},{\"name\":\"other\"}]",
			      "workloads=[{\"type\":\"readfault\",\"iterations\":20},"
			      "{\"type\":\"movecharge\",\"to\":\"other\",\"pages\":2560,"
			      "\"at_ns\":1000000,\"period_ns\":3000000,\"cycles\":4,\"cpu\":1}]",
			      NULL};
	bool bad;
	json_t *r = run("rcu", sets, &bad);
	g_assert_false(bad);
	g_assert_cmpfloat(pc_stat(r, "moves"), ==, 4);
	g_assert_cmpfloat(pc_stat(r, "pages_moved"), ==, 4 * 2560);
	g_assert_cmpfloat(pc_stat(r, "locked"), >, 0);
	g_assert_cmpfloat(pc_stat(r, "lockless"), >, 0);
	g_assert_cmpfloat(pc_stat(r, "locked_outside_move"), ==, 0);
	g_assert_cmpfloat(pc_stat(r, "lockless_during_move"), ==, 0);
	json_t *gp = json_object_get(json_object_get(r, "rcu"), "grace_periods");
	g_assert_cmpfloat(json_number_value(json_object_get(gp, "count")), ==, 4);
	/* the faulting CPU is in the kernel: its quiescent state waits for a
	 * tick in user mode or a switch; at least some microseconds */
	g_assert_cmpfloat(json_number_value(json_object_get(gp, "mean_ns")), >, 0);
	g_assert_cmpfloat(pc_stat(r, "move_latency_mean_ns"), >=,
			  json_number_value(json_object_get(gp, "mean_ns")));
	json_decref(r);
}

/* plain, one page, a device completing writeback on the faulting CPU 20,000
 * times a second: a handler soon interrupts a fault holding the page's lock
 * and spins on it. The run stops with lockdep's report. */
static void test_plain_irq_deadlock(void)
{
	const char *sets[] = {
	    "memcg.page_cgroup.pages=1", "memcg.page_cgroup.writeback_irq=\"nvme\"",
	    "machine.interrupts=[{\"type\":\"periodic\",\"name\":\"tick\",\"hz\":1000,"
	    "\"handler_ns\":1000},{\"type\":\"poisson\",\"name\":\"nvme\","
	    "\"rate_per_s\":20000,\"handler_ns\":2000,\"cpus\":[0]}]",
	    "workloads.0.iterations=100000", NULL};
	bool bad = false;
	json_t *r = run("plain", sets, &bad);
	g_assert_true(bad); /* exit status 1 */
	json_t *reports = json_object_get(r, "lockdep");
	g_assert_cmpuint(json_array_size(reports), ==, 1);
	char **l = g_strsplit(json_string_value(json_array_get(reports, 0)), "\n", -1);
	g_assert_cmpstr(l[1], ==, "WARNING: inconsistent lock state");
	g_assert_cmpstr(l[3], ==, "inconsistent {HARDIRQ-ON-W} -> {IN-HARDIRQ-W} usage.");
	g_assert_cmpstr(l[4], ==, "readfault.0/cpu0 [HC1[1]:SC0[0]:HE0:SE1] takes:");
	g_assert_cmpstr(l[5], ==, " (&pc->lock), at: test_clear_page_writeback");
	g_assert_cmpstr(l[14], ==, "  lock(&pc->lock);");
	g_assert_cmpstr(l[15], ==, "  <Interrupt>");
	g_assert_cmpstr(l[16], ==, "    lock(&pc->lock);");
	g_assert_cmpstr(l[18], ==, " *** DEADLOCK ***");
	g_assert_true(g_str_has_prefix(l[20], "The simulated run reached it: the interrupt handler "
					      "on cpu0 spins on &pc->lock"));
	g_strfreev(l);
	json_decref(r);
}

/* irqsave and rcu under the same interrupts: safe, nothing to report. */
static void test_irqsafe_schemes(void)
{
	const char *sets[] = {
	    "memcg.page_cgroup.pages=1", "memcg.page_cgroup.writeback_irq=\"nvme\"",
	    "machine.interrupts=[{\"type\":\"periodic\",\"name\":\"tick\",\"hz\":1000,"
	    "\"handler_ns\":1000},{\"type\":\"poisson\",\"name\":\"nvme\","
	    "\"rate_per_s\":20000,\"handler_ns\":2000,\"cpus\":[0]}]",
	    "workloads.0.iterations=20000", NULL};
	static const char *const variants[] = {"irqsave", "rcu"};
	for (size_t i = 0; i < G_N_ELEMENTS(variants); i++) {
		bool bad = true;
		json_t *r = run(variants[i], sets, &bad);
		g_assert_false(bad);
		g_assert_cmpuint(json_array_size(json_object_get(r, "lockdep")), ==, 0);
		json_decref(r);
	}
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/page_cgroup/rcu/no-move-no-lock", test_rcu_no_move);
	g_test_add_func("/page_cgroup/rcu/lock-exactly-during-moves", test_rcu_with_moves);
	g_test_add_func("/page_cgroup/plain/irq-self-deadlock", test_plain_irq_deadlock);
	g_test_add_func("/page_cgroup/irqsave-and-rcu/irq-safe", test_irqsafe_schemes);
	return g_test_run();
}

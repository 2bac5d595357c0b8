/* Helpers shared by the test programs. */
#pragma once
#include <glib.h>

/* Register @body to run in a subprocess of its own: SimGrid allows one
 * simulation per process. */
static void mcs_subprocess_case(gconstpointer body)
{
	if (g_test_subprocess()) {
		((void (*)(void))body)();
		return;
	}
	g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
	g_test_trap_assert_passed();
}

/* A machine of @nodes x @cpus with the cost table's defaults. */
#include "sim_machine.h"
static inline struct sim_machine mcs_test_machine(int nodes, int cpus)
{
	struct sim_machine m = {.nodes = nodes, .cpus_per_node = cpus, .clock_ghz = 2.1,
				.sched_slice = 750 * SIM_US};
	for (int i = 0; i < SIM_COST_N; i++)
		m.cost[i] = sim_from_ns(sim_cost_table[i].default_ns);
	return m;
}

static inline void mcs_test_add_subprocess(const char *path, void (*body)(void))
{
	g_test_add_data_func(path, (gconstpointer)body, mcs_subprocess_case);
}

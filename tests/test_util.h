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

static inline void mcs_test_add_subprocess(const char *path, void (*body)(void))
{
	g_test_add_data_func(path, (gconstpointer)body, mcs_subprocess_case);
}

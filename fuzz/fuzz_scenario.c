// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: the scenario loader must reject or accept any bytes
 * without crashing, leaking or running away. Leading lines "#set PATH=VALUE"
 * (at most 8) carry --set overrides, so that they are fuzzed too; the
 * corpus (scripts/check/fuzz.sh) turns each bad-input case's args into such lines. */
#include "scenario.h"
#include <string.h>

#define MAX_SETS 8

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	const char *text = (const char *)data;
	GPtrArray *sets = g_ptr_array_new_with_free_func(g_free);
	while (sets->len < MAX_SETS && size > 5 && memcmp(text, "#set ", 5) == 0) {
		const char *nl = memchr(text, '\n', size);
		size_t n = nl ? (size_t)(nl - text) : size;
		g_ptr_array_add(sets, g_strndup(text + 5, n - 5));
		size -= nl ? n + 1 : n;
		text += nl ? n + 1 : n;
	}
	g_ptr_array_add(sets, NULL);
	GError *err = NULL;
	struct scenario *sc =
	    scenario_load("fuzz", text, size, (const char *const *)sets->pdata, &err);
	g_assert_true((sc == NULL) == (err != NULL));
	scenario_free(sc);
	g_clear_error(&err);
	g_ptr_array_free(sets, TRUE);
	return 0;
}

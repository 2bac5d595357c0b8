/* libFuzzer target: the scenario loader must reject or accept any bytes
 * without crashing, leaking or running away. The first line may carry
 * --set overrides ("#set PATH=VALUE ..."), so that they are fuzzed too. */
#include "scenario.h"
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	const char *text = (const char *)data;
	char **sets = NULL;
	if (size > 5 && memcmp(text, "#set ", 5) == 0) {
		const char *nl = memchr(text, '\n', size);
		size_t n = nl ? (size_t)(nl - text) : size;
		char *line = g_strndup(text + 5, n - 5);
		sets = g_strsplit(line, " ", 8);
		g_free(line);
		size -= nl ? n + 1 : n;
		text += nl ? n + 1 : n;
	}
	GError *err = NULL;
	struct scenario *sc = scenario_load("fuzz", text, size, (const char *const *)sets, &err);
	g_assert_true((sc == NULL) == (err != NULL));
	scenario_free(sc);
	g_clear_error(&err);
	g_strfreev(sets);
	return 0;
}

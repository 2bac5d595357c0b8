// SPDX-License-Identifier: GPL-2.0-or-later
/* Bad scenario inputs, one case directory each under tests/invalid/:
 * "input" (the scenario bytes, read as the file "input"), optional "args"
 * (--set overrides, one per line) and "error" (the one expected line). */
#include "scenario.h"
#include <glib/gstdio.h>

#define CASES MCS_SOURCE_DIR "/tests/invalid"

static char *read_or_empty(const char *dir, const char *name, gsize *len)
{
	char *path = g_build_filename(dir, name, NULL), *text = NULL;
	if (!g_file_get_contents(path, &text, len, NULL)) {
		text = g_strdup("");
		*len = 0;
	}
	g_free(path);
	return text;
}

static void test_case(gconstpointer data)
{
	const char *dir = data;
	gsize len, alen, elen;
	char *input = read_or_empty(dir, "input", &len);
	char *args = read_or_empty(dir, "args", &alen);
	char *expected = read_or_empty(dir, "error", &elen);
	g_strchomp(args);
	g_strchomp(expected);
	char **sets = *args ? g_strsplit(args, "\n", -1) : g_new0(char *, 1);
	GError *err = NULL;
	struct scenario *sc = scenario_load("input", input, len, (const char *const *)sets, &err);
	g_assert_null(sc);
	g_assert_nonnull(err);
	if (g_getenv("MCS_WRITE_EXPECTED")) { /* to add a case; review what it wrote */
		char *path = g_build_filename(dir, "error", NULL);
		char *line = g_strdup_printf("%s\n", err->message);
		g_file_set_contents(path, line, -1, NULL);
		g_free(line);
		g_free(path);
	} else {
		g_assert_cmpstr(err->message, ==, expected);
	}
	g_error_free(err);
	g_strfreev(sets);
	g_free(input);
	g_free(args);
	g_free(expected);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	GDir *d = g_dir_open(CASES, 0, NULL);
	g_assert_nonnull(d);
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	const char *n;
	while ((n = g_dir_read_name(d)))
		g_ptr_array_add(names, g_strdup(n));
	g_dir_close(d);
	g_ptr_array_sort(names, (GCompareFunc)g_strcmp0);
	GPtrArray *dirs = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < names->len; i++) {
		char *name = *(char **)&names->pdata[i];
		char *path = g_strdup_printf("/scenario/invalid/%s", name);
		char *dir = g_build_filename(CASES, name, NULL);
		g_ptr_array_add(dirs, dir);
		g_test_add_data_func(path, dir, test_case);
		g_free(path);
	}
	g_assert_cmpuint(names->len, >=, 25);
	int rc = g_test_run();
	g_ptr_array_free(dirs, TRUE);
	g_ptr_array_free(names, TRUE);
	return rc;
}

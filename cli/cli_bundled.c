// SPDX-License-Identifier: GPL-2.0-or-later
/* The bundled scenarios: what `memcgsim list` shows (cli_list.c), and a
 * scenario named rather than given by path (`memcgsim run list_lru_swap`).
 * They live in $MEMCGSIM_DATADIR/scenarios when that is set; else in
 * ../share/memcgsim/scenarios from the executable's directory (an installed
 * memcgsim, wherever it was installed, DESTDIR included); else in the
 * source tree the executable was built from. */
#include "cli_util.h"
#include "mcs_file.h"
#include "mcs_named.h"
#include "scenario.h"
#include <jansson.h>
#include <string.h>

#ifndef MCS_SOURCE_SCENARIOS
#define MCS_SOURCE_SCENARIOS ""
#endif

static char *bundled_dir(void)
{
	const char *env = g_getenv("MEMCGSIM_DATADIR");
	if (env)
		return g_build_filename(env, "scenarios", NULL);
	char *exe = g_file_read_link("/proc/self/exe", NULL);
	char *bin = exe ? g_path_get_dirname(exe) : NULL;
	char *rel =
	    bin ? g_build_filename(bin, "..", "share", "memcgsim", "scenarios", NULL) : NULL;
	char *dir = rel ? g_canonicalize_filename(rel, NULL) : NULL;
	g_free(rel);
	g_free(exe);
	g_free(bin);
	if (dir && g_file_test(dir, G_FILE_TEST_IS_DIR))
		return dir;
	g_free(dir);
	return g_strdup(MCS_SOURCE_SCENARIOS);
}

/* The .json files under @dir (one level of subdirectories), sorted. */
static void collect(const char *dir, const char *rel, GPtrArray *out, int depth)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *n;
	while (d && (n = g_dir_read_name(d))) {
		char *path = g_build_filename(dir, n, NULL);
		char *r = *rel ? g_build_filename(rel, n, NULL) : g_strdup(n);
		if (depth < 1 && g_file_test(path, G_FILE_TEST_IS_DIR))
			collect(path, r, out, depth + 1);
		else if (g_str_has_suffix(n, ".json") && g_file_test(path, G_FILE_TEST_IS_REGULAR))
			g_ptr_array_add(out, g_strdup(r));
		g_free(path);
		g_free(r);
	}
	if (d)
		g_dir_close(d);
}

static gint by_string(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A bundled scenario, @rel its file under @dir. */
static struct cli_bundled *bundled_new(const char *dir, const char *rel)
{
	struct cli_bundled *b = g_new(struct cli_bundled, 1);
	b->rel = g_strdup(rel);
	b->path = g_build_filename(dir, rel, NULL);
	b->name = g_path_get_basename(rel); /* without ".json" */
	b->name[strlen(b->name) - 5] = '\0';
	return b;
}

static void bundled_free(gpointer p)
{
	struct cli_bundled *b = p;
	g_free(b->rel);
	g_free(b->path);
	g_free(b->name);
	g_free(b);
}

GPtrArray *cli_bundled_scenarios(char **dir)
{
	*dir = bundled_dir();
	GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
	collect(*dir, "", files, 0);
	g_ptr_array_sort(files, by_string);
	GPtrArray *all = g_ptr_array_new_with_free_func(bundled_free);
	for (guint i = 0; i < files->len; i++)
		g_ptr_array_add(all, bundled_new(*dir, files->pdata[i]));
	g_ptr_array_free(files, TRUE);
	return all;
}

/* A bundled file's "name" and "description" (NULL when unreadable). */
json_t *cli_bundled_header(const char *path)
{
	gsize len;
	char *text = mcs_file_read_input(path, SCENARIO_MAX_BYTES, &len, NULL);
	json_t *doc = text ? json_loadb(text, len, 0, NULL) : NULL;
	g_free(text);
	return doc;
}

char *cli_scenario_path(const char *arg)
{
	if (!arg)
		return NULL;
	if (g_file_test(arg, G_FILE_TEST_EXISTS) || strchr(arg, '/') ||
	    g_str_has_suffix(arg, ".json"))
		return g_strdup(arg);
	char *dir, *found = NULL;
	GPtrArray *all = cli_bundled_scenarios(&dir);
	for (guint i = 0; !found && i < all->len; i++) {
		const struct cli_bundled *b = all->pdata[i];
		json_t *h = g_str_equal(b->name, arg) ? NULL : cli_bundled_header(b->path);
		if (g_str_equal(b->name, arg) ||
		    g_strcmp0(json_string_value(json_object_get(h, "name")), arg) == 0)
			found = g_strdup(b->path);
		json_decref(h);
	}
	g_ptr_array_free(all, TRUE);
	g_free(dir);
	return found;
}

char *cli_bundled_near(const char *arg)
{
	char *dir;
	GPtrArray *all = cli_bundled_scenarios(&dir);
	const char **names = g_new0(const char *, all->len + 1);
	for (guint i = 0; i < all->len; i++)
		names[i] = ((const struct cli_bundled *)all->pdata[i])->name;
	char *near = g_strdup(mcs_near_miss(arg, names));
	g_free(names);
	g_ptr_array_free(all, TRUE);
	g_free(dir);
	return near;
}

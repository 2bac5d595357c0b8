/* The bundled scenarios: `memcgsim list`, and a scenario named rather than
 * given by path (`memcgsim run list_lru_swap`). They live in
 * $MEMCGSIM_DATADIR/scenarios when that is set; else in
 * ../share/memcgsim/scenarios from the executable's directory (an installed
 * memcgsim, wherever it was installed, DESTDIR included); else in the
 * source tree the executable was built from. */
#include "cli_util.h"
#include "mcs_error.h"
#include "mcs_file.h"
#include "report.h"
#include "scenario.h"
#include <glib/gstdio.h>
#include <jansson.h>
#include <stdio.h>
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
	char *rel = bin ? g_build_filename(bin, "..", "share", "memcgsim", "scenarios", NULL) : NULL;
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

/* The bundled scenario files, relative to their directory (*@dir, g_free
 * it), sorted; free with g_ptr_array_free(a, TRUE). */
static GPtrArray *bundled_files(char **dir)
{
	*dir = bundled_dir();
	GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
	collect(*dir, "", files, 0);
	g_ptr_array_sort(files, by_string);
	return files;
}

/* A bundled file's "name" and "description" (NULL when unreadable). */
static json_t *header_of(const char *path)
{
	gsize len;
	char *text = mcs_file_read_input(path, SCENARIO_MAX_BYTES, &len, NULL);
	json_t *doc = text ? json_loadb(text, len, 0, NULL) : NULL;
	g_free(text);
	return doc;
}

/* The name a bundled file goes by: its file name without ".json". */
static char *short_name(const char *rel)
{
	char *base = g_path_get_basename(rel);
	base[strlen(base) - 5] = '\0';
	return base;
}

char *cli_scenario_path(const char *arg)
{
	if (!arg)
		return NULL;
	if (g_file_test(arg, G_FILE_TEST_EXISTS) || strchr(arg, '/') ||
	    g_str_has_suffix(arg, ".json"))
		return g_strdup(arg);
	char *dir, *found = NULL;
	GPtrArray *files = bundled_files(&dir);
	for (guint i = 0; !found && i < files->len; i++) {
		char *path = g_build_filename(dir, files->pdata[i], NULL), *n = short_name(files->pdata[i]);
		json_t *h = g_str_equal(n, arg) ? NULL : header_of(path);
		if (g_str_equal(n, arg) ||
		    g_strcmp0(json_string_value(json_object_get(h, "name")), arg) == 0)
			found = g_strdup(path);
		json_decref(h);
		g_free(path);
		g_free(n);
	}
	g_ptr_array_free(files, TRUE);
	g_free(dir);
	return found;
}

/* memcgsim list: the bundled scenarios, or (list SCENARIO) its variants;
 * --names: the names alone, one a line (for completion). */
static void list_bundled(bool names_only, GString *out)
{
	char *dir;
	GPtrArray *files = bundled_files(&dir);
	if (!names_only)
		g_string_append_printf(out, "Bundled scenarios (%s); run one with memcgsim run NAME:\n",
				       dir);
	for (guint i = 0; i < files->len; i++) {
		char *path = g_build_filename(dir, files->pdata[i], NULL), *n = short_name(files->pdata[i]);
		json_t *h = header_of(path);
		if (names_only)
			g_string_append_printf(out, "%s\n", n);
		else {
			g_string_append_printf(out, "\n%s  (%s)\n", n, (char *)files->pdata[i]);
			report_wrapped(out, json_string_value(json_object_get(h, "description")), 78, 2);
		}
		json_decref(h);
		g_free(path);
		g_free(n);
	}
	g_ptr_array_free(files, TRUE);
	g_free(dir);
}

static bool list_variants(const char *arg, bool names_only, GString *out, GError **err)
{
	char *path = cli_scenario_path(arg);
	struct scenario *sc = scenario_load_file(path ? path : arg, NULL, err);
	g_free(path);
	if (!sc)
		return false;
	for (guint i = 0; i < sc->variants->len; i++) {
		const struct scenario_variant *v = sc->variants->pdata[i];
		if (names_only)
			g_string_append_printf(out, "%s\n", v->name);
		else
			g_string_append_printf(out, "%-20s %s\n", v->name,
					       v->description ? v->description : "");
	}
	scenario_free(sc);
	return true;
}

static int cmd_list(struct cli *c)
{
	GString *out = g_string_new(NULL);
	GError *err = NULL;
	bool ok = true;
	if (c->files && c->files[0])
		ok = list_variants(c->files[0], c->names, out, &err);
	else
		list_bundled(c->names, out);
	if (ok)
		fputs(out->str, stdout);
	g_string_free(out, TRUE);
	return ok ? 0 : cli_error(err, "");
}

static const GOptionEntry list_options[] = {
	CLI_OPT_FILES("[SCENARIO]"),
	{"names", 0, 0, G_OPTION_ARG_NONE, &cli_args.names, "Print the names alone, one a line", NULL},
	{NULL}};

const struct cli_command cli_list_command = {
	.name = "list",
	.synopsis = "[SCENARIO] - list the bundled scenarios, or a scenario's variants",
	.options = list_options,
	.files = CLI_FILES_AT_MOST_ONE,
	.files_what = "scenario",
	.fn = cmd_list,
};

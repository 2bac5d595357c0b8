// SPDX-License-Identifier: GPL-2.0-or-later
/* memcgsim list [SCENARIO]: the bundled scenarios (cli_bundled.c), or a
 * scenario's variants. */
#include "cli_util.h"
#include "report.h"
#include "scenario.h"
#include <stdio.h>

/* list's own options (the others: struct cli). */
static struct {
	gboolean names; /* --names */
} list_args;

/* memcgsim list: the bundled scenarios, or (list SCENARIO) its variants;
 * --names: the names alone, one a line (for completion). */
static void list_bundled(bool names_only, GString *out)
{
	char *dir;
	GPtrArray *all = cli_bundled_scenarios(&dir);
	if (!names_only)
		g_string_append_printf(
		    out, "Bundled scenarios (%s); run one with memcgsim run NAME:\n", dir);
	for (guint i = 0; i < all->len; i++) {
		const struct cli_bundled *b = all->pdata[i];
		if (names_only) {
			g_string_append_printf(out, "%s\n", b->name);
			continue;
		}
		json_t *h = cli_bundled_header(b->path);
		g_string_append_printf(out, "\n%s  (%s)\n", b->name, b->rel);
		report_wrapped(out, json_string_value(json_object_get(h, "description")), 78, 2);
		json_decref(h);
	}
	g_ptr_array_free(all, TRUE);
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
	for (char **d = sc->default_variants; !names_only && d && *d; d++)
		g_string_append_printf(out, "%s%s%s",
				       d == sc->default_variants ? "\nA run without --variant runs "
								 : ", ",
				       *d, d[1] ? "" : "; --variant all runs every one.\n");
	scenario_free(sc);
	return true;
}

static int cmd_list(struct cli *c)
{
	GString *out = g_string_new(NULL);
	GError *err = NULL;
	bool ok = true;
	if (c->files && c->files[0])
		ok = list_variants(c->files[0], list_args.names, out, &err);
	else
		list_bundled(list_args.names, out);
	if (!ok) {
		g_string_free(out, TRUE);
		return cli_error(err, "");
	}
	ok = cli_output(c, out, "the list", &err);
	g_string_free(out, TRUE);
	return ok ? 0 : cli_error(err, "memcgsim: ");
}

static const GOptionEntry list_options[] = {
    CLI_OPT_FILES("[SCENARIO]"),
    {"names", 0, 0, G_OPTION_ARG_NONE, &list_args.names, "Print the names alone, one a line", NULL},
    {NULL}};

const struct cli_command cli_list_command = {
    .name = "list",
    .doc = "the bundled scenarios (run one by name), or a scenario's variants",
    .synopsis = "[SCENARIO] - list the bundled scenarios, or a scenario's variants",
    .options = list_options,
    .files = CLI_FILES_AT_MOST_ONE,
    .files_what = "scenario",
    .fn = cmd_list,
};

// SPDX-License-Identifier: GPL-2.0-or-later
/* memcgsim compare A.json B.json: two results, variant by variant. */
#include "cli_util.h"
#include "identity.h"
#include "mcs_error.h"
#include "mcs_json.h"
#include "output.h"
#include "report.h"
#include "result.h"
#include "result_keys.h"
#include <stdio.h>
#include <string.h>

/* compare's own options (the others: struct cli). */
static struct {
	char *change; /* --change FROM:TO */
} compare_args;

/* A file's label: its name without ".json"; the paths as given when the
 * names are the same, and "(1)", "(2)" after them when those are too. */
static void labels(const char *pa, const char *pb, char **la, char **lb)
{
	char *ba = g_path_get_basename(pa), *bb = g_path_get_basename(pb);
	if (g_str_has_suffix(ba, ".json"))
		ba[strlen(ba) - 5] = '\0';
	if (g_str_has_suffix(bb, ".json"))
		bb[strlen(bb) - 5] = '\0';
	if (!g_str_equal(ba, bb)) {
		*la = ba;
		*lb = bb;
		return;
	}
	g_free(ba);
	g_free(bb);
	bool same = g_str_equal(pa, pb);
	*la = g_strdup_printf("%s%s", pa, same ? " (1)" : "");
	*lb = g_strdup_printf("%s%s", pb, same ? " (2)" : "");
}

/* A result file (not a sweep), read and checked. */
static json_t *load_result(const char *path, GError **err)
{
	json_t *doc = cli_result_load(path, RESULT_MAX_PARSED / 2, err);
	if (doc && json_object_get(doc, RK_points)) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
			    "%s: a sweep; compare takes two results (memcgsim report DIR --point N "
			    "--format json gives one of its points)",
			    path);
		g_clear_pointer(&doc, json_decref);
	}
	return doc;
}

static bool common_variant(json_t *a, json_t *b)
{
	size_t i, j;
	json_t *va, *vb;
	json_array_foreach (json_object_get(a, RK_variants), i, va)
		json_array_foreach (json_object_get(b, RK_variants), j, vb)
			if (json_equal(json_object_get(va, "name"), json_object_get(vb, "name")))
				return true;
	return false;
}

/* "\"a\", \"b\"": the variants of result @doc; g_free it. */
static char *variant_names(json_t *doc)
{
	GString *s = g_string_new(NULL);
	size_t i;
	json_t *v;
	json_array_foreach (json_object_get(doc, RK_variants), i, v)
		g_string_append_printf(s, "%s\"%s\"", i ? ", " : "",
				       json_string_value(json_object_get(v, "name")));
	return g_string_free(s, FALSE);
}

/* --change FROM:TO: two variants both results have. */
static bool change_variants(const char *spec, json_t *a, json_t *b, char **from, char **to,
			    GError **err)
{
	const char *colon = strchr(spec, ':');
	if (!colon || colon == spec || !colon[1] || strchr(colon + 1, ':')) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
			    "--change: expected FROM:TO, two variants' names, got \"%s\"", spec);
		return false;
	}
	char *names[2] = {g_strndup(spec, (gsize)(colon - spec)), g_strdup(colon + 1)};
	for (int k = 0; k < 2; k++)
		for (int r = 0; r < 2; r++) {
			json_t *doc = r ? b : a;
			if (!mcs_json_find(json_object_get(doc, RK_variants), "name", names[k],
					   NULL)) {
				char *has = variant_names(doc);
				g_set_error(
				    err, MCS_ERROR, MCS_ERROR_INPUT,
				    "--change: no variant \"%s\" in %s (it has %s): each result "
				    "needs both variants, so not a run of one --variant",
				    names[k], r ? "B" : "A", has);
				g_free(has);
				g_free(names[0]);
				g_free(names[1]);
				return false;
			}
		}
	*from = names[0];
	*to = names[1];
	return true;
}

static bool format_ok(const struct cli *c, const struct report_format **f)
{
	*f = report_format_find(c->format);
	if (*f && (*f)->sections)
		return true;
	cli_say("--format: expected text, md or html, got \"%s\"", c->format);
	return false;
}

static int cmd_compare(struct cli *c)
{
	const struct report_format *f;
	if (!format_ok(c, &f))
		return EXIT_USAGE;
	GError *err = NULL;
	const struct cli_path outs[] = {{"-o", c->output}, {NULL, NULL}};
	const struct cli_path ins[] = {{"A", c->files[0]}, {"B", c->files[1]}, {NULL, NULL}};
	if (!output_check(c->output, "-o", &err) || !cli_outputs_apart(outs, ins, &err))
		return cli_error(err, "memcgsim: ");
	json_t *a = load_result(c->files[0], &err), *b = a ? load_result(c->files[1], &err) : NULL;
	if (a && b && !common_variant(a, b))
		g_set_error(&err, MCS_ERROR, MCS_ERROR_INPUT, "%s and %s have no variant in common",
			    c->files[0], c->files[1]);
	if (err) {
		json_decref(a);
		json_decref(b);
		return cli_error(err, "");
	}
	char *from = NULL, *to = NULL;
	if (compare_args.change && !change_variants(compare_args.change, a, b, &from, &to, &err)) {
		json_decref(a);
		json_decref(b);
		return cli_error(err, "memcgsim: ");
	}
	char *la, *lb;
	labels(c->files[0], c->files[1], &la, &lb);
	if (!g_str_equal(identity_of(a), identity_of(b))) /* allowed: what compare is for */
		cli_say("note: %s was made by model %s, %s by model %s; the differences are also "
			"the models'",
			la, identity_of(a), lb, identity_of(b));
	GPtrArray *sections = report_compare_results(
	    a, la, b, lb, from, to, &(struct report_opts){.resolution = c->resolution});
	GString *out = g_string_new(NULL);
	f->sections(sections, NULL, out);
	bool ok = cli_output(c, out, "the comparison", &err);
	g_ptr_array_free(sections, TRUE);
	g_string_free(out, TRUE);
	g_free(la);
	g_free(lb);
	g_free(from);
	g_free(to);
	json_decref(a);
	json_decref(b);
	return ok ? 0 : cli_error(err, "memcgsim: ");
}

static const GOptionEntry compare_options[] = {
    CLI_OPT_FILES("A.json B.json"),
    CLI_OPT_FORMAT("text (default), md or html"),
    {"change", 0, 0, G_OPTION_ARG_STRING, &compare_args.change,
     "The change from variant FROM to TO in A and in B, and how far it moved", "FROM:TO"},
    CLI_OPT_OUTPUT,
    CLI_OPT_RESOLUTION,
    {NULL}};

/* What compare's options set, freed after it ran. */
static void compare_args_free(void)
{
	g_free(compare_args.change);
}

const struct cli_command cli_compare_command = {
    .cleanup = compare_args_free,
    .name = "compare",
    .doc = "two results side by side, variant by variant, with significance",
    .synopsis = "A.json B.json - compare two results variant by variant (A is the baseline)",
    .options = compare_options,
    .files = 2,
    .files_what = "result files A.json B.json",
    .fn = cmd_compare,
};

// SPDX-License-Identifier: GPL-2.0-or-later
/* `memcgsim compare`: two results (two model versions, two machines, two
 * seeds) side by side, variant by variant: for each variant both have, the
 * mmtests comparison with the first file as the baseline, under the same
 * significance rules as a single run (change.h); the report ends with the
 * verdicts, one line a variant. */
#include "change.h"
#include "report.h"
#include "report_sections.h"
#include "report_util.h"
#include "version.h"
#include <string.h>

/* Variant @name of @result, or NULL. */
static json_t *variant_named(json_t *result, const char *name)
{
	size_t i;
	json_t *v;
	json_array_foreach (json_object_get(result, "variants"), i, v)
		if (g_strcmp0(json_string_value(json_object_get(v, "name")), name) == 0)
			return v;
	return NULL;
}

/* The two variants as the comparison's columns, named by their files. */
static json_t *column_pair(json_t *va, const char *la, json_t *vb, const char *lb)
{
	json_t *a = json_copy(va), *b = json_copy(vb);
	json_object_set_new(a, "name", json_string(la));
	json_object_set_new(b, "name", json_string(lb));
	return json_pack("[o, o]", a, b);
}

static void head(GPtrArray *sections, json_t *a, const char *la, json_t *b, const char *lb)
{
	char *t = g_strdup_printf("memcgsim %s: compare %s (scenario \"%s\", seed %lld) with %s "
				  "(scenario \"%s\", seed %lld)",
				  MEMCGSIM_VERSION, la,
				  json_string_value(json_object_get(a, "scenario")),
				  (long long)json_integer_value(json_object_get(a, "seed")), lb,
				  json_string_value(json_object_get(b, "scenario")),
				  (long long)json_integer_value(json_object_get(b, "seed")));
	report_section_add(sections, t);
	g_free(t);
}

/* "only in LABEL: x, y\n" for the variants of @from that @other lacks. */
static void only_in(GString *s, json_t *from, const char *label, json_t *other)
{
	GString *names = g_string_new(NULL);
	size_t i;
	json_t *v;
	json_array_foreach (json_object_get(from, "variants"), i, v) {
		const char *name = json_string_value(json_object_get(v, "name"));
		if (!variant_named(other, name))
			g_string_append_printf(names, "%s%s", names->len ? ", " : "", name);
	}
	if (names->len)
		g_string_append_printf(s, "only in %s: %s\n", label, names->str);
	g_string_free(names, TRUE);
}

/* One common variant's section; its verdict line goes to @verdicts too. */
static void variant_section(GPtrArray *sections, const char *name, json_t *pair,
			    GString *verdicts)
{
	char *t = g_strdup_printf("variant %s: %s against %s", name,
				  json_string_value(json_object_get(json_array_get(pair, 0), "name")),
				  json_string_value(json_object_get(json_array_get(pair, 1), "name")));
	GString *body = report_section_add(sections, t)->body;
	g_free(t);
	report_comparison(pair, body);
	if (change_draws(pair)) {
		g_string_append_c(body, '\n');
		report_changes(pair, body);
	}
	g_string_append_printf(verdicts, "%s: ", name);
	report_verdict(pair, verdicts);
}

GPtrArray *report_compare_results(json_t *a, const char *la, json_t *b, const char *lb)
{
	GPtrArray *sections = report_sections_new();
	head(sections, a, la, b, lb);
	GString *verdicts = g_string_new(NULL);
	size_t i;
	json_t *va;
	json_array_foreach (json_object_get(a, "variants"), i, va) {
		const char *name = json_string_value(json_object_get(va, "name"));
		json_t *vb = variant_named(b, name);
		if (!vb)
			continue;
		json_t *pair = column_pair(va, la, vb, lb);
		variant_section(sections, name, pair, verdicts);
		json_decref(pair);
	}
	GString *odd = report_section_add(sections, "variants in one file only")->body;
	only_in(odd, a, la, b);
	only_in(odd, b, lb, a);
	g_string_append(report_section_add(sections, "verdict")->body, verdicts->str);
	g_string_free(verdicts, TRUE);
	return sections;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* `memcgsim compare`: two results (two model versions, two machines, two
 * seeds) side by side, variant by variant: for each variant both have, the
 * mmtests comparison with the first file as the baseline, under the same
 * significance rules as a single run (change.h); the report ends with the
 * verdicts, one line a variant. */
#include "change.h"
#include "identity.h"
#include "mcs_json.h"
#include "report.h"
#include "report_sections.h"
#include "report_util.h"
#include "result.h"
#include "result_keys.h"
#include "version.h"
#include <math.h>
#include <string.h>

/* Variant @name of @result, or NULL. */
static json_t *variant_named(json_t *result, const char *name)
{
	return mcs_json_find(json_object_get(result, RK_variants), "name", name, NULL);
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
	char *t =
	    g_strdup_printf("memcgsim %s: compare %s (scenario \"%s\", seed %lld) with %s "
			    "(scenario \"%s\", seed %lld)",
			    MEMCGSIM_VERSION, la, json_string_value(json_object_get(a, "scenario")),
			    (long long)json_integer_value(json_object_get(a, "seed")), lb,
			    json_string_value(json_object_get(b, "scenario")),
			    (long long)json_integer_value(json_object_get(b, "seed")));
	report_section_add(sections, t);
	g_free(t);
}

/* The machines @doc's variants ran on: one line when they are the same,
 * else each variant's ("a: ...; b: ..."); "(none)" from a result that does
 * not say. */
static char *machines_of(json_t *doc)
{
	GString *each = g_string_new(NULL);
	char *first = NULL;
	bool all_same = true;
	size_t i;
	json_t *v;
	json_array_foreach (json_object_get(doc, RK_variants), i, v) {
		char *m = result_machine_text(json_object_get(v, "machine"));
		g_string_append_printf(each, "%s%s: %s", i ? "; " : "",
				       json_string_value(json_object_get(v, "name")),
				       m ? m : "(none)");
		all_same &= i == 0 || g_strcmp0(first, m) == 0;
		if (i == 0)
			first = m;
		else
			g_free(m);
	}
	char *text =
	    all_same && first ? g_strdup(first) : g_strdup(all_same ? "(none)" : each->str);
	g_free(first);
	g_string_free(each, TRUE);
	return text;
}

/* @key of result @doc as provenance shows it. */
static char *provenance_value(json_t *doc, const char *key)
{
	if (g_str_equal(key, "model")) /* a result from before identities: identity_of's word */
		return g_strdup(identity_of(doc));
	if (g_str_equal(key, "machine"))
		return machines_of(doc);
	json_t *x = json_object_get(doc, key);
	char *dumped = x ? json_dumps(x, JSON_ENCODE_ANY) : NULL;
	char *s = g_strdup(dumped ? dumped : "(none)");
	free(dumped);
	return s;
}

/* What the two results were made of, before their numbers: each of the
 * model, the command, the scenario, the machine, the seed and the
 * description, shown twice where they differ, said once where they do
 * not. */
static void provenance(GString *out, json_t *a, const char *la, json_t *b, const char *lb)
{
	static const char *const keys[] = {"model",   "command", "scenario",
					   "machine", "seed",	 "description"};
	GString *same = g_string_new(NULL);
	for (size_t i = 0; i < G_N_ELEMENTS(keys); i++) {
		char *sx = provenance_value(a, keys[i]), *sy = provenance_value(b, keys[i]);
		if (g_str_equal(sx, sy)) {
			g_string_append_printf(same, "%s%s", same->len ? ", " : "", keys[i]);
		} else if (g_str_equal(keys[i], "description")) {
			g_string_append(out, "differs: description (see each file)\n");
		} else {
			g_string_append_printf(out, "differs: %s\n  %s: %s\n  %s: %s\n", keys[i],
					       la, sx, lb, sy);
		}
		g_free(sx);
		g_free(sy);
	}
	if (same->len)
		g_string_append_printf(out, "the same: %s\n", same->str);
	g_string_free(same, TRUE);
}

/* "only in LABEL: x, y\n" for the variants of @from that @other lacks. */
static void only_in(GString *s, json_t *from, const char *label, json_t *other)
{
	GString *names = g_string_new(NULL);
	size_t i;
	json_t *v;
	json_array_foreach (json_object_get(from, RK_variants), i, v) {
		const char *name = json_string_value(json_object_get(v, "name"));
		if (!variant_named(other, name))
			g_string_append_printf(names, "%s%s", names->len ? ", " : "", name);
	}
	if (names->len)
		g_string_append_printf(s, "only in %s: %s\n", label, names->str);
	g_string_free(names, TRUE);
}

/* One common variant's section. */
static void variant_section(GPtrArray *sections, const char *name, json_t *pair,
			    const struct report_opts *o)
{
	char *t =
	    g_strdup_printf("variant %s: %s against %s", name,
			    json_string_value(json_object_get(json_array_get(pair, 0), "name")),
			    json_string_value(json_object_get(json_array_get(pair, 1), "name")));
	GString *body = report_section_add(sections, t)->body;
	g_free(t);
	report_comparison(pair, o, body);
	if (change_draws(pair)) {
		g_string_append_c(body, '\n');
		report_changes(pair, o, body);
	}
}

/* The difference of differences (--change BASE:NEW): the change from
 * variant @from to variant @to in each result, and how far it moved from
 * @a to @b, metric by metric; then a line on the first metric it changes. */
static void change_moved(GString *out, const struct report_pair *p,
			 const struct change_resolution *r)
{
	json_t *a = p->a, *b = p->b;
	const char *la = p->la, *lb = p->lb, *from = p->from, *to = p->to;
	json_t *a0 = variant_named(a, from), *a1 = variant_named(a, to);
	json_t *b0 = variant_named(b, from), *b1 = variant_named(b, to);
	g_string_append_printf(out, "Change from %s to %s, positive = better, in each result\n\n",
			       from, to);
	g_string_append_printf(out, "%-30s %12.12s %12.12s %14s\n", "metric", la, lb, "moved");
	const char *metric, *main = NULL, *from_zero = NULL;
	json_t *m;
	struct change main_a = {0}, main_b = {0};
	json_object_foreach (json_object_get(a0, RK_metrics), metric, m) {
		if (!json_object_get(json_object_get(b0, RK_metrics), metric))
			continue;
		struct change ca, cb;
		change_of(a0, a1, metric, r, &ca);
		change_of(b0, b1, metric, r, &cb);
		char ba[32], bb[32], bm[32];
		bool zero = ca.from_zero || cb.from_zero;
		g_string_append_printf(
		    out, "%-30s %12s %12s %15s\n", metric, change_pct_text(ba, "%+.2f%%", ca.pct),
		    change_pct_text(bb, "%+.2f%%", cb.pct),
		    zero ? "n/a" : change_pct_text(bm, "%+.2f points", cb.pct - ca.pct));
		if (zero && !from_zero)
			from_zero = metric;
		if (!main && !zero && (ca.pct != 0 || cb.pct != 0)) {
			main = metric;
			main_a = ca;
			main_b = cb;
		}
	}
	if (!main && from_zero) {
		g_string_append_printf(
		    out,
		    "\nThe change from %s to %s on %s starts from 0 (in %s or %s): no "
		    "difference of percentages is defined.\n",
		    from, to, from_zero, la, lb);
		return;
	}
	if (!main) {
		g_string_append_printf(out, "\n%s gives the same figures as %s in both.\n", to,
				       from);
		return;
	}
	double moved = main_b.pct - main_a.pct;
	double res = MAX(main_a.resolution, main_b.resolution);
	g_string_append_printf(
	    out,
	    "\nThe change from %s to %s on %s: %+.2f%% in %s, %+.2f%% in %s: it moved by %.2f "
	    "points, %s the resolution (%.2f%%).\n",
	    from, to, main, main_a.pct, la, main_b.pct, lb, fabs(moved),
	    fabs(moved) < res ? "within" : "more than", res);
}

void report_compare_head(const struct report_pair *p, const struct report_opts *o,
			 GPtrArray *sections)
{
	(void)o;
	head(sections, p->a, p->la, p->b, p->lb);
	provenance(report_section_add(sections, "what the two results were made of")->body, p->a,
		   p->la, p->b, p->lb);
}

/* @fn for each variant both results have, with the pair of it (a's first,
 * labelled), in a's order. */
static void each_common(const struct report_pair *p,
			void (*fn)(const char *name, json_t *pair, const struct report_opts *o,
				   void *ctx),
			const struct report_opts *o, void *ctx)
{
	size_t i;
	json_t *va;
	json_array_foreach (json_object_get(p->a, RK_variants), i, va) {
		const char *name = json_string_value(json_object_get(va, "name"));
		json_t *vb = variant_named(p->b, name);
		if (!vb)
			continue;
		json_t *pair = column_pair(va, p->la, vb, p->lb);
		fn(name, pair, o, ctx);
		json_decref(pair);
	}
}

static void common_section(const char *name, json_t *pair, const struct report_opts *o,
			   void *sections)
{
	variant_section(sections, name, pair, o);
}

void report_compare_variants(const struct report_pair *p, const struct report_opts *o,
			     GPtrArray *sections)
{
	each_common(p, common_section, o, sections);
}

void report_compare_moved(const struct report_pair *p, const struct report_opts *o,
			  GPtrArray *sections)
{
	if (p->from && p->to)
		change_moved(
		    report_section_add(sections, "the change between two variants, moved")->body, p,
		    report_resolution(o));
}

void report_compare_only_in(const struct report_pair *p, const struct report_opts *o,
			    GPtrArray *sections)
{
	(void)o;
	GString *odd = report_section_add(sections, "variants in one file only")->body;
	only_in(odd, p->a, p->la, p->b);
	only_in(odd, p->b, p->lb, p->a);
}

static void common_verdict(const char *name, json_t *pair, const struct report_opts *o,
			   void *verdicts)
{
	g_string_append_printf(verdicts, "%s: ", name);
	report_verdict(pair, o, verdicts);
}

void report_compare_verdicts(const struct report_pair *p, const struct report_opts *o,
			     GPtrArray *sections)
{
	each_common(p, common_verdict, o, report_section_add(sections, "verdict")->body);
}

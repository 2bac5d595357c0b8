// SPDX-License-Identifier: GPL-2.0-or-later
/* The comparisons a scenario exists for (its "comparisons", issue 39,
 * item 5), each with its verdict on the main figure (the verdict's):
 * "A..B", B's change against A with its interval; "A..B vs C..D", a
 * difference of differences: D's change against C less B's against A, with
 * the two changes' intervals combined. */
#include "change.h"
#include "mcs_json.h"
#include "report_sections.h"
#include "report_util.h"
#include "result_keys.h"
#include "scenario.h"
#include <math.h>
#include <string.h>

/* The change of @names[1] against @names[0] in @variants, on @metric. */
static void pair_change(json_t *variants, char **names, const char *metric,
			const struct change_resolution *r, struct change *c)
{
	change_of(mcs_json_find(variants, "name", names[0], NULL),
		  mcs_json_find(variants, "name", names[1], NULL), metric, r, c);
}

/* The 95% interval of @c in %, when it has one. */
static bool interval_of(const struct change *c, double *lo, double *hi)
{
	if (c->seeds) {
		*lo = c->seeds_lo;
		*hi = c->seeds_hi;
	} else if (c->draws) {
		*lo = c->draws_lo;
		*hi = c->draws_hi;
	}
	return c->seeds || c->draws;
}

static void one_pair(json_t *variants, char **n, const char *metric,
		     const struct change_resolution *r, GString *text)
{
	struct change c;
	pair_change(variants, n, metric, r, &c);
	char *verdict = change_verdict(&c);
	char buf[32];
	g_string_append_printf(text, "%s against %s on %s: %s (", n[1], n[0], metric,
			       change_pct_text(buf, "%+.2f%%", c.pct));
	report_mean(text, c.mean, metric, json_array_get(variants, 0));
	g_string_append(text, " against ");
	report_mean(text, c.base_mean, metric, json_array_get(variants, 0));
	double lo, hi;
	if (interval_of(&c, &lo, &hi))
		g_string_append_printf(text, "; 95%% interval [%+.2f%%, %+.2f%%]", lo, hi);
	g_string_append_printf(text, "): %s.", verdict);
	g_free(verdict);
}

/* "A..B vs C..D": D's change against C less B's against A. */
static void difference(json_t *variants, char **n, const char *metric,
		       const struct change_resolution *r, GString *text)
{
	struct change c[2];
	pair_change(variants, n, metric, r, &c[0]);
	pair_change(variants, n + 2, metric, r, &c[1]);
	double d = c[1].pct - c[0].pct, lo[2], hi[2];
	char b0[32], b1[32], b2[32];
	g_string_append_printf(
	    text, "%s against %s, less %s against %s, on %s: %s less %s = %s", n[3], n[2], n[1],
	    n[0], metric, change_pct_text(b1, "%+.2f%%", c[1].pct),
	    change_pct_text(b0, "%+.2f%%", c[0].pct), change_pct_text(b2, "%+.2f%%", d));
	if (isnan(d)) {
		g_string_append(text, ": no difference in % (a figure from 0).");
	} else if (interval_of(&c[0], &lo[0], &hi[0]) && interval_of(&c[1], &lo[1], &hi[1])) {
		double dlo = lo[1] - hi[0], dhi = hi[1] - lo[0];
		g_string_append_printf(text,
				       " (the two changes' 95%% intervals combined, at least 90%%: "
				       "[%+.2f%%, %+.2f%%]): "
				       "%s.",
				       dlo, dhi,
				       fabs(d) < c[1].resolution ? "no material difference"
				       : dlo > 0 || dhi < 0	 ? "the two changes differ"
							    : "the two changes are not told apart");
	} else {
		g_string_append(text, ": not decided (a change without an interval: give "
				      "--replicas 3).");
	}
}

/* Do all the @n variants @names name appear in @variants? */
static bool all_ran(json_t *variants, char **names, guint n)
{
	for (guint k = 0; k < n; k++)
		if (!mcs_json_find(variants, "name", names[k], NULL))
			return false;
	return true;
}

/* Each of @result's comparisons whose variants ran, a paragraph each,
 * wrapped at @width; then those that did not run, on one line. */
static void asked(json_t *result, const struct change_resolution *r, int width, GString *out)
{
	json_t *variants = json_object_get(result, RK_variants);
	const char *metric = NULL;
	struct change best;
	if (json_array_size(variants) >= 2)
		report_main_change(variants, r, &metric, &best);
	if (!metric)
		metric = "elapsed_ns";
	size_t i;
	json_t *e;
	GString *not_run = g_string_new(NULL);
	json_array_foreach (json_object_get(result, RK_comparisons), i, e) {
		char *names[4];
		guint n = scenario_comparison_names(json_string_value(e), names);
		if (!n) /* not a comparison's shape: the result checker's to refuse */
			continue;
		if (!all_ran(variants, names, n)) {
			g_string_append_printf(not_run, "%s%s", not_run->len ? "; " : "",
					       json_string_value(e));
		} else {
			GString *text = g_string_new(NULL);
			if (n == 4)
				difference(variants, names, metric, r, text);
			else
				one_pair(variants, names, metric, r, text);
			report_hanging(out, text->str, width, 2);
			g_string_free(text, TRUE);
		}
		for (guint k = 0; k < n; k++)
			g_free(names[k]);
	}
	if (not_run->len) {
		g_string_prepend(not_run, "Not run here (their variants did not run: --variant): ");
		g_string_append_c(not_run, '.');
		report_hanging(out, not_run->str, width, 2);
	}
	g_string_free(not_run, TRUE);
}

char *report_asked_title(json_t *result)
{
	(void)result;
	return g_strdup("the comparisons the scenario exists for");
}

void report_asked(json_t *result, const struct report_opts *o, GString *out)
{
	asked(result, report_resolution(o), 78, out);
}

void report_brief_asked(const struct report_brief *b, GString *out)
{
	if (!json_array_size(json_object_get(b->result, RK_comparisons)))
		return;
	g_string_append(out, "\nAsked: the comparisons the scenario exists for\n");
	asked(b->result, report_resolution(b->o), 78, out);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* Whether a run stands for its scenario (issue 39, item 6): a result whose
 * run changed the scenario (its "overrides", --set) and left at 0 a figure
 * the unmodified scenario exercises (its "exercises", "[VARIANT:]PATH") does
 * not: the reports say so before their figures, and the summary's published
 * block, which stands for the unmodified scenario, is marked not comparable. */
#include "report_sections.h"
#include "report_util.h"
#include "result_keys.h"
#include <math.h>
#include <string.h>

/* The number at dotted @path under @v; NAN when there is none. */
static double figure_at(json_t *v, const char *path)
{
	char **keys = g_strsplit(path, ".", -1);
	for (char **k = keys; *k && v; k++)
		v = json_object_get(v, *k);
	g_strfreev(keys);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The overrides, "A=1, B=2"; NULL when the run is the unmodified scenario
 * (or the result is from before overrides were recorded). g_free it. */
char *report_overrides(json_t *result)
{
	json_t *sets = json_object_get(result, RK_overrides);
	if (!json_array_size(sets))
		return NULL;
	GString *s = g_string_new(NULL);
	size_t i;
	json_t *e;
	json_array_foreach (sets, i, e)
		g_string_append_printf(s, "%s%s", i ? ", " : "", json_string_value(e));
	return g_string_free(s, FALSE);
}

/* "PATH in VARIANT" for each exercised figure at 0 (or absent) here. */
static GString *unexercised(json_t *result)
{
	GString *gone = g_string_new(NULL);
	size_t i, j;
	json_t *e, *v;
	json_array_foreach (json_object_get(result, RK_exercises), i, e) {
		const char *s = json_string_value(e), *colon = strchr(s, ':');
		const char *path = colon ? colon + 1 : s;
		json_array_foreach (json_object_get(result, RK_variants), j, v) {
			const char *name = json_string_value(json_object_get(v, "name"));
			if (colon && (strlen(name) != (size_t)(colon - s) ||
				      strncmp(name, s, (size_t)(colon - s)) != 0))
				continue;
			double x = figure_at(v, path);
			if (!(x > 0))
				g_string_append_printf(gone, "%s%s in %s", gone->len ? ", " : "",
						       path, name);
		}
	}
	return gone;
}

/* A result of memcgsim fit: which variant was fitted, to what and how
 * well, with what, and that the others are predictions. */
static void fitted(json_t *result, GString *out)
{
	json_t *fit = json_object_get(result, RK_fit);
	if (!fit)
		return;
	GString *t = g_string_new(NULL);
	json_t *locks = json_object_get(fit, "locks");
	char *what = locks ? g_strdup_printf("%s, %g s", json_string_value(locks),
					     json_number_value(json_object_get(fit, "seconds")))
			   : g_strdup("time(1)");
	g_string_append_printf(
	    t, "Fitted: variant %s was fitted to its measurement (%s: %s) in %d runs%s",
	    json_string_value(json_object_get(fit, "variant")), what,
	    json_string_value(json_object_get(fit, "source")),
	    (int)json_integer_value(json_object_get(fit, "rounds")),
	    json_is_true(json_object_get(fit, "converged")) ? "" : ", not every class settled");
	g_free(what);
	size_t i, j;
	json_t *c, *n;
	json_array_foreach (json_object_get(fit, "classes"), i, c) {
		g_string_append(t, i ? ";" : "; lock holds:");
		json_array_foreach (json_object_get(c, "classes"), j, n)
			g_string_append_printf(t, "%s %s", j ? "," : "", json_string_value(n));
		g_string_append_printf(t, " +%.1f ns (%s)",
				       json_number_value(json_object_get(c, "extra_ns")),
				       json_string_value(json_object_get(c, "state")));
	}
	json_t *tm = json_object_get(fit, "time");
	if (json_is_object(tm) && json_number_value(json_object_get(tm, "position")) > -1) {
		g_string_append_printf(t,
				       "; to time(1)'s sys, private constants at %.3f of their "
				       "ranges (%s):",
				       json_number_value(json_object_get(tm, "position")),
				       json_string_value(json_object_get(tm, "state")));
		json_array_foreach (json_object_get(tm, "constants"), i, c)
			g_string_append_printf(t, "%s %s %.1f ns", i ? "," : "",
					       json_string_value(json_object_get(c, "key")),
					       json_number_value(json_object_get(c, "ns")));
	}
	g_string_append(t, ". Every other variant is a prediction with these values.");
	report_hanging(out, t->str, 78, 2);
	g_string_free(t, TRUE);
}

void report_standing(json_t *result, GString *out)
{
	fitted(result, out);
	char *sets = report_overrides(result);
	if (!sets)
		return;
	GString *gone = unexercised(result);
	if (gone->len) {
		char *text = g_strdup_printf(
		    "Not the scenario: this run's --set (%s) leaves at 0 what the unmodified "
		    "scenario exercises (%s); its figures do not stand for the scenario's.",
		    sets, gone->str);
		report_hanging(out, text, 78, 2);
		g_free(text);
	}
	g_string_free(gone, TRUE);
	g_free(sets);
}

void report_head_about(json_t *result, GString *out)
{
	report_about(result, out);
	report_standing(result, out);
}

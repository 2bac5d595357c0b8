// SPDX-License-Identifier: GPL-2.0-or-later
/* The verdict: the one line a reviewer quotes, under the comparison. The
 * main figure is the first of the baseline's metrics that some variant
 * changes (at the reports' 0.01%: a timed run's elapsed_ns does not); the
 * winner is the variant with the largest change for the better, told with
 * both means and change.h's verdict on it. */
#include "change.h"
#include "metrics.h"
#include "report_sections.h"
#include "report_util.h"
#include "result_keys.h"
#include <string.h>

void report_mean(GString *out, double mean, const char *metric, const json_t *variant)
{
	struct run_metric info;
	const struct run_metric *d = metric_info(variant, metric, &info);
	if (g_str_has_suffix(metric, "_ns"))
		report_time(out, mean, 0);
	else
		g_string_append_printf(out, "%.2f%s%s", mean, *d->unit ? " " : "", d->unit);
}

/* The variant (1..) with the best change in @metric, and that change; 0
 * when no variant changes it. */
static size_t best_change(json_t *variants, const char *metric, const struct change_resolution *r,
			  struct change *best)
{
	size_t at = 0, new_at = 0;
	struct change first_new;
	for (size_t i = 1; i < json_array_size(variants); i++) {
		struct change c;
		change_of(json_array_get(variants, 0), json_array_get(variants, i), metric, r, &c);
		if (c.from_zero && !new_at) {
			first_new = c;
			new_at = i;
		} else if (!c.from_zero && c.pct != 0 && (!at || c.pct > best->pct)) {
			*best = c;
			at = i;
		}
	}
	/* a figure new against a zero baseline, when no variant changes it by a % */
	if (!at && new_at)
		*best = first_new;
	return at ? at : new_at;
}

size_t report_main_change(json_t *variants, const struct change_resolution *r, const char **metric,
			  struct change *c)
{
	json_t *m;
	json_object_foreach (json_object_get(json_array_get(variants, 0), RK_metrics), *metric, m) {
		size_t i = best_change(variants, *metric, r, c);
		if (i)
			return i;
	}
	*metric = NULL;
	return 0;
}

char *report_verdict_title(json_t *variants)
{
	return g_strdup("verdict");
}

void report_verdict(json_t *variants, const struct report_opts *o, GString *out)
{
	json_t *base = json_array_get(variants, 0);
	const char *metric, *name = json_string_value(json_object_get(base, "name"));
	struct change c;
	size_t i = report_main_change(variants, report_resolution(o), &metric, &c);
	if (i) {
		json_t *v = json_array_get(variants, i);
		char *verdict = change_verdict(&c);
		const char *vname = json_string_value(json_object_get(v, "name"));
		if (c.from_zero)
			g_string_append_printf(out, "%s gives %s a figure where %s gives 0 (",
					       vname, metric, name);
		else if (c.pct > 0)
			g_string_append_printf(out, "%s beats %s by %.2f%% on %s (", vname, name,
					       c.pct, metric);
		else if (json_array_size(variants) == 2)
			g_string_append_printf(out, "%s is %.2f%% worse than %s on %s (", vname,
					       -c.pct, name, metric);
		else
			g_string_append_printf(out,
					       "%s stays best on %s; the closest, %s, is "
					       "%.2f%% worse (",
					       name, metric, vname, -c.pct);
		report_mean(out, c.mean, metric, base);
		g_string_append(out, " against ");
		report_mean(out, c.base_mean, metric, base);
		g_string_append_printf(out, "): %s.\n", verdict);
		g_free(verdict);
		return;
	}
	if (json_array_size(variants) == 2)
		g_string_append_printf(
		    out, "%s gives the same figures as %s.\n",
		    json_string_value(json_object_get(json_array_get(variants, 1), "name")), name);
	else
		g_string_append_printf(out, "No variant changes any figure of %s.\n", name);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* The changes table of results with cost draws: each variant's change
 * against the baseline in each metric, with its interval across seeds and
 * across cost draws, and what they make of it (change.h). */
#include "change.h"
#include "report_sections.h"
#include "report_util.h"
#include "result_keys.h"
#include "stats.h"
#include <string.h>

#define INTERVAL_W 20 /* "[%7.2f%%, %7.2f%%]" */

static void legend(json_t *variants, size_t draws, GString *out)
{
	g_string_append_printf(
	    out,
	    "Change against %s, positive = better. Seeds: Welch's 95%% confidence interval of\n"
	    "the difference of the means (replicas at the nominal costs). Cost draws: %zu runs a\n"
	    "variant with every cost that has a preset range drawn from it, the same draws for\n"
	    "every variant; the %s of the %zu paired changes (the 2.5th-97.5th\n"
	    "percentile from %d draws on). Within model uncertainty: that interval covers 0.\n"
	    "Significant: Welch's t-test p < 0.05 and not within model uncertainty.\n\n",
	    json_string_value(json_object_get(json_array_get(variants, 0), "name")), draws,
	    change_draws_spread(draws), draws, STATS_SPREAD95_MIN);
}

/* "[  -1.23%,    4.56%]", or "-" when undefined; @w wide. */
static void interval(GString *out, bool defined, double lo, double hi, int w)
{
	char cell[64];
	if (defined)
		g_snprintf(cell, sizeof(cell), "[%7.2f%%, %7.2f%%]", lo, hi);
	else
		g_strlcpy(cell, "-", sizeof(cell));
	g_string_append_printf(out, "  %-*s", w, cell);
}

/* The widest metric and variant names, at least the headers'. */
static void widths(json_t *variants, int *metric_w, int *variant_w)
{
	*metric_w = (int)strlen("metric");
	*variant_w = (int)strlen("variant");
	const char *k;
	json_t *m, *v;
	size_t i;
	json_object_foreach (json_object_get(json_array_get(variants, 0), RK_metrics), k, m)
		*metric_w = MAX(*metric_w, (int)g_utf8_strlen(k, -1));
	json_array_foreach (variants, i, v)
		*variant_w =
		    MAX(*variant_w,
			(int)g_utf8_strlen(json_string_value(json_object_get(v, "name")), -1));
}

static void change_row(json_t *variants, size_t i, const char *metric, int mw, int vw,
		       const struct change_resolution *r, GString *out)
{
	json_t *v = json_array_get(variants, i);
	struct change c;
	change_of(json_array_get(variants, 0), v, metric, r, &c);
	char *verdict = change_verdict(&c);
	char buf[32];
	g_string_append_printf(out, "%-*s  %-*s  %9s", mw, metric, vw,
			       json_string_value(json_object_get(v, "name")),
			       change_pct_text(buf, "%.2f%%", c.pct));
	interval(out, c.seeds, c.seeds_lo, c.seeds_hi, INTERVAL_W);
	interval(out, c.draws > 0, c.draws_lo, c.draws_hi, INTERVAL_W);
	g_string_append_printf(out, "  %s\n", verdict);
	g_free(verdict);
}

void report_changes(json_t *variants, const struct report_opts *o, GString *out)
{
	size_t draws = change_draws(variants);
	if (!draws || json_array_size(variants) < 2)
		return;
	legend(variants, draws, out);
	int mw, vw;
	widths(variants, &mw, &vw);
	char *spread =
	    g_strdup_printf("draws (%s)", draws >= STATS_SPREAD95_MIN ? "p2.5-p97.5" : "min-max");
	g_string_append_printf(out, "%-*s  %-*s  %9s  %-*s  %-*s  %s\n", mw, "metric", vw,
			       "variant", "change", INTERVAL_W, "seeds (95% CI)", INTERVAL_W,
			       spread, "verdict");
	g_free(spread);
	const char *k;
	json_t *m;
	json_object_foreach (json_object_get(json_array_get(variants, 0), RK_metrics), k, m)
		for (size_t i = 1; i < json_array_size(variants); i++)
			change_row(variants, i, k, mw, vw, report_resolution(o), out);
}

char *report_changes_title(json_t *variants)
{
	size_t draws = change_draws(variants);
	if (!draws)
		return NULL;
	return g_strdup_printf(
	    "changes against %s, across seeds and %zu cost draws",
	    json_string_value(json_object_get(json_array_get(variants, 0), "name")), draws);
}

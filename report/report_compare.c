// SPDX-License-Identifier: GPL-2.0-or-later
/* The mmtests-style comparison (compare-kernels.sh): one column per variant,
 * baseline first, each value followed by its change in percent where
 * positive is better; the main row's parentheses become asterisks when
 * the change is significant (change.h: Welch's t-test at 95%, and with
 * cost draws, outside model uncertainty). */
#include "change.h"
#include "metrics.h"
#include "report_sections.h"
#include "report_util.h"
#include "result.h"
#include "result_keys.h"
#include "stats.h"
#include <math.h>
#include <string.h>

#define COL 20

enum row { ROW_MIN, ROW_MEAN, ROW_STDDEV, ROW_COEFFVAR, ROW_MAX, ROW_B50, ROW_B95, ROW_B99, ROW_N };

static double row_value(const struct stats_summary *s, enum row r, bool hmean)
{
	switch (r) {
	case ROW_MIN:
		return s->min;
	case ROW_MEAN:
		return hmean ? s->hmean : s->amean;
	case ROW_STDDEV:
		return s->stddev;
	case ROW_COEFFVAR:
		return s->coeffvar;
	case ROW_MAX:
		return s->max;
	case ROW_B50:
		return s->bamean50;
	case ROW_B95:
		return s->bamean95;
	case ROW_B99:
		return s->bamean99;
	case ROW_N:
		break;
	}
	return 0;
}

/* A "*_ns" metric is shown in the unit its baseline mean reads best in. */
static char *display_name(const char *metric, double baseline, double *scale)
{
	*scale = 1;
	if (!g_str_has_suffix(metric, "_ns"))
		return g_strdup(metric);
	const char *unit;
	*scale = report_unit(baseline, &unit);
	return g_strdup_printf("%.*s (%s)", (int)strlen(metric) - 3, metric, unit);
}

static const char *const row_names[ROW_N] = {"Min", "Amean",	 "Stddev",    "CoeffVar",
					     "Max", "BAmean-50", "BAmean-95", "BAmean-99"};

/* The rows of @metric: @s[i] the summary of variant i's samples, @sig[i]
 * whether its change is significant. The spread rows (Stddev, CoeffVar)
 * give no change: a change in the noise is not one in the figure. */
static void compare_rows(const struct run_metric *d, const char *label,
			 const struct stats_summary *s, const bool *sig, size_t nv, GString *out)
{
	for (int r = 0; r < ROW_N; r++) {
		const char *row_label =
		    r == ROW_MEAN && d->higher_is_better ? "Hmean" : row_names[r];
		bool dispersion = r == ROW_STDDEV || r == ROW_COEFFVAR;
		g_string_append_printf(out, "%-10s%-26s", row_label, label);
		double base = row_value(&s[0], r, d->higher_is_better);
		for (size_t i = 0; i < nv; i++) {
			double v = row_value(&s[i], r, d->higher_is_better);
			if (dispersion) { /* no trailing blanks after the last column */
				g_string_append_printf(out, " %12.2f%*s", v, i + 1 < nv ? 11 : 0,
						       "");
				continue;
			}
			double g = change_pct(base, v, d->higher_is_better);
			bool star = r == ROW_MEAN && sig[i];
			char buf[32];
			g_string_append_printf(out, " %12.2f %s%8s%s", v, star ? "*" : "(",
					       change_pct_text(buf, "%7.2f%%", g),
					       star ? "*" : ")");
		}
		g_string_append_c(out, '\n');
	}
}

/* Whether every sample of every variant of @metric is @*value. */
static bool metric_constant(json_t *variants, const char *metric, double *value)
{
	size_t seen = 0;
	bool same = true;
	for (size_t i = 0; same && i < json_array_size(variants); i++) {
		size_t n;
		double *x = result_samples(json_array_get(variants, i), metric, &n);
		for (size_t k = 0; same && k < n; k++, seen++) {
			if (!seen)
				*value = x[k];
			else
				same = x[k] == *value;
		}
		g_free(x);
	}
	return same && seen > 0;
}

static void compare_metric(json_t *variants, const char *metric, const struct change_resolution *r,
			   GString *out)
{
	struct run_metric info;
	const struct run_metric *d = metric_info(json_array_get(variants, 0), metric, &info);
	double same;
	if (metric_constant(variants, metric, &same)) { /* one line, not eight of zeros */
		double scale;
		char *label = display_name(metric, same, &scale);
		g_string_append_printf(out, "%-10s%-26s %12.2f in every variant and replica\n",
				       "Constant", label, same / scale);
		g_free(label);
		return;
	}
	size_t nv = json_array_size(variants);
	struct stats_summary *s = g_new0(struct stats_summary, nv);
	bool *sig = g_new0(bool, nv);
	double scale = 1;
	char *label = NULL;
	for (size_t i = 0; i < nv; i++) {
		json_t *v = json_array_get(variants, i);
		size_t n;
		double *x = result_samples(v, metric, &n);
		if (i == 0) {
			stats_summarise(x, n, !d->higher_is_better, &s[0]);
			label = display_name(metric, s[0].amean, &scale);
		}
		for (size_t k = 0; k < n; k++)
			x[k] /= scale;
		stats_summarise(x, n, !d->higher_is_better, &s[i]);
		struct change c;
		change_of(json_array_get(variants, 0), v, metric, r, &c);
		sig[i] = i > 0 && c.significant;
		g_free(x);
	}
	compare_rows(d, label, s, sig, nv, out);
	g_free(label);
	g_free(sig);
	g_free(s);
}

static void header(json_t *variants, GString *out)
{
	g_string_append_printf(out, "%36s", "");
	size_t i;
	json_t *v;
	json_array_foreach (variants, i, v)
		g_string_append_printf(out, " %*s", 2 + 12 + 9,
				       json_string_value(json_object_get(v, "name")));
	g_string_append_c(out, '\n');
}

static void compare_table(json_t *variants, const struct change_resolution *r, GString *out)
{
	header(variants, out);
	const char *k;
	json_t *m;
	json_object_foreach (json_object_get(json_array_get(variants, 0), RK_metrics), k, m)
		compare_metric(variants, k, r, out);
}

static void duration_table(json_t *variants, GString *out)
{
	bool seconds =
	    json_number_value(json_object_get(json_array_get(variants, 0), RK_sim_time_ns)) >= 1e9;
	double div = seconds ? 1e9 : 1e6;
	g_string_append_printf(out, "%-36s", seconds ? "(simulated, s)" : "(simulated, ms)");
	size_t i;
	json_t *v;
	json_array_foreach (variants, i, v)
		g_string_append_printf(out, " %14s", json_string_value(json_object_get(v, "name")));
	g_string_append_c(out, '\n');
	static const char *const rows[] = {"User", "System", "Elapsed"};
	for (int r = 0; r < 3; r++) {
		g_string_append_printf(out, "Duration %-27s", rows[r]);
		json_array_foreach (variants, i, v) {
			json_t *cpu = json_object_get(v, RK_cpu_time_ns);
			double val;
			if (r == 0)
				val = json_number_value(json_object_get(cpu, "user"));
			else if (r == 1)
				val = json_number_value(json_object_get(cpu, "sys")) +
				      json_number_value(json_object_get(cpu, "spin")) +
				      json_number_value(json_object_get(cpu, "irq"));
			else
				val = json_number_value(json_object_get(v, RK_sim_time_ns));
			g_string_append_printf(out, " %14.3f", val / div);
		}
		g_string_append_c(out, '\n');
	}
}

char *report_comparison_title(json_t *variants)
{
	return g_strdup_printf(
	    "comparison (baseline first; positive %% = better; *...* = significant%s)",
	    change_draws(variants)
		? ": Welch's t-test p < 0.05 across seeds, and the change's interval across "
		  "cost draws excludes 0"
		: ", Welch's t-test p < 0.05");
}

void report_comparison(json_t *variants, const struct report_opts *o, GString *out)
{
	if (json_array_size(variants) >= 2) {
		compare_table(variants, report_resolution(o), out);
		g_string_append_c(out, '\n');
	}
	duration_table(variants, out);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* --format summary: a report to paste into a design review, in under 80
 * columns: the scenario and the command, each variant's main figure (the
 * verdict's) with its change against the baseline, the verdict, and the
 * locks with the most wait and the cache lines with the most transfers of
 * the baseline and of the winner. A sweep's: the verdict of each point. The
 * full report has the rest. */
#include "change.h"
#include "mcs_error.h"
#include "mcs_json.h"
#include "metrics.h"
#include "report.h"
#include "report_sections.h"
#include "report_util.h"
#include "result.h"
#include "result_format.h"
#include "result_keys.h"
#include "version.h"
#include <string.h>

#define BRIEF_WIDTH 78 /* a line, at most */
#define BRIEF_LOCKS 5
#define BRIEF_LINES 3
#define NAME_W 32 /* a lock or line class, cut to it */

/* "LABEL text", wrapped at BRIEF_WIDTH under the label's indent. */
static void put_wrapped(GString *out, const char *label, const char *text)
{
	GString *w = g_string_new(NULL);
	size_t indent = strlen(label);
	report_wrapped(w, text, BRIEF_WIDTH, (int)indent);
	if (w->len > indent) { /* the first line's indent becomes the label */
		g_string_append(out, label);
		g_string_append(out, w->str + indent);
	}
	g_string_free(w, TRUE);
}

/* A blank line and a heading naming a variant, wrapped at BRIEF_WIDTH. */
static void put_heading(GString *out, const char *fmt, const char *name)
{
	char *text = g_strdup_printf(fmt, name);
	g_string_append_c(out, '\n');
	report_wrapped(out, text, BRIEF_WIDTH, 0);
	g_free(text);
}

static const char *name_of(json_t *v)
{
	return json_string_value(json_object_get(v, "name"));
}

static gint by_wait(gconstpointer a, gconstpointer b)
{
	json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	double wx = mcs_json_num(json_object_get(x, "wait_ns"), "total");
	double wy = mcs_json_num(json_object_get(y, "wait_ns"), "total");
	double hx = mcs_json_num(json_object_get(x, "hold_ns"), "total");
	double hy = mcs_json_num(json_object_get(y, "hold_ns"), "total");
	if (wx != wy)
		return wx < wy ? 1 : -1;
	if (hx != hy)
		return hx < hy ? 1 : -1;
	return g_strcmp0(json_string_value(json_object_get(x, "class")),
			 json_string_value(json_object_get(y, "class")));
}

static gint by_transfers(gconstpointer a, gconstpointer b)
{
	json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	json_int_t tx = json_integer_value(json_object_get(x, "transfers"));
	json_int_t ty = json_integer_value(json_object_get(y, "transfers"));
	if (tx != ty)
		return tx < ty ? 1 : -1;
	return g_strcmp0(json_string_value(json_object_get(x, "class")),
			 json_string_value(json_object_get(y, "class")));
}

/* The variant's locks with the most wait (then hold), lock_stat's columns. */
static void brief_locks(json_t *v, GString *out)
{
	GPtrArray *locks = report_sorted(json_object_get(v, RK_locks), by_wait);
	if (!locks->len) {
		g_ptr_array_free(locks, TRUE);
		return;
	}
	put_heading(out, "Locks of %s, most wait first", name_of(v));
	g_string_append_printf(out, "%-*s %12s %11s %10s %9s\n", NAME_W, "class", "acquisitions",
			       "contentions", "wait", "hold avg");
	for (guint i = 0; i < locks->len && i < BRIEF_LOCKS; i++) {
		json_t *l = locks->pdata[i];
		report_cut(out, json_string_value(json_object_get(l, "class")), NAME_W);
		g_string_append_printf(
		    out, " %12lld %11lld ",
		    (long long)json_integer_value(json_object_get(l, "acquisitions")),
		    (long long)json_integer_value(json_object_get(l, "contentions")));
		report_time(out, mcs_json_num(json_object_get(l, "wait_ns"), "total"), 10);
		g_string_append_c(out, ' ');
		report_time(out, mcs_json_num(json_object_get(l, "hold_ns"), "avg"), 9);
		g_string_append_c(out, '\n');
	}
	g_ptr_array_free(locks, TRUE);
}

/* The variant's line classes with the most transfers, perf c2c's view. */
static void brief_lines(json_t *v, GString *out)
{
	GPtrArray *lines = report_sorted(json_object_get(v, RK_cachelines), by_transfers);
	if (!lines->len) {
		g_ptr_array_free(lines, TRUE);
		return;
	}
	put_heading(out, "Cache lines of %s, most transfers first", name_of(v));
	g_string_append_printf(out, "%-*s %12s %12s %10s\n", NAME_W + 8, "class", "accesses",
			       "transfers", "time");
	for (guint i = 0; i < lines->len && i < BRIEF_LINES; i++) {
		json_t *l = lines->pdata[i];
		report_cut(out, json_string_value(json_object_get(l, "class")), NAME_W + 8);
		g_string_append_printf(
		    out, " %12lld %12lld ",
		    (long long)json_integer_value(json_object_get(l, "accesses")),
		    (long long)json_integer_value(json_object_get(l, "transfers")));
		report_time(out, mcs_json_num(l, "time_ns"), 10);
		g_string_append_c(out, '\n');
	}
	g_ptr_array_free(lines, TRUE);
}

/* Each variant's main figure and its change, positive = better. */
static void brief_figures(json_t *variants, const char *metric, const struct change_resolution *r,
			  GString *out)
{
	json_t *base = json_array_get(variants, 0);
	g_string_append_printf(out, "\n%-30s %16s %12s\n", "variant", metric, "change");
	size_t i;
	json_t *v;
	json_array_foreach (variants, i, v) {
		report_cut(out, name_of(v), 30);
		struct change c;
		change_of(base, v, metric, r, &c);
		GString *mean = g_string_new(NULL);
		report_mean(mean, i ? c.mean : c.base_mean, metric, base);
		g_string_append_printf(out, " %16s", mean->str);
		g_string_free(mean, TRUE);
		char buf[32];
		if (i)
			g_string_append_printf(out, " %12s\n",
					       change_pct_text(buf, "%+.2f%%", c.pct));
		else
			g_string_append_printf(out, " %12s\n", "baseline");
	}
}

/* The published figures (the scenario's "published") beside the model's
 * in the same metric, each with its change against the baseline's. */
static void brief_published(json_t *result, const struct change_resolution *r, GString *out)
{
	json_t *pub = json_object_get(result, RK_published);
	json_t *values = json_object_get(pub, "values");
	const char *metric = json_string_value(json_object_get(pub, "metric"));
	json_t *variants = json_object_get(result, RK_variants);
	json_t *base = json_array_get(variants, 0);
	if (!metric || !json_object_size(values))
		return;
	g_string_append_c(out, '\n');
	put_wrapped(out, "Published: ", json_string_value(json_object_get(pub, "source")));
	char *sets = report_overrides(result);
	if (sets) { /* the published figures are the unmodified scenario's */
		char *why =
		    g_strdup_printf("its figures stand for the unmodified scenario; this run "
				    "changed it (%s)",
				    sets);
		put_wrapped(out, "Not comparable: ", why);
		g_free(why);
		g_free(sets);
		return;
	}
	g_string_append_printf(out, "%-22s %16s %9s %16s %9s\n", "variant", "published", "change",
			       "model", "change");
	double pub_base = json_number_value(json_object_get(values, name_of(base)));
	struct run_metric info;
	size_t i;
	json_t *v;
	json_array_foreach (variants, i, v) {
		json_t *p = json_object_get(values, name_of(v));
		if (!json_is_number(p))
			continue;
		report_cut(out, name_of(v), 22);
		GString *cell = g_string_new(NULL);
		report_mean(cell, json_number_value(p), metric, base);
		g_string_append_printf(out, " %16s", cell->str);
		if (i && pub_base > 0)
			g_string_append_printf(
			    out, " %+8.2f%%",
			    change_pct(pub_base, json_number_value(p),
				       metric_info(base, metric, &info)->higher_is_better));
		else
			g_string_append_printf(out, " %9s", i ? "" : "baseline");
		struct change c;
		change_of(base, v, metric, r, &c);
		g_string_truncate(cell, 0);
		report_mean(cell, i ? c.mean : c.base_mean, metric, base);
		g_string_append_printf(out, " %16s", cell->str);
		char buf[32];
		if (i)
			g_string_append_printf(out, " %9s\n",
					       change_pct_text(buf, "%+.2f%%", c.pct));
		else
			g_string_append_printf(out, " %9s\n", "baseline");
		g_string_free(cell, TRUE);
	}
}

/* The machine measured (--lock-stat) beside the baseline and the winner
 * (@best; 0: none). */
static void brief_measured(json_t *variants, size_t best, const struct report_opts *o, GString *out)
{
	json_t *shown = json_array();
	json_array_append(shown, json_array_get(variants, 0));
	if (best)
		json_array_append(shown, json_array_get(variants, best));
	g_string_append_c(out, '\n');
	report_measured(shown, o->measured, o->measured_path, true, out);
	json_decref(shown);
}

void report_brief_context(json_t *result, const struct report_opts *o, struct report_brief *b)
{
	json_t *variants = json_object_get(result, RK_variants);
	struct change c;
	*b = (struct report_brief){
	    .result = result, .variants = variants, .o = o, .metric = "elapsed_ns"};
	b->best = json_array_size(variants) >= 2
		      ? report_main_change(variants, report_resolution(o), &b->metric, &c)
		      : 0;
	if (!b->metric)
		b->metric = "elapsed_ns";
}

void report_brief_head(const struct report_brief *b, GString *out)
{
	json_t *result = b->result, *base = json_array_get(b->variants, 0);
	char *head = g_strdup_printf(
	    "memcgsim %s: %s, seed %lld, %lld replica%s a variant; changes against %s, "
	    "positive = better",
	    MEMCGSIM_VERSION, json_string_value(json_object_get(result, "scenario")),
	    (long long)json_integer_value(json_object_get(result, "seed")),
	    (long long)json_integer_value(json_object_get(base, "replicas")),
	    json_integer_value(json_object_get(base, "replicas")) == 1 ? "" : "s", name_of(base));
	put_wrapped(out, "", head);
	g_free(head);
	const char *model = json_string_value(json_object_get(result, "model"));
	if (model)
		put_wrapped(out, "Model: ", model);
	const char *command = json_string_value(json_object_get(result, "command"));
	if (command)
		put_wrapped(out, "Command: ", command);
	report_standing(result, out);
}

void report_brief_figures(const struct report_brief *b, GString *out)
{
	brief_figures(b->variants, b->metric, report_resolution(b->o), out);
	brief_published(b->result, report_resolution(b->o), out);
	if (json_array_size(b->variants) >= 2) {
		GString *verdict = g_string_new(NULL);
		report_verdict(b->variants, b->o, verdict);
		g_strchomp(verdict->str);
		g_string_append_c(out, '\n');
		put_wrapped(out, "Verdict: ", verdict->str);
		g_string_free(verdict, TRUE);
	}
}

void report_brief_locks(const struct report_brief *b, GString *out)
{
	brief_locks(json_array_get(b->variants, 0), out);
	if (b->best)
		brief_locks(json_array_get(b->variants, b->best), out);
}

void report_brief_lines(const struct report_brief *b, GString *out)
{
	brief_lines(json_array_get(b->variants, 0), out);
	if (b->best)
		brief_lines(json_array_get(b->variants, b->best), out);
}

void report_brief_measured(const struct report_brief *b, GString *out)
{
	brief_measured(b->variants, b->best, b->o, out);
}

void report_brief_more(const struct report_brief *b, GString *out)
{
	(void)b;
	g_string_append(out,
			"\n(memcgsim report RESULT for the full report: every lock, line, "
			"cgroup and\nmetric, the mmtests comparison and the per-page costs)\n");
}

void report_brief_sweep_head(json_t *sweep, const struct report_opts *o, GString *out)
{
	(void)o;
	json_t *points = json_object_get(sweep, RK_points);
	char *head = g_strdup_printf(
	    "memcgsim %s: sweep of %s, seed %lld, %zu points", MEMCGSIM_VERSION,
	    json_string_value(json_object_get(sweep, "scenario")),
	    (long long)json_integer_value(json_object_get(sweep, "seed")), json_array_size(points));
	put_wrapped(out, "", head);
	g_free(head);
	const char *command = json_string_value(json_object_get(sweep, "command"));
	if (command)
		put_wrapped(out, "Command: ", command);
	g_string_append_c(out, '\n');
}

void report_brief_sweep_verdicts(json_t *sweep, const struct report_opts *o, GString *out)
{
	size_t i;
	json_t *p;
	json_array_foreach (json_object_get(sweep, RK_points), i, p) {
		json_t *variants = result_point_variants(p);
		if (json_array_size(variants) < 2)
			continue;
		GString *verdict = g_string_new(NULL);
		report_verdict(variants, o, verdict);
		g_strchomp(verdict->str);
		char *label = g_strdup_printf("point %zu (%s): ", i,
					      json_string_value(json_object_get(p, "label")));
		put_wrapped(out, label, verdict->str);
		g_free(label);
		g_string_free(verdict, TRUE);
	}
}

void report_brief_sweep_more(json_t *sweep, const struct report_opts *o, GString *out)
{
	(void)sweep;
	(void)o;
	g_string_append(out, "\n(memcgsim report DIR --point N --format summary: one point)\n");
}

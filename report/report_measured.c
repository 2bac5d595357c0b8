// SPDX-License-Identifier: GPL-2.0-or-later
/* The real machine beside the model (`report --lock-stat FILE`): each
 * measured lock class that the model has too, its figures on one line and
 * each variant's under it. A /proc/lock_stat class matches the model's
 * classes of its name, read/write state ("-R", "-W") left out and the
 * model's " (instance)" suffix left out too ("&nlru->lock" is "&nlru->lock
 * (shadow_nodes)" and "&nlru->lock (s_dentry_lru)", added up); a row of
 * perf lock contention (a caller) matches the model's contention points of
 * that function. Waits are per contention, holds per acquisition, as
 * lock_stat's averages are. Counts are over the machine's measurement and
 * over the model's replicas' simulated time; with the measurement's length
 * (--lock-stat-seconds) both are a second. */
#include "lockstat.h"
#include "mcs_json.h"
#include "report.h"
#include "report_sections.h"
#include "report_util.h"
#include "result.h"
#include "result_keys.h"
#include <math.h>
#include <string.h>

#define CLASS_W 30

struct figures {
	double acquisitions, contentions, wait_total, wait_max, hold_total, hold_max;
	bool holds; /* acquisitions and holds known (not perf lock contention's) */
	int matched;
	double seconds; /* counts shown a second over this long; 0: as counts; NaN: unknown */
};

/* The simulated seconds a result variant's lock figures add up: every
 * replica's. */
static double model_seconds(json_t *variant)
{
	double s = mcs_json_num(variant, "replicas") * mcs_json_num(variant, RK_sim_time_ns) * 1e-9;
	return s > 0 ? s : NAN;
}

/* @name without a trailing " (...)" (the model's instance) or "-R"/"-W"
 * (lock_stat's read/write state); g_free it. */
static char *class_key(const char *name)
{
	char *k = g_strdup(name);
	size_t n = strlen(k);
	char *open = strrchr(k, '(');
	if (n && k[n - 1] == ')' && open && open > k && open[-1] == ' ')
		open[-1] = '\0';
	n = strlen(k);
	if (n > 2 && k[n - 2] == '-' && (k[n - 1] == 'R' || k[n - 1] == 'W'))
		k[n - 2] = '\0';
	return k;
}

/* The variant's figures for measured class @c. */
static void model_figures(json_t *variant, const struct lockstat *ls,
			  const struct lockstat_class *c, struct figures *f)
{
	memset(f, 0, sizeof(*f));
	f->holds = ls->source == LOCKSTAT_PROC;
	f->seconds = ls->seconds > 0 ? model_seconds(variant) : 0;
	char *want = class_key(c->name);
	size_t i, j;
	json_t *l, *p;
	json_array_foreach (json_object_get(variant, RK_locks), i, l) {
		if (ls->source == LOCKSTAT_PERF) { /* a caller: the model's points of it */
			json_array_foreach (json_object_get(l, "contention_points"), j, p) {
				if (g_strcmp0(json_string_value(json_object_get(p, "site")),
					      c->name))
					continue;
				f->matched++;
				f->contentions += mcs_json_num(p, "count");
				f->wait_total += mcs_json_num(p, "wait_total_ns");
				f->wait_max = MAX(f->wait_max, mcs_json_num(p, "wait_max_ns"));
			}
			continue;
		}
		char *key = class_key(json_string_value(json_object_get(l, "class")));
		if (g_str_equal(key, want)) {
			f->matched++;
			f->acquisitions += mcs_json_num(l, "acquisitions");
			f->contentions += mcs_json_num(l, "contentions");
			f->wait_total += mcs_json_num(json_object_get(l, "wait_ns"), "total");
			f->wait_max =
			    MAX(f->wait_max, mcs_json_num(json_object_get(l, "wait_ns"), "max"));
			f->hold_total += mcs_json_num(json_object_get(l, "hold_ns"), "total");
			f->hold_max =
			    MAX(f->hold_max, mcs_json_num(json_object_get(l, "hold_ns"), "max"));
		}
		g_free(key);
	}
	g_free(want);
}

static void measured_figures(const struct lockstat *ls, const struct lockstat_class *c,
			     struct figures *f)
{
	*f = (struct figures){c->acquisitions,
			      c->contentions,
			      c->wait_total,
			      c->wait_max,
			      c->hold_total,
			      c->hold_max,
			      ls->source == LOCKSTAT_PROC,
			      1,
			      ls->seconds};
}

/* A count, or a rate a second when @seconds > 0 (decimals under 100). */
static void put_count(GString *out, bool known, double v, double seconds, int w)
{
	if (!known || isnan(seconds))
		g_string_append_printf(out, " %*s", w, "-");
	else if (seconds > 0)
		g_string_append_printf(out, " %*.*f", w, v / seconds < 100 ? 2 : 0, v / seconds);
	else
		g_string_append_printf(out, " %*.0f", w, v);
}

static void put_ns(GString *out, bool known, double ns)
{
	g_string_append_c(out, ' ');
	if (known)
		report_time(out, ns, 10);
	else
		g_string_append_printf(out, "%10s", "-");
}

/* @f's figures, after its source: the counts (acquisitions @acq_w wide),
 * the average wait and hold, with @maxima each followed by its longest; a
 * variant without the class says so. */
static void figures_line(GString *out, const struct figures *f, int acq_w, bool maxima)
{
	if (!f->matched) {
		g_string_append(out, " (not in this variant)\n");
		return;
	}
	put_count(out, f->holds, f->acquisitions, f->seconds, acq_w);
	put_count(out, true, f->contentions, f->seconds, 12);
	put_ns(out, f->contentions > 0, f->contentions > 0 ? f->wait_total / f->contentions : 0);
	if (maxima)
		put_ns(out, true, f->wait_max);
	put_ns(out, f->holds && f->acquisitions > 0,
	       f->acquisitions > 0 ? f->hold_total / f->acquisitions : 0);
	if (maxima)
		put_ns(out, f->holds, f->hold_max);
	g_string_append_c(out, '\n');
}

static void row(GString *out, const char *cls, const char *source, const struct figures *f)
{
	g_string_append_printf(out, "%-*s %-14s", CLASS_W, cls, source);
	figures_line(out, f, 13, true);
}

static void head(GString *out, const struct lockstat *ls)
{
	bool rates = ls->seconds > 0;
	g_string_append_printf(out, "%-*s %-14s %13s %12s %10s %10s %10s %10s\n", CLASS_W,
			       ls->source == LOCKSTAT_PROC ? "class" : "caller", "source",
			       rates ? "acq /s" : "acquisitions", rates ? "cont /s" : "contentions",
			       "wait avg", "wait max", "hold avg", "hold max");
}

/* The summary's: the class on a line of its own, each source under it
 * without the longest wait and hold, 72 columns. */
static void brief_row(GString *out, const char *cls, const char *source, const struct figures *f)
{
	if (*cls) {
		GString *name = g_string_new(NULL);
		report_cut(name, cls, 76);
		g_string_append_printf(out, "%s\n", g_strchomp(name->str));
		g_string_free(name, TRUE);
	}
	g_string_append(out, "  ");
	report_cut(out, source, 22);
	figures_line(out, f, 12, false);
}

static void brief_head(GString *out, const struct lockstat *ls)
{
	bool rates = ls->seconds > 0;
	g_string_append_printf(out, "%-24s %12s %12s %10s %10s\n",
			       ls->source == LOCKSTAT_PROC ? "class, source" : "caller, source",
			       rates ? "acq /s" : "acquisitions", rates ? "cont /s" : "contentions",
			       "wait avg", "hold avg");
}

/* How the table is laid out: the full report's section, every class, or
 * the summary's, the first few. */
struct layout {
	guint max_classes; /* 0: every one */
	void (*head)(GString *out, const struct lockstat *ls);
	void (*row)(GString *out, const char *cls, const char *source, const struct figures *f);
};
static const struct layout full_layout = {0, head, row};
static const struct layout brief_layout = {3, brief_head, brief_row};

static gint by_measured_wait(gconstpointer a, gconstpointer b)
{
	const struct lockstat_class *x = *(const struct lockstat_class *const *)a;
	const struct lockstat_class *y = *(const struct lockstat_class *const *)b;
	if (x->wait_total != y->wait_total)
		return x->wait_total < y->wait_total ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* Measured class @c's row and each variant's under it, when a variant has
 * it; returns whether it did. */
static bool class_rows(GString *rows, json_t *variants, const struct lockstat *ls,
		       const struct lockstat_class *c, const struct layout *lay)
{
	struct figures f[64];
	size_t nv = MIN(json_array_size(variants), G_N_ELEMENTS(f));
	bool any = false;
	for (size_t v = 0; v < nv; v++) {
		model_figures(json_array_get(variants, v), ls, c, &f[v]);
		any |= f[v].matched > 0;
	}
	if (!any)
		return false;
	struct figures m;
	measured_figures(ls, c, &m);
	lay->row(rows, c->name, "measured", &m);
	for (size_t v = 0; v < nv; v++)
		lay->row(rows, "",
			 json_string_value(json_object_get(json_array_get(variants, v), "name")),
			 &f[v]);
	return true;
}

/* What the file was, how many of its classes the model has, and how the
 * figures read, wrapped at 78 columns; the summary's under "Measured: ",
 * saying how many classes it left out. */
static void intro(GString *out, const struct lockstat *ls, const char *path, guint shown,
		  bool brief, guint left_out)
{
	char *base = g_path_get_basename(path);
	GString *text = g_string_new(brief ? "Measured: " : "");
	g_string_append_printf(text, "%s, %s: %u %s, %u of them the model's too", base,
			       lockstat_source_name(ls), ls->classes->len,
			       ls->source == LOCKSTAT_PROC
				   ? (ls->classes->len == 1 ? "class" : "classes")
			       : ls->classes->len == 1 ? "caller"
						       : "callers",
			       shown);
	g_free(base);
	if (brief && left_out)
		g_string_append_printf(text, ", %u left out here", left_out);
	if (shown && ls->seconds > 0)
		g_string_append_printf(text,
				       " (most measured wait first; acquisitions and "
				       "contentions a second, the machine's over its %g s, each "
				       "variant's over its replicas' simulated time; waits per "
				       "contention, holds per acquisition)",
				       ls->seconds);
	else if (shown)
		g_string_append(text, " (most measured wait first; counts: the machine's over its "
				      "measurement, each variant's over all its replicas, which "
				      "--lock-stat-seconds S turns into rates a second; waits per "
				      "contention, holds per acquisition)");
	else
		g_string_append_c(text, '.');
	report_hanging(out, text->str, 78, brief ? 10 : 0);
	g_string_free(text, TRUE);
}

void report_measured(json_t *variants, const struct lockstat *ls, const char *path, bool brief,
		     GString *out)
{
	const struct layout *lay = brief ? &brief_layout : &full_layout;
	GPtrArray *sorted = g_ptr_array_new();
	for (guint i = 0; i < ls->classes->len; i++)
		g_ptr_array_add(sorted, ls->classes->pdata[i]);
	g_ptr_array_sort(sorted, by_measured_wait);
	GString *rows = g_string_new(NULL), *dropped = g_string_new(NULL);
	guint shown = 0, left_out = 0;
	for (guint i = 0; i < sorted->len; i++) {
		bool room = !lay->max_classes || shown - left_out < lay->max_classes;
		bool has = class_rows(room ? rows : dropped, variants, ls, sorted->pdata[i], lay);
		shown += has;
		left_out += has && !room;
	}
	intro(out, ls, path, shown, brief, left_out);
	if (shown) {
		g_string_append_c(out, '\n');
		lay->head(out, ls);
		g_string_append_len(out, rows->str, (gssize)rows->len);
	}
	g_string_free(rows, TRUE);
	g_string_free(dropped, TRUE);
	g_ptr_array_free(sorted, TRUE);
}

char *report_measured_title(json_t *variants)
{
	(void)variants;
	return g_strdup("the machine measured, beside the model");
}

void report_measured_section(json_t *variants, const struct report_opts *o, GString *out)
{
	report_measured(variants, o->measured, o->measured_path, false, out);
}

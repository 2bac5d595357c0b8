// SPDX-License-Identifier: GPL-2.0-or-later
/* The real machine beside the model (`report --lock-stat FILE`): each
 * measured lock class that the model has too, its figures on one line and
 * each variant's under it; then the classes of either side the other has
 * not. A /proc/lock_stat class matches the model's classes whose kernel
 * name is its name (a lock's "lockdep_class", the name the variant's era
 * gives it: "&p->lock" for the model's "&si->lock"), its read/write state
 * ("-R", "-W") and its "#N" (a second class of one name, numbered in boot
 * order) left out, a name lock_stat cut at 37 characters matched by its
 * start; several model classes of one kernel name are added up (the model's
 * list_lrus, "&lru->node[i].lock" each, as the kernel's one class). A
 * result from before the kernel names matches by the model's names, less
 * their " (instance)". A row of perf lock contention (a caller) matches the
 * model's contention points of that function, or of a function inlined
 * into it (inlined_into below). Waits are per contention, holds per acquisition, as
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

/* @name (a /proc/lock_stat class) without its read/write state and its
 * "#N": "key#3/1" is "key/1"; g_free it. */
static char *measured_key(const char *name)
{
	char *k = class_key(name);
	char *hash = strrchr(k, '#');
	if (hash && g_ascii_isdigit(hash[1])) {
		char *end = hash + 1;
		while (g_ascii_isdigit(*end))
			end++;
		memmove(hash, end, strlen(end) + 1);
	}
	return k;
}

/* Model lock @l's name as the kernel's lock_stat prints it: its
 * "lockdep_class" ("": none), else (a result from before) its own name less
 * " (instance)"; g_free it. */
static char *model_key(json_t *l)
{
	const char *kernel = json_string_value(json_object_get(l, "lockdep_class"));
	return kernel ? g_strdup(kernel)
		      : class_key(json_string_value(json_object_get(l, "class")));
}

/* Does measured key @m name model key @k? lock_stat cuts a name at 37
 * characters (fewer with a "#N" or "/N"): a long one matches by its start. */
static bool keys_match(const char *m, const char *k)
{
	return *k && (g_str_equal(m, k) || (strlen(m) >= 34 && g_str_has_prefix(k, m)));
}

/* The modelled sites that perf lock contention names by another function:
 * its caller is the first function on the stack below the lock's own.
 *  - A static function with one caller, which the compiler folds into it:
 *    6.12's mm/swapfile.c __swap_entries_free (si->lock) into
 *    free_swap_and_cache_nr, its only caller, which Kairui Song's perf table
 *    shows taking a spinlock at +0x350 (shared/brief/contention-data.md, 7b).
 *  - A section whose lock a helper takes: 6.12's folio_batch_move_lru
 *    (mm/swap.c) and folios_put_refs (through __page_cache_release) take the
 *    lruvec's lru_lock by folio_lruvec_relock_irqsave, an inline of
 *    include/linux/memcontrol.h that calls folio_lruvec_lock_irqsave, out of
 *    line in mm/memcontrol.c, which calls spin_lock_irqsave; Bharata B Rao's
 *    perf table names it (folio_lruvec_lock_irqsave+0x64, 7d).
 * The site's own name matches too, for a build that did not inline it or a
 * kernel of another era. */
static const struct {
	const char *site, *caller;
} inlined_into[] = {
    {"__swap_entries_free", "free_swap_and_cache_nr"},
    {"folio_batch_move_lru", "folio_lruvec_lock_irqsave"},
    {"folios_put_refs", "folio_lruvec_lock_irqsave"},
};

/* Whether perf's @caller is the model's @site or the function it is inlined into. */
static bool perf_caller_is(const char *site, const char *caller)
{
	if (!g_strcmp0(site, caller))
		return true;
	for (size_t i = 0; site && i < G_N_ELEMENTS(inlined_into); i++)
		if (g_str_equal(site, inlined_into[i].site))
			return g_str_equal(caller, inlined_into[i].caller);
	return false;
}

void report_measured_match(json_t *variant, const struct lockstat *ls,
			   const struct lockstat_class *c, struct report_lock_figures *f,
			   GPtrArray *classes)
{
	memset(f, 0, sizeof(*f));
	f->holds = ls->source == LOCKSTAT_PROC;
	f->seconds = ls->seconds > 0 ? model_seconds(variant) : 0;
	char *want = measured_key(c->name);
	size_t i, j;
	json_t *l, *p;
	const char *most = NULL; /* a caller's class with the most wait there */
	double most_wait = -1;
	json_array_foreach (json_object_get(variant, RK_locks), i, l) {
		if (ls->source == LOCKSTAT_PERF) { /* a caller: the model's points of it */
			double w = -1;
			json_array_foreach (json_object_get(l, "contention_points"), j, p) {
				if (!perf_caller_is(json_string_value(json_object_get(p, "site")),
						    c->name))
					continue;
				f->matched++;
				w = MAX(w, 0) + mcs_json_num(p, "wait_total_ns");
				f->contentions += mcs_json_num(p, "count");
				f->wait_total += mcs_json_num(p, "wait_total_ns");
				f->wait_max = MAX(f->wait_max, mcs_json_num(p, "wait_max_ns"));
			}
			if (w > most_wait) {
				most_wait = w;
				most = json_string_value(json_object_get(l, "class"));
			}
			continue;
		}
		char *key = model_key(l);
		if (keys_match(want, key)) {
			f->matched++;
			if (classes)
				g_ptr_array_add(classes, (gpointer)json_string_value(
							     json_object_get(l, "class")));
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
	if (classes && most)
		g_ptr_array_add(classes, (gpointer)most);
	g_free(want);
}

static void measured_figures(const struct lockstat *ls, const struct lockstat_class *c,
			     struct report_lock_figures *f)
{
	*f = (struct report_lock_figures){c->acquisitions,
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
static void figures_line(GString *out, const struct report_lock_figures *f, int acq_w, bool maxima)
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

static void row(GString *out, const char *cls, const char *source,
		const struct report_lock_figures *f)
{
	report_cut(out, cls, CLASS_W);
	g_string_append_printf(out, " %-14s", source);
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
static void brief_row(GString *out, const char *cls, const char *source,
		      const struct report_lock_figures *f)
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
	void (*row)(GString *out, const char *cls, const char *source,
		    const struct report_lock_figures *f);
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
	struct report_lock_figures f[64];
	size_t nv = MIN(json_array_size(variants), G_N_ELEMENTS(f));
	bool any = false;
	for (size_t v = 0; v < nv; v++) {
		report_measured_match(json_array_get(variants, v), ls, c, &f[v], NULL);
		any |= f[v].matched > 0;
	}
	if (!any)
		return false;
	struct report_lock_figures m;
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

#define UNMATCHED_SHOWN 12 /* of the measured classes the model has not */

/* The measured classes (most wait first) no variant has, the first
 * UNMATCHED_SHOWN named. */
static void measured_only(GString *out, GPtrArray *unmatched, const struct lockstat *ls)
{
	if (!unmatched->len)
		return;
	GString *text = g_string_new(NULL);
	g_string_append_printf(text, "Measured, not in the model (%u %s, most wait first): ",
			       unmatched->len, ls->source == LOCKSTAT_PROC ? "classes" : "callers");
	for (guint i = 0; i < unmatched->len && i < UNMATCHED_SHOWN; i++)
		g_string_append_printf(text, "%s%s", i ? ", " : "",
				       ((const struct lockstat_class *)unmatched->pdata[i])->name);
	if (unmatched->len > UNMATCHED_SHOWN)
		g_string_append_printf(text, " and %u more", unmatched->len - UNMATCHED_SHOWN);
	g_string_append_c(text, '.');
	g_string_append_c(out, '\n');
	report_hanging(out, text->str, 78, 2);
	g_string_free(text, TRUE);
}

/* Does some measured class of @ls name model key @key? */
static bool measured_has(const struct lockstat *ls, const char *key)
{
	bool has = false;
	for (guint i = 0; !has && i < ls->classes->len; i++) {
		char *m =
		    measured_key(((const struct lockstat_class *)ls->classes->pdata[i])->name);
		has = keys_match(m, key);
		g_free(m);
	}
	return has;
}

/* The model's classes (of any variant, taken) that no measured class names,
 * each with its kernel name; a /proc/lock_stat measurement only. */
static void model_only(GString *out, json_t *variants, const struct lockstat *ls)
{
	if (ls->source != LOCKSTAT_PROC)
		return;
	GPtrArray *seen = g_ptr_array_new_with_free_func(g_free);
	GString *text = g_string_new("In the model, not measured: ");
	size_t i, j;
	json_t *v, *l;
	json_array_foreach (variants, i, v)
		json_array_foreach (json_object_get(v, RK_locks), j, l) {
			const char *cls = json_string_value(json_object_get(l, "class"));
			if (g_ptr_array_find_with_equal_func(seen, cls, g_str_equal, NULL))
				continue;
			g_ptr_array_add(seen, g_strdup(cls));
			char *key = model_key(l);
			const char *kernel = json_string_value(json_object_get(l, "lockdep_class"));
			if (!measured_has(ls, key)) {
				g_string_append_printf(text, "%s%s", text->len > 28 ? ", " : "",
						       cls);
				if (kernel && !*kernel)
					g_string_append(text, " (lockdep does not track it)");
				else if (kernel && !g_str_equal(kernel, cls))
					g_string_append_printf(text, " (lock_stat: %s)", kernel);
			}
			g_free(key);
		}
	if (text->len > 28) {
		g_string_append_c(text, '.');
		g_string_append_c(out, '\n');
		report_hanging(out, text->str, 78, 2);
	}
	g_string_free(text, TRUE);
	g_ptr_array_free(seen, TRUE);
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
	GPtrArray *unmatched = g_ptr_array_new();
	guint shown = 0, left_out = 0;
	for (guint i = 0; i < sorted->len; i++) {
		bool room = !lay->max_classes || shown - left_out < lay->max_classes;
		bool has = class_rows(room ? rows : dropped, variants, ls, sorted->pdata[i], lay);
		shown += has;
		left_out += has && !room;
		if (!has)
			g_ptr_array_add(unmatched, sorted->pdata[i]);
	}
	intro(out, ls, path, shown, brief, left_out);
	if (shown) {
		g_string_append_c(out, '\n');
		lay->head(out, ls);
		g_string_append_len(out, rows->str, (gssize)rows->len);
	}
	if (!brief) {
		measured_only(out, unmatched, ls);
		model_only(out, variants, ls);
	}
	g_ptr_array_free(unmatched, TRUE);
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

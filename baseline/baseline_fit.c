// SPDX-License-Identifier: GPL-2.0-or-later
/* The fit's rounds (baseline.h): the measured rows matched to the model's
 * classes, each class's extra hold moved between the values that left its
 * wait short and over, until every class is within the tolerance. */
#include "baseline.h"
#include "lockstat.h"
#include "mcs_json.h"
#include "report.h"
#include "result_keys.h"
#include "runner.h"
#include <math.h>

static struct baseline_target *target_of(GPtrArray *targets, GPtrArray *classes)
{
	for (guint t = 0; t < targets->len; t++) {
		struct baseline_target *x = targets->pdata[t];
		for (guint i = 0; i < classes->len; i++)
			if (g_ptr_array_find_with_equal_func(x->classes, classes->pdata[i],
							     g_str_equal, NULL))
				return x;
	}
	return NULL;
}

static void target_free(gpointer p)
{
	struct baseline_target *x = p;
	g_ptr_array_free(x->classes, TRUE);
	g_ptr_array_free(x->rows, TRUE);
	g_free(x);
}

/* The targets, from the run with nothing added (@variant): each measured
 * row joins the target of a class it matched, or starts one. (Rows that
 * join two targets' classes would need them merged; a row's classes are
 * added to the first target it meets.) */
static void targets_make(struct baseline_fit *f, json_t *variant)
{
	const struct lockstat *ls = f->measured->locks;
	for (guint r = 0; ls && r < ls->classes->len; r++) {
		const struct lockstat_class *c = ls->classes->pdata[r];
		struct report_lock_figures fig;
		GPtrArray *classes = g_ptr_array_new();
		report_measured_match(variant, ls, c, &fig, classes);
		if (!fig.matched) {
			g_ptr_array_add(f->unmatched, (gpointer)c);
			g_ptr_array_free(classes, TRUE);
			continue;
		}
		struct baseline_target *x = target_of(f->targets, classes);
		if (!x) {
			x = g_new0(struct baseline_target, 1);
			x->classes = g_ptr_array_new_with_free_func(g_free);
			x->rows = g_ptr_array_new();
			x->hi = -1;
			g_ptr_array_add(f->targets, x);
		}
		for (guint i = 0; i < classes->len; i++)
			if (!g_ptr_array_find_with_equal_func(x->classes, classes->pdata[i],
							      g_str_equal, NULL))
				g_ptr_array_add(x->classes, g_strdup(classes->pdata[i]));
		g_ptr_array_add(x->rows, (gpointer)c);
		x->measured += c->wait_total / f->measured->seconds;
		x->measured_contentions += c->contentions / f->measured->seconds;
		g_ptr_array_free(classes, TRUE);
	}
}

/* The model's wait a second on @x's rows in result variant @variant; its
 * contentions a second into *@contentions. */
static double target_wait(const struct baseline_fit *f, const struct baseline_target *x,
			  json_t *variant, double *contentions)
{
	double total = 0, n = 0, s = 0; /* s: the replicas' simulated seconds, the match's */
	for (guint r = 0; r < x->rows->len; r++) {
		struct report_lock_figures fig;
		report_measured_match(variant, f->measured->locks, x->rows->pdata[r], &fig, NULL);
		total += fig.wait_total;
		n += fig.contentions;
		s = fig.seconds;
	}
	*contentions = s > 0 ? n / s : 0;
	return s > 0 ? total / s : 0;
}

/* @x's mean modelled hold (ns), nothing added: the first step's scale. */
static double target_hold(const struct baseline_target *x, json_t *variant)
{
	double acq = 0, hold = 0;
	size_t i;
	json_t *l;
	json_array_foreach (json_object_get(variant, RK_locks), i, l)
		if (g_ptr_array_find_with_equal_func(x->classes,
						     json_string_value(json_object_get(l, "class")),
						     g_str_equal, NULL)) {
			acq += mcs_json_num(l, "acquisitions");
			hold += mcs_json_num(json_object_get(l, "hold_ns"), "total");
		}
	return acq > 0 ? hold / acq : 0;
}

void baseline_target_step(struct baseline_target *x, double w, double hold,
			  const struct baseline_opts *o)
{
	x->model = w;
	double h = x->extra_ns;
	x->closed = false;
	x->done = fabs(w - x->measured) <= o->tolerance * x->measured;
	if (x->done)
		return;
	if (w < x->measured) {
		x->lo = h;
		x->w_lo = w;
	} else {
		x->hi = h;
		x->w_hi = w;
	}
	if (x->hi == 0) { /* over with nothing added: the model alone waits more */
		x->at_bound = true;
		return;
	}
	if (x->hi < 0) { /* short: double, from the modelled hold's scale */
		if (h >= o->max_extra_ns) {
			x->at_bound = true;
			return;
		}
		x->next_ns = MIN(o->max_extra_ns, h > 0 ? 2 * h : MAX(hold, 20.0));
		return;
	}
	double t = 0.5; /* between: a straight line through the logarithms */
	if (x->w_lo > 0 && x->w_hi > x->w_lo)
		t = (log(x->measured) - log(x->w_lo)) / (log(x->w_hi) - log(x->w_lo));
	t = CLAMP(t, 0.1, 0.9);
	if (x->hi - x->lo < 1e-3 * MAX(x->hi, 1.0)) { /* the bracket closed: as near as it gets */
		x->done = x->closed = true;
		return;
	}
	x->next_ns = x->lo + t * (x->hi - x->lo);
}

/* The overrides of the extras and constants that ran (or, @next, of those
 * to try next), NULL-terminated; g_strfreev it. */
static char **baseline_sets(const struct baseline_fit *f, bool next)
{
	GPtrArray *sets = g_ptr_array_new();
	if (f->targets->len) {
		json_t *list = json_array();
		for (guint t = 0; t < f->targets->len; t++) {
			const struct baseline_target *x = f->targets->pdata[t];
			double ns = next ? x->next_ns : x->extra_ns;
			for (guint i = 0; i < x->classes->len; i++)
				json_array_append_new(list,
						      json_pack("{s:s, s:f}", "lock",
								(const char *)x->classes->pdata[i],
								"ns", round(ns * 1000) / 1000));
		}
		char *text = json_dumps(list, JSON_COMPACT | JSON_REAL_PRECISION(12));
		json_decref(list);
		g_ptr_array_add(sets, g_strdup_printf("kernel.critical_section_extra=%s", text));
		free(text);
	}
	if (f->time)
		baseline_time_sets(f->time, next, sets);
	g_ptr_array_add(sets, NULL);
	return (char **)g_ptr_array_free(sets, FALSE);
}

char **baseline_fit_sets(const struct baseline_fit *f)
{
	return baseline_sets(f, false);
}

/* One run of the variant with the targets' current extras and constants;
 * its result's variant (a new reference), or NULL with @err. The first
 * round makes the time target, from the variant as the scenario has it. */
static json_t *fit_round(struct baseline_fit *f, const struct baseline_opts *o, GError **err)
{
	char **sets = baseline_sets(f, true);
	struct scenario *sc = o->load((const char *const *)sets, o->ctx, err);
	g_strfreev(sets);
	if (!sc)
		return NULL;
	if (!f->rounds && sc->variants->len)
		f->time = baseline_time_new(f->measured->time, sc->variants->pdata[0]);
	struct runner_opts ro = {.note = o->note};
	bool violation = false;
	json_t *result = runner_run(sc, o->jobs, NULL, &ro, &violation, err);
	scenario_free(sc);
	if (!result)
		return NULL;
	json_t *v = json_incref(json_array_get(json_object_get(result, RK_variants), 0));
	json_decref(result);
	if (!v)
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT, "fit: the run gave no variant");
	return v;
}

bool baseline_bound_left(struct baseline_target *x, double w, const struct baseline_opts *o)
{
	bool low = x->extra_ns <= 0 && w > (1 + o->tolerance) * x->measured;
	bool high = x->extra_ns >= o->max_extra_ns && w < (1 - o->tolerance) * x->measured;
	if (low || high)
		return false; /* it still binds */
	x->at_bound = x->closed = false;
	x->lo = 0;
	x->hi = -1;
	x->w_lo = x->w_hi = 0;
	return true;
}

static bool any_closed(const struct baseline_fit *f)
{
	bool closed = f->time && f->time->closed;
	for (guint t = 0; t < f->targets->len; t++)
		closed = closed || ((const struct baseline_target *)f->targets->pdata[t])->closed;
	return closed;
}

static bool all_settled(const struct baseline_fit *f)
{
	if (f->time && !f->time->done && !f->time->at_bound)
		return false;
	for (guint t = 0; t < f->targets->len; t++) {
		const struct baseline_target *x = f->targets->pdata[t];
		if (!x->done && !x->at_bound)
			return false;
	}
	return true;
}

static void round_note(const struct baseline_fit *f, const struct baseline_opts *o)
{
	if (!o->note)
		return;
	GString *s = g_string_new(NULL);
	g_string_append_printf(s, "fit: round %d:", f->rounds);
	for (guint t = 0; t < f->targets->len; t++) {
		const struct baseline_target *x = f->targets->pdata[t];
		g_string_append_printf(s, "%s %s %.0f ns: %.4g of %.4g ns/s", t ? ";" : "",
				       (const char *)x->classes->pdata[0], x->extra_ns, x->model,
				       x->measured);
	}
	if (f->time) {
		char at[32];
		g_snprintf(at, sizeof at, "%.3f of their ranges", f->time->t);
		g_string_append_printf(s, "%s private constants at %s: %.4g of %.4g CPUs in sys",
				       f->targets->len ? ";" : "",
				       isnan(f->time->t) ? "the scenario's values" : at,
				       f->time->model, f->time->measured);
	}
	o->note(s->str);
	g_string_free(s, TRUE);
}

struct baseline_fit *baseline_fit_run(const struct scenario_measured *measured, const char *variant,
				      const struct baseline_opts *o, GError **err)
{
	struct baseline_fit *f = g_new0(struct baseline_fit, 1);
	f->variant = g_strdup(variant);
	f->measured = measured;
	f->targets = g_ptr_array_new_with_free_func(target_free);
	f->unmatched = g_ptr_array_new();
	while (f->rounds < o->rounds) {
		json_t *v = fit_round(f, o, err);
		if (!v) {
			baseline_fit_free(f);
			return NULL;
		}
		f->rounds++;
		if (f->rounds == 1)
			targets_make(f, v);
		json_decref(f->last);
		f->last = v;
		for (guint t = 0; t < f->targets->len; t++) {
			struct baseline_target *x = f->targets->pdata[t];
			double w = target_wait(f, x, v, &x->model_contentions);
			if (f->rounds == 1)
				x->model0 = w;
			x->extra_ns = x->next_ns; /* what this round ran */
			if (!x->at_bound || baseline_bound_left(x, w, o))
				baseline_target_step(x, w, target_hold(x, v), o);
			else
				x->model = w;
		}
		if (f->time) {
			f->time->t = f->time->next_t; /* what this round ran */
			baseline_time_step(f->time, baseline_model_cpus(v, "sys"), o->tolerance);
		}
		round_note(f, o);
		if (all_settled(f))
			break;
	}
	f->converged = all_settled(f) && !any_closed(f); /* each within its tolerance, or bound */
	return f;
}

void baseline_fit_free(struct baseline_fit *f)
{
	if (!f)
		return;
	g_free(f->variant);
	g_ptr_array_free(f->targets, TRUE);
	g_ptr_array_free(f->unmatched, TRUE);
	g_free(f->time);
	json_decref(f->last);
	g_free(f);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* The fit shown (baseline.h): beside the measurement, as text, and as the
 * result's "fit" member. */
#include "baseline.h"
#include "lockstat.h"
#include <math.h>

/* @x's classes, "A, B" (into @out). */
static void classes_text(GString *out, const struct baseline_target *x)
{
	for (guint i = 0; i < x->classes->len; i++)
		g_string_append_printf(out, "%s%s", i ? ", " : "",
				       (const char *)x->classes->pdata[i]);
}

static const char *target_state(const struct baseline_target *x)
{
	return x->closed     ? "no closer: its wait jumps across the measured there"
	       : x->done     ? "fitted"
	       : x->at_bound ? "at its bound"
			     : "not converged";
}

/* time(1) beside the model, as CPUs busy on average: what the fit did not
 * fit (user, and sys when no private constant has a range). */
static void time_text(const struct baseline_fit *f, GString *out)
{
	const struct scenario_time *tm = f->measured->time;
	if (!tm || !(tm->real_s > 0))
		return;
	const char *cats[] = {"sys", "user"};
	double measured[] = {f->time ? NAN : tm->sys_s, tm->user_s}; /* sys: fitted above */
	GString *line = g_string_new(NULL);
	for (size_t i = 0; i < G_N_ELEMENTS(cats); i++)
		if (!isnan(measured[i]))
			g_string_append_printf(
			    line, "%s %s %.2f measured, %.2f model", line->len ? ";" : "", cats[i],
			    measured[i] / tm->real_s, baseline_model_cpus(f->last, cats[i]));
	if (line->len)
		g_string_append_printf(out, "\ntime(1), as CPUs busy on average (not fitted):%s.\n",
				       line->str);
	g_string_free(line, TRUE);
}

void baseline_fit_text(const struct baseline_fit *f, GString *out)
{
	const struct scenario_measured *m = f->measured;
	char *what = m->locks ? g_strdup_printf("%s over %g s%s", lockstat_source_name(m->locks),
						m->seconds, m->time ? ", and time(1)" : "")
			      : g_strdup("time(1)");
	g_string_append_printf(out, "Fit of variant %s to its measurement (%s): %d %s, %s\n",
			       f->variant, what, f->rounds, f->rounds == 1 ? "run" : "runs",
			       f->converged ? "every class settled" : "not every class settled");
	g_free(what);
	g_string_append_printf(out, "Measured: %s\n", m->source);
	if (f->targets->len)
		g_string_append_printf(out, "\n%-30s %12s %12s %12s %11s\n",
				       "class (wait: CPUs waiting)", "measured", "model, +0",
				       "model, fit", "hold added");
	for (guint t = 0; t < f->targets->len; t++) {
		const struct baseline_target *x = f->targets->pdata[t];
		GString *name = g_string_new(NULL);
		classes_text(name, x);
		g_string_append_printf(out, "%-30s %12.4f %12.4f %12.4f %8.1f ns  %s\n", name->str,
				       x->measured * 1e-9, x->model0 * 1e-9, x->model * 1e-9,
				       x->extra_ns, target_state(x));
		g_string_free(name, TRUE);
		g_string_append_printf(
		    out, "  contentions a second: %.0f measured, %.0f model fitted; wait each",
		    x->measured_contentions, x->model_contentions);
		if (x->measured_contentions > 0 && x->model_contentions > 0)
			g_string_append_printf(out, " %.2f us measured, %.2f us model\n",
					       x->measured / x->measured_contentions * 1e-3,
					       x->model / x->model_contentions * 1e-3);
		else
			g_string_append(out, " -\n");
		g_string_append(out, "  measured as:");
		for (guint r = 0; r < x->rows->len; r++)
			g_string_append_printf(
			    out, "%s %s", r ? "," : "",
			    ((const struct lockstat_class *)x->rows->pdata[r])->name);
		g_string_append_c(out, '\n');
	}
	if (f->unmatched->len) {
		g_string_append(out, "Measured, not in the model (unexplained, CPUs waiting):");
		for (guint r = 0; r < f->unmatched->len; r++) {
			const struct lockstat_class *c = f->unmatched->pdata[r];
			g_string_append_printf(out, "%s %s %.4f", r ? "," : "", c->name,
					       c->wait_total / m->seconds * 1e-9);
		}
		g_string_append_c(out, '\n');
	}
	if (f->time)
		baseline_time_text(f->time, out);
	time_text(f, out);
	char **sets = baseline_fit_sets(f);
	g_string_append(out, "\nThe fit, as overrides:");
	for (char **s = sets; *s; s++)
		g_string_append_printf(out, " --set '%s'", *s);
	if (!*sets)
		g_string_append(out, " none");
	g_string_append_c(out, '\n');
	g_strfreev(sets);
}

json_t *baseline_fit_json(const struct baseline_fit *f)
{
	json_t *classes = json_array(), *unmatched = json_array();
	for (guint t = 0; t < f->targets->len; t++) {
		const struct baseline_target *x = f->targets->pdata[t];
		json_t *names = json_array(), *rows = json_array();
		for (guint i = 0; i < x->classes->len; i++)
			json_array_append_new(names, json_string(x->classes->pdata[i]));
		for (guint r = 0; r < x->rows->len; r++)
			json_array_append_new(
			    rows,
			    json_string(((const struct lockstat_class *)x->rows->pdata[r])->name));
		json_array_append_new(
		    classes,
		    json_pack("{s:o, s:o, s:f, s:f, s:f, s:f, s:f, s:f, s:s}", "classes", names,
			      "measured_as", rows, "measured_wait_ns_per_s", x->measured,
			      "model_wait_ns_per_s_unfitted", x->model0, "model_wait_ns_per_s",
			      x->model, "measured_contentions_per_s", x->measured_contentions,
			      "model_contentions_per_s", x->model_contentions, "extra_ns",
			      x->extra_ns, "state", target_state(x)));
	}
	for (guint r = 0; r < f->unmatched->len; r++) {
		const struct lockstat_class *c = f->unmatched->pdata[r];
		json_array_append_new(unmatched, json_pack("{s:s, s:f}", "measured_as", c->name,
							   "measured_wait_ns_per_s",
							   c->wait_total / f->measured->seconds));
	}
	char **sets = baseline_fit_sets(f);
	json_t *set = json_array();
	for (char **s = sets; *s; s++)
		json_array_append_new(set, json_string(*s));
	g_strfreev(sets);
	json_t *o = json_pack("{s:s, s:s, s:i, s:b, s:o, s:o, s:o}", "variant", f->variant,
			      "source", f->measured->source, "rounds", f->rounds, "converged",
			      f->converged, "set", set, "classes", classes, "unmatched", unmatched);
	if (f->measured->locks) {
		json_object_set_new(o, "locks", json_string(f->measured->locks_path));
		json_object_set_new(o, "seconds", json_real(f->measured->seconds));
	}
	if (f->time)
		json_object_set_new(o, "time", baseline_time_json(f->time));
	return o;
}

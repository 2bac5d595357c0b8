// SPDX-License-Identifier: GPL-2.0-or-later
/* The private constants fitted to time(1)'s sys (baseline.h): the fitted
 * variant's flat sys costs with both bounds of their private work, moved
 * together through their ranges by one position t. */
#include "baseline.h"
#include "cost.h"
#include "mcs_json.h"
#include "result_keys.h"
#include "runner.h"
#include <math.h>

double baseline_model_cpus(json_t *variant, const char *what)
{
	static const char *const sys[] = {"sys", "spin", "irq", "unexplained", NULL};
	static const char *const user[] = {"user", NULL};
	json_t *cpu = json_object_get(variant, RK_cpu_time_ns);
	double t = mcs_json_num(variant, RK_sim_time_ns), busy = 0;
	for (const char *const *c = g_str_equal(what, "sys") ? sys : user; *c; c++)
		busy += mcs_json_num(cpu, *c);
	return t > 0 ? busy / t : NAN;
}

struct baseline_time *baseline_time_new(const struct scenario_time *tm,
					const struct scenario_variant *fitted)
{
	if (!tm || !(tm->real_s > 0) || isnan(tm->sys_s))
		return NULL;
	const struct sim_machine *m = &fitted->config->machine;
	struct baseline_time *x = g_new0(struct baseline_time, 1);
	for (int i = 0; i < COST_N; i++)
		if (!cost_charged_as_user(i) && m->cost_private_lo[i] >= 0 &&
		    m->cost_private[i] > m->cost_private_lo[i]) {
			x->ids[x->n] = i;
			x->lo_ns[x->n] = sim_to_ns(m->cost_private_lo[i]);
			x->hi_ns[x->n++] = sim_to_ns(m->cost_private[i]);
		}
	if (!x->n) {
		g_free(x);
		return NULL;
	}
	x->measured = tm->sys_s / tm->real_s;
	x->t = x->next_t = NAN; /* the first round runs the scenario's values */
	x->lo = 0;
	x->hi = 1;
	x->w_lo = x->w_hi = -1;
	return x;
}

void baseline_time_step(struct baseline_time *x, double cpus, double tolerance)
{
	x->model = cpus;
	if (isnan(x->t)) { /* the scenario's own values: the first to try is mid-range */
		x->model0 = cpus;
		x->next_t = 0.5;
		return;
	}
	x->next_t = x->t; /* settled: the rounds left keep it */
	x->closed = false;
	x->done = fabs(cpus - x->measured) <= tolerance * x->measured;
	if (x->done)
		return;
	if (cpus < x->measured) {
		x->lo = x->t;
		x->w_lo = cpus;
	} else {
		x->hi = x->t;
		x->w_hi = cpus;
	}
	if ((cpus < x->measured && x->t >= 1) || (cpus > x->measured && x->t <= 0)) {
		x->at_bound = true; /* the rest is unexplained */
		return;
	}
	if (x->w_hi < 0) /* nothing over yet: try the top */
		x->next_t = 1;
	else if (x->w_lo < 0) /* nothing under yet: the bottom */
		x->next_t = 0;
	else if (x->hi - x->lo < 1e-3)
		x->done = x->closed = true; /* the bracket closed: as near as it gets */
	else {
		double s = 0.5; /* between: a straight line */
		if (x->w_hi > x->w_lo)
			s = (x->measured - x->w_lo) / (x->w_hi - x->w_lo);
		x->next_t = x->lo + CLAMP(s, 0.1, 0.9) * (x->hi - x->lo);
	}
}

static double constant_at(const struct baseline_time *x, int k, double t)
{
	return round((x->lo_ns[k] + t * (x->hi_ns[k] - x->lo_ns[k])) * 1000) / 1000;
}

void baseline_time_sets(const struct baseline_time *x, bool next, GPtrArray *sets)
{
	double t = next ? x->next_t : x->t;
	if (isnan(t))
		return;
	for (int k = 0; k < x->n; k++)
		g_ptr_array_add(sets,
				g_strdup_printf("machine.costs.%s=%.12g", cost_table[x->ids[k]].key,
						constant_at(x, k, t)));
}

static const char *time_state(const struct baseline_time *x)
{
	return x->closed     ? "no closer: its sys jumps across the measured there"
	       : x->done     ? "fitted"
	       : x->at_bound ? "at its bound"
			     : "not converged";
}

void baseline_time_text(const struct baseline_time *x, GString *out)
{
	g_string_append_printf(
	    out,
	    "\ntime(1)'s sys, as CPUs busy on average: %.2f measured, %.2f model "
	    "as given, %.2f model fitted (%s)\n",
	    x->measured, x->model0, x->model, time_state(x));
	if (isnan(x->t)) {
		g_string_append(out, "  private constants not moved: one round only\n");
		return;
	}
	g_string_append_printf(out, "  private constants at %.3f of their ranges:", x->t);
	for (int k = 0; k < x->n; k++)
		g_string_append_printf(out, "%s %s %.1f ns [%.1f, %.1f]", k ? "," : "",
				       cost_table[x->ids[k]].key, constant_at(x, k, x->t),
				       x->lo_ns[k], x->hi_ns[k]);
	g_string_append_c(out, '\n');
	if (x->at_bound && x->model < x->measured)
		g_string_append_printf(out,
				       "  unexplained: %.2f CPUs of sys the constants' ranges "
				       "do not reach\n",
				       x->measured - x->model);
	else if (x->at_bound)
		g_string_append_printf(out,
				       "  the model's sys exceeds the measured by %.2f CPUs with "
				       "every constant at its low bound\n",
				       x->model - x->measured);
}

json_t *baseline_time_json(const struct baseline_time *x)
{
	json_t *constants = json_array();
	for (int k = 0; k < x->n && !isnan(x->t); k++)
		json_array_append_new(constants, json_pack("{s:s, s:f, s:f, s:f}", "key",
							   cost_table[x->ids[k]].key, "lo_ns",
							   x->lo_ns[k], "hi_ns", x->hi_ns[k], "ns",
							   constant_at(x, k, x->t)));
	return json_pack("{s:f, s:f, s:f, s:o, s:o, s:s}", "measured_sys_cpus", x->measured,
			 "model_sys_cpus_unfitted", x->model0, "model_sys_cpus", x->model,
			 "position", isnan(x->t) ? json_null() : json_real(x->t), "constants",
			 constants, "state", time_state(x));
}

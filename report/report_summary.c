// SPDX-License-Identifier: GPL-2.0-or-later
/* The start of a variant's section: its title, the summary (simulated time,
 * CPU time by category, the metrics, the replicas that failed), lockdep's
 * reports and the first replica's details. */
#include "mcs_json.h"
#include "report_sections.h"
#include "report_util.h"
#include "result_keys.h"
#include "sim_engine.h"
#include <limits.h>
#include <stdlib.h>

/* "variant NAME (5 replicas)", "variant NAME (1 replica, 20 cost draws)" */
char *report_variant_title(json_t *v)
{
	int replicas = (int)json_integer_value(json_object_get(v, "replicas"));
	size_t draws = json_array_size(json_object_get(v, RK_draws));
	GString *t = g_string_new(NULL);
	g_string_printf(t, "variant %s (%d replica%s",
			json_string_value(json_object_get(v, "name")), replicas,
			replicas == 1 ? "" : "s");
	if (draws)
		g_string_append_printf(t, ", %zu cost draw%s", draws, draws == 1 ? "" : "s");
	const char *role = json_string_value(json_object_get(v, RK_fit_role));
	if (role)
		g_string_append_printf(t, ", %s",
				       g_str_equal(role, "fitted") ? "fitted to its measurement"
								   : "a prediction from the fit");
	g_string_append_c(t, ')');
	return g_string_free(t, FALSE);
}

static void cpu_time(json_t *v, GString *out)
{
	json_t *cpu = json_object_get(v, RK_cpu_time_ns);
	g_string_append(out, "CPU time (ms)");
	for (int c = 0; c < SIM_CAT_N; c++)
		g_string_append_printf(out, " %12s", sim_cat_names[c]);
	g_string_append(out, "\n             ");
	for (int c = 0; c < SIM_CAT_N; c++)
		g_string_append_printf(out, " %12.3f", mcs_json_num(cpu, sim_cat_names[c]) / 1e6);
	g_string_append(out, "\n");
}

static void metrics(json_t *v, GString *out)
{
	const char *k;
	json_t *m;
	g_string_append(out, "Metrics");
	json_object_foreach (json_object_get(v, RK_metrics), k, m)
		g_string_append_printf(out, "  %s=%.6g", k, json_number_value(m));
	g_string_append(out, "\n");
}

/* The replicas that failed, and why (their "failure"). */
static void failures(json_t *v, GString *out)
{
	size_t i;
	json_t *r;
	json_array_foreach (json_object_get(v, RK_per_replica), i, r) {
		const char *why = json_string_value(json_object_get(r, "failure"));
		if (why)
			g_string_append_printf(
			    out, "FAILED: replica %zu (seed %lld): %s\n", i,
			    (long long)json_integer_value(json_object_get(r, "seed")), why);
	}
}

/* The tasks the scheduler moved (machine.migration), over the replicas;
 * nothing when none moved. */
static void migrations(json_t *v, GString *out)
{
	size_t i, n = 0;
	json_t *r;
	long long moved = 0;
	json_array_foreach (json_object_get(v, RK_per_replica), i, r) {
		json_t *m = json_object_get(r, "migrations");
		long long x = json_is_integer(m) ? (long long)json_integer_value(m) : 0;
		if (x > 0)
			moved = x > LLONG_MAX - moved ? LLONG_MAX : moved + x;
		n++;
	}
	if (moved > 0)
		g_string_append_printf(out, "Tasks moved between CPUs: %lld in %zu replica%s\n",
				       moved, n, n == 1 ? "" : "s");
}

void report_summary(json_t *v, GString *out)
{
	json_t *first = json_array_get(json_object_get(v, RK_per_replica), 0);
	int replicas = (int)json_integer_value(json_object_get(v, "replicas"));
	g_string_append(out, "Simulated elapsed: ");
	report_time(out, mcs_json_num(v, RK_sim_time_ns), 0);
	g_string_append_printf(out, " on %lld CPUs%s\n",
			       (long long)json_integer_value(json_object_get(first, "cpus")),
			       replicas > 1 ? " (mean of replicas)" : "");
	cpu_time(v, out);
	metrics(v, out);
	migrations(v, out);
	failures(v, out);
	g_string_append(out, "\n");
}

void report_lockdep(json_t *v, GString *out)
{
	size_t i;
	json_t *splat;
	json_array_foreach (json_object_get(v, "lockdep"), i, splat)
		g_string_append_printf(out, "%s\n", json_string_value(splat));
}

void report_details(json_t *v, GString *out)
{
	json_t *first = json_array_get(json_object_get(v, RK_per_replica), 0);
	const char *k;
	json_t *d;
	json_object_foreach (json_object_get(first, "details"), k, d) {
		char *text = json_dumps(d, JSON_COMPACT | JSON_ENCODE_ANY); /* a string too */
		g_string_append_printf(out, "%s (first replica): %s\n", k, text);
		free(text);
	}
}

#include "change.h"
#include "report_sections.h"
#include "report_util.h"
#include "sim_engine.h"
#include "version.h"
#include <stdlib.h>

static void report_cpu_time(json_t *v, GString *out)
{
	json_t *cpu = json_object_get(v, "cpu_time_ns");
	g_string_append(out, "CPU time (ms)");
	for (int c = 0; c < SIM_CAT_N; c++)
		g_string_append_printf(out, " %12s", sim_cat_names[c]);
	g_string_append(out, "\n             ");
	for (int c = 0; c < SIM_CAT_N; c++)
		g_string_append_printf(
			out, " %12.3f",
			json_number_value(json_object_get(cpu, sim_cat_names[c])) / 1e6);
	g_string_append(out, "\n");
}

static void report_metrics(json_t *v, GString *out)
{
	const char *k;
	json_t *m;
	g_string_append(out, "Metrics");
	json_object_foreach (json_object_get(v, "metrics"), k, m)
		g_string_append_printf(out, "  %s=%.6g", k, json_number_value(m));
	g_string_append(out, "\n");
}

/* The replicas that failed, and why (their "failure"). */
static void report_failures(json_t *v, GString *out)
{
	size_t i;
	json_t *r;
	json_array_foreach (json_object_get(v, "per_replica"), i, r) {
		const char *why = json_string_value(json_object_get(r, "failure"));
		if (why)
			g_string_append_printf(out, "FAILED: replica %zu (seed %lld): %s\n", i,
					       (long long)json_integer_value(json_object_get(r, "seed")),
					       why);
	}
}

static void variant_body(json_t *v, const char *sort, GString *out)
{
	json_t *first = json_array_get(json_object_get(v, "per_replica"), 0);
	int replicas = (int)json_integer_value(json_object_get(v, "replicas"));
	g_string_append(out, "Simulated elapsed: ");
	report_time(out, json_number_value(json_object_get(v, "sim_time_ns")), 0);
	g_string_append_printf(out, " on %lld CPUs%s\n",
			       (long long)json_integer_value(json_object_get(first, "cpus")),
			       replicas > 1 ? " (mean of replicas)" : "");
	report_cpu_time(v, out);
	report_metrics(v, out);
	report_failures(v, out);
	g_string_append(out, "\n");
	size_t k;
	json_t *splat;
	json_array_foreach (json_object_get(v, "lockdep"), k, splat)
		g_string_append_printf(out, "%s\n", json_string_value(splat));
	const char *dk;
	json_t *dv;
	json_object_foreach (json_object_get(first, "details"), dk, dv) {
		char *text = json_dumps(dv, JSON_COMPACT);
		g_string_append_printf(out, "%s (first replica): %s\n", dk, text);
		free(text);
	}
	report_irq(v, out);
	report_rcu(v, out);
	report_memcg(v, out);
	report_lock_stat(json_object_get(v, "locks"), out);
	report_perf_lock(json_object_get(v, "locks"), sort, out);
	if (json_object_get(v, "cachelines"))
		g_string_append(out, "\n");
	report_cachelines(v, out);
}

/* "variant NAME (5 replicas)", "variant NAME (1 replica, 20 cost draws)" */
static char *variant_title(json_t *v)
{
	int replicas = (int)json_integer_value(json_object_get(v, "replicas"));
	size_t draws = json_array_size(json_object_get(v, "draws"));
	GString *t = g_string_new(NULL);
	g_string_printf(t, "variant %s (%d replica%s", json_string_value(json_object_get(v, "name")),
			replicas, replicas == 1 ? "" : "s");
	if (draws)
		g_string_append_printf(t, ", %zu cost draw%s", draws, draws == 1 ? "" : "s");
	g_string_append_c(t, ')');
	return g_string_free(t, FALSE);
}

/* The comparison of the variants; with cost draws, their changes table. */
static void comparison_sections(json_t *variants, GPtrArray *sections)
{
	size_t draws = change_draws(variants);
	char *title = report_comparison_title(variants);
	report_comparison(variants, report_section_add(sections, title)->body);
	if (draws) {
		char *t = g_strdup_printf("changes against %s, across seeds and %zu cost draws",
					  json_string_value(json_object_get(
						  json_array_get(variants, 0), "name")),
					  draws);
		report_changes(variants, report_section_add(sections, t)->body);
		g_free(t);
	}
	g_free(title);
	/* the report's last line */
	report_verdict(variants, report_section_add(sections, "verdict")->body);
}

GPtrArray *report_sections(json_t *result, const char *sort)
{
	GPtrArray *sections = report_sections_new();
	json_t *variants = json_object_get(result, "variants");
	char *head = g_strdup_printf("memcgsim %s: scenario \"%s\", seed %lld", MEMCGSIM_VERSION,
				     json_string_value(json_object_get(result, "scenario")),
				     (long long)json_integer_value(json_object_get(result, "seed")));
	report_about(result, report_section_add(sections, head)->body);
	g_free(head);
	size_t i;
	json_t *v;
	json_array_foreach (variants, i, v) {
		char *title = variant_title(v);
		variant_body(v, sort, report_section_add(sections, title)->body);
		g_free(title);
	}
	if (json_array_size(variants) >= 2)
		comparison_sections(variants, sections);
	return sections;
}

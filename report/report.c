// SPDX-License-Identifier: GPL-2.0-or-later
/* A result's report: the sections of report_section_types[], walked in
 * order: the head once, a variant's sections for each variant, and with two
 * variants or more the comparison's. A section is its file's render (and
 * title) function and one row here (report_sections.h). */
#include "report.h"
#include "mcs_error.h"
#include "report_sections.h"
#include "report_util.h"
#include "result_format.h"
#include "result_keys.h"
#include "version.h"

/* "memcgsim VERSION: scenario "NAME", seed N" */
static char *head_title(json_t *result)
{
	return g_strdup_printf("memcgsim %s: scenario \"%s\", seed %lld", MEMCGSIM_VERSION,
			       json_string_value(json_object_get(result, "scenario")),
			       (long long)json_integer_value(json_object_get(result, "seed")));
}

/* The sections, in report order. */
static const struct report_section_type report_section_types[] = {
    {MCS_NAME("head", "the scenario and seed; the result's description and the command "
		      "that made it"),
     head_title, report_head_about, .scope = REPORT_HEAD, .sweep = report_sweep_head,
     .compare = report_compare_head, .summary = report_brief_head,
     .summary_sweep = report_brief_sweep_head},
    {MCS_NAME("summary", "simulated time and CPUs, CPU time by category, the metrics, the "
			 "replicas that failed"),
     report_variant_title, report_summary, .scope = REPORT_VARIANT, .sweep = report_sweep_metrics,
     .summary = report_brief_figures},
    {MCS_NAME("lockdep", "lockdep's reports"), NULL, report_lockdep, .scope = REPORT_VARIANT},
    {MCS_NAME("details", "the first replica's details"), NULL, report_details,
     .scope = REPORT_VARIANT},
    {MCS_NAME("irq", "interrupt latency by source and CPU; interrupts off by lock class"), NULL,
     report_irq, .scope = REPORT_VARIANT},
    {MCS_NAME("rcu", "RCU grace periods, call to return"), NULL, report_rcu,
     .scope = REPORT_VARIANT},
    {MCS_NAME("memcg", "page_cgroup, the page LRU, reclaim, list_lru, shrinkers, swap, per "
		       "cgroup"),
     NULL, report_memcg, .scope = REPORT_VARIANT},
    {MCS_NAME("lock_stat", "/proc/lock_stat"), NULL, report_lock_stat, .member = RK_locks,
     .scope = REPORT_VARIANT, .summary = report_brief_locks},
    {MCS_NAME("perf_lock", "perf lock contention, in --sort order"), NULL,
     .render_opts = report_perf_lock, .member = RK_locks, .scope = REPORT_VARIANT},
    {MCS_NAME(RK_cachelines, "perf c2c: the line classes with the most transfers"), NULL,
     report_cachelines, .scope = REPORT_VARIANT, .sweep = report_sweep_lines,
     .summary = report_brief_lines},
    {MCS_NAME("per_page", "where a swapped page's time goes: each lock and kernel function, "
			  "per page swapped out"),
     NULL, report_per_page, .scope = REPORT_VARIANT},
    {MCS_NAME("comparison", "the mmtests comparison of the variants and their durations"),
     report_comparison_title, .render_opts = report_comparison, .scope = REPORT_COMPARISON,
     .html_first = 3, .sweep = report_sweep_points, .compare = report_compare_variants},
    {MCS_NAME("changes", "with cost draws, each variant's change with its intervals and "
			 "verdict"),
     report_changes_title, .render_opts = report_changes, .scope = REPORT_COMPARISON},
    {MCS_NAME("moved", "compare --change: a change between variants, and how far it moved"),
     .compare = report_compare_moved},
    {MCS_NAME("only_in", "compare: the variants in one of the two results only"),
     .compare = report_compare_only_in},
    {MCS_NAME("measured", "with --lock-stat: the machine's lock statistics beside the model's"),
     report_measured_title, .render_opts = report_measured_section, .scope = REPORT_VARIANTS,
     .measured = true, .summary = report_brief_measured},
    {MCS_NAME("verdict", "the report's last line but the comparisons asked: the winner on "
			 "the main figure"),
     report_verdict_title, .render_opts = report_verdict, .scope = REPORT_COMPARISON,
     .html_first = 2, .sweep = report_sweep_verdicts, .compare = report_compare_verdicts,
     .summary_sweep = report_brief_sweep_verdicts},
    {MCS_NAME("asked", "the comparisons the scenario exists for (its comparisons), each with "
		       "its verdict and interval"),
     report_asked_title, .render_opts = report_asked, .scope = REPORT_END, .html_first = 1,
     .summary = report_brief_asked},
    {MCS_NAME("more", "the summary's last line: where the rest is"), .summary = report_brief_more,
     .summary_sweep = report_brief_sweep_more},
};

/* Where @t's body goes: a new section, or the last one when @t has no
 * title for @of (the head always has one). */
static GString *section_body(const struct report_section_type *t, json_t *of, GPtrArray *sections)
{
	char *title = t->title ? t->title(of) : NULL;
	if (!title) {
		const struct report_section *last = g_ptr_array_index(sections, sections->len - 1);
		return last->body;
	}
	struct report_section *s = report_section_add(sections, title);
	s->html_first = t->html_first;
	g_free(title);
	return s->body;
}

/* Does row @t come in this report, for a scope of @scope? The comparison's
 * rows with two variants or more; the measured ones with --lock-stat. */
static bool section_comes(const struct report_section_type *t, enum report_scope scope,
			  size_t nvariants, const struct report_opts *o)
{
	if ((t->measured && !o->measured) || (!t->render && !t->render_opts))
		return false;
	if (scope == REPORT_VARIANTS)
		return t->scope == REPORT_VARIANTS ||
		       (t->scope == REPORT_COMPARISON && nvariants >= 2);
	if (scope == REPORT_END)
		return t->scope == REPORT_END && nvariants >= 2;
	return t->scope == scope;
}

/* The sections of @scope, of @of (the result, a variant or the variants),
 * in the table's order. */
static void render_scope(enum report_scope scope, json_t *of, size_t nvariants,
			 const struct report_opts *o, GPtrArray *sections)
{
	for (size_t i = 0; i < G_N_ELEMENTS(report_section_types); i++) {
		const struct report_section_type *t = &report_section_types[i];
		if (!section_comes(t, scope, nvariants, o))
			continue;
		GString *out = section_body(t, of, sections);
		json_t *part = t->member ? json_object_get(of, t->member) : of;
		if (t->render_opts)
			t->render_opts(part, o, out);
		else
			t->render(part, out);
	}
}

GPtrArray *report_sections(json_t *result, const struct report_opts *o)
{
	GPtrArray *sections = report_sections_new();
	json_t *variants = json_object_get(result, RK_variants);
	size_t n = json_array_size(variants);
	render_scope(REPORT_HEAD, result, n, o, sections);
	size_t i;
	json_t *v;
	json_array_foreach (variants, i, v)
		render_scope(REPORT_VARIANT, v, n, o, sections);
	render_scope(REPORT_VARIANTS, variants, n, o, sections); /* and the comparison's */
	render_scope(REPORT_END, result, n, o, sections);
	return sections;
}

GPtrArray *report_sweep_sections(json_t *sweep, const struct report_opts *o)
{
	GPtrArray *sections = report_sections_new();
	for (size_t i = 0; i < G_N_ELEMENTS(report_section_types); i++)
		if (report_section_types[i].sweep)
			report_section_types[i].sweep(sweep, o, sections);
	return sections;
}

GPtrArray *report_compare_results(json_t *a, const char *la, json_t *b, const char *lb,
				  const char *from, const char *to, const struct report_opts *o)
{
	const struct report_pair p = {a, b, la, lb, from, to};
	GPtrArray *sections = report_sections_new();
	for (size_t i = 0; i < G_N_ELEMENTS(report_section_types); i++)
		if (report_section_types[i].compare)
			report_section_types[i].compare(&p, o, sections);
	return sections;
}

void report_brief(json_t *doc, const struct report_opts *o, GString *out)
{
	GString *raw = g_string_new(NULL);
	bool sweep = result_is_sweep(doc);
	struct report_brief b;
	if (!sweep)
		report_brief_context(doc, o, &b);
	for (size_t i = 0; i < G_N_ELEMENTS(report_section_types); i++) {
		const struct report_section_type *t = &report_section_types[i];
		if (t->measured && !(o && o->measured))
			continue;
		if (sweep && t->summary_sweep)
			t->summary_sweep(doc, o, raw);
		else if (!sweep && t->summary)
			t->summary(&b, raw);
	}
	mcs_text_printable_append(out, raw->str, raw->len); /* the strings are a file's */
	g_string_free(raw, TRUE);
}

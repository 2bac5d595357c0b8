/* report: what `memcgsim run` prints and `memcgsim report` renders, for a
 * result (docs/results.md) or a sweep's result (docs/sweeps.md).
 *
 * A report is a list of titled sections of fixed-width text (the tables
 * reviewers know: mmtests comparisons, lock_stat, perf lock contention,
 * perf c2c's cache lines),
 * rendered as plain text or Markdown (both paste into an email) or as one
 * self-contained HTML file with the plots inline; JSON is the result itself,
 * CSV its long form (one row per run and metric). */
#pragma once
#include <glib.h>
#include <jansson.h>
#include <stdbool.h>

/* A --format: one row of the table in report_formats.c. A format renders
 * the report's sections (text, md, html) or the document itself (json,
 * csv). */
struct report_format {
	const char *name;
	void (*sections)(GPtrArray *sections, GPtrArray *plots, GString *out);
	void (*document)(json_t *doc, GString *out);
	bool needs_plots; /* made in a temporary directory when --plots is not given */
};

struct report_opts {
	const struct report_format *format;
	const char *sort;  /* perf lock contention order: contended, wait_total, wait_max, wait_avg */
	const char *plots; /* where the plots go (NULL: none, except HTML: a temporary directory) */
};

/* The format named @name (a --format value); NULL for an unknown one. */
const struct report_format *report_format_find(const char *name);
/* "text, md, html, json or csv", for messages; g_free it. */
char *report_format_names(void);
/* Is @s a --sort value? */
bool report_sort_valid(const char *s);
/* Render @doc (a result or a sweep result) into @out. */
bool report_render(json_t *doc, const struct report_opts *o, GString *out, GError **err);
/* The plain-text report of a result, as `memcgsim run` prints it. */
void report_text(json_t *result, GString *out);

/* The sections of a result (report.c) and of a sweep (report_sweep.c);
 * free with g_ptr_array_free(a, TRUE). */
GPtrArray *report_sections(json_t *result, const char *sort);
GPtrArray *report_sweep_sections(json_t *sweep);

/* report_locks.c: nothing without locks; the perf lock contention table,
 * after a blank line, only when some lock was contended */
void report_lock_stat(json_t *locks, GString *out);
void report_perf_lock(json_t *locks, const char *sort, GString *out);
/* report_irq.c */
void report_irq(json_t *variant, GString *out);
void report_rcu(json_t *variant, GString *out);
/* report_memcg.c */
void report_memcg(json_t *variant, GString *out);
/* report_cachelines.c: a variant's cache-line table (nothing when its result
 * has no "cachelines"); a sweep's section of each point's top classes, with
 * point labels @label_w wide (none when no point has cache lines) */
void report_cachelines(json_t *variant, GString *out);
void report_sweep_cachelines(json_t *points, int label_w, GPtrArray *sections);
/* report_compare.c */
void report_compare(json_t *variants, GString *out);
void report_duration(json_t *variants, GString *out);
/* report_changes.c: for results with cost draws, each variant's change in
 * each metric with its intervals across seeds and cost draws and what they
 * make of it, under a legend (nothing without draws) */
void report_changes(json_t *variants, GString *out);
/* @text wrapped at @width columns, each line indented by @indent. */
void report_wrapped(GString *out, const char *text, int width, int indent);
/* report_verdict.c: one line: which variant wins on the main figure, by how
 * much, and whether that is significant */
void report_verdict(json_t *variants, GString *out);
/* report_results.c: `memcgsim compare`: results @a and @b (labelled @la and
 * @lb), variant by variant with @a as the baseline; the sections end with
 * one verdict line a variant both have. */
GPtrArray *report_compare_results(json_t *a, const char *la, json_t *b, const char *lb);
/* report_formats.c: the sections as text (@plots unused) */
void report_format_text(GPtrArray *sections, GPtrArray *plots, GString *out);
void report_csv(json_t *doc, GString *out);

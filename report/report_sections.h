/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report_sections: the sections of the reports, shared by the files that
 * render them and the assemblers that put them together: a result's report
 * (report.c, from its table of sections), a sweep's (report_sweep.c) and two
 * results compared (report_results.c); report_formats.c renders what they
 * assemble. The helpers every section uses are report_util.h's.
 *
 * A section of a result's report is a render function (and, when it starts
 * a section of its own, a title function) in its own file, declared here,
 * and one row of report_section_types[] in report.c. */
#pragma once
#include "mcs_named.h"
#include <glib.h>
#include <jansson.h>
#include <stdbool.h>

struct report_opts;

/* What a section of a result's report is of, and how often it comes. */
enum report_scope {
	REPORT_HEAD,	   /* once, first: of the result */
	REPORT_VARIANT,	   /* once a variant, in the result's order: of the variant */
	REPORT_COMPARISON, /* once, when there are two variants or more: of the variants */
	REPORT_VARIANTS,   /* once, after the variants' sections: of the variants */
	REPORT_END,	   /* once, last, when there are two variants or more: of the result */
};

/* What compare renders: two results, their labels, and --change's pair of
 * variants (NULL: none). */
struct report_pair {
	json_t *a, *b;
	const char *la, *lb, *from, *to;
};

/* What the summary (--format summary) of a result works from: the result,
 * its variants, the one with the best change (0: none) in the main figure
 * @metric, the options (report_brief_context). */
struct report_brief {
	json_t *result, *variants;
	size_t best;
	const char *metric;
	const struct report_opts *o;
};

/* A section of the reports: one row of the table in report.c. A result's
 * report has it when it has .render or .render_opts; a sweep's report when
 * it has .sweep; compare's when it has .compare; the summary of a result
 * when it has .summary, of a sweep when .summary_sweep; in the table's
 * order. */
struct report_section_type {
	MCS_NAMED;
	/* The title of the section it starts (g_free it); NULL, or no title
	 * function: the body continues the section before. */
	char *(*title)(json_t *of);
	/* The body, into @out: nothing when the result has no figures for it. */
	void (*render)(json_t *of, GString *out);
	/* Instead of .render: a section that also reads the report's options
	 * (--sort, --resolution, --lock-stat). */
	void (*render_opts)(json_t *of, const struct report_opts *o, GString *out);
	/* The member of what it is of (.scope) that it renders; NULL: all. */
	const char *member;
	enum report_scope scope;
	bool measured; /* only with --lock-stat's measurement */
	/* 1, 2 ...: the HTML report opens with its section, in this rank, after
	 * the head and before the contents and the plots; the other formats keep
	 * the table's order (0: the HTML too). */
	int html_first;
	/* A sweep's report: the row's sections for sweep result @sweep. */
	void (*sweep)(json_t *sweep, const struct report_opts *o, GPtrArray *sections);
	/* compare's: the row's sections for the two results of @p. */
	void (*compare)(const struct report_pair *p, const struct report_opts *o,
			GPtrArray *sections);
	/* The summary's: the row's lines, under 78 columns. */
	void (*summary)(const struct report_brief *b, GString *out);
	void (*summary_sweep)(json_t *sweep, const struct report_opts *o, GString *out);
};

/* report_asked.c: the comparisons the scenario exists for, each with its
 * verdict (the full report's section, the summary's lines) */
char *report_asked_title(json_t *result);
void report_asked(json_t *result, const struct report_opts *o, GString *out);
void report_brief_asked(const struct report_brief *b, GString *out);
/* report_standing.c: a run that changed its scenario (--set) and left at 0
 * a figure the scenario exercises, said (nothing else); and the overrides,
 * "A=1, B=2", NULL for the unmodified scenario (g_free it). */
void report_standing(json_t *result, GString *out);
/* A result's head: report_about, then report_standing. */
void report_head_about(json_t *result, GString *out);
char *report_overrides(json_t *result);
/* report_summary.c: a variant's title, its summary (simulated time, CPU
 * time, metrics, failed replicas), lockdep's reports and the first
 * replica's details */
char *report_variant_title(json_t *variant);
void report_summary(json_t *variant, GString *out);
void report_lockdep(json_t *variant, GString *out);
void report_details(json_t *variant, GString *out);
/* report_irq.c */
void report_irq(json_t *variant, GString *out);
void report_rcu(json_t *variant, GString *out);
/* report_memcg.c */
void report_memcg(json_t *variant, GString *out);
/* report_per_page.c: where a swapped page's time goes, per page swapped out
 * (nothing without swap-out) */
void report_per_page(json_t *variant, GString *out);
/* report_locks.c: nothing without locks; the perf lock contention table,
 * after a blank line, only when some lock was contended */
void report_lock_stat(json_t *locks, GString *out);
void report_perf_lock(json_t *locks, const struct report_opts *o, GString *out);
/* report_cachelines.c: a variant's cache-line table after a blank line
 * (nothing when its result has no "cachelines"); a sweep's section of each
 * point's top classes, with point labels @label_w wide (none when no point
 * has cache lines) */
void report_cachelines(json_t *variant, GString *out);
void report_sweep_cachelines(json_t *points, int label_w, GPtrArray *sections);
/* report_compare.c: the mmtests comparison of the variants (when there are
 * two or more), then their durations; its section's title */
char *report_comparison_title(json_t *variants);
void report_comparison(json_t *variants, const struct report_opts *o, GString *out);
/* report_changes.c: for results with cost draws, each variant's change in
 * each metric with its intervals across seeds and cost draws and what they
 * make of it, under a legend (nothing without draws); its section's title
 * (none without draws) */
char *report_changes_title(json_t *variants);
void report_changes(json_t *variants, const struct report_opts *o, GString *out);
/* report_verdict.c: one line: which variant wins on the main figure, by how
 * much, and whether that is significant; its section's title */
char *report_verdict_title(json_t *variants);
void report_verdict(json_t *variants, const struct report_opts *o, GString *out);
/* The verdict's main figure: the first of the baseline's metrics that some
 * variant changes, into *@metric, and the variant (1..) with the best
 * change in it, that change in *@c; 0 (and NULL) when none changes any. */
struct change;
struct change_resolution;
size_t report_main_change(json_t *variants, const struct change_resolution *r, const char **metric,
			  struct change *c);
/* A mean of the comparison's main row (change.h: Hmean for a rate, else
 * Amean), in @metric's unit ("14.45 s", "12.29 /us"). */
void report_mean(GString *out, double mean, const char *metric, const json_t *variant);
/* report_measured.c: the real machine's lock statistics (read from @path)
 * beside each of @variants', class by class: the full report's section, or
 * with @brief the summary's (under 78 columns, the first few classes);
 * report_measured_section: the full report's, from @o's --lock-stat. */
struct lockstat;
void report_measured(json_t *variants, const struct lockstat *ls, const char *path, bool brief,
		     GString *out);
char *report_measured_title(json_t *variants);
void report_measured_section(json_t *variants, const struct report_opts *o, GString *out);
/* --format summary, a report in under 80 columns (report.c, from the
 * table): of a result, the scenario, the variants' main figure with its
 * change and the verdict, the top locks and cache lines of the baseline and
 * the winner, and with @o's --lock-stat the machine's beside them; of a
 * sweep, the verdict of each point. @o: NULL for none. */
void report_brief(json_t *doc, const struct report_opts *o, GString *out);
/* report_brief.c: the rows' parts of it */
void report_brief_context(json_t *result, const struct report_opts *o, struct report_brief *b);
void report_brief_head(const struct report_brief *b, GString *out);
void report_brief_figures(const struct report_brief *b, GString *out);
void report_brief_locks(const struct report_brief *b, GString *out);
void report_brief_lines(const struct report_brief *b, GString *out);
void report_brief_measured(const struct report_brief *b, GString *out);
void report_brief_more(const struct report_brief *b, GString *out);
void report_brief_sweep_head(json_t *sweep, const struct report_opts *o, GString *out);
void report_brief_sweep_verdicts(json_t *sweep, const struct report_opts *o, GString *out);
void report_brief_sweep_more(json_t *sweep, const struct report_opts *o, GString *out);

/* The assemblers: the sections of a result (report.c) and of a sweep
 * (report_sweep.c); free with g_ptr_array_free(a, TRUE). */
GPtrArray *report_sections(json_t *result, const struct report_opts *o);
GPtrArray *report_sweep_sections(json_t *sweep, const struct report_opts *o);

/* report_sweep.c: the rows' parts of a sweep's report: its head, each
 * metric against the points, the cache lines, each point's comparison, the
 * verdicts point by point */
void report_sweep_head(json_t *sweep, const struct report_opts *o, GPtrArray *sections);
void report_sweep_metrics(json_t *sweep, const struct report_opts *o, GPtrArray *sections);
void report_sweep_lines(json_t *sweep, const struct report_opts *o, GPtrArray *sections);
void report_sweep_points(json_t *sweep, const struct report_opts *o, GPtrArray *sections);
void report_sweep_verdicts(json_t *sweep, const struct report_opts *o, GPtrArray *sections);
/* report_results.c: the rows' parts of compare: its head and what the two
 * results were made of, each common variant's comparison, --change's
 * change moved, the variants in one file only, the verdict lines */
void report_compare_head(const struct report_pair *p, const struct report_opts *o,
			 GPtrArray *sections);
void report_compare_variants(const struct report_pair *p, const struct report_opts *o,
			     GPtrArray *sections);
void report_compare_moved(const struct report_pair *p, const struct report_opts *o,
			  GPtrArray *sections);
void report_compare_only_in(const struct report_pair *p, const struct report_opts *o,
			    GPtrArray *sections);
void report_compare_verdicts(const struct report_pair *p, const struct report_opts *o,
			     GPtrArray *sections);

/* report_formats.c: the sections as text (@plots unused); report_csv.c:
 * the document's long form */
void report_format_text(GPtrArray *sections, GPtrArray *plots, GString *out);
void report_csv(json_t *doc, const struct report_opts *o, GString *out);

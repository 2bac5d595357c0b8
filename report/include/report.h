/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report: what `memcgsim run` prints and `memcgsim report` renders, for a
 * result (docs/results.md) or a sweep's result (docs/sweeps.md), and what
 * `memcgsim compare` prints of two results.
 *
 * A report is a list of titled sections of fixed-width text (the tables
 * reviewers know: mmtests comparisons, lock_stat, perf lock contention,
 * perf c2c's cache lines),
 * rendered as plain text or Markdown (both paste into an email) or as one
 * self-contained HTML file with the plots inline; JSON is the result itself,
 * CSV its long form (one row per run and metric). The sections and their
 * helpers are private to report/ (report_sections.h, report_util.h). */
#pragma once
#include "mcs_named.h"
#include <glib.h>
#include <jansson.h>
#include <stdbool.h>

struct report_opts;

/* A --format: one row of the table in report_formats.c. A format renders
 * the report's sections (text, md, html) or the document itself (json,
 * csv). */
struct report_format {
	MCS_NAMED;
	void (*sections)(GPtrArray *sections, GPtrArray *plots, GString *out);
	/* @o: the options (--lock-stat); NULL: none */
	void (*document)(json_t *doc, const struct report_opts *o, GString *out);
	bool needs_plots; /* made in a temporary directory when --plots is not given */
	bool measured;	  /* it shows --lock-stat's machine beside the model */
};

struct lockstat;
struct change_resolution;
struct report_opts {
	const struct report_format *format;
	const char
	    *sort; /* perf lock contention order: contended, wait_total, wait_max, wait_avg */
	const char *plots; /* where the plots go (NULL: none, except HTML: a temporary directory) */
	/* --lock-stat: the real machine's lock statistics (lockstat.h), read
	 * from @measured_path, beside the model's, before the verdict */
	const struct lockstat *measured;
	const char *measured_path;
	/* --resolution: the reader's minimum material change (change.h); NULL:
	 * the model's stated minimum */
	const struct change_resolution *resolution;
};

struct lockstat;
struct lockstat_class;
/* A measured lock class's (or perf lock contention caller's) figures, the
 * machine's or a variant's (report_measured.c). */
struct report_lock_figures {
	double acquisitions, contentions, wait_total, wait_max, hold_total, hold_max; /* ns */
	bool holds;	/* acquisitions and holds known (not perf lock contention's) */
	int matched;	/* the model's classes (contention points, for a caller) it matched */
	double seconds; /* counts shown a second over this long; 0: as counts; NaN: unknown */
};
/* Result variant @variant's figures for the measured class (or caller) @c
 * of @ls: its classes of @c's kernel name added up, or its contention
 * points of @c's caller; the names of the model classes matched appended
 * to @classes (borrowed from @variant; NULL: not wanted): for a caller, the
 * one class with the most of the model's wait there (perf's row is one
 * call of spin_lock, so one lock; 6.12's get_swap_pages takes two). */
void report_measured_match(json_t *variant, const struct lockstat *ls,
			   const struct lockstat_class *c, struct report_lock_figures *f,
			   GPtrArray *classes);

/* The format named @name (a --format value); NULL for an unknown one. */
const struct report_format *report_format_find(const char *name);
/* The format's name closest to @name, when it looks like a typo of one. */
const char *report_format_near(const char *name);
/* The formats' names, "text, md, ... or csv", for messages; g_free it. */
char *report_format_names(void);
/* Is @s a --sort value? */
bool report_sort_valid(const char *s);
/* Render @doc (a result or a sweep result) into @out. */
bool report_render(json_t *doc, const struct report_opts *o, GString *out, GError **err);
/* The plain-text report of a result, as `memcgsim run` prints it (@r:
 * --resolution, NULL: none). */
void report_text(json_t *result, const struct change_resolution *r, GString *out);
/* Its summary, under 80 columns (--format summary). */
void report_summary_text(json_t *result, const struct change_resolution *r, GString *out);
/* `memcgsim compare`: the sections of results @a and @b (labelled @la and
 * @lb): what differs in their making, then variant by variant with @a as
 * the baseline, and with @from and @to (variants both have; NULL: none)
 * the change from @from to @to in each and how far it moved, for a
 * format's .sections; they end with one verdict line a variant both have;
 * @o: the options (--resolution; NULL: none). Free with
 * g_ptr_array_free(a, TRUE). */
GPtrArray *report_compare_results(json_t *a, const char *la, json_t *b, const char *lb,
				  const char *from, const char *to, const struct report_opts *o);
/* @text wrapped at @width columns, each line indented by @indent. */
void report_wrapped(GString *out, const char *text, int width, int indent);

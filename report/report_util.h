/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report_util: what the report's sections share: the sections themselves
 * (a title and a body of fixed-width text), durations in the unit that reads
 * best, JSON arrays sorted, lock_stat's rules, and what a report says first.
 * report_wrapped, which the CLI calls too, is declared in report.h. */
#pragma once
#include <glib.h>
#include <jansson.h>
#include <stdbool.h>

/* A section of a report, as the formats render it (report_formats.c). */
struct report_section {
	char *title; /* NULL: the body continues the previous section */
	GString *body;
	int html_first; /* its row's .html_first: 1, 2 ... the HTML report opens with it */
};

/* An empty list of sections; free with g_ptr_array_free(a, TRUE). */
GPtrArray *report_sections_new(void);
/* A new section at the end of @sections, titled @title (copied), its body
 * empty. */
struct report_section *report_section_add(GPtrArray *sections, const char *title);
/* What a report says first: the document's description, wrapped, and the
 * command that produced it ("command"), when it has them. */
void report_about(json_t *doc, GString *out);
/* @s in a column @w wide (characters): padded, or cut with "..." when
 * longer. */
void report_cut(GString *out, const char *s, int w);
/* @text wrapped at @width columns as report_wrapped (report.h) wraps it,
 * but the first line at the margin and the others indented by @indent. */
void report_hanging(GString *out, const char *text, int width, int indent);
/* The elements of @array, sorted with @cmp (on json_t **); free with
 * g_ptr_array_free(a, TRUE). */
GPtrArray *report_sorted(json_t *array, GCompareFunc cmp);
/* A rule of @n dashes and a line break, as lock_stat draws them. */
void report_dashes(GString *out, int n);
/* The unit a duration of @ns reads best in: its size in ns, and its name
 * ("s", "ms", "us", "ns"). */
double report_unit(double ns, const char **unit);
/* A duration in ns with a scaled unit ("2.13 us"), @width wide. */
void report_time(GString *out, double ns, int width);
/* The options' --resolution (NULL: none, also for @o NULL). */
struct report_opts;
struct change_resolution;
const struct change_resolution *report_resolution(const struct report_opts *o);

// SPDX-License-Identifier: GPL-2.0-or-later
/* The helpers the report's sections share (report_util.h). */
#include "report_util.h"
#include "identity.h"
#include "report.h"
#include <math.h>
#include <string.h>

static void section_free(gpointer p)
{
	struct report_section *s = p;
	g_free(s->title);
	g_string_free(s->body, TRUE);
	g_free(s);
}

GPtrArray *report_sections_new(void)
{
	return g_ptr_array_new_with_free_func(section_free);
}

struct report_section *report_section_add(GPtrArray *sections, const char *title)
{
	struct report_section *s = g_new0(struct report_section, 1);
	s->title = g_strdup(title);
	s->body = g_string_new(NULL);
	g_ptr_array_add(sections, s);
	return s;
}

void report_about(json_t *doc, GString *out)
{
	const char *about = json_string_value(json_object_get(doc, "description"));
	const char *command = json_string_value(json_object_get(doc, "command"));
	if (about && *about)
		report_wrapped(out, about, 78, 0);
	if (command)
		g_string_append_printf(out, "Command: %s\n", command);
	const char *model = json_string_value(json_object_get(doc, IDENTITY_KEY));
	if (model)
		g_string_append_printf(out, "Model: %s\n", model);
}

/* @text wrapped at @width columns (characters), the first line indented
 * by @first, the others by @indent; a word longer than a line is cut where
 * the line ends and goes on on the next. */
static void wrap(GString *out, const char *text, int width, int first, int indent)
{
	char **words = g_strsplit(text ? text : "", " ", -1);
	long col = 0;
	bool started = false;
	for (char **w = words; *w; w++) {
		const char *p = *w;
		for (long len = g_utf8_strlen(p, -1); len > 0; started = true) {
			if (col && col + 1 + len > width) {
				g_string_append_c(out, '\n');
				col = 0;
			}
			long lead = started ? indent : first;
			g_string_append_printf(out, "%*s", col ? 1 : (int)lead, "");
			col += col ? 1 : lead;
			long n = MIN(len, MAX(1, width - col));
			const char *end = g_utf8_offset_to_pointer(p, n);
			g_string_append_len(out, p, end - p);
			col += n;
			len -= n;
			p = end;
		}
	}
	if (col)
		g_string_append_c(out, '\n');
	g_strfreev(words);
}

void report_wrapped(GString *out, const char *text, int width, int indent)
{
	wrap(out, text, width, indent, indent);
}

/* @s in a column @w wide: cut with "..." when longer. */
void report_cut(GString *out, const char *s, int w)
{
	glong n = g_utf8_strlen(s, -1);
	if (n <= w) {
		g_string_append(out, s);
		for (glong i = n; i < w; i++)
			g_string_append_c(out, ' ');
		return;
	}
	char *cut = g_utf8_substring(s, 0, w - 3);
	g_string_append_printf(out, "%s...", cut);
	g_free(cut);
}

void report_hanging(GString *out, const char *text, int width, int indent)
{
	wrap(out, text, width, 0, indent);
}

GPtrArray *report_sorted(json_t *array, GCompareFunc cmp)
{
	GPtrArray *a = g_ptr_array_new();
	size_t i;
	json_t *v;
	json_array_foreach (array, i, v)
		g_ptr_array_add(a, v);
	g_ptr_array_sort(a, cmp);
	return a;
}

void report_dashes(GString *out, int n)
{
	for (int i = 0; i < n; i++)
		g_string_append_c(out, '-');
	g_string_append_c(out, '\n');
}

double report_unit(double ns, const char **unit)
{
	static const struct {
		double div;
		const char *unit;
	} units[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "us"}, {1, "ns"}};
	size_t i = 0;
	while (i + 1 < G_N_ELEMENTS(units) && fabs(ns) < units[i].div)
		i++;
	*unit = units[i].unit;
	return units[i].div;
}

void report_time(GString *out, double ns, int width)
{
	const char *unit;
	double div = report_unit(ns, &unit);
	char num[64];
	g_snprintf(num, sizeof(num), "%.2f %s", ns / div, unit);
	g_string_append_printf(out, "%*s", width, num);
}

const struct change_resolution *report_resolution(const struct report_opts *o)
{
	return o ? o->resolution : NULL;
}

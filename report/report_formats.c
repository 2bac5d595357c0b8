// SPDX-License-Identifier: GPL-2.0-or-later
/* Rendering a report: text, Markdown, HTML (self-contained, every string
 * escaped), JSON and CSV. */
#include "mcs_file.h"
#include "metrics.h"
#include "output.h"
#include "plot.h"
#include "report.h"
#include "report_sections.h"
#include "report_util.h"
#include "result_format.h"
#include "spec.h"
#include <glib/gstdio.h>
#include <string.h>

/* A section with nothing in it is left out, title and all (not the head). */
static bool section_empty(GPtrArray *sections, guint i)
{
	const struct report_section *s = sections->pdata[i];
	return i > 0 && s->body->len == 0;
}

/* @render's output onto @out, with what a terminal would act on escaped
 * (mcs_text_printable_append): the strings come from a result file. */
static void printable(void (*render)(GPtrArray *, GString *), GPtrArray *sections, GString *out)
{
	GString *raw = g_string_new(NULL);
	render(sections, raw);
	mcs_text_printable_append(out, raw->str, raw->len);
	g_string_free(raw, TRUE);
}

static void text_raw(GPtrArray *sections, GString *out)
{
	for (guint i = 0; i < sections->len; i++) {
		const struct report_section *s = sections->pdata[i];
		if (section_empty(sections, i))
			continue;
		if (i == 0)
			g_string_append_printf(out, "%s\n", s->title);
		else if (s->title)
			g_string_append_printf(out, "\n== %s ==\n", s->title);
		g_string_append_len(out, s->body->str, (gssize)s->body->len);
	}
}

void report_format_text(GPtrArray *sections, GPtrArray *plots, GString *out)
{
	printable(text_raw, sections, out);
}

/* The longest run of backticks in @s. */
static size_t longest_backticks(const char *s)
{
	size_t most = 0, run = 0;
	for (; *s; s++) {
		run = *s == '`' ? run + 1 : 0;
		most = MAX(most, run);
	}
	return most;
}

/* Titles become headings (on one line: a line break in a name read from
 * the result would start a line of its own), bodies fenced blocks whose
 * fence is longer than any run of backticks inside (CommonMark: a fence
 * closes only on one at least as long), so no string of the result can
 * close it: the tables keep their columns in a mail client and on a
 * forge, and nothing in them is rendered. */
static void md_raw(GPtrArray *sections, GString *out)
{
	for (guint i = 0; i < sections->len; i++) {
		const struct report_section *s = sections->pdata[i];
		if (section_empty(sections, i))
			continue;
		if (s->title) {
			char *title = g_strdup(s->title);
			g_strdelimit(title, "\r\n", ' ');
			g_string_append_printf(out, "%s %s\n\n", i == 0 ? "#" : "##", title);
			g_free(title);
		}
		if (!s->body->len)
			continue;
		size_t n = MAX(3, longest_backticks(s->body->str) + 1);
		char *fence = g_strnfill(n, '`');
		g_string_append_printf(out, "%s\n%s%s%s\n\n", fence, s->body->str,
				       g_str_has_suffix(s->body->str, "\n") ? "" : "\n", fence);
		g_free(fence);
	}
}

static void report_format_md(GPtrArray *sections, GPtrArray *plots, GString *out)
{
	printable(md_raw, sections, out);
}

static void html_escaped(GString *out, const char *s)
{
	char *e = g_markup_escape_text(s, -1);
	g_string_append(out, e);
	g_free(e);
}

/* A plot, full width: one size for every plot, readable as it is. */
static void html_plot(GString *out, const struct plot *p)
{
	char *svg = NULL;
	gsize len = 0;
	if (!g_file_get_contents(p->svg, &svg, &len, NULL))
		return;
	char *b64 = g_base64_encode((const guchar *)svg, len);
	g_string_append(out, "<figure><img alt=\"");
	html_escaped(out, p->title);
	g_string_append_printf(out, "\" src=\"data:image/svg+xml;base64,%s\"><figcaption>", b64);
	html_escaped(out, p->title);
	g_string_append(out, "</figcaption></figure>\n");
	g_free(b64);
	g_free(svg);
}

/* The table of contents: the plots, then every section shown (by its
 * anchor, "s" and its index). */
static void html_toc(GPtrArray *sections, GPtrArray *plots, GString *out)
{
	g_string_append(out, "<nav id=\"contents\"><h2>Contents</h2><ol>\n");
	if (plots && plots->len)
		g_string_append(out, "<li><a href=\"#plots\">Plots</a></li>\n");
	for (guint i = 1; i < sections->len; i++) {
		const struct report_section *s = sections->pdata[i];
		if (!s->title || section_empty(sections, i))
			continue;
		g_string_append_printf(out, "<li><a href=\"#s%u\">", i);
		html_escaped(out, s->title);
		g_string_append(out, "</a></li>\n");
	}
	g_string_append(out, "</ol></nav>\n");
}

/* On load, each image's rendered size goes into data-width and
 * data-height: what a headless browser's DOM dump shows of the layout. */
static const char html_script[] =
    "<script>addEventListener('load',function(){"
    "for(var i=0;i<document.images.length;i++){var m=document.images[i],"
    "r=m.getBoundingClientRect();m.dataset.width=Math.round(r.width);"
    "m.dataset.height=Math.round(r.height);}document.body.dataset.loaded='yes';});"
    "</script>\n";

static const char html_style[] =
    "<style>body{font-family:sans-serif;margin:2em;max-width:110em}"
    "pre{font-size:12px;background:#f6f6f6;padding:.5em;overflow-x:auto}"
    "pre.about{white-space:pre-wrap;overflow-wrap:anywhere}"
    "nav ol{columns:2;font-size:small}"
    "figure{margin:1em 0}img{width:100%;max-width:56em;height:auto;border:1px solid #ddd}"
    "figcaption{font-size:small}</style>\n";

/* @body, escaped, in the <pre> that @open starts; nothing when empty. */
static void html_pre(GString *out, const char *open, const GString *body)
{
	if (!body->len)
		return;
	g_string_append(out, open);
	html_escaped(out, body->str);
	g_string_append(out, "</pre>\n");
}

/* Section @i, its title as an anchor, unless it is empty. */
static void html_section(GPtrArray *sections, guint i, GString *out)
{
	const struct report_section *s = sections->pdata[i];
	if (section_empty(sections, i))
		return;
	if (s->title) {
		g_string_append_printf(out, "<h2 id=\"s%u\">", i);
		html_escaped(out, s->title);
		g_string_append(out, "</h2>\n");
	}
	html_pre(out, "<pre>", s->body);
}

/* The head; the sections that open the report (the verdict and the main
 * figures with their intervals: .html_first), before the contents and the
 * plots (the locks' waits, most wait first); then the others, in order. */
static void report_format_html(GPtrArray *sections, GPtrArray *plots, GString *out)
{
	const struct report_section *head = sections->pdata[0];
	g_string_append(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
			     "<title>");
	html_escaped(out, head->title);
	g_string_append_printf(out, "</title>\n%s%s</head><body>\n<h1>", html_style, html_script);
	html_escaped(out, head->title);
	g_string_append(out, "</h1>\n");
	html_pre(out, "<pre class=\"about\">", head->body);
	int last = 0;
	for (guint i = 1; i < sections->len; i++)
		last = MAX(last, ((const struct report_section *)sections->pdata[i])->html_first);
	for (int rank = 1; rank <= last; rank++)
		for (guint i = 1; i < sections->len; i++)
			if (((const struct report_section *)sections->pdata[i])->html_first == rank)
				html_section(sections, i, out);
	html_toc(sections, plots, out);
	if (plots && plots->len) {
		g_string_append(out, "<h2 id=\"plots\">Plots</h2>\n");
		for (guint k = 0; k < plots->len; k++)
			html_plot(out, plots->pdata[k]);
	}
	for (guint i = 1; i < sections->len; i++)
		if (!((const struct report_section *)sections->pdata[i])->html_first)
			html_section(sections, i, out);
	g_string_append(out, "</body></html>\n");
}

static int append_to(const char *buffer, size_t size, void *out)
{
	g_string_append_len(out, buffer, (gssize)size);
	return 0;
}

/* Dumped straight into @out: a large result is not held twice more. */
static void report_json(json_t *doc, const struct report_opts *o, GString *out)
{
	(void)o;
	json_dump_callback(doc, append_to, out, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
	g_string_append_c(out, '\n');
}

/* The formats: one row each. */
static const struct report_format format_text = {.name = "text",
						 .doc = "plain text, as run prints it",
						 .sections = report_format_text,
						 .measured = true};
static const struct report_format format_md = {
    .name = "md", .doc = "Markdown", .sections = report_format_md, .measured = true};
static const struct report_format format_html = {.name = "html",
						 .doc = "one HTML file, the plots inline",
						 .sections = report_format_html,
						 .needs_plots = true,
						 .measured = true};
static const struct report_format format_summary = {.name = "summary",
						    .doc = "under 80 columns, to paste",
						    .document = report_brief,
						    .measured = true};
static const struct report_format format_json = {
    .name = "json", .doc = "the result document itself", .document = report_json};
static const struct report_format format_csv = {
    .name = "csv", .doc = "one row per run and metric", .document = report_csv};
static const struct mcs_named *const report_formats[] = {&format_text.named,
							 &format_md.named,
							 &format_html.named,
							 &format_summary.named,
							 &format_json.named,
							 &format_csv.named,
							 NULL};

const struct report_format *report_format_find(const char *name)
{
	return (const struct report_format *)mcs_named_find(report_formats, name);
}

const char *report_format_near(const char *name)
{
	return mcs_named_near(report_formats, name);
}

char *report_format_names(void)
{
	GString *s = g_string_new(NULL);
	for (size_t i = 0; report_formats[i]; i++)
		g_string_append_printf(s, "%s%s",
				       i == 0		       ? ""
				       : report_formats[i + 1] ? ", "
							       : " or ",
				       report_formats[i]->name);
	return g_string_free(s, FALSE);
}

/* run prints the text report, with the contention table by total wait. */
void report_summary_text(json_t *result, const struct change_resolution *r, GString *out)
{
	report_brief(result, &(struct report_opts){.resolution = r}, out);
}

void report_text(json_t *result, const struct change_resolution *r, GString *out)
{
	struct report_opts o = {.sort = "wait_total", .resolution = r};
	GPtrArray *sections = report_sections(result, &o);
	report_format_text(sections, NULL, out);
	g_ptr_array_free(sections, TRUE);
}

static void render_sections(json_t *doc, const struct report_opts *o, GPtrArray *plots,
			    GString *out)
{
	bool sweep = result_is_sweep(doc);
	GPtrArray *sections = sweep ? report_sweep_sections(doc, o) : report_sections(doc, o);
	o->format->sections(sections, plots, out);
	g_ptr_array_free(sections, TRUE);
}

bool report_render(json_t *doc, const struct report_opts *o, GString *out, GError **err)
{
	if (o->format->document)
		o->format->document(doc, o, out);
	char *tmp = NULL;
	const char *dir = o->plots;
	if (!dir && o->format->needs_plots)
		dir = tmp = mcs_tmp_dir("memcgsim-plots-XXXXXX", err);
	if (!dir && o->format->needs_plots)
		return false;
	if (tmp)
		output_temp_add(tmp, true);
	GPtrArray *plots = dir ? plot_all(doc, o->resolution, dir, err) : NULL;
	bool ok = !dir || plots;
	if (ok && o->format->sections)
		render_sections(doc, o, plots, out);
	ok = ok && output_go_on(err); /* a signal while it was made: not the whole of it */
	if (plots)
		g_ptr_array_free(plots, TRUE);
	if (tmp) {
		output_remove_files(tmp, NULL);
		g_rmdir(tmp);
		output_temp_done(tmp);
	}
	g_free(tmp);
	return ok;
}

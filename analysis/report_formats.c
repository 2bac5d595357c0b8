/* Rendering a report: text, Markdown, HTML (self-contained, every string
 * escaped), JSON and CSV. */
#include "metrics.h"
#include "output.h"
#include "plot.h"
#include "report.h"
#include "spec.h"
#include <glib/gstdio.h>
#include <string.h>

static const char *const format_names[] = {"text", "md", "html", "json", "csv", NULL};

bool report_format_parse(const char *s, enum report_format *f)
{
	for (int i = 0; format_names[i]; i++)
		if (g_str_equal(s, format_names[i])) {
			*f = (enum report_format)i;
			return true;
		}
	return false;
}

void report_format_text(GPtrArray *sections, GString *out)
{
	for (guint i = 0; i < sections->len; i++) {
		const struct report_section *s = sections->pdata[i];
		if (i == 0)
			g_string_append_printf(out, "%s\n", s->title);
		else if (s->title)
			g_string_append_printf(out, "\n== %s ==\n", s->title);
		g_string_append_len(out, s->body->str, (gssize)s->body->len);
	}
}

/* Titles become headings, bodies fenced blocks: the tables keep their
 * columns in a mail client and on a forge. */
void report_format_md(GPtrArray *sections, GString *out)
{
	for (guint i = 0; i < sections->len; i++) {
		const struct report_section *s = sections->pdata[i];
		if (s->title)
			g_string_append_printf(out, "%s %s\n\n", i == 0 ? "#" : "##", s->title);
		if (s->body->len)
			g_string_append_printf(out, "```\n%s%s```\n\n", s->body->str,
					       g_str_has_suffix(s->body->str, "\n") ? "" : "\n");
	}
}

static void html_escaped(GString *out, const char *s)
{
	char *e = g_markup_escape_text(s, -1);
	g_string_append(out, e);
	g_free(e);
}

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

void report_format_html(GPtrArray *sections, GPtrArray *plots, GString *out)
{
	const struct report_section *head = sections->pdata[0];
	g_string_append(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
			     "<title>");
	html_escaped(out, head->title);
	g_string_append(out,
			"</title>\n<style>body{font-family:sans-serif;margin:2em;max-width:110em}"
			"pre{font-size:12px;background:#f6f6f6;padding:.5em;overflow-x:auto}"
			"figure{display:inline-block;margin:.5em}img{max-width:48em}"
			"figcaption{font-size:small;text-align:center}</style></head><body>\n");
	for (guint i = 0; i < sections->len; i++) {
		const struct report_section *s = sections->pdata[i];
		if (s->title) {
			g_string_append(out, i == 0 ? "<h1>" : "<h2>");
			html_escaped(out, s->title);
			g_string_append(out, i == 0 ? "</h1>\n" : "</h2>\n");
		}
		if (s->body->len) {
			g_string_append(out, "<pre>");
			html_escaped(out, s->body->str);
			g_string_append(out, "</pre>\n");
		}
		if (i == 0 && plots && plots->len) {
			g_string_append(out, "<h2>Plots</h2>\n");
			for (guint k = 0; k < plots->len; k++)
				html_plot(out, plots->pdata[k]);
		}
	}
	g_string_append(out, "</body></html>\n");
}

static void render_sections(json_t *doc, const struct report_opts *o, GPtrArray *plots,
			    GString *out)
{
	bool sweep = g_strcmp0(json_string_value(json_object_get(doc, "format")),
			       "memcgsim-sweep-1") == 0;
	GPtrArray *sections = sweep ? report_sweep_sections(doc) : report_sections(doc, o->sort);
	if (o->format == REPORT_MD)
		report_format_md(sections, out);
	else if (o->format == REPORT_HTML)
		report_format_html(sections, plots, out);
	else
		report_format_text(sections, out);
	g_ptr_array_free(sections, TRUE);
}

bool report_render(json_t *doc, const struct report_opts *o, GString *out, GError **err)
{
	if (o->format == REPORT_JSON) {
		char *text = json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
		g_string_append_printf(out, "%s\n", text);
		free(text);
	} else if (o->format == REPORT_CSV) {
		report_csv(doc, out);
	}
	char *tmp = NULL;
	const char *dir = o->plots;
	GError *e = NULL;
	if (!dir && o->format == REPORT_HTML)
		dir = tmp = g_dir_make_tmp("memcgsim-plots-XXXXXX", &e);
	if (!dir && o->format == REPORT_HTML)
		return output_failure(err, e);
	GPtrArray *plots = dir ? plot_all(doc, dir, err) : NULL;
	bool ok = !dir || plots;
	if (ok && o->format != REPORT_JSON && o->format != REPORT_CSV)
		render_sections(doc, o, plots, out);
	if (plots)
		g_ptr_array_free(plots, TRUE);
	if (tmp) {
		output_remove_files(tmp, NULL);
		g_rmdir(tmp);
	}
	g_free(tmp);
	return ok;
}

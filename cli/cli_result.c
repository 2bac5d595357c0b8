// SPDX-License-Identifier: GPL-2.0-or-later
/* A result file, or a sweep's result, read for report and compare: checked,
 * with its errors pointing into the file. */
#include "cli_util.h"
#include "jpos.h"
#include "mcs_file.h"
#include "output.h"
#include "result.h"
#include "result_format.h"
#include "result_keys.h"
#include "sweep.h"
#include <stdlib.h>
#include <string.h>

/* The member of object @o that @p starts with (the longest: metric names
 * hold dots), as its key; NULL when none. */
static char *member_prefix(json_t *o, const char *p)
{
	char *best = NULL;
	const char *k;
	json_t *v;
	json_object_foreach (o, k, v) {
		size_t n = strlen(k);
		if (!strncmp(p, k, n) && (p[n] == '.' || !p[n]) && (!best || n > strlen(best))) {
			g_free(best);
			best = g_strdup(k);
		}
	}
	return best;
}

/* The member names and indices of dotted @path in @doc, as far as @doc
 * has them (metric names hold dots: a member is the longest that fits). */
static GPtrArray *path_keys(json_t *doc, const char *path)
{
	GPtrArray *keys = g_ptr_array_new_with_free_func(g_free);
	json_t *node = doc;
	for (const char *p = path; *p;) {
		char *key = NULL;
		if (json_is_object(node))
			key = member_prefix(node, p);
		else if (json_is_array(node) && g_ascii_isdigit(*p))
			key = g_strndup(p, strspn(p, "0123456789"));
		json_t *child = !key		      ? NULL
				: json_is_array(node) ? json_array_get(node, strtoul(key, NULL, 10))
						      : json_object_get(node, key);
		if (!child) {
			g_free(key);
			break;
		}
		p += strlen(key) + (p[strlen(key)] == '.');
		g_ptr_array_add(keys, key);
		node = child;
	}
	return keys;
}

/* A result file, read with its size limits applied while reading and
 * parsing; its text is kept (*@text) for the place of an error. */
static json_t *report_read_json(const char *in, size_t max_parsed, char **text, gsize *len,
				GError **err)
{
	*text = mcs_file_read_input(in, RESULT_MAX_BYTES, len, err);
	if (!*text)
		return NULL;
	output_test_signal_at(in);
	json_error_t je;
	GError *e = NULL;
	json_t *doc = mcs_file_parse(*text, *len, 0, max_parsed, &je, &e);
	if (e)
		g_set_error(err, MCS_ERROR, e->code, "%s:1:1: (root): cannot read: %s", in,
			    e->message);
	else if (!doc)
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT, "%s:%d:%d: (root): %s", in,
			    je.line < 1 ? 1 : je.line, je.column < 1 ? 1 : je.column, je.text);
	g_clear_error(&e);
	return doc;
}

/* The error of result_check(), @bad ("PATH: expected ..."), at PATH's place
 * in @text (none for a sweep's directory). */
static void check_failed(const char *in, json_t *doc, const char *text, gsize len, GError *bad,
			 GError **err)
{
	if (!text) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT, "%s: %s", in, bad->message);
		return;
	}
	const char *colon = strstr(bad->message, ": ");
	char *path = g_strndup(bad->message, colon ? (gsize)(colon - bad->message) : 0);
	GPtrArray *keys = path_keys(doc, path);
	struct jpos at = jpos_find(text, len, (const char *const *)keys->pdata, keys->len);
	g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT, "%s:%d:%d: %s", in, at.line, at.col,
		    bad->message);
	g_ptr_array_free(keys, TRUE);
	g_free(path);
}

/* A result file, or the result of the sweep in a directory: checked. */
json_t *cli_result_load(const char *in, size_t max_parsed, GError **err)
{
	json_t *doc = NULL;
	char *text = NULL;
	gsize len = 0;
	if (g_file_test(in, G_FILE_TEST_IS_DIR))
		doc = sweep_result_load(in, max_parsed, err);
	else
		doc = report_read_json(in, max_parsed, &text, &len, err);
	const char *fmt = doc ? json_string_value(json_object_get(doc, RK_format)) : NULL;
	if (doc && !g_str_equal(fmt ? fmt : "", RESULT_FORMAT) &&
	    !g_str_equal(fmt ? fmt : "", RESULT_FORMAT_SWEEP)) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
			    "%s: format: expected \"" RESULT_FORMAT "\" or \"" RESULT_FORMAT_SWEEP
			    "\"",
			    in);
		g_clear_pointer(&doc, json_decref);
	}
	GError *bad = NULL;
	if (doc && !result_check(doc, &bad)) {
		check_failed(in, doc, text, len, bad, err);
		g_error_free(bad);
		g_clear_pointer(&doc, json_decref);
	}
	g_free(text);
	if (output_interrupted()) { /* while it was read: said as every interruption is */
		g_clear_pointer(&doc, json_decref);
		output_go_on(err);
		g_prefix_error(err, "%s: ", in);
	}
	return doc;
}

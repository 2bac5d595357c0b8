// SPDX-License-Identifier: GPL-2.0-or-later
/* A result file, or a sweep's result, read for report and compare: checked,
 * with its errors pointing into the file. */
#include "cli_util.h"
#include "jpos.h"
#include "mcs_file.h"
#include "result.h"
#include "sweep.h"
#include <stdlib.h>
#include <string.h>

/* The largest result file report reads (a sweep's result of 100000 runs
 * is about this size). */
#define REPORT_MAX_BYTES (1024 * 1024 * 1024)

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

/* Where the value at dotted @path of @doc (or the deepest of it that
 * exists) sits in the file. */
static const struct jpos *locate(GHashTable *map, json_t *doc, const char *path)
{
	const struct jpos *at = jpos_get(map, NULL, "");
	json_t *node = doc;
	for (const char *p = path; *p && at;) {
		char *key = NULL;
		if (json_is_object(node))
			key = member_prefix(node, p);
		else if (json_is_array(node) && g_ascii_isdigit(*p))
			key = g_strndup(p, strspn(p, "0123456789"));
		json_t *child = !key ? NULL
			       : json_is_array(node) ? json_array_get(node, strtoul(key, NULL, 10))
						     : json_object_get(node, key);
		const struct jpos *next = child ? jpos_get(map, node, key) : NULL;
		p += key ? strlen(key) + (p[strlen(key)] == '.') : strlen(p);
		g_free(key);
		if (!next)
			break;
		at = next;
		node = child;
	}
	return at;
}

/* A result file, read with its size limit applied while reading. */
static json_t *report_read_json(const char *in, GHashTable *map, GError **err)
{
	gsize len = 0;
	char *text = mcs_file_read_input(in, REPORT_MAX_BYTES, &len, err);
	if (!text)
		return NULL;
	json_error_t je;
	json_t *doc = json_loadb(text, len, 0, &je);
	if (doc)
		jpos_scan(map, in, text, len, NULL, "", doc, 1);
	g_free(text);
	if (!doc)
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT, "%s:%d:%d: (root): %s", in,
			    je.line < 1 ? 1 : je.line, je.column < 1 ? 1 : je.column, je.text);
	return doc;
}

/* A result file, or the result of the sweep in a directory: checked. */
json_t *cli_result_load(const char *in, GError **err)
{
	json_t *doc = NULL;
	GHashTable *map = jpos_map_new();
	if (g_file_test(in, G_FILE_TEST_IS_DIR))
		doc = sweep_result_load(in, err);
	else
		doc = report_read_json(in, map, err);
	const char *fmt = doc ? json_string_value(json_object_get(doc, "format")) : NULL;
	if (doc && !g_str_equal(fmt ? fmt : "", "memcgsim-result-1") &&
	    !g_str_equal(fmt ? fmt : "", "memcgsim-sweep-1")) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
			    "%s: format: expected \"memcgsim-result-1\" or \"memcgsim-sweep-1\"", in);
		g_clear_pointer(&doc, json_decref);
	}
	GError *bad = NULL;
	if (doc && !result_check(doc, &bad)) { /* "PATH: expected ...", at PATH's place */
		const char *colon = strstr(bad->message, ": ");
		char *path = g_strndup(bad->message, colon ? (gsize)(colon - bad->message) : 0);
		const struct jpos *at = locate(map, doc, path);
		if (at)
			g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT, "%s:%d:%d: %s", in, at->line,
				    at->col, bad->message);
		else
			g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT, "%s: %s", in, bad->message);
		g_free(path);
		g_error_free(bad);
		g_clear_pointer(&doc, json_decref);
	}
	g_hash_table_destroy(map);
	return doc;
}

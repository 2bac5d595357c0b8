// SPDX-License-Identifier: GPL-2.0-or-later
/* calib: an input file read with the positions of its errors (calib_in.h). */
#include "calib_in.h"
#include "jpos.h"
#include "mcs_error.h"
#include "mcs_file.h"
#include <math.h>

/* @in's file parsed, or NULL with "PATH:LINE:COL: (root): ..." in @err. */
json_t *calib_in_load(struct calib_in *in, GError **err)
{
	in->text = mcs_file_read_input(in->path, CALIB_FILE_MAX, &in->len, err);
	if (!in->text)
		return NULL;
	json_error_t je;
	json_t *doc = json_loadb(in->text, in->len, JSON_REJECT_DUPLICATES, &je);
	if (!doc)
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT, "%s:%d:%d: (root): %s", in->path,
			    je.line, je.column, je.text);
	return doc;
}

/* "PATH:LINE:COL: WHERE: expected WHAT", placed at the value at the JSON
 * path @where (dotted; the deepest part of it the file has). */
bool calib_in_bad(GError **err, const struct calib_in *in, const char *where, const char *what)
{
	char **keys = g_strsplit(where, ".", -1);
	struct jpos at =
	    jpos_find(in->text, in->len, (const char *const *)keys, g_strv_length(keys));
	g_strfreev(keys);
	g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT, "%s:%d:%d: %s: expected %s", in->path, at.line,
		    at.col, where, what);
	return false;
}

/* "@prefix.@key" (or @key with no prefix): a member's JSON path. */
char *calib_in_path(const char *prefix, const char *key)
{
	return prefix ? g_strdup_printf("%s.%s", prefix, key) : g_strdup(key);
}

/* @o's member @key (at @prefix) as a string, or NULL with @err set. */
const char *calib_in_string(const struct calib_in *in, json_t *o, const char *prefix,
			    const char *key, GError **err)
{
	const char *s = json_string_value(json_object_get(o, key));
	if (!s || !*s) {
		char *where = calib_in_path(prefix, key);
		calib_in_bad(err, in, where, "a non-empty string");
		g_free(where);
	}
	return s;
}

bool calib_in_number(const struct calib_in *in, json_t *o, const char *prefix, const char *key,
		     double *v, GError **err)
{
	json_t *n = json_object_get(o, key);
	if (json_is_number(n) && isfinite(json_number_value(n))) {
		*v = json_number_value(n);
		return true;
	}
	char *where = calib_in_path(prefix, key);
	calib_in_bad(err, in, where, "a finite number");
	g_free(where);
	return false;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* calib: an input file read with the positions of its errors, for the fit
 * file, its measurement files and a machine file: each error is
 * "PATH:LINE:COL: JSON.PATH: expected WHAT", at the value it is about. */
#pragma once
#include <glib.h>
#include <jansson.h>
#include <stdbool.h>

#define CALIB_FILE_MAX (1 << 20)

/* An input file being read: its text, for the positions of errors. */
struct calib_in {
	const char *path;
	char *text; /* g_free it */
	gsize len;
};

/* @in's file parsed, or NULL with "PATH:LINE:COL: (root): ..." in @err. */
json_t *calib_in_load(struct calib_in *in, GError **err);
/* "PATH:LINE:COL: WHERE: expected WHAT", placed at the value at the JSON
 * path @where (dotted; the deepest part of it the file has); false. */
bool calib_in_bad(GError **err, const struct calib_in *in, const char *where, const char *what);
/* "@prefix.@key" (or @key with no prefix): a member's JSON path; g_free it. */
char *calib_in_path(const char *prefix, const char *key);
/* @o's member @key (at @prefix) as a non-empty string, or NULL with @err set. */
const char *calib_in_string(const struct calib_in *in, json_t *o, const char *prefix,
			    const char *key, GError **err);
/* @o's member @key as a finite number in @v, or false with @err set. */
bool calib_in_number(const struct calib_in *in, json_t *o, const char *prefix, const char *key,
		     double *v, GError **err);

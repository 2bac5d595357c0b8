/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jpos: JSON positions: where each value of a parsed JSON document sits in its text.
 *
 * jansson parses and reports syntax errors with line and column, but keeps no
 * positions for values. jpos walks the text beside the parsed tree and
 * records, for every json_t, its line and column, so that a validation error
 * can point at the offending value (a scenario: small, and checked value by
 * value). For a large document (a result), nothing is recorded: jpos_find
 * scans its text again for the one value an error is about. It also finds
 * the JSON path at a byte offset of a text that failed to parse, for syntax
 * errors. */
#pragma once
#include <glib.h>
#include <jansson.h>

struct jpos {
	const char *source; /* file name, or "--set"; owned by the map */
	int line;	    /* 1-based */
	int col;	    /* 1-based, in characters */
};

/* Positions are kept per (container, key) -- key is the member name or the
 * array index in decimal -- because jansson shares one json_t for every
 * true, false and null. The document itself is (NULL, "").
 * Values are freed with the table. */
GHashTable *jpos_map_new(void);
void jpos_set(GHashTable *map, const json_t *parent, const char *key, const char *source, int line,
	      int col);
const struct jpos *jpos_get(GHashTable *map, const json_t *parent, const char *key);
/* Record the position of every value of @root, parsed from @text; @root itself
 * is recorded as (@parent, @key), and @text starts at column @first_col. */
void jpos_scan(GHashTable *map, const char *source, const char *text, size_t len,
	       const json_t *parent, const char *key, json_t *root, int first_col);
/* The dotted path of the innermost value open at byte @offset of @text. */
char *jpos_path_at(const char *text, size_t len, size_t offset);
/* Where the value at @keys (@n member names, or array indices in decimal,
 * from the root) sits in @text: the deepest of them the text has (the root
 * when it has none of them); source NULL. */
struct jpos jpos_find(const char *text, size_t len, const char *const *keys, size_t n);
/* A deep copy of @v whose values keep the positions of the originals. */
json_t *jpos_copy(GHashTable *map, json_t *v);

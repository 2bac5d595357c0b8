/* spec: the scenario format as data, and the validator that enforces it.
 *
 * A spec tree describes every key a scenario may hold: its type, range,
 * default and documentation. The same tree validates documents (filling in
 * defaults), applies dotted-path overrides (--set, variants), and exports
 * the JSON Schema that editors use, so the three cannot drift apart. */
#pragma once
#include "json_pos.h"
#include "mcs_error.h"
#include <glib.h>
#include <jansson.h>
#include <stdbool.h>

enum spec_kind {
	SPEC_OBJECT,
	SPEC_ARRAY,
	SPEC_INTEGER,
	SPEC_NUMBER,
	SPEC_STRING,
	SPEC_ENUM,
	SPEC_BOOLEAN,
	SPEC_TAGGED,	 /* an object whose "type" member selects its spec */
	SPEC_OVERRIDES,	 /* an object of "dotted.path": value, checked when applied */
};

struct spec;

struct spec_field {
	const char *key;
	const struct spec *spec;
	bool required;
	const char *default_json; /* filled in when absent; NULL: stays absent */
};

struct spec_tag {
	const char *tag;
	const struct spec *spec; /* an SPEC_OBJECT that has a "type" field */
};

struct spec {
	enum spec_kind kind;
	const char *doc;
	double min, max; /* value (numbers), length (strings), count (arrays, objects) */
	const char *const *values;	 /* SPEC_ENUM, NULL-terminated */
	const struct spec_field *fields; /* SPEC_OBJECT, {NULL}-terminated */
	const struct spec *items;	 /* SPEC_ARRAY */
	const struct spec_tag *tags;	 /* SPEC_TAGGED, {NULL}-terminated */
};

/* Validate @doc against @s, filling in defaults. The first error wins and
 * reads "SOURCE:LINE:COLUMN: PATH: message". */
bool spec_validate(const struct spec *s, json_t *doc, GHashTable *locs, GError **err);
/* Set @value (stolen) at dotted @path of @doc, checking the path against @s;
 * @at is where the override was written. */
bool spec_set_path(const struct spec *s, json_t *doc, const char *path, json_t *value,
		   GHashTable *locs, const struct json_loc *at, GError **err);
/* Report an error at member @key of @parent ("" and NULL for the document). */
bool spec_fail(GHashTable *locs, const json_t *parent, const char *key, const char *path,
	       GError **err, const char *fmt, ...) G_GNUC_PRINTF(6, 7);
json_t *spec_json_schema(const struct spec *s);
/* The known key closest to @key, or NULL when none is close. */
const char *spec_near_miss(const char *key, const char *const *known);
/* @v in a short printable form ("two", 3, true, {...}). */
char *spec_describe(const json_t *v);

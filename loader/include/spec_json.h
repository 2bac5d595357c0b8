/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spec_json: the JSON side of the spec trees (sim/spec.h): validating a
 * document against a tree (filling in defaults), decoding it into the C
 * structures the tree describes, applying dotted-path overrides (--set,
 * variants), and exporting the JSON Schema that editors use. */
#pragma once
#include "jpos.h"
#include "spec.h"
#include <glib.h>
#include <jansson.h>
#include <stdbool.h>

/* Validate @doc against @s, filling in defaults. The first error wins and
 * reads "SOURCE:LINE:COLUMN: PATH: message". */
bool spec_validate(const struct spec *s, json_t *doc, GHashTable *locs, GError **err);
/* Set @value (stolen) at dotted @path of @doc, checking the path against @s;
 * @at is where the override was written. @text (or NULL) is how it was
 * written: a number given for a key whose values are names is set as that
 * text (kernel.version=6.12). */
bool spec_set_path(const struct spec *s, json_t *doc, const char *path, json_t *value,
		   const char *text, GHashTable *locs, const struct jpos *at, GError **err);
/* Report an error at member @key of @parent ("" and NULL for the document). */
bool spec_fail(GHashTable *locs, const json_t *parent, const char *key, const char *path,
	       GError **err, const char *fmt, ...) G_GNUC_PRINTF(6, 7);
json_t *spec_json_schema(const struct spec *s);
/* Decode the validated @v (an object, for an SPEC_OBJECT spec) into a newly
 * allocated structure of @s->size bytes, as sim/spec.h describes. */
void *spec_decode(const struct spec *s, json_t *v);
/* Free what spec_decode() returned (NULL is fine). */
void spec_decoded_free(const struct spec *s, void *decoded);

// SPDX-License-Identifier: GPL-2.0-or-later
/* Decoding a validated document into the structures its spec tree describes
 * (sim/spec.h), and freeing them. */
#include "spec_json.h"
#include <math.h>
#include <string.h>

struct spec_raw_list {
	void *items;
	size_t n;
};

/* Bytes a value of @s takes where it is stored (a member, an array item). */
static size_t slot_size(const struct spec *s)
{
	switch (s->kind) {
	case SPEC_INTEGER:
		return sizeof(long);
	case SPEC_NUMBER:
		return sizeof(double);
	case SPEC_BOOLEAN:
		return sizeof(bool);
	case SPEC_ENUM:
		return s->choices ? sizeof(void *) : sizeof(int);
	case SPEC_ARRAY:
		return sizeof(struct spec_raw_list);
	default: /* strings, objects: a pointer */
		return sizeof(void *);
	}
}

static size_t enum_index(const struct spec *s, const char *name)
{
	size_t i = 0;
	while (spec_enum_name(s, i) && strcmp(spec_enum_name(s, i), name) != 0)
		i++;
	return i;
}

/* Store @v (NULL: absent) as the value of @s at @slot. */
static void decode_into(const struct spec *s, json_t *v, void *slot)
{
	switch (s->kind) {
	case SPEC_INTEGER:
		*(long *)slot = v ? (long)json_integer_value(v) : 0;
		break;
	case SPEC_NUMBER:
		*(double *)slot = v ? json_number_value(v) : NAN;
		break;
	case SPEC_BOOLEAN:
		*(bool *)slot = json_is_true(v);
		break;
	case SPEC_STRING:
		*(char **)slot = v ? g_strdup(json_string_value(v)) : NULL;
		break;
	case SPEC_ENUM:
		if (s->choices)
			*(const void **)slot =
			    v ? s->choices[enum_index(s, json_string_value(v))] : NULL;
		else
			*(int *)slot = v ? (int)enum_index(s, json_string_value(v)) : -1;
		break;
	case SPEC_OBJECT:
		*(void **)slot = v ? spec_decode(s, v) : NULL;
		break;
	case SPEC_ARRAY: {
		struct spec_raw_list *l = slot;
		size_t size = slot_size(s->items);
		l->n = json_array_size(v);
		l->items = g_malloc0(size * (l->n ? l->n : 1));
		for (size_t i = 0; i < l->n; i++)
			decode_into(s->items, json_array_get(v, i), (char *)l->items + i * size);
		break;
	}
	case SPEC_TAGGED:
	case SPEC_OVERRIDES:
		g_assert_not_reached(); /* the loader decodes these itself */
	}
}

void *spec_decode(const struct spec *s, json_t *v)
{
	g_assert(s->kind == SPEC_OBJECT && s->size);
	char *out = g_malloc0(s->size);
	for (const struct spec_field *f = s->fields; f->key; f++)
		if (f->at)
			decode_into(f->spec, json_object_get(v, f->key), out + f->at - 1);
	return out;
}

static void free_slot(const struct spec *s, void *slot)
{
	switch (s->kind) {
	case SPEC_STRING:
		g_free(*(char **)slot);
		break;
	case SPEC_OBJECT:
		spec_decoded_free(s, *(void **)slot);
		break;
	case SPEC_ARRAY: {
		struct spec_raw_list *l = slot;
		for (size_t i = 0; i < l->n; i++)
			free_slot(s->items, (char *)l->items + i * slot_size(s->items));
		g_free(l->items);
		break;
	}
	default:
		break;
	}
}

void spec_decoded_free(const struct spec *s, void *decoded)
{
	if (!decoded)
		return;
	for (const struct spec_field *f = s->fields; f->key; f++)
		if (f->at)
			free_slot(f->spec, (char *)decoded + f->at - 1);
	g_free(decoded);
}

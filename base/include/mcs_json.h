/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mcs_json: the few JSON accessors every layer uses (jansson). */
#pragma once
#include <glib.h>
#include <jansson.h>
#include <string.h>

/* The number at @key of @o (0 when @o is not an object, the key is missing
 * or its value is not a number). */
static inline double mcs_json_num(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

/* The first element of @array whose string member @key is @name (both
 * missing count as the same), and its index in *@at when @at is not NULL;
 * NULL when there is none. */
static inline json_t *mcs_json_find(json_t *array, const char *key, const char *name, size_t *at)
{
	size_t i;
	json_t *v;
	json_array_foreach (array, i, v) {
		const char *s = json_string_value(json_object_get(v, key));
		if (s == name || (s && name && strcmp(s, name) == 0)) {
			if (at)
				*at = i;
			return v;
		}
	}
	return NULL;
}

/* The string member @key of each element of @array, NULL-terminated (NULL
 * where one has none); g_free the array alone: the strings are @array's. */
static inline const char **mcs_json_strings(json_t *array, const char *key)
{
	const char **names = g_new0(const char *, json_array_size(array) + 1);
	size_t i;
	json_t *v;
	json_array_foreach (array, i, v)
		names[i] = json_string_value(json_object_get(v, key));
	return names;
}

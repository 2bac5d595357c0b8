// SPDX-License-Identifier: GPL-2.0-or-later
#include "identity.h"
#include "mcs_error.h"
#include "model_id.h"
#include <string.h>

const char *identity_model(void)
{
	const char *test = g_getenv("MEMCGSIM_TEST_MODEL");
	return test && *test ? test : MCS_MODEL_ID;
}

const char *identity_of(json_t *doc)
{
	const char *id = json_string_value(json_object_get(doc, IDENTITY_KEY));
	return id ? id : IDENTITY_UNRECORDED;
}

void identity_set_init(struct identity_set *s)
{
	s->ids = g_ptr_array_new();
	s->where = g_ptr_array_new_with_free_func(g_free);
}

void identity_set_clear(struct identity_set *s)
{
	g_clear_pointer(&s->ids, g_ptr_array_unref);
	g_clear_pointer(&s->where, g_ptr_array_unref);
}

void identity_set_add(struct identity_set *s, json_t *doc, const char *where)
{
	const char *id = g_intern_string(identity_of(doc));
	for (guint i = 0; i < s->ids->len; i++)
		if (s->ids->pdata[i] == id)
			return;
	g_ptr_array_add(s->ids, (gpointer)id);
	g_ptr_array_add(s->where, g_strdup(where));
}

bool identity_set_check(const struct identity_set *s, bool mix, GError **err)
{
	if (s->ids->len <= 1 || mix)
		return true;
	g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
		    "%s: made by model %s, but %s by model %s; runs of two builds do not make one "
		    "result (use one build, or accept the mix with --mix-builds)",
		    (const char *)s->where->pdata[1], (const char *)s->ids->pdata[1],
		    (const char *)s->where->pdata[0], (const char *)s->ids->pdata[0]);
	return false;
}

static int cmp_str(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

json_t *identity_set_json(const struct identity_set *s)
{
	if (s->ids->len == 1)
		return json_string(s->ids->pdata[0]);
	GPtrArray *sorted = g_ptr_array_copy(s->ids, NULL, NULL);
	g_ptr_array_sort(sorted, cmp_str);
	g_ptr_array_add(sorted, NULL);
	char *joined = g_strjoinv(" + ", (char **)sorted->pdata);
	json_t *j = json_string(joined);
	g_free(joined);
	g_ptr_array_unref(sorted);
	return j;
}

json_t *identity_strip(json_t *doc)
{
	json_t *copy = json_copy(doc);
	json_object_del(copy, IDENTITY_KEY);
	return copy;
}

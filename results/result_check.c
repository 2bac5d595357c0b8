// SPDX-License-Identifier: GPL-2.0-or-later
/* Checking a result or sweep document read back from a file before the
 * reports walk it, and a sweep's run file before merge or --resume uses
 * it: every member they use has the type they expect and a value in its
 * range (times and counts finite and 0 or more, figures finite), so a
 * hand-edited or hostile file gets a clear error, not a crash or an edited
 * figure reported as the model's. What each object holds is declared in
 * result_format.c; this walks it. */
#include "result.h"
#include "result_format.h"
#include "result_keys.h"
#include "spec.h"
#include <math.h>

struct check {
	GString *path; /* where we are, dotted */
	GError **err;
};

static bool fail(struct check *c, const char *key, const char *what)
{
	g_set_error(c->err, MCS_ERROR, MCS_ERROR_INPUT, "%s%s%s: expected %s", c->path->str,
		    c->path->len ? "." : "", key, what);
	return false;
}

static bool not_object(struct check *c)
{
	g_set_error(c->err, MCS_ERROR, MCS_ERROR_INPUT, "%s: expected an object", c->path->str);
	return false;
}

/* Member @key of @o: present when @required, of the type @is tests. */
static bool member(struct check *c, json_t *o, const char *key, int (*is)(const json_t *),
		   const char *what, bool required)
{
	json_t *v = json_object_get(o, key);
	if (!v)
		return !required || fail(c, key, what);
	return is(v) || fail(c, key, what);
}

static int is_string(const json_t *v)
{
	return json_is_string(v);
}
static int is_object(const json_t *v)
{
	return json_is_object(v);
}
static int is_array(const json_t *v)
{
	return json_is_array(v);
}
static int is_count(const json_t *v)
{
	return json_is_integer(v) && json_integer_value(v) >= 0;
}
static int is_time(const json_t *v)
{
	return json_is_number(v) && isfinite(json_number_value(v)) && json_number_value(v) >= 0;
}
static int is_boolean(const json_t *v)
{
	return json_is_boolean(v);
}
static int is_figure(const json_t *v)
{
	return json_is_number(v) && isfinite(json_number_value(v));
}

/* Every member of object @key of @o passes @is (@what, for the message). */
static bool numbers(struct check *c, json_t *o, const char *key, int (*is)(const json_t *),
		    const char *what)
{
	if (!member(c, o, key, is_object, "an object", true))
		return false;
	const char *k;
	json_t *v;
	json_object_foreach (json_object_get(o, key), k, v)
		if (!is(v)) {
			char *p = g_strdup_printf("%s.%s", key, k);
			fail(c, p, what);
			g_free(p);
			return false;
		}
	return true;
}

/* Every number under @v (@key of the object at the path), at any depth, is
 * a count or a time: finite and 0 or more. A lock's and a line class's
 * figures are all so. */
static bool counts_under(struct check *c, const char *key, json_t *v)
{
	if (json_is_number(v))
		return is_time(v) || fail(c, key, "a count or time: a finite number, 0 or more");
	if (!json_is_object(v) && !json_is_array(v))
		return true;
	size_t len = c->path->len;
	g_string_append_printf(c->path, "%s%s", len ? "." : "", key);
	bool ok = true;
	if (json_is_object(v)) {
		const char *k;
		json_t *x;
		json_object_foreach (v, k, x)
			if (ok)
				ok = counts_under(c, k, x);
	} else {
		size_t i;
		json_t *x;
		json_array_foreach (v, i, x) {
			char idx[24];
			g_snprintf(idx, sizeof idx, "%zu", i);
			if (ok)
				ok = counts_under(c, idx, x);
		}
	}
	g_string_truncate(c->path, len);
	return ok;
}

/* Every member of @o but its strings: counts_under. */
static bool counts_in(struct check *c, json_t *o)
{
	const char *k;
	json_t *v;
	json_object_foreach (o, k, v)
		if (!counts_under(c, k, v))
			return false;
	return true;
}

/* Array @key of @o (a path of its own, for the message) holds numbers. */
static bool number_array(struct check *c, json_t *a, const char *key)
{
	size_t i;
	json_t *v;
	json_array_foreach (a, i, v)
		if (!json_is_number(v)) {
			char *p = g_strdup_printf("%s.%zu", key, i);
			fail(c, p, "a number");
			g_free(p);
			return false;
		}
	return true;
}

/* A run's batches (docs/results.md): the units done at each boundary and,
 * per figure, its values there, as many as the units. */
static bool batches(struct check *c, json_t *r)
{
	json_t *b = json_object_get(r, RK_batches);
	if (!b)
		return true;
	json_t *units = json_object_get(b, "units"), *metrics = json_object_get(b, RK_metrics);
	if (!json_is_object(b) || !json_is_array(units) || !json_is_object(metrics))
		return fail(c, RK_batches,
			    "an object with an array \"units\" and an object \"metrics\"");
	if (!number_array(c, units, "batches.units"))
		return false;
	json_t *steady = json_object_get(b, "steady");
	if (steady && (!json_is_integer(steady) || json_integer_value(steady) < 0 ||
		       (size_t)json_integer_value(steady) > json_array_size(units)))
		return fail(c, "batches.steady", "an integer from 0 to the number of units");
	const char *k;
	json_t *v;
	json_object_foreach (metrics, k, v) {
		char *p = g_strdup_printf("batches.metrics.%s", k);
		bool ok = json_is_array(v) && json_array_size(v) == json_array_size(units)
			      ? number_array(c, v, p)
			      : fail(c, p, "an array of numbers, one a unit");
		g_free(p);
		if (!ok)
			return false;
	}
	return true;
}

/* A log range's values, in its parameter and at every point, are numbers
 * > 0: the plots put them on a log axis. */
static bool log_values(struct check *c, json_t *doc)
{
	size_t i, k;
	json_t *p, *v;
	json_array_foreach (json_object_get(doc, "params"), i, p) {
		if (!json_is_true(json_object_get(p, "log")))
			continue;
		char *what = g_strdup_printf("a number > 0 (params.%zu is a log range)", i);
		char *at = NULL;
		json_array_foreach (json_object_get(p, "values"), k, v)
			if (!at && (!json_is_number(v) || json_number_value(v) <= 0))
				at = g_strdup_printf("params.%zu.values.%zu", i, k);
		json_array_foreach (json_object_get(doc, RK_points), k, v) {
			json_t *x = json_array_get(json_object_get(v, "values"), i);
			if (!at && (!json_is_number(x) || json_number_value(x) <= 0))
				at = g_strdup_printf("points.%zu.values.%zu", k, i);
		}
		bool ok = !at || fail(c, at, what);
		g_free(at);
		g_free(what);
		if (!ok)
			return false;
	}
	return true;
}

static bool shape_check(struct check *c, const struct result_shape *s, json_t *o);

/* Every element of array member @k of @o is an object of @k's shape. */
static bool objects(struct check *c, json_t *o, const struct result_key *k)
{
	if (!member(c, o, k->key, is_array, result_key_what(k), k->required))
		return false;
	size_t i, len = c->path->len;
	json_t *v;
	json_array_foreach (json_object_get(o, k->key), i, v) {
		g_string_append_printf(c->path, "%s%s.%zu", len ? "." : "", k->key, i);
		bool ok = json_is_object(v) ? shape_check(c, k->of, v) : not_object(c);
		g_string_truncate(c->path, len);
		if (!ok)
			return false;
	}
	return true;
}

/* Member @k of @o is an object of @k's shape, checked at its own path. */
static bool nested(struct check *c, json_t *o, const struct result_key *k)
{
	if (!member(c, o, k->key, is_object, result_key_what(k), k->required))
		return false;
	json_t *v = json_object_get(o, k->key);
	if (!v)
		return true;
	size_t len = c->path->len;
	g_string_append_printf(c->path, "%s%s", len ? "." : "", k->key);
	bool ok = shape_check(c, k->of, v);
	g_string_truncate(c->path, len);
	return ok;
}

/* Every member of object member @k of @o is an object of @k's shape, each
 * checked at its own path. */
static bool members(struct check *c, json_t *o, const struct result_key *k)
{
	if (!member(c, o, k->key, is_object, result_key_what(k), k->required))
		return false;
	size_t len = c->path->len;
	const char *name;
	json_t *v;
	json_object_foreach (json_object_get(o, k->key), name, v) {
		g_string_append_printf(c->path, "%s%s.%s", len ? "." : "", k->key, name);
		bool ok = json_is_object(v) ? shape_check(c, k->of, v) : not_object(c);
		g_string_truncate(c->path, len);
		if (!ok)
			return false;
	}
	return true;
}

/* An array whose first element is a string. */
static bool strings(struct check *c, json_t *o, const struct result_key *k)
{
	json_t *a = json_object_get(o, k->key);
	if (!a && !k->required)
		return true;
	return member(c, o, k->key, is_array, result_key_what(k), k->required) &&
	       (json_is_string(json_array_get(a, 0)) || fail(c, k->key, "an array of strings"));
}

static bool key_check(struct check *c, json_t *o, const struct result_key *k)
{
	const char *what = result_key_what(k);
	switch (k->kind) {
	case RESULT_STRING:
		return member(c, o, k->key, is_string, what, k->required);
	case RESULT_OBJECT:
		return member(c, o, k->key, is_object, what, k->required);
	case RESULT_ARRAY:
		return member(c, o, k->key, is_array, what, k->required);
	case RESULT_COUNT:
		return member(c, o, k->key, is_count, what, k->required);
	case RESULT_TIME:
		return member(c, o, k->key, is_time, what, k->required);
	case RESULT_TIMES:
		return numbers(c, o, k->key, is_time, what);
	case RESULT_FIGURES:
		return numbers(c, o, k->key, is_figure, what);
	case RESULT_OBJECTS:
		return objects(c, o, k);
	case RESULT_SHAPE:
		return nested(c, o, k);
	case RESULT_INCLUDE:
		return shape_check(c, k->of, o);
	case RESULT_NONEMPTY:
		return json_array_size(json_object_get(o, k->key)) > 0 || fail(c, k->key, what);
	case RESULT_BATCHES:
		return batches(c, o);
	case RESULT_LOG_RANGE:
		return log_values(c, o);
	case RESULT_STRINGS:
		return strings(c, o, k);
	case RESULT_BOOLEAN:
		return member(c, o, k->key, is_boolean, what, k->required);
	case RESULT_MEMBERS:
		return members(c, o, k);
	}
	return false;
}

/* @o has what shape @s declares, in its order; then, for a lock or a line,
 * every other number under it is a count or time. */
static bool shape_check(struct check *c, const struct result_shape *s, json_t *o)
{
	for (const struct result_key *k = s->keys; k->key; k++)
		if (!key_check(c, o, k))
			return false;
	return !s->counts_under || counts_in(c, o);
}

bool result_check_run(json_t *r, GError **err)
{
	struct check c = {g_string_new("result"), err};
	bool ok = json_is_object(r) ? shape_check(&c, &result_shape_replica, r) : not_object(&c);
	g_string_free(c.path, TRUE);
	return ok;
}

bool result_check(json_t *doc, GError **err)
{
	struct check c = {g_string_new(NULL), err};
	bool sweep = json_object_get(doc, RK_points) != NULL;
	bool ok = shape_check(&c, sweep ? &result_shape_sweep : &result_shape_result, doc);
	g_string_free(c.path, TRUE);
	return ok;
}

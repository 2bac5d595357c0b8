// SPDX-License-Identifier: GPL-2.0-or-later
/* Checking a result or sweep document read back from a file before the
 * reports walk it, and a sweep's run file before merge or --resume uses
 * it: every member they use has the type they expect and a value in its
 * range (times and counts finite and 0 or more, figures finite), so a
 * hand-edited or hostile file gets a clear error, not a crash or an edited
 * figure reported as the model's. */
#include "result.h"
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

typedef bool (*check_fn)(struct check *c, json_t *v);

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
static int is_figure(const json_t *v)
{
	return json_is_number(v) && isfinite(json_number_value(v));
}

/* Every element of array @key of @o passes @fn (on objects). */
static bool each(struct check *c, json_t *o, const char *key, check_fn fn, bool required)
{
	if (!member(c, o, key, is_array, "an array", required))
		return false;
	size_t i, len = c->path->len;
	json_t *v;
	json_array_foreach (json_object_get(o, key), i, v) {
		g_string_append_printf(c->path, "%s%s.%zu", len ? "." : "", key, i);
		bool ok = json_is_object(v) ? fn(c, v) : not_object(c);
		g_string_truncate(c->path, len);
		if (!ok)
			return false;
	}
	return true;
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

static bool point_site(struct check *c, json_t *p)
{
	return member(c, p, "site", is_string, "a string", true);
}

static bool convoy(struct check *c, json_t *p)
{
	return member(c, p, "waiting_for", is_string, "a string", true) &&
	       member(c, p, "count", is_count, "a count (an integer, 0 or more)", true) &&
	       member(c, p, "wait_total_ns", is_time, "a time in ns, 0 or more", true) &&
	       member(c, p, "wait_max_ns", is_time, "a time in ns, 0 or more", true);
}

static bool lock(struct check *c, json_t *l)
{
	return member(c, l, "class", is_string, "a string", true) &&
	       member(c, l, "type", is_string, "a string", false) &&
	       member(c, l, "wait_ns", is_object, "an object", true) &&
	       member(c, l, "hold_ns", is_object, "an object", true) &&
	       member(c, l, "wait_cdf", is_array, "an array", false) &&
	       each(c, l, "contention_points", point_site, false) &&
	       each(c, l, "contending_points", point_site, false) &&
	       each(c, l, "convoys", convoy, false) && counts_in(c, l);
}

static bool line_class(struct check *c, json_t *l)
{
	return member(c, l, "class", is_string, "a string", true) &&
	       member(c, l, "ops", is_object, "an object", false) &&
	       each(c, l, "sites", point_site, false) && counts_in(c, l);
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
	json_t *b = json_object_get(r, "batches");
	if (!b)
		return true;
	json_t *units = json_object_get(b, "units"), *metrics = json_object_get(b, "metrics");
	if (!json_is_object(b) || !json_is_array(units) || !json_is_object(metrics))
		return fail(c, "batches",
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

static bool replica(struct check *c, json_t *r)
{
	return member(c, r, "sim_time_ns", is_time, "a time in ns: a finite number, 0 or more",
		      true) &&
	       numbers(c, r, "cpu_time_ns", is_time, "a time in ns: a finite number, 0 or more") &&
	       numbers(c, r, "metrics", is_figure, "a finite number") &&
	       each(c, r, "locks", lock, true) && each(c, r, "cachelines", line_class, false) &&
	       batches(c, r);
}

/* A cost draw's run: a replica with the costs it drew. */
static bool draw(struct check *c, json_t *r)
{
	return replica(c, r) && numbers(c, r, "cost_draw", is_figure, "a finite number");
}

static bool variant(struct check *c, json_t *v)
{
	return member(c, v, "name", is_string, "a string", true) &&
	       member(c, v, "description", is_string, "a string", false) && replica(c, v) &&
	       each(c, v, "per_replica", replica, true) && each(c, v, "draws", draw, false) &&
	       (json_array_size(json_object_get(v, "per_replica")) > 0 ||
		fail(c, "per_replica", "at least one replica")) &&
	       member(c, v, "memcg", is_object, "an object", false) &&
	       member(c, v, "lockdep", is_array, "an array", false);
}

static bool result(struct check *c, json_t *r)
{
	return member(c, r, "scenario", is_string, "a string", true) &&
	       member(c, r, "published", is_object, "an object", false) &&
	       each(c, r, "variants", variant, true) &&
	       (json_array_size(json_object_get(r, "variants")) > 0 ||
		fail(c, "variants", "at least one variant"));
}

static bool param(struct check *c, json_t *p)
{
	return member(c, p, "paths", is_array, "an array", true) &&
	       (json_is_string(json_array_get(json_object_get(p, "paths"), 0)) ||
		fail(c, "paths", "an array of strings")) &&
	       member(c, p, "spec", is_string, "a string", true) &&
	       member(c, p, "values", is_array, "an array", true);
}

static bool point(struct check *c, json_t *p)
{
	if (!member(c, p, "label", is_string, "a string", true) ||
	    !member(c, p, "values", is_array, "an array", true) ||
	    !member(c, p, "result", is_object, "an object", true))
		return false;
	size_t len = c->path->len;
	g_string_append(c->path, ".result");
	bool ok = result(c, json_object_get(p, "result"));
	g_string_truncate(c->path, len);
	return ok;
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
		json_array_foreach (json_object_get(doc, "points"), k, v) {
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

bool result_check_run(json_t *r, GError **err)
{
	struct check c = {g_string_new("result"), err};
	bool ok = json_is_object(r) ? replica(&c, r) : not_object(&c);
	g_string_free(c.path, TRUE);
	return ok;
}

bool result_check(json_t *doc, GError **err)
{
	struct check c = {g_string_new(NULL), err};
	bool sweep = json_object_get(doc, "points") != NULL;
	bool ok = sweep ? member(&c, doc, "scenario", is_string, "a string", true) &&
			      each(&c, doc, "params", param, true) &&
			      each(&c, doc, "points", point, true) &&
			      (json_array_size(json_object_get(doc, "points")) > 0 ||
			       fail(&c, "points", "at least one point")) &&
			      log_values(&c, doc)
			: result(&c, doc);
	g_string_free(c.path, TRUE);
	return ok;
}

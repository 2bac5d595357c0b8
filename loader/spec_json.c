// SPDX-License-Identifier: GPL-2.0-or-later
#include "spec_json.h"
#include "mcs_named.h"
#include <math.h>
#include <string.h>

#define DESCRIBE_MAX 40

static char *spec_describe(const json_t *v)
{
	if (json_is_object(v))
		return g_strdup("an object");
	if (json_is_array(v))
		return g_strdup("an array");
	char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
	if (!s)
		return g_strdup("?");
	if (g_utf8_strlen(s, -1) <= DESCRIBE_MAX) {
		char *out = g_strdup(s);
		free(s);
		return out;
	}
	char *head = g_utf8_substring(s, 0, DESCRIBE_MAX); /* at a character: still UTF-8 */
	char *out = g_strconcat(head, "...", NULL);
	g_free(head);
	free(s);
	return out;
}

static char *join_path(const char *path, const char *key)
{
	return *path ? g_strconcat(path, ".", key, NULL) : g_strdup(key);
}

bool spec_fail(GHashTable *locs, const json_t *parent, const char *key, const char *path,
	       GError **err, const char *fmt, ...)
{
	const struct jpos *l = jpos_get(locs, parent, key);
	va_list ap;
	va_start(ap, fmt);
	char *msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT, "%s:%d:%d: %s: %s", l ? l->source : "?",
		    l ? l->line : 0, l ? l->col : 0, *path ? path : "(root)", msg);
	g_free(msg);
	return false;
}

/* Where validation is: the value, its container and member name, its path. */
struct at {
	json_t *v;
	const json_t *parent;
	const char *key;
	const char *path;
};

struct vctx {
	GHashTable *locs;
	GError **err;
};

static bool fail_at(struct vctx *c, const struct at *a, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static bool fail_at(struct vctx *c, const struct at *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	spec_fail(c->locs, a->parent, a->key, a->path, c->err, "%s", msg);
	g_free(msg);
	return false;
}

static bool fail_expected(struct vctx *c, const struct at *a, const char *what)
{
	char *got = spec_describe(a->v);
	fail_at(c, a, "expected %s, got %s", what, got);
	g_free(got);
	return false;
}

static char *range_text(const char *noun, double min, double max)
{
	if (max >= 1e300)
		return g_strdup_printf("%s >= %.16g", noun, min);
	return g_strdup_printf("%s in [%.16g, %.16g]", noun, min, max);
}

static bool check_number(struct vctx *c, const struct spec *s, const struct at *a)
{
	bool is_int = s->kind == SPEC_INTEGER;
	bool type_ok = is_int ? json_is_integer(a->v) : json_is_number(a->v);
	double x = type_ok ? json_number_value(a->v) : 0;
	if (type_ok && x >= s->min && x <= s->max && isfinite(x))
		return true;
	char *what = range_text(is_int ? "an integer" : "a number", s->min, s->max);
	fail_expected(c, a, what);
	g_free(what);
	return false;
}

/* Text reaches terminals and reports: no control characters (an escape
 * sequence in a name would act on the reader's terminal). */
static bool has_control(const char *str)
{
	for (const unsigned char *p = (const unsigned char *)str; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return true;
	return false;
}

static bool check_string(struct vctx *c, const struct spec *s, const struct at *a)
{
	if (json_is_string(a->v)) {
		const char *str = json_string_value(a->v);
		glong n = g_utf8_validate(str, -1, NULL) ? g_utf8_strlen(str, -1) : -1;
		if (has_control(str) || strlen(str) != json_string_length(a->v))
			return fail_expected(c, a, "text without control characters");
		if (n >= s->min && n <= s->max)
			return true;
	}
	char *what = g_strdup_printf("a string of %.0f to %.0f characters", s->min, s->max);
	fail_expected(c, a, what);
	g_free(what);
	return false;
}

static char *quoted_list(const char *const *values)
{
	GString *g = g_string_new(NULL);
	for (int i = 0; values[i]; i++)
		g_string_append_printf(g, "%s\"%s\"", i ? ", " : "", values[i]);
	return g_string_free(g, FALSE);
}

/* The name among @values a number reads as (6.12 for "6.12", 6.0 for
 * "6.0"), or NULL. */
static const char *number_as_name(const json_t *v, const char *const *values)
{
	char g[32], f[32];
	g_snprintf(g, sizeof(g), "%.15g", json_number_value(v));
	g_snprintf(f, sizeof(f), "%.1f", json_number_value(v));
	for (int i = 0; values[i]; i++)
		if (strcmp(values[i], g) == 0)
			return values[i];
	for (int i = 0; values[i]; i++)
		if (strcmp(values[i], f) == 0)
			return values[i];
	return NULL;
}

/* "expected one of ..., got X", with the nearest value when one is close. */
static bool fail_one_of(struct vctx *c, const struct at *a, const char *const *values)
{
	char *list = quoted_list(values);
	char *got = spec_describe(a->v);
	const char *near = json_is_string(a->v)	  ? mcs_near_miss(json_string_value(a->v), values)
			   : json_is_number(a->v) ? number_as_name(a->v, values)
						  : NULL;
	if (near)
		fail_at(c, a, "expected one of %s, got %s (did you mean \"%s\"?)", list, got, near);
	else
		fail_at(c, a, "expected one of %s, got %s", list, got);
	g_free(got);
	g_free(list);
	return false;
}

/* An SPEC_ENUM's names, NULL-terminated; g_free the array. */
static const char **enum_names(const struct spec *s)
{
	GPtrArray *names = g_ptr_array_new();
	for (size_t i = 0; spec_enum_name(s, i); i++)
		g_ptr_array_add(names, (gpointer)spec_enum_name(s, i));
	g_ptr_array_add(names, NULL);
	return (const char **)g_ptr_array_free(names, FALSE);
}

static bool check_enum(struct vctx *c, const struct spec *s, const struct at *a)
{
	if (json_is_string(a->v))
		for (size_t i = 0; spec_enum_name(s, i); i++)
			if (strcmp(spec_enum_name(s, i), json_string_value(a->v)) == 0)
				return true;
	const char **names = enum_names(s);
	fail_one_of(c, a, names);
	g_free(names);
	return false;
}

static bool validate(struct vctx *c, const struct spec *s, const struct at *a);

static const char **field_keys(const struct spec_field *f)
{
	GPtrArray *keys = g_ptr_array_new();
	for (; f->key; f++)
		g_ptr_array_add(keys, (gpointer)f->key);
	g_ptr_array_add(keys, NULL);
	return (const char **)g_ptr_array_free(keys, FALSE);
}

static const struct spec_field *field_find(const struct spec_field *f, const char *key)
{
	for (; f->key; f++)
		if (strcmp(f->key, key) == 0)
			return f;
	return NULL;
}

static bool fail_unknown_key(struct vctx *c, const struct at *a, const char *key,
			     const struct spec_field *fields)
{
	const char **keys = field_keys(fields);
	const char *near = mcs_near_miss(key, keys);
	char *list = quoted_list(keys);
	if (near)
		fail_at(c, a, "unknown key \"%s\" (did you mean \"%s\"?)", key, near);
	else
		fail_at(c, a, "unknown key \"%s\" (expected one of %s)", key, list);
	g_free(list);
	g_free(keys);
	return false;
}

static bool check_object(struct vctx *c, const struct spec *s, const struct at *a)
{
	if (!json_is_object(a->v))
		return fail_expected(c, a, "an object");
	const char *k;
	json_t *member;
	json_object_foreach (a->v, k, member) {
		if (field_find(s->fields, k))
			continue;
		char *p = join_path(a->path, k);
		struct at child = {member, a->v, k, p};
		fail_unknown_key(c, &child, k, s->fields);
		g_free(p);
		return false;
	}
	const struct jpos *here = jpos_get(c->locs, a->parent, a->key);
	for (const struct spec_field *f = s->fields; f->key; f++) {
		char *p = join_path(a->path, f->key);
		json_t *x = json_object_get(a->v, f->key);
		bool ok = true;
		if (!x && f->required) {
			ok = fail_at(c, a, "missing required key \"%s\"", f->key);
		} else if (!x && f->default_json) {
			x = json_loads(f->default_json, JSON_DECODE_ANY, NULL);
			g_assert_nonnull(x);
			json_object_set_new(a->v, f->key, x);
			if (here) /* a default is reported where its object is */
				jpos_set(c->locs, a->v, f->key, here->source, here->line,
					 here->col);
		}
		if (ok && x) {
			struct at child = {x, a->v, f->key, p};
			ok = validate(c, f->spec, &child);
		}
		g_free(p);
		if (!ok)
			return false;
	}
	return true;
}

static bool check_array(struct vctx *c, const struct spec *s, const struct at *a)
{
	size_t n = json_array_size(a->v);
	if (json_is_array(a->v) && (n < s->min || n > s->max))
		return fail_at(c, a, "expected an array of %.0f to %.0f elements, got %zu", s->min,
			       s->max, n);
	if (!json_is_array(a->v)) {
		char *what = g_strdup_printf("an array of %.0f to %.0f elements", s->min, s->max);
		fail_expected(c, a, what);
		g_free(what);
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		char idx[24];
		g_snprintf(idx, sizeof(idx), "%zu", i);
		char *p = join_path(a->path, idx);
		struct at child = {json_array_get(a->v, i), a->v, idx, p};
		bool ok = validate(c, s->items, &child);
		g_free(p);
		if (!ok)
			return false;
	}
	return true;
}

static const struct spec *tag_find(const struct spec *s, const char *tag)
{
	for (const struct spec_tag *t = s->tags; t->tag; t++)
		if (strcmp(t->tag, tag) == 0)
			return t->spec;
	return NULL;
}

static const char **tag_names(const struct spec *s)
{
	GPtrArray *names = g_ptr_array_new();
	for (const struct spec_tag *t = s->tags; t->tag; t++)
		g_ptr_array_add(names, (gpointer)t->tag);
	g_ptr_array_add(names, NULL);
	return (const char **)g_ptr_array_free(names, FALSE);
}

static bool check_tagged(struct vctx *c, const struct spec *s, const struct at *a)
{
	if (!json_is_object(a->v))
		return fail_expected(c, a, "an object");
	json_t *type = json_object_get(a->v, "type");
	if (!type)
		return fail_at(c, a, "missing required key \"type\"");
	const struct spec *chosen =
	    json_is_string(type) ? tag_find(s, json_string_value(type)) : NULL;
	if (chosen)
		return check_object(c, chosen, a);
	const char **names = tag_names(s);
	char *p = join_path(a->path, "type");
	struct at child = {type, a->v, "type", p};
	fail_one_of(c, &child, names);
	g_free(p);
	g_free(names);
	return false;
}

static bool validate(struct vctx *c, const struct spec *s, const struct at *a)
{
	switch (s->kind) {
	case SPEC_OBJECT:
		return check_object(c, s, a);
	case SPEC_ARRAY:
		return check_array(c, s, a);
	case SPEC_INTEGER:
	case SPEC_NUMBER:
		return check_number(c, s, a);
	case SPEC_STRING:
		return check_string(c, s, a);
	case SPEC_ENUM:
		return check_enum(c, s, a);
	case SPEC_BOOLEAN:
		return json_is_boolean(a->v) || fail_expected(c, a, "true or false");
	case SPEC_TAGGED:
		return check_tagged(c, s, a);
	case SPEC_OVERRIDES:
		if (!json_is_object(a->v) || json_object_size(a->v) > s->max) {
			char *what = g_strdup_printf("an object of at most %.0f \"path\": value "
						     "overrides",
						     s->max);
			fail_expected(c, a, what);
			g_free(what);
			return false;
		}
		return true;
	}
	return false;
}

bool spec_validate(const struct spec *s, json_t *doc, GHashTable *locs, GError **err)
{
	struct vctx c = {locs, err};
	struct at a = {doc, NULL, "", ""};
	return validate(&c, s, &a);
}

/* Overrides ------------------------------------------------------------ */

static bool set_fail(GHashTable *locs, const struct jpos *at, const char *path, GError **err,
		     const char *msg)
{
	g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT, "%s:%d:%d: %s: %s", at->source, at->line,
		    at->col, path, msg);
	return false;
}

/* The spec of member @key of @node (described by @s), or NULL with *why set. */
static const struct spec *member_spec(const struct spec *s, json_t *node, const char *key,
				      char **why)
{
	if (s->kind == SPEC_TAGGED) {
		json_t *type = json_object_get(node, "type");
		s = json_is_string(type) ? tag_find(s, json_string_value(type)) : NULL;
		if (!s) {
			*why =
			    g_strdup("the object has no valid \"type\" to say which keys it has");
			return NULL;
		}
	}
	if (s->kind == SPEC_OBJECT) {
		const struct spec_field *f = field_find(s->fields, key);
		if (f)
			return f->spec;
		const char **keys = field_keys(s->fields);
		const char *near = mcs_near_miss(key, keys);
		*why = near
			   ? g_strdup_printf("unknown key \"%s\" (did you mean \"%s\"?)", key, near)
			   : g_strdup_printf("unknown key \"%s\"", key);
		g_free(keys);
		return NULL;
	}
	if (s->kind == SPEC_ARRAY) {
		bool digits = *key && (key[0] != '0' || !key[1]);
		for (const char *c = key; digits && *c; c++)
			digits = g_ascii_isdigit(*c);
		if (!digits) {
			*why =
			    g_strdup_printf("expected an array index (0, 1, ...), got \"%s\"", key);
			return NULL;
		}
		guint64 i = g_ascii_strtoull(key, NULL, 10);
		if (i < json_array_size(node))
			return s->items;
		*why =
		    g_strdup_printf("index %s out of range (the array has %zu element%s)", key,
				    json_array_size(node), json_array_size(node) == 1 ? "" : "s");
		return NULL;
	}
	*why = g_strdup("cannot descend into a value that is not an object or array");
	return NULL;
}

static void node_set(json_t *node, const char *key, json_t *value)
{
	if (json_is_array(node))
		json_array_set_new(node, g_ascii_strtoull(key, NULL, 10), value);
	else
		json_object_set_new(node, key, value);
}

bool spec_set_path(const struct spec *s, json_t *doc, const char *path, json_t *value,
		   const char *text, GHashTable *locs, const struct jpos *at, GError **err)
{
	char **parts = g_strsplit(path, ".", -1);
	json_t *node = doc;
	bool ok = true;
	GString *walked = g_string_new(NULL);
	for (int i = 0; parts[i] && ok; i++) {
		char *why = NULL;
		g_string_append_printf(walked, "%s%s", i ? "." : "", parts[i]);
		if (s->kind == SPEC_OVERRIDES) { /* the rest of the path is one key */
			char *rest = g_strjoinv(".", parts + i);
			json_object_set_new(node, rest, value);
			jpos_set(locs, node, rest, at->source, at->line, at->col);
			g_free(rest);
			value = NULL;
			break;
		}
		const struct spec *ms = json_is_object(node) || json_is_array(node)
					    ? member_spec(s, node, parts[i], &why)
					    : NULL;
		if (!ms) {
			ok = set_fail(locs, at, walked->str, err,
				      why ? why : "cannot descend into this value");
			g_free(why);
			break;
		}
		if (!parts[i + 1]) {
			if (text && ms->kind == SPEC_ENUM && json_is_number(value)) {
				json_decref(value);
				value = json_string(text);
			}
			node_set(node, parts[i], value);
			jpos_set(locs, node, parts[i], at->source, at->line, at->col);
			value = NULL;
			break;
		}
		json_t *child = json_is_array(node)
				    ? json_array_get(node, g_ascii_strtoull(parts[i], NULL, 10))
				    : json_object_get(node, parts[i]);
		if (!child && (ms->kind == SPEC_OBJECT || ms->kind == SPEC_OVERRIDES)) {
			child = json_object();
			json_object_set_new(node, parts[i], child);
			jpos_set(locs, node, parts[i], at->source, at->line, at->col);
		}
		if (!child) {
			ok = set_fail(locs, at, walked->str, err, "no such value to descend into");
			break;
		}
		node = child;
		s = ms;
	}
	if (ok && !*path)
		ok = set_fail(locs, at, "(root)", err, "empty path");
	json_decref(value);
	g_string_free(walked, TRUE);
	g_strfreev(parts);
	return ok;
}

/* JSON Schema ------------------------------------------------------------ */

static void schema_range(json_t *o, const char *lo_key, const char *hi_key, double lo, double hi)
{
	json_object_set_new(o, lo_key, json_real(lo));
	if (hi < 1e300)
		json_object_set_new(o, hi_key, json_real(hi));
}

static json_t *schema_object(const struct spec *s)
{
	json_t *o = json_pack("{s:s, s:b}", "type", "object", "additionalProperties", 0);
	json_t *props = json_object(), *req = json_array();
	for (const struct spec_field *f = s->fields; f->key; f++) {
		json_t *p = spec_json_schema(f->spec);
		if (f->default_json)
			json_object_set_new(p, "default",
					    json_loads(f->default_json, JSON_DECODE_ANY, NULL));
		json_object_set_new(props, f->key, p);
		if (f->required)
			json_array_append_new(req, json_string(f->key));
	}
	json_object_set_new(o, "properties", props);
	json_object_set_new(o, "required", req);
	return o;
}

json_t *spec_json_schema(const struct spec *s)
{
	json_t *o = NULL;
	switch (s->kind) {
	case SPEC_OBJECT:
		o = schema_object(s);
		break;
	case SPEC_ARRAY:
		o = json_pack("{s:s, s:o}", "type", "array", "items", spec_json_schema(s->items));
		schema_range(o, "minItems", "maxItems", s->min, s->max);
		break;
	case SPEC_INTEGER:
	case SPEC_NUMBER:
		o = json_pack("{s:s}", "type", s->kind == SPEC_INTEGER ? "integer" : "number");
		schema_range(o, "minimum", "maximum", s->min, s->max);
		break;
	case SPEC_STRING:
		o = json_pack("{s:s}", "type", "string");
		schema_range(o, "minLength", "maxLength", s->min, s->max);
		break;
	case SPEC_ENUM:
		o = json_pack("{s:[]}", "enum");
		for (size_t i = 0; spec_enum_name(s, i); i++)
			json_array_append_new(json_object_get(o, "enum"),
					      json_string(spec_enum_name(s, i)));
		break;
	case SPEC_BOOLEAN:
		o = json_pack("{s:s}", "type", "boolean");
		break;
	case SPEC_TAGGED:
		o = json_pack("{s:[]}", "oneOf");
		for (const struct spec_tag *t = s->tags; t->tag; t++) {
			json_t *alt = schema_object(t->spec);
			json_object_set_new(
			    json_object_get(json_object_get(alt, "properties"), "type"), "const",
			    json_string(t->tag));
			json_array_append_new(json_object_get(o, "oneOf"), alt);
		}
		break;
	case SPEC_OVERRIDES:
		o = json_pack("{s:s, s:b}", "type", "object", "additionalProperties", 1);
		json_object_set_new(o, "maxProperties", json_real(s->max));
		break;
	}
	if (s->doc)
		json_object_set_new(o, "description", json_string(s->doc));
	return o;
}

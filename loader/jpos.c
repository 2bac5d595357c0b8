// SPDX-License-Identifier: GPL-2.0-or-later
#include "jpos.h"
#include <stdbool.h>
#include <string.h>

#define SCAN_MAX_DEPTH 4096
#define PATH_SHOWN 8

struct scanner {
	const char *s;
	size_t n, i;
	int line, col;
	GHashTable *map;
	const char *source;
	size_t stop;	 /* jpos_path_at: stop at this offset */
	GPtrArray *path; /* components while descending */
	bool stopped;
};

static void jpos_free(gpointer p)
{
	g_free(p);
}

GHashTable *jpos_map_new(void)
{
	return g_hash_table_new_full(g_str_hash, g_str_equal, g_free, jpos_free);
}

static char *loc_key(const json_t *parent, const char *key)
{
	return g_strdup_printf("%p\x1f%s", (const void *)parent, key);
}

void jpos_set(GHashTable *map, const json_t *parent, const char *key, const char *source, int line,
	      int col)
{
	struct jpos *l = g_new(struct jpos, 1);
	l->source = g_intern_string(source);
	l->line = line;
	l->col = col;
	g_hash_table_replace(map, loc_key(parent, key), l);
}

const struct jpos *jpos_get(GHashTable *map, const json_t *parent, const char *key)
{
	char *k = loc_key(parent, key);
	const struct jpos *l = g_hash_table_lookup(map, k);
	g_free(k);
	return l;
}

static bool at_end(struct scanner *sc)
{
	if (sc->i >= sc->n || sc->i >= sc->stop) {
		sc->stopped = true;
		return true;
	}
	return false;
}

static void advance(struct scanner *sc)
{
	unsigned char c = (unsigned char)sc->s[sc->i++];
	if (c == '\n') {
		sc->line++;
		sc->col = 1;
	} else if ((c & 0xc0) != 0x80) { /* count characters, not UTF-8 continuation bytes */
		sc->col++;
	}
}

static void skip_ws(struct scanner *sc)
{
	while (!at_end(sc) && strchr(" \t\r\n", sc->s[sc->i]))
		advance(sc);
}

/* Skips a string; returns its raw (still escaped) text. */
static char *skip_string(struct scanner *sc)
{
	advance(sc); /* opening quote */
	size_t start = sc->i;
	while (!at_end(sc) && sc->s[sc->i] != '"') {
		if (sc->s[sc->i] == '\\')
			advance(sc);
		if (!at_end(sc))
			advance(sc);
	}
	char *raw = g_strndup(sc->s + start, sc->i - start);
	if (!at_end(sc))
		advance(sc);
	return raw;
}

static bool scan_value(struct scanner *sc, json_t *parent, json_t *v, int depth);

/* A member name as jansson decoded it ("s\u0065ed" is "seed"), so that its
 * position is found under the name the validator asks for; @raw is freed. */
static char *key_decoded(char *raw)
{
	if (!strchr(raw, '\\'))
		return raw;
	char *quoted = g_strconcat("\"", raw, "\"", NULL);
	json_t *k = json_loads(quoted, JSON_DECODE_ANY, NULL);
	g_free(quoted);
	if (!json_is_string(k)) {
		json_decref(k);
		return raw;
	}
	g_free(raw);
	char *key = g_strdup(json_string_value(k));
	json_decref(k);
	return key;
}

enum sep { SEP_ERROR, SEP_CLOSED, SEP_MORE };

/* After a member or element: the container closes with @close, or a comma
 * says another follows. */
static enum sep scan_separator(struct scanner *sc, char close)
{
	skip_ws(sc);
	if (at_end(sc))
		return SEP_ERROR;
	if (sc->s[sc->i] == close) {
		advance(sc);
		return SEP_CLOSED;
	}
	if (sc->s[sc->i] != ',')
		return SEP_ERROR;
	advance(sc);
	skip_ws(sc);
	return SEP_MORE;
}

static bool scan_object(struct scanner *sc, json_t *v, int depth)
{
	void *it = v ? json_object_iter(v) : NULL;
	advance(sc);
	skip_ws(sc);
	if (!at_end(sc) && sc->s[sc->i] == '}') {
		advance(sc);
		return true;
	}
	while (!at_end(sc)) {
		if (sc->s[sc->i] != '"')
			return false;
		char *key = key_decoded(skip_string(sc));
		g_ptr_array_add(sc->path, key);
		skip_ws(sc);
		if (at_end(sc) || sc->s[sc->i] != ':')
			return false;
		advance(sc);
		skip_ws(sc);
		json_t *child = it ? json_object_iter_value(it) : NULL;
		if (!scan_value(sc, v, child, depth + 1) || sc->stopped)
			return false;
		g_ptr_array_remove_index(sc->path, sc->path->len - 1);
		if (it)
			it = json_object_iter_next(v, it);
		enum sep sep = scan_separator(sc, '}');
		if (sep != SEP_MORE)
			return sep == SEP_CLOSED;
	}
	return false;
}

static bool scan_array(struct scanner *sc, json_t *v, int depth)
{
	advance(sc);
	skip_ws(sc);
	if (!at_end(sc) && sc->s[sc->i] == ']') {
		advance(sc);
		return true;
	}
	for (size_t idx = 0; !at_end(sc); idx++) {
		g_ptr_array_add(sc->path, g_strdup_printf("%zu", idx));
		if (!scan_value(sc, v, v ? json_array_get(v, idx) : NULL, depth + 1) || sc->stopped)
			return false;
		g_ptr_array_remove_index(sc->path, sc->path->len - 1);
		enum sep sep = scan_separator(sc, ']');
		if (sep != SEP_MORE)
			return sep == SEP_CLOSED;
	}
	return false;
}

static bool scan_value(struct scanner *sc, json_t *parent, json_t *v, int depth)
{
	if (at_end(sc) || depth > SCAN_MAX_DEPTH)
		return false;
	if (v && sc->map && parent)
		jpos_set(sc->map, parent, sc->path->pdata[sc->path->len - 1], sc->source, sc->line,
			 sc->col);
	char c = sc->s[sc->i];
	if (c == '{')
		return scan_object(sc, v, depth);
	if (c == '[')
		return scan_array(sc, v, depth);
	if (c == '"') {
		g_free(skip_string(sc));
		return true;
	}
	size_t start = sc->i;
	while (!at_end(sc) && !strchr(" \t\r\n,]}:", sc->s[sc->i]))
		advance(sc);
	return sc->i > start;
}

static void scanner_init(struct scanner *sc, const char *text, size_t len)
{
	memset(sc, 0, sizeof(*sc));
	sc->s = text;
	sc->n = len;
	sc->line = 1;
	sc->col = 1;
	sc->stop = len;
	sc->path = g_ptr_array_new_with_free_func(g_free);
}

void jpos_scan(GHashTable *map, const char *source, const char *text, size_t len,
	       const json_t *parent, const char *key, json_t *root, int first_col)
{
	struct scanner sc;
	scanner_init(&sc, text, len);
	sc.map = map;
	sc.source = source;
	sc.col = first_col;
	skip_ws(&sc);
	jpos_set(map, parent, key, source, sc.line, sc.col);
	g_ptr_array_add(sc.path, g_strdup(key));
	scan_value(&sc, NULL, root, 0);
	g_ptr_array_free(sc.path, TRUE);
}

char *jpos_path_at(const char *text, size_t len, size_t offset)
{
	struct scanner sc;
	scanner_init(&sc, text, len);
	sc.stop = offset < len ? offset : len;
	skip_ws(&sc);
	scan_value(&sc, NULL, NULL, 0);
	char *path;
	guint depth = sc.path->len;
	if (depth == 0) {
		path = g_strdup("(root)");
	} else {
		if (depth > PATH_SHOWN) /* hostile nesting: name the first levels only */
			g_ptr_array_set_size(sc.path, PATH_SHOWN);
		g_ptr_array_add(sc.path, NULL);
		char *head = g_strjoinv(".", (char **)sc.path->pdata);
		path = depth > PATH_SHOWN ? g_strdup_printf("%s...(%u levels deep)", head, depth)
					  : g_strdup(head);
		g_free(head);
	}
	g_ptr_array_free(sc.path, TRUE);
	return path;
}

/* Past the value at the scanner (any kind), without recording it. */
static bool skip_value(struct scanner *sc)
{
	return scan_value(sc, NULL, NULL, 0);
}

struct mark {
	size_t i;
	int line, col;
};

static struct mark mark_of(const struct scanner *sc)
{
	return (struct mark){sc->i, sc->line, sc->col};
}

static void mark_go(struct scanner *sc, struct mark m)
{
	sc->i = m.i;
	sc->line = m.line;
	sc->col = m.col;
}

/* At an object: to the value of its member @want (the last of that name,
 * which is the one jansson keeps). */
static bool find_member(struct scanner *sc, const char *want)
{
	bool found = false;
	struct mark at = {0};
	advance(sc);
	skip_ws(sc);
	while (!at_end(sc) && sc->s[sc->i] == '"') {
		char *key = key_decoded(skip_string(sc));
		bool match = g_str_equal(key, want);
		g_free(key);
		skip_ws(sc);
		if (at_end(sc) || sc->s[sc->i] != ':')
			break;
		advance(sc);
		skip_ws(sc);
		if (match) {
			found = true;
			at = mark_of(sc);
		}
		if (!skip_value(sc) || scan_separator(sc, '}') != SEP_MORE)
			break;
	}
	if (found)
		mark_go(sc, at);
	return found;
}

/* At an array: to its element @idx. */
static bool find_element(struct scanner *sc, const char *idx)
{
	char *end;
	unsigned long n = strtoul(idx, &end, 10);
	if (!g_ascii_isdigit(*idx) || *end)
		return false;
	advance(sc);
	skip_ws(sc);
	if (at_end(sc) || sc->s[sc->i] == ']')
		return false;
	for (unsigned long k = 0; k < n; k++)
		if (!skip_value(sc) || scan_separator(sc, ']') != SEP_MORE)
			return false;
	return !at_end(sc);
}

struct jpos jpos_find(const char *text, size_t len, const char *const *keys, size_t n)
{
	struct scanner sc;
	scanner_init(&sc, text, len);
	skip_ws(&sc);
	struct jpos at = {NULL, sc.line, sc.col};
	for (size_t k = 0; k < n && !at_end(&sc); k++) {
		char c = sc.s[sc.i];
		bool found = c == '{'	? find_member(&sc, keys[k])
			     : c == '[' ? find_element(&sc, keys[k])
					: false;
		if (!found)
			break;
		at.line = sc.line;
		at.col = sc.col;
	}
	g_ptr_array_free(sc.path, TRUE);
	return at;
}

static void copy_loc(GHashTable *map, const json_t *from, const json_t *to, const char *key)
{
	const struct jpos *l = jpos_get(map, from, key);
	if (l)
		jpos_set(map, to, key, l->source, l->line, l->col);
}

json_t *jpos_copy(GHashTable *map, json_t *v)
{
	if (json_is_object(v)) {
		json_t *c = json_object();
		const char *k;
		json_t *x;
		json_object_foreach (v, k, x) {
			json_object_set_new(c, k, jpos_copy(map, x));
			copy_loc(map, v, c, k);
		}
		return c;
	}
	if (json_is_array(v)) {
		json_t *c = json_array();
		size_t i;
		json_t *x;
		json_array_foreach (v, i, x) {
			char idx[24];
			g_snprintf(idx, sizeof(idx), "%zu", i);
			json_array_append_new(c, jpos_copy(map, x));
			copy_loc(map, v, c, idx);
		}
		return c;
	}
	return json_copy(v);
}

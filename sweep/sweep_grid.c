// SPDX-License-Identifier: GPL-2.0-or-later
/* Sweep parameters and the grid they span. */
#include "mcs_error.h"
#include "sweep.h"
#include <math.h>
#include <string.h>

void sweep_param_free(struct sweep_param *p)
{
	if (!p)
		return;
	g_strfreev(p->paths);
	g_free(p->values_text);
	json_decref(p->values);
	g_free(p);
}

/* A real kept to 15 significant digits, so that its text reads back equal. */
static json_t *number(double v, bool integer)
{
	if (integer)
		return json_integer((json_int_t)llround(v));
	char buf[64];
	g_ascii_formatd(buf, sizeof(buf), "%.15g", v);
	return json_real(g_ascii_strtod(buf, NULL));
}

static bool integral(double v)
{
	return fabs(v) < 9e15 && v == floor(v);
}

/* "lin:START:STOP:N" or "log:START:STOP:N" (after the "xxx:"). */
static bool parse_range(struct sweep_param *p, const char *text, bool log, GString *why)
{
	char **f = g_strsplit(text, ":", -1);
	double a = 0, b = 0;
	gint64 n = 0;
	char *end, *count = NULL; /* N as given, quoted when out of range */
	bool ok = g_strv_length(f) == 3;
	if (ok) {
		a = g_ascii_strtod(f[0], &end);
		ok = *f[0] && !*end && isfinite(a);
		b = g_ascii_strtod(f[1], &end);
		ok = ok && *f[1] && !*end && isfinite(b);
		n = g_ascii_strtoll(f[2], &end, 10);
		ok = ok && *f[2] && !*end;
		count = mcs_error_printable(f[2]);
	}
	g_strfreev(f);
	if (!ok) {
		g_free(count);
		g_string_printf(why,
				"expected %s:START:STOP:N with numbers START, STOP and a count N",
				log ? "log" : "lin");
		return false;
	}
	if (n < 1 || n > SWEEP_MAX_VALUES) {
		g_string_printf(why, "expected a count N from 1 to %d, got %s", SWEEP_MAX_VALUES,
				count);
		g_free(count);
		return false;
	}
	g_free(count);
	if (n == 1 && a != b) {
		g_string_printf(why, "a count N of 1 needs START = STOP, got %g and %g", a, b);
		return false;
	}
	if (log && (a <= 0 || b <= 0)) {
		g_string_printf(why, "a log range needs START and STOP > 0");
		return false;
	}
	double step = n > 1 ? (log ? (log2(b) - log2(a)) : (b - a)) / (double)(n - 1) : 0;
	bool ints = integral(a) && integral(b) && (log || integral(step));
	for (gint64 i = 0; i < n; i++) {
		double v = i == n - 1 ? b
			   : log      ? exp2(log2(a) + step * (double)i)
				      : a + step * (double)i;
		json_t *x = number(v, ints);
		size_t k;
		json_t *y;
		bool dup = false; /* rounding to integers may repeat a value */
		json_array_foreach (p->values, k, y)
			dup |= json_equal(x, y);
		if (dup)
			json_decref(x);
		else
			json_array_append_new(p->values, x);
	}
	p->log = log;
	return true;
}

/* "1,2,4" or "node,memcg": each JSON, or else a bare string. A value given
 * twice counts once, as in a range, unless @tuple (a zip tuple's values are
 * one a path, and two paths may take the same value). */
static bool parse_list(struct sweep_param *p, const char *text, bool tuple, GString *why)
{
	char **f = g_strsplit(text, ",", -1);
	bool ok = true;
	for (char **t = f; ok && *t; t++) {
		json_t *v = json_loads(*t, JSON_DECODE_ANY, NULL);
		if (!v && !strchr("{[\"", **t))
			v = json_string(*t);
		if (!**t || !v || json_is_object(v) || json_is_array(v) || json_is_null(v)) {
			g_string_printf(why, "value %d: expected a number, a string or a boolean",
					(int)(t - f) + 1);
			ok = false;
		} else if (json_array_size(p->values) >= SWEEP_MAX_VALUES) {
			g_string_printf(why, "more than %d values", SWEEP_MAX_VALUES);
			ok = false;
		}
		bool dup = false;
		size_t k;
		json_t *y;
		json_array_foreach (p->values, k, y)
			dup |= ok && !tuple && json_equal(v, y);
		if (ok && !dup)
			json_array_append(p->values, v);
		json_decref(v);
	}
	g_strfreev(f);
	return ok;
}

/* "zip:A1|A2;B1|B2": tuples, one value for each path, point by point (a
 * machine's preset and its topology together). */
static bool parse_zip(struct sweep_param *p, const char *text, GString *why)
{
	guint npaths = g_strv_length(p->paths);
	char **tuples = g_strsplit(text, ";", -1);
	bool ok = *text != '\0';
	if (!ok)
		g_string_printf(why, "zip: expected TUPLE[;TUPLE...]");
	for (char **t = tuples; ok && *t; t++) {
		char *commas = g_strdelimit(g_strdup(*t), "|", ',');
		struct sweep_param one = {.values = json_array()};
		ok = parse_list(&one, commas, true, why);
		if (ok && json_array_size(one.values) != npaths) {
			g_string_printf(why,
					"zip tuple %d: expected %u values (one a path), got %zu",
					(int)(t - tuples) + 1, npaths, json_array_size(one.values));
			ok = false;
		}
		if (ok && json_array_size(p->values) >= SWEEP_MAX_VALUES) {
			g_string_printf(why, "more than %d values", SWEEP_MAX_VALUES);
			ok = false;
		}
		if (ok)
			json_array_append(p->values, one.values);
		json_decref(one.values);
		g_free(commas);
	}
	g_strfreev(tuples);
	return ok;
}

struct sweep_param *sweep_param_parse(const char *arg, GString *why, int *col)
{
	const char *eq = strchr(arg, '=');
	struct sweep_param *p = g_new0(struct sweep_param, 1);
	p->values = json_array();
	*col = 1;
	bool ok = eq && eq != arg;
	if (!ok)
		g_string_printf(why, "expected PATH[,PATH...]=VALUES, got \"%s\"", arg);
	if (ok) {
		char *paths = g_strndup(arg, (gsize)(eq - arg));
		p->paths = g_strsplit(paths, ",", -1);
		g_free(paths);
		for (char **s = p->paths; ok && *s; s++)
			if (!**s) {
				g_string_printf(why, "empty path in \"%s\"", arg);
				ok = false;
			}
	}
	if (ok) {
		*col = (int)g_utf8_strlen(arg, eq + 1 - arg) + 1;
		p->values_text = g_strdup(eq + 1);
		if (!eq[1]) {
			g_string_printf(why, "expected VALUES after \"=\"");
			ok = false;
		}
	}
	if (ok) {
		if (g_str_has_prefix(eq + 1, "lin:") || g_str_has_prefix(eq + 1, "log:"))
			ok = parse_range(p, eq + 5, eq[2] == 'o', why);
		else if (g_str_has_prefix(eq + 1, "zip:"))
			ok = parse_zip(p, eq + 5, why);
		else
			ok = parse_list(p, eq + 1, false, why);
	}
	if (!ok) {
		sweep_param_free(p);
		p = NULL;
	}
	return p;
}

size_t sweep_grid_size(struct sweep_param *const *params, size_t nparams)
{
	size_t n = 1;
	for (size_t i = 0; i < nparams; i++) {
		n *= json_array_size(params[i]->values);
		if (n > SWEEP_MAX_RUNS)
			return 0;
	}
	return n;
}

void sweep_grid_point(struct sweep_param *const *params, size_t nparams, size_t i, size_t *idx)
{
	for (size_t k = nparams; k-- > 0;) { /* the last parameter varies fastest */
		size_t n = json_array_size(params[k]->values);
		idx[k] = i % n;
		i /= n;
	}
}

static char *value_text(json_t *v, bool quoted)
{
	if (!quoted && json_is_string(v))
		return g_strdup(json_string_value(v));
	char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(15));
	char *r = g_strdup(s);
	free(s);
	return r;
}

char **sweep_grid_sets(struct sweep_param *const *params, size_t nparams, size_t i)
{
	size_t *idx = g_new0(size_t, nparams + 1);
	sweep_grid_point(params, nparams, i, idx);
	GPtrArray *sets = g_ptr_array_new();
	for (size_t k = 0; k < nparams; k++) {
		json_t *value = json_array_get(params[k]->values, idx[k]);
		for (char **p = params[k]->paths; *p; p++) {
			json_t *one = json_is_array(value)
					  ? json_array_get(value, p - params[k]->paths)
					  : value;
			char *v = value_text(one, true);
			g_ptr_array_add(sets, g_strdup_printf("%s=%s", *p, v));
			g_free(v);
		}
	}
	g_ptr_array_add(sets, NULL);
	g_free(idx);
	return (char **)g_ptr_array_free(sets, FALSE);
}

char *sweep_grid_label(struct sweep_param *const *params, size_t nparams, size_t i)
{
	size_t *idx = g_new0(size_t, nparams + 1);
	sweep_grid_point(params, nparams, i, idx);
	GString *s = g_string_new(NULL);
	for (size_t k = 0; k < nparams; k++) {
		const char *dot = strrchr(params[k]->paths[0], '.');
		json_t *value = json_array_get(params[k]->values, idx[k]);
		char *v =
		    value_text(json_is_array(value) ? json_array_get(value, 0) : value, false);
		g_string_append_printf(s, "%s%s=%s", k ? ", " : "",
				       dot ? dot + 1 : params[k]->paths[0], v);
		g_free(v);
	}
	g_free(idx);
	return g_string_free(s, FALSE);
}

json_t *sweep_point_values(json_t *params, size_t i)
{
	size_t n = json_array_size(params);
	json_t *vals = json_array();
	for (size_t k = n; k-- > 0;) {
		json_t *values = json_object_get(json_array_get(params, k), "values");
		size_t m = MAX(json_array_size(values), 1);
		json_array_insert(vals, 0, json_array_get(values, i % m));
		i /= m;
	}
	return vals;
}

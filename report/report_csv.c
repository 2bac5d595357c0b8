// SPDX-License-Identifier: GPL-2.0-or-later
/* The long-form CSV: one row per run and metric, for pandas or R
 * (pandas.read_csv(f).pivot_table(index=[...], columns="metric")). */
#include "report_sections.h"
#include "result_keys.h"
#include <stdbool.h>
#include <string.h>

/* RFC 4180: quoted when it holds a comma, a quote or a line break. */
static void cell(GString *out, const char *s, bool quote, bool last)
{
	if (quote || strpbrk(s, ",\"\r\n")) {
		g_string_append_c(out, '"');
		for (; *s; s++) {
			if (*s == '"')
				g_string_append_c(out, '"');
			g_string_append_c(out, *s);
		}
		g_string_append_c(out, '"');
	} else {
		g_string_append(out, s);
	}
	g_string_append_c(out, last ? '\n' : ',');
}

/* A text cell. One a spreadsheet would read as a formula (=, +, -, @, a
 * tab or a carriage return first: the names come from a result file) gets
 * a ' before it, quoted, as OWASP's CSV-injection advice has it: the
 * spreadsheet shows the text, pandas reads the ' as part of it. */
static void field(GString *out, const char *s, bool last)
{
	if (s[0] && strchr("=+-@\t\r", s[0])) {
		char *guarded = g_strconcat("'", s, NULL);
		cell(out, guarded, true, last);
		g_free(guarded);
		return;
	}
	cell(out, s, false, last);
}

static void value_field(GString *out, json_t *v, bool last)
{
	char buf[64];
	if (json_is_string(v)) {
		field(out, json_string_value(v), last);
		return;
	}
	if (json_is_integer(v))
		g_snprintf(buf, sizeof(buf), "%lld", (long long)json_integer_value(v));
	else if (json_is_boolean(v))
		g_strlcpy(buf, json_is_true(v) ? "true" : "false", sizeof(buf));
	else
		g_ascii_formatd(buf, sizeof(buf), "%.15g", json_number_value(v));
	cell(out, buf, false, last); /* a number, "-5" included, as it is */
}

struct row_ctx {
	GString *out;
	GString *prefix; /* the columns before "metric" */
};

static void row(struct row_ctx *c, const char *metric, json_t *v)
{
	if (!json_is_number(v))
		return;
	g_string_append_len(c->out, c->prefix->str, (gssize)c->prefix->len);
	field(c->out, metric, false);
	value_field(c->out, v, true);
}

/* A column of a class's rows: its member @key (or @key.@sub) as @name. */
struct class_col {
	const char *key, *sub, *name;
};

/* For each class of array @array of @rep, a row per column:
 * "<prefix>:<class>:<name>". */
static void class_rows(struct row_ctx *c, json_t *rep, const char *array, const char *prefix,
		       const struct class_col *cols, size_t ncols)
{
	size_t i;
	json_t *l;
	json_array_foreach (json_object_get(rep, array), i, l)
		for (size_t j = 0; j < ncols; j++) {
			json_t *x = json_object_get(l, cols[j].key);
			if (cols[j].sub)
				x = json_object_get(x, cols[j].sub);
			char *m = g_strdup_printf("%s:%s:%s", prefix,
						  json_string_value(json_object_get(l, "class")),
						  cols[j].name);
			row(c, m, x);
			g_free(m);
		}
}

static void replica_rows(struct row_ctx *c, json_t *rep)
{
	row(c, RK_sim_time_ns, json_object_get(rep, RK_sim_time_ns));
	const char *k;
	json_t *v;
	json_object_foreach (json_object_get(rep, RK_cpu_time_ns), k, v) {
		char *m = g_strdup_printf("cpu_time_ns.%s", k);
		row(c, m, v);
		g_free(m);
	}
	json_object_foreach (json_object_get(rep, RK_metrics), k, v)
		row(c, k, v);
	static const struct class_col lock_cols[] = {
	    {"acquisitions", NULL, "acquisitions"}, {"contentions", NULL, "contentions"},
	    {"wait_ns", "total", "wait_total_ns"},  {"wait_ns", "max", "wait_max_ns"},
	    {"hold_ns", "total", "hold_total_ns"},  {"irqoff_ns", NULL, "irqoff_ns"}};
	static const struct class_col line_cols[] = {{"accesses", NULL, "accesses"},
						     {"transfers", NULL, "transfers"},
						     {"time_ns", NULL, "time_ns"}};
	class_rows(c, rep, RK_locks, "lock", lock_cols, G_N_ELEMENTS(lock_cols));
	class_rows(c, rep, RK_cachelines, "line", line_cols, G_N_ELEMENTS(line_cols));
}

/* The rows of @rep, a run of variant @v: its replica column is @replica
 * ("0", "1" ... or "d0", "d1" ... for cost draws). */
static void run_rows(struct row_ctx *c, json_t *result, json_int_t point, json_t *values, json_t *v,
		     const char *replica, json_t *rep)
{
	size_t k;
	json_t *x;
	g_string_truncate(c->prefix, 0);
	field(c->prefix, json_string_value(json_object_get(result, "scenario")), false);
	char num[32];
	g_snprintf(num, sizeof(num), "%lld", (long long)point);
	field(c->prefix, num, false);
	json_array_foreach (values, k, x) /* a zip: tuple's column is its first path's */
		value_field(c->prefix, json_is_array(x) ? json_array_get(x, 0) : x, false);
	field(c->prefix, json_string_value(json_object_get(v, "name")), false);
	field(c->prefix, replica, false);
	value_field(c->prefix, json_object_get(rep, "seed"), false);
	replica_rows(c, rep);
	const char *key;
	json_object_foreach (json_object_get(rep, "cost_draw"), key, x) {
		char *m = g_strdup_printf("cost:%s", key);
		row(c, m, x);
		g_free(m);
	}
}

/* The rows of one result document (a sweep point's: @point, @values):
 * each variant's replicas, then its cost draws. */
static void result_rows(GString *out, json_t *result, json_int_t point, json_t *values)
{
	struct row_ctx c = {out, g_string_new(NULL)};
	size_t i, r;
	json_t *v, *rep;
	json_array_foreach (json_object_get(result, RK_variants), i, v) {
		json_array_foreach (json_object_get(v, RK_per_replica), r, rep) {
			char replica[32];
			g_snprintf(replica, sizeof(replica), "%zu", r);
			run_rows(&c, result, point, values, v, replica, rep);
		}
		json_array_foreach (json_object_get(v, RK_draws), r, rep) {
			char replica[32];
			g_snprintf(replica, sizeof(replica), "d%zu", r);
			run_rows(&c, result, point, values, v, replica, rep);
		}
	}
	g_string_free(c.prefix, TRUE);
}

void report_csv(json_t *doc, const struct report_opts *o, GString *out)
{
	(void)o;
	json_t *points = json_object_get(doc, RK_points);
	field(out, "scenario", false);
	field(out, "point", false);
	size_t i;
	json_t *p;
	json_array_foreach (json_object_get(doc, "params"), i, p)
		field(out, json_string_value(json_array_get(json_object_get(p, "paths"), 0)),
		      false);
	static const char *const cols[] = {"variant", "replica", "seed", "metric"};
	for (size_t c = 0; c < G_N_ELEMENTS(cols); c++)
		field(out, cols[c], false);
	field(out, "value", true);
	if (!points) {
		result_rows(out, doc, 0, NULL);
		return;
	}
	json_array_foreach (points, i, p)
		result_rows(out, json_object_get(p, "result"),
			    json_integer_value(json_object_get(p, "index")),
			    json_object_get(p, "values"));
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* The cache-line report, as `perf c2c report` shows a real machine: the
 * line classes with the most transfers (perf c2c's HITMs: the line came
 * from another CPU's cache), split by access (loads, stores, locked RMWs)
 * and by how far the line came, with the DRAM accesses and the time the
 * accesses cost (its "Shared Data Cache Line Table"); under each class the
 * sites that moved it most (its "Shared Cache Line Distribution Pareto"),
 * in the shape of lock_stat's contention points. */
#include "mcs_json.h"
#include "report_sections.h"
#include "report_util.h"
#include "result.h"
#include "result_keys.h"

#define LINE_CLASSES 10
#define LINE_SITES 4
#define LINE_TOP_SWEEP 3
#define COL 10

static const char *const line_ops[] = {"load", "store", "rmw"};
static const char *const line_hops[] = {"smt", "llc", "socket", "remote"};

/* @key ("dram", or a hop's transfers with @hops) over @cls's loads, stores
 * and RMWs. */
static double over_ops(json_t *cls, const char *key, bool hops)
{
	double n = 0;
	for (size_t i = 0; i < G_N_ELEMENTS(line_ops); i++) {
		json_t *op = json_object_get(json_object_get(cls, "ops"), line_ops[i]);
		n += mcs_json_num(hops ? json_object_get(op, "hops") : op, key);
	}
	return n;
}

static void cell(GString *out, double v, double per)
{
	g_string_append_printf(out, " %*.0f", COL, v / per);
}

/* Transfers by distance, DRAM accesses and time: the columns both tables
 * end with; counts divided by @per. */
static void distance_cells(GString *out, json_t *cls, double per)
{
	for (size_t h = 0; h < G_N_ELEMENTS(line_hops); h++)
		cell(out, over_ops(cls, line_hops[h], true), per);
	cell(out, over_ops(cls, "dram", false), per);
	g_string_append_c(out, ' ');
	report_time(out, mcs_json_num(cls, "time_ns") / per, 12);
}

static void distance_header(GString *out)
{
	for (size_t h = 0; h < G_N_ELEMENTS(line_hops); h++)
		g_string_append_printf(out, " %*s", COL, line_hops[h]);
	g_string_append_printf(out, " %*s %12s\n", COL, "dram", "time");
}

static void line_header(GString *out, int width)
{
	g_string_append_printf(out, "%40s %*s %*s %s %s\n", "", COL, "", COL, "",
			       "----- transfers by access ------",
			       "---------- transfers by distance ----------");
	g_string_append_printf(out, "%40s %*s %*s", "class name", COL, "accesses", COL,
			       "transfers");
	for (size_t i = 0; i < G_N_ELEMENTS(line_ops); i++)
		g_string_append_printf(out, " %*s", COL, line_ops[i]);
	distance_header(out);
	report_dashes(out, width);
}

/* A class's or a site's counts, as the table's columns: accesses,
 * transfers, transfers by access, by distance, DRAM accesses, time. */
static void count_cells(GString *out, json_t *o)
{
	cell(out, mcs_json_num(o, "accesses"), 1);
	cell(out, mcs_json_num(o, "transfers"), 1);
	json_t *ops = json_object_get(o, "ops");
	for (size_t i = 0; i < G_N_ELEMENTS(line_ops); i++)
		cell(out, mcs_json_num(json_object_get(ops, line_ops[i]), "peer"), 1);
	distance_cells(out, o, 1);
}

/* Up to LINE_SITES sites of @cls, in the class's columns, then their share
 * of the class's transfers. */
static void line_sites(GString *out, json_t *cls)
{
	double all = mcs_json_num(cls, "transfers");
	size_t i;
	json_t *s;
	g_string_append_printf(out, "%40s\n", "-----------");
	json_array_foreach (json_object_get(cls, "sites"), i, s) {
		if (i == LINE_SITES)
			break;
		g_string_append_printf(out, "%40s", json_string_value(json_object_get(s, "site")));
		count_cells(out, s);
		if (all > 0)
			g_string_append_printf(out, " %7.2f%%\n",
					       100 * mcs_json_num(s, "transfers") / all);
		else
			g_string_append_printf(out, " %8s\n", "-");
	}
}

static void line_row(GString *out, json_t *cls)
{
	char *name = g_strdup_printf("%s:", json_string_value(json_object_get(cls, "class")));
	g_string_append_printf(out, "\n%40s", name);
	g_free(name);
	count_cells(out, cls);
	g_string_append_c(out, '\n');
	if (json_object_get(cls, "queue_ns")) { /* contention "queued" */
		g_string_append_printf(out, "%40s %.0f accesses waited for the line, ",
				       "queued:", mcs_json_num(cls, "queued"));
		report_time(out, mcs_json_num(cls, "queue_ns"), 0);
		g_string_append(out, " in all\n");
	}
	if (json_array_size(json_object_get(cls, "sites")))
		line_sites(out, cls);
}

void report_cachelines(json_t *variant, GString *out)
{
	json_t *lines = json_object_get(variant, RK_cachelines);
	if (!lines)
		return;
	g_string_append_c(out, '\n');			/* after the lock tables */
	const int width = 40 + (COL + 1) * 10 + 13 + 9; /* + a site's share */
	int replicas = (int)json_integer_value(json_object_get(variant, "replicas"));
	g_string_append_printf(out,
			       "Cache lines (perf c2c): the line classes with the most "
			       "transfers (HITMs: the line came from another CPU's cache), "
			       "top %d",
			       LINE_CLASSES);
	if (replicas > 1)
		g_string_append_printf(out, ", summed over %d replicas", replicas);
	g_string_append_c(out, '\n');
	report_dashes(out, width);
	line_header(out, width);
	GPtrArray *sorted = report_sorted(lines, result_line_cmp);
	for (guint k = 0; k < sorted->len && k < LINE_CLASSES; k++)
		line_row(out, sorted->pdata[k]);
	if (!sorted->len)
		g_string_append(out, "(no accesses to modelled cache lines)\n");
	report_dashes(out, width);
	if (sorted->len)
		g_string_append_printf(out,
				       "Under each class, up to %d sites (the functions "
				       "making the accesses), most transfers first, in the "
				       "same columns, then their share of the class's "
				       "transfers.\n",
				       LINE_SITES);
	g_ptr_array_free(sorted, TRUE);
}

/* One point's rows of the sweep table: each variant's top classes, per run. */
static void sweep_point_rows(GString *out, json_t *point, int label_w, int var_w)
{
	const char *label = json_string_value(json_object_get(point, "label"));
	size_t v;
	json_t *var;
	json_array_foreach (result_point_variants(point), v, var) {
		const char *name = json_string_value(json_object_get(var, "name"));
		double per = MAX(1, mcs_json_num(var, "replicas"));
		GPtrArray *sorted =
		    report_sorted(json_object_get(var, RK_cachelines), result_line_cmp);
		for (guint k = 0; k < sorted->len && k < LINE_TOP_SWEEP; k++) {
			json_t *cls = sorted->pdata[k];
			g_string_append_printf(out, "%-*s %-*s %-40s", label_w, label, var_w,
					       k ? "" : name,
					       json_string_value(json_object_get(cls, "class")));
			cell(out, mcs_json_num(cls, "accesses"), per);
			cell(out, mcs_json_num(cls, "transfers"), per);
			distance_cells(out, cls, per);
			g_string_append_c(out, '\n');
			label = "";
		}
		g_ptr_array_free(sorted, TRUE);
	}
}

void report_sweep_cachelines(json_t *points, int label_w, GPtrArray *sections)
{
	int var_w = 8;
	size_t i, v;
	json_t *p, *var;
	bool any = false;
	json_array_foreach (points, i, p)
		json_array_foreach (result_point_variants(p), v, var) {
			const char *name = json_string_value(json_object_get(var, "name"));
			var_w = MAX(var_w, (int)g_utf8_strlen(name, -1));
			any |= json_object_get(var, RK_cachelines) != NULL;
		}
	if (!any)
		return;
	char *title = g_strdup_printf("cache lines by point: each variant's %d line classes with "
				      "the most transfers (perf c2c), per run",
				      LINE_TOP_SWEEP);
	GString *out = report_section_add(sections, title)->body;
	g_free(title);
	g_string_append_printf(out, "%-*s %-*s %-40s %*s %*s", label_w, "point", var_w, "variant",
			       "line class", COL, "accesses", COL, "transfers");
	distance_header(out);
	json_array_foreach (points, i, p)
		sweep_point_rows(out, p, label_w, var_w);
}

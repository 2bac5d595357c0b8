// SPDX-License-Identifier: GPL-2.0-or-later
/* Interrupt latency per source and per CPU, and interrupts-off time per lock
 * class, for runs with interrupt sources. */
#include "mcs_json.h"
#include "report_sections.h"
#include "report_util.h"
#include "result_keys.h"
#include <stdbool.h>

#define IRQ_CPU_ROWS 4

static gint by_max_latency(gconstpointer a, gconstpointer b)
{
	double x = mcs_json_num(*(json_t *const *)a, "max_ns");
	double y = mcs_json_num(*(json_t *const *)b, "max_ns");
	return x > y ? -1 : x < y;
}

static void latency_row(GString *out, const char *label, json_t *o)
{
	g_string_append_printf(out, "  %-16s %10.0f ", label, mcs_json_num(o, "count"));
	report_time(out, mcs_json_num(o, "mean_ns"), 12);
	g_string_append_c(out, ' ');
	report_time(out, mcs_json_num(o, "p99_ns"), 12);
	g_string_append_c(out, ' ');
	report_time(out, mcs_json_num(o, "max_ns"), 12);
	g_string_append_c(out, '\n');
}

/* RCU grace periods: synchronize_rcu and the expedited variant, call to
 * return; the kinds the run waited for. */
void report_rcu(json_t *variant, GString *out)
{
	json_t *rcu = json_object_get(variant, "rcu");
	json_t *normal = json_object_get(rcu, "grace_periods");
	json_t *expedited = json_object_get(rcu, "expedited");
	if (mcs_json_num(normal, "count") <= 0 && mcs_json_num(expedited, "count") <= 0)
		return;
	g_string_append_printf(out,
			       "RCU grace periods (call to return)\n  %-16s %10s %12s %12s %12s\n",
			       "", "count", "mean", "p99", "max");
	if (mcs_json_num(normal, "count") > 0)
		latency_row(out, "synchronize_rcu", normal);
	if (mcs_json_num(expedited, "count") > 0)
		latency_row(out, "expedited", expedited);
	g_string_append_c(out, '\n');
}

/* Sources and CPUs whose interrupts waited at all: the latency table. */
static void irq_latency(json_t *irq, GString *out)
{
	bool any = false;
	size_t i;
	json_t *s;
	json_array_foreach (json_object_get(irq, "sources"), i, s)
		any |= mcs_json_num(s, "max_ns") > 0;
	if (!any)
		return;
	g_string_append_printf(
	    out, "Interrupt latency (arrival to handler)\n  %-16s %10s %12s %12s %12s\n", "source",
	    "count", "mean", "p99", "max");
	json_array_foreach (json_object_get(irq, "sources"), i, s)
		if (mcs_json_num(s, "max_ns") > 0)
			latency_row(out, json_string_value(json_object_get(s, "name")), s);
	GPtrArray *cpus = report_sorted(json_object_get(irq, "cpus"), by_max_latency);
	for (guint k = 0;
	     k < cpus->len && k < IRQ_CPU_ROWS && mcs_json_num(cpus->pdata[k], "max_ns") > 0; k++) {
		char label[32];
		g_snprintf(label, sizeof(label), "cpu%.0f", mcs_json_num(cpus->pdata[k], "cpu"));
		latency_row(out, label, cpus->pdata[k]);
	}
	g_ptr_array_free(cpus, TRUE);
	g_string_append_c(out, '\n');
}

void report_irq(json_t *variant, GString *out)
{
	json_t *irq = json_object_get(variant, "interrupts");
	if (!irq)
		return;
	irq_latency(irq, out);
	size_t i;
	json_t *l;
	bool header = false;
	json_array_foreach (json_object_get(variant, RK_locks), i, l) {
		if (mcs_json_num(l, "irqoff_ns") <= 0)
			continue;
		if (!header)
			g_string_append(out, "Interrupts off, by lock class:\n");
		header = true;
		g_string_append_printf(out, "  %-40s ",
				       json_string_value(json_object_get(l, "class")));
		report_time(out, mcs_json_num(l, "irqoff_ns"), 12);
		g_string_append_c(out, '\n');
	}
	if (header)
		g_string_append_c(out, '\n');
}

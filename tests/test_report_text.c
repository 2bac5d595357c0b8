/* What the text report says and leaves out: the verdict line against
 * hand-built results, and sections with nothing in them left out. */
#include "report.h"
#include "test_util.h"
#include <jansson.h>
#include <string.h>

/* A variant whose replicas give @x (3 values) for x_ns, and 100 for
 * elapsed_ns in each. */
static json_t *variant(const char *name, double x0, double x1, double x2)
{
	json_t *reps = json_array();
	double xs[3] = {x0, x1, x2};
	for (int i = 0; i < 3; i++)
		json_array_append_new(reps, json_pack("{s:{s:f, s:f}}", "metrics", "elapsed_ns",
						      100.0, "x_ns", xs[i]));
	return json_pack("{s:s, s:i, s:{s:f, s:f}, s:o}", "name", name, "replicas", 3, "metrics",
			 "elapsed_ns", 100.0, "x_ns", xs[1], "per_replica", reps);
}

static char *verdict(json_t *variants)
{
	GString *out = g_string_new(NULL);
	report_verdict(variants, out);
	json_decref(variants);
	return g_string_free(out, FALSE);
}

/* elapsed_ns is the same everywhere: x_ns is the main figure. Means 50, 40
 * and 45 ns: b is 20% better (Welch's t 12.2 on 4 degrees of freedom, p <
 * 0.001). */
static void test_verdict(void)
{
	char *v = verdict(json_pack("[o, o, o]", variant("a", 49, 50, 51), variant("b", 39, 40, 41),
				    variant("c", 44, 45, 46)));
	g_assert_cmpstr(v, ==,
			"b beats a by 20.00% on x_ns (40.00 ns against 50.00 ns): significant.\n");
	g_free(v);
	/* 60 and 55 against 50: the baseline stays best, c is 10% worse */
	v = verdict(json_pack("[o, o, o]", variant("a", 49, 50, 51), variant("b", 59, 60, 61),
			      variant("c", 54, 55, 56)));
	g_assert_cmpstr(v, ==,
			"a stays best on x_ns; the closest, c, is 10.00% worse (55.00 ns against "
			"50.00 ns): significant.\n");
	g_free(v);
	/* 50.5 against 50, spread over +-10: p far above 0.05 */
	v = verdict(json_pack("[o, o]", variant("a", 40, 50, 60), variant("b", 40.5, 50.5, 60.5)));
	g_assert_cmpstr(v, ==,
			"a stays best on x_ns; the closest, b, is 1.00% worse (50.50 ns against "
			"50.00 ns): not significant (Welch p 0.95).\n");
	g_free(v);
	v = verdict(json_pack("[o, o]", variant("a", 1, 2, 3), variant("b", 1, 2, 3)));
	g_assert_cmpstr(v, ==, "No variant changes any figure of a.\n");
	g_free(v);
}

/* Grace periods never waited for, an interrupt source that never waited,
 * a page_cgroup without charge moves: none of it is printed. */
static void test_leaves_out_empty(void)
{
	json_t *v = json_pack(
		"{s:{s:{s:i, s:f, s:f, s:f}, s:{s:i, s:f, s:f, s:f}},"
		" s:{s:[{s:s, s:i, s:f, s:f, s:f}, {s:s, s:i, s:f, s:f, s:f}], s:[]},"
		" s:[]}",
		"rcu", "grace_periods", "count", 0, "mean_ns", 0.0, "p99_ns", 0.0, "max_ns", 0.0,
		"expedited", "count", 0, "mean_ns", 0.0, "p99_ns", 0.0, "max_ns", 0.0, "interrupts",
		"sources", "name", "tick", "count", 10, "mean_ns", 0.0, "p99_ns", 0.0, "max_ns", 0.0,
		"name", "disk", "count", 4, "mean_ns", 250.0, "p99_ns", 500.0, "max_ns", 500.0, "cpus",
		"locks");
	GString *out = g_string_new(NULL);
	report_rcu(v, out);
	g_assert_cmpstr(out->str, ==, "");
	report_irq(v, out);
	g_assert_cmpstr(out->str, ==,
			"Interrupt latency (arrival to handler)\n"
			"  source                count         mean          p99          max\n"
			"  disk                      4    250.00 ns    500.00 ns    500.00 ns\n\n");
	g_string_truncate(out, 0);
	report_lock_stat(json_object_get(v, "locks"), out);
	report_perf_lock(json_object_get(v, "locks"), "wait_total", out);
	g_assert_cmpstr(out->str, ==, "");
	/* a titled section with an empty body is not rendered */
	GPtrArray *sections = report_sections_new();
	report_section_add(sections, "head");
	report_section_add(sections, "nothing");
	g_string_append(report_section_add(sections, "something")->body, "x\n");
	report_format_text(sections, NULL, out);
	g_assert_cmpstr(out->str, ==, "head\n\n== something ==\nx\n");
	g_ptr_array_free(sections, TRUE);
	g_string_truncate(out, 0);
	json_decref(v);
	v = json_pack("{s:{s:{s:s, s:i, s:i, s:i, s:i}}}", "memcg", "page_cgroup", "locking", "rcu",
		      "updates", 5, "locked", 0, "lockless", 5, "moves", 0);
	report_memcg(v, out);
	g_assert_cmpstr(out->str, ==,
			"page_cgroup (rcu): 5 statistics updates, 0 under the lock, 5 lockless\n\n");
	g_string_free(out, TRUE);
	json_decref(v);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/report/verdict", test_verdict);
	g_test_add_func("/report/leaves-out-empty", test_leaves_out_empty);
	return g_test_run();
}

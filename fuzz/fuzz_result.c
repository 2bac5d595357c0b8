// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: the readers of result and run files (report, merge,
 * --resume) and of the machine's lock statistics (report --lock-stat) must
 * reject or accept any bytes without crashing, leaking or running away: a
 * run file's checks, the list of runs a plan (sweep.json) gives merge, the
 * bytes as /proc/lock_stat or perf lock contention output, then, for a
 * document the result checker accepts, every report format but HTML (whose
 * plots run gnuplot), with a fixed lock_stat beside it (as counts and as
 * rates), and the result compared with itself. */
#include "lockstat.h"
#include "report.h"
#include "result.h"
#include "result_format.h"
#include "runfile.h"
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

/* A small /proc/lock_stat of two classes, parsed once. */
static struct lockstat *measured(void)
{
	static struct lockstat *ls;
	static const char text[] =
	    "lock_stat version 0.4\n"
	    "-----\n"
	    "class name con-bounces contentions waittime-min waittime-max waittime-total "
	    "waittime-avg acq-bounces acquisitions holdtime-min holdtime-max holdtime-total "
	    "holdtime-avg\n"
	    "-----\n"
	    "&lb->lock: 2800 2819 0.15 9.62 20114.00 7.14 2822 2822 0.09 1.31 301.95 0.11\n"
	    "&lb->node_lock: 7300 7368 0.12 4.01 13507.12 1.83 7377 7377 0.08 0.95 789.34 "
	    "0.11\n";
	if (!ls)
		ls = lockstat_parse("fixture", text, sizeof(text) - 1, NULL);
	return ls;
}

static void render(json_t *doc, const char *format, const struct lockstat *ls)
{
	struct report_opts o = {.format = report_format_find(format),
				.sort = "wait_total",
				.measured = ls,
				.measured_path = "fixture"};
	GError *err = NULL;
	GString *out = g_string_new(NULL);
	report_render(doc, &o, out, &err);
	g_clear_error(&err);
	g_string_free(out, TRUE);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	GError *err = NULL;
	lockstat_free(lockstat_parse("input", (const char *)data, size, &err));
	g_clear_error(&err);
	json_t *doc = json_loadb((const char *)data, size, 0, NULL);
	if (!doc)
		return 0;
	g_free(runfile_problem(doc, "p0000-v00-r000", "plan", -1));
	runfile_runs_free(runfile_runs(doc));
	const char *fmt = json_string_value(json_object_get(doc, "format"));
	bool result = fmt && !strcmp(fmt, RESULT_FORMAT);
	bool known = result || (fmt && !strcmp(fmt, RESULT_FORMAT_SWEEP));
	if (known && result_check(doc, &err)) {
		static const char *const formats[] = {"text", "md", "summary", "csv", "json"};
		for (size_t i = 0; i < G_N_ELEMENTS(formats); i++)
			render(doc, formats[i], NULL);
		struct lockstat *ls = measured();
		if (result && ls) {
			render(doc, "text", ls);
			ls->seconds = 10;
			render(doc, "summary", ls);
			ls->seconds = 0;
		}
		if (result)
			g_ptr_array_free(
			    report_compare_results(doc, "a", doc, "b", NULL, NULL, NULL), TRUE);
	}
	g_clear_error(&err);
	json_decref(doc);
	return 0;
}

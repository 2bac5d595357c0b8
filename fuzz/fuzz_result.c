// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: the readers of result and run files (report, merge,
 * --resume) must reject or accept any bytes without crashing, leaking or
 * running away: a run file's checks, the list of runs a plan (sweep.json)
 * gives merge, then, for a document the result
 * checker accepts, every report format but HTML (whose plots run gnuplot). */
#include "report.h"
#include "result.h"
#include "runfile.h"
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	json_t *doc = json_loadb((const char *)data, size, 0, NULL);
	if (!doc)
		return 0;
	g_free(runfile_problem(doc, "p0000-v00-r000", "plan", -1));
	runfile_runs_free(runfile_runs(doc));
	GError *err = NULL;
	const char *fmt = json_string_value(json_object_get(doc, "format"));
	bool known = fmt && (!strcmp(fmt, "memcgsim-result-1") || !strcmp(fmt, "memcgsim-sweep-1"));
	if (known && result_check(doc, &err)) {
		static const char *const formats[] = {"text", "md", "csv", "json"};
		for (size_t i = 0; i < G_N_ELEMENTS(formats); i++) {
			struct report_opts o = {.format = report_format_find(formats[i]),
						.sort = "wait_total"};
			GString *out = g_string_new(NULL);
			report_render(doc, &o, out, &err);
			g_clear_error(&err);
			g_string_free(out, TRUE);
		}
	}
	g_clear_error(&err);
	json_decref(doc);
	return 0;
}

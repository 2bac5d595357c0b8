// SPDX-License-Identifier: GPL-2.0-or-later
/* memcgsim calibrate FIT_FILE: a preset's contention parameters fitted to
 * published curves, each point a run of this program (calib.h). */
#include "calib.h"
#include "cli_util.h"
#include <stdio.h>

static int cmd_calibrate(struct cli *c)
{
	if (!cli_jobs_valid(c))
		return EXIT_USAGE;
	GError *err = NULL;
	struct calib_spec *s = calib_spec_load(c->files[0], &err);
	if (!s)
		return cli_error(err, "");
	GString *out = g_string_new(NULL);
	bool ok = calib_fit(s, "/proc/self/exe", c->jobs > 0 ? c->jobs : 1, out, &err);
	calib_spec_free(s);
	if (ok)
		ok = cli_output(c, out, "the calibration", &err);
	g_string_free(out, TRUE);
	return ok ? 0 : cli_error(err, "memcgsim: ");
}

static const GOptionEntry calibrate_options[] = {
    CLI_OPT_JOBS, CLI_OPT_OUTPUT, CLI_OPT_FILES("FIT_FILE"), {NULL}};

const struct cli_command cli_calibrate_command = {
    .name = "calibrate",
    .doc = "fit a preset's contention parameters to published curves",
    .synopsis = "FIT_FILE - fit a preset's contention parameters to measured curves",
    .options = calibrate_options,
    .files = 1,
    .files_what = "fit FILE (data/contention/fit-*.json)",
    .fn = cmd_calibrate,
};

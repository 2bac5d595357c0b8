// SPDX-License-Identifier: GPL-2.0-or-later
/* memcgsim calibrate FIT_FILE: a preset's contention parameters fitted to
 * published curves, each point a run of this program (calib.h). */
#include "calib.h"
#include "cli_util.h"
#include "mcs_error.h"
#include "output.h"
#include <stdio.h>

static char *machine_out; /* --machine-out FILE */

/* -o and --machine-out can be written, and are neither the fit file nor
 * each other. */
static bool calibrate_outputs(const struct cli *c, GError **err)
{
	const struct cli_path outs[] = {
	    {"-o", c->output}, {"--machine-out", machine_out}, {NULL, NULL}};
	const struct cli_path ins[] = {{"the fit file", c->files[0]}, {NULL, NULL}};
	if (machine_out && g_str_equal(machine_out, "-")) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
			    "--machine-out: \"-\": a machine file goes to a file, not to standard "
			    "output");
		return false;
	}
	return output_check(c->output, "-o", err) &&
	       output_check(machine_out, "--machine-out", err) && cli_outputs_apart(outs, ins, err);
}

static int cmd_calibrate(struct cli *c)
{
	if (!cli_jobs_valid(c))
		return EXIT_USAGE;
	GError *err = NULL;
	if (!calibrate_outputs(c, &err))
		return cli_error(err, "memcgsim: ");
	struct calib_spec *s = calib_spec_load(c->files[0], &err);
	if (!s)
		return cli_error(err, "");
	GString *out = g_string_new(NULL);
	bool ok = calib_fit(s, "/proc/self/exe", c->jobs > 0 ? c->jobs : 1, out, &err);
	if (ok) /* the table first: a machine file refused, it still says why */
		ok = cli_output(c, out, "the calibration", &err);
	if (ok && machine_out)
		ok = calib_machine_write(s, machine_out, &err);
	calib_spec_free(s);
	g_string_free(out, TRUE);
	return ok ? 0 : cli_error(err, "memcgsim: ");
}

static void calibrate_cleanup(void)
{
	g_free(machine_out);
}

static const GOptionEntry calibrate_options[] = {
    CLI_OPT_JOBS,
    CLI_OPT_OUTPUT,
    {"machine-out", 0, 0, G_OPTION_ARG_FILENAME, &machine_out,
     "Write the fitted values as a machine file FILE, for run --machine (atomically)", "FILE"},
    CLI_OPT_FILES("FIT_FILE"),
    {NULL}};

const struct cli_command cli_calibrate_command = {
    .name = "calibrate",
    .doc = "fit a preset's contention parameters to published curves",
    .synopsis = "FIT_FILE - fit a preset's contention parameters to measured curves",
    .options = calibrate_options,
    .files = 1,
    .files_what = "fit FILE (data/contention/fit-*.json)",
    .fn = cmd_calibrate,
    .cleanup = calibrate_cleanup,
};

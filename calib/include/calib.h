/* SPDX-License-Identifier: GPL-2.0-or-later */
/* calib: the fit of a preset's contention parameters to published curves
 * (memcgsim calibrate; docs/validation.md, "The fit as a command").
 *
 * A fit file (data/contention/fit-<preset>.json, format "memcgsim-fit-1")
 * names a preset, the machine.costs keys to fit with their grids, and the
 * measurement files to fit them to (data/contention/NAME.json, format
 * "memcgsim-measurement-1"), each with a "model" block saying which
 * scenario, variant and --set overrides run its points, which of the run's
 * metrics stands for the measured quantity, and how to convert. Every point
 * is a run of this memcgsim in a child process (one simulation a process,
 * as SimGrid allows). The search is a grid, one parameter at a time, until
 * none moves: the fitted values make the largest relative error over every
 * point smallest (ties: the smaller sum of squared log errors). A
 * parameter's range is the interval of its grid around the fit over which
 * every point stays within the fit file's bound (the others at their fit). */
#pragma once
#include <glib.h>
#include <stdbool.h>

/* One point of a curve: the measurement converted to the model metric's unit,
 * and the overrides that run it. */
struct calib_point {
	double x, measured;
	GPtrArray *sets; /* "key=value" strings, the curve's then the point's */
	double threads;	 /* "period": the threads sharing, for 1000 x threads / metric */
};

struct calib_curve {
	char *name, *path, *source, *measured_what;
	char *scenario, *variant, *metric;
	bool period; /* the model's value is 1000 x threads / metric (a thread's period, ns) */
	GPtrArray *points; /* struct calib_point, owned */
};

struct calib_param {
	char *key; /* a machine.costs key */
	double lo, hi, step;
	double fit, range_lo, range_hi, preset; /* preset: the preset's value, NAN if none */
};

struct calib_spec {
	char *path, *preset, *family;
	double bound; /* the largest relative error a range allows */
	double worst; /* after calib_fit: the largest relative error of the fit, signed */
	struct calib_param *params;
	int nparams;
	GPtrArray *curves; /* struct calib_curve, owned */
};

/* Load the fit file at @path and its measurement files (named relative to
 * it); NULL and @err (MCS_ERROR_INPUT, "FILE: JSON.PATH: expected ...") on
 * bad input. */
struct calib_spec *calib_spec_load(const char *path, GError **err);
void calib_spec_free(struct calib_spec *s);

/* Fit @s's parameters, running points with @self (this program) at most
 * @jobs at once; write the report to @out. False and @err if a run fails. */
bool calib_fit(struct calib_spec *s, const char *self, int jobs, GString *out, GError **err);

/* A machine file (format "memcgsim-machine-1"; docs/scenario.md, "A machine
 * file"): one machine's costs, measured (memcgsim-probe) or fitted
 * (calibrate --machine-out), with their source and the preset they refine.
 * Its --set overrides ("machine.preset=NAME", then "machine.costs.KEY=NS"
 * in the file's order) appended to @sets; false, @sets as it was, and @err
 * (MCS_ERROR_INPUT, "PATH:LINE:COL: JSON.PATH: expected ...") on bad input. */
bool calib_machine_sets(const char *path, GPtrArray *sets, GError **err);
/* @s's fitted values as a machine file at @path (atomically, output.h),
 * after calib_fit; refused (MCS_ERROR_FAILED) when the fit's largest error
 * is beyond its bound: a value at the edge of its grid is no machine's. */
bool calib_machine_write(const struct calib_spec *s, const char *path, GError **err);

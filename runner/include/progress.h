/* SPDX-License-Identifier: GPL-2.0-or-later */
/* progress: how far a sweep has got, on stderr: a bar with the rate and an
 * ETA redrawn in place on a terminal, one plain line per run otherwise (a
 * log file, CI). */
#pragma once
#include <glib.h>
#include <stdbool.h>
#include <stdio.h>

struct progress {
	FILE *out;
	size_t total, done, done_before; /* runs: all, finished, finished before this start */
	gint64 start;			 /* monotonic, us */
	bool tty;
	double eta_s; /* from the runs' own progress (progress_tick); < 0: not known */
};

/* @out NULL: nothing is shown (--quiet). */
void progress_start(struct progress *p, FILE *out, size_t total, size_t done, bool tty);
/* One more run finished: @what names it, @wall_s its wall time. */
void progress_step(struct progress *p, const char *what, double wall_s);
void progress_finish(struct progress *p);
/* While the runs go on: the ETA from @jobs as they stand (the running ones'
 * simulated progress, the finished ones' wall times for those queued),
 * redrawn on a terminal. */
struct runner_job;
void progress_tick(struct progress *p, const struct runner_job *jobs, size_t n, int parallel);

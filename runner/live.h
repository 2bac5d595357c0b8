/* SPDX-License-Identifier: GPL-2.0-or-later */
/* live: while `memcgsim run` waits for its simulations, a line for each
 * one running, redrawn in place on a terminal: variant and replica, the
 * simulated time reached (with the share of a timed run's duration),
 * elapsed wall time and an ETA; cleared when the runs end. Without a
 * terminal (runner_opts.plain), a line at a steady interval instead, the
 * same count and estimate and each running simulation's clock, never
 * redrawn. Each child
 * reports its clock on a pipe (sim_engine_progress_fd), which also serves
 * the estimate of the run's wall time (estimate.h); nothing of it goes to
 * standard output or into a result. Private to runner/: runner_jobs keeps
 * one struct live for its jobs. */
#pragma once
#include "runner.h"
#include <stdio.h>
#include <sys/types.h>

struct live {
	FILE *out;			 /* runner_opts.live */
	FILE *plain;			 /* runner_opts.plain, every plain_every_us */
	gint64 plain_every_us, plain_at; /* and when it last said (monotonic us) */
	int lines;			 /* drawn below the cursor's line, to go back over */
	double limit_s;			 /* the wall time's limit (estimate.h); 0: none */
	runner_tick_fn tick;		 /* runner_opts.tick, with its tick_ctx */
	void *tick_ctx;
};

/* For the jobs of one runner_jobs, as @o says (NULL: no lines, no limit). */
void live_start(struct live *lv, const struct runner_opts *o);
/* Before forking @j: its pipe, when lines are drawn or the wall time is
 * estimated. */
void live_job_prepare(const struct live *lv, struct runner_job *j);
/* In the child: report on the pipe. In the parent: keep the read end. */
void live_job_child(const struct runner_job *j);
void live_job_parent(struct runner_job *j);
/* waitpid(-1, @status, 0), drawing the running @jobs' lines meanwhile
 * and estimating their wall time (@parallel run at a time), calling the
 * tick. Returns -1 with errno EINTR when a signal came, as waitpid does;
 * -1 with @refused set when the estimate passed the limit (the jobs still
 * run). */
pid_t live_wait(struct live *lv, struct runner_job *jobs, size_t n, int parallel, int *status,
		GError **refused);
/* A job was reaped: its pipe closed. */
void live_job_done(struct runner_job *j);
/* The runs are over: the lines are erased. */
void live_clear(struct live *lv);

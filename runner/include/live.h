/* SPDX-License-Identifier: GPL-2.0-or-later */
/* live: while `memcgsim run` waits for its simulations, a line for each
 * one running, redrawn in place on a terminal: variant and replica, the
 * simulated time reached (with the share of a timed run's duration),
 * elapsed wall time and an ETA; cleared when the runs end. Each child
 * reports its clock on a pipe (sim_engine_progress_fd), which also serves
 * the estimate of the run's wall time (estimate_wall_limit); nothing of it
 * goes to standard output or into a result. */
#pragma once
#include "runner.h"
#include <stdio.h>
#include <sys/types.h>

/* Draw on @out from now on (NULL: not at all, the default). */
void live_enable(FILE *out);
/* Before forking @j: its pipe, when live lines are drawn or the wall
 * time is estimated (estimate_wall_limit). */
void live_job_prepare(struct runner_job *j);
/* In the child: report on the pipe. In the parent: keep the read end. */
void live_job_child(const struct runner_job *j);
void live_job_parent(struct runner_job *j);
/* waitpid(-1, @status, 0), drawing the running @jobs' lines meanwhile
 * and estimating their wall time (@parallel run at a time). Returns -1
 * with errno EINTR when a signal came, as waitpid does; -1 with @refused
 * set when the estimate passed the limit (the jobs still run). */
pid_t live_wait(struct runner_job *jobs, size_t n, int parallel, int *status, GError **refused);
/* A job was reaped: its pipe closed. */
void live_job_done(struct runner_job *j);
/* The runs are over: the lines are erased. */
void live_clear(void);
/* While live_wait waits (about every SIM_PROGRESS_US), call @fn with the
 * jobs as they stand (a sweep's bar redraws its ETA); NULL: nobody. */
typedef void (*live_tick_fn)(const struct runner_job *jobs, size_t n, int parallel, void *ctx);
void live_on_tick(live_tick_fn fn, void *ctx);

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pace: how fast each running simulation goes, from the clock it reports on
 * its pipe (live.h reads it), and what is left of a set of jobs' wall time;
 * the live lines, a sweep's bar and the wall time's estimate read it. */
#pragma once
#include <glib.h>
#include <stdbool.h>

/* One job's reports: a runner_job member (runner.h). */
struct job_pace {
	double reached_ns;	     /* the simulated time it last reported */
	double share;		     /* and the part of its work done (sim_work_plan); -1: none */
	double share_rate;	     /* of late, per wall second (0: not known yet) */
	double share_anchor;	     /* the share when that rate's window began */
	gint64 share_anchor_at;	     /* and when (monotonic us; 0: not yet) */
	double first_ns;	     /* and first */
	gint64 reached_at, first_at; /* when those came (monotonic, us; 0: none yet) */
	gint64 moved_at;	     /* when the simulated time reported last grew */
};

/* No report yet. */
void pace_reset(struct job_pace *p);
/* It reported that it had simulated @ns, just now, and done @share of its
 * work (-1: it does not say). */
void pace_report(struct job_pace *p, double ns, double share);

struct runner_job;
/* The wall time job @j (started, not finished) is expected to take in
 * all: a timed run's share of its duration simulated, a run to
 * completion's work at its recent pace (sim_work_plan), else what a
 * finished job of the same configuration took among @jobs; 0: not known. */
double pace_expected_s(const struct runner_job *j, const struct runner_job *jobs, size_t n);
/* What is left of @jobs' wall time, @parallel at a time: a running job's
 * from its own progress (or its like's), a queued one's what a finished job
 * of its configuration took, else the finished ones' mean, else what the
 * running ones (of its configuration, or all) are expected to take in all,
 * from their measured rates; their sum shared
 * among @parallel, at least the longest. *@known: every job's is known;
 * else the figure counts only those that are (a lower bound). */
double pace_left_s(const struct runner_job *jobs, size_t n, int parallel, bool *known);
/* @secs as "1:05:09", "4:07" or "0:03". */
void pace_put_duration(GString *s, double secs);

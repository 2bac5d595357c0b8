/* SPDX-License-Identifier: GPL-2.0-or-later */
/* runner: runs each variant and replica of a scenario in its own process
 * (SimGrid allows one simulation per process) and gathers the results into
 * one result document (docs/results.md). */
#pragma once
#include "pace.h"
#include "scenario.h"

/* One simulation. The caller fills in the first members. */
struct runner_job {
	const struct run_config *config;
	uint64_t seed;
	/* When set, the run's costs are drawn (run_simulate()). */
	bool drawn;
	/* When set, the child lists the lock classes the run makes and the sites
	 * that took them in its first classes_for (run_lock_classes()), not a
	 * result. */
	bool classes;
	sim_time_t classes_for;
	struct run_draw draw;
	/* When set, the child itself writes {meta..., "violation", "result"} to
	 * @dest atomically (a temporary file renamed over it) and the parent does
	 * not read it back: a sweep's run file. Otherwise the parent reads the
	 * result into @result. */
	const char *dest;
	json_t *meta;
	/* When set, the child writes a Chrome trace of its run here (sim_trace). */
	const char *trace;
	sim_time_t trace_from, trace_to; /* its window (sim_trace_begin) */
	int trace_pid;			 /* the trace's process id: one per variant */
	long trace_max;			 /* its share of the trace file's events */
	/* What the live progress calls it ("per-node replica 2/3"); the
	 * caller's. */
	char *label;
	/* Its variant's name and its sweep point (-1: a run's), for the wall
	 * time's estimate: a point's jobs (all of a run's) are taken together. */
	const char *variant;
	int point;
	/* Filled in when the job has finished. */
	json_t *result;
	bool violation;
	double wall_s; /* wall-clock time of the run */
	/* the runner's */
	struct job_pace pace; /* pace.h */
	int live_fd[2];	      /* the progress pipe (live.c's), -1: none */
	bool live_cut;	      /* its last read ended inside a report */
	pid_t pid;
	char *path;
	gint64 started;
};

/* The lock classes a run of @config makes, each with the sites that took it
 * in its first @run_for of simulated time (run_lock_classes(), run.h), from
 * a child process; NULL (@err) when it failed. */
json_t *runner_lock_classes(const struct run_config *config, uint64_t seed, sim_time_t run_for,
			    GError **err);
/* The job of variant @v's cost draw @d (its config, seed and draw). */
struct runner_job runner_draw_job(const struct scenario_variant *v, int d);

/* What runner_jobs and sweeps have to say that is not an error (-j reduced
 * to the memory budget, a run file moved aside): cli/ prints it, printable. */
typedef void (*runner_note_fn)(const char *msg);
/* While the jobs run, about every SIM_PROGRESS_US: the jobs as they stand
 * (a sweep's bar redraws its ETA). */
typedef void (*runner_tick_fn)(const struct runner_job *jobs, size_t n, int parallel, void *ctx);

/* How runner_jobs runs and what it shows, the caller's; NULL: none of it. */
struct runner_opts {
	FILE *live;	      /* the live lines (live.h) drawn here; NULL: none */
	FILE *plain;	      /* without a terminal: a plain progress line here ... */
	double plain_every_s; /* ... every so many wall seconds (> 0) */
	bool wall_limit;      /* stop and refuse a run the wall time's estimate puts past
				 RUNNER_MAX_WALL_S (estimate.h); --force: false */
	runner_tick_fn tick;  /* NULL: nobody */
	void *tick_ctx;
	runner_note_fn note; /* NULL: nothing said */
};
/* The memory the simulations running at once may hold together, by their
 * estimates: half the machine's memory, at least RUN_MAX_MEMORY_BYTES. */
double runner_memory_budget(void);

/* Called in the parent as each job finishes (in completion order). */
typedef void (*runner_done_fn)(struct runner_job *job, void *ctx);

/* Run @n jobs, at most @parallel at a time, started in runner_start_order
 * of their work estimates. False (with @err) when one died; the others
 * already running are waited for, no new one is started. False
 * (MCS_ERROR_INPUT) when the wall time's estimate passed the limit
 * (@o->wall_limit): the running jobs are killed. The children die with
 * the parent (a killed sweep leaves no orphan behind). Each job's result
 * stays in its own slot: what the caller gathers does not depend on the
 * order, nor on @parallel. */
bool runner_jobs(struct runner_job *jobs, size_t n, int parallel, const struct runner_opts *o,
		 runner_done_fn done, void *ctx, GError **err);
/* The order in which runner_jobs starts @n jobs whose estimated work is
 * @work[i] (run_estimate_cpu_s: simulated CPU-seconds; below 0: not known):
 * the most work first, so that the last to start are the shortest and the
 * CPUs finish together (longest processing time first, Graham 1969); a job
 * of unknown work before all the others (it may be the longest); equal
 * estimates in their given order. @order gets the @n indices. */
void runner_start_order(const double *work, size_t n, size_t *order);
/* Run one simulation of @config with @seed in a child process. Returns the
 * replica result, or NULL with @err set when the child died; *violation is
 * set when the run reported a failure (exit status 1). */
json_t *runner_run_one(const struct run_config *config, uint64_t seed, bool *violation,
		       GError **err);
/* Refuse (MCS_ERROR_INPUT) a variant of @sc whose estimated work passes
 * RUN_MAX_CPU_S, unless @force; @where names the sweep point ("" for a
 * run). The estimate is in the message. */
bool runner_check_work(const struct scenario *sc, bool force, const char *where, GError **err);
/* Run every variant of @sc (scenario_choose() keeps those that run) with
 * all its replicas and cost draws (kept apart in its result: "per_replica",
 * "draws"), @parallel simulations at a time, as @o says (runner_jobs); the
 * result does not depend on @parallel. @trace: a Chrome trace of each
 * variant's first replica (NULL: none). */
struct runner_trace {
	const char *path;
	sim_time_t from, to; /* the window of simulated time (sim_trace.h) */
};
json_t *runner_run(const struct scenario *sc, int parallel, const struct runner_trace *trace,
		   const struct runner_opts *o, bool *violation, GError **err);

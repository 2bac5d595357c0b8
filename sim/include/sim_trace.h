/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sim_trace: a Chrome / Perfetto JSON trace of a window of simulated time.
 *
 * The models mark spans (a lock held, a wait, interrupts off, a reclaim
 * phase, a handler) with their start and end; the spans that overlap the
 * window are written as complete ("X") events, one track per task, named
 * after its CPU, so the trace opens in ui.perfetto.dev or chrome://tracing.
 * Timestamps are in microseconds with picosecond digits. At most
 * SIM_TRACE_MAX_EVENTS events are written to a trace file, shared out among
 * the processes (variants) joined into it; a part cut short says so in its
 * metadata. Tracing costs one branch per span when it is off. */
#pragma once
#include "sim_time.h"
#include <glib.h>
#include <stdbool.h>

#define SIM_TRACE_MAX_EVENTS 2000000

struct sim_task;

extern bool sim_trace_enabled;

/* The window of a trace when none is given: the first millisecond. */
#define SIM_TRACE_DEFAULT_TO SIM_MS
/* Start writing this process's events in the window [@from, @to) of
 * simulated time to @path as process @pid, at most @max_events of them
 * (its share of the file's SIM_TRACE_MAX_EVENTS), a task's track named
 * after @task_name(task) (sim_task_name). */
bool sim_trace_begin(const char *path, int pid, long max_events, sim_time_t from, sim_time_t to,
		     const char *(*task_name)(const struct sim_task *t));
/* Finish the file; false, errno saying why, when a write to it failed. */
bool sim_trace_end(void);
/* A span of @t (NULL: @cpu idle) from @from to @to. @cat: "lock", "wait",
 * "irqoff", "irq", "reclaim"; @name is copied. An empty "lock" span (a hold
 * of no simulated time) is written as an instant ("ph":"i"); other empty
 * spans are left out. */
void sim_trace_span_(const struct sim_task *t, int cpu, const char *cat, const char *name,
		     sim_time_t from, sim_time_t to);
static inline void sim_trace_span(const struct sim_task *t, int cpu, const char *cat,
				  const char *name, sim_time_t from, sim_time_t to)
{
	if (sim_trace_enabled)
		sim_trace_span_(t, cpu, cat, name, from, to);
}
/* Where a trace is written: @len bytes of @data; false with @err. */
typedef bool (*sim_trace_put_fn)(void *ctx, const void *data, size_t len, GError **err);
/* Join the event files @parts of the processes named @names into a trace,
 * written through @put; false with @err when a part cannot be read or
 * @put fails. */
bool sim_trace_join(sim_trace_put_fn put, void *ctx, const char *const *parts,
		    const char *const *names, size_t n, GError **err);

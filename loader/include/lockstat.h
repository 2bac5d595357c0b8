/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lockstat: the real machine's lock statistics, to print beside the model's
 * (`memcgsim report RESULT --lock-stat FILE`). Two inputs, told apart by
 * their first lines:
 *
 * - /proc/lock_stat as CONFIG_LOCK_STAT writes it, version 0.4
 *   (Documentation/locking/lockstat.rst): per class (per read/write state,
 *   "-R" and "-W"; per subclass, "/1"), "NAME:" and twelve numbers:
 *   con-bounces, contentions, waittime-min, -max, -total, -avg,
 *   acq-bounces, acquisitions, holdtime-min, -max, -total, -avg, the times
 *   in microseconds; then the contention points ("NAME COUNT [<IP>]
 *   SYMBOL"), between separators of dashes, and dotted lines between
 *   classes.
 * - `perf lock contention` (tools/perf/Documentation/perf-lock.txt): a
 *   header "contended total wait max wait avg wait type caller" (or
 *   "... type lock" with -l, "... type address symbol"), then per row the
 *   count, three times with their units (ns, us, ms, s, m, h), the lock type and
 *   the caller or the lock; a caller's "+0x.." offset is dropped, and rows
 *   of the same name add up.
 *
 * Times are kept in ns. Anything else is an error that gives the file, the
 * line and what was expected. */
#pragma once
#include <glib.h>
#include <stdbool.h>

/* The most a file may be (a /proc/lock_stat of a big machine is a few MiB). */
#define LOCKSTAT_MAX_BYTES (64u << 20)

enum lockstat_source { LOCKSTAT_PROC, LOCKSTAT_PERF };

struct lockstat_class {
	char *name; /* a lock_stat class, or perf's caller or lock */
	double contentions, wait_min, wait_max, wait_total; /* ns */
	/* lock_stat only (perf lock contention does not count them) */
	double con_bounces, acq_bounces, acquisitions, hold_min, hold_max, hold_total;
};

struct lockstat {
	enum lockstat_source source;
	GPtrArray *classes; /* struct lockstat_class, in the file's order */
	/* How long the machine measured (report --lock-stat-seconds: from
	 * `echo 0 > /proc/lock_stat` to the read); 0: not given. */
	double seconds;
};

/* Read @path (at most LOCKSTAT_MAX_BYTES); NULL with the error
 * ("PATH:LINE: ...", MCS_ERROR_INPUT) when it is neither input. */
struct lockstat *lockstat_read(const char *path, GError **err);
/* The same from @text, named @path in errors. */
struct lockstat *lockstat_parse(const char *path, const char *text, gsize len, GError **err);
void lockstat_free(struct lockstat *ls);
/* "/proc/lock_stat (version 0.4)" or "perf lock contention". */
const char *lockstat_source_name(const struct lockstat *ls);

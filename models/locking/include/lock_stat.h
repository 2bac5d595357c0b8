/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lock_stat: per-lock-class statistics, as /proc/lock_stat keeps them.
 *
 * Lock instances share a class (every per-node lock of one list_lru is one
 * class, as lockdep sees it). Contention points are the model functions of
 * waiters; contending points those where the holder took the lock. */
#pragma once
#include "sim_hist.h"
#include "sim_time.h"
#include <glib.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

struct lock_point {
	const char *site;
	uint64_t count;
	sim_time_t wait_total; /* contention points only */
	sim_time_t wait_max;
};

/* A lock class's counts, listed once, X(field, column): the struct's
 * members, their keys in a result (lock_stat_to_json), what merging
 * replicas adds up (results/result.c) and the /proc/lock_stat column. The
 * bounces are the contentions and acquisitions whose lock line came from
 * another CPU. LOCK_STAT_LATE_COUNTS came later and stay last in a result. */
#define LOCK_STAT_COUNTS(X)                                                                        \
	X(acquisitions, "acquisitions")                                                            \
	X(contentions, "contentions")                                                              \
	X(con_bounces, "con-bounces")                                                              \
	X(acq_bounces, "acq-bounces")
#define LOCK_STAT_LATE_COUNTS(X) X(trylock_failures, NULL)
#define LOCK_STAT_MEMBER(field, column) uint64_t field;

struct lock_class {
	char *name;
	/* The class as the kernel of the run's era names it, which
	 * /proc/lock_stat prints (lock_class_lockdep_name); NULL: the model's
	 * name is the kernel's; "": lockdep does not track it (a bit spinlock). */
	char *lockdep_name;
	const char *type; /* "spinlock" */
	LOCK_STAT_COUNTS(LOCK_STAT_MEMBER)
	sim_time_t wait_min, wait_max, wait_total;
	sim_time_t hold_min, hold_max, hold_total;
	sim_time_t irqoff_total; /* interrupts-off time of _irq / _irqsave users */
	/* contention "queued": of the holds, the line accesses and the part of
	 * them queued at lines; the hand-overs (release to the next grant) */
	sim_time_t hold_lines, hold_queue, handover_total;
	uint64_t handovers;
	LOCK_STAT_LATE_COUNTS(LOCK_STAT_MEMBER)
	/* lockdep (lockdep.c): irq usage bits, the first site of each, reported */
	unsigned lockdep_usage;
	const char *lockdep_site[2];
	bool lockdep_reported;
	int lockdep_report;	   /* its index in lockdep_reports() */
	unsigned lockdep_hash;	   /* g_str_hash(name), once: its dependencies' key; 0: not yet */
	struct sim_hist wait_hist; /* contended waits */
	struct line_class *line;   /* its locks' lines (spinlock.c) */
	GHashTable *contention_points; /* site -> struct lock_point */
	GHashTable *contending_points;
	/* convoys: while this class was held, its holder waited for another
	 * (nested locks): that class's name -> struct lock_point (site: the
	 * name), the waits' count and time */
	GHashTable *convoys;
	/* Every site that took it, contended or not: site -> struct lock_point
	 * (its count); NULL unless lock_stat_record_sites was on at creation. */
	GHashTable *taken_at;
};

/* The class named @name, created on first use; classes keep creation order. */
struct lock_class *lock_class_get(const char *name);
GPtrArray *lock_class_all(void);
/* @c's lockdep class name in the run's kernel: the expression its
 * spin_lock_init stringifies, or the key lockdep_set_class names, as that
 * era's source writes it (each caller cites the source). */
void lock_class_lockdep_name(struct lock_class *c, const char *name);
/* Whether classes created from now on count the sites that take them
 * (taken_at: `memcgsim locks`; off for runs, whose hot path it would slow). */
void lock_stat_record_sites(bool on);
void lock_class_reset_all(void);

void lock_stat_acquired(struct lock_class *c, const char *site, bool contended, bool bounced,
			const char *holder_site);
void lock_stat_waited(struct lock_class *c, const char *site, sim_time_t wait);
void lock_stat_held(struct lock_class *c, sim_time_t hold, sim_time_t irqoff);
/* "queued": a hold's line accesses (@lines, @queue of them waiting at
 * lines), and a hand-over's length. */
void lock_stat_held_lines(struct lock_class *c, sim_time_t lines, sim_time_t queue);
void lock_stat_handover(struct lock_class *c, sim_time_t d);
/* A holder of @held waited @wait for @waited (a lock taken inside it). */
void lock_stat_convoy(struct lock_class *held, const struct lock_class *waited, sim_time_t wait);

/* The class's statistics as a result object (docs/results.md); with
 * @with_hist, the wait histogram too, for merging replicas. */
json_t *lock_stat_to_json(const struct lock_class *c, bool with_hist);

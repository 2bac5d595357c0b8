/* SPDX-License-Identifier: GPL-2.0-or-later */
/* baseline: `memcgsim fit`, a variant's uncertain lock costs fitted to what
 * a machine measured for it (its scenario "measured": /proc/lock_stat or
 * perf lock contention over a known time), so that the other variants
 * can be run as predictions from a model that reproduces the baseline.
 *
 * What is fitted: per lock class the measured rows name, the time its
 * critical sections hold beyond the modelled instructions and lines
 * (kernel.critical_section_extra, every site's), so that the model's wait
 * a second on that class (added up over the rows matched to it: its
 * lock_stat class, or the perf lock contention callers whose contention
 * points are in it) is the measured one. Classes that share a measured row
 * are fitted as one. Each round runs the variant once (all its replicas)
 * with every class's current value; each class keeps the values that left
 * its wait below and above the measured one and tries, between them, the
 * value that a straight line through the logarithms of their waits gives
 * (doubling the lower until there is an upper). A class whose wait the
 * bound (max_extra_ns) leaves short, or that waits more than measured with
 * nothing added, is marked at its bound: that wait the model does not
 * explain. */
#pragma once
#include "scenario.h"
#include <glib.h>
#include <jansson.h>

struct baseline_opts {
	int rounds;	     /* at most this many runs of the variant */
	double tolerance;    /* a class is fitted within this share of its measured wait */
	double max_extra_ns; /* the most a class's hold may gain */
	int jobs;	     /* simulations at once */
	/* The scenario with one more --set (NULL: none), its one variant the
	 * fitted one; NULL with @err when it does not load. */
	struct scenario *(*load)(const char *set, void *ctx, GError **err);
	void *ctx;
	void (*note)(const char *msg); /* each round's line; NULL: nothing said */
};

/* One fitted class (or classes sharing a measured row). */
struct baseline_target {
	GPtrArray *classes;  /* the model's class names (char *, owned) */
	GPtrArray *rows;     /* the measured rows matched (struct lockstat_class *, borrowed) */
	double measured;     /* the rows' measured wait, ns a second */
	double model0;	     /* the model's, nothing added (ns a second) */
	double model;	     /* with extra_ns */
	double extra_ns;     /* the hold added in the last run, the fit */
	double next_ns;	     /* the next to try */
	bool done, at_bound; /* within tolerance; or the bound stopped it */
	double lo, hi, w_lo, w_hi; /* the values below and above (hi < 0: none yet) */
};

struct baseline_fit {
	char *variant;
	const struct scenario_measured *measured; /* the scenario's, borrowed */
	GPtrArray *targets;			  /* struct baseline_target * */
	GPtrArray *unmatched;			  /* measured rows no model class has (borrowed) */
	int rounds;
	bool converged;
	json_t *last; /* the variant's result in the last round */
};

/* Fit the one variant @o->load gives, @measured its measurement. */
struct baseline_fit *baseline_fit_run(const struct scenario_measured *measured, const char *variant,
				      const struct baseline_opts *o, GError **err);
void baseline_fit_free(struct baseline_fit *f);
/* The fit as an override: "kernel.critical_section_extra=[...]"; g_free it. */
char *baseline_fit_set(const struct baseline_fit *f);
/* The fit beside the measurement, as text (78 columns). */
void baseline_fit_text(const struct baseline_fit *f, GString *out);
/* The fit as the result's "fit" member. */
json_t *baseline_fit_json(const struct baseline_fit *f);

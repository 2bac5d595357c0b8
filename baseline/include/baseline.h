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
 * explain.
 *
 * With time(1)'s sys measured, the variant's private constants are fitted
 * too (baseline_time.c): the flat sys costs that carry both bounds of their
 * private work (machine.private_lo_ns and private_ns, docs/flat-costs.md)
 * move together, each to lo + t (hi - lo) for one t in [0, 1], so that the
 * model's CPUs in sys (sys, spin, irq and unexplained, as time(1) counts a
 * spinning CPU) are the measured sys over real. Where t = 1 leaves it short
 * (or t = 0 over), the rest is reported as unexplained, not put in a
 * constant. The user cost (memset_page_ns) is not moved: a workload's user
 * time is its own parameter. */
#pragma once
#include "scenario.h"
#include <glib.h>
#include <jansson.h>

struct baseline_opts {
	int rounds;	     /* at most this many runs of the variant */
	double tolerance;    /* a class is fitted within this share of its measured wait */
	double max_extra_ns; /* the most a class's hold may gain */
	int jobs;	     /* simulations at once */
	/* The scenario with more --sets (@sets NULL-terminated, or NULL: none),
	 * its one variant the fitted one; NULL with @err when it does not load. */
	struct scenario *(*load)(const char *const *sets, void *ctx, GError **err);
	void *ctx;
	void (*note)(const char *msg); /* each round's line; NULL: nothing said */
};

/* One fitted class (or classes sharing a measured row). */
struct baseline_target {
	GPtrArray *classes; /* the model's class names (char *, owned) */
	GPtrArray *rows;    /* the measured rows matched (struct lockstat_class *, borrowed) */
	double measured;    /* the rows' measured wait, ns a second */
	/* Their contentions a second, measured and the model's in the last
	 * run: not fitted, shown beside the wait (the same wait from more
	 * contentions of shorter waits is a different lock) */
	double measured_contentions, model_contentions;
	double model0;		   /* the model's, nothing added (ns a second) */
	double model;		   /* with extra_ns */
	double extra_ns;	   /* the hold added in the last run, the fit */
	double next_ns;		   /* the next to try */
	bool done, at_bound;	   /* within tolerance; or the bound stopped it */
	bool closed;		   /* done, its bracket closed outside the tolerance */
	double lo, hi, w_lo, w_hi; /* the values below and above (hi < 0: none yet) */
};

/* The fit's step for one class (baseline_fit.c), after a run that gave
 * @x the wait @w (ns a second) with its extra_ns, its modelled hold @hold:
 * done (within the tolerance), at a bound (over the measured with nothing
 * added; short at max_extra_ns), or the next extra to try (doubling until
 * the measured is bracketed, then along the logarithms). */
void baseline_target_step(struct baseline_target *x, double w, double hold,
			  const struct baseline_opts *o);
/* A class at a bound is held there only while it binds: the classes move
 * each other through the throughput (a longer si->lock leaves fewer CPUs
 * to queue on the next lock), so one over the measured with nothing added
 * may fall short once the others are fitted, or one short at the largest
 * extra go over. Then, or when it comes within the tolerance, it leaves
 * the bound, its bracket started anew (true: step it again). */
bool baseline_bound_left(struct baseline_target *x, double w, const struct baseline_opts *o);

/* The private constants fitted to time(1)'s sys (baseline_time.c). */
struct baseline_time {
	double measured;		/* time(1)'s sys over real: CPUs in sys on average */
	double model0;			/* the model's, the constants as the scenario has them */
	double model;			/* at t */
	int n;				/* constants moved */
	int ids[SIM_MACHINE_MAX_COSTS]; /* their cost ids (enum cost_id) */
	double lo_ns[SIM_MACHINE_MAX_COSTS], hi_ns[SIM_MACHINE_MAX_COSTS];
	double t, next_t; /* the position that ran last; the next to try (NAN: none yet) */
	bool done, at_bound;
	bool closed;		   /* done, its bracket closed outside the tolerance */
	double lo, hi, w_lo, w_hi; /* the positions below and above (w < 0: not run) */
};

struct baseline_fit {
	char *variant;
	const struct scenario_measured *measured; /* the scenario's, borrowed */
	GPtrArray *targets;			  /* struct baseline_target * */
	GPtrArray *unmatched;			  /* measured rows no model class has (borrowed) */
	struct baseline_time *time; /* NULL: no sys measured, or no constant with a range */
	int rounds;
	bool converged;
	json_t *last; /* the variant's result in the last round */
};

/* Fit the one variant @o->load gives, @measured its measurement. */
struct baseline_fit *baseline_fit_run(const struct scenario_measured *measured, const char *variant,
				      const struct baseline_opts *o, GError **err);
void baseline_fit_free(struct baseline_fit *f);
/* The fit as overrides: "kernel.critical_section_extra=[...]" and each
 * private constant's "machine.costs.KEY=NS"; NULL-terminated, g_strfreev it. */
char **baseline_fit_sets(const struct baseline_fit *f);
/* The variant's CPUs busy as time(1) counts @what ("sys": the kernel's
 * time, its spinning, interrupts and unexplained rest too; "user") over its
 * simulated time, in result variant @variant. */
double baseline_model_cpus(json_t *variant, const char *what);

/* baseline_time.c: the time target of @fitted (the scenario's fitted
 * variant, loaded once) for time(1) @tm, or NULL when there is none. */
struct baseline_time *baseline_time_new(const struct scenario_time *tm,
					const struct scenario_variant *fitted);
/* After a round that gave the model @cpus in sys: done, at a bound, or the
 * next t. */
void baseline_time_step(struct baseline_time *x, double cpus, double tolerance);
/* The constants at @x's next (@next) or last position, as --sets appended to @sets. */
void baseline_time_sets(const struct baseline_time *x, bool next, GPtrArray *sets);
void baseline_time_text(const struct baseline_time *x, GString *out);
json_t *baseline_time_json(const struct baseline_time *x);
/* The fit beside the measurement, as text (78 columns). */
void baseline_fit_text(const struct baseline_fit *f, GString *out);
/* The fit as the result's "fit" member. */
json_t *baseline_fit_json(const struct baseline_fit *f);

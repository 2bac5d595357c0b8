// SPDX-License-Identifier: GPL-2.0-or-later
#include "estimate.h"
#include "run.h"

double estimate_limit_s(bool on)
{
	/* MEMCGSIM_TEST_MAX_WALL_S may lower it (the tests do) */
	const char *env = g_getenv("MEMCGSIM_TEST_MAX_WALL_S");
	double test = env ? g_ascii_strtod(env, NULL) : 0;
	return !on ? 0 : test > 0 ? MIN(test, RUNNER_MAX_WALL_S) : RUNNER_MAX_WALL_S;
}

/* What a job takes, whole, as far as can be told, and on what basis. */
struct took {
	double s;		       /* wall time; 0: not known */
	bool lower;		       /* at least that */
	double horizon;		       /* the simulated ns it runs to; 0: it has finished */
	const struct runner_job *from; /* the job whose figures these are */
};

/* A finished job's wall time; a running one's time since it started and
 * what is left of its horizon (the stop's duration, or its workloads'
 * planned time: a lower bound) at the rate it has simulated since its
 * first report, once ESTIMATE_SPAN_S of reports are in. */
static struct took job_took(const struct runner_job *j, gint64 now)
{
	struct took t = {.from = j};
	if (j->wall_s > 0) {
		t.s = j->wall_s;
		return t;
	}
	double span = (double)(j->pace.reached_at - j->pace.first_at) / 1e6, horizon = 0;
	if (j->pid <= 0 || !j->pace.first_at || span < ESTIMATE_SPAN_S ||
	    run_estimate_cpu_s(j->config, &horizon) < 0 || j->pace.reached_ns >= horizon)
		return t;
	double ns =
	    j->pace.reached_ns - j->pace.first_ns; /* under 1: less than the reports' 1 ns */
	t.horizon = horizon;
	t.lower = !j->config->stop_at || ns < 1;
	t.s = (double)(now - j->started) / 1e6 + (horizon - j->pace.reached_ns) * span / MAX(ns, 1);
	return t;
}

/* The wall time the jobs of sweep point @point (-1: a run's) take: what
 * each takes, or for one not known the longest known of its variant's
 * (a replica not started takes what one that has run takes), shared among
 * @parallel; at least the longest one, *@worst. *@count: the jobs. */
static double point_took(const struct runner_job *jobs, size_t n, int point, int parallel,
			 gint64 now, struct took *worst, size_t *count)
{
	GHashTable *best = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	GArray *took = g_array_new(FALSE, FALSE, sizeof(struct took));
	for (size_t i = 0; i < n; i++) {
		if (jobs[i].point != point)
			continue;
		struct took t = job_took(&jobs[i], now);
		g_array_append_val(took, t);
		struct took *b = g_hash_table_lookup(best, jobs[i].config);
		if (t.s > 0 && !b)
			g_hash_table_insert(best, (gpointer)jobs[i].config,
					    g_memdup2(&t, sizeof(t)));
		else if (b && t.s > b->s)
			*b = t;
	}
	double sum = 0;
	*worst = (struct took){0};
	for (guint k = 0; k < took->len; k++) {
		struct took t = g_array_index(took, struct took, k);
		struct took *b = t.s > 0 ? NULL : g_hash_table_lookup(best, t.from->config);
		if (b)
			t = *b;
		sum += t.s;
		if (t.s > worst->s)
			*worst = t;
	}
	*count = took->len;
	g_array_free(took, TRUE);
	g_hash_table_destroy(best);
	return MAX(worst->s, sum / (double)MIN((size_t)MAX(parallel, 1), MAX(*count, 1)));
}

/* "45 s", "43 min", "5.2 h", "17 days". */
static char *wall_text(double s)
{
	if (s < 120)
		return g_strdup_printf("%.0f s", s);
	if (s < 7200)
		return g_strdup_printf("%.0f min", s / 60);
	if (s < 172800)
		return g_strdup_printf("%.1f h", s / 3600);
	return g_strdup_printf("%.0f days", s / 86400);
}

static void refuse(GError **err, const struct took *w, double s, double limit_s, size_t count,
		   int parallel, int point)
{
	const struct runner_job *j = w->from;
	GString *basis = g_string_new(NULL);
	if (w->horizon > 0)
		g_string_append_printf(basis, "%.4g simulated ns of %s%.4g in %.3g s",
				       j->pace.reached_ns, j->config->stop_at ? "" : "at least ",
				       w->horizon, (double)(j->pace.reached_at - j->started) / 1e6);
	else
		g_string_append_printf(basis, "one of its simulations took %.3g s", j->wall_s);
	if (count > 1)
		g_string_append_printf(basis, "; %zu simulations, %zu at a time", count,
				       MIN(count, (size_t)MAX(parallel, 1)));
	char *where = point >= 0 ? g_strdup_printf(" at sweep point %d", point) : g_strdup("");
	char *took = wall_text(s), *limit = wall_text(limit_s);
	g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
		    "variant %s%s: the run would take %s %s of wall time on this machine (%s), "
		    "more than the %s memcgsim runs without --force",
		    j->variant ? j->variant : "?", where, w->lower ? "at least" : "about", took,
		    basis->str, limit);
	g_free(where);
	g_free(took);
	g_free(limit);
	g_string_free(basis, TRUE);
}

/* Is a job before @i running at @i's point (so it was checked)? */
static bool point_seen(const struct runner_job *jobs, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (jobs[k].pid > 0 && jobs[k].point == jobs[i].point)
			return true;
	return false;
}

/* A run whose simulated time stands still while its events go on (every
 * cost and think and hold time 0) would never end, and no estimate from
 * simulated time says so: it is refused once its time has stood for
 * ESTIMATE_STUCK_S of wall time (a tenth of the limit, when that is less). */
static bool stuck(const struct runner_job *j, gint64 now, double limit_s, GError **err)
{
	double stood = (double)(now - j->pace.moved_at) / 1e6;
	if (j->pid <= 0 || !j->pace.moved_at || stood < MAX(1, MIN(ESTIMATE_STUCK_S, limit_s / 10)))
		return false;
	char *limit = wall_text(limit_s);
	g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
		    "variant %s: simulated time has stood at %.4g ns for %.0f s of wall time while "
		    "the simulation runs: it would never end (are every cost and think and hold "
		    "time 0?), and memcgsim runs at most %s without --force",
		    j->variant ? j->variant : "?", j->pace.reached_ns, stood, limit);
	g_free(limit);
	return true;
}

bool estimate_check(const struct runner_job *jobs, size_t n, int parallel, double limit_s,
		    GError **err)
{
	gint64 now = g_get_monotonic_time();
	for (size_t i = 0; i < n; i++)
		if (stuck(&jobs[i], now, limit_s, err))
			return false;
	for (size_t i = 0; i < n; i++) {
		if (jobs[i].pid <= 0 || point_seen(jobs, i))
			continue;
		struct took worst;
		size_t count;
		double s = point_took(jobs, n, jobs[i].point, parallel, now, &worst, &count);
		if (s > limit_s) {
			refuse(err, &worst, s, limit_s, count, parallel, jobs[i].point);
			return false;
		}
	}
	return true;
}

// SPDX-License-Identifier: GPL-2.0-or-later
#include "pace.h"
#include "runner.h"

void pace_reset(struct job_pace *p)
{
	*p = (struct job_pace){.share = -1};
}

/* The rate of a job's work of late: over a window of 1 to 3 wall seconds, so
 * that a run whose work goes at two paces (memhog: fast under its limit,
 * then reclaiming) is timed at the pace it has now. */
static void note_share(struct job_pace *p, double share, gint64 now)
{
	p->share = share;
	if (share < 0)
		return;
	if (!p->share_anchor_at) {
		p->share_anchor = share;
		p->share_anchor_at = now;
		return;
	}
	double span = (double)(now - p->share_anchor_at) / 1e6;
	if (span >= 1 && share > p->share_anchor)
		p->share_rate = (share - p->share_anchor) / span;
	if (span >= 3) {
		p->share_anchor = share;
		p->share_anchor_at = now;
	}
}

void pace_report(struct job_pace *p, double ns, double share)
{
	gint64 now = g_get_monotonic_time();
	note_share(p, share, now);
	if (!p->first_at) {
		p->first_at = now;
		p->first_ns = ns;
	}
	if (!p->moved_at || ns > p->reached_ns)
		p->moved_at = now;
	p->reached_ns = ns;
	p->reached_at = now;
}

double pace_expected_s(const struct runner_job *j, const struct runner_job *jobs, size_t n)
{
	double elapsed = (double)(g_get_monotonic_time() - j->started) / 1e6;
	double stop = sim_to_ns(j->config->stop_at);
	if (stop > 0 && j->pace.reached_ns > 0)
		return elapsed * stop / j->pace.reached_ns;
	if (!stop && j->pace.share_rate > 0) /* to completion: its work's pace of late */
		return elapsed + (1 - j->pace.share) / j->pace.share_rate;
	for (size_t i = 0; i < n; i++)
		if (jobs[i].config == j->config && jobs[i].wall_s > 0)
			return jobs[i].wall_s;
	return 0;
}

/* What a running job of @config is expected to take in all, from its
 * progress; else the mean of what the running jobs are (the measured rates
 * of those running now); 0: none says. */
static double running_like_s(const void *config, const struct runner_job *jobs, size_t n)
{
	double sum = 0;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		double all = jobs[i].pid > 0 ? pace_expected_s(&jobs[i], jobs, n) : 0;
		if (all > 0 && jobs[i].config == config)
			return all;
		if (all > 0) {
			sum += all;
			k++;
		}
	}
	return k ? sum / (double)k : 0;
}

/* What @j has left to run, in wall seconds: a running job's from its own
 * progress (or, not known yet, from its like's), a queued one's what a
 * finished job of its configuration took (@like: configuration -> wall
 * seconds), else the finished ones' mean, else what a running job of its
 * configuration, or the running ones on average, are expected to take;
 * < 0: not known. */
static double job_left(const struct runner_job *j, const struct runner_job *jobs, size_t n,
		       GHashTable *like_s, double mean)
{
	double *w = g_hash_table_lookup(like_s, j->config);
	double like = w ? *w : mean;
	if (like <= 0 && j->pid <= 0)
		like = running_like_s(j->config, jobs, n);
	if (j->pid > 0) {
		double el = (double)(g_get_monotonic_time() - j->started) / 1e6;
		double all = pace_expected_s(j, jobs, n);
		all = all > 0 ? all : like;
		return all > 0 ? MAX(all - el, 0) : -1;
	}
	return like > 0 ? like : -1;
}

double pace_left_s(const struct runner_job *jobs, size_t n, int parallel, bool *known)
{
	GHashTable *like_s = g_hash_table_new(NULL, NULL); /* one pass, not one per job */
	double mean = 0, rest = 0, longest = 0;
	size_t finished = 0;
	for (size_t i = 0; i < n; i++)
		if (jobs[i].wall_s > 0) {
			mean += jobs[i].wall_s;
			finished++;
			if (!g_hash_table_contains(like_s, jobs[i].config))
				g_hash_table_insert(like_s, (gpointer)jobs[i].config,
						    (gpointer)&jobs[i].wall_s);
		}
	mean = finished ? mean / (double)finished : 0;
	*known = true;
	for (size_t i = 0; i < n; i++) {
		if (jobs[i].wall_s > 0)
			continue;
		double left = job_left(&jobs[i], jobs, n, like_s, mean);
		*known &= left >= 0;
		rest += MAX(left, 0);
		longest = MAX(longest, left);
	}
	g_hash_table_destroy(like_s);
	return MAX(longest, rest / (double)MAX(parallel, 1));
}

/* "1:05:09", "4:07", "0:03". */
void pace_put_duration(GString *s, double secs)
{
	long t = (long)(secs + 0.5);
	if (t >= 3600)
		g_string_append_printf(s, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else
		g_string_append_printf(s, "%ld:%02ld", t / 60, t % 60);
}

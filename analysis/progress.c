// SPDX-License-Identifier: GPL-2.0-or-later
#include "progress.h"
#include "live.h"

#define BAR_WIDTH 30

static void progress_draw(struct progress *p, const char *what, double wall_s);

void progress_start(struct progress *p, FILE *out, size_t total, size_t done, bool tty)
{
	*p = (struct progress){.out = out, .total = total, .done = done, .done_before = done,
			       .start = g_get_monotonic_time(), .tty = tty, .eta_s = -1};
	if (!out)
		return;
	if (!tty && done)
		fprintf(out, "sweep: %zu of %zu runs already done\n", done, total);
	if (tty)
		progress_draw(p, NULL, 0);
}

/* "1:05:09", "4:07", "0:03". */
void progress_put_duration(GString *s, double secs)
{
	long t = (long)(secs + 0.5);
	if (t >= 3600)
		g_string_append_printf(s, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else
		g_string_append_printf(s, "%ld:%02ld", t / 60, t % 60);
}

static void progress_draw(struct progress *p, const char *what, double wall_s)
{
	double elapsed = (double)(g_get_monotonic_time() - p->start) / 1e6;
	size_t fresh = p->done - p->done_before;
	double eta = p->eta_s >= 0 ? p->eta_s
		     : fresh	   ? elapsed / (double)fresh * (double)(p->total - p->done)
				   : 0;
	bool known = fresh || p->eta_s >= 0;
	GString *s = g_string_new(NULL);
	if (p->tty) {
		size_t fill = p->total ? p->done * BAR_WIDTH / p->total : BAR_WIDTH;
		g_string_append(s, "\r[");
		for (size_t i = 0; i < BAR_WIDTH; i++)
			g_string_append_c(s, i < fill ? '#' : '.');
		g_string_append_printf(s, "] %zu/%zu runs %3.0f%%  elapsed ", p->done, p->total,
				       p->total ? 100.0 * (double)p->done / (double)p->total : 100);
		progress_put_duration(s, elapsed);
		g_string_append(s, "  ETA ");
		if (known)
			progress_put_duration(s, eta);
		else
			g_string_append(s, "-:--");
		g_string_append(s, "\033[K");
	} else {
		g_string_append_printf(s, "sweep: %zu/%zu %s (%.1f s), ETA ", p->done, p->total, what,
				       wall_s);
		progress_put_duration(s, eta);
		g_string_append_c(s, '\n');
	}
	fputs(s->str, p->out);
	fflush(p->out);
	g_string_free(s, TRUE);
}

void progress_step(struct progress *p, const char *what, double wall_s)
{
	p->done++;
	if (p->out)
		progress_draw(p, what, wall_s);
}

void progress_finish(struct progress *p)
{
	if (!p->out)
		return;
	if (p->tty && p->done > p->done_before)
		fputc('\n', p->out);
	fflush(p->out);
}

/* What @j has left to run, in wall seconds: a running job's from its own
 * progress (or, not known yet, from its like's), a queued one's what a
 * finished job of its configuration took (@like: configuration -> wall
 * seconds), else the finished ones' mean; < 0: not known. */
static double job_left(const struct runner_job *j, const struct runner_job *jobs, size_t n,
		       GHashTable *like_s, double mean)
{
	double *w = g_hash_table_lookup(like_s, j->config);
	double like = w ? *w : mean;
	if (j->pid > 0) {
		double el = (double)(g_get_monotonic_time() - j->started) / 1e6;
		double all = live_job_expected_s(j, jobs, n);
		all = all > 0 ? all : like;
		return all > 0 ? MAX(all - el, 0) : -1;
	}
	return like > 0 ? like : -1;
}

double progress_left_s(const struct runner_job *jobs, size_t n, int parallel, bool *known)
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

void progress_tick(struct progress *p, const struct runner_job *jobs, size_t n, int parallel)
{
	if (!p->out) /* --quiet: nothing to show */
		return;
	bool known;
	double left = progress_left_s(jobs, n, parallel, &known);
	p->eta_s = known ? left : -1; /* one not known: the count of runs decides */
	if (p->tty)
		progress_draw(p, NULL, 0);
}

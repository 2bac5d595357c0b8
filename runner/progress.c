// SPDX-License-Identifier: GPL-2.0-or-later
#include "progress.h"
#include "pace.h"

#define BAR_WIDTH 30

static void progress_draw(struct progress *p, const char *what, double wall_s);

void progress_start(struct progress *p, FILE *out, size_t total, size_t done, bool tty)
{
	*p = (struct progress){.out = out,
			       .total = total,
			       .done = done,
			       .done_before = done,
			       .start = g_get_monotonic_time(),
			       .tty = tty,
			       .eta_s = -1};
	if (!out)
		return;
	if (!tty && done)
		fprintf(out, "sweep: %zu of %zu runs already done\n", done, total);
	if (tty)
		progress_draw(p, NULL, 0);
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
		pace_put_duration(s, elapsed);
		g_string_append(s, "  ETA ");
		if (known)
			pace_put_duration(s, eta);
		else
			g_string_append(s, "-:--");
		g_string_append(s, "\033[K");
	} else {
		g_string_append_printf(s, "sweep: %zu/%zu %s (%.1f s), ETA ", p->done, p->total,
				       what, wall_s);
		pace_put_duration(s, eta);
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

void progress_tick(struct progress *p, const struct runner_job *jobs, size_t n, int parallel)
{
	if (!p->out) /* --quiet: nothing to show */
		return;
	bool known;
	double left = pace_left_s(jobs, n, parallel, &known);
	p->eta_s = known ? left : -1; /* one not known: the count of runs decides */
	if (p->tty)
		progress_draw(p, NULL, 0);
}

// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE /* pipe2 */
#include "live.h"
#include "estimate.h"
#include "output.h"
#include "pace.h"
#include "sim_engine.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

void live_start(struct live *lv, const struct runner_opts *o)
{
	*lv = (struct live){.out = o ? o->live : NULL,
			    .plain = o && o->plain && o->plain_every_s > 0 ? o->plain : NULL,
			    .plain_every_us = o ? (gint64)(o->plain_every_s * 1e6) : 0,
			    .plain_at = g_get_monotonic_time(),
			    .limit_s = estimate_limit_s(o && o->wall_limit),
			    .tick = o ? o->tick : NULL,
			    .tick_ctx = o ? o->tick_ctx : NULL};
}

void live_job_prepare(const struct live *lv, struct runner_job *j)
{
	j->live_fd[0] = j->live_fd[1] = -1;
	pace_reset(&j->pace);
	j->live_cut = false;
	if ((lv->out || lv->plain || lv->limit_s > 0) && pipe2(j->live_fd, O_CLOEXEC) < 0)
		j->live_fd[0] = j->live_fd[1] = -1; /* no pipe: no line, no estimate */
}

void live_job_child(const struct runner_job *j)
{
	if (j->live_fd[1] < 0)
		return;
	close(j->live_fd[0]);
	fcntl(j->live_fd[1], F_SETFL, O_NONBLOCK);
	sim_engine_progress_fd(j->live_fd[1]);
}

void live_job_parent(struct runner_job *j)
{
	if (j->live_fd[1] >= 0)
		close(j->live_fd[1]);
	j->live_fd[1] = -1;
}

void live_job_done(struct runner_job *j)
{
	if (j->live_fd[0] >= 0)
		close(j->live_fd[0]);
	j->live_fd[0] = -1;
}

/* What the child wrote: its last complete report (not the rest of one a
 * read before cut). False at end of file. */
static bool job_read(struct runner_job *j)
{
	char buf[4096];
	ssize_t n = read(j->live_fd[0], buf, sizeof(buf) - 1);
	if (n <= 0)
		return n < 0 && errno == EINTR;
	buf[n] = '\0';
	bool cut = j->live_cut;
	j->live_cut = buf[n - 1] != '\n';
	char *end = strrchr(buf, '\n');
	if (!end)
		return true;
	*end = '\0';
	char *last = strrchr(buf, '\n'), *rest;
	if (last || !cut) { /* "NS" or "NS SHARE" */
		double ns = g_ascii_strtod(last ? last + 1 : buf, &rest);
		pace_report(&j->pace, ns, *rest == ' ' ? g_ascii_strtod(rest + 1, NULL) : -1);
	}
	return true;
}

/* The terminal's width, less one column: a line that wrapped would throw
 * the count of lines to go back over. 80 when it cannot be told. */
static size_t line_room(const struct live *lv)
{
	struct winsize ws;
	if (ioctl(fileno(lv->out), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
		return ws.ws_col - 1u;
	return 79;
}

/* @line cut to @room characters (whole UTF-8 characters), into @s. */
static void put_cut(GString *s, const char *line, size_t room)
{
	const char *end = line;
	for (size_t k = 0; *end && k < room; k++)
		end = g_utf8_next_char(end);
	g_string_append_len(s, line, end - line);
	g_string_append(s, "\033[K\n");
}

static void job_line(GString *out, const struct runner_job *j, const struct runner_job *jobs,
		     size_t n, size_t room)
{
	GString *s = g_string_new(NULL);
	double elapsed = (double)(g_get_monotonic_time() - j->started) / 1e6;
	double stop = sim_to_ns(j->config->stop_at);
	g_string_append_printf(s, "  %-28s %8.4g s simulated", j->label ? j->label : "",
			       j->pace.reached_ns / 1e9);
	if (stop > 0)
		g_string_append_printf(s, " of %g s (%3.0f%%)", stop / 1e9,
				       100 * MIN(j->pace.reached_ns / stop, 1));
	g_string_append(s, "  elapsed ");
	pace_put_duration(s, elapsed);
	double expected = pace_expected_s(j, jobs, n);
	g_string_append(s, "  ETA ");
	if (expected > 0)
		pace_put_duration(s, MAX(expected - elapsed, 0));
	else
		g_string_append(s, "-:--");
	put_cut(out, s->str, room);
	g_string_free(s, TRUE);
}

/* Back to the first line drawn, each line cleared as it is passed. */
static void rewind_lines(struct live *lv, GString *s)
{
	if (lv->lines)
		g_string_append_printf(s, "\033[%dA", lv->lines);
	g_string_append(s, "\r\033[J");
	lv->lines = 0;
}

/* The count of simulations done and, once the first ones have run for a
 * while, what the whole run takes on this machine and what is left of it
 * (only "at least" while a simulation's time is not known). */
static void head_text(GString *head, const struct runner_job *jobs, size_t n, int parallel)
{
	size_t done = 0;
	gint64 first = 0;
	for (size_t i = 0; i < n; i++) {
		done += jobs[i].wall_s > 0;
		if (jobs[i].started && (!first || jobs[i].started < first))
			first = jobs[i].started;
	}
	g_string_append_printf(head, "memcgsim: %zu of %zu simulations done", done, n);
	bool known;
	double left = pace_left_s(jobs, n, parallel, &known);
	if (left > 0 && first) {
		double elapsed = (double)(g_get_monotonic_time() - first) / 1e6;
		g_string_append_printf(head, "; the run: %s", known ? "about " : "at least ");
		pace_put_duration(head, elapsed + left);
		g_string_append(head, " here");
		if (known) { /* what is left of a lower bound tells nothing */
			g_string_append(head, ", ");
			pace_put_duration(head, left);
			g_string_append(head, " left");
		}
	}
}

static void head_line(GString *s, const struct runner_job *jobs, size_t n, int parallel,
		      size_t room)
{
	GString *head = g_string_new(NULL);
	head_text(head, jobs, n, parallel);
	put_cut(s, head->str, room);
	g_string_free(head, TRUE);
}

/* Without a terminal, once an interval: the head line's count and
 * estimate, then each running simulation's label and simulated time. */
static void plain_line(struct live *lv, const struct runner_job *jobs, size_t n, int parallel)
{
	gint64 now = g_get_monotonic_time();
	if (now - lv->plain_at < lv->plain_every_us)
		return;
	lv->plain_at = now;
	GString *s = g_string_new(NULL);
	head_text(s, jobs, n, parallel);
	const char *sep = "; running: ";
	for (size_t i = 0; i < n; i++)
		if (jobs[i].pid > 0) {
			g_string_append_printf(s, "%s%s %.4g s simulated", sep,
					       jobs[i].label ? jobs[i].label : "",
					       jobs[i].pace.reached_ns / 1e9);
			sep = ", ";
		}
	g_string_append_c(s, '\n');
	fputs(s->str, lv->plain);
	fflush(lv->plain);
	g_string_free(s, TRUE);
}

static void draw(struct live *lv, const struct runner_job *jobs, size_t n, int parallel)
{
	GString *s = g_string_new(NULL);
	rewind_lines(lv, s);
	size_t room = line_room(lv);
	head_line(s, jobs, n, parallel, room);
	lv->lines++;
	for (size_t i = 0; i < n; i++)
		if (jobs[i].pid > 0) {
			job_line(s, &jobs[i], jobs, n, room);
			lv->lines++;
		}
	fputs(s->str, lv->out);
	fflush(lv->out);
	g_string_free(s, TRUE);
}

void live_clear(struct live *lv)
{
	if (!lv->out || !lv->lines)
		return;
	GString *s = g_string_new(NULL);
	rewind_lines(lv, s);
	fputs(s->str, lv->out);
	fflush(lv->out);
	g_string_free(s, TRUE);
}

/* Wait up to one report interval for the running jobs' pipes; read what
 * came. -1 with errno EINTR on a signal; otherwise the pid of a job whose
 * pipe closed (it has exited or is exiting), or 0. */
static pid_t poll_jobs(struct runner_job *jobs, size_t n)
{
	struct pollfd *fds = g_new0(struct pollfd, n);
	size_t *which = g_new0(size_t, n), k = 0;
	for (size_t i = 0; i < n; i++)
		if (jobs[i].pid > 0 && jobs[i].live_fd[0] >= 0) {
			fds[k] = (struct pollfd){.fd = jobs[i].live_fd[0], .events = POLLIN};
			which[k++] = i;
		}
	int ready = poll(fds, k, SIM_PROGRESS_US / 1000);
	pid_t closed = ready < 0 ? -1 : 0;
	for (size_t f = 0; ready > 0 && f < k; f++)
		if (fds[f].revents && !job_read(&jobs[which[f]])) {
			live_job_done(&jobs[which[f]]);
			closed = jobs[which[f]].pid;
		}
	g_free(fds);
	g_free(which);
	return closed;
}

/* A signal that came before this wait (while a job was started) is not
 * waited out: -1 with errno EINTR, as if it had come during it. */
static bool signalled(void)
{
	if (!output_interrupted())
		return false;
	errno = EINTR;
	return true;
}

pid_t live_wait(struct live *lv, struct runner_job *jobs, size_t n, int parallel, int *status,
		GError **refused)
{
	if (!lv->out && !lv->plain && !lv->limit_s)
		return signalled() ? -1 : waitpid(-1, status, 0);
	for (;;) {
		if (signalled())
			return -1;
		pid_t pid = waitpid(-1, status, WNOHANG);
		if (pid != 0)
			return pid;
		if (lv->out)
			draw(lv, jobs, n, parallel);
		else if (lv->plain)
			plain_line(lv, jobs, n, parallel);
		pid_t closed = poll_jobs(jobs, n);
		if (closed < 0 && errno == EINTR)
			return -1;
		if (lv->tick)
			lv->tick(jobs, n, parallel, lv->tick_ctx);
		if (closed > 0) /* its pipe closed as it exits */
			return waitpid(closed, status, 0);
		if (lv->limit_s > 0 && !estimate_check(jobs, n, parallel, lv->limit_s, refused)) {
			errno = 0;
			return -1;
		}
	}
}

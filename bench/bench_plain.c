// SPDX-License-Identifier: GPL-2.0-or-later
/* The floor of what an event costs on this machine: the bare loop's lock
 * cycles (bare_loop.h: N tasks, think 900 ns, FIFO lock, hold 100 ns, both
 * exponential, the same random streams) in a plain C event loop, without
 * SimGrid: a binary heap of (time, sequence) events, two events per
 * acquisition (the end of a think, the end of a hold), no context switches.
 * Usage: bench_plain [TASKS [SIMULATED_MS]]   (default 32 tasks, 150 ms)
 * Prints one line: tasks, simulated ms, acquisitions, events, wall seconds,
 * events per wall second. */
#include "sim_rng.h"
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>

enum { EV_THINK_END, EV_HOLD_END };

struct event {
	sim_time_t at;
	uint64_t seq; /* FIFO among equal times */
	int task, kind;
};

static struct {
	struct event *heap;
	int n;
	uint64_t seq;
} Q;

static bool ev_before(const struct event *a, const struct event *b)
{
	return a->at != b->at ? a->at < b->at : a->seq < b->seq;
}

static void ev_push(sim_time_t at, int task, int kind)
{
	int i = Q.n++;
	struct event e = {at, Q.seq++, task, kind};
	while (i > 0 && ev_before(&e, &Q.heap[(i - 1) / 2])) {
		Q.heap[i] = Q.heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	Q.heap[i] = e;
}

static struct event ev_pop(void)
{
	struct event top = Q.heap[0], last = Q.heap[--Q.n];
	int i = 0;
	for (;;) {
		int c = 2 * i + 1;
		if (c >= Q.n)
			break;
		if (c + 1 < Q.n && ev_before(&Q.heap[c + 1], &Q.heap[c]))
			c++;
		if (!ev_before(&Q.heap[c], &last))
			break;
		Q.heap[i] = Q.heap[c];
		i = c;
	}
	Q.heap[i] = last;
	return top;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 32;
	double ms = argc > 2 ? atof(argv[2]) : 150;
	if (n < 1 || n > 1024 || ms <= 0) {
		fprintf(stderr, "usage: bench_plain [TASKS (1-1024) [SIMULATED_MS]]\n");
		return 2;
	}
	sim_time_t end = (sim_time_t)(ms * SIM_MS);
	struct sim_dist think = {SIM_DIST_EXP, 900.0 * SIM_NS, 1},
			hold = {SIM_DIST_EXP, 100.0 * SIM_NS, 1};
	struct sim_rng **rng = g_new(struct sim_rng *, n);
	int *fifo = g_new(int, n); /* the lock's waiters, a ring */
	int head = 0, len = 0, owner = -1;
	Q.heap = g_new(struct event, n);
	gint64 t0 = g_get_monotonic_time();
	for (int i = 0; i < n; i++) {
		char name[32];
		snprintf(name, sizeof(name), "bare%d", i);
		rng[i] = sim_rng_new(1, name);
		ev_push(sim_rng_sample(rng[i], &think), i, EV_THINK_END);
	}
	long long acq = 0, events = 0;
	while (Q.n && Q.heap[0].at <= end) {
		struct event e = ev_pop();
		events++;
		if (e.kind == EV_THINK_END) { /* lock */
			if (owner < 0) {
				owner = e.task;
				acq++;
				ev_push(e.at + sim_rng_sample(rng[e.task], &hold), e.task,
					EV_HOLD_END);
			} else {
				fifo[(head + len++) % n] = e.task;
			}
			continue;
		}
		/* unlock: hand over to the first waiter, think again */
		owner = -1;
		if (len) {
			owner = fifo[head];
			head = (head + 1) % n;
			len--;
			acq++;
			ev_push(e.at + sim_rng_sample(rng[owner], &hold), owner, EV_HOLD_END);
		}
		ev_push(e.at + sim_rng_sample(rng[e.task], &think), e.task, EV_THINK_END);
	}
	double wall = (double)(g_get_monotonic_time() - t0) / 1e6;
	printf("tasks %d sim_ms %g acquisitions %lld events %lld wall_s %.3f events_per_s %.0f\n",
	       n, ms, acq, events, wall, wall > 0 ? (double)events / wall : 0);
	for (int i = 0; i < n; i++)
		sim_rng_free(rng[i]);
	g_free(rng);
	g_free(fifo);
	g_free(Q.heap);
	return 0;
}

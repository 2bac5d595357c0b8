// SPDX-License-Identifier: GPL-2.0-or-later
/* The actors' next times as an indexed binary min-heap (sim_wakeq.h). */
#include "sim_wakeq.h"
#include <glib.h>

static struct {
	struct sim_waiter **heap;
	int len, cap;
	uint64_t seq; /* entries made so far */
} Q;

/* @a is due before @b: earlier, or as early and entered first. */
static bool wakeq_before(const struct sim_waiter *a, const struct sim_waiter *b)
{
	return a->at < b->at || (a->at == b->at && a->seq < b->seq);
}

void sim_wakeq_init(int capacity)
{
	g_free(Q.heap);
	Q.cap = capacity > 16 ? capacity : 16;
	Q.heap = g_new(struct sim_waiter *, Q.cap);
	Q.len = 0;
	Q.seq = 0;
}

void sim_wakeq_fini(void)
{
	g_free(Q.heap);
	Q.heap = NULL;
	Q.len = Q.cap = 0;
}

void sim_waiter_init(struct sim_waiter *w)
{
	w->at = SIM_TIME_MAX;
	w->seq = 0;
	w->pos = -1;
}

static void wakeq_put(int i, struct sim_waiter *w)
{
	Q.heap[i] = w;
	w->pos = i;
}

static void wakeq_up(int i)
{
	struct sim_waiter *w = Q.heap[i];
	while (i > 0) {
		int parent = (i - 1) / 2;
		if (!wakeq_before(w, Q.heap[parent]))
			break;
		wakeq_put(i, Q.heap[parent]);
		i = parent;
	}
	wakeq_put(i, w);
}

static void wakeq_down(int i)
{
	struct sim_waiter *w = Q.heap[i];
	for (;;) {
		int child = 2 * i + 1;
		if (child >= Q.len)
			break;
		if (child + 1 < Q.len && wakeq_before(Q.heap[child + 1], Q.heap[child]))
			child++;
		if (!wakeq_before(Q.heap[child], w))
			break;
		wakeq_put(i, Q.heap[child]);
		i = child;
	}
	wakeq_put(i, w);
}

void sim_wakeq_set(struct sim_waiter *w, sim_time_t at)
{
	w->seq = Q.seq++;
	if (w->pos < 0) {
		if (Q.len == Q.cap) {
			Q.cap *= 2;
			Q.heap = g_renew(struct sim_waiter *, Q.heap, Q.cap);
		}
		w->at = at;
		wakeq_put(Q.len++, w);
		wakeq_up(w->pos);
		return;
	}
	w->at = at; /* later in the order than before, or earlier in time */
	wakeq_up(w->pos);
	wakeq_down(w->pos);
}

void sim_wakeq_lower(struct sim_waiter *w, sim_time_t at)
{
	if (w->pos < 0 || at < w->at)
		sim_wakeq_set(w, at);
}

void sim_wakeq_clear(struct sim_waiter *w)
{
	int i = w->pos;
	if (i < 0)
		return;
	w->pos = -1;
	struct sim_waiter *last = Q.heap[--Q.len];
	if (last == w)
		return;
	wakeq_put(i, last);
	if (i > 0 && wakeq_before(last, Q.heap[(i - 1) / 2]))
		wakeq_up(i);
	else
		wakeq_down(i);
}

sim_time_t sim_wakeq_min(void)
{
	return Q.len ? Q.heap[0]->at : SIM_TIME_MAX;
}

struct sim_waiter *sim_wakeq_first(void)
{
	return Q.len ? Q.heap[0] : NULL;
}

int sim_wakeq_len(void)
{
	return Q.len;
}

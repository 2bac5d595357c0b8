// SPDX-License-Identifier: GPL-2.0-or-later
#include "sim_hist.h"
#include <glib.h>

int sim_hist_index(sim_time_t v)
{
	uint64_t u = v < 0 ? 0 : (uint64_t)v;
	if (u < SIM_HIST_SUB)
		return (int)u;
	int e = 63 - __builtin_clzll(u); /* e >= SUB_BITS */
	int sub = (int)((u >> (e - SIM_HIST_SUB_BITS)) & (SIM_HIST_SUB - 1));
	return (e - SIM_HIST_SUB_BITS + 1) * SIM_HIST_SUB + sub;
}

sim_time_t sim_hist_bucket_value(int i)
{
	if (i < SIM_HIST_SUB)
		return i;
	int e = i / SIM_HIST_SUB + SIM_HIST_SUB_BITS - 1;
	uint64_t sub = (uint64_t)(i % SIM_HIST_SUB);
	uint64_t width = 1ULL << (e - SIM_HIST_SUB_BITS);
	uint64_t lo = (1ULL << e) + sub * width;
	return (sim_time_t)(lo + width / 2);
}

void sim_hist_add_bucket(struct sim_hist *h, int i, uint64_t n)
{
	if (i < 0 || i >= SIM_HIST_BUCKETS)
		return;
	if (!h->bucket)
		h->bucket = g_new0(uint64_t, SIM_HIST_BUCKETS);
	h->bucket[i] += n;
	h->count += n;
}

void sim_hist_record(struct sim_hist *h, sim_time_t v)
{
	sim_hist_add_bucket(h, sim_hist_index(v), 1);
}

sim_time_t sim_hist_quantile(const struct sim_hist *h, double q)
{
	if (!h->count)
		return 0;
	/* The smallest value v such that at least q of the samples are <= v. */
	uint64_t rank = (uint64_t)ceil(q * (double)h->count);
	if (rank < 1)
		rank = 1;
	uint64_t seen = 0;
	for (int i = 0; i < SIM_HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			return sim_hist_bucket_value(i);
	}
	return sim_hist_bucket_value(SIM_HIST_BUCKETS - 1);
}

void sim_hist_free(struct sim_hist *h)
{
	g_free(h->bucket);
	h->bucket = NULL;
	h->count = 0;
}

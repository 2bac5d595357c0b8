/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sim_hist: a log-linear histogram of durations for percentiles.
 *
 * Values below 2^SIM_HIST_SUB_BITS ps are exact; above, each power of two is
 * split into 2^SIM_HIST_SUB_BITS buckets, so a reported percentile is within
 * 1/256 (0.4%) of a recorded value. Histograms merge by adding buckets. */
#pragma once
#include "sim_time.h"
#include <stdint.h>

#define SIM_HIST_SUB_BITS 7
#define SIM_HIST_SUB (1 << SIM_HIST_SUB_BITS)
#define SIM_HIST_BUCKETS ((64 - SIM_HIST_SUB_BITS + 1) * SIM_HIST_SUB)

struct sim_hist {
	uint64_t count;
	uint64_t *bucket; /* SIM_HIST_BUCKETS entries, allocated on first record */
};

void sim_hist_record(struct sim_hist *h, sim_time_t v);
/* Add @n samples to bucket @i (ignored when out of range). */
void sim_hist_add_bucket(struct sim_hist *h, int i, uint64_t n);
/* The value at quantile @q in [0, 1]; 0 for an empty histogram. */
sim_time_t sim_hist_quantile(const struct sim_hist *h, double q);
void sim_hist_free(struct sim_hist *h);
int sim_hist_index(sim_time_t v);
/* The representative (middle) value of bucket @i. */
sim_time_t sim_hist_bucket_value(int i);

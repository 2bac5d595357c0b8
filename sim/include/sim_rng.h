/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sim_rng: independent random streams derived from the scenario seed.
 *
 * Each source of randomness (a task's think time, a device's interrupts ...)
 * names its stream; the stream's seed is a hash of (scenario seed, name), so
 * adding a CPU or a workload never changes what the other streams draw. */
#pragma once
#include "sim_dist.h"
#include <stdint.h>

struct sim_rng;

/* splitmix64 finaliser: a bijective mix with good avalanche. */
static inline uint64_t sim_rng_mix(uint64_t seed, uint64_t salt)
{
	uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (salt + 1);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

struct sim_rng *sim_rng_new(uint64_t scenario_seed, const char *stream_name);
void sim_rng_free(struct sim_rng *rng);
double sim_rng_uniform01(struct sim_rng *rng);
/* A duration drawn from @dist, rounded to the picosecond, never negative. */
sim_time_t sim_rng_sample(struct sim_rng *rng, const struct sim_dist *dist);

/* sim_rng: independent random streams derived from the scenario seed.
 *
 * Each source of randomness (a task's think time, a device's interrupts ...)
 * names its stream; the stream's seed is a hash of (scenario seed, name), so
 * adding a CPU or a workload never changes what the other streams draw. */
#pragma once
#include "sim_dist.h"
#include <stdint.h>

struct sim_rng;

uint64_t sim_rng_mix(uint64_t seed, uint64_t salt);
struct sim_rng *sim_rng_new(uint64_t scenario_seed, const char *stream_name);
void sim_rng_free(struct sim_rng *rng);
double sim_rng_uniform01(struct sim_rng *rng);
/* A duration drawn from @dist, rounded to the picosecond, never negative. */
sim_time_t sim_rng_sample(struct sim_rng *rng, const struct sim_dist *dist);

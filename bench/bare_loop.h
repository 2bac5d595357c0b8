/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bare_loop: the yardstick of machine speed the benchmarks measure against.
 * N SimGrid actors, one per CPU of a 16-node x 64-CPU machine, loop
 * think / sg_mutex_lock / hold / sg_mutex_unlock on one mutex, think 900 ns
 * and hold 100 ns (both exponential): four engine calls per acquisition and
 * nothing of memcgsim's models. */
#pragma once
#include "sim_time.h"

/* Run the loop with @n actors for @duration of simulated time in a child
 * process; returns its wall time in seconds (building the platform
 * included) and the acquisitions it made in @acq. */
double bare_loop_run(int n, sim_time_t duration, long long *acq);

// SPDX-License-Identifier: GPL-2.0-or-later
/* The bare SimGrid loop (bare_loop.h) alone, for a fixed amount of work:
 * bench/swap-vs-bare.sh times it beside memcgsim runs as the yardstick of
 * the machine's speed at that moment.
 * Usage: bench_bare [ACTORS [SIMULATED_MS]]   (default 32 actors, 150 ms)
 * Prints one line: actors, simulated ms, acquisitions, engine calls (four
 * per acquisition), wall seconds. */
#include "bare_loop.h"
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 32;
	double ms = argc > 2 ? atof(argv[2]) : 150;
	if (n < 1 || n > 1024 || ms <= 0) {
		fprintf(stderr, "usage: bench_bare [ACTORS (1-1024) [SIMULATED_MS]]\n");
		return 2;
	}
	long long acq;
	double wall = bare_loop_run(n, (sim_time_t)(ms * SIM_MS), &acq);
	printf("actors %d sim_ms %g acquisitions %lld engine_calls %lld wall_s %.3f\n", n, ms, acq,
	       4 * acq, wall);
	return 0;
}

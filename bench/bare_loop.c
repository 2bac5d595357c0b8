// SPDX-License-Identifier: GPL-2.0-or-later
#include "bare_loop.h"
#include "sim_engine.h"
#include "sim_rng.h"
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mutex.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static sg_mutex_t bare_mutex;
static long long bare_acquisitions;

static void bare_actor(int argc, char **argv)
{
	struct sim_rng *rng = sim_rng_new(1, sg_actor_self_get_name());
	struct sim_dist think = {SIM_DIST_EXP, 900.0 * SIM_NS, 1},
			hold = {SIM_DIST_EXP, 100.0 * SIM_NS, 1};
	for (;;) {
		sg_actor_sleep_for((double)sim_rng_sample(rng, &think));
		sg_mutex_lock(bare_mutex);
		bare_acquisitions++;
		sg_actor_sleep_for((double)sim_rng_sample(rng, &hold));
		sg_mutex_unlock(bare_mutex);
	}
}

/* In a child: run the bare loop and write the acquisition count to @fd. */
static void bare_child(int fd, int n, sim_time_t duration)
{
	struct sim_machine m = {
	    .nodes = 16, .cpus_per_node = 64, .clock_ghz = 2.1, .sched_slice = 750 * SIM_US};
	sim_engine_init(&m, 0, duration, 1);
	bare_mutex = sg_mutex_init();
	for (int i = 0; i < n; i++) {
		char name[32], host[32];
		snprintf(name, sizeof(name), "bare%d", i);
		snprintf(host, sizeof(host), "cpu%d", i);
		sg_actor_create(name, sg_host_by_name(host), bare_actor, 0, NULL);
	}
	simgrid_run_until((double)duration);
	if (write(fd, &bare_acquisitions, sizeof(bare_acquisitions)) < 0)
		_exit(2);
	_exit(0);
}

double bare_loop_run(int n, sim_time_t duration, long long *acq)
{
	int fds[2];
	g_assert_cmpint(pipe(fds), ==, 0);
	fflush(NULL);
	gint64 t0 = g_get_monotonic_time();
	pid_t pid = fork();
	if (pid == 0)
		bare_child(fds[1], n, duration);
	close(fds[1]);
	g_assert_cmpint(read(fds[0], acq, sizeof(*acq)), ==, sizeof(*acq));
	close(fds[0]);
	waitpid(pid, NULL, 0);
	return (double)(g_get_monotonic_time() - t0) / 1e6;
}

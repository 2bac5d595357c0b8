/* Simulated lock acquisitions per wall-clock second: memcgsim's lockbench
 * (hold 100 ns, think 900 ns, both exponential) against a bare loop of
 * SimGrid actors doing lock / sleep / unlock / sleep on one sg_mutex with
 * the same times, at N = 1, 8, 64 and 1024 CPUs. Each run is a child
 * process; the wall time includes building the platform. */
#include "runner.h"
#include "scenario.h"
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
	struct sim_dist think = {SIM_DIST_EXP, 900.0 * SIM_NS, 1}, hold = {SIM_DIST_EXP, 100.0 * SIM_NS, 1};
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
	struct sim_machine m = {.nodes = 16, .cpus_per_node = 64, .clock_ghz = 2.1,
				.sched_slice = 750 * SIM_US};
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

static double run_bare(int n, sim_time_t duration, long long *acq)
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

static double run_memcgsim(int n, sim_time_t duration, long long *acq, long long *calls)
{
	char *cpus = g_strdup_printf("workloads.0.cpus=%d", n);
	char *dur = g_strdup_printf("stop.duration_ns=%lld", (long long)(duration / SIM_NS));
	const char *sets[] = {cpus, dur, NULL};
	GError *err = NULL;
	struct scenario *sc = scenario_load_file(MCS_SOURCE_DIR "/bench/lockbench_1024.json", sets, &err);
	g_assert_no_error(err);
	const struct scenario_variant *v = sc->variants->pdata[0];
	bool bad;
	gint64 t0 = g_get_monotonic_time();
	json_t *r = runner_run_one(v->config, 1, &bad, &err);
	double wall = (double)(g_get_monotonic_time() - t0) / 1e6;
	g_assert_no_error(err);
	*acq = json_integer_value(json_object_get(json_array_get(json_object_get(r, "locks"), 0),
						  "acquisitions"));
	*calls = json_integer_value(json_object_get(r, "engine_calls"));
	json_decref(r);
	scenario_free(sc);
	g_free(cpus);
	g_free(dur);
	return wall;
}

int main(void)
{
	static const int ns[] = {1, 8, 64, 1024};
	printf("%6s %12s %14s %14s %14s %8s %12s\n", "N", "sim time", "memcgsim acq", "acq/s memcgsim",
	       "acq/s bare", "ratio", "calls/acq");
	for (size_t i = 0; i < G_N_ELEMENTS(ns); i++) {
		int n = ns[i];
		sim_time_t duration = (n == 1 ? 300 : 40) * SIM_MS;
		long long acq_m, acq_b, calls;
		double wm = run_memcgsim(n, duration, &acq_m, &calls);
		double wb = run_bare(n, duration, &acq_b);
		printf("%6d %9.0f ms %14lld %14.0f %14.0f %7.2fx %12.2f\n", n, sim_to_us(duration) / 1e3,
		       acq_m, acq_m / wm, acq_b / wb, (acq_m / wm) / (acq_b / wb), (double)calls / acq_m);
	}
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* The memcg statistics' flush of the mm tree of June 2024 (memcg_rstat.h),
 * against 6.10's rules worked by hand on 4 CPUs: the flush threshold is
 * 64 x 4 = 256 pages of updates in the memcg's atomic, which takes a CPU's
 * count at 64 and not while it is over 256. */
#include "kernel.h"
#include "lockdep.h"
#include "memcg.h"
#include "memcg_rstat.h"
#include "test_util.h"

static struct mem_cgroup *job;

static void setup(enum kernel_version v)
{
	struct sim_machine m = mcs_test_machine(1, 4);
	m.contention = SIM_CONTENTION_QUEUED;
	sim_engine_init(&m, 0, SIM_S, 1);
	kernel_setup(&(struct kernel_params){.version = v});
	memcg_tree_init(1, 4);
	job = mem_cgroup_create("job", 1 << 20);
}

static void teardown(void)
{
	memcg_tree_destroy();
	kernel_teardown();
	line_class_reset_all();
	lock_class_reset_all();
	sim_engine_fini();
}

static uint64_t acquisitions(const char *cls)
{
	return lock_class_get(cls)->acquisitions;
}

#define GLOBAL "cgroup_rstat_lock"
#define PERCPU "per_cpu_ptr(&cgroup_rstat_cpu_lock, cpu)"

/* Atomic adds on the memcgs' vmstats lines (the job's and the root's). */
static uint64_t atomic_adds(void)
{
	return line_class_counts(line_class_get("struct memcg_vmstats")).ops[LINE_RMW];
}

static void threshold_task(struct sim_task *t, void *arg)
{
	/* 63: under 64 on this CPU, nothing reaches the atomic; the first
	 * update links the job and the root under the CPU's lock */
	memcg_rstat_updated(t, job, 63);
	g_assert_cmpint(atomic_adds(), ==, 0);
	g_assert_cmpint(acquisitions(PERCPU), ==, 1);
	/* 64: the job's and the root's atomic each take 64 */
	memcg_rstat_updated(t, job, 1);
	g_assert_cmpint(atomic_adds(), ==, 2);
	/* three more batches: the atomic at 256, not over the threshold */
	for (int i = 0; i < 3; i++)
		memcg_rstat_updated(t, job, 64);
	g_assert_cmpint(atomic_adds(), ==, 8);
	mem_cgroup_flush_stats(t, job);
	g_assert_cmpint(acquisitions(GLOBAL), ==, 0);
	/* 320 > 256: a flush, every CPU's lock in turn */
	memcg_rstat_updated(t, job, 64);
	g_assert_cmpint(atomic_adds(), ==, 10);
	/* over the threshold: the next batch is not added (the root's too) */
	memcg_rstat_updated(t, job, 64);
	g_assert_cmpint(atomic_adds(), ==, 10);
	mem_cgroup_flush_stats(t, job);
	g_assert_cmpint(acquisitions(GLOBAL), ==, 1);
	g_assert_cmpint(acquisitions(PERCPU), ==, 1 + 4);
	g_assert_true(lockdep_depends(lock_class_get(GLOBAL), lock_class_get(PERCPU)));
	/* flushed: below the threshold again, nothing to flush */
	mem_cgroup_flush_stats(t, job);
	g_assert_cmpint(acquisitions(GLOBAL), ==, 1);
	/* the job left this CPU's list: its next update relinks it; its
	 * count restarted (a batch of 64 is added again), the root's did not
	 * (the root was not flushed, its atomic is still over) */
	memcg_rstat_updated(t, job, 64);
	g_assert_cmpint(acquisitions(PERCPU), ==, 1 + 4 + 1);
	g_assert_cmpint(atomic_adds(), ==, 11);
}

static void test_threshold(void)
{
	setup(KERNEL_MM_2024_06);
	g_assert_true(memcg_rstat_active());
	sim_task_create("t", 0, threshold_task, NULL);
	g_assert_true(sim_engine_run());
	teardown();
}

/* 6.12 flushes in reclaim only rate-limited: none of it. */
static void mainline_task(struct sim_task *t, void *arg)
{
	for (int i = 0; i < 10; i++)
		memcg_rstat_updated(t, job, 64);
	mem_cgroup_flush_stats(t, job);
	g_assert_cmpint(atomic_adds(), ==, 0);
	g_assert_cmpint(acquisitions(GLOBAL), ==, 0);
	g_assert_cmpint(acquisitions(PERCPU), ==, 0);
}

static void test_mainline(void)
{
	setup(KERNEL_6_12);
	g_assert_false(memcg_rstat_active());
	sim_task_create("t", 0, mainline_task, NULL);
	g_assert_true(sim_engine_run());
	teardown();
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	mcs_test_add_subprocess("/rstat/threshold", test_threshold);
	mcs_test_add_subprocess("/rstat/mainline", test_mainline);
	return g_test_run();
}

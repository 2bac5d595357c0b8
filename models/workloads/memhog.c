// SPDX-License-Identifier: GPL-2.0-or-later
/* memhog: each task writes its size of anonymous memory once (numactl's
 * memhog), faulting pages in and charging them to its cgroup in batches of
 * MEMCG_CHARGE_BATCH pages; over the limit, the charge reclaims. With
 * `jobs` above 1 a task is a stream of processes, as one slot of make -j:
 * each job writes its memory, works `user_ns` in user mode and exits, its
 * swap slots freed and, but for the last job's, its resident pages freed
 * too (the next job starts with an empty cgroup). */
#include "cost.h"
#include "memcg.h"
#include "memcg_rstat.h"
#include "mm.h"
#include "run_config.h"
#include "workload.h"
#include <glib.h>

struct memhog_params {
	struct workload_tasks tasks; /* first: workload_tasks_cgroup */
	double size_mb;
	int placement;
	double start_spread_ns;
	long jobs;
	double user_ns;
};

#define AT(member) SPEC_AT(struct memhog_params, member)
static const struct spec_field memhog_fields[] = {
    SPEC_TYPE_FIELD("memhog"),
    {"cgroup", &workload_cgroup_spec, true, NULL, AT(tasks.cgroup)},
    {"count", &workload_count_spec, false, "1", AT(tasks.count)},
    {"tasks_per_cgroup", &workload_per_cgroup_spec, false, "1", AT(tasks.per_cgroup)},
    {"size_mb", &workload_size_spec, true, NULL, AT(size_mb)},
    {"placement", &workload_placement_spec, false, "\"spread\"", AT(placement)},
    {"start_spread_ns", &workload_start_spread_spec, false, "2000000", AT(start_spread_ns)},
    {"jobs",
     &(const struct spec){.kind = SPEC_INTEGER,
			  .doc =
			      "processes each task runs one after another (a make -j slot): each "
			      "writes size_mb, works user_ns, exits",
			  .min = 1,
			  .max = 1e6},
     false, "1", AT(jobs)},
    {"user_ns", &workload_time_spec, false, "0", AT(user_ns)},
    {NULL},
};
#undef AT

static const struct spec memhog_spec = {
    .kind = SPEC_OBJECT,
    .doc = "memhog: each task writes size_mb of anonymous memory once, charged to its cgroup",
    .fields = memhog_fields,
    .size = sizeof(struct memhog_params)};

struct memhog_task {
	struct mem_cgroup *memcg;
	long pages, jobs;
	long written, done; /* pages written, jobs exited: its figures */
	sim_time_t user;
	sim_time_t start; /* launched this long after the run starts */
};

struct memhog {
	int count;
	struct memhog_task *tasks;
};

static void memhog_write(struct sim_task *t, struct memhog_task *mt)
{
	for (long done = 0; done < mt->pages;) {
		long n = MIN(MEMCG_CHARGE_BATCH, mt->pages - done);
		cost_run_flat(t, SIM_CAT_USER, COST_MEMSET_PAGE, n);
		line_stream(sim_task_cpu(t), (uint64_t)n * PAGE_SIZE_BYTES); /* memset */
		cost_charge_flat(t, SIM_CAT_SYS, COST_ANON_FAULT, n);	     /* do_anonymous_page */
		sim_work_done(n); /* the ETA's measure, not the model's */
		mem_cgroup_charge(t, mt->memcg, n);
		memcg_rstat_updated(t, mt->memcg, MEMCG_RSTAT_FAULT * n);
		/* the folios come from the node the task runs on (it may move) */
		lru_add_pages(t, mt->memcg, sim_cpu_node(sim_task_cpu(t)), n, 0);
		done += n;
		mt->written += n;
	}
}

static void memhog_loop(struct sim_task *t, void *arg)
{
	struct memhog_task *mt = arg;
	if (mt->start)
		sim_task_sleep(t, mt->start);
	for (long j = 0; j < mt->jobs; j++) {
		mt->memcg->nr_procs++; /* the job's process, forked into its cgroup */
		memhog_write(t, mt);
		if (mt->user)
			sim_task_run(t, SIM_CAT_USER, mt->user);
		if (j + 1 == mt->jobs)
			sim_work_exit(); /* the first ends the run's steady part */
		/* do_exit -> exit_mmap -> zap_pte_range: its swap entries, then
		 * its resident pages, a share of its cgroup's (swap_exit.c); the
		 * cgroup's last process at the run's end keeps them */
		mm_exit_swap(t, mt->memcg);
		if (j + 1 < mt->jobs || mt->memcg->nr_procs > 1)
			lru_release_anon(t, mt->memcg, mt->memcg->nr_procs);
		mt->memcg->nr_procs--;
		mt->done++;
	}
}

static void *memhog_setup(const void *params, int index)
{
	const struct memhog_params *p = params;
	struct memhog *mh = g_new0(struct memhog, 1);
	mh->count = (int)p->tasks.count;
	mh->tasks = g_new0(struct memhog_task, mh->count);
	long pages = (long)(p->size_mb * 256);
	long long *start = workload_start_times(p->start_spread_ns, "memhog", index, mh->count);
	for (int i = 0; i < mh->count; i++) {
		mh->tasks[i].start = start[i];
		char *cg = workload_task_cgroup(&p->tasks, i);
		mh->tasks[i].memcg = mem_cgroup_lookup(cg);
		mh->tasks[i].pages = pages;
		mh->tasks[i].jobs = p->jobs;
		mh->tasks[i].user = sim_from_ns(p->user_ns);
		sim_work_plan(pages * p->jobs);
		g_free(cg);
		struct sim_task *t =
		    sim_task_createf(workload_cpu_for(i, p->placement), memhog_loop, &mh->tasks[i],
				     "memhog.%d.%d", index, i);
		sim_task_set_group(t, mh->tasks[i].memcg->id);
	}
	g_free(start);
	return mh;
}

/* Each task writes its pages, a fault each: reclaim comes on top. */
static double memhog_planned_ns(const void *params, const struct run_config *cfg)
{
	const struct memhog_params *p = params;
	return (double)p->jobs * (p->size_mb * 256 *
				      sim_to_ns(cfg->machine.cost[COST_MEMSET_PAGE] +
						cfg->machine.cost[COST_ANON_FAULT]) +
				  p->user_ns);
}

/* The build's progress: what a make -j's time measures, as a rate a timed
 * run can compare (the memory written) and the jobs that finished. */
static void memhog_metrics(void *state, json_t *metrics)
{
	struct memhog *mh = state;
	double pages = 0, jobs = 0;
	for (int i = 0; i < mh->count; i++) {
		pages += (double)mh->tasks[i].written;
		jobs += (double)mh->tasks[i].done;
	}
	double s = sim_to_ns(sim_end()) / 1e9;
	json_object_set_new(metrics, "written_mb_per_s",
			    json_real(s > 0 ? pages * PAGE_SIZE_BYTES / s / 1e6 : 0));
	json_object_set_new(metrics, "jobs_done", json_integer((json_int_t)jobs));
}

static void memhog_destroy(void *state)
{
	struct memhog *mh = state;
	g_free(mh->tasks);
	g_free(mh);
}

/* Over its cgroup's limit a task's pages go to swap. */
static double memhog_memory_bytes(const void *params, const struct run_config *cfg)
{
	const struct memhog_params *p = params;
	return mm_swap_memory_bytes(cfg, (double)p->tasks.count * p->jobs * p->size_mb * 256,
				    p->tasks.count);
}

const struct workload_type memhog_workload = {
    .name = "memhog",
    .spec = &memhog_spec,
    .reads = RUN_READS_CHARGE | RUN_READS_LRU | RUN_READS_SWAP,
    .cgroup = workload_tasks_cgroup,
    .tasks = workload_tasks_count,
    .planned_ns = memhog_planned_ns,
    .memory_bytes = memhog_memory_bytes,
    .setup = memhog_setup,
    .metrics = memhog_metrics,
    .metric_info =
	(const struct run_metric[]){
	    {"written_mb_per_s", true, "MB/s",
	     "anonymous memory written a second of the run, all tasks (the jobs' progress)"},
	    {"jobs_done", true, "", "jobs (processes) that wrote their memory and exited"},
	    {NULL, false, NULL, NULL}},
    .destroy = memhog_destroy,
};

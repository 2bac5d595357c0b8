// SPDX-License-Identifier: GPL-2.0-or-later
/* kbuild: a kernel-build-like mix on memcg.page_cgroup's file, on `count`
 * CPUs: each job reads headers (read faults on the file), compiles (user
 * time), writes its object (dirty pages), `jobs` times. */
#include "cost.h"
#include "mm.h"
#include "page_cgroup.h"
#include "sim_rng.h"
#include "workload.h"
#include <glib.h>

struct kbuild_params {
	long count;
	long jobs;
	long faults_per_job, writes_per_job;
	double compile_ns;
};

#define AT(member) SPEC_AT(struct kbuild_params, member)
static const struct spec_field kbuild_fields[] = {
    SPEC_TYPE_FIELD("kbuild"),
    {"count",
     &(const struct spec){
	 .kind = SPEC_INTEGER, .doc = "make -j: one job stream per CPU", .min = 1, .max = 4096},
     true, NULL, AT(count)},
    {"jobs",
     &(const struct spec){
	 .kind = SPEC_INTEGER, .doc = "compile jobs per stream", .min = 1, .max = 1e7},
     true, NULL, AT(jobs)},
    {"faults_per_job",
     &(const struct spec){
	 .kind = SPEC_INTEGER, .doc = "header pages read-faulted per job", .min = 0, .max = 1e6},
     false, "200", AT(faults_per_job)},
    {"writes_per_job",
     &(const struct spec){
	 .kind = SPEC_INTEGER, .doc = "object pages written per job", .min = 0, .max = 1e6},
     false, "20", AT(writes_per_job)},
    {"compile_ns",
     &(const struct spec){
	 .kind = SPEC_NUMBER, .doc = "mean compile time of a job (user)", .min = 0, .max = 1e12},
     false, "50000000", AT(compile_ns)},
    {NULL},
};
#undef AT

static const struct spec kbuild_spec = {
    .kind = SPEC_OBJECT,
    .doc = "kbuild: a kernel-build-like mix on memcg.page_cgroup's file: header read faults, "
	   "compiles, object writes",
    .fields = kbuild_fields,
    .size = sizeof(struct kbuild_params)};

struct kbuild_task {
	long jobs, faults, writes;
	struct sim_dist compile;
	struct sim_rng *rng;
	long seed_page;
};

/* The header pages job @j reads: a stride through the file from the
 * stream's own start. */
static long header_page(const struct kbuild_task *k, long j, long f, long nr_pages)
{
	return (k->seed_page + j * 131 + f * 7) % nr_pages;
}

static void kbuild_loop(struct sim_task *t, void *arg)
{
	struct kbuild_task *k = arg;
	struct page_cgroup_map *map = mm_page_cgroup_map();
	for (long j = 0; j < k->jobs; j++) {
		for (long f = 0; f < k->faults; f++) {
			cost_charge_flat(t, SIM_CAT_SYS, COST_READ_FAULT, 1);
			mem_cgroup_update_page_stat(t, map, header_page(k, j, f, map->nr_pages),
						    MEMCG_NR_FILE_MAPPED, +1, "page_add_file_rmap");
		}
		sim_task_run(t, SIM_CAT_USER, sim_rng_sample(k->rng, &k->compile));
		for (long f = 0; f < k->faults; f++)
			mem_cgroup_update_page_stat(t, map, header_page(k, j, f, map->nr_pages),
						    MEMCG_NR_FILE_MAPPED, -1, "page_remove_rmap");
		for (long w = 0; w < k->writes; w++)
			page_cgroup_dirty(t, map, (k->seed_page + j * 17 + w) % map->nr_pages);
	}
}

struct kbuild {
	int count;
	struct kbuild_task *tasks;
};

static void *kbuild_setup(const void *params, int index)
{
	const struct kbuild_params *p = params;
	struct kbuild *kb = g_new0(struct kbuild, 1);
	kb->count = (int)p->count;
	kb->tasks = g_new0(struct kbuild_task, kb->count);
	for (int i = 0; i < kb->count; i++) {
		struct kbuild_task *k = &kb->tasks[i];
		k->jobs = p->jobs;
		k->faults = p->faults_per_job;
		k->writes = p->writes_per_job;
		k->compile = (struct sim_dist){SIM_DIST_EXP, p->compile_ns * (double)SIM_NS, 1};
		k->seed_page = i * 1009L;
		char *name = g_strdup_printf("kbuild.%d.%d", index, i);
		k->rng = sim_rng_new(sim_seed(), name);
		sim_task_create(name, workload_cpu_for(i, WORKLOAD_SPREAD), kbuild_loop, k);
		g_free(name);
	}
	return kb;
}

static void kbuild_destroy(void *state)
{
	struct kbuild *kb = state;
	for (int i = 0; i < kb->count; i++)
		sim_rng_free(kb->tasks[i].rng);
	g_free(kb->tasks);
	g_free(kb);
}

/* A job stream per count. */
static long kbuild_tasks(const void *params, const struct run_config *cfg)
{
	(void)cfg;
	return ((const struct kbuild_params *)params)->count;
}

const struct workload_type kbuild_workload = {
    .name = "kbuild",
    .spec = &kbuild_spec,
    .reads = RUN_READS_PAGE_CGROUP,
    .tasks = kbuild_tasks,
    .setup = kbuild_setup,
    .destroy = kbuild_destroy,
};

// SPDX-License-Identifier: GPL-2.0-or-later
/* readfault: the read-fault micro benchmark: map memcg.page_cgroup's file
 * (warm in the page cache), read-fault every page (each fault accounts
 * FILE_MAPPED through page_add_file_rmap), unmap (page_remove_rmap accounts
 * it back), `iterations` times; cycles per fault as the benchmark's rdtsc
 * measures them (the fault alone). */
#include "cost.h"
#include "mm.h"
#include "page_cgroup.h"
#include "run_config.h"
#include "workload.h"
#include <glib.h>

struct readfault_params {
	long iterations;
	long cpu;
};

#define AT(member) SPEC_AT(struct readfault_params, member)
static const struct spec_field readfault_fields[] = {
    SPEC_TYPE_FIELD("readfault"),
    {"iterations",
     &(const struct spec){.kind = SPEC_INTEGER,
			  .doc =
			      "times the file is mapped, read-faulted page by page, and unmapped",
			  .min = 1,
			  .max = 1e9},
     true, NULL, AT(iterations)},
    WORKLOAD_CPU_FIELD("CPU of the faulting task", AT(cpu)),
    {NULL},
};
#undef AT

static const struct spec readfault_spec = {
    .kind = SPEC_OBJECT,
    .doc = "readfault: the read-fault micro benchmark on memcg.page_cgroup's file, warm in "
	   "the page cache: each fault updates FILE_MAPPED (page_add_file_rmap), each "
	   "unmap again",
    .fields = readfault_fields,
    .size = sizeof(struct readfault_params)};

static bool readfault_check(const void *params, const struct run_config *cfg, const char *path,
			    struct spec_check *chk)
{
	return workload_check_cpu(((const struct readfault_params *)params)->cpu, cfg, path, chk);
}

struct readfault {
	long iterations;
	long faults;
	sim_time_t fault_time;
};

static void readfault_loop(struct sim_task *t, void *arg)
{
	struct readfault *rf = arg;
	struct page_cgroup_map *map = mm_page_cgroup_map();
	for (long it = 0; it < rf->iterations; it++) {
		for (long p = 0; p < map->nr_pages; p++) {
			sim_time_t start = sim_task_clock(t);
			cost_charge_flat(t, SIM_CAT_SYS, COST_READ_FAULT, 1);
			mem_cgroup_update_page_stat(t, map, p, MEMCG_NR_FILE_MAPPED, +1,
						    "page_add_file_rmap");
			rf->fault_time += sim_task_clock(t) - start;
			rf->faults++;
		}
		for (long p = 0; p < map->nr_pages; p++) /* munmap */
			mem_cgroup_update_page_stat(t, map, p, MEMCG_NR_FILE_MAPPED, -1,
						    "page_remove_rmap");
	}
}

static void *readfault_setup(const void *params, int index)
{
	const struct readfault_params *p = params;
	struct readfault *rf = g_new0(struct readfault, 1);
	rf->iterations = p->iterations;
	sim_task_createf((int)p->cpu, readfault_loop, rf, "readfault.%d", index);
	return rf;
}

static void readfault_metrics(void *state, json_t *metrics)
{
	struct readfault *rf = state;
	double ns = rf->faults ? sim_to_ns(rf->fault_time) / (double)rf->faults : 0;
	json_object_set_new(metrics, "cycles_per_fault", json_real(ns * sim_machine()->clock_ghz));
	json_object_set_new(metrics, "faults", json_integer(rf->faults));
}

/* Each iteration faults every page of the file once. */
static double readfault_planned_ns(const void *params, const struct run_config *cfg)
{
	const struct readfault_params *p = params;
	long pages = cfg->memcg->page_cgroup ? cfg->memcg->page_cgroup->pages : 0;
	return (double)p->iterations * (double)pages *
	       sim_to_ns(cfg->machine.cost[COST_READ_FAULT]);
}

const struct workload_type readfault_workload = {
    .name = "readfault",
    .spec = &readfault_spec,
    .check = readfault_check,
    .reads = RUN_READS_PAGE_CGROUP,
    .planned_ns = readfault_planned_ns,
    .setup = readfault_setup,
    .metrics = readfault_metrics,
    .metric_info =
	(const struct run_metric[]){{"cycles_per_fault", false, "cycles",
				     "CPU cycles per read fault (time per fault x clock)"},
				    {"faults", true, "", "read faults taken"},
				    {NULL, false, NULL, NULL}},
    .destroy = g_free,
};

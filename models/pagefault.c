/* readfault: the read-fault micro benchmark: map memcg.page_cgroup's file
 * (warm in the page cache), read-fault every page (each fault accounts
 * FILE_MAPPED through page_add_file_rmap), unmap (page_remove_rmap accounts
 * it back), `iterations` times; cycles per fault as the benchmark's rdtsc
 * measures them (the fault alone).
 * movecharge: task migration with move_charge: at given times the file's
 * page charges move to another cgroup and, the next time, back. */
#include "mm.h"
#include "page_cgroup.h"
#include "workload.h"
#include <glib.h>

struct readfault {
	long iterations;
	long faults;
	sim_time_t fault_time;
};

static void readfault_loop(struct sim_task *t, void *arg)
{
	struct readfault *rf = arg;
	struct page_cgroup_map *map = mm_page_cgroup_map();
	const struct sim_machine *m = sim_machine();
	for (long it = 0; it < rf->iterations; it++) {
		for (long p = 0; p < map->nr_pages; p++) {
			sim_time_t start = sim_task_clock(t);
			sim_task_charge(t, SIM_CAT_SYS, m->cost[SIM_COST_READ_FAULT]);
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

static void *readfault_setup(json_t *w, int index)
{
	struct readfault *rf = g_new0(struct readfault, 1);
	rf->iterations = (long)json_integer_value(json_object_get(w, "iterations"));
	char *name = g_strdup_printf("readfault.%d", index);
	sim_task_create(name, (int)json_integer_value(json_object_get(w, "cpu")), readfault_loop,
			rf);
	g_free(name);
	return rf;
}

static void readfault_metrics(void *state, json_t *metrics)
{
	struct readfault *rf = state;
	double ns = rf->faults ? sim_to_ns(rf->fault_time) / (double)rf->faults : 0;
	json_object_set_new(metrics, "cycles_per_fault", json_real(ns * sim_machine()->clock_ghz));
	json_object_set_new(metrics, "faults", json_integer(rf->faults));
}

const struct workload_ops readfault_ops = {"readfault", readfault_setup, readfault_metrics,
					   (void (*)(void *))g_free};

struct movecharge {
	char *to;
	long pages;
	int cycles;
	sim_time_t at, period;
};

static void movecharge_loop(struct sim_task *t, void *arg)
{
	struct movecharge *mc = arg;
	struct page_cgroup_map *map = mm_page_cgroup_map();
	struct mem_cgroup *to = *mc->to ? mem_cgroup_lookup(mc->to) : memcg_tree->root;
	struct mem_cgroup *from = map->pc[0].mem_cgroup;
	for (int c = 0; c < mc->cycles; c++) {
		sim_time_t when = mc->at + c * mc->period;
		if (when > sim_task_clock(t))
			sim_task_sleep(t, when - sim_task_clock(t));
		mem_cgroup_move_charge(t, map, 0, mc->pages, c % 2 ? from : to);
	}
}

static void *movecharge_setup(json_t *w, int index)
{
	struct movecharge *mc = g_new0(struct movecharge, 1);
	mc->to = g_strdup(json_string_value(json_object_get(w, "to")));
	mc->pages = (long)json_integer_value(json_object_get(w, "pages"));
	mc->cycles = (int)json_integer_value(json_object_get(w, "cycles"));
	mc->at = sim_from_ns(json_number_value(json_object_get(w, "at_ns")));
	mc->period = sim_from_ns(json_number_value(json_object_get(w, "period_ns")));
	char *name = g_strdup_printf("movecharge.%d", index);
	sim_task_create(name, (int)json_integer_value(json_object_get(w, "cpu")), movecharge_loop,
			mc);
	g_free(name);
	return mc;
}

static void movecharge_metrics(void *state, json_t *metrics)
{
}

static void movecharge_destroy(void *state)
{
	struct movecharge *mc = state;
	g_free(mc->to);
	g_free(mc);
}

const struct workload_ops movecharge_ops = {"movecharge", movecharge_setup, movecharge_metrics,
					    movecharge_destroy};

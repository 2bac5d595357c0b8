/* readfault: the read-fault micro benchmark: map memcg.page_cgroup's file
 * (warm in the page cache), read-fault every page (each fault accounts
 * FILE_MAPPED through page_add_file_rmap), unmap (page_remove_rmap accounts
 * it back), `iterations` times; cycles per fault as the benchmark's rdtsc
 * measures them (the fault alone).
 * movecharge: task migration with move_charge: at given times the file's
 * page charges move to another cgroup and, the next time, back. */
#include "mm.h"
#include "cost.h"
#include "page_cgroup.h"
#include "sim_rng.h"
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
	for (long it = 0; it < rf->iterations; it++) {
		for (long p = 0; p < map->nr_pages; p++) {
			sim_time_t start = sim_task_clock(t);
			sim_task_charge(t, SIM_CAT_SYS, cost(COST_READ_FAULT));
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

static void movecharge_destroy(void *state)
{
	struct movecharge *mc = state;
	g_free(mc->to);
	g_free(mc);
}

const struct workload_ops movecharge_ops = {"movecharge", movecharge_setup, NULL,
					    movecharge_destroy};

/* filewrite: dd: write `pages` pages of the file (wrapping around it), each
 * dirtied; every `writeback_batch` pages the flusher starts their writeback
 * (process context); the writeback interrupt completes them. */
struct filewrite {
	long pages, batch;
	sim_time_t write_page;
};

static void filewrite_loop(struct sim_task *t, void *arg)
{
	struct filewrite *fw = arg;
	struct page_cgroup_map *map = mm_page_cgroup_map();
	for (long i = 0; i < fw->pages; i++) {
		sim_task_charge(t, SIM_CAT_SYS, fw->write_page); /* copy in, page cache */
		page_cgroup_dirty(t, map, i % map->nr_pages);
		if ((i + 1) % fw->batch == 0)
			for (long j = i + 1 - fw->batch; j <= i; j++)
				page_cgroup_start_writeback(t, map, j % map->nr_pages);
	}
}

static void *filewrite_setup(json_t *w, int index)
{
	struct filewrite *fw = g_new0(struct filewrite, 1);
	fw->pages = (long)(json_number_value(json_object_get(w, "size_mb")) * 256);
	fw->batch = (long)json_integer_value(json_object_get(w, "writeback_batch"));
	fw->write_page = sim_from_ns(json_number_value(json_object_get(w, "write_page_ns")));
	char *name = g_strdup_printf("filewrite.%d", index);
	sim_task_create(name, (int)json_integer_value(json_object_get(w, "cpu")), filewrite_loop, fw);
	g_free(name);
	return fw;
}

const struct workload_ops filewrite_ops = {"filewrite", filewrite_setup, NULL,
					   (void (*)(void *))g_free};

/* kbuild: a kernel-build-like mix on `count` CPUs: each job reads headers
 * (read faults on the file), compiles (user time), writes its object
 * (dirty pages), `jobs` times. */
struct kbuild_task {
	long jobs, faults, writes;
	struct sim_dist compile;
	struct sim_rng *rng;
	long seed_page;
};

static void kbuild_loop(struct sim_task *t, void *arg)
{
	struct kbuild_task *k = arg;
	struct page_cgroup_map *map = mm_page_cgroup_map();
	for (long j = 0; j < k->jobs; j++) {
		for (long f = 0; f < k->faults; f++) {
			long p = (k->seed_page + j * 131 + f * 7) % map->nr_pages;
			sim_task_charge(t, SIM_CAT_SYS, cost(COST_READ_FAULT));
			mem_cgroup_update_page_stat(t, map, p, MEMCG_NR_FILE_MAPPED, +1,
						    "page_add_file_rmap");
		}
		sim_task_run(t, SIM_CAT_USER, sim_rng_sample(k->rng, &k->compile));
		for (long f = 0; f < k->faults; f++) {
			long p = (k->seed_page + j * 131 + f * 7) % map->nr_pages;
			mem_cgroup_update_page_stat(t, map, p, MEMCG_NR_FILE_MAPPED, -1,
						    "page_remove_rmap");
		}
		for (long w = 0; w < k->writes; w++)
			page_cgroup_dirty(t, map, (k->seed_page + j * 17 + w) % map->nr_pages);
	}
}

struct kbuild {
	int count;
	struct kbuild_task *tasks;
};

static void *kbuild_setup(json_t *w, int index)
{
	struct kbuild *kb = g_new0(struct kbuild, 1);
	kb->count = (int)json_integer_value(json_object_get(w, "count"));
	kb->tasks = g_new0(struct kbuild_task, kb->count);
	for (int i = 0; i < kb->count; i++) {
		struct kbuild_task *k = &kb->tasks[i];
		k->jobs = (long)json_integer_value(json_object_get(w, "jobs"));
		k->faults = (long)json_integer_value(json_object_get(w, "faults_per_job"));
		k->writes = (long)json_integer_value(json_object_get(w, "writes_per_job"));
		k->compile = (struct sim_dist){SIM_DIST_EXP,
					       json_number_value(json_object_get(w, "compile_ns")) *
						       (double)SIM_NS,
					       1};
		k->seed_page = i * 1009L;
		char *name = g_strdup_printf("kbuild.%d.%d", index, i);
		k->rng = sim_rng_new(sim_seed(), name);
		sim_task_create(name, workload_cpu_for(i, true), kbuild_loop, k);
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

const struct workload_ops kbuild_ops = {"kbuild", kbuild_setup, NULL, kbuild_destroy};

// SPDX-License-Identifier: GPL-2.0-or-later
/* pagefault_loop: a program that maps anonymous memory, faults every page in
 * and unmaps it, in a loop, one task per CPU (taskset): the page-fault
 * benchmark of the 2009 charge-batching patches. Per page: the fault
 * (do_anonymous_page: anon_fault_ns) and, with memcg, the page's memcg work
 * (memcg_commit_ns) and its charge (mem_cgroup_charge, a page at a time as
 * mem_cgroup_newpage_charge did); at munmap, per page, zap_pte_range's work
 * (zap_page_ns) and the page's uncharge (mem_cgroup_uncharge_page),
 * gathered when the design batches uncharges. */
#include "charge.h"
#include "cost.h"
#include "run_config.h"
#include "workload.h"
#include <glib.h>

struct pagefault_loop_params {
	struct workload_tasks tasks; /* first: workload_tasks_cgroup */
	double region_mb;
	double start_spread_ns;
};

#define AT(member) SPEC_AT(struct pagefault_loop_params, member)
static const struct spec_field pagefault_loop_fields[] = {
    SPEC_TYPE_FIELD("pagefault_loop"),
    {"cgroup", &workload_cgroup_spec, true, NULL, AT(tasks.cgroup)},
    {"count",
     &(const struct spec){
	 .kind = SPEC_INTEGER, .doc = "tasks; task i is pinned to CPU i", .min = 1, .max = 4096},
     false, "1", AT(tasks.count)},
    {"region_mb",
     &(const struct spec){.kind = SPEC_NUMBER,
			  .doc = "anonymous memory mapped, faulted in and unmapped per loop, MiB",
			  .min = 0.00390625,
			  .max = 1 << 20},
     false, "64", AT(region_mb)},
    {"start_spread_ns", &workload_start_spread_spec, false, "2000000", AT(start_spread_ns)},
    {NULL},
};
#undef AT

static const struct spec pagefault_loop_spec = {
    .kind = SPEC_OBJECT,
    .doc = "pagefault_loop: each task maps region_mb of anonymous memory, faults every page "
	   "in and unmaps it, in a loop, pinned to its CPU; run it with a duration stop",
    .fields = pagefault_loop_fields,
    .size = sizeof(struct pagefault_loop_params)};

static bool pagefault_loop_check(const void *params, const struct run_config *cfg, const char *path,
				 struct spec_check *chk)
{
	const struct pagefault_loop_params *p = params;
	return workload_check_cpu(p->tasks.count - 1, cfg, path, chk);
}

struct pf_task {
	struct mem_cgroup *memcg;
	long region_pages;
	sim_time_t start; /* launched this long after the run starts */
	long faults;
	long round_faults;	       /* faults of the rounds completed (mapped and unmapped) */
	sim_time_t round_time;	       /* from its start to the end of the last of them */
	struct memcg_batch_info batch; /* current->memcg_batch */
	long pvec;		       /* pages in the CPU's lru_add pagevec, not yet on the LRU */
};

struct pagefault_loop {
	int count;
	struct pf_task *tasks;
};

static int task_nid(struct sim_task *t)
{
	return sim_cpu_node(sim_task_cpu(t));
}

/* do_anonymous_page for each page of the region; page_add_new_anon_rmap
 * puts it in the CPU's lru_add pagevec, which goes onto the zone LRU when
 * full (lru_cache_add_active_or_unevictable). */
static void fault_region(struct sim_task *t, struct pf_task *pt)
{
	for (long p = 0; p < pt->region_pages && !sim_task_should_stop(t); p++) {
		cost_charge_flat(t, SIM_CAT_SYS, COST_ANON_FAULT, 1);
		if (!mem_cgroup_disabled()) {
			cost_charge_flat(t, SIM_CAT_SYS, COST_MEMCG_COMMIT, 1);
			mem_cgroup_charge(t, pt->memcg, 1); /* mem_cgroup_newpage_charge */
		}
		if (++pt->pvec == PAGEVEC_SIZE_2632) {
			pagevec_lru_add_anon(t, pt->memcg, task_nid(t), PAGEVEC_SIZE_2632);
			pt->pvec = 0;
		}
		pt->faults++;
	}
}

/* The mmu_gather's @n gathered pages freed (tlb_flush_mmu ->
 * free_pages_and_swap_cache -> release_pages, a pagevec at a time, off the
 * zone LRU under its lock). */
static void tlb_flush_gathered(struct sim_task *t, struct pf_task *pt, long n)
{
	for (long p = 0; p < n; p += PAGEVEC_SIZE_2632)
		release_pages_anon(t, pt->memcg, task_nid(t), MIN(PAGEVEC_SIZE_2632, n - p));
}

/* munmap, as 2.6.32/2.6.33 walk it: unmap_vmas calls unmap_page_range once
 * per ZAP_BLOCK_SIZE (1,024 pages without CONFIG_PREEMPT), which brackets
 * its walk with mem_cgroup_uncharge_start/end (the batch's extent, when the
 * design batches); zap_pte_range uncharges every mapped page
 * (page_remove_rmap) and gathers it (tlb_remove_page); the gather is freed
 * when it holds FREE_PTE_NR (506) and at each block's end
 * (tlb_finish_mmu). */
#define ZAP_BLOCK_PAGES_2632 1024
#define FREE_PTE_NR_2632 506
static void unmap_region(struct sim_task *t, struct pf_task *pt, long pages)
{
	for (long done = 0; done < pages;) {
		long n = MIN(ZAP_BLOCK_PAGES_2632, pages - done), gathered = 0;
		mem_cgroup_uncharge_start(&pt->batch);
		for (long p = 0; p < n; p++) {
			cost_charge_flat(t, SIM_CAT_SYS, COST_ZAP_PAGE, 1);
			mem_cgroup_uncharge_page(t, &pt->batch, pt->memcg);
			if (++gathered == FREE_PTE_NR_2632) {
				tlb_flush_gathered(t, pt, gathered);
				gathered = 0;
			}
		}
		mem_cgroup_uncharge_end(t, &pt->batch);
		tlb_flush_gathered(t, pt, gathered);
		done += n;
	}
}

static void pagefault_loop_task(struct sim_task *t, void *arg)
{
	struct pf_task *pt = arg;
	if (pt->start)
		sim_task_sleep(t, pt->start);
	sim_time_t began = sim_task_clock(t);
	while (!sim_task_should_stop(t)) {
		long before = pt->faults;
		fault_region(t, pt);
		unmap_region(t, pt, pt->faults - before);
		sim_task_flush(t);
		if (!sim_task_should_stop(t)) {
			pt->round_faults = pt->faults;
			pt->round_time = sim_task_clock(t) - began;
		}
	}
}

static void *pagefault_loop_setup(const void *params, int index)
{
	const struct pagefault_loop_params *p = params;
	struct pagefault_loop *pl = g_new0(struct pagefault_loop, 1);
	pl->count = (int)p->tasks.count;
	pl->tasks = g_new0(struct pf_task, pl->count);
	long long *start =
	    workload_start_times(p->start_spread_ns, "pagefault_loop", index, pl->count);
	for (int i = 0; i < pl->count; i++) {
		pl->tasks[i].start = start[i];
		char *cg = mem_cgroup_instance_name(p->tasks.cgroup, i);
		pl->tasks[i].memcg = *cg ? mem_cgroup_lookup(cg) : memcg_tree->root;
		g_free(cg);
		pl->tasks[i].region_pages = MAX(1, (long)(p->region_mb * 256));
		struct sim_task *t = sim_task_createf(i, pagefault_loop_task, &pl->tasks[i],
						      "pagefault_loop.%d.%d", index, i);
		sim_task_set_group(t, pl->tasks[i].memcg->id);
	}
	g_free(start);
	return pl;
}

/* The faults of the window; and the benchmark's 60 s figure, from each
 * task's rate over the rounds it completed (a window that ends inside a
 * round's unmap would count its time and not its faults). */
static void pagefault_loop_metrics(void *state, json_t *metrics)
{
	struct pagefault_loop *pl = state;
	long faults = 0;
	double per_60s = 0;
	for (int i = 0; i < pl->count; i++) {
		const struct pf_task *pt = &pl->tasks[i];
		faults += pt->faults;
		if (pt->round_time)
			per_60s += (double)pt->round_faults * 60e9 / sim_to_ns(pt->round_time);
	}
	json_object_set_new(metrics, "page_faults", json_integer(faults));
	json_object_set_new(metrics, "page_faults_60s", json_real(per_60s));
}

static void pagefault_loop_destroy(void *state)
{
	struct pagefault_loop *pl = state;
	g_free(pl->tasks);
	g_free(pl);
}

const struct workload_type pagefault_loop_workload = {
    .name = "pagefault_loop",
    .spec = &pagefault_loop_spec,
    .reads = RUN_READS_CHARGE | RUN_READS_LRU | RUN_READS_SWAP,
    .check = pagefault_loop_check,
    .finite = workload_runs_until_stop,
    .cgroup = workload_tasks_cgroup,
    .tasks = workload_tasks_count,
    .setup = pagefault_loop_setup,
    .metrics = pagefault_loop_metrics,
    .metric_info =
	(const struct run_metric[]){
	    {"page_faults_60s", true, "",
	     "page faults per 60 s of the run (will-it-scale's page_fault2 count)"},
	    {"page_faults", true, "", "page faults taken"},
	    {NULL, false, NULL, NULL}},
    .destroy = pagefault_loop_destroy,
};

// SPDX-License-Identifier: GPL-2.0-or-later
/* readtwice: vm-scalability's case-lru-file-readtwice run in containers:
 * each of `count` containers (its own memcg, "%d" in cgroup) has one sparse
 * file, far larger than memory, and `readers` dd bs=4k tasks reading it from
 * the start, so every page is read twice: the first read allocates it
 * (zeroed: a hole), adds it to the page cache and the LRU; the second finds
 * it and activates it. Memory (memcg.node_memory_mb) stays full, so kswapd
 * and the readers' direct reclaim run all the time. Reader j of container i
 * runs on CPU (readers x i + j) mod CPUs. Throughput counts the bytes read
 * after warmup_ns. */
#include "cost.h"
#include "folio_lru.h"
#include "mm.h"
#include "run_config.h"
#include "workload.h"
#include <glib.h>

struct readtwice_params {
	struct workload_tasks tasks; /* first: workload_tasks_cgroup; count = containers */
	long readers;
	double warmup_ns;
};

#define AT(member) SPEC_AT(struct readtwice_params, member)
static const struct spec_field readtwice_fields[] = {
    SPEC_TYPE_FIELD("readtwice"),
    {"cgroup", &workload_cgroup_spec, true, NULL, AT(tasks.cgroup)},
    {"count",
     &(const struct spec){.kind = SPEC_INTEGER,
			  .doc = "containers, each a memcg with one sparse file",
			  .min = 1,
			  .max = 4096},
     false, "1", AT(tasks.count)},
    {"readers",
     &(const struct spec){.kind = SPEC_INTEGER,
			  .doc = "dd tasks reading each container's file",
			  .min = 1,
			  .max = 64},
     false, "2", AT(readers)},
    {"warmup_ns",
     &(const struct spec){.kind = SPEC_NUMBER,
			  .doc = "bytes read before this are not counted (the memory filling)",
			  .min = 0,
			  .max = 1e12},
     false, "0", AT(warmup_ns)},
    {NULL},
};
#undef AT

static const struct spec readtwice_spec = {
    .kind = SPEC_OBJECT,
    .doc = "readtwice: containers of dd readers reading one sparse file twice over "
	   "(vm-scalability case-lru-file-readtwice); needs memcg.node_memory_mb and a "
	   "duration stop",
    .fields = readtwice_fields,
    .size = sizeof(struct readtwice_params)};

/* The node must hold what the CPUs keep off the lists: batches and
 * isolated folios, a few hundred a CPU. */
static bool readtwice_check(const void *params, const struct run_config *cfg, const char *path,
			    struct spec_check *chk)
{
	(void)params;
	double need = cfg->machine.cpus_per_node / 4.0; /* 1 MiB for every 4 CPUs */
	if (cfg->memcg->node_memory_mb >= MAX(need, 4))
		return true;
	return spec_check_fail(chk, path, NULL,
			       "needs memcg.node_memory_mb of at least %g (MiB a node), got %g",
			       MAX(need, 4), cfg->memcg->node_memory_mb);
}

struct reader {
	struct page_file *file;
	sim_time_t warmup;
	long bytes;
};

struct readtwice {
	int nreaders;
	struct reader *readers;
};

/* dd bs=4k: read() page after page. */
static void dd_read(struct sim_task *t, void *arg)
{
	struct reader *r = arg;
	for (long index = 0; !sim_task_should_stop(t); index++) {
		filemap_read_folio(t, r->file, index);
		cost_run_flat(t, SIM_CAT_SYS, COST_FILE_READ_PAGE, 1);
		line_stream(sim_task_cpu(t), PAGE_SIZE_BYTES); /* copy_page_to_iter */
		if (sim_task_clock(t) >= r->warmup)
			r->bytes += PAGE_SIZE_BYTES;
		if (index % 64 == 63)
			sim_task_flush(t);
	}
}

static void *readtwice_setup(const void *params, int index)
{
	const struct readtwice_params *p = params;
	struct readtwice *rt = g_new0(struct readtwice, 1);
	rt->nreaders = (int)(p->tasks.count * p->readers);
	rt->readers = g_new0(struct reader, rt->nreaders);
	for (long c = 0; c < p->tasks.count; c++) {
		char *cg = mem_cgroup_instance_name(p->tasks.cgroup, c);
		struct mem_cgroup *memcg = *cg ? mem_cgroup_lookup(cg) : memcg_tree->root;
		g_free(cg);
		struct page_file *file = page_file_new(memcg);
		for (long j = 0; j < p->readers; j++) {
			struct reader *r = &rt->readers[c * p->readers + j];
			r->file = file;
			r->warmup = sim_from_ns(p->warmup_ns);
			struct sim_task *t =
			    sim_task_createf((int)((c * p->readers + j) % sim_ncpus()), dd_read, r,
					     "dd.%d.%ld.%ld", index, c, j);
			sim_task_set_group(t, memcg->id);
		}
	}
	return rt;
}

/* The dd's aggregate throughput after the warm-up, in 10^6 bytes/s. */
static void readtwice_metrics(void *state, json_t *metrics)
{
	struct readtwice *rt = state;
	double bytes = 0;
	for (int i = 0; i < rt->nreaders; i++)
		bytes += (double)rt->readers[i].bytes;
	double window_s = (sim_to_ns(sim_stop_at()) - sim_to_ns(rt->readers[0].warmup)) / 1e9;
	json_object_set_new(metrics, "throughput_mbps",
			    json_real(window_s > 0 ? bytes / window_s / 1e6 : 0));
	json_object_set_new(metrics, "bytes_read", json_real(bytes));
}

static void readtwice_destroy(void *state)
{
	struct readtwice *rt = state;
	g_free(rt->readers);
	g_free(rt);
}

/* The readers of every container. */
static long readtwice_tasks(const void *params, const struct run_config *cfg)
{
	(void)cfg;
	const struct readtwice_params *p = params;
	return p->tasks.count * p->readers;
}

const struct workload_type readtwice_workload = {
    .name = "readtwice",
    .spec = &readtwice_spec,
    .reads = RUN_READS_CHARGE | RUN_READS_LRU | RUN_READS_FOLIOS,
    .check = readtwice_check,
    .finite = workload_runs_until_stop,
    .cgroup = workload_tasks_cgroup,
    .tasks = readtwice_tasks,
    .setup = readtwice_setup,
    .metrics = readtwice_metrics,
    .metric_info = (const struct run_metric[]){{"throughput_mbps", true, "MB/s",
						"bytes read per second, MB/s"},
					       {"bytes_read", true, "B", "bytes read"},
					       {NULL, false, NULL, NULL}},
    .destroy = readtwice_destroy,
};

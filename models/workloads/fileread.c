// SPDX-License-Identifier: GPL-2.0-or-later
/* fileread: each task reads its files once (open, read, close), as the
 * benchmark's readers do, in its own cgroup; dentries, inodes and page cache
 * are charged to it. Tasks look their cgroup up when they start, after any
 * cgroup churn scheduled before them. */
#include "cost.h"
#include "fs.h"
#include "run_config.h"
#include "workload.h"
#include <glib.h>

struct fileread_params {
	struct workload_tasks tasks; /* first: workload_tasks_cgroup */
	long files;
	double start_ns;
	long dentry_bytes, inode_bytes;
	int placement;
	double start_spread_ns;
};

#define AT(member) SPEC_AT(struct fileread_params, member)
static const struct spec object_bytes = {
    .kind = SPEC_INTEGER, .doc = "slab object size, bytes", .min = 1, .max = 65536};
static const struct spec_field fileread_fields[] = {
    SPEC_TYPE_FIELD("fileread"),
    {"cgroup", &workload_cgroup_spec, true, NULL, AT(tasks.cgroup)},
    {"count", &workload_count_spec, false, "1", AT(tasks.count)},
    {"tasks_per_cgroup", &workload_per_cgroup_spec, false, "1", AT(tasks.per_cgroup)},
    {"files",
     &(const struct spec){
	 .kind = SPEC_INTEGER, .doc = "files each task reads once", .min = 0, .max = 1e8},
     true, NULL, AT(files)},
    {"start_ns",
     &(const struct spec){.kind = SPEC_NUMBER,
			  .doc = "when the tasks start, ns (after cgroup churn scheduled before)",
			  .min = 0,
			  .max = 3.6e12},
     false, "0", AT(start_ns)},
    {"dentry_bytes", &object_bytes, false, "192", AT(dentry_bytes)},
    {"inode_bytes", &object_bytes, false, "1024", AT(inode_bytes)},
    {"placement", &workload_placement_spec, false, "\"spread\"", AT(placement)},
    {"start_spread_ns", &workload_start_spread_spec, false, "2000000", AT(start_spread_ns)},
    {NULL},
};
#undef AT

static const struct spec fileread_spec = {
    .kind = SPEC_OBJECT,
    .doc = "fileread: each task reads its files once; a dentry, an inode (sizes: dentry "
	   "192 B, XFS inode 1 KiB) and one page of page cache per file",
    .fields = fileread_fields,
    .size = sizeof(struct fileread_params)};

struct fileread_task {
	struct super_block *sb;
	char *cgroup;
	long files;
	sim_time_t start;
};

struct fileread {
	int count;
	struct fileread_task *tasks;
	struct super_block *sb;
};

static void fileread_loop(struct sim_task *t, void *arg)
{
	struct fileread_task *ft = arg;
	if (ft->start)
		sim_task_sleep(t, ft->start);
	struct mem_cgroup *memcg = mem_cgroup_lookup(ft->cgroup);
	sim_task_set_group(t, memcg->id);
	struct folio_batch fb = {0};
	for (long i = 0; i < ft->files; i++)
		fs_read_file(t, ft->sb, memcg, &fb);
	folio_batch_move_lru(t, &fb);
}

static void *fileread_setup(const void *params, int index)
{
	const struct fileread_params *p = params;
	struct fileread *fr = g_new0(struct fileread, 1);
	fr->count = (int)p->tasks.count;
	fr->tasks = g_new0(struct fileread_task, fr->count);
	fr->sb = g_new0(struct super_block, 1);
	super_block_init(fr->sb, memcg_tree->lru_scope, p->dentry_bytes, p->inode_bytes);
	long long *start = workload_start_times(p->start_spread_ns, "fileread", index, fr->count);
	sim_time_t start0 = sim_from_ns(p->start_ns);
	for (int i = 0; i < fr->count; i++) {
		struct fileread_task *ft = &fr->tasks[i];
		ft->sb = fr->sb;
		ft->cgroup = workload_task_cgroup(&p->tasks, i);
		ft->files = p->files;
		ft->start = start0 + start[i];
		sim_task_createf(workload_cpu_for(i, p->placement), fileread_loop, ft,
				 "fileread.%d.%d", index, i);
	}
	g_free(start);
	return fr;
}

static void fileread_metrics(void *state, json_t *metrics)
{
	struct fileread *fr = state;
	json_object_set_new(metrics, "files_read", json_integer(fr->sb->stat.files_read));
	json_object_set_new(metrics, "dentries_freed", json_integer(fr->sb->stat.dentries_freed));
	json_object_set_new(metrics, "inodes_freed", json_integer(fr->sb->stat.inodes_freed));
}

static void fileread_destroy(void *state)
{
	struct fileread *fr = state;
	for (int i = 0; i < fr->count; i++)
		g_free(fr->tasks[i].cgroup);
	super_block_destroy(fr->sb);
	g_free(fr->sb);
	g_free(fr->tasks);
	g_free(fr);
}

/* Each task reads its files one after the other. */
static double fileread_planned_ns(const void *params, const struct run_config *cfg)
{
	const struct fileread_params *p = params;
	return p->start_ns + (double)p->files * sim_to_ns(cfg->machine.cost[COST_FILE_READ]);
}

/* Without reclaim every file's dentry and inode stay cached; each task's
 * memcg gets its lists on the workload's dentry and inode list_lrus. */
static double fileread_memory_bytes(const void *params, const struct run_config *cfg)
{
	const struct fileread_params *p = params;
	return (double)p->tasks.count * ((double)p->files * FS_BYTES_PER_FILE +
					 2 * list_lru_memcg_bytes(cfg->machine.nodes));
}

const struct workload_type fileread_workload = {
    .name = "fileread",
    .spec = &fileread_spec,
    .reads = RUN_READS_CHARGE | RUN_READS_LRU | RUN_READS_LIST_LRU,
    .cgroup = workload_tasks_cgroup,
    .tasks = workload_tasks_count,
    .shrinkers = 1, /* its superblock's */
    .planned_ns = fileread_planned_ns,
    .memory_bytes = fileread_memory_bytes,
    .setup = fileread_setup,
    .metrics = fileread_metrics,
    .metric_info =
	(const struct run_metric[]){
	    {"files_read", true, "", "files read through the page cache"},
	    {"dentries_freed", true, "", "dentries the superblock shrinker freed"},
	    {"inodes_freed", true, "", "inodes the superblock shrinker freed"},
	    {NULL, false, NULL, NULL}},
    .destroy = fileread_destroy,
};

/* fileread: each task reads its files once (open, read, close), as the
 * benchmark's readers do, in its own cgroup; dentries, inodes and page cache
 * are charged to it. Tasks look their cgroup up when they start, after any
 * cgroup churn scheduled before them. */
#include "fs.h"
#include "scenario_memcg.h"
#include "workload.h"
#include <glib.h>

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
	struct folio_batch fb = {0};
	for (long i = 0; i < ft->files; i++)
		fs_read_file(t, ft->sb, memcg, &fb);
	folio_batch_move_lru(t, &fb);
}

static void *fileread_setup(json_t *w, int index)
{
	struct fileread *fr = g_new0(struct fileread, 1);
	fr->count = (int)json_integer_value(json_object_get(w, "count"));
	fr->tasks = g_new0(struct fileread_task, fr->count);
	fr->sb = g_new0(struct super_block, 1);
	super_block_init(fr->sb, memcg_tree->lru_scope,
			 (long)json_integer_value(json_object_get(w, "dentry_bytes")),
			 (long)json_integer_value(json_object_get(w, "inode_bytes")));
	const char *tmpl = json_string_value(json_object_get(w, "cgroup"));
	bool spread = g_str_equal(json_string_value(json_object_get(w, "placement")), "spread");
	long long *start = workload_start_times(w, "fileread", index, fr->count);
	sim_time_t start0 = sim_from_ns(json_number_value(json_object_get(w, "start_ns")));
	for (int i = 0; i < fr->count; i++) {
		struct fileread_task *ft = &fr->tasks[i];
		ft->sb = fr->sb;
		ft->cgroup = scenario_cgroup_instance(tmpl, i);
		ft->files = (long)json_integer_value(json_object_get(w, "files"));
		ft->start = start0 + start[i];
		char *name = g_strdup_printf("fileread.%d.%d", index, i);
		sim_task_create(name, workload_cpu_for(i, spread), fileread_loop, ft);
		g_free(name);
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

const struct workload_ops fileread_ops = {"fileread", fileread_setup, fileread_metrics,
					  fileread_destroy};

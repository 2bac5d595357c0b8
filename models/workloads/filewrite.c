// SPDX-License-Identifier: GPL-2.0-or-later
/* filewrite: dd into memcg.page_cgroup's file: write `size_mb` of pages
 * (wrapping around the file), each dirtied; every `writeback_batch` pages the
 * flusher starts their writeback (process context); the writeback interrupt
 * (memcg.page_cgroup.writeback_irq) completes them. */
#include "mm.h"
#include "page_cgroup.h"
#include "workload.h"
#include <glib.h>

struct filewrite_params {
	double size_mb;
	double write_page_ns;
	long writeback_batch;
	long cpu;
};

#define AT(member) SPEC_AT(struct filewrite_params, member)
static const struct spec_field filewrite_fields[] = {
    SPEC_TYPE_FIELD("filewrite"),
    {"size_mb", &workload_size_spec, true, NULL, AT(size_mb)},
    {"write_page_ns",
     &(const struct spec){.kind = SPEC_NUMBER,
			  .doc = "write(2) of one page into the page cache, accounting excluded",
			  .min = 0,
			  .max = 1e9},
     false, "1000", AT(write_page_ns)},
    {"writeback_batch",
     &(const struct spec){.kind = SPEC_INTEGER,
			  .doc = "pages the flusher sends to writeback at once",
			  .min = 1,
			  .max = 1 << 20},
     false, "64", AT(writeback_batch)},
    WORKLOAD_CPU_FIELD("CPU of the writer", AT(cpu)),
    {NULL},
};
#undef AT

static const struct spec filewrite_spec = {
    .kind = SPEC_OBJECT,
    .doc = "filewrite: dd into memcg.page_cgroup's file: pages dirtied, sent to writeback in "
	   "batches, completed by the writeback interrupt",
    .fields = filewrite_fields,
    .size = sizeof(struct filewrite_params)};

static bool filewrite_check(const void *params, const struct run_config *cfg, const char *path,
			    struct spec_check *chk)
{
	return workload_check_cpu(((const struct filewrite_params *)params)->cpu, cfg, path, chk);
}

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
		line_stream(sim_task_cpu(t), PAGE_SIZE_BYTES);
		page_cgroup_dirty(t, map, i % map->nr_pages);
		if ((i + 1) % fw->batch == 0)
			for (long j = i + 1 - fw->batch; j <= i; j++)
				page_cgroup_start_writeback(t, map, j % map->nr_pages);
	}
}

static void *filewrite_setup(const void *params, int index)
{
	const struct filewrite_params *p = params;
	struct filewrite *fw = g_new0(struct filewrite, 1);
	fw->pages = (long)(p->size_mb * 256);
	fw->batch = p->writeback_batch;
	fw->write_page = sim_from_ns(p->write_page_ns);
	mm_page_cgroup_map()->has_writer = true;
	sim_task_createf((int)p->cpu, filewrite_loop, fw, "filewrite.%d", index);
	return fw;
}

/* Each page written waits on the writeback queue until the completion
 * interrupt takes it; without one, or a slower one, it stays. */
static double filewrite_memory_bytes(const void *params, const struct run_config *cfg)
{
	(void)cfg;
	return ((const struct filewrite_params *)params)->size_mb * 256 *
	       PAGE_CGROUP_WRITEBACK_BYTES;
}

const struct workload_type filewrite_workload = {
    .name = "filewrite",
    .spec = &filewrite_spec,
    .check = filewrite_check,
    .reads = RUN_READS_PAGE_CGROUP,
    .memory_bytes = filewrite_memory_bytes,
    .setup = filewrite_setup,
    .destroy = g_free,
};

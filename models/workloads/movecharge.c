// SPDX-License-Identifier: GPL-2.0-or-later
/* movecharge: task migration with move_charge: at given times the page
 * charges of memcg.page_cgroup's file move to another cgroup and, the next
 * time, back. */
#include "mm.h"
#include "page_cgroup.h"
#include "run_config.h"
#include "workload.h"
#include <glib.h>

struct movecharge_params {
	char *to;
	long pages;
	double at_ns, period_ns;
	long cycles;
	long cpu;
};

#define AT(member) SPEC_AT(struct movecharge_params, member)
static const struct spec_field movecharge_fields[] = {
    SPEC_TYPE_FIELD("movecharge"),
    {"to",
     &(const struct spec){.kind = SPEC_STRING,
			  .doc = "cgroup the charges move to (and back, every other cycle)",
			  .min = 0,
			  .max = 128},
     true, NULL, AT(to)},
    {"pages",
     &(const struct spec){
	 .kind = SPEC_INTEGER, .doc = "pages moved each time", .min = 1, .max = 1 << 24},
     true, NULL, AT(pages)},
    {"at_ns", &workload_time_spec, false, "0", AT(at_ns)},
    {"period_ns", &workload_time_spec, false, "0", AT(period_ns)},
    {"cycles", &(const struct spec){.kind = SPEC_INTEGER, .doc = "moves", .min = 1, .max = 1e6},
     false, "1", AT(cycles)},
    WORKLOAD_CPU_FIELD("CPU of the mover", AT(cpu)),
    {NULL},
};
#undef AT

static const struct spec movecharge_spec = {
    .kind = SPEC_OBJECT,
    .doc = "movecharge: task migration with move_charge: the file's page charges move "
	   "between cgroups at given times",
    .fields = movecharge_fields,
    .size = sizeof(struct movecharge_params)};

static bool movecharge_check(const void *params, const struct run_config *cfg, const char *path,
			     struct spec_check *chk)
{
	const struct movecharge_params *p = params;
	if (!mm_cgroup_known(cfg->memcg, p->to))
		return spec_check_fail(chk, path, "to", "\"%s\" is not in memcg.cgroups", p->to);
	return workload_check_cpu(p->cpu, cfg, path, chk);
}

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

static void *movecharge_setup(const void *params, int index)
{
	const struct movecharge_params *p = params;
	struct movecharge *mc = g_new0(struct movecharge, 1);
	mc->to = g_strdup(p->to);
	mc->pages = p->pages;
	mc->cycles = (int)p->cycles;
	mc->at = sim_from_ns(p->at_ns);
	mc->period = sim_from_ns(p->period_ns);
	sim_task_createf((int)p->cpu, movecharge_loop, mc, "movecharge.%d", index);
	return mc;
}

static void movecharge_destroy(void *state)
{
	struct movecharge *mc = state;
	g_free(mc->to);
	g_free(mc);
}

const struct workload_type movecharge_workload = {
    .name = "movecharge",
    .spec = &movecharge_spec,
    .check = movecharge_check,
    .reads = RUN_READS_PAGE_CGROUP,
    .setup = movecharge_setup,
    .destroy = movecharge_destroy,
};

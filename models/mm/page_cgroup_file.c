// SPDX-License-Identifier: GPL-2.0-or-later
/* The page_cgroup file as a memcg subsystem (memcg.page_cgroup): the file's
 * page_cgroups, RCU for the rcu scheme, the writeback-completion interrupt,
 * and the file's figures. The locking schemes are page_cgroup.c. */
#include "mm.h"
#include "page_cgroup.h"
#include "rcu.h"
#include "run_config.h"
#include "sim_irq.h"
#include "sim_rng.h"
#include <string.h>

static struct page_cgroup_map *pc_map;
static struct sim_rng *writeback_rng;

struct page_cgroup_map *mm_page_cgroup_map(void)
{
	return pc_map;
}

/* The completion interrupt: test_clear_page_writeback of the oldest page
 * under writeback (none: nothing to complete); with no writer in the
 * scenario, of a random page (the update from interrupt context is what the
 * locking schemes differ on). */
static void writeback_end_io(struct sim_task *t, void *arg)
{
	if (pc_map->has_writer) {
		page_cgroup_end_writeback(t, pc_map);
		return;
	}
	long page = (long)(sim_rng_uniform01(writeback_rng) * (double)pc_map->nr_pages);
	mem_cgroup_update_page_stat(t, pc_map, page, MEMCG_NR_WRITEBACK, -1,
				    "test_clear_page_writeback");
}

/* The file's page_cgroups; RCU (its tick: the first periodic interrupt
 * source other than the writeback one) when updates use it; the
 * writeback-completion handler. */
static void page_cgroup_setup(const struct mm_params *mm)
{
	const struct page_cgroup_params *pc = mm->page_cgroup;
	if (!pc)
		return;
	struct mem_cgroup *memcg = *pc->cgroup ? mem_cgroup_lookup(pc->cgroup) : memcg_tree->root;
	pc_map = page_cgroup_map_new(pc->locking, pc->pages, memcg);
	int tick = -1;
	for (int i = 0; i < sim_irq_nsources(); i++) {
		struct sim_irq_source *s = sim_irq_source(i);
		if (pc->writeback_irq && g_str_equal(s->name, pc->writeback_irq)) {
			s->action = writeback_end_io;
			writeback_rng = sim_rng_new(sim_seed(), "page_cgroup.writeback");
		} else if (tick < 0 && s->kind == SIM_IRQ_PERIODIC) {
			tick = i;
		}
	}
	rcu_init(tick);
}

static void page_cgroup_results(json_t *memcg, json_t *violations)
{
	if (!pc_map)
		return;
	const struct page_cgroup_stats *s = &pc_map->s;
	json_t *o = json_pack("{s:s}", "locking", pc_map->ops->name);
	PAGE_CGROUP_STATS(MM_STAT_JSON)
	json_object_set_new(
	    o, "move_latency_mean_ns",
	    json_real(s->moves ? sim_to_ns(s->move_total) / (double)s->moves : 0.0));
	json_object_set_new(o, "move_latency_max_ns", json_real(sim_to_ns(s->move_max)));
	json_object_set_new(memcg, "page_cgroup", o);
}

static void page_cgroup_teardown(void)
{
	if (pc_map)
		page_cgroup_map_free(pc_map);
	pc_map = NULL;
	sim_rng_free(writeback_rng);
	writeback_rng = NULL;
}

static bool irq_source_exists(const struct run_config *cfg, const char *name)
{
	for (int i = 0; i < cfg->nirqs; i++)
		if (strcmp(cfg->irqs[i].name, name) == 0)
			return true;
	return false;
}

/* memcg.page_cgroup's cgroup and interrupt source exist; the workloads that
 * use the file have it. */
static bool page_cgroup_check(const struct run_config *cfg, GHashTable *cgroups,
			      struct spec_check *chk)
{
	const struct page_cgroup_params *pc = cfg->memcg->page_cgroup;
	if (pc && !g_hash_table_contains(cgroups, pc->cgroup))
		return spec_check_fail(chk, "memcg.page_cgroup", "cgroup",
				       "\"%s\" is not in memcg.cgroups", pc->cgroup);
	if (pc && pc->writeback_irq && !irq_source_exists(cfg, pc->writeback_irq))
		return spec_check_fail(chk, "memcg.page_cgroup", "writeback_irq",
				       "no interrupt source \"%s\" in machine.interrupts",
				       pc->writeback_irq);
	for (int i = 0; !pc && i < cfg->nworkloads; i++) {
		const struct workload_type *type = cfg->workloads[i].type;
		if (!(type->reads & RUN_READS_PAGE_CGROUP))
			continue;
		char *path = g_strdup_printf("workloads.%d", i);
		spec_check_fail(chk, path, NULL, "a %s workload needs memcg.page_cgroup",
				type->name);
		g_free(path);
		return false;
	}
	return true;
}

static double page_cgroup_memory_bytes(const struct run_config *cfg, const char **path)
{
	const struct page_cgroup_params *pc = cfg->memcg->page_cgroup;
	*path = "memcg.page_cgroup.pages";
	return pc ? (double)pc->pages * PAGE_CGROUP_MODEL_BYTES : 0;
}

const struct mm_subsystem page_cgroup_subsystem = {
    .name = "page_cgroup",
    .doc = "a file whose page_cgroups the workloads update, and its locking scheme",
    .check = page_cgroup_check,
    .setup = page_cgroup_setup,
    .results = page_cgroup_results,
    .teardown = page_cgroup_teardown,
    .memory_bytes = page_cgroup_memory_bytes,
};

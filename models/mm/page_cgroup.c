// SPDX-License-Identifier: GPL-2.0-or-later
#include "page_cgroup.h"
#include "cost.h"
#include "kernel.h"
#include "rcu.h"
#include <glib.h>

static long *stat_of(struct page_cgroup_map *map, struct mem_cgroup *memcg,
		     enum mem_cgroup_page_stat_item item)
{
	G_STATIC_ASSERT(G_N_ELEMENTS(((struct mem_cgroup *)0)->page_stat) == MEMCG_NR_PAGE_STAT);
	return &memcg->page_stat[item];
}

long mem_cgroup_page_stat(struct page_cgroup_map *map, struct mem_cgroup *memcg,
			  enum mem_cgroup_page_stat_item item)
{
	return *stat_of(map, memcg, item);
}

/* The update itself, under whatever the scheme protects it with. */
static void __mem_cgroup_update_page_stat(struct page_cgroup_map *map, struct page_cgroup *pc,
					  enum mem_cgroup_page_stat_item item, long delta)
{
	*stat_of(map, pc->mem_cgroup, item) += delta;
	map->s.updates++;
}

/* The update's own work, and the page's flag for the statistic
 * (SetPageCgroupFileMapped ...: set_bit, a locked RMW on pc->flags). */
static sim_time_t update_work(struct sim_task *t, struct page_cgroup *pc, const char *site)
{
	return cost(COST_MEMCG_PAGE_STAT) +
	       spin_held_access(t, &pc->lock, pc->lock.line, LINE_RMW, site);
}

static sim_time_t update_section(struct sim_task *t, void *pc)
{
	return update_work(t, pc, "SetPageCgroupFileMapped");
}

/* lock_page_cgroup ... unlock_page_cgroup around the update: a known hold. */
static void update_locked(struct sim_task *t, struct page_cgroup_map *map, struct page_cgroup *pc,
			  enum mem_cgroup_page_stat_item item, long delta, enum spin_flavour fl,
			  const char *site)
{
	spin_lock_hold_fn(t, &pc->lock, update_section, pc, SIM_CAT_SYS, fl, site);
	__mem_cgroup_update_page_stat(map, pc, item, delta);
	map->s.locked++;
	map->s.locked_outside_move += map->moving == 0;
}

static void plain_update(struct sim_task *t, struct page_cgroup_map *map, struct page_cgroup *pc,
			 enum mem_cgroup_page_stat_item item, long delta, const char *site)
{
	update_locked(t, map, pc, item, delta, SPIN_PLAIN, site);
}

static void irqsave_update(struct sim_task *t, struct page_cgroup_map *map, struct page_cgroup *pc,
			   enum mem_cgroup_page_stat_item item, long delta, const char *site)
{
	update_locked(t, map, pc, item, delta, SPIN_IRQSAVE, site);
}

/* rcu: pc->mem_cgroup cannot change under rcu_read_lock unless a move is on. */
static void rcu_update(struct sim_task *t, struct page_cgroup_map *map, struct page_cgroup *pc,
		       enum mem_cgroup_page_stat_item item, long delta, const char *site)
{
	rcu_read_lock(t);
	sim_task_flush(t); /* the flag is read at the updater's time */
	line_touch(t, &map->moving_line, LINE_LOAD, "mem_cgroup_stealed");
	if (map->moving) {
		update_locked(t, map, pc, item, delta, SPIN_IRQSAVE, site);
	} else {
		sim_task_charge(t, SIM_CAT_SYS, update_work(t, pc, "SetPageCgroupFileMapped"));
		__mem_cgroup_update_page_stat(map, pc, item, delta);
		map->s.lockless++;
		map->s.lockless_during_move += map->move_phase;
	}
	rcu_read_unlock(t);
}

/* Plain and irqsave movers just take each page's lock. */
static void move_lock_only(struct sim_task *t, struct page_cgroup_map *map)
{
}

/* mem_cgroup_start_move: set the flag, then wait until every updater that
 * may not have seen it has left its read-side section. */
static void rcu_move_begin(struct sim_task *t, struct page_cgroup_map *map)
{
	sim_task_flush(t);
	line_touch(t, &map->moving_line, LINE_RMW, "mem_cgroup_start_move");
	map->moving++;
	synchronize_rcu(t);
}

static void rcu_move_end(struct sim_task *t, struct page_cgroup_map *map)
{
	sim_task_flush(t);
	line_touch(t, &map->moving_line, LINE_RMW, "mem_cgroup_end_move");
	map->moving--;
}

static const struct page_cgroup_ops page_cgroup_plain = {
    .name = "plain",
    .doc = "lock_page_cgroup with interrupts on",
    .update_page_stat = plain_update,
    .move_begin = move_lock_only,
    .move_end = move_lock_only,
};
static const struct page_cgroup_ops page_cgroup_irqsave = {
    .name = "irqsave",
    .doc = "local_irq_save around lock_page_cgroup",
    .update_page_stat = irqsave_update,
    .move_begin = move_lock_only,
    .move_end = move_lock_only,
};
static const struct page_cgroup_ops page_cgroup_rcu = {
    .name = "rcu",
    .doc = "rcu_read_lock only, the irqsave lock while charges move",
    .update_page_stat = rcu_update,
    .move_begin = rcu_move_begin,
    .move_end = rcu_move_end,
};

const struct mcs_named *const page_cgroup_schemes[] = {
    &page_cgroup_plain.named, &page_cgroup_irqsave.named, &page_cgroup_rcu.named, NULL};

#define AT(member) SPEC_AT(struct page_cgroup_params, member)
static const struct spec_field page_cgroup_fields[] = {
    {"locking",
     &(const struct spec){.kind = SPEC_ENUM,
			  .doc = "how page_cgroup updates are protected: the bit spinlock with "
				 "interrupts on (plain), irqsave, or RCU with the lock only while "
				 "charges move",
			  .choices = page_cgroup_schemes},
     false, "\"plain\"", AT(locking)},
    {"pages",
     &(const struct spec){
	 .kind = SPEC_INTEGER, .doc = "pages of the file", .min = 1, .max = 1 << 24},
     true, NULL, AT(pages)},
    {"cgroup",
     &(const struct spec){.kind = SPEC_STRING,
			  .doc = "the file's pages are charged to it (\"\": the root)",
			  .min = 0,
			  .max = 128},
     false, "\"\"", AT(cgroup)},
    {"writeback_irq",
     &(const struct spec){.kind = SPEC_STRING,
			  .doc = "a machine.interrupts source whose handler completes writeback of "
				 "a random page of the file (an update from interrupt context)",
			  .min = 1,
			  .max = 32},
     false, NULL, AT(writeback_irq)},
    {NULL},
};
#undef AT

const struct spec page_cgroup_params_spec = {
    .kind = SPEC_OBJECT,
    .doc = "a file's page_cgroups and how their updates are locked",
    .fields = page_cgroup_fields,
    .size = sizeof(struct page_cgroup_params)};

struct page_cgroup_map *page_cgroup_map_new(const struct page_cgroup_ops *ops, long nr_pages,
					    struct mem_cgroup *memcg)
{
	struct page_cgroup_map *map = g_new0(struct page_cgroup_map, 1);
	struct lock_class *cls = lock_class_get("&pc->lock");
	/* lock_page_cgroup is bit_spin_lock(PCG_LOCK, &pc->flags)
	 * (include/linux/page_cgroup.h, 2.6.32): lockdep does not track it */
	lock_class_lockdep_name(cls, "");
	struct line_class *lines = line_class_get("struct page_cgroup");
	map->ops = ops;
	map->nr_pages = nr_pages;
	map->pc = g_new0(struct page_cgroup, nr_pages);
	long nlines = (nr_pages * PAGE_CGROUP_BYTES + 63) / 64;
	map->lines = g_new0(struct cacheline, nlines);
	for (long i = 0; i < nlines; i++)
		line_init(&map->lines[i], lines, 0);
	line_init(&map->moving_line, line_class_get("memcg moving_account"), 0);
	for (long i = 0; i < nr_pages; i++) {
		spin_lock_init_in(&map->pc[i].lock, cls, &map->lines[i * PAGE_CGROUP_BYTES / 64]);
		map->pc[i].lock.bit = true;
		map->pc[i].mem_cgroup = memcg;
	}
	return map;
}

void page_cgroup_map_free(struct page_cgroup_map *map)
{
	for (long i = 0; i < map->nr_pages; i++)
		spin_lock_destroy(&map->pc[i].lock);
	g_queue_clear(&map->writeback);
	g_free(map->lines);
	g_free(map->pc);
	g_free(map);
}

void mem_cgroup_update_page_stat(struct sim_task *t, struct page_cgroup_map *map, long page,
				 enum mem_cgroup_page_stat_item item, long delta, const char *site)
{
	map->ops->update_page_stat(t, map, &map->pc[page], item, delta, site);
}

void page_cgroup_dirty(struct sim_task *t, struct page_cgroup_map *map, long page)
{
	mem_cgroup_update_page_stat(t, map, page, MEMCG_NR_FILE_DIRTY, +1, "account_page_dirtied");
}

void page_cgroup_start_writeback(struct sim_task *t, struct page_cgroup_map *map, long page)
{
	mem_cgroup_update_page_stat(t, map, page, MEMCG_NR_FILE_DIRTY, -1,
				    "clear_page_dirty_for_io");
	mem_cgroup_update_page_stat(t, map, page, MEMCG_NR_WRITEBACK, +1, "set_page_writeback");
	g_queue_push_tail(&map->writeback, GINT_TO_POINTER((int)page + 1));
}

void page_cgroup_end_writeback(struct sim_task *t, struct page_cgroup_map *map)
{
	if (g_queue_is_empty(&map->writeback))
		return;
	long page = GPOINTER_TO_INT(g_queue_pop_head(&map->writeback)) - 1;
	mem_cgroup_update_page_stat(t, map, page, MEMCG_NR_WRITEBACK, -1,
				    "test_clear_page_writeback");
}

/* mem_cgroup_move_account's work, and pc->mem_cgroup written. */
static sim_time_t move_section(struct sim_task *t, void *pc)
{
	return 2 * cost(COST_MEMCG_PAGE_STAT) +
	       spin_held_access(t, &((struct page_cgroup *)pc)->lock,
				((struct page_cgroup *)pc)->lock.line, LINE_STORE,
				"mem_cgroup_move_account");
}

sim_time_t mem_cgroup_move_charge(struct sim_task *t, struct page_cgroup_map *map, long first,
				  long n, struct mem_cgroup *to)
{
	sim_task_flush(t);
	sim_time_t start = sim_now();
	map->ops->move_begin(t, map);
	map->move_phase = true;
	for (long i = first; i < first + n && i < map->nr_pages; i++) {
		struct page_cgroup *pc = &map->pc[i];
		/* mem_cgroup_move_account: under the page's lock, irqs off */
		spin_lock_hold_fn(t, &pc->lock, move_section, pc, SIM_CAT_SYS, SPIN_IRQSAVE,
				  "mem_cgroup_move_account");
		for (int item = 0; item < MEMCG_NR_PAGE_STAT; item++) {
			/* what this page contributes moves with it (one mapping) */
			long *from = stat_of(map, pc->mem_cgroup, item);
			long moved = item == MEMCG_NR_FILE_MAPPED && *from > 0 ? 1 : 0;
			*from -= moved;
			*stat_of(map, to, item) += moved;
		}
		pc->mem_cgroup = to;
		map->s.pages_moved++;
	}
	sim_task_flush(t);
	map->move_phase = false;
	map->ops->move_end(t, map);
	sim_time_t latency = sim_task_clock(t) - start;
	map->s.moves++;
	map->s.move_total += latency;
	map->s.move_max = MAX(map->s.move_max, latency);
	return latency;
}

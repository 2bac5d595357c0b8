/* SPDX-License-Identifier: GPL-2.0-or-later */
/* page_cgroup: per-page memcg ownership and per-memcg page statistics, as
 * Linux 2.6.3x kept them: a struct page_cgroup per page with a bit spinlock
 * (lock_page_cgroup) guarding pc->mem_cgroup and the statistics updates
 * (mem_cgroup_update_page_stat: FILE_MAPPED on every file map and unmap,
 * dirty and writeback, the latter from writeback-completion interrupts).
 *
 * How the updates are protected is the locking scheme, a table of
 * operations chosen by the scenario:
 *  - plain:   the bit spinlock with interrupts left on;
 *  - irqsave: local_irq_save around the bit spinlock;
 *  - rcu:     rcu_read_lock only, unless a charge move is in progress (a
 *             global flag), then the irqsave lock. Movers set the flag, wait
 *             for a grace period, move, clear it. */
#pragma once
#include "memcg.h"
#include "spec.h"
#include "spinlock.h"

enum mem_cgroup_page_stat_item {
	MEMCG_NR_FILE_MAPPED,
	MEMCG_NR_FILE_DIRTY,
	MEMCG_NR_WRITEBACK,
	MEMCG_NR_PAGE_STAT
};

/* 40 bytes (flags, mem_cgroup, page, lru) in an array: lines are shared by
 * neighbouring pages' page_cgroups. */
/* sizeof(struct page_cgroup) in 2.6.3x */
#define PAGE_CGROUP_BYTES 40

/* What the model allocates per page of the file: its struct page_cgroup,
 * its share of the array's cache lines and, once its lock has been taken,
 * the lock's spare queue entry (measured: 10^6 and 4*10^6 pages differ by
 * 235 bytes a page in maximum resident size with readfault's plain locking,
 * 155 with rcu, which takes no lock). */
#define PAGE_CGROUP_MODEL_BYTES 240
/* A page's entry on the writeback queue, from page_cgroup_start_writeback
 * until the completion interrupt takes it (measured: filewrite of 1000 and
 * 4000 MiB into a 1 MiB file without a writeback_irq, whose entries stay,
 * differ by 36.8 bytes a page written in maximum resident size). */
#define PAGE_CGROUP_WRITEBACK_BYTES 40

struct page_cgroup {
	struct spinlock lock;	       /* PCG_LOCK: a bit of pc->flags */
	struct mem_cgroup *mem_cgroup; /* the lock, or RCU when no move is on */
};

struct page_cgroup_stats {
	/* mm_stats.h; locked_outside_move and lockless_during_move must both
	 * stay 0 for rcu */
	PAGE_CGROUP_STATS(MM_STAT_MEMBER)
	sim_time_t move_total, move_max; /* mover latency */
};

struct page_cgroup_ops;

struct page_cgroup_map {
	const struct page_cgroup_ops *ops;
	long nr_pages;
	struct page_cgroup *pc;
	long moving;		      /* charges being moved: the rcu scheme's flag (atomic) */
	struct cacheline *lines;      /* the page_cgroup array's */
	struct cacheline moving_line; /* the flag's: read by every lockless update */
	bool move_phase;	      /* a mover is moving pages now (after its grace period) */
	GQueue writeback;	      /* pages under writeback, oldest first */
	/* A workload sends the file's pages to writeback (filewrite): the
	 * completion interrupt then completes only those. */
	bool has_writer;
	struct page_cgroup_stats s;
};

struct page_cgroup_ops {
	MCS_NAMED;
	/* Update @item of @pc's memcg by @delta, from task or interrupt context. */
	void (*update_page_stat)(struct sim_task *t, struct page_cgroup_map *map,
				 struct page_cgroup *pc, enum mem_cgroup_page_stat_item item,
				 long delta, const char *site);
	/* Move @pc's charge to @to (mem_cgroup_move_account), with movers' rules. */
	void (*move_begin)(struct sim_task *t, struct page_cgroup_map *map);
	void (*move_end)(struct sim_task *t, struct page_cgroup_map *map);
};

/* The schemes a scenario chooses from (memcg.page_cgroup.locking). */
extern const struct mcs_named *const page_cgroup_schemes[];

/* memcg.page_cgroup: a file whose page_cgroups the workloads update. */
struct page_cgroup_params {
	const struct page_cgroup_ops *locking;
	long pages;
	char *cgroup;	     /* its pages' memcg; "" for the root */
	char *writeback_irq; /* interrupt source completing writeback; NULL: none */
};
extern const struct spec page_cgroup_params_spec;
/* The run's file of page_cgroups (memcg.page_cgroup), or NULL
 * (page_cgroup_file.c). */
struct page_cgroup_map *mm_page_cgroup_map(void);

/* One page_cgroup per page of a file of @nr_pages, all charged to @memcg. */
struct page_cgroup_map *page_cgroup_map_new(const struct page_cgroup_ops *ops, long nr_pages,
					    struct mem_cgroup *memcg);
void page_cgroup_map_free(struct page_cgroup_map *map);
void mem_cgroup_update_page_stat(struct sim_task *t, struct page_cgroup_map *map, long page,
				 enum mem_cgroup_page_stat_item item, long delta, const char *site);
/* Move the charges of pages [first, first + n) to @to; returns its latency. */
sim_time_t mem_cgroup_move_charge(struct sim_task *t, struct page_cgroup_map *map, long first,
				  long n, struct mem_cgroup *to);
long mem_cgroup_page_stat(struct page_cgroup_map *map, struct mem_cgroup *memcg,
			  enum mem_cgroup_page_stat_item item);
/* A written page: dirty (account_page_dirtied). */
void page_cgroup_dirty(struct sim_task *t, struct page_cgroup_map *map, long page);
/* set_page_writeback: dirty -> writeback, in process context; the page waits
 * for its completion interrupt. */
void page_cgroup_start_writeback(struct sim_task *t, struct page_cgroup_map *map, long page);
/* test_clear_page_writeback of the oldest page under writeback, if any. */
void page_cgroup_end_writeback(struct sim_task *t, struct page_cgroup_map *map);

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* charge: how memory is charged to a memcg, as a design a scenario chooses
 * (memcg.charge). The path is try_charge_memcg's in mm/memcontrol.c: the
 * per-CPU stock, the counters of every level, reclaim; uncharges direct, or
 * gathered per task during an unmap (the 2009 uncharge batching), or through
 * the stock (socket memory, slab). What differs between designs is the
 * counter: a table of operations (struct charge_counter_ops), one file each:
 *  - charge_res_counter.c: res_counter, one spinlock per counter (2.6.25 ..
 *    3.18);
 *  - charge_page_counter.c: page_counter, lockless atomics (3.19+), with the
 *    protected-usage propagation of Linux 6.0 or 6.1 and the field layout
 *    before or after 6.1.
 * To add a design: a file with its table, and one line in CHARGE_COUNTERS
 * (charge_params.c). */
#pragma once
#include "memcg.h"
#include "spec.h"

/* Where a field of struct page_counter sits: the index of its line in the
 * counter's lines[] (a layout is one such table). */
enum pc_field {
	PC_USAGE,     /* usage */
	PC_LIMITS,    /* min, low, high, max: read on every charge */
	PC_MIN_USAGE, /* emin, min_usage, children_min_usage */
	PC_LOW_USAGE, /* elow, low_usage, children_low_usage */
	PC_WATERMARK, /* watermark, failcnt */
	PC_PARENT,    /* parent */
	PC_FIELD_N
};

struct page_counter_layout {
	MCS_NAMED;
	int line_of[PC_FIELD_N];
	const char *line_names[PAGE_COUNTER_LINES]; /* the classes the c2c report shows */
	/* struct mem_cgroup's css.parent and id share the memory counter's
	 * usage line (the counter not aligned, Linux <= 6.0) */
	bool css_with_usage;
};

/* A counter design. */
struct charge_counter_ops {
	MCS_NAMED;
	/* The consume_stock / refill_stock of its era disable interrupts
	 * (local_irq_save or local_lock_irqsave, 4.x+), or only preemption
	 * (get_cpu_var, 2009). */
	bool stock_irqsave;
	/* Set up @c's lines (and lock) on node @nid, the fields placed as
	 * @layout says (where the design has a choice of layouts). */
	void (*init)(struct page_counter *c, const struct page_counter_layout *layout, int nid);
	void (*destroy)(struct page_counter *c);
	/* After all of @m's counters are set up: where the era's struct
	 * mem_cgroup puts them beside each other (NULL: apart). */
	void (*place)(struct mem_cgroup *m);
	/* Charge @nr pages at @c and every ancestor; over a limit: undo, set
	 * *@fail to the counter over it, false. */
	bool (*try_charge)(struct sim_task *t, struct page_counter *c, long nr,
			   struct page_counter **fail);
	void (*uncharge)(struct sim_task *t, struct page_counter *c, long nr);
	/* After a charge reached the counters: try_charge_memcg's memory.high
	 * check of every level (NULL: the era had none). */
	void (*check_high)(struct sim_task *t, struct mem_cgroup *memcg);
};

enum charge_protection {
	CHARGE_PROTECTION_XCHG,	     /* Linux <= 6.0: atomic_long_xchg on every charge */
	CHARGE_PROTECTION_ON_CHANGE, /* 6.1: read, xchg only when it changed */
};

/* The scenario's memcg.charge. */
struct charge_params {
	const struct charge_counter_ops *counter;
	long stock_batch;    /* pages a CPU charges at once; 0: no per-CPU stock */
	bool uncharge_batch; /* mem_cgroup_uncharge_start/end around an unmap */
	bool memsw;	     /* the memory+swap counter is charged too (cgroup v1) */
	bool use_hierarchy;  /* a level charges its ancestors' counters (up to the root's) */
	int protection;	     /* enum charge_protection */
	const struct page_counter_layout *layout;
};
extern const struct spec charge_params_spec;
/* The defaults: Linux 6.12's charge path. */
extern const struct charge_params charge_defaults;
/* The run's design (charge_defaults until charge_use()). */
extern const struct charge_params *charge;
void charge_use(const struct charge_params *p);

extern const struct charge_counter_ops charge_res_counter, charge_page_counter;
/* res_counter's soft-limit excess read (2.6.32): a section of @c's lock. */
void res_counter_soft_limit_excess(struct sim_task *t, struct page_counter *c);
extern const struct page_counter_layout page_counter_layouts[];

/* The line of @c that holds field @f (as its layout places it). */
struct cacheline *page_counter_line(struct page_counter *c, enum pc_field f);
/* @c's lines as @layout places them, with their classes (@c keeps @layout). */
void page_counter_init_lines(struct page_counter *c, const struct page_counter_layout *layout,
			     int nid);

/* The task's uncharge batch (current->memcg_batch of Linux 2.6.33). */
struct memcg_batch_info {
	int do_batch;
	struct mem_cgroup *memcg;
	long nr_pages;
};
void mem_cgroup_uncharge_start(struct memcg_batch_info *b);
void mem_cgroup_uncharge_end(struct sim_task *t, struct memcg_batch_info *b);
/* Uncharge one mapped page at unmap (mem_cgroup_uncharge_page): gathered
 * in @b when batching, else at once. */
void mem_cgroup_uncharge_page(struct sim_task *t, struct memcg_batch_info *b,
			      struct mem_cgroup *memcg);

/* Socket memory (cgroup v2): charged through the stock, uncharged into it. */
bool mem_cgroup_charge_skmem(struct sim_task *t, struct mem_cgroup *memcg, long nr);
void mem_cgroup_uncharge_skmem(struct sim_task *t, struct mem_cgroup *memcg, long nr);
/* The walk up @memcg's ancestors of sk_under_memory_pressure (vmpressure is
 * not modelled: never under pressure). */
bool mem_cgroup_under_socket_pressure(struct sim_task *t, struct mem_cgroup *memcg);
/* Give @nr uncharged pages back through this CPU's stock. */
void refill_stock(struct sim_task *t, struct mem_cgroup *memcg, long nr);

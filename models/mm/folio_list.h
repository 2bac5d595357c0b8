/* SPDX-License-Identifier: GPL-2.0-or-later */
/* folio_list: the folio LRU's lists and the state its files share: each
 * node's memory, the per-CPU batches, the figures (private to
 * models/mm/folio_*.c and the tests). */
#pragma once
#include "folio_lru.h"

/* A node's memory: its folios, the free ones, the watermarks, kswapd. */
struct node_mem {
	struct folio *pool;
	long npool;
	GPtrArray *free;
	long min, low, high; /* watermarks, in free folios */
	struct sim_task *kswapd;
	bool kswapd_sleeping;
	guint cursor; /* the next memcg to reclaim from (round robin) */
};

struct folio_lru_state {
	int nodes;
	struct node_mem *node;
	struct cpu_fbatches *cpu;
	struct folio_lru_stats s;
	GPtrArray *files;
	struct lock_class *ipages_class;
	struct line_class *page_lines;
};
extern struct folio_lru_state lru_state;

struct lruvec *folio_lruvec(struct folio *f);
bool folio_test_clear_lru(struct sim_task *t, struct folio *f);
void folio_list_add(struct sim_task *t, struct spinlock *held, struct lruvec *lv, enum lru_list lru,
		    struct folio *f, const char *site);
void folio_list_del(struct sim_task *t, struct spinlock *held, struct folio *f, const char *site);

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* folio_lru: the page-cache LRU at folio level, with the kernel's names
 * (mm/swap.c, mm/vmscan.c, mm/filemap.c): folios on their lruvec's inactive
 * and active file lists; the per-CPU lru_add and activate batches
 * (PAGEVEC_SIZE, 15) moved to the lists under the lru lock; reclaim
 * isolating and putting back in batches of SWAP_CLUSTER_MAX; the node's free
 * pages, kswapd per node and direct reclaim; a file's page cache under its
 * i_pages lock. Which lock protects a lruvec is the run's lru lock scope
 * (memcg.lru_lock_scope: node = pgdat->lru_lock, memcg = lruvec->lru_lock);
 * a batch relocks when the next folio's lock differs (lock_scope_relock), and
 * with the lruvec lock a batch first clears PG_lru (folio_test_clear_lru) so
 * that the folio's memcg cannot move while it is handled, as "mm/lru:
 * replace pgdat lru_lock with lruvec lock" (5.11) does. */
#pragma once
#include "memcg.h"

#define PAGEVEC_SIZE 15

enum folio_flag { PG_lru = 1, PG_active = 2, PG_referenced = 4 };

struct page_file;

struct folio {
	struct folio *prev, *next; /* on a folio_list: towards the head, the tail */
	struct mem_cgroup *memcg;  /* folio_memcg */
	int nid;
	unsigned flags;
	int refs;		  /* the per-CPU batches' references */
	struct lruvec *on_lruvec; /* the checker's: the lruvec whose list holds it */
	int on_list;		  /* ... and which list; -1: none */
	struct page_file *file;	  /* the page cache it is in; NULL: free */
	long index;
	struct cacheline line; /* struct page: flags, lru, memcg_data */
};

/* A file in the page cache: index -> folio, under its i_pages lock. */
struct page_file {
	GHashTable *pages;
	struct spinlock i_pages;
	struct mem_cgroup *memcg;
};

/* The per-CPU batches (cpu_fbatches). */
struct cpu_fbatches {
	struct folio *lru_add[PAGEVEC_SIZE];
	int nr_add;
	struct folio *activate[PAGEVEC_SIZE];
	int nr_activate;
};

struct folio_lru_stats {
	FOLIO_LRU_STATS(MM_STAT_MEMBER) /* mm_stats.h */
};

/* Set up @node_pages free folios a node, and kswapd per node when
 * @kswapd; the per-CPU batches. */
void folio_lru_init(long node_pages, bool kswapd);
void folio_lru_destroy(void);
bool folio_lru_active(void);
struct folio_lru_stats *folio_lru_stats(void);
json_t *folio_lru_json(void);

struct page_file *page_file_new(struct mem_cgroup *memcg);

/* filemap_read of one page: the cached folio (and mark_page_accessed), or
 * a new zeroed one (a sparse file's hole) added to the page cache and the
 * LRU, charged to the file's memcg. */
struct folio *filemap_read_folio(struct sim_task *t, struct page_file *f, long index);
void folio_mark_accessed(struct sim_task *t, struct folio *folio);
void folio_add_lru(struct sim_task *t, struct folio *folio);
/* Move the CPU's batches to the lists now (lru_add_drain). */
void lru_add_drain(struct sim_task *t);

/* Reclaim from @lv: deactivate when the inactive list is low
 * (shrink_active_list), then reclaim up to @nr inactive folios
 * (shrink_inactive_list); the folios freed. */
long shrink_lruvec_file(struct sim_task *t, struct lruvec *lv, long nr);

/* Move @folio's charge to @to (mem_cgroup_move_account): it must be
 * isolated first (folio_test_clear_lru); false when another path holds it
 * off the LRU. */
bool folio_move_memcg(struct sim_task *t, struct folio *folio, struct mem_cgroup *to);

/* The LRU invariants: every folio on a list is on its own lruvec's (its
 * memcg's, on its node), once, with PG_lru and the list's PG_active; the
 * lists' counts are their lengths; every folio is free, in a batch or
 * isolated, or on exactly one list. A description of the first violation,
 * or NULL. */
char *folio_lru_verify(void);

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* folio_reclaim: the node's free folios, their allocation, reclaim of the
 * file LRU (isolate, put back, free), kswapd and direct reclaim (private
 * to models/mm/folio_*.c and the tests). */
#pragma once
#include "folio_list.h"

struct folio *folio_alloc(struct sim_task *t, int nid);
void folio_free(struct folio *f);
/* isolate_lru_folios: up to @nr from the tail of @lv's list @lru, PG_lru
 * cleared, into @out; how many. */
int isolate_lru_folios(struct sim_task *t, struct lruvec *lv, enum lru_list lru, int nr,
		       struct folio **out);
/* The node's free folios (@node_pages a node), kswapd per node when
 * @kswapd, the per-CPU batches; folio_lru_init's and _destroy's part. */
void folio_reclaim_init(long node_pages, bool kswapd);
void folio_reclaim_destroy(void);
/* move_folios_to_lru: put isolated folios back, each on its lruvec's list
 * (active when PG_active), relocking between lruvecs. */
void move_folios_to_lru(struct sim_task *t, struct folio **folios, int nr);

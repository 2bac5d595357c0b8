/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mm_stats: the counters the memory-management models put in a result's
 * "memcg" object (docs/results.md), each struct's fields listed once. Each
 * list is X(field, label): the struct member, the result key (#field) and
 * what the text report calls it (NULL: not shown there). The structs
 * (memcg.h, list_lru.h, shrinker.h, swap.h, page_cgroup.h, folio_lru.h)
 * declare their members from these lists, the JSON writers write them in
 * this order, and the reports label them from here. Headers only, no
 * includes: results/ reads it without the models' types. */
#pragma once

/* struct memcg_stats: a cgroup's reclaim figures (all cgroups summed under
 * "reclaim"); reclaim_time_ns follows them. */
#define MEMCG_STATS(X)                                                                             \
	X(charged, "charged")                                                                      \
	X(uncharged, NULL)                                                                         \
	X(pgscan, "pages scanned")                                                                 \
	X(pgsteal, "reclaimed")                                                                    \
	X(pswpout, "swapped out")                                                                  \
	X(file_dropped, "file pages dropped")                                                      \
	X(reclaim_calls, "direct reclaims")                                                        \
	X(oom, "OOM events")                                                                       \
	X(shrinker_calls, "calls")                                                                 \
	X(slab_scanned, "objects scanned")                                                         \
	X(slab_freed, "freed")

/* struct list_lru_stats: one list_lru's operations ("list_lrus"). */
#define LIST_LRU_STATS(X)                                                                          \
	X(added, "added")                                                                          \
	X(deleted, "deleted")                                                                      \
	X(isolated, "isolated")                                                                    \
	X(rotated, NULL)                                                                           \
	X(retries, "walk retries")                                                                 \
	X(reparented_items, "reparented")                                                          \
	X(wrong_list_del, NULL)

/* struct shrinker's statistics ("shrinkers"). */
#define SHRINKER_STATS(X) X(calls, "calls") X(scanned, "scanned") X(freed, "freed")

/* struct swap_stats: the swap device ("swap"). */
#define SWAP_STATS(X)                                                                              \
	X(slots_used, "slots allocated")                                                           \
	X(slots_freed, "slots freed at exit")                                                      \
	X(shadows_cleared, "shadows cleared at exit")                                              \
	X(exit_ns, "exit teardown, summed over tasks (ns)")                                        \
	X(exit_max_ns, "the longest task's exit teardown (ns)")                                    \
	X(nodes_allocated, "xarray nodes allocated")                                               \
	X(nodes_reclaimed, "shadow nodes reclaimed")                                               \
	X(isolate_retries, "i_pages trylock retries")

/* struct page_cgroup_stats' counts ("page_cgroup"); the mover's latency
 * (move_latency_mean_ns, move_latency_max_ns) follows them. */
#define PAGE_CGROUP_STATS(X)                                                                       \
	X(updates, "statistics updates")                                                           \
	X(locked, "under the lock")                                                                \
	X(lockless, "lockless")                                                                    \
	X(locked_outside_move, NULL)                                                               \
	X(lockless_during_move, NULL)                                                              \
	X(moves, "charge moves")                                                                   \
	X(pages_moved, "pages")

/* struct folio_lru_stats: the folio LRU ("lru"). */
#define FOLIO_LRU_STATS(X)                                                                         \
	X(lru_add_batches, "lru_add")                                                              \
	X(activate_batches, "activate batches")                                                    \
	X(isolated, "folios isolated")                                                             \
	X(putback, "put back")                                                                     \
	X(reclaimed, "reclaimed")                                                                  \
	X(relocks, "relocks")                                                                      \
	X(kswapd_wakeups, "kswapd wakeups")                                                        \
	X(direct_reclaims, "direct reclaims")                                                      \
	X(moves, NULL)                                                                             \
	X(move_busy, NULL)

/* A member of one of the structs above; its value, as @s->field, set in
 * the JSON object @o (jansson) under its key. */
#define MM_STAT_MEMBER(field, label) long field;
#define MM_STAT_JSON(field, label) json_object_set_new(o, #field, json_integer(s->field));

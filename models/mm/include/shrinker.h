/* SPDX-License-Identifier: GPL-2.0-or-later */
/* shrinker: the shrinker registry, per-memcg per-node shrinker bits, and
 * shrink_slab / do_shrink_slab as mm/shrinker.c has them. */
#pragma once
#include "memcg.h"

#define SHRINKER_MAX 64
#define SHRINK_STOP (-1L)
#define SHRINK_EMPTY (-2L)

struct shrink_control {
	int nid;
	struct mem_cgroup *memcg;
	long nr_to_scan;
	long nr_scanned;
	long nr_reclaimed_pages; /* kmem pages the scan's frees uncharged */
};

struct shrinker {
	const char *name;
	int id;
	int seeks; /* 0: objects cost nothing to recreate (shadow nodes) */
	long batch;
	long (*count_objects)(struct sim_task *t, struct shrinker *s, struct shrink_control *sc);
	long (*scan_objects)(struct sim_task *t, struct shrinker *s, struct shrink_control *sc);
	void *private_data;
	SHRINKER_STATS(MM_STAT_MEMBER) /* statistics: mm_stats.h */
};

void shrinker_registry_init(void);
void shrinker_registry_destroy(void);
/* shrinker_alloc + shrinker_register: assigns the id. */
int shrinker_register(struct shrinker *s);
struct shrinker *shrinker_by_id(int id);
int shrinker_count(void);
/* Shrink @memcg's slab objects on @nid at @priority; returns objects freed. */
long shrink_slab(struct sim_task *t, int nid, struct mem_cgroup *memcg, int priority);

// SPDX-License-Identifier: GPL-2.0-or-later
#include "shrinker.h"
#include "cost.h"

static struct shrinker *registry[SHRINKER_MAX];
static int nr_shrinkers;

void shrinker_registry_init(void)
{
	nr_shrinkers = 0;
}

void shrinker_registry_destroy(void)
{
	for (int i = 0; i < nr_shrinkers; i++)
		registry[i] = NULL;
	nr_shrinkers = 0;
}

int shrinker_register(struct shrinker *s)
{
	g_assert_cmpint(nr_shrinkers, <, SHRINKER_MAX);
	s->id = nr_shrinkers;
	registry[nr_shrinkers++] = s;
	if (!s->batch)
		s->batch = SHRINK_BATCH;
	return s->id;
}

struct shrinker *shrinker_by_id(int id)
{
	return id >= 0 && id < nr_shrinkers ? registry[id] : NULL;
}

int shrinker_count(void)
{
	return nr_shrinkers;
}

static long *nr_deferred(struct mem_cgroup *memcg, int nid, int id)
{
	return &memcg->nr_deferred[nid * SHRINKER_MAX + id];
}

/* do_shrink_slab: scan a share of the freeable objects that shrinks with
 * the priority (all of half of them for seeks == 0), in batches, deferring
 * what was not scanned. */
static long do_shrink_slab(struct sim_task *t, struct shrink_control *sc, struct shrinker *s,
			   int priority)
{
	sim_task_charge(t, SIM_CAT_SYS, cost(COST_SHRINKER_CALL));
	s->calls++;
	sc->memcg->stat.shrinker_calls++;
	long freeable = s->count_objects(t, s, sc);
	if (freeable == 0 || freeable == SHRINK_EMPTY)
		return freeable;
	long *deferred = nr_deferred(sc->memcg, sc->nid, s->id);
	long nr = *deferred;
	*deferred = 0;
	long delta = s->seeks ? (freeable >> priority) * 4 / s->seeks : freeable / 2;
	long total_scan = MIN((nr >> priority) + delta, freeable * 2);
	long freed = 0, scanned = 0;
	while (total_scan >= s->batch || total_scan >= freeable) {
		long nr_to_scan = MIN(s->batch, total_scan);
		sc->nr_to_scan = nr_to_scan;
		sc->nr_scanned = nr_to_scan;
		long ret = s->scan_objects(t, s, sc);
		if (ret == SHRINK_STOP)
			break;
		freed += ret;
		total_scan -= sc->nr_scanned;
		scanned += sc->nr_scanned;
		if (total_scan <= 0)
			break;
	}
	long next = MAX(nr + delta - scanned, 0L);
	*deferred = MIN(next, 2 * freeable);
	s->scanned += scanned;
	s->freed += freed;
	sc->memcg->stat.slab_scanned += scanned;
	sc->memcg->stat.slab_freed += freed;
	return freed;
}

/* shrink_slab_memcg: only the shrinkers whose bit is set for this memcg and
 * node; a shrinker that reports empty has its bit cleared. Returns the pages
 * the freed objects gave back (reclaim_state->reclaimed). */
long shrink_slab(struct sim_task *t, int nid, struct mem_cgroup *memcg, int priority)
{
	long pages = 0;
	for (int id = 0; id < nr_shrinkers; id++) {
		uint64_t bit = 1ULL << id;
		if (!(memcg->shrinker_bits[nid] & bit))
			continue;
		struct shrink_control sc = {.nid = nid, .memcg = memcg};
		long ret = do_shrink_slab(t, &sc, registry[id], priority);
		if (ret == SHRINK_EMPTY) {
			memcg->shrinker_bits[nid] &= ~bit;
			/* A racing list_lru_add may have set it again: re-check. */
			ret = do_shrink_slab(t, &sc, registry[id], priority);
			if (ret != SHRINK_EMPTY)
				memcg->shrinker_bits[nid] |= bit;
		}
		pages += sc.nr_reclaimed_pages;
	}
	return pages;
}

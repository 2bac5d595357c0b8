// SPDX-License-Identifier: GPL-2.0-or-later
#include "vmscan.h"
#include "cost.h"
#include "memcg_rstat.h"
#include "mm.h"
#include "shrinker.h"
#include "sim_trace.h"

/* shrink_folio_list: unmap and free; anonymous folios go to swap. */
static long shrink_folio_list(struct sim_task *t, struct mem_cgroup *memcg, int nid, long nr,
			      bool file)
{
	long freed;
	if (file) {
		cost_charge_flat(t, SIM_CAT_SYS, COST_RECLAIM_FILE_PAGE, nr);
		freed = nr;
		memcg->stat.file_dropped += nr;
		if (memcg_tree->file_pages_dropped)
			memcg_tree->file_pages_dropped(t, memcg, nid, nr);
	} else {
		cost_charge_flat(t, SIM_CAT_SYS, COST_RECLAIM_PAGE, nr);
		freed = swap_writeout_folios(t, memcg, nid, nr);
		memcg->stat.pswpout += freed;
		memcg_rstat_updated(t, memcg, MEMCG_RSTAT_SWAPOUT * freed);
	}
	mem_cgroup_uncharge(t, memcg, freed);
	return freed;
}

/* shrink_inactive_list: isolate a batch under lru_lock, reclaim it, put
 * back what could not be freed under the lock again, then lru_note_cost. */
static long shrink_inactive_list(struct sim_task *t, struct mem_cgroup *memcg, int nid,
				 long nr_to_scan, bool file, struct scan_control *sc)
{
	struct lruvec *lv = &memcg->nodeinfo[nid];
	lruvec_lock_pages(t, lv, nr_to_scan, "isolate_lru_folios");
	long *lru = file ? &lv->nr_file : &lv->nr_anon;
	long taken = MIN(nr_to_scan, *lru);
	*lru -= taken;
	sc->nr_scanned += taken;
	memcg->stat.pgscan += taken;
	memcg_rstat_updated(t, memcg, MEMCG_RSTAT_ISOLATE * taken);
	if (!taken)
		return 0; /* nr_taken == 0: no putback, no lru_note_cost */
	long freed = shrink_folio_list(t, memcg, nid, taken, file);
	/* the putback takes the lock whatever is left (NR_ISOLATED) */
	lruvec_lock_pages(t, lv, taken - freed, "move_folios_to_lru");
	if (freed < taken) {
		*lru += taken - freed;
		memcg_rstat_updated(t, memcg, MEMCG_RSTAT_PUTBACK * (taken - freed));
	}
	lru_note_cost(t, lv);
	memcg->stat.pgsteal += freed;
	return freed;
}

/* shrink_lruvec: file pages first (swappiness is not modelled), in batches,
 * until this lruvec alone has reclaimed the target (its own count, as 6.10
 * to 6.12 compare it: each lruvec is asked for the whole target). */
static void shrink_lruvec(struct sim_task *t, struct mem_cgroup *memcg, int nid,
			  struct scan_control *sc)
{
	struct lruvec *lv = &memcg->nodeinfo[nid];
	long nr[2] = {lv->nr_file >> sc->priority, lv->nr_anon >> sc->priority};
	long nr_reclaimed = 0;
	if (!swap_available())
		nr[1] = 0;
	sim_time_t start = sim_task_clock(t);
	for (int file = 1; file >= 0; file--) {
		long *left = &nr[!file];
		while (*left > 0 && nr_reclaimed < sc->nr_to_reclaim) {
			long batch = MIN(*left, SWAP_CLUSTER_MAX);
			*left -= batch;
			nr_reclaimed += shrink_inactive_list(t, memcg, nid, batch, file, sc);
		}
	}
	sc->nr_reclaimed += nr_reclaimed;
	sim_trace_span(t, sim_task_cpu(t), "reclaim", "shrink_lruvec", start, sim_task_clock(t));
}

/* shrink_node_memcgs: the target's memcgs on node @nid, stopping once the
 * target is met (6.11's partial walk; 6.10 walks them all: the same for a
 * leaf memcg, every case here). */
static void shrink_node_memcgs(struct sim_task *t, int nid, struct scan_control *sc)
{
	struct mem_cgroup *target = sc->target_mem_cgroup;
	for (struct mem_cgroup *memcg = mem_cgroup_iter(target, NULL); memcg;
	     memcg = mem_cgroup_iter(target, memcg)) {
		shrink_lruvec(t, memcg, nid, sc);
		sim_time_t start = sim_task_clock(t);
		sc->nr_reclaimed += shrink_slab(t, nid, memcg, sc->priority);
		sim_trace_span(t, sim_task_cpu(t), "reclaim", "shrink_slab", start,
			       sim_task_clock(t));
		if (sc->nr_reclaimed >= sc->nr_to_reclaim)
			break;
	}
}

long try_to_free_mem_cgroup_pages(struct sim_task *t, struct mem_cgroup *memcg, long nr_pages)
{
	struct scan_control sc = {
	    .nr_to_reclaim = MAX(nr_pages, SWAP_CLUSTER_MAX),
	    .target_mem_cgroup = memcg,
	};
	sim_time_t start = sim_task_clock(t);
	int nodes = memcg_tree->nodes, local = sim_cpu_node(sim_task_cpu(t));
	memcg->stat.reclaim_calls++;
	for (sc.priority = DEF_PRIORITY; sc.priority >= 0; sc.priority--) {
		/* shrink_zones: every node of the fallback zonelist, local first,
		 * with no check between them (6.10 to 6.12); shrink_node's
		 * prepare_scan_control flushes the target's statistics first
		 * (6.9 to 6.11: memcg_rstat.h) */
		for (int i = 0; i < nodes; i++) {
			mem_cgroup_flush_stats(t, sc.target_mem_cgroup);
			shrink_node_memcgs(t, (local + i) % nodes, &sc);
		}
		if (sc.nr_reclaimed >= sc.nr_to_reclaim)
			break;
	}
	memcg->stat.reclaim_time += sim_task_clock(t) - start;
	sim_trace_span(t, sim_task_cpu(t), "reclaim", "try_to_free_mem_cgroup_pages", start,
		       sim_task_clock(t));
	return sc.nr_reclaimed;
}

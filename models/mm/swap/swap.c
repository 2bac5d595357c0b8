// SPDX-License-Identifier: GPL-2.0-or-later
#include "swap.h"
#include "cost.h"
#include "kernel.h"
#include "mm.h"
#include "run_config.h"
#include "workingset.h"
#include <math.h>

#define AT(member) SPEC_AT(struct swap_params, member)
static const struct spec_field swap_fields[] = {
    {"type", &(const struct spec){.kind = SPEC_ENUM, .values = (const char *const[]){"zram", NULL}},
     false, "\"zram\"", AT(type)},
    {"size_mb",
     &(const struct spec){
	 .kind = SPEC_NUMBER, .doc = "swap device size, MiB", .min = 0, .max = 1 << 24},
     true, NULL, AT(size_mb)},
    {"cluster_order",
     &(const struct spec){.kind = SPEC_ENUM,
			  .doc = "the order of the free cluster list: interleave (6.12's "
				 "setup_clusters, column by column over SWAP_CLUSTER_COLS: the "
				 "j-th cluster of every 64 MiB address space, then the (j+1)-th, "
				 "so consecutive takes fall in different address spaces) or "
				 "sequential (device order: every CPU in one address space)",
			  .values = (const char *const[]){"sequential", "interleave", NULL}},
     false, "\"interleave\"", AT(cluster_order)},
    {"shadow_accounting",
     &(const struct spec){
	 .kind = SPEC_ENUM,
	 .doc = "whose list_lru a swap-cache xarray node goes on: root (mainline 6.10-6.13: "
		"the swap cache's xarray is not accounted, list_lru_add_obj finds no memcg, "
		"every node is on its NUMA node's root list) or memcg (v1 of the split "
		"list_lru lock series, June 2024: \"mm/swap, workingset: make anon workingset "
		"nodes memcg aware\")",
	 .values = (const char *const[]){"root", "memcg", NULL}},
     false, "\"root\"", AT(shadow_accounting)},
    {"zswap_invalidate",
     &(const struct spec){
	 .kind = SPEC_ENUM,
	 .doc = "what zswap_invalidate does with zswap off when a slot is freed: erase "
		"(6.12 and before: xa_erase under the zswap tree's lock) or check_empty "
		"(6.13: returns when the tree is empty)",
	 .values = (const char *const[]){"erase", "check_empty", NULL}},
     false, "\"erase\"", AT(zswap_invalidate)},
    {NULL},
};
#undef AT

const struct spec swap_params_spec = {.kind = SPEC_OBJECT,
				      .doc = "a swap device",
				      .fields = swap_fields,
				      .size = sizeof(struct swap_params)};

/* The swap locks' classes as each era's mm/swapfile.c, mm/swap_state.c and
 * mm/zswap.c name them (their spin_lock_init and xa_init call sites; 2.6.32
 * had one global swap_lock and a static swapper_space). */
static void swap_lockdep_names(struct swap_device *si)
{
	enum kernel_version v = kernel_version();
	bool old = v == KERNEL_2_6_32;
	if (old)
		lock_class_lockdep_name(si->avail_lock.cls, "");
	/* alloc_swap_info: spin_lock_init(&p->lock) */
	lock_class_lockdep_name(lock_class_get("&si->lock"), old ? "swap_lock" : "&p->lock");
	/* swapon's spin_lock_init(&((cluster_info + ci)->lock)) (5.11 .. 6.10);
	 * 6.12's and 6.14's setup_clusters: spin_lock_init(&cluster_info[i].lock)
	 * (6.14's per-CPU cluster local_lock, "&cluster->lock", is
	 * preempt_disable without PREEMPT_RT: not a lock here) */
	lock_class_lockdep_name(lock_class_get("&ci->lock"), old ? ""
							     : v < KERNEL_6_12
								 ? "&((cluster_info + ci)->lock)"
								 : "&cluster_info[i].lock");
	/* init_swap_address_space: xa_init_flags(&space->i_pages, ...) */
	lock_class_lockdep_name(lock_class_get("&xa->xa_lock (swapper_spaces)"),
				old ? "swapper_space.tree_lock" : "&xa->xa_lock");
	/* zswap: spin_lock_init(&tree->lock) (<= 6.1); xa_init(trees + i) (6.10+) */
	lock_class_lockdep_name(lock_class_get("&xa->xa_lock (zswap_trees)"), old ? ""
									      : v <= KERNEL_6_1
										  ? "&tree->lock"
										  : "&xa->xa_lock");
}

void swap_device_init(const struct swap_params *p, const struct list_lru_scope_ops *scope)
{
	struct swap_device *si = g_new0(struct swap_device, 1);
	long pages = (long)(p->size_mb * 256);
	int ncpus = sim_ncpus();
	swap_active = si;
	si->nr_slots = pages;
	si->interleave = p->cluster_order == SWAP_INTERLEAVE;
	si->memcg_shadows = p->shadow_accounting == SWAP_SHADOW_MEMCG;
	si->zswap_invalidate_erase = p->zswap_invalidate == ZSWAP_INVALIDATE_ERASE;
	spin_lock_init(&si->avail_lock, lock_class_get("swap_avail_lock"));
	line_init(&si->nr_swap_pages, line_class_get("nr_swap_pages"), 0);
	spin_lock_init(&si->lock, lock_class_get("&si->lock"));
	if (kernel_version() >= KERNEL_6_14) { /* the fields 6.14's si->lock no longer covers */
		line_init(&si->lists, line_class_get("struct swap_info_struct: cluster lists"), 0);
		line_init(&si->inuse_pages,
			  line_class_get("struct swap_info_struct: frag_cluster_nr, inuse_pages"),
			  0);
	}
	/* the clusters' class with the device, before any cluster: a run's
	 * classes are all made at set-up (memcgsim locks, validate) */
	si->cluster_class = lock_class_get("&ci->lock");
	si->percpu_cluster = g_malloc0(sizeof(*si->percpu_cluster) * (size_t)ncpus);
	si->slots_cache = g_new0(struct swap_slots_cache, ncpus);
	si->nr_clusters = (pages + SWAPFILE_CLUSTER - 1) / SWAPFILE_CLUSTER;
	si->clusters = g_new0(struct swap_cluster *, si->nr_clusters);
	if (kernel_version() >= KERNEL_6_14)
		si->cstate = g_new0(struct swap_cluster_state, si->nr_clusters);
	si->nr_spaces = (int)((pages + SWAP_ADDRESS_SPACE_PAGES - 1) / SWAP_ADDRESS_SPACE_PAGES);
	si->spaces = g_new0(struct swap_space, si->nr_spaces);
	struct lock_class *xa = lock_class_get("&xa->xa_lock (swapper_spaces)");
	struct lock_class *zs = lock_class_get("&xa->xa_lock (zswap_trees)");
	for (int i = 0; i < si->nr_spaces; i++) {
		spin_lock_init(&si->spaces[i].i_pages, xa);
		spin_lock_init(&si->spaces[i].zswap, zs);
		if (si->interleave) { /* the CPUs' current clusters in different spaces */
			spin_lock_set_local(&si->spaces[i].i_pages);
			spin_lock_set_local(&si->spaces[i].zswap);
		}
	}
	si->nr_nodes = (pages + XA_CHUNK_SIZE - 1) / XA_CHUNK_SIZE;
	si->nodes = g_new0(struct xa_node *, si->nr_nodes);
	swap_lockdep_names(si);
	zram_init(&si->zram);
	swap_entries_init(si);
	swap_cgroup_swapon(&si->swap_cgroup);
	workingset_init(si, scope);
}

void swap_device_destroy(void)
{
	struct swap_device *si = swap_active;
	if (!si)
		return;
	for (long i = 0; i < si->nr_nodes; i++)
		g_free(si->nodes[i]);
	for (int i = 0; i < si->nr_spaces; i++) {
		spin_lock_destroy(&si->spaces[i].i_pages);
		spin_lock_destroy(&si->spaces[i].zswap);
	}
	list_lru_destroy(&si->shadow_nodes);
	swap_cgroup_swapoff(&si->swap_cgroup);
	swap_slots_destroy(si);
	swap_entries_destroy(si);
	spin_lock_destroy(&si->lock);
	spin_lock_destroy(&si->avail_lock);
	g_free(si->nodes);
	g_free(si->spaces);
	g_free(si->percpu_cluster);
	g_free(si);
	swap_active = NULL;
}

double mm_swap_memory_bytes(const struct run_config *cfg, double pages, long memcgs)
{
	const struct swap_params *sp = cfg->memcg->swap;
	if (!sp)
		return 0;
	double slots = MIN(pages, sp->size_mb * 256);
	/* the clusters' pointers and locks; the runs kept for the exit: a
	 * reclaim call swaps out at least SWAP_CLUSTER_MAX folios of one task
	 * on consecutive slots of its CPU's cache, one run (16 bytes) */
	double clusters = ceil(sp->size_mb * 256 / SWAPFILE_CLUSTER) * sizeof(void *) +
			  ceil(slots / SWAPFILE_CLUSTER) * sizeof(struct swap_cluster);
	if (cfg->kernel &&
	    cfg->kernel->version >= KERNEL_6_14) /* every cluster's count and flags */
		clusters +=
		    ceil(sp->size_mb * 256 / SWAPFILE_CLUSTER) * sizeof(struct swap_cluster_state);
	return (double)memcgs * list_lru_memcg_bytes(cfg->machine.nodes) +
	       ceil(slots / XA_CHUNK_SIZE) * SWAP_XA_NODE_BYTES + clusters +
	       ceil(slots / SWAP_CLUSTER_MAX) * sizeof(struct swap_run);
}

void mm_exit_swap(struct sim_task *t, struct mem_cgroup *memcg)
{
	if (swap_active)
		swap_exit_entries(t, memcg, memcg->nr_procs);
}

int mm_shrinkers(const struct run_config *cfg)
{
	return cfg->memcg->swap ? 1 : 0; /* workingset_init's mm-shadow */
}

/* The swap device as a memcg subsystem (memcg.swap). */
static void swap_setup(const struct mm_params *mm)
{
	if (mm->swap)
		swap_device_init(mm->swap, memcg_tree->lru_scope);
}

static void swap_results(json_t *memcg, json_t *violations)
{
	if (!swap_active)
		return;
	const struct swap_stats *s = &swap_active->stat;
	json_t *o = json_object();
	SWAP_STATS(MM_STAT_JSON)
	json_object_set_new(memcg, "swap", o);
}

const struct mm_subsystem swap_subsystem = {
    .name = "swap",
    .doc = "a zram swap device: its slots, swap cache and shadow nodes",
    .setup = swap_setup,
    .results = swap_results,
    .teardown = swap_device_destroy,
};

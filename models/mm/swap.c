// SPDX-License-Identifier: GPL-2.0-or-later
#include "swap.h"
#include "cost.h"
#include "mm.h"
#include "run_config.h"
#include "workingset.h"
#include <math.h>

struct swap_device *swap_active;

#define AT(member) SPEC_AT(struct swap_params, member)
static const struct spec_field swap_fields[] = {
	{"type", &(const struct spec){.kind = SPEC_ENUM, .values = (const char *const[]){"zram", NULL}},
	 false, "\"zram\"", AT(type)},
	{"size_mb",
	 &(const struct spec){
		 .kind = SPEC_NUMBER, .doc = "swap device size, MiB", .min = 0, .max = 1 << 24},
	 true, NULL, AT(size_mb)},
	{"batch_pages",
	 &(const struct spec){.kind = SPEC_INTEGER,
			      .doc = "folios swapped out per simulated step (their locks merged); see "
				     "docs/calibration.md",
			      .min = 1,
			      .max = 512},
	 false, "8", AT(batch_pages)},
	{"cluster_order",
	 &(const struct spec){.kind = SPEC_ENUM,
			      .doc = "which free cluster a CPU takes: the next in device order "
				     "(sequential: every CPU in one 64 MiB swap-cache address space), "
				     "or one in its own address space (interleave)",
			      .values = (const char *const[]){"sequential", "interleave", NULL}},
	 false, "\"sequential\"", AT(cluster_order)},
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
	{NULL},
};
#undef AT

const struct spec swap_params_spec = {
	.kind = SPEC_OBJECT, .doc = "a swap device", .fields = swap_fields,
	.size = sizeof(struct swap_params)};

void swap_device_init(const struct swap_params *p, const struct list_lru_scope_ops *scope)
{
	struct swap_device *si = g_new0(struct swap_device, 1);
	long pages = (long)(p->size_mb * 256);
	swap_active = si;
	si->nr_slots = pages;
	si->batch = p->batch_pages;
	si->interleave = p->cluster_order == SWAP_INTERLEAVE;
	si->memcg_shadows = p->shadow_accounting == SWAP_SHADOW_MEMCG;
	spin_lock_init(&si->lock, lock_class_get("&si->lock"));
	si->percpu_cluster = g_malloc0(sizeof(*si->percpu_cluster) * (size_t)sim_ncpus());
	si->nr_spaces = (int)((pages + SWAP_ADDRESS_SPACE_PAGES - 1) / SWAP_ADDRESS_SPACE_PAGES);
	si->spaces = g_new0(struct swap_space, si->nr_spaces);
	si->space_next_cluster = g_new0(long, si->nr_spaces);
	for (int i = 0; i < si->nr_spaces; i++)
		si->space_next_cluster[i] = i * (SWAP_ADDRESS_SPACE_PAGES / SWAPFILE_CLUSTER);
	struct lock_class *xa = lock_class_get("&xa->xa_lock (swapper_spaces)");
	for (int i = 0; i < si->nr_spaces; i++)
		spin_lock_init(&si->spaces[i].i_pages, xa);
	si->nr_nodes = (pages + XA_CHUNK_SIZE - 1) / XA_CHUNK_SIZE;
	si->nodes = g_new0(struct xa_node *, si->nr_nodes);
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
	for (int i = 0; i < si->nr_spaces; i++)
		spin_lock_destroy(&si->spaces[i].i_pages);
	list_lru_destroy(&si->shadow_nodes);
	swap_cgroup_swapoff(&si->swap_cgroup);
	spin_lock_destroy(&si->lock);
	g_free(si->nodes);
	g_free(si->spaces);
	g_free(si->space_next_cluster);
	g_free(si->percpu_cluster);
	g_free(si);
	swap_active = NULL;
}

bool swap_available(void)
{
	return swap_active && swap_active->stat.slots_used < swap_active->nr_slots;
}

static long take_cluster(struct swap_device *si, long space)
{
	const long per_space = SWAP_ADDRESS_SPACE_PAGES / SWAPFILE_CLUSTER;
	long nr_clusters = (si->nr_slots + SWAPFILE_CLUSTER - 1) / SWAPFILE_CLUSTER;
	long c = si->space_next_cluster[space];
	if (c >= MIN((space + 1) * per_space, nr_clusters))
		return -1;
	si->space_next_cluster[space]++;
	return c;
}

/* The next free cluster: in device order, or (interleave) from the CPU's
 * stripe of address spaces (cpu, cpu + ncpus, ...), then from any. -1: none. */
static long next_free_cluster(struct swap_device *si, int cpu)
{
	long nr_clusters = (si->nr_slots + SWAPFILE_CLUSTER - 1) / SWAPFILE_CLUSTER, c;
	if (!si->interleave)
		return si->next_cluster < nr_clusters ? si->next_cluster++ : -1;
	for (long space = cpu % si->nr_spaces; space < si->nr_spaces; space += sim_ncpus())
		if ((c = take_cluster(si, space)) >= 0)
			return c;
	for (long space = 0; space < si->nr_spaces; space++)
		if ((c = take_cluster(si, space)) >= 0)
			return c;
	return -1;
}

/* Under si->lock: the allocator's state, in the lock's line. */
static sim_time_t cluster_alloc_section(struct sim_task *t, void *arg)
{
	struct swap_device *si = arg;
	return spin_held_access(t, &si->lock, si->lock.line, LINE_STORE, "get_swap_pages");
}

/* get_swap_pages: up to @nr consecutive slots from this CPU's cluster,
 * taking a new cluster under si->lock when it is used up. */
static long get_swap_pages(struct sim_task *t, long nr, long *first)
{
	struct swap_device *si = swap_active;
	int cpu = sim_task_cpu(t);
	if (si->percpu_cluster[cpu].next >= si->percpu_cluster[cpu].end) {
		spin_lock_hold_fn(t, &si->lock, cluster_alloc_section, si, SIM_CAT_SYS, SPIN_PLAIN,
				  "get_swap_pages");
		long c = next_free_cluster(si, cpu);
		if (c < 0)
			return 0;
		si->percpu_cluster[cpu].next = c * SWAPFILE_CLUSTER;
		si->percpu_cluster[cpu].end = MIN((c + 1) * SWAPFILE_CLUSTER, si->nr_slots);
	}
	*first = si->percpu_cluster[cpu].next;
	long got = MIN(nr, si->percpu_cluster[cpu].end - *first);
	si->percpu_cluster[cpu].next += got;
	si->stat.slots_used += got;
	return got;
}

/* A new node of the swap cache's xarray (xas_alloc): charged to @memcg only
 * where the swap cache's xa_state carries a list_lru (v1's patch); in
 * mainline the node is not accounted and list_lru_add_obj puts it on the
 * root's list of its NUMA node. */
static struct xa_node *xa_node_get(struct sim_task *t, long slot, struct mem_cgroup *memcg,
				   int nid)
{
	struct swap_device *si = swap_active;
	long idx = slot / XA_CHUNK_SIZE;
	if (!si->nodes[idx]) {
		struct xa_node *node = g_new0(struct xa_node, 1);
		lru_item_init(&node->private_list, si->shadow_nodes.item_lines, nid);
		node->index = idx;
		node->objcg = si->memcg_shadows ? memcg->objcg : memcg_tree->root->objcg;
		node->nid = nid;
		si->nodes[idx] = node;
		si->stat.nodes_allocated++;
	}
	return si->nodes[idx];
}

/* One step of shrink_folio_list for @nr anonymous folios whose slots are
 * consecutive in one address space. Per folio the kernel stores the folio
 * in the swap cache (add_to_swap_cache), writes it to zram, and replaces it
 * with a shadow entry (__remove_mapping); both stores update the xarray
 * node's place on shadow_nodes (workingset_update_node). The step keeps
 * every per-folio cost, with the folios' i_pages critical sections merged
 * into one and their list_lru operations per node merged likewise. */
static void swap_out_step(struct sim_task *t, struct mem_cgroup *memcg, int nid, long first,
			  long nr)
{
	struct swap_device *si = swap_active;
	struct swap_space *space = &si->spaces[first >> SWAP_ADDRESS_SPACE_SHIFT];
	sim_task_charge(t, SIM_CAT_SYS, nr * cost(COST_ZRAM_WRITE)); /* swap_writepage */
	line_stream(sim_task_cpu(t), (uint64_t)nr * PAGE_SIZE_BYTES); /* zram reads each page */
	struct spin_entry *xa = spin_lock(t, &space->i_pages, SPIN_IRQ, "__remove_mapping");
	for (long slot = first; slot < first + nr;) {
		struct xa_node *node = xa_node_get(t, slot, memcg, nid);
		long end = MIN(first + nr, (node->index + 1) * XA_CHUNK_SIZE);
		long k = end - slot;
		/* per folio two stores (the folio, then its shadow), each in a
		 * slot and the node's counts: the node's lines */
		sim_time_t stores = 0;
		for (long i = 0; i < 2 * k; i++)
			stores += spin_held_access(t, &space->i_pages, &node->private_list.line,
						   LINE_STORE, "xas_store");
		/* __remove_mapping -> workingset_eviction, per folio */
		stores += workingset_eviction(t, &space->i_pages, memcg, nid, k);
		sim_task_charge(t, SIM_CAT_SYS, stores);
		node->count += (int)k;
		node->nr_values += (int)k;
		workingset_update_node_folios(t, node, k);
		slot = end;
	}
	spin_unlock(t, &space->i_pages, xa);
}

long swap_writeout_folios(struct sim_task *t, struct mem_cgroup *memcg, int nid, long nr)
{
	long done = 0;
	while (done < nr) {
		long first;
		long got = get_swap_pages(t, MIN(nr - done, swap_active->batch), &first);
		if (!got)
			break;
		/* folio_alloc_swap, per folio in the kernel; merged per step as
		 * the step's other locks are (memcg.swap.batch_pages) */
		mem_cgroup_try_charge_swap(t, memcg, got);
		swap_out_step(t, memcg, nid, first, got);
		done += got;
	}
	return done;
}

double mm_swap_memory_bytes(const struct run_config *cfg, double pages, long memcgs)
{
	const struct swap_params *sp = cfg->memcg->swap;
	if (!sp)
		return 0;
	double slots = MIN(pages, sp->size_mb * 256);
	return (double)memcgs * list_lru_memcg_bytes(cfg->machine.nodes) +
	       ceil(slots / XA_CHUNK_SIZE) * SWAP_XA_NODE_BYTES;
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

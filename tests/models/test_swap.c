// SPDX-License-Identifier: GPL-2.0-or-later
/* The swap-out of one folio and the exit, against Linux 6.12's source: the
 * list_lru operations of a node's stores, and how many times each shared
 * lock and line is taken, per folio and per freed batch. */
#include "kernel.h"
#include "lockdep.h"
#include "memcg.h"
#include "shrinker.h"
#include "swap.h"
#include "test_util.h"
#include "workingset.h"

static struct mem_cgroup *job;

static double device_mb = 64;

static void setup(int accounting, int zswap_invalidate)
{
	struct sim_machine m = mcs_test_machine(1, 2);
	sim_engine_init(&m, 0, SIM_S, 1);
	memcg_tree_init(1, 2);
	shrinker_registry_init();
	const struct swap_params sp = {.size_mb = device_mb,
				       .cluster_order = SWAP_INTERLEAVE,
				       .shadow_accounting = accounting,
				       .zswap_invalidate = zswap_invalidate};
	swap_device_init(&sp, list_lru_scope_find("node"));
	job = mem_cgroup_create("job", 1 << 20);
}

static void teardown(void)
{
	swap_device_destroy();
	line_class_reset_all();
	memcg_tree_destroy();
	shrinker_registry_destroy();
	lock_class_reset_all();
	sim_engine_fini();
}

static uint64_t acquisitions(const char *cls)
{
	return lock_class_get(cls)->acquisitions;
}

static uint64_t rmws(const char *cls)
{
	return line_class_counts(line_class_get(cls)).ops[LINE_RMW];
}

/* --- a node's stores: folio, shadow, folio ----------------------------- */

struct lru_seen {
	long added, deleted, on_memcg, on_root;
};

static struct lru_seen seen(void)
{
	struct list_lru *lru = &swap_active->shadow_nodes;
	return (struct lru_seen){lru->stat.added, lru->stat.deleted,
				 list_lru_count_one(lru, 0, job),
				 list_lru_count_one(lru, 0, memcg_tree->root)};
}

static int sequence_mode;

/* Slot 0's folio then its shadow put the node on a list (add); slot 1's
 * folio takes it off (del), its shadow puts it back (add), slot 2's folio
 * takes it off again (del): after the first shadow, del, add, del, each in
 * its own i_pages section, on the job's list (memcg) or the root's. */
static void sequence_task(struct sim_task *t, void *arg)
{
	bool memcg = sequence_mode == SWAP_SHADOW_MEMCG;
	add_to_swap_cache(t, 0, job, 0);
	struct lru_seen s = seen();
	g_assert_cmpint(s.added + s.deleted, ==, 0);
	remove_mapping_swap(t, 0, job, 0);
	s = seen();
	g_assert_cmpint(s.added, ==, 1);
	g_assert_cmpint(s.on_memcg, ==, memcg ? 1 : 0);
	g_assert_cmpint(s.on_root, ==, memcg ? 0 : 1);
	const long want[3][2] = {{1, 1}, {2, 1}, {2, 2}}; /* added, deleted after each */
	for (int i = 0; i < 3; i++) {
		long slot = 1 + (i + 1) / 2;
		if (i % 2 == 0)
			add_to_swap_cache(t, slot, job, 0);
		else
			remove_mapping_swap(t, slot, job, 0);
		s = seen();
		g_assert_cmpint(s.added, ==, want[i][0]);
		g_assert_cmpint(s.deleted, ==, want[i][1]);
		g_assert_cmpint(s.on_memcg + s.on_root, ==, i % 2);
		g_assert_cmpint(s.on_memcg, ==, memcg ? i % 2 : 0);
	}
	g_assert_cmpint(acquisitions("&xa->xa_lock (swapper_spaces)"), ==, 5);
	g_assert_cmpint(acquisitions("&nlru->lock (shadow_nodes)"), ==, 4);
	g_assert_cmpint(swap_active->shadow_nodes.stat.wrong_list_del, ==, 0);
}

static void sequence(int mode)
{
	setup(mode, ZSWAP_INVALIDATE_ERASE);
	sequence_mode = mode;
	sim_task_create("t", 0, sequence_task, NULL);
	g_assert_true(sim_engine_run());
	teardown();
}

static void test_sequence_root(void)
{
	sequence(SWAP_SHADOW_ROOT);
}

static void test_sequence_memcg(void)
{
	sequence(SWAP_SHADOW_MEMCG);
}

/* --- the shared locks of a swapped folio -------------------------------- */

/* Per 128 folios of one task (two slot-cache refills, two xarray nodes), as
 * 6.12's source takes them:
 *   swap_avail_lock   get_swap_pages, once per refill of 64 slots
 *   &si->lock         get_swap_pages -> scan_swap_map_slots, once per refill
 *   &ci->lock         alloc_swap_scan_cluster, swap_duplicate (try_to_unmap),
 *                     swap_swapcount (swap_writepage's folio_free_swap),
 *                     put_swap_folio (__remove_mapping): 4 per folio
 *   &ctrl->lock       swap_cgroup_record (__mem_cgroup_try_charge_swap): 1
 *   i_pages           add_to_swap_cache, __remove_mapping: 2 per folio
 *   zswap tree        zswap_store's xa_erase with zswap off: 1 per folio
 *   shadow list lock  workingset_update_node: add per shadow, del per folio
 *                     stored into a node on the list: 2 per folio but the
 *                     first of each node (no del)
 *   zram->stats       same_pages and pages_stored: 2 RMWs per folio
 *   nr_swap_pages     atomic_long_sub per refill */
struct lock_count {
	const char *cls;
	uint64_t n;
};

static const struct lock_count swapout_128[] = {
    {"swap_avail_lock", 2},
    {"&si->lock", 2},
    {"&ci->lock", 4 * 128},
    {"&ctrl->lock", 128},
    {"&xa->xa_lock (swapper_spaces)", 2 * 128},
    {"&xa->xa_lock (zswap_trees)", 128},
    {"&nlru->lock (shadow_nodes)", 2 * 128 - 2},
    {NULL, 0},
};

static void swapout_task(struct sim_task *t, void *arg)
{
	g_assert_cmpint(swap_writeout_folios(t, job, 0, 128), ==, 128);
}

static void test_locks_per_folio(void)
{
	setup(SWAP_SHADOW_ROOT, ZSWAP_INVALIDATE_ERASE);
	sim_task_create("t", 0, swapout_task, NULL);
	g_assert_true(sim_engine_run());
	for (const struct lock_count *c = swapout_128; c->cls; c++) {
		if (acquisitions(c->cls) != c->n)
			g_error("%s: %" G_GUINT64_FORMAT
				" acquisitions, the kernel's %" G_GUINT64_FORMAT,
				c->cls, acquisitions(c->cls), c->n);
	}
	g_assert_cmpint(rmws("zram->stats"), ==, 2 * 128);
	g_assert_cmpint(rmws("nr_swap_pages"), ==, 2);
	g_assert_cmpint(swap_active->stat.nodes_allocated, ==, 2);
	teardown();
}

/* --- the exit ------------------------------------------------------------ */

/* The exit of 128 folios just swapped out, against what the kernel takes:
 * each class's acquisitions (exit_classes' order), the shadow nodes taken
 * off the list, the slots freed (zram's notification: 3 RMWs each; their
 * shadows cleared), nr_swap_pages's RMWs (2 at the swap-out, then the
 * exit's) and the nodes left on the list. */
static const char *const exit_classes[] = {"&ci->lock",
					   "&si->lock",
					   "&ctrl->lock",
					   "&xa->xa_lock (zswap_trees)",
					   "&xa->xa_lock (swapper_spaces)",
					   "&nlru->lock (shadow_nodes)"};

struct exit_want {
	uint64_t acquisitions[G_N_ELEMENTS(exit_classes)];
	long dels, freed;
	uint64_t counter_rmws;
	long on_list;
};

static void exit_check(struct sim_task *t, const struct exit_want *w)
{
	uint64_t before[G_N_ELEMENTS(exit_classes)];
	g_assert_cmpint(swap_writeout_folios(t, job, 0, 128), ==, 128);
	for (guint i = 0; i < G_N_ELEMENTS(exit_classes); i++)
		before[i] = acquisitions(exit_classes[i]);
	long deleted = swap_active->shadow_nodes.stat.deleted;
	uint64_t zram = rmws("zram->stats");
	swap_exit_entries(t, job, 1);
	for (guint i = 0; i < G_N_ELEMENTS(exit_classes); i++)
		if (acquisitions(exit_classes[i]) - before[i] != w->acquisitions[i])
			g_error("exit: %s: %" G_GUINT64_FORMAT
				" acquisitions, the kernel's %" G_GUINT64_FORMAT,
				exit_classes[i], acquisitions(exit_classes[i]) - before[i],
				w->acquisitions[i]);
	g_assert_cmpint(swap_active->shadow_nodes.stat.deleted - deleted, ==, w->dels);
	g_assert_cmpint(rmws("zram->stats") - zram, ==, 3 * w->freed);
	g_assert_cmpint(rmws("nr_swap_pages"), ==, 2 + w->counter_rmws);
	g_assert_cmpint(swap_active->stat.slots_freed, ==, w->freed);
	g_assert_cmpint(swap_active->stat.shadows_cleared, ==, w->freed);
	g_assert_cmpint(list_lru_count_node(&swap_active->shadow_nodes, 0), ==, w->on_list);
}

/* 128 folios swapped out back to back sit in one cluster and one page
 * table: zap_pte_range batches all 128, so free_swap_and_cache_nr takes __swap_entries_free's fast
 * path once: the cluster lock, zswap_invalidate per slot (6.12: 128 xa_erase; 6.13: none),
 * si->lock, swap_entry_range_free's cluster lock, mem_cgroup_uncharge_swap's ctrl->lock,
 * zram_slot_free_notify per slot (notify_free, same_pages, pages_stored: 3 RMWs), one i_pages
 * section clearing 128 shadows, whose two nodes each come off the list (2 dels). */
static int exit_mode;

static void exit_task(struct sim_task *t, void *arg)
{
	const struct exit_want w = {
	    {2, 1, 1, exit_mode == ZSWAP_INVALIDATE_ERASE ? 128 : 0, 1, 2}, 2, 128, 1, 0};
	exit_check(t, &w);
	for (long i = 0; i < swap_active->nr_nodes; i++)
		g_assert_null(swap_active->nodes[i]);
}

static void exit_case(int mode)
{
	setup(SWAP_SHADOW_ROOT, mode);
	exit_mode = mode;
	sim_task_create("t", 0, exit_task, NULL);
	g_assert_true(sim_engine_run());
	teardown();
}

static void test_exit_612(void)
{
	exit_case(ZSWAP_INVALIDATE_ERASE);
}

static void test_exit_613(void)
{
	exit_case(ZSWAP_INVALIDATE_CHECK_EMPTY);
}

/* The mm tree of June 2024 (kernel.version mm-2024-06; read in 6.10.0 and
 * 6.11.11's mm/swapfile.c and mm/swap_slots.c): no batch path, so each of
 * the 128 slots goes through __swap_entry_free (the cluster lock) and
 * free_swap_slot (zswap_invalidate's xa_erase, then the per-CPU slots_ret).
 * The 65th finds 64 there: swapcache_free_entries takes si->lock once and
 * frees those 64 one at a time, swap_entry_free each: the cluster lock,
 * mem_cgroup_uncharge_swap (ctrl->lock), swap_range_free (zram's
 * notification, 3 RMWs; clear_shadow_from_swap_cache in an i_pages section
 * of its own; nr_swap_pages). Slots 0-63 fill the first xa_node: its
 * last shadow cleared, it leaves the shadow list (1 del) under the list's
 * lock, inside i_pages, inside si->lock. The other 64 slots stay in the
 * slot cache. */
static void exit_task_2024(struct sim_task *t, void *arg)
{
	const struct exit_want w = {{128 + 64, 1, 64, 128, 64, 1}, 1, 64, 64, 1};
	exit_check(t, &w);
	/* the nesting, in the kernel's order */
	struct lock_class *si = lock_class_get("&si->lock"),
			  *pages = lock_class_get("&xa->xa_lock (swapper_spaces)"),
			  *lru = lock_class_get("&nlru->lock (shadow_nodes)"),
			  *ci = lock_class_get("&ci->lock"), *ctrl = lock_class_get("&ctrl->lock");
	g_assert_true(lockdep_depends(si, ci));
	g_assert_true(lockdep_depends(si, ctrl));
	g_assert_true(lockdep_depends(si, pages));
	g_assert_true(lockdep_depends(si, lru));
	g_assert_true(lockdep_depends(pages, lru));
	g_assert_false(lockdep_depends(lru, pages));
	g_assert_false(lockdep_depends(pages, si));
	g_assert_false(lockdep_depends(lock_class_get("&xa->xa_lock (zswap_trees)"), si));
}

static void test_exit_2024(void)
{
	setup(SWAP_SHADOW_ROOT, ZSWAP_INVALIDATE_ERASE);
	kernel_setup(&(struct kernel_params){.version = KERNEL_MM_2024_06});
	sim_task_create("t", 0, exit_task_2024, NULL);
	g_assert_true(sim_engine_run());
	kernel_teardown();
	teardown();
}

/* --- 6.14: the allocator and the frees under the cluster lock ----------- */

/* 1100 folios of one task on one CPU, as 6.14.0's mm/swapfile.c takes the
 * locks. The slot cache is refilled 64 at a time: ceil(1100 / 64) = 18
 * refills allocate 1152 slots, 0-1151 (the 64 MiB device is one address
 * space: clusters 0, 1, 2 in order), 52 of them left in the cache.
 *   swap_avail_lock  get_swap_pages, once per refill: 18
 *   &si->lock        no longer around the refill's scan: only
 *                    isolate_lock_cluster (clusters 0, 1, 2: 3), move_cluster
 *                    to frag_clusters after each cluster's first slot (3)
 *                    and to full_clusters after its 512th (0, 1: 2): 8,
 *                    where 6.12 takes it once per refill, 18 times
 *   &ci->lock        once per slot allocated (lock_cluster, or
 *                    isolate_lock_cluster's trylock): 1152; then
 *                    swap_duplicate, swap_swapcount, put_swap_folio per
 *                    folio: 3 x 1100
 *   &ctrl->lock      none: swap_cgroup_record's cmpxchg, 1100 RMWs
 *   inuse_pages      swap_usage_add per slot (1152), frag_cluster_nr per
 *                    move onto (3) or off (2) the frag list: 1157 RMWs
 * The exit: zap_pte_range's batches [0, 512), [512, 1024), [1024, 1100),
 * each inside one cluster: __swap_entries_free's cluster lock once a batch
 * (3); the first two empty clusters 0 and 1 (free_cluster's move_cluster
 * onto free_clusters), the third leaves cluster 2 with its 52 cached slots
 * (partial_free_cluster's move onto nonfull_clusters, off the frag list: one
 * frag_cluster_nr RMW): 3 si->lock; swap_usage_sub once a batch (3); 1100
 * cmpxchgs clearing the ids; nr_swap_pages: 18 subs, then 3 adds. */
static const struct lock_count swapout_614[] = {
    {"swap_avail_lock", 18}, {"&si->lock", 8}, {"&ci->lock", 1152 + 3 * 1100},
    {"&ctrl->lock", 0},	     {NULL, 0},
};

static void check_counts(const struct lock_count *c, const char *when)
{
	for (; c->cls; c++)
		if (acquisitions(c->cls) != c->n)
			g_error("%s: %s: %" G_GUINT64_FORMAT
				" acquisitions, the kernel's %" G_GUINT64_FORMAT,
				when, c->cls, acquisitions(c->cls), c->n);
}

#define INUSE_614 "struct swap_info_struct: frag_cluster_nr, inuse_pages"

static void task_614(struct sim_task *t, void *arg)
{
	g_assert_cmpint(swap_writeout_folios(t, job, 0, 1100), ==, 1100);
	check_counts(swapout_614, "swap-out");
	g_assert_cmpint(rmws(INUSE_614), ==, 1157);
	g_assert_cmpint(rmws("swap_cgroup map"), ==, 1100);
	g_assert_cmpint(rmws("nr_swap_pages"), ==, 18);
	for (long c = 0; c < 3; c++)
		g_assert_cmpint(swap_active->cstate[c].flags, ==,
				c < 2 ? CLUSTER_FLAG_FULL : CLUSTER_FLAG_FRAG);
	swap_exit_entries(t, job, 1);
	const struct lock_count after_exit[] = {{"&si->lock", 8 + 3},
						{"&ci->lock", 1152 + 3 * 1100 + 3},
						{"&ctrl->lock", 0},
						{"swap_avail_lock", 18},
						{NULL, 0}};
	check_counts(after_exit, "exit");
	g_assert_cmpint(rmws(INUSE_614), ==, 1157 + 3 + 1);
	g_assert_cmpint(rmws("swap_cgroup map"), ==, 2 * 1100);
	g_assert_cmpint(rmws("nr_swap_pages"), ==, 18 + 3);
	g_assert_cmpint(swap_active->stat.slots_freed, ==, 1100);
	for (long c = 0; c < 3; c++) {
		g_assert_cmpint(swap_active->cstate[c].count, ==, c < 2 ? 0 : 52);
		g_assert_cmpint(swap_active->cstate[c].flags, ==,
				c < 2 ? CLUSTER_FLAG_FREE : CLUSTER_FLAG_NONFULL);
	}
	/* the order reversed: move_cluster takes si->lock inside ci->lock;
	 * isolate_lock_cluster only trylocks ci->lock inside si->lock */
	struct lock_class *si = lock_class_get("&si->lock"), *ci = lock_class_get("&ci->lock");
	g_assert_true(lockdep_depends(ci, si));
	g_assert_false(lockdep_depends(si, ci));
}

static void test_swap_614(void)
{
	kernel_setup(&(struct kernel_params){.version = KERNEL_6_14});
	setup(SWAP_SHADOW_ROOT, ZSWAP_INVALIDATE_CHECK_EMPTY);
	sim_task_create("t", 0, task_614, NULL);
	g_assert_true(sim_engine_run());
	teardown();
	kernel_teardown();
}

/* --- the shrinker on unaccounted nodes ----------------------------------- */

/* Mainline: 640 folios of the job leave 10 shadow-only nodes, all on the
 * root list; memcg reclaim of the job counts its own list (SHRINK_EMPTY) and
 * shrink_slab frees nothing. */
static void unaccounted_task(struct sim_task *t, void *arg)
{
	g_assert_cmpint(swap_writeout_folios(t, job, 0, 640), ==, 640);
	struct shrinker *s = &swap_active->workingset_shadow_shrinker;
	struct shrink_control sc = {.nid = 0, .memcg = job, .nr_to_scan = 128};
	g_assert_cmpint(s->count_objects(t, s, &sc), ==, SHRINK_EMPTY);
	shrink_slab(t, 0, job, 0);
	g_assert_cmpint(swap_active->stat.nodes_reclaimed, ==, 0);
	g_assert_cmpint(list_lru_count_one(&swap_active->shadow_nodes, 0, memcg_tree->root), ==,
			10);
}

static void test_shrinker_unaccounted(void)
{
	setup(SWAP_SHADOW_ROOT, ZSWAP_INVALIDATE_ERASE);
	sim_task_create("t", 0, unaccounted_task, NULL);
	g_assert_true(sim_engine_run());
	teardown();
}

/* --- 6.12's free cluster list ------------------------------------------- */

/* A 256 MiB device: 4 address spaces of 32 clusters. setup_clusters lists
 * cluster 0 of each space (0, 32, 64, 96), then cluster 1 of each: a task
 * swapping out 600 folios fills cluster 0 (slots 0-511), then takes
 * cluster 32 (slots 16384-), and its exit frees two runs. */
static void column_task(struct sim_task *t, void *arg)
{
	g_assert_cmpint(swap_writeout_folios(t, job, 0, 600), ==, 600);
	GArray *runs = g_hash_table_lookup(swap_active->entries, job);
	g_assert_cmpint(runs->len, ==, 2);
	g_assert_cmpint(g_array_index(runs, struct swap_run, 0).first, ==, 0);
	g_assert_cmpint(g_array_index(runs, struct swap_run, 0).n, ==, 512);
	g_assert_cmpint(g_array_index(runs, struct swap_run, 1).first, ==, 32 * 512);
	g_assert_cmpint(g_array_index(runs, struct swap_run, 1).n, ==, 88);
	g_assert_cmpint(swap_active->next_cluster, ==, 2);
}

static void test_column_order(void)
{
	device_mb = 256;
	setup(SWAP_SHADOW_ROOT, ZSWAP_INVALIDATE_ERASE);
	sim_task_create("t", 0, column_task, NULL);
	g_assert_true(sim_engine_run());
	teardown();
}

/* Two processes in one cgroup: the model keeps their swapped pages by
 * cgroup, so the first to exit frees the first half of the cgroup's slots
 * (300 of the 600 above, splitting the first run), taken off the table
 * before any is freed; the last frees the rest, and the table has nothing
 * left of it. */
static void shared_task(struct sim_task *t, void *arg)
{
	g_assert_cmpint(swap_writeout_folios(t, job, 0, 600), ==, 600);
	swap_exit_entries(t, job, 2);
	g_assert_cmpint(swap_active->stat.slots_freed, ==, 300);
	GArray *runs = g_hash_table_lookup(swap_active->entries, job);
	g_assert_cmpint(runs->len, ==, 2);
	g_assert_cmpint(g_array_index(runs, struct swap_run, 0).first, ==, 300);
	g_assert_cmpint(g_array_index(runs, struct swap_run, 0).n, ==, 212);
	g_assert_cmpint(g_array_index(runs, struct swap_run, 1).n, ==, 88);
	g_assert_cmpint(job->swap.usage, ==, 300);
	swap_exit_entries(t, job, 1);
	g_assert_cmpint(swap_active->stat.slots_freed, ==, 600);
	g_assert_null(g_hash_table_lookup(swap_active->entries, job));
	g_assert_cmpint(job->swap.usage, ==, 0);
}

static void test_exit_shared(void)
{
	device_mb = 256;
	setup(SWAP_SHADOW_ROOT, ZSWAP_INVALIDATE_ERASE);
	sim_task_create("t", 0, shared_task, NULL);
	g_assert_true(sim_engine_run());
	teardown();
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	mcs_test_add_subprocess("/swap/folio-shadow-folio/root", test_sequence_root);
	mcs_test_add_subprocess("/swap/folio-shadow-folio/memcg", test_sequence_memcg);
	mcs_test_add_subprocess("/swap/locks-per-folio", test_locks_per_folio);
	mcs_test_add_subprocess("/swap/exit/6.12", test_exit_612);
	mcs_test_add_subprocess("/swap/exit/6.13", test_exit_613);
	mcs_test_add_subprocess("/swap/exit/mm-2024-06", test_exit_2024);
	mcs_test_add_subprocess("/swap/exit/shared-cgroup", test_exit_shared);
	mcs_test_add_subprocess("/swap/6.14/cluster-locks", test_swap_614);
	mcs_test_add_subprocess("/swap/shrinker/unaccounted", test_shrinker_unaccounted);
	mcs_test_add_subprocess("/swap/free-clusters/column-order", test_column_order);
	return g_test_run();
}

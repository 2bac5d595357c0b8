// SPDX-License-Identifier: GPL-2.0-or-later
/* memcg charging, reclaim and shrinkers against hand-computed values. */
#include "list_lru.h"
#include "memcg.h"
#include "shrinker.h"
#include "swap.h"
#include "test_util.h"
#include "vmscan.h"

static void setup(void)
{
	struct sim_machine m = mcs_test_machine(1, 2);
	sim_engine_init(&m, 0, SIM_S, 1);
	memcg_tree_init(1, 2);
	shrinker_registry_init();
}

static void teardown(void)
{
	memcg_tree_destroy();
	shrinker_registry_destroy();
	lock_class_reset_all();
	sim_engine_fini();
}

/* --- the per-CPU stock ------------------------------------------------ */

static void stock_task(struct sim_task *t, void *arg)
{
	struct mem_cgroup *m = arg;
	mem_cgroup_charge(t, m, 1);
	g_assert_cmpint(m->memory.usage, ==, MEMCG_CHARGE_BATCH); /* a batch, 63 in stock */
	for (int i = 0; i < 63; i++)
		mem_cgroup_charge(t, m, 1);
	g_assert_cmpint(m->memory.usage, ==, 64);
	mem_cgroup_charge(t, m, 1);
	g_assert_cmpint(m->memory.usage, ==, 128);
}

static void test_stock(void)
{
	setup();
	struct mem_cgroup *m = mem_cgroup_create("a", G_MAXLONG);
	sim_task_create("t", 0, stock_task, m);
	g_assert_true(sim_engine_run());
	/* Two batches, each an atomic on a's usage line and on the root's. */
	g_assert_cmpint(
	    line_class_counts(line_class_get("struct page_counter: usage")).ops[LINE_RMW], ==, 4);
	teardown();
}

/* --- over the limit without anything reclaimable: OOM --------------- */

static void oom_task(struct sim_task *t, void *arg)
{
	struct mem_cgroup *child = arg;
	for (int i = 0; i < 100; i++) {
		mem_cgroup_charge(t, child, 1);
		lru_add_pages(t, child, 0, 1, 0); /* anonymous, and no swap */
	}
	/* 101st page: the parent is full, reclaim finds nothing to swap to. */
	g_assert_false(mem_cgroup_charge(t, child, 1));
}

static void test_oom(void)
{
	setup();
	struct mem_cgroup *p = mem_cgroup_create("p", 100);
	struct mem_cgroup *c = mem_cgroup_create("p/c", G_MAXLONG);
	sim_task_create("t", 0, oom_task, c);
	g_assert_true(sim_engine_run());
	g_assert_cmpint(p->stat.oom, ==, 1);
	/* 1 + MAX_RECLAIM_RETRIES reclaim attempts (the last also fails). */
	g_assert_cmpint(p->stat.reclaim_calls, ==, 1 + MAX_RECLAIM_RETRIES);
	g_assert_cmpint(p->memory.usage, ==, 101); /* forced */
	g_assert_cmpint(c->memory.usage, ==, 101);
	teardown();
}

/* --- file pages are reclaimed down to the limit ---------------------- */

static void file_task(struct sim_task *t, void *arg)
{
	struct mem_cgroup *m = arg;
	for (int i = 0; i < 1000; i++) {
		mem_cgroup_charge(t, m, 1);
		lru_add_pages(t, m, 0, 0, 1);
	}
}

static void test_file_reclaim(void)
{
	setup();
	struct mem_cgroup *m = mem_cgroup_create("f", 256);
	sim_task_create("t", 0, file_task, m);
	g_assert_true(sim_engine_run());
	long stock = memcg_tree->stock[0].cached == m ? memcg_tree->stock[0].nr_pages : 0;
	g_assert_cmpint(m->memory.usage, <=, 256);
	g_assert_cmpint(m->stat.oom, ==, 0);
	/* Every page charged is on the LRU, reclaimed, or in the stock. */
	g_assert_cmpint(m->nodeinfo[0].nr_file + m->stat.pgsteal, ==, 1000);
	g_assert_cmpint(m->memory.usage, ==, m->nodeinfo[0].nr_file + stock);
	/* Each reclaim frees at least SWAP_CLUSTER_MAX (at the priority where
	 * 256 >> priority reaches 32 the batch is exactly 32). */
	g_assert_cmpint(m->stat.pgsteal, >=, m->stat.reclaim_calls * SWAP_CLUSTER_MAX);
	teardown();
}

/* --- a reclaim batch's lock sections ---------------------------------- */

static void note_cost_task(struct sim_task *t, void *arg)
{
	struct mem_cgroup *m = arg;
	for (int i = 0; i < 64; i++) {
		mem_cgroup_charge(t, m, 1);
		lru_add_pages(t, m, 0, 0, 1);
	}
	struct lock_class *cls = lock_class_get("&lruvec->lru_lock");
	uint64_t before = cls->acquisitions;
	/* 64 file pages, a target of 32: priorities 12..7 scan nothing
	 * (64 >> 7 = 0), then batches of 1, 1, 3, 7, 13 and 19 pages at
	 * priorities 6..1 (what is left >> priority), 44 in all. Each batch
	 * takes the lruvec lock to isolate, again to put back (nothing is
	 * left, the lock is taken all the same), and lru_note_cost takes f's
	 * lock and the root's: 4 x 6. */
	g_assert_cmpint(try_to_free_mem_cgroup_pages(t, m, 32), ==, 44);
	g_assert_cmpint(cls->acquisitions - before, ==, 4 * 6);
	g_assert_cmpint(m->stat.pgscan, ==, 44);
	g_assert_cmpint(mcs_test_site_ops(m->nodeinfo[0].line.cls, "lru_note_cost", LINE_STORE), ==,
			2 * 6);
}

static void test_reclaim_note_cost(void)
{
	setup();
	struct mem_cgroup *m = mem_cgroup_create("f", G_MAXLONG);
	sim_task_create("t", 0, note_cost_task, m);
	g_assert_true(sim_engine_run());
	teardown();
}

/* --- do_shrink_slab arithmetic ----------------------------------------- */

static long fake_count(struct sim_task *t, struct shrinker *s, struct shrink_control *sc)
{
	return *(long *)s->private_data;
}

static long fake_scan(struct sim_task *t, struct shrinker *s, struct shrink_control *sc)
{
	/* frees what it scans; the count stays, as if refilled */
	return sc->nr_to_scan;
}

static long freeable = 1000;
static struct shrinker seeks2 = {.name = "seeks2",
				 .seeks = 2,
				 .count_objects = fake_count,
				 .scan_objects = fake_scan,
				 .private_data = &freeable};
static struct shrinker seeks0 = {.name = "seeks0",
				 .seeks = 0,
				 .count_objects = fake_count,
				 .scan_objects = fake_scan,
				 .private_data = &freeable};

static void shrink_task(struct sim_task *t, void *arg)
{
	struct mem_cgroup *m = arg;
	m->shrinker_bits[0] = 1ULL << seeks2.id;
	/* priority 0, seeks 2: delta = 1000 * 4 / 2 = 2000, total = min(2000,
	 * 2 * 1000) = 2000: 15 batches of 128 (1920), 80 left and deferred. */
	shrink_slab(t, 0, m, 0);
	g_assert_cmpint(seeks2.scanned, ==, 1920);
	g_assert_cmpint(m->nr_deferred[seeks2.id], ==, 80);
	/* again: 80 + 2000 capped at 2000: 1920 more, deferred 80 + 2000 - 1920 */
	shrink_slab(t, 0, m, 0);
	g_assert_cmpint(seeks2.scanned, ==, 3840);
	g_assert_cmpint(m->nr_deferred[seeks2.id], ==, 160);
	/* priority 12: delta = (1000 >> 12) * 2 = 0, total = 160 >> 12 = 0:
	 * nothing scanned, 160 stays deferred. */
	shrink_slab(t, 0, m, DEF_PRIORITY);
	g_assert_cmpint(seeks2.scanned, ==, 3840);
	g_assert_cmpint(m->nr_deferred[seeks2.id], ==, 160);
	/* seeks 0 (shadow nodes): delta = 1000 / 2 = 500 at any priority:
	 * 3 batches (384), 116 deferred. */
	m->shrinker_bits[0] = 1ULL << seeks0.id;
	shrink_slab(t, 0, m, DEF_PRIORITY);
	g_assert_cmpint(seeks0.scanned, ==, 384);
	g_assert_cmpint(m->nr_deferred[seeks0.id], ==, 116);
	/* An empty shrinker has its bit cleared. */
	freeable = SHRINK_EMPTY;
	shrink_slab(t, 0, m, DEF_PRIORITY);
	g_assert_cmpint(m->shrinker_bits[0], ==, 0);
	freeable = 1000;
}

static void test_do_shrink_slab(void)
{
	setup();
	shrinker_register(&seeks2);
	shrinker_register(&seeks0);
	struct mem_cgroup *m = mem_cgroup_create("s", G_MAXLONG);
	sim_task_create("t", 0, shrink_task, m);
	g_assert_true(sim_engine_run());
	teardown();
}

/* --- swapped pages stream through the LLC ------------------------------ */

static struct cacheline cold;

/* Touch a line, then write 2000 anonymous pages with 1000 allowed: zram
 * reads every page it swaps out (4 KiB each), so once the LLC (1 MiB here)
 * has streamed more than its size the line comes from memory again. */
static void anon_task(struct sim_task *t, void *arg)
{
	struct mem_cgroup *m = arg;
	line_access(0, &cold, LINE_LOAD, "before");
	for (int i = 0; i < 2000; i++) {
		mem_cgroup_charge(t, m, 1);
		lru_add_pages(t, m, 0, 1, 0);
	}
}

static void test_swap_streams(void)
{
	struct sim_machine mach = mcs_test_machine(1, 2);
	mach.llc_bytes = 1 << 20;
	sim_engine_init(&mach, 0, SIM_S, 1);
	memcg_tree_init(1, 2);
	shrinker_registry_init();
	const struct swap_params sp = {.size_mb = 16, .shadow_accounting = SWAP_SHADOW_MEMCG};
	swap_device_init(&sp, list_lru_scope_find("node"));
	struct mem_cgroup *m = mem_cgroup_create("s", 1000);
	line_init(&cold, line_class_get("cold"), 0);
	sim_task_create("t", 0, anon_task, m);
	g_assert_true(sim_engine_run());
	long swapped = swap_active->stat.slots_used;
	g_assert_cmpint(swapped, >=, 1000);
	g_assert_cmpint(line_streamed(0), ==, (uint64_t)swapped * 4096);
	g_assert_cmpint(line_access(0, &cold, LINE_LOAD, "after"), ==, cost(COST_DRAM_LOCAL));
	swap_device_destroy();
	line_class_reset_all();
	teardown();
}

/* memcg.swap.shadow_accounting: 64 folios of one memcg swapped into a fresh
 * device fill one xarray node (XA_CHUNK_SIZE 64): its first folio's shadow
 * adds it to a list, each later folio's store takes it off and its shadow
 * puts it back (63 dels, 64 adds in all), on the memcg's list (v1's patch)
 * or on the node's root list (mainline). The shadow shrinker then counts
 * the memcg's list under memcg reclaim: one node in excess (the memcg has
 * no LRU pages), or SHRINK_EMPTY when its nodes went to the root. */
static struct mem_cgroup *shadow_memcg;

static void swap_64_task(struct sim_task *t, void *arg)
{
	g_assert_cmpint(swap_writeout_folios(t, shadow_memcg, 0, 64), ==, 64);
}

static void shadow_accounting(int mode)
{
	setup();
	const struct swap_params sp = {.size_mb = 16, .shadow_accounting = mode};
	swap_device_init(&sp, list_lru_scope_find("node"));
	shadow_memcg = mem_cgroup_create("s", 1000);
	sim_task_create("t", 0, swap_64_task, NULL);
	g_assert_true(sim_engine_run());
	struct list_lru *lru = &swap_active->shadow_nodes;
	struct mem_cgroup *root = memcg_tree->root,
			  *on = mode == SWAP_SHADOW_ROOT ? root : shadow_memcg;
	g_assert_cmpint(swap_active->stat.nodes_allocated, ==, 1);
	g_assert_cmpint(lru->stat.added, ==, 64);
	g_assert_cmpint(lru->stat.deleted, ==, 63);
	g_assert_cmpint(list_lru_count_one(lru, 0, on), ==, 1);
	g_assert_cmpint(list_lru_count_one(lru, 0, on == root ? shadow_memcg : root), ==, 0);
	struct shrinker *s = &swap_active->workingset_shadow_shrinker;
	struct shrink_control sc = {.nid = 0, .memcg = shadow_memcg, .nr_to_scan = 128};
	g_assert_cmpint(s->count_objects(NULL, s, &sc), ==,
			mode == SWAP_SHADOW_ROOT ? SHRINK_EMPTY : 1);
	swap_device_destroy();
	line_class_reset_all();
	teardown();
}

static void test_shadow_root(void)
{
	shadow_accounting(SWAP_SHADOW_ROOT);
}

static void test_shadow_memcg(void)
{
	shadow_accounting(SWAP_SHADOW_MEMCG);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	mcs_test_add_subprocess("/memcg/charge/stock", test_stock);
	mcs_test_add_subprocess("/memcg/charge/oom", test_oom);
	mcs_test_add_subprocess("/memcg/reclaim/file-pages", test_file_reclaim);
	mcs_test_add_subprocess("/memcg/reclaim/note-cost", test_reclaim_note_cost);
	mcs_test_add_subprocess("/memcg/reclaim/swap-streams", test_swap_streams);
	mcs_test_add_subprocess("/memcg/swap/shadow-accounting/root", test_shadow_root);
	mcs_test_add_subprocess("/memcg/swap/shadow-accounting/memcg", test_shadow_memcg);
	mcs_test_add_subprocess("/shrinker/do_shrink_slab", test_do_shrink_slab);
	return g_test_run();
}

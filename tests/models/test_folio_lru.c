// SPDX-License-Identifier: GPL-2.0-or-later
/* The folio LRU (models/folio_*.c) against hand-computed counts: lru lock
 * acquisitions per page of each path and batch, relocks across memcgs, and
 * the LRU invariants under a memcg move racing with reclaim. */
#include "folio_reclaim.h"
#include "lock_stat.h"
#include "shrinker.h"
#include "test_util.h"

static struct mem_cgroup *memcgs[3];

/* 2 CPUs on one node, 3 memcgs, 1024 folios, no kswapd; @scope locks. */
static void setup(const struct lock_scope *scope)
{
	struct sim_machine m = mcs_test_machine(1, 2);
	sim_engine_init(&m, 0, SIM_S, 1);
	memcg_tree_init(1, 2);
	memcg_tree->lru_lock_scope = scope;
	shrinker_registry_init();
	for (int i = 0; i < 3; i++) {
		char name[8];
		g_snprintf(name, sizeof(name), "m%d", i);
		memcgs[i] = mem_cgroup_create(name, G_MAXLONG);
	}
	folio_lru_init(1024, false);
}

static void teardown(void)
{
	g_assert_null(folio_lru_verify());
	folio_lru_destroy();
	memcg_tree_destroy();
	shrinker_registry_destroy();
	lock_class_reset_all();
	sim_engine_fini();
}

static uint64_t acquisitions(const struct lock_scope *scope)
{
	return lock_class_get(scope->per_memcg ? "&lruvec->lru_lock" : "&pgdat->lru_lock")
	    ->acquisitions;
}

static const struct lock_scope *scope_of(gconstpointer data)
{
	return g_str_equal(data, "node") ? &lock_scope_node : &lock_scope_memcg;
}

/* Read 45 pages of one file twice: 45 / 15 = 3 lru_add batches; the second
 * reads find 30 folios on the LRU (two activate batches of 15) and 15 still
 * in lru_add's last batch... none: the third lru_add batch went at the
 * 45th page. So 3 + 3 = 6 acquisitions, 2 / 15 a page. Then
 * shrink_active_list of 32: one to isolate, one to put back; and
 * shrink_inactive_list: one to isolate, one to put back (nothing kept, the
 * lock taken all the same), and lru_note_cost's two levels (m0's lruvec
 * and the root's: the pgdat lock twice, or the two lruvec locks), each a
 * store to that lruvec's line. */
static void paths_task(struct sim_task *t, void *arg)
{
	const struct lock_scope *scope = arg;
	struct page_file *f = page_file_new(memcgs[0]);
	for (long i = 0; i < 45; i++)
		filemap_read_folio(t, f, i);
	g_assert_cmpint(acquisitions(scope), ==, 3);
	for (long i = 0; i < 45; i++)
		filemap_read_folio(t, f, i);
	g_assert_cmpint(acquisitions(scope), ==, 3 + 3);
	struct lruvec *lv = &memcgs[0]->nodeinfo[0];
	g_assert_cmpint(lv->lists[LRU_ACTIVE_FILE].nr, ==, 45);
	long freed = shrink_lruvec_file(t, lv, 32); /* active 45 > inactive 0 */
	/* deactivate 32 (isolate + putback), then reclaim 32 inactive
	 * (isolate, putback, lru_note_cost at m0 and at the root) */
	g_assert_cmpint(acquisitions(scope), ==, 6 + 2 + 4);
	g_assert_cmpint(freed, ==, 32);
	g_assert_cmpint(lv->lists[LRU_ACTIVE_FILE].nr + lv->lists[LRU_INACTIVE_FILE].nr, ==, 13);
	/* A batch of 8: active 13 > inactive 0 again: 8 deactivated (2), 8 reclaimed (4). */
	g_assert_cmpint(shrink_lruvec_file(t, lv, 8), ==, 8);
	g_assert_cmpint(acquisitions(scope), ==, 12 + 6);
	g_assert_cmpint(folio_lru_stats()->isolated, ==, 32 + 32 + 8 + 8);
	g_assert_cmpint(mcs_test_site_ops(lv->line.cls, "lru_note_cost", LINE_STORE), ==, 2 * 2);
}

static void test_paths(gconstpointer data)
{
	setup(scope_of(data));
	sim_task_create("t", 0, paths_task, (void *)scope_of(data));
	g_assert_true(sim_engine_run());
	teardown();
}

/* The workingset's clock: 45 pages read twice are 45 activations, each an
 * add at m0's lruvec and at the root's (90); reclaiming 32 of them (global
 * reclaim: the root's lruvec is the target's) reads the root's clock and
 * adds to it once a folio (32 loads, 32 adds). */
static void aging_task(struct sim_task *t, void *arg)
{
	(void)arg;
	struct page_file *f = page_file_new(memcgs[0]);
	for (int pass = 0; pass < 2; pass++)
		for (long i = 0; i < 45; i++)
			filemap_read_folio(t, f, i);
	struct lruvec *lv = &memcgs[0]->nodeinfo[0];
	struct line_class *cls = lv->line.cls;
	g_assert_cmpint(mcs_test_site_ops(cls, "workingset_age_nonresident", LINE_RMW), ==, 45 * 2);
	g_assert_cmpint(shrink_lruvec_file(t, lv, 32), ==, 32);
	g_assert_cmpint(mcs_test_site_ops(cls, "workingset_age_nonresident", LINE_RMW), ==,
			45 * 2 + 32);
	g_assert_cmpint(mcs_test_site_ops(cls, "workingset_eviction", LINE_LOAD), ==, 32);
}

static void test_aging(void)
{
	setup(&lock_scope_memcg);
	sim_task_create("t", 0, aging_task, NULL);
	g_assert_true(sim_engine_run());
	teardown();
}

struct relock_case {
	const struct lock_scope *scope;
	int pattern; /* 0: m0 x5, m1 x5, m2 x5; 1: m0, m1, m2, m0 ... */
	long want_relocks;
};

/* One lru_add batch of 15 folios of 3 memcgs: the lruvec lock is dropped
 * for another at each change of memcg; the pgdat lock never. */
static void relock_task(struct sim_task *t, void *arg)
{
	const struct relock_case *c = arg;
	struct page_file *f[3];
	for (int i = 0; i < 3; i++)
		f[i] = page_file_new(memcgs[i]);
	for (long i = 0; i < 15; i++) {
		int m = c->pattern ? (int)(i % 3) : (int)(i / 5);
		filemap_read_folio(t, f[m], i);
	}
	g_assert_cmpint(folio_lru_stats()->relocks, ==, c->want_relocks);
	g_assert_cmpint(acquisitions(c->scope), ==, c->want_relocks + 1);
}

static void test_relocks(gconstpointer data)
{
	const struct relock_case *c = data;
	setup(c->scope);
	sim_task_create("t", 0, relock_task, (void *)c);
	g_assert_true(sim_engine_run());
	teardown();
}

static const struct relock_case relock_cases[] = {
    {&lock_scope_memcg, 0, 2},
    {&lock_scope_memcg, 1, 14},
    {&lock_scope_node, 0, 0},
    {&lock_scope_node, 1, 0},
};

/* Reclaim on CPU 0 isolates m0's active folios and puts them back while CPU
 * 1 moves folios between m0 and m1: a move finds an isolated folio busy
 * (PG_lru clear) and skips it; no folio is lost, duplicated or left on the
 * other memcg's list, checked after every step. */
static void reclaimer(struct sim_task *t, void *arg)
{
	(void)arg;
	for (int round = 0; round < 20; round++) {
		struct folio *iso[SWAP_CLUSTER_MAX];
		int n = isolate_lru_folios(t, &memcgs[0]->nodeinfo[0], LRU_ACTIVE_FILE, 8, iso);
		sim_task_run(t, SIM_CAT_SYS, 2 * SIM_US); /* the batch is worked on, unlocked */
		move_folios_to_lru(t, iso, n);
		char *err = folio_lru_verify();
		g_assert_cmpstr(err, ==, NULL);
	}
}

static void mover(struct sim_task *t, void *arg)
{
	struct page_file *f = arg;
	for (int round = 0; round < 200; round++) {
		struct folio *folio =
		    g_hash_table_lookup(f->pages, GINT_TO_POINTER(round % 64 + 1));
		folio_move_memcg(t, folio, memcgs[folio->memcg == memcgs[0] ? 1 : 0]);
		sim_task_run(t, SIM_CAT_SYS, 150 * SIM_NS);
		char *err = folio_lru_verify();
		g_assert_cmpstr(err, ==, NULL);
	}
	g_assert_cmpint(folio_lru_stats()->move_busy, >, 0);
	g_assert_cmpint(folio_lru_stats()->moves, >, 0);
}

static void fill_task(struct sim_task *t, void *arg)
{
	struct page_file *f = arg;
	for (int pass = 0; pass < 2; pass++)
		for (long i = 0; i < 64; i++)
			filemap_read_folio(t, f, i);
	lru_add_drain(t);
	g_assert_cmpint(memcgs[0]->nodeinfo[0].lists[LRU_ACTIVE_FILE].nr, ==, 64);
	sim_task_create("reclaimer", 0, reclaimer, NULL);
	sim_task_create("mover", 1, mover, f);
}

static void test_race(gconstpointer data)
{
	setup(scope_of(data));
	struct page_file *f = page_file_new(memcgs[0]);
	sim_task_create("fill", 0, fill_task, f);
	g_assert_true(sim_engine_run());
	teardown();
}

/* The checker names a folio left on the list of a memcg it is not in. */
static void corrupt_task(struct sim_task *t, void *arg)
{
	struct page_file *f = page_file_new(memcgs[0]);
	(void)arg;
	for (long i = 0; i < 15; i++)
		filemap_read_folio(t, f, i);
	struct folio *folio = g_hash_table_lookup(f->pages, GINT_TO_POINTER(8));
	folio->memcg = memcgs[2]; /* moved without moving lists */
	char *err = folio_lru_verify();
	g_assert_cmpstr(err, ==,
			"folio 7 of memcg \"m2\" node 0 is on the list of memcg \"m0\" node 0");
	g_free(err);
	folio->memcg = memcgs[0];
}

static void test_checker(void)
{
	setup(&lock_scope_memcg);
	sim_task_create("t", 0, corrupt_task, NULL);
	g_assert_true(sim_engine_run());
	teardown();
}

#define SUB(path, fn, data) g_test_add_data_func(path, data, subprocess_##fn)
#define SUBPROCESS(fn)                                                                             \
	static void subprocess_##fn(gconstpointer data)                                            \
	{                                                                                          \
		if (g_test_subprocess()) {                                                         \
			fn(data);                                                                  \
			return;                                                                    \
		}                                                                                  \
		g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);                        \
		g_test_trap_assert_passed();                                                       \
	}
SUBPROCESS(test_paths)
SUBPROCESS(test_relocks)
SUBPROCESS(test_race)

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	SUB("/folio_lru/paths/node", test_paths, "node");
	SUB("/folio_lru/paths/memcg", test_paths, "memcg");
	SUB("/folio_lru/relocks/memcg-runs", test_relocks, &relock_cases[0]);
	SUB("/folio_lru/relocks/memcg-alternating", test_relocks, &relock_cases[1]);
	SUB("/folio_lru/relocks/node-runs", test_relocks, &relock_cases[2]);
	SUB("/folio_lru/relocks/node-alternating", test_relocks, &relock_cases[3]);
	SUB("/folio_lru/race/node", test_race, "node");
	SUB("/folio_lru/race/memcg", test_race, "memcg");
	mcs_test_add_subprocess("/folio_lru/checker", test_checker);
	mcs_test_add_subprocess("/folio_lru/workingset/aging", test_aging);
	return g_test_run();
}

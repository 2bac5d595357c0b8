// SPDX-License-Identifier: GPL-2.0-or-later
/* list_lru under both lock scopes: counts, every lru_status code, reparenting,
 * the two races reviewers worry about (an add racing with the reparenting of
 * its memcg; a walk whose isolate callback drops the lock while the list is
 * reparented), and heavy random churn, each checked by the invariant checker
 * and by the items' own bookkeeping. */
#include "insn.h"
#include "list_lru.h"
#include "lru_check.h"
#include "sim_rng.h"
#include "test_util.h"

struct item {
	struct lru_item lru; /* first */
	enum lru_status want;
	int visited;
};

static const struct list_lru_scope_ops *scope;
static struct list_lru lru;
static struct mem_cgroup *A, *B; /* "a" and its child "a/b" */

static void setup_on(const struct sim_machine *m)
{
	sim_engine_init(m, 0, SIM_S, 1);
	memcg_tree_init(m->nodes, m->nodes * m->cpus_per_node);
	memcg_tree->lru_scope = scope;
	A = mem_cgroup_create("a", G_MAXLONG);
	B = mem_cgroup_create("a/b", G_MAXLONG);
	list_lru_init_memcg(&lru, "test", scope, -1);
}

static void setup(int cpus)
{
	struct sim_machine m = mcs_test_machine(2, cpus);
	setup_on(&m);
}

static void check_clean(void)
{
	json_t *v = lru_check_all();
	if (json_array_size(v))
		g_error("checker: %s", json_string_value(json_array_get(v, 0)));
	json_decref(v);
}

static void teardown(void)
{
	check_clean();
	list_lru_destroy(&lru);
	memcg_tree_destroy();
	lock_class_reset_all();
	sim_engine_fini();
}

static long live_items_of(struct mem_cgroup *memcg)
{
	return list_lru_count_one(&lru, 0, memcg);
}

/* --- counts ---------------------------------------------------------- */

static struct item items[64];

static void counts_task(struct sim_task *t, void *arg)
{
	for (int i = 0; i < 40; i++)
		g_assert_true(list_lru_add(t, &lru, &items[i].lru, 0, i < 30 ? B : A));
	g_assert_false(list_lru_add(t, &lru, &items[0].lru, 0, B)); /* already on */
	for (int i = 0; i < 10; i++)
		g_assert_true(list_lru_del(t, &lru, &items[i].lru, 0, B));
	g_assert_false(list_lru_del(t, &lru, &items[0].lru, 0, B));
}

static void test_counts(void)
{
	setup(1);
	memset(items, 0, sizeof(items));
	sim_task_create("t", 0, counts_task, NULL);
	g_assert_true(sim_engine_run());
	g_assert_cmpint(live_items_of(B), ==, 20);
	g_assert_cmpint(live_items_of(A), ==, 10);
	g_assert_cmpint(list_lru_count_node(&lru, 0), ==, 30);
	g_assert_cmpint(list_lru_count_node(&lru, 1), ==, 0);
	g_assert_cmpint(lru.stat.added, ==, 40);
	g_assert_cmpint(lru.stat.deleted, ==, 10);
	teardown();
}

/* --- instructions under "queued" -------------------------------------- */

static void add_one_task(struct sim_task *t, void *arg)
{
	g_assert_true(list_lru_add(t, &lru, &items[0].lru, 0, B));
}

/* One list_lru_add of a non-root memcg's item, every cost but the
 * instructions 0, one instruction a ns (CPI 1 at 1 GHz): the per-node lock
 * (6.1) is held for the object's memcg lookup, xa_load and list_lru_add's
 * own code, 46 + 74 + 66 = 186 ns; the split lock (6.13) looks the list up
 * before taking it and holds it for the 66 alone. */
static void test_insns(void)
{
	struct sim_machine m = mcs_test_machine(2, 1);
	m.contention = SIM_CONTENTION_QUEUED;
	memset(m.cost, 0, sizeof(m.cost));
	m.context_switch = 0;
	m.clock_ghz = 1;
	m.cpi = 1;
	m.insns[INSN_MEMCG_FROM_SLAB_OBJ] = 46;
	m.insns[INSN_XA_LOAD] = 74;
	m.insns[INSN_LIST_LRU_ADD] = 66;
	setup_on(&m);
	memset(items, 0, sizeof(items));
	sim_task_create("t", 0, add_one_task, NULL);
	g_assert_true(sim_engine_run());
	g_assert_cmpint(lru.cls->acquisitions, ==, 1);
	g_assert_cmpint(lru.cls->hold_total, ==,
			(g_str_equal(scope->name, "node") ? 186 : 66) * SIM_NS);
	g_assert_cmpint(sim_end(), ==, (46 * g_str_equal(scope->name, "node") + 74 + 66) * SIM_NS);
	teardown();
}

/* --- walk status codes ----------------------------------------------- */

static enum lru_status status_isolate(struct sim_task *t, struct list_lru *l, struct lru_item *it,
				      struct list_lru_one *list, struct lru_locked *held, void *arg)
{
	struct item *item = (struct item *)it;
	item->visited++;
	switch (item->want) {
	case LRU_REMOVED:
		list_lru_isolate(t, l, list, it);
		return LRU_REMOVED;
	case LRU_REMOVED_RETRY:
		list_lru_isolate(t, l, list, it);
		list_lru_unlock(t, held);
		return LRU_REMOVED_RETRY;
	case LRU_RETRY:
		item->want = LRU_SKIP; /* freeable next time round: now skip it */
		list_lru_unlock(t, held);
		return LRU_RETRY;
	default:
		return item->want;
	}
}

/* Items, in list order: REMOVED, ROTATE, SKIP, REMOVED_RETRY, RETRY, STOP, SKIP. */
static const enum lru_status plan[] = {LRU_REMOVED, LRU_ROTATE, LRU_SKIP, LRU_REMOVED_RETRY,
				       LRU_RETRY,   LRU_STOP,	LRU_SKIP};

static void walk_task(struct sim_task *t, void *arg)
{
	for (size_t i = 0; i < G_N_ELEMENTS(plan); i++) {
		items[i].want = plan[i];
		list_lru_add(t, &lru, &items[i].lru, 0, B);
	}
	long nr_to_walk = 100;
	long isolated = list_lru_walk_one(t, &lru, 0, B, status_isolate, NULL, &nr_to_walk);
	*(long *)arg = isolated;
	/* Walk 1 visits 0 (removed), 1 (rotated to the tail), 2 (skip), 3 (removed,
	 * restart); walk 2 visits 2, 4 (retry, restart); walk 3 visits 2, 4 (now
	 * skip), 5 (stop). */
	g_assert_cmpint(nr_to_walk, ==, 100 - 9);
}

static void test_walk_codes(void)
{
	setup(1);
	memset(items, 0, sizeof(items));
	long isolated = -1;
	sim_task_create("t", 0, walk_task, &isolated);
	g_assert_true(sim_engine_run());
	g_assert_cmpint(isolated, ==, 2);
	g_assert_cmpint(live_items_of(B), ==, 5);
	g_assert_null(items[0].lru.on);
	g_assert_null(items[3].lru.on);
	g_assert_cmpint(items[2].visited, ==, 3);
	g_assert_cmpint(items[4].visited, ==, 2);
	g_assert_cmpint(items[6].visited, ==, 0);
	g_assert_cmpint(items[1].visited, ==, 1);
	g_assert_true(lru.node[0].lru.head.next != NULL);
	/* The rotated item is now last. */
	struct list_lru_one *l = items[1].lru.on;
	g_assert_true(l->head.prev == &items[1].lru);
	g_assert_cmpint(lru.stat.retries, ==, 1);
	teardown();
}

/* --- reparenting ------------------------------------------------------- */

static void reparent_task(struct sim_task *t, void *arg)
{
	for (int i = 0; i < 10; i++)
		list_lru_add(t, &lru, &items[i].lru, i % 2, B);
	for (int i = 10; i < 15; i++)
		list_lru_add(t, &lru, &items[i].lru, 0, A);
	mem_cgroup_css_offline(t, B);
	list_lru_add(t, &lru, &items[20].lru, 0, B); /* after rmdir: goes to the parent */
	/* Deleting an item of the dead memcg finds it on the parent's list. */
	g_assert_true(list_lru_del(t, &lru, &items[0].lru, 0, B));
}

static void test_reparent(void)
{
	setup(1);
	memset(items, 0, sizeof(items));
	sim_task_create("t", 0, reparent_task, NULL);
	g_assert_true(sim_engine_run());
	g_assert_cmpint(live_items_of(A), ==, 5 + 4 + 1);
	g_assert_cmpint(list_lru_count_one(&lru, 1, A), ==, 5);
	/* Before the split, the dead memcg's kmemcg_id names its parent, so a
	 * count of it reads the parent's list; after, it has no list. */
	g_assert_cmpint(list_lru_count_one(&lru, 0, B), ==,
			scope->switch_kmemcg_id ? live_items_of(A) : 0);
	g_assert_cmpint(lru.stat.reparented_items, ==, 10);
	g_assert_cmpint(lru.stat.wrong_list_del, ==, 0);
	for (int i = 1; i < 10; i++)
		g_assert_true(items[i].lru.on->memcg == A);
	teardown();
}

/* --- race: list_lru_add against the reparenting of its memcg ---------- */

static void race_reparenter(struct sim_task *t, void *arg)
{
	for (int i = 0; i < 20; i++)
		list_lru_add(t, &lru, &items[i].lru, 0, B);
	sim_task_flush(t);
	*(sim_time_t *)arg = sim_now();
	mem_cgroup_css_offline(t, B);
}

static void race_adder(struct sim_task *t, void *arg)
{
	/* Arrive while the reparenter holds the list lock(s): the add must
	 * land on a live list (the parent's), not on the dead child's. */
	sim_task_charge(t, SIM_CAT_USER, *(sim_time_t *)arg + 10 * SIM_NS);
	list_lru_add(t, &lru, &items[30].lru, 0, B);
}

static void test_race_add_reparent(void)
{
	setup(2);
	memset(items, 0, sizeof(items));
	static sim_time_t start;
	/* The reparenter adds 20 items first, each the lock and unlock (every
	 * line it touches is its own); then it goes offline. */
	start = 20 * sim_from_ns(cost_table[COST_LOCK_ACQ_REL].default_ns);
	sim_task_create("reparent", 0, race_reparenter, &start);
	sim_task_create("add", 1, race_adder, &start);
	g_assert_true(sim_engine_run());
	g_assert_nonnull(items[30].lru.on);
	g_assert_true(items[30].lru.on->memcg == A);
	g_assert_cmpint(live_items_of(A), ==, 21);
	/* The adder waited for the reparenter: it was contended. */
	g_assert_cmpint(lru.cls->contentions, >=, 1);
	teardown();
}

/* --- race: a walk whose isolate drops the lock while the list is reparented */

static enum lru_status slow_isolate(struct sim_task *t, struct list_lru *l, struct lru_item *it,
				    struct list_lru_one *list, struct lru_locked *held, void *arg)
{
	list_lru_isolate(t, l, list, it);
	list_lru_unlock(t, held);
	sim_task_charge(t, SIM_CAT_SYS, 50 * SIM_US); /* e.g. freeing the object */
	sim_task_flush(t);			      /* the reparenting runs meanwhile */
	return LRU_REMOVED_RETRY;
}

static void walker(struct sim_task *t, void *arg)
{
	for (int i = 0; i < 20; i++)
		list_lru_add(t, &lru, &items[i].lru, 0, B);
	long nr = 100;
	*(long *)arg = list_lru_walk_one(t, &lru, 0, B, slow_isolate, NULL, &nr);
}

static void offliner(struct sim_task *t, void *arg)
{
	/* The 20 adds take about 2.5 us; the first isolate runs until about
	 * 52 us: go offline inside it. */
	sim_task_charge(t, SIM_CAT_USER, 20 * SIM_US);
	mem_cgroup_css_offline(t, B);
}

static void test_race_walk_reparent(void)
{
	setup(2);
	memset(items, 0, sizeof(items));
	long isolated = -1;
	sim_task_create("walk", 0, walker, &isolated);
	sim_task_create("rmdir", 1, offliner, NULL);
	g_assert_true(sim_engine_run());
	/* The walk isolated the first item, then found its list reparented:
	 * node scope restarts on the emptied child list, memcg scope sees the
	 * dead marker; either way it stops, and nothing is lost. */
	g_assert_cmpint(isolated, ==, 1);
	g_assert_null(items[0].lru.on);
	g_assert_cmpint(live_items_of(A), ==, 19);
	for (int i = 1; i < 20; i++)
		g_assert_true(items[i].lru.on && items[i].lru.on->memcg == A);
	teardown();
}

/* --- churn ------------------------------------------------------------- */

#define CHURN_ITEMS 256
static struct item churn[CHURN_ITEMS];
static struct mem_cgroup *churn_memcgs[8];
static int churn_live = 4;

static enum lru_status churn_isolate(struct sim_task *t, struct list_lru *l, struct lru_item *it,
				     struct list_lru_one *list, struct lru_locked *held, void *arg)
{
	struct sim_rng *rng = arg;
	double u = sim_rng_uniform01(rng);
	if (u < 0.3) {
		list_lru_isolate(t, l, list, it);
		return LRU_REMOVED;
	}
	if (u < 0.5) {
		list_lru_isolate(t, l, list, it);
		list_lru_unlock(t, held);
		sim_task_charge(t, SIM_CAT_SYS, 300 * SIM_NS);
		sim_task_flush(t);
		return LRU_REMOVED_RETRY;
	}
	if (u < 0.6) {
		list_lru_unlock(t, held);
		sim_task_flush(t);
		return LRU_RETRY;
	}
	return u < 0.8 ? LRU_ROTATE : LRU_SKIP;
}

static void churn_task(struct sim_task *t, void *arg)
{
	char name[32];
	g_snprintf(name, sizeof(name), "churn.%d", sim_task_cpu(t));
	struct sim_rng *rng = sim_rng_new(1, name);
	/* Each task adds and deletes its own items, as kernel callers own
	 * theirs (two callers racing on one object is a caller bug that no
	 * lock scope can fix); walks and reparenting reach everyone's. */
	int per_task = CHURN_ITEMS / 7;
	for (int op = 0; op < 3000; op++) {
		struct item *it =
		    &churn[sim_task_cpu(t) * per_task + (int)(sim_rng_uniform01(rng) * per_task)];
		struct mem_cgroup *m = churn_memcgs[(int)(sim_rng_uniform01(rng) * churn_live)];
		double u = sim_rng_uniform01(rng);
		int nid = (int)(sim_rng_uniform01(rng) * 2);
		if (u < 0.5) {
			list_lru_add(t, &lru, &it->lru, nid, m);
		} else if (u < 0.8) {
			/* Callers delete with the memcg and node they added with. */
			if (it->lru.on)
				list_lru_del(t, &lru, &it->lru, it->lru.on->nid, it->lru.on->memcg);
		} else {
			long nr = 8;
			list_lru_walk_one(t, &lru, nid, m, churn_isolate, rng, &nr);
		}
		sim_task_charge(t, SIM_CAT_USER, 200 * SIM_NS);
	}
	sim_rng_free(rng);
}

static void rmdir_task(struct sim_task *t, void *arg)
{
	/* Take cgroups c0..c3 offline one by one while the churn goes on;
	 * c4..c7 are created as they go so that adds keep finding live ones. */
	for (int i = 0; i < 4; i++) {
		sim_task_charge(t, SIM_CAT_USER, 40 * SIM_US);
		sim_task_flush(t); /* mkdir changes shared state: at the task's time */
		char name[16];
		g_snprintf(name, sizeof(name), "a/c%d", 4 + i);
		churn_memcgs[4 + i] = mem_cgroup_create(name, G_MAXLONG);
		churn_live = 5 + i;
		mem_cgroup_css_offline(t, churn_memcgs[i]);
	}
}

static void test_churn(void)
{
	setup(4);
	memset(churn, 0, sizeof(churn));
	for (int i = 0; i < 4; i++) {
		char name[16];
		g_snprintf(name, sizeof(name), "a/c%d", i);
		churn_memcgs[i] = mem_cgroup_create(name, G_MAXLONG);
	}
	churn_live = 4;
	for (int c = 0; c < 7; c++)
		sim_task_create("churn", c, churn_task, NULL);
	sim_task_create("rmdir", 7, rmdir_task, NULL);
	g_assert_true(sim_engine_run());
	/* Every item that says it is on a list is found on a live one. */
	long on = 0;
	for (int i = 0; i < CHURN_ITEMS; i++)
		if (churn[i].lru.on) {
			on++;
			g_assert_false(list_lru_one_dead(churn[i].lru.on));
			g_assert_true(churn[i].lru.on->memcg->online ||
				      !churn[i].lru.on->memcg->parent);
		}
	g_assert_cmpint(on, ==, list_lru_count_node(&lru, 0) + list_lru_count_node(&lru, 1));
	g_assert_cmpint(lru.stat.reparented_items, >, 0);
	g_assert_cmpint(lru.stat.isolated, >, 0);
	teardown(); /* the checker: counts, no item on a dead list */
}

/* --- registration ---------------------------------------------------- */

static void add_for_scope(const char *sname, const char *name, void (*body)(void))
{
	char *path = g_strdup_printf("/list_lru/%s/%s", sname, name);
	mcs_test_add_subprocess(path, body);
	g_free(path);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	/* The scope is chosen per process by MCS_LRU_SCOPE (default: both, by
	 * re-running the subprocess tests with each). */
	const char *env = g_getenv("MCS_LRU_SCOPE");
	scope = list_lru_scope_find(env ? env : "node");
	const char *sname = scope->name;
	add_for_scope(sname, "counts", test_counts);
	add_for_scope(sname, "walk-status-codes", test_walk_codes);
	add_for_scope(sname, "instructions", test_insns);
	add_for_scope(sname, "reparent", test_reparent);
	add_for_scope(sname, "race/add-vs-reparent", test_race_add_reparent);
	add_for_scope(sname, "race/walk-drops-lock-vs-reparent", test_race_walk_reparent);
	add_for_scope(sname, "churn", test_churn);
	return g_test_run();
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* The charging designs (models/charge*.c) against hand-computed counts. */
#include "charge.h"
#include "kernel.h"
#include "lock_stat.h"
#include "shrinker.h"
#include "test_util.h"

static struct charge_params params;

/* Root -> a -> a/b -> a/b/c, with @p as the run's design. */
static struct mem_cgroup *setup_nodes(const struct charge_params *p, int nodes)
{
	params = *p;
	charge_use(&params);
	struct sim_machine m = mcs_test_machine(nodes, 1);
	sim_engine_init(&m, 0, SIM_S, 1);
	memcg_tree_init(nodes, nodes);
	shrinker_registry_init();
	mem_cgroup_create("a", G_MAXLONG);
	mem_cgroup_create("a/b", G_MAXLONG);
	return mem_cgroup_create("a/b/c", G_MAXLONG);
}

static struct mem_cgroup *setup(const struct charge_params *p)
{
	return setup_nodes(p, 1);
}

static void teardown(void)
{
	memcg_tree_destroy();
	charge_use(NULL);
	shrinker_registry_destroy();
	lock_class_reset_all();
	line_class_reset_all();
	sim_engine_fini();
}

static uint64_t rmws(const char *line_class)
{
	return line_class_counts(line_class_get(line_class)).ops[LINE_RMW];
}

static void charge_twice(struct sim_task *t, void *arg)
{
	mem_cgroup_charge(t, arg, 1);
	mem_cgroup_charge(t, arg, 1);
}

/* page_counter atomics of two one-page charges with no stock, at depth 3
 * (a/b/c, a/b, a and the root: 4 counters). With memory.min = memory.low
 * = 1 page on a: the first charge raises a's protected usage from 0 to 1
 * (min and low: an xchg each, and an add each to the root's
 * children_*_usage); the second leaves it at 1: 6.0 still does the two
 * xchg, 6.1 only reads. */
static void page_counter_atomics(int protection, bool protect, uint64_t want_prot)
{
	struct charge_params p = charge_defaults;
	p.stock_batch = 0;
	p.protection = protection;
	struct mem_cgroup *c = setup(&p);
	if (protect)
		c->parent->parent->memory.min = c->parent->parent->memory.low = 1;
	sim_task_create("t", 0, charge_twice, c);
	g_assert_true(sim_engine_run());
	g_assert_cmpint(rmws("struct page_counter: usage"), ==, 2 * 4);
	g_assert_cmpint(rmws("struct page_counter: min_usage, low_usage, watermark"), ==,
			want_prot);
	g_assert_cmpint(c->parent->parent->memory.min_usage, ==, protect ? 1 : 0);
	g_assert_cmpint(memcg_tree->root->memory.children_low_usage, ==, protect ? 1 : 0);
	g_assert_cmpint(memcg_tree->root->memory.usage, ==, 2);
	teardown();
}

static void test_atomics_no_protection(void)
{
	page_counter_atomics(CHARGE_PROTECTION_XCHG, false, 0);
}

static void test_atomics_xchg(void)
{
	page_counter_atomics(CHARGE_PROTECTION_XCHG, true, 4 + 2);
}

static void test_atomics_on_change(void)
{
	page_counter_atomics(CHARGE_PROTECTION_ON_CHANGE, true, 4);
}

static void charge_100(struct sim_task *t, void *arg)
{
	for (int i = 0; i < 100; i++)
		mem_cgroup_charge(t, arg, 1);
}

/* 100 one-page charges on one CPU take ceil(100 / batch) batches from the
 * counters: each an atomic at each of the 4 levels. */
static void stock_refills(long batch, uint64_t want_refills)
{
	struct charge_params p = charge_defaults;
	p.stock_batch = batch;
	struct mem_cgroup *c = setup(&p);
	sim_task_create("t", 0, charge_100, c);
	g_assert_true(sim_engine_run());
	g_assert_cmpint(rmws("struct page_counter: usage"), ==, 4 * want_refills);
	g_assert_cmpint(c->memory.usage, ==, (long)want_refills * batch);
	g_assert_cmpint(memcg_tree->stock[0].nr_pages, ==, (long)want_refills * batch - 100);
	teardown();
}

static void test_stock_32(void)
{
	stock_refills(32, 4);
}

static void test_stock_64(void)
{
	stock_refills(64, 2);
}

static void fault_and_unmap(struct sim_task *t, void *arg)
{
	struct memcg_batch_info b = {0};
	mem_cgroup_charge(t, arg, 1);
	mem_cgroup_uncharge_start(&b);
	mem_cgroup_uncharge_page(t, &b, arg);
	mem_cgroup_uncharge_end(t, &b);
}

/* res_counter, 2.6.32: a fault charges and its unmap uncharges res and
 * memsw, one lock round trip each per level; without hierarchy a/b/c is
 * one level, with it a/b/c, a/b, a and the root are four. */
static void res_counter_locks(bool hierarchy, uint64_t want)
{
	struct charge_params p = charge_defaults;
	p.counter = &charge_res_counter;
	p.stock_batch = 0;
	p.memsw = true;
	p.use_hierarchy = hierarchy;
	struct mem_cgroup *c = setup(&p);
	sim_task_create("t", 0, fault_and_unmap, c);
	g_assert_true(sim_engine_run());
	g_assert_cmpint(lock_class_get("&counter->lock")->acquisitions, ==, want);
	g_assert_cmpint(c->memory.usage, ==, 0);
	g_assert_cmpint(c->memsw.usage, ==, 0);
	teardown();
}

static void test_res_counter_flat(void)
{
	res_counter_locks(false, 2 * 2);
}

static void test_res_counter_hierarchy(void)
{
	res_counter_locks(true, 2 * 2 * 4);
}

static void unmap_64(struct sim_task *t, void *arg)
{
	struct memcg_batch_info b = {0};
	for (int i = 0; i < 64; i++)
		mem_cgroup_charge(t, arg, 1);
	mem_cgroup_uncharge_start(&b);
	for (int i = 0; i < 64; i++)
		mem_cgroup_uncharge_page(t, &b, arg);
	mem_cgroup_uncharge_end(t, &b);
}

/* res_counter without stock or hierarchy (the 2009 case's), @memsw and
 * @uncharge_batch as given, kernel @v: @body run on CPU 0 to its end on a/b/c. */
static struct mem_cgroup *res_counter_run(enum kernel_version v, bool memsw, bool uncharge_batch,
					  void (*body)(struct sim_task *, void *))
{
	struct charge_params p = charge_defaults;
	p.counter = &charge_res_counter;
	p.stock_batch = 0;
	p.memsw = memsw;
	p.uncharge_batch = uncharge_batch;
	p.use_hierarchy = false;
	struct mem_cgroup *c = setup(&p);
	kernel_setup(&(struct kernel_params){.version = v});
	sim_task_create("t", 0, body, c);
	g_assert_true(sim_engine_run());
	return c;
}

/* Linux 2.6.32's css references (kernel.version): the unmap of 64 charged
 * pages, its uncharges batched (one res_counter section), takes one
 * reference a charge (64 css_tryget) and drops one a page (64 css_put, not
 * batched): 128 locked RMWs at the two sites on the memcg's counter line,
 * besides the 65 lock sections; 6.12 takes none. */
static void css_refs(enum kernel_version v, uint64_t want)
{
	struct mem_cgroup *c = res_counter_run(v, false, true, unmap_64);
	struct line_class *cls = page_counter_line(&c->memory, PC_USAGE)->cls;
	uint64_t refs = mcs_test_site_ops(cls, "css_tryget", LINE_RMW) +
			mcs_test_site_ops(cls, "css_put", LINE_RMW);
	g_assert_cmpint(refs, ==, want);
	/* 2.6.32 also checks the soft limit at the first of its 128 events */
	g_assert_cmpint(lock_class_get("&counter->lock")->acquisitions, ==,
			64 + 1 + (v == KERNEL_2_6_32));
	g_assert_cmpint(c->memory.usage, ==, 0);
	kernel_teardown();
	teardown();
}

static void test_css_refs_2632(void)
{
	css_refs(KERNEL_2_6_32, 64 + 64);
}

/* The 2009 uncharge batching: an unmap of 64 pages is one uncharge (6.12:
 * no css references). */
static void test_uncharge_batch(void)
{
	css_refs(KERNEL_6_12, 0);
}

static uint64_t site_ops(const char *cls, const char *site, enum line_op op)
{
	return mcs_test_site_ops(line_class_get(cls), site, op);
}

/* Linux 2.6.32's struct mem_cgroup (charge_res_counter.c), one fault's
 * charge and its unmap's uncharge with memsw, flat: in each of the two
 * calls, res's lock is a cmpxchg in line 1 and its usage a store in line 0;
 * memsw's lock a cmpxchg in line 2 and its usage a store in line 1 (res's
 * lock word); the css reference and its put, a cmpxchg each in line 0. */
static void test_res_counter_mem_cgroup_lines(void)
{
	static const char *const line[] = {
	    "struct mem_cgroup: css.refcnt, res.usage .. res.soft_limit",
	    "struct mem_cgroup: res.failcnt, res.lock, memsw.usage .. memsw.failcnt",
	    "struct mem_cgroup: memsw.lock, memsw.parent, info"};
	static const struct {
		int line;
		const char *site;
		uint64_t rmw, store;
	} want[] = {
	    {0, "css_tryget", 1, 0},	     {0, "css_put", 1, 0},
	    {0, "res_counter_charge", 0, 1}, {0, "res_counter_uncharge", 0, 1},
	    {1, "res_counter_charge", 1, 1}, {1, "res_counter_uncharge", 1, 1},
	    {2, "res_counter_charge", 1, 0}, {2, "res_counter_uncharge", 1, 0},
	};
	res_counter_run(KERNEL_2_6_32, true, false, fault_and_unmap);
	for (size_t i = 0; i < G_N_ELEMENTS(want); i++) {
		g_assert_cmpint(site_ops(line[want[i].line], want[i].site, LINE_RMW), ==,
				want[i].rmw);
		g_assert_cmpint(site_ops(line[want[i].line], want[i].site, LINE_STORE), ==,
				want[i].store);
	}
	/* + the first event's soft-limit check (the per-CPU count starts at 0) */
	g_assert_cmpint(lock_class_get("&counter->lock")->acquisitions, ==, 4 + 1);
	g_assert_cmpint(site_ops(line[0], "res_counter_soft_limit_excess", LINE_LOAD), ==, 1);
	kernel_teardown();
	teardown();
}

static void charge_2500(struct sim_task *t, void *arg)
{
	for (int i = 0; i < 2500; i++)
		mem_cgroup_charge(t, arg, 1);
}

/* 2.6.32's soft-limit check: the CPU's count starts at 0 and is reset to
 * SOFTLIMIT_EVENTS_THRESH (1000) once below 0, so 2,500 charges check at
 * events 1, 1,002 and 2,003: res's lock 2,500 + 3 times, three reads of
 * its usage line at res_counter_soft_limit_excess. */
static void test_soft_limit_events(void)
{
	res_counter_run(KERNEL_2_6_32, false, false, charge_2500);
	g_assert_cmpint(lock_class_get("&counter->lock")->acquisitions, ==, 2500 + 3);
	g_assert_cmpint(site_ops("struct mem_cgroup: css.refcnt, res.usage .. res.soft_limit",
				 "res_counter_soft_limit_excess", LINE_LOAD),
			==, 3);
	kernel_teardown();
	teardown();
}

/* CPU 0 adds to usage, CPU 1 (the other socket) reads the limits, N = 10
 * times in turn. Sharing a line (<= 6.0), every read fetches the line CPU 0
 * wrote and every RMW after the first invalidates CPU 1's copy: 2N - 1
 * transfers across sockets, each line_remote_ns, besides the N RMWs'
 * locked_rmw_ns (the first access finds the line where it was
 * initialised). Split (6.1), each line stays with its one user: none. */
static uint64_t false_sharing_transfers(const struct page_counter_layout *layout)
{
	struct charge_params p = charge_defaults;
	p.layout = layout;
	struct mem_cgroup *c = setup_nodes(&p, 2);
	sim_time_t spent = 0;
	for (int i = 0; i < 10; i++) {
		spent +=
		    line_access(0, page_counter_line(&c->memory, PC_USAGE), LINE_RMW, "charge");
		spent += line_access(1, page_counter_line(&c->memory, PC_LIMITS), LINE_LOAD,
				     "high check");
	}
	uint64_t transfers = 0;
	GPtrArray *all = line_class_all();
	for (guint i = 0; i < all->len; i++) {
		struct line_class *cls = all->pdata[i];
		/* the memory counter's first line in 6.0 holds css.parent too */
		if (g_str_has_prefix(cls->name, "struct page_counter") ||
		    g_str_has_prefix(cls->name, "struct mem_cgroup: css.parent, id, memory.usage"))
			transfers += line_class_counts(cls).transfers;
	}
	g_assert_cmpint(
	    spent, ==, (sim_time_t)transfers * cost(COST_LINE_REMOTE) + 10 * cost(COST_LOCKED_RMW));
	teardown();
	return transfers;
}

static void test_layout_shared(void)
{
	g_assert_cmpint(false_sharing_transfers(&page_counter_layouts[0]), ==, 2 * 10 - 1);
}

static void test_layout_split(void)
{
	g_assert_cmpint(false_sharing_transfers(&page_counter_layouts[1]), ==, 0);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	mcs_test_add_subprocess("/charge/page_counter/atomics-no-protection",
				test_atomics_no_protection);
	mcs_test_add_subprocess("/charge/page_counter/atomics-xchg-6.0", test_atomics_xchg);
	mcs_test_add_subprocess("/charge/page_counter/atomics-on-change-6.1",
				test_atomics_on_change);
	mcs_test_add_subprocess("/charge/stock/batch-32", test_stock_32);
	mcs_test_add_subprocess("/charge/stock/batch-64", test_stock_64);
	mcs_test_add_subprocess("/charge/res_counter/flat", test_res_counter_flat);
	mcs_test_add_subprocess("/charge/res_counter/hierarchy", test_res_counter_hierarchy);
	mcs_test_add_subprocess("/charge/uncharge-batch", test_uncharge_batch);
	mcs_test_add_subprocess("/charge/css-refs/2.6.32", test_css_refs_2632);
	mcs_test_add_subprocess("/charge/res_counter/mem_cgroup-lines",
				test_res_counter_mem_cgroup_lines);
	mcs_test_add_subprocess("/charge/res_counter/soft-limit-events", test_soft_limit_events);
	mcs_test_add_subprocess("/charge/layout/shared", test_layout_shared);
	mcs_test_add_subprocess("/charge/layout/split", test_layout_split);
	return g_test_run();
}

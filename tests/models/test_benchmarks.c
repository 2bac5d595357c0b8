// SPDX-License-Identifier: GPL-2.0-or-later
/* The two list_lru benchmark scenarios, scaled down, end to end in both lock
 * scopes: the list_lru checker finds nothing, and the books balance. */
#include "cost.h"
#include "mcs_json.h"
#include "runner.h"
#include "scenario.h"
#include <math.h>
#include <string.h>

static json_t *run_variant(const char *file, const char *variant, const char *const *sets)
{
	GError *err = NULL;
	struct scenario *sc = scenario_load_file(file, sets, &err);
	g_assert_no_error(err);
	const struct scenario_variant *v = scenario_variant_find(sc, variant);
	g_assert_nonnull(v);
	bool violation = true;
	json_t *r = runner_run_one(v->config, 1, &violation, &err);
	g_assert_no_error(err);
	g_assert_false(violation);
	scenario_free(sc);
	return r;
}

static void assert_cpu_sum(json_t *r)
{
	double sum = 0;
	const char *k;
	json_t *x;
	json_object_foreach (json_object_get(r, "cpu_time_ns"), k, x)
		sum += json_number_value(x);
	g_assert_cmpfloat_with_epsilon(
	    sum, mcs_json_num(r, "sim_time_ns") * mcs_json_num(r, "cpus"), 1e-3);
}

/* The member of @array whose @key is @name; NULL when none is. */
static json_t *named(json_t *array, const char *key, const char *name)
{
	size_t i;
	json_t *x;
	json_array_foreach (array, i, x)
		if (g_str_equal(json_string_value(json_object_get(x, key)), name))
			return x;
	return NULL;
}

static json_t *lru_named(json_t *mm, const char *name)
{
	json_t *l = named(json_object_get(mm, "list_lrus"), "name", name);
	g_assert_nonnull(l);
	return l;
}

static double lock_acquisitions(json_t *r, const char *cls)
{
	json_t *l = named(json_object_get(r, "locks"), "class", cls);
	g_assert_nonnull(l);
	return mcs_json_num(l, "acquisitions");
}

/* A site's accesses to a line class, and of them those of one access kind
 * (@op NULL: all): 0 when the site made none. */
static double site_ops(json_t *r, const char *cls, const char *site, const char *op)
{
	json_t *c = named(json_object_get(r, "cachelines"), "class", cls);
	json_t *s = c ? named(json_object_get(c, "sites"), "site", site) : NULL;
	if (!s)
		return 0;
	if (!op)
		return mcs_json_num(s, "accesses");
	json_t *o = json_object_get(json_object_get(s, "ops"), op);
	double n = 0;
	const char *k;
	json_t *x;
	json_object_foreach (o, k, x)
		if (json_is_number(x))
			n += json_number_value(x);
	return n;
}

/* Items left = added - deleted - isolated. */
static void assert_lru_books(json_t *l)
{
	g_assert_cmpfloat(mcs_json_num(l, "items"), ==,
			  mcs_json_num(l, "added") - mcs_json_num(l, "deleted") -
			      mcs_json_num(l, "isolated"));
	g_assert_cmpfloat(mcs_json_num(l, "wrong_list_del"), ==, 0);
}

static void test_swap(gconstpointer scope)
{
	/* 16 cgroups of 8 MiB, 128 MiB memhogs: 480 shadow nodes each, over the
	 * 2048 >> 3 = 256 the shrinker leaves, so it runs on v1-after's memcg
	 * lists; the nodes of the tree before the series (v1-before) and of
	 * mainline are on the root lists, which memcg reclaim does not walk
	 * (count_shadow_nodes: SHRINK_EMPTY), so it frees none. */
	bool mainline = g_str_has_prefix(scope, "6.");
	bool memcg_lists = !strcmp(scope, "v1-after");
	const char *sets[] = {"memcg.cgroups.0.count=16", "memcg.cgroups.0.memory_max_mb=8",
			      "workloads.0.count=16", "workloads.0.size_mb=128", NULL};
	json_t *r = run_variant(MCS_SOURCE_DIR "/scenarios/seeds/list_lru_swap.json", scope, sets);
	json_t *mm = json_object_get(r, "memcg");
	g_assert_cmpuint(json_array_size(json_object_get(mm, "violations")), ==, 0);
	assert_cpu_sum(r);
	json_t *rec = json_object_get(mm, "reclaim"), *swap = json_object_get(mm, "swap");
	g_assert_cmpfloat(mcs_json_num(rec, "pswpout"), ==, mcs_json_num(swap, "slots_used"));
	g_assert_cmpfloat(mcs_json_num(rec, "pswpout"), ==, mcs_json_num(rec, "pgsteal"));
	g_assert_cmpfloat(mcs_json_num(rec, "charged"), ==, 16 * 128 * 256);
	g_assert_cmpfloat(mcs_json_num(rec, "oom"), ==, 0);
	if (memcg_lists)
		g_assert_cmpfloat(mcs_json_num(swap, "nodes_reclaimed"), >, 0);
	else
		g_assert_cmpfloat(mcs_json_num(swap, "nodes_reclaimed"), ==, 0);
	json_t *lru = lru_named(mm, "shadow_nodes");
	assert_lru_books(lru);
	g_assert_cmpfloat(mcs_json_num(lru, "isolated"), ==, mcs_json_num(swap, "nodes_reclaimed"));
	/* Every swapped folio: workingset_eviction reads its memcg's
	 * nonresident_age and adds at both levels (the job's, the root's);
	 * swap_cgroup_record stores its id under ctrl->lock, once at swap-out
	 * and once more when the exit frees the slot. The exit takes ctrl->lock
	 * and i_pages once per freed batch (mem_cgroup_uncharge_swap,
	 * clear_shadow_from_swap_cache; a batch is one slot in v1's tree); the swap-out takes
	 * i_pages twice a folio; the shrinker's other acquisitions are successful trylocks. */
	double out = mcs_json_num(rec, "pswpout"), freed = mcs_json_num(swap, "slots_freed");
	if (mainline) {
		g_assert_cmpfloat(freed, ==, out);
	} else {
		/* v1's tree (mm-2024-06): every slot through its CPU's slot cache,
		 * freed 64 at a time (swapcache_free_entries); up to 64 a CPU (32
		 * CPUs) stay there at the end; each freed slot's uncharge takes
		 * ctrl->lock on its own. */
		g_assert_cmpfloat(fmod(freed, 64), ==, 0);
		g_assert_cmpfloat(out - freed, >=, 0);
		g_assert_cmpfloat(out - freed, <=, 64 * 32);
		g_assert_cmpfloat(lock_acquisitions(r, "&ctrl->lock") - out, ==, freed);
	}
	if (mainline)
		g_assert_cmpfloat(mcs_json_num(swap, "shadows_cleared"), ==, out);
	g_assert_cmpfloat(site_ops(r, "&lruvec->lru_lock", "workingset_eviction", NULL), ==, out);
	g_assert_cmpfloat(site_ops(r, "&lruvec->lru_lock", "workingset_age_nonresident", "rmw"), ==,
			  2 * out);
	g_assert_cmpfloat(site_ops(r, "swap_cgroup map", "swap_cgroup_record", "store"), ==,
			  out + freed);
	g_assert_cmpfloat(lock_acquisitions(r, "&ctrl->lock") - out, ==,
			  lock_acquisitions(r, "&xa->xa_lock (swapper_spaces)") - 2 * out -
			      mcs_json_num(swap, "nodes_reclaimed"));
	size_t i;
	json_t *c;
	json_array_foreach (json_object_get(mm, "cgroups"), i, c)
		g_assert_cmpfloat(mcs_json_num(c, "usage_pages"), <=, mcs_json_num(c, "max_pages"));
	json_decref(r);
}

static void test_inode_dentry(gconstpointer scope)
{
	/* 32 readers of 2000 files under a 32 MiB parent: slab is reclaimed. */
	const char *sets[] = {"memcg.cgroups.0.memory_max_mb=32",
			      "memcg.cgroups.1.count=32",
			      "workloads.0.count=32",
			      "workloads.1.count=32",
			      "workloads.1.files=2000",
			      NULL};
	json_t *r =
	    run_variant(MCS_SOURCE_DIR "/scenarios/seeds/list_lru_inode_dentry.json", scope, sets);
	json_t *mm = json_object_get(r, "memcg"), *m = json_object_get(r, "metrics");
	g_assert_cmpuint(json_array_size(json_object_get(mm, "violations")), ==, 0);
	assert_cpu_sum(r);
	g_assert_cmpfloat(mcs_json_num(m, "w1.files_read"), ==, 32 * 2000);
	g_assert_cmpfloat(mcs_json_num(m, "rmdir_events"), ==, 32);
	g_assert_cmpfloat(mcs_json_num(m, "w1.dentries_freed"), >, 0);
	json_t *d = lru_named(mm, "s_dentry_lru"), *in = lru_named(mm, "s_inode_lru");
	assert_lru_books(d);
	assert_lru_books(in);
	/* Each inode read in is added to sb->s_inodes and inserted in its AG's
	 * tree; each freed is deleted from the one and tagged in the other. */
	double inodes = mcs_json_num(m, "w1.files_read") + mcs_json_num(m, "w1.inodes_freed");
	g_assert_cmpfloat(mcs_json_num(m, "w1.inodes_freed"), >, 0);
	g_assert_cmpfloat(lock_acquisitions(r, "&s->s_inode_list_lock"), ==, inodes);
	g_assert_cmpfloat(lock_acquisitions(r, "&pag->pag_ici_lock"), ==, inodes);
	/* Each file's dentry went on the list once; freed dentries were isolated. */
	g_assert_cmpfloat(mcs_json_num(d, "added"), ==, 32 * 2000);
	g_assert_cmpfloat(mcs_json_num(d, "isolated"), ==, mcs_json_num(m, "w1.dentries_freed"));
	/* The parent stays within its limit, but for pages cached in per-CPU
	 * stocks (at most a batch per CPU). */
	size_t i;
	json_t *c;
	json_array_foreach (json_object_get(mm, "cgroups"), i, c)
		if (g_str_equal(json_string_value(json_object_get(c, "name")), "bench"))
			g_assert_cmpfloat(mcs_json_num(c, "usage_pages"), <=,
					  mcs_json_num(c, "max_pages"));
	json_decref(r);
}

/* The page-fault loop at hand-computable costs: 1 us a fault (1.5 us with
 * root's memcg work), nothing at unmap, and the zone LRU's pagevec sections
 * free (no lock, line or RMW cost): each of the 8 tasks does 60 s / 1 us
 * faults in 60 s, whatever the window and the tasks' start times. */
static void test_pagefault_loop(gconstpointer variant)
{
	bool root = g_str_equal(variant, "root");
	const char *sets[] = {"machine.costs.anon_fault_ns=1000",
			      "machine.costs.zap_page_ns=0",
			      "machine.costs.memcg_commit_ns=500",
			      "workloads.0.region_mb=1",
			      "machine.costs.lock_acquire_release_ns=0",
			      "machine.costs.irq_save_restore_ns=0",
			      "machine.costs.locked_rmw_ns=0",
			      "machine.costs.line_llc_ns=0",
			      "machine.costs.dram_local_ns=0",
			      "stop.duration_ns=10e6",
			      NULL};
	json_t *r =
	    run_variant(MCS_SOURCE_DIR "/scenarios/seeds/memcg_charge_2009.json", variant, sets);
	assert_cpu_sum(r);
	double per_fault_s = root ? 1.5e-6 : 1e-6;
	g_assert_cmpfloat_with_epsilon(
	    mcs_json_num(json_object_get(r, "metrics"), "page_faults_60s"), 8 * 60 / per_fault_s,
	    1e-3);
	json_decref(r);
}

/* One task, a region of 2,048 pages, uncharges batched (2.6.33): each
 * round's unmap is two ZAP_BLOCK_SIZE blocks of 1,024 pages, each its own
 * uncharge batch (res and memsw: 2 lock sections) and each freeing its
 * gather at 506 and 1,012 pages and at its end (37 + 37 + 1 pagevecs of
 * 14: 75 lru_lock sections). F faults make R = floor(F / 2048) rounds the
 * stop does not cut: &counter->lock 2F (the charges, res and memsw) + 2 x 2
 * x R, and one a soft-limit check; the zone's lru lock floor(F / 14) to
 * add + 150 R to release. */
static void test_unmap_blocks(void)
{
	const char *sets[] = {"workloads.0.count=1", "workloads.0.region_mb=8",
			      "stop.duration_ns=100e6", NULL};
	json_t *r = run_variant(MCS_SOURCE_DIR "/scenarios/seeds/memcg_charge_2009.json",
				"child-uncharge-batch", sets);
	double f = mcs_json_num(json_object_get(r, "metrics"), "page_faults");
	double rounds = floor(f / 2048);
	g_assert_cmpfloat(rounds, >=, 2);
	/* 2.6.32's soft-limit check: F charge and 2,048 R uncharge events on
	 * the one CPU, a check (one res section) at events 1, 1,002, ... */
	double events = f + 2048 * rounds, checks = floor((events - 1) / 1001) + 1;
	g_assert_cmpfloat(lock_acquisitions(r, "&counter->lock"), ==,
			  2 * f + 2 * 2 * rounds + checks);
	g_assert_cmpfloat(lock_acquisitions(r, "&pgdat->lru_lock"), ==,
			  floor(f / 14) + 150 * rounds);
	json_decref(r);
}

/* One task, a region of 14 pages: every round fills the lru_add pagevec
 * once and frees one pagevec at munmap, so F faults take the zone's lru
 * lock floor(F / 14) times to add, and once to release for each round
 * unmapped: every round but the last, which the stop may cut before its
 * unmap (ceil(F / 14) rounds, the last partial or not). With memcg (root),
 * the per-zone count is written once a page at each; without, never. */
static void test_zone_lru(gconstpointer variant)
{
	bool memcg = g_str_equal(variant, "root");
	const char *sets[] = {"workloads.0.count=1", "workloads.0.region_mb=0.0546875",
			      "workloads.0.start_spread_ns=0", "stop.duration_ns=2e6", NULL};
	json_t *r =
	    run_variant(MCS_SOURCE_DIR "/scenarios/seeds/memcg_charge_2009.json", variant, sets);
	double f = mcs_json_num(json_object_get(r, "metrics"), "page_faults");
	double adds = floor(f / 14);
	double releases = lock_acquisitions(r, "&pgdat->lru_lock") - adds;
	g_assert_cmpfloat(f, >, 14 * 10);
	g_assert_true(releases == ceil(f / 14) - 1 || releases == ceil(f / 14));
	g_assert_cmpfloat(site_ops(r, "&lruvec->lru_lock", "mem_cgroup_add_lru_list", "store"), ==,
			  memcg ? 14 * adds : 0);
	g_assert_cmpfloat(site_ops(r, "&lruvec->lru_lock", "mem_cgroup_del_lru_list", "store"), ==,
			  memcg ? MIN(f, 14 * releases) : 0);
	json_decref(r);
}

/* 6.0's memcg_rstat_updated: a socket charge or uncharge of 3 pages adds 3
 * to the CPU's stats_updates, folded past 32 (every 11th call); the global
 * stats_flush_threshold is written only while it is at most
 * num_online_cpus (72), so exactly 73 times when nothing flushes, and read
 * at every fold. */
static void test_rstat_threshold(void)
{
	const char *sets[] = {"stop.duration_ns=1e6", NULL};
	json_t *r =
	    run_variant(MCS_SOURCE_DIR "/scenarios/seeds/memcg_charge_2022.json", "6.0-rc1", sets);
	const char *cls = "stats_flush_threshold", *site = "memcg_rstat_updated";
	g_assert_cmpfloat(site_ops(r, cls, site, "rmw"), ==, 73);
	g_assert_cmpfloat(site_ops(r, cls, site, "load"), >, 73);
	json_decref(r);
}

/* The fold follows the stock's batch (MEMCG_CHARGE_BATCH: 32 in 6.0, 64
 * with patch C): a message makes 4 updates of 3 pages (a charge and an
 * uncharge on each side), so M messages fold about 4M / 11 times at 32 (33
 * > 32) and 4M / 22 at 64 (66 > 64), each fold a read of the threshold:
 * less up to one unfolded remainder per CPU (72), more up to one message
 * in flight per CPU. */
static void rstat_folds(const char *variant, double calls_per_fold)
{
	const char *sets[] = {"stop.duration_ns=1e6", NULL};
	json_t *r =
	    run_variant(MCS_SOURCE_DIR "/scenarios/seeds/memcg_charge_2022.json", variant, sets);
	double m = mcs_json_num(json_object_get(r, "metrics"), "messages");
	double loads = site_ops(r, "stats_flush_threshold", "memcg_rstat_updated", "load");
	g_assert_cmpfloat(loads, >=, 4 * m / calls_per_fold - 72);
	g_assert_cmpfloat(loads, <=, 4 * (m + 72) / calls_per_fold);
	json_decref(r);
}

static void test_rstat_folds_32(void)
{
	rstat_folds("6.0-rc1", 11);
}

static void test_rstat_folds_64(void)
{
	rstat_folds("C", 22);
}

/* 6.0's struct mem_cgroup: the memory counter starts 208 bytes in, so
 * css.parent shares usage's line, and min_usage sits with low_usage in the
 * next. __sk_mem_reduce_allocated asks mem_cgroup_under_socket_pressure
 * after each uncharge (one a side a message), which reads socket_pressure
 * and css.parent at c, b, a and the root: 4 loads of each a call, on
 * usage's line in 6.0 and on a line of their own in 6.1 (patch B). M
 * messages received make between 2M calls and 2M plus one window (16) and
 * the message being sent a pair (36 pairs). */
#define CSS_WITH_USAGE "struct mem_cgroup: css.parent, id, memory.usage .. memory.emin"
static void socket_pressure_walk(const char *variant, const char *css_class,
				 const char *usage_class)
{
	const char *sets[] = {"stop.duration_ns=1e6", NULL};
	json_t *r =
	    run_variant(MCS_SOURCE_DIR "/scenarios/seeds/memcg_charge_2022.json", variant, sets);
	const char *site = "mem_cgroup_under_socket_pressure";
	double m = mcs_json_num(json_object_get(r, "metrics"), "messages");
	double loads = site_ops(r, "struct mem_cgroup: socket_pressure", site, "load");
	g_assert_cmpfloat(m, >, 0);
	g_assert_cmpfloat(fmod(loads, 4), ==, 0);
	g_assert_cmpfloat(loads, >=, 4 * 2 * m);
	g_assert_cmpfloat(loads, <=, 4 * (2 * m + 36 * 17));
	g_assert_cmpfloat(site_ops(r, css_class, site, "load"), ==, loads);
	g_assert_cmpfloat(site_ops(r, usage_class, site, NULL), ==,
			  strcmp(css_class, usage_class) ? 0 : loads);
	/* the protection's xchgs at `a` (6.0): both on the second line */
	g_assert_cmpfloat(site_ops(r, CSS_WITH_USAGE, "propagate_protected_usage", "rmw"), ==, 0);
	json_decref(r);
}

static void test_socket_pressure_6_0(void)
{
	socket_pressure_walk("6.0-rc1", CSS_WITH_USAGE, CSS_WITH_USAGE);
	const char *sets[] = {"stop.duration_ns=1e6", NULL};
	json_t *r =
	    run_variant(MCS_SOURCE_DIR "/scenarios/seeds/memcg_charge_2022.json", "6.0-rc1", sets);
	g_assert_cmpfloat(site_ops(r,
				   "struct page_counter: min_usage, low_usage, watermark, parent",
				   "propagate_protected_usage", "rmw"),
			  >, 0);
	json_decref(r);
}

static void test_socket_pressure_6_1(void)
{
	socket_pressure_walk("B", "struct mem_cgroup: css.parent, id",
			     "struct page_counter: usage");
}

static void test_socket_pressure_root(void)
{
	const char *sets[] = {"stop.duration_ns=1e6", NULL};
	json_t *r =
	    run_variant(MCS_SOURCE_DIR "/scenarios/seeds/memcg_charge_2022.json", "root", sets);
	g_assert_cmpfloat(site_ops(r, "struct mem_cgroup: socket_pressure",
				   "mem_cgroup_under_socket_pressure", NULL),
			  ==, 0);
	json_decref(r);
}

/* netperf in the root at 4.096 us a side a message: each pair's receiver
 * finishes its first message at 8.192 us and one every 4.096 us after, so
 * 243 in 1 ms: 243 x 10240 x 8 bits / 1 ms = 19906.56 x 10^6 bits/s. */
static void test_netperf_root(void)
{
	/* under "idle": no SMT sharing between a pair's two siblings */
	const char *sets[] = {"machine.costs.net_msg_ns=4096", "stop.duration_ns=1e6",
			      "machine.contention=idle", NULL};
	json_t *r =
	    run_variant(MCS_SOURCE_DIR "/scenarios/seeds/memcg_charge_2022.json", "root", sets);
	json_t *m = json_object_get(r, "metrics");
	g_assert_cmpfloat(mcs_json_num(m, "messages"), ==, 36 * 243);
	g_assert_cmpfloat_with_epsilon(mcs_json_num(m, "throughput"), 19906.56, 1e-6);
	json_decref(r);
}

/* A swap run stopped by its duration ends with tasks inside __remove_mapping
 * (a node updated, its list_lru_add to come): the shadow-node check leaves
 * nodes under a held i_pages lock alone. The fixture (1024 CPUs, 4096
 * cgroups, 1024 memhogs, 2 ms) ended so, and failed, before the check did. */
static void test_swap_stopped_midway(void)
{
	json_t *r = run_variant(MCS_SOURCE_DIR "/tests/fixtures/swap_stopped_midway.json", "base",
				(const char *[]){NULL});
	g_assert_cmpuint(
	    json_array_size(json_object_get(json_object_get(r, "memcg"), "violations")), ==, 0);
	json_decref(r);
}

/* memhog's jobs (a make slot): three jobs of 1 MiB (256 pages) in a cgroup
 * without a limit, each working 1 ms. Every job charges its 256 pages and
 * puts them on the LRU in 4 batches of MEMCG_CHARGE_BATCH (64); the exits
 * of the first two free their resident pages, 9 folio batches of at most
 * 31 each (folios_put_refs under the lru_lock) and uncharge them, the last
 * job's left as a one-job memhog leaves them. User time: 3 x (256 memset
 * pages + 1 ms); sys: 768 anon faults and 512 unmapped pages, and under
 * 1 us for each lock section and charge besides. */
static void test_memhog_jobs(void)
{
	const char *file = MCS_SOURCE_DIR "/tests/fixtures/memhog_jobs.json";
	GError *err = NULL;
	struct scenario *sc = scenario_load_file(file, (const char *[]){NULL}, &err);
	g_assert_no_error(err);
	const struct run_config *cfg = scenario_variant_find(sc, "base")->config;
	double memset = sim_to_ns(cfg->machine.cost[COST_MEMSET_PAGE]);
	double fault = sim_to_ns(cfg->machine.cost[COST_ANON_FAULT]);
	double zap = sim_to_ns(cfg->machine.cost[COST_ZAP_PAGE]);
	scenario_free(sc);
	json_t *r = run_variant(file, "base", (const char *[]){NULL});
	json_t *cg = json_array_get(json_object_get(json_object_get(r, "memcg"), "cgroups"), 0);
	g_assert_cmpfloat(mcs_json_num(cg, "charged"), ==, 768);
	g_assert_cmpfloat(mcs_json_num(cg, "uncharged"), ==, 512);
	g_assert_cmpfloat(mcs_json_num(cg, "usage_pages"), ==, 256);
	g_assert_cmpfloat(lock_acquisitions(r, "&lruvec->lru_lock"), ==, 3 * 4 + 2 * 9);
	json_t *cpu = json_object_get(r, "cpu_time_ns");
	g_assert_cmpfloat_with_epsilon(mcs_json_num(cpu, "user"), 3 * (256 * memset + 1e6), 1e-3);
	/* the rest of sys: the 30 lru_lock sections and the charges' counters */
	double rest = mcs_json_num(cpu, "sys") - (768 * fault + 512 * zap);
	g_assert_cmpfloat(rest, >, 0);
	g_assert_cmpfloat(rest, <, 30 * 1000.0);
	json_decref(r);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/benchmarks/swap/stopped-midway", test_swap_stopped_midway);
	g_test_add_func("/benchmarks/memhog/jobs", test_memhog_jobs);
	g_test_add_data_func("/benchmarks/pagefault-loop/no-memcg", "no-memcg",
			     test_pagefault_loop);
	g_test_add_data_func("/benchmarks/pagefault-loop/root", "root", test_pagefault_loop);
	g_test_add_func("/benchmarks/pagefault-loop/unmap-blocks", test_unmap_blocks);
	g_test_add_func("/benchmarks/netperf/root", test_netperf_root);
	g_test_add_func("/benchmarks/netperf/rstat-threshold", test_rstat_threshold);
	g_test_add_func("/benchmarks/netperf/rstat-folds-32", test_rstat_folds_32);
	g_test_add_func("/benchmarks/netperf/rstat-folds-64", test_rstat_folds_64);
	g_test_add_func("/benchmarks/netperf/socket-pressure-6.0", test_socket_pressure_6_0);
	g_test_add_func("/benchmarks/netperf/socket-pressure-6.1", test_socket_pressure_6_1);
	g_test_add_func("/benchmarks/netperf/socket-pressure-root", test_socket_pressure_root);
	g_test_add_data_func("/benchmarks/zone-lru/no-memcg", "no-memcg", test_zone_lru);
	g_test_add_data_func("/benchmarks/zone-lru/root", "root", test_zone_lru);
	g_test_add_data_func("/benchmarks/swap/v1-before", "v1-before", test_swap);
	g_test_add_data_func("/benchmarks/swap/v1-after", "v1-after", test_swap);
	g_test_add_data_func("/benchmarks/swap/6.12", "6.12", test_swap);
	g_test_add_data_func("/benchmarks/swap/6.13", "6.13", test_swap);
	g_test_add_data_func("/benchmarks/inode-dentry/per-node", "per-node", test_inode_dentry);
	g_test_add_data_func("/benchmarks/inode-dentry/per-cgroup", "per-cgroup",
			     test_inode_dentry);
	return g_test_run();
}

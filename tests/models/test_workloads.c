// SPDX-License-Identifier: GPL-2.0-or-later
/* The kbuild and filewrite workloads end to end, scaled down, at the costs
 * their fixtures set (tests/fixtures/kbuild_costs.json, filewrite_costs.json:
 * no interrupts unless a case adds them, one node of 4 CPUs, every cost the
 * paths take given), so that each figure below is a formula of those costs
 * and of the models' rules; the comment beside each assertion derives it.
 *
 * A probe workload, appended to each run's configuration, reads the file's
 * page statistics before the run is torn down: what the memcg's
 * FILE_MAPPED, FILE_DIRTY and WRITEBACK counters and the writeback queue
 * hold at the end (its metrics, "w<N>.pc_*"). */
#include "mm.h"
#include "page_cgroup.h"
#include "runner.h"
#include "scenario.h"
#include "sim_rng.h"
#include "test_util.h"
#include "workload.h"
#include <stdlib.h>
#include <string.h>

#define KBUILD MCS_SOURCE_DIR "/tests/fixtures/kbuild_costs.json"
#define FILEWRITE MCS_SOURCE_DIR "/tests/fixtures/filewrite_costs.json"

/* The fixtures' costs, ns. */
#define READ_FAULT 1000 /* read_fault_ns */
#define PAGE_STAT 100	/* memcg_page_stat_ns */
#define RMW 10		/* locked_rmw_ns */
#define PREEMPT 2	/* preempt_ns */
#define IRQSAVE 20	/* irq_save_restore_ns */
#define RCU_READ 4	/* rcu_read_lock_ns */
#define SAME_CPU 3	/* line_same_cpu_ns */
#define DRAM 90		/* dram_local_ns */
#define WRITE_PAGE 500	/* filewrite's write_page_ns */

/* One task alone: every line it touches is in its own cache (a line's first
 * access is a hit too: cacheline.c, "initialised by the CPU that first uses
 * it"). Taking a page's bit spinlock (spinlock.c, acquire_cost): the lock
 * word's line comes (line_same_cpu), test_and_set_bit_lock and
 * clear_bit_unlock (two locked RMWs), the preempt pair. Holding it
 * (page_cgroup.c, update_work): memcg_page_stat and the statistic's flag
 * set on pc->flags, a locked RMW on the same line. */
#define ACQ (SAME_CPU + 2 * RMW + PREEMPT) /* 25 */
#define HOLD (PAGE_STAT + SAME_CPU + RMW)  /* 113 */
#define UPD_PLAIN (ACQ + HOLD)		   /* 138 */
#define UPD_IRQSAVE (IRQSAVE + ACQ + HOLD) /* 158: local_irq_save/restore around it */
/* rcu (no move): rcu_read_lock with the preempt pair, the load of the
 * moving flag's line, then the same work and flag without the lock. */
#define UPD_RCU (PREEMPT + RCU_READ + SAME_CPU + HOLD) /* 122 */

/* The contended cases make every line access cost LINE, wherever the line
 * is (own cache, another core, memory), so that a transfer costs what a hit
 * does and an acquisition's price does not depend on who had the line. */
#define LINE 5
#define LINE_COSTS                                                                                 \
	"machine.costs.line_same_cpu_ns=5", "machine.costs.line_smt_ns=5",                         \
	    "machine.costs.line_llc_ns=5", "machine.costs.line_socket_ns=5",                       \
	    "machine.costs.line_remote_ns=5", "machine.costs.llc_hit_ns=5",                        \
	    "machine.costs.dram_local_ns=5", "machine.costs.dram_remote_ns=5"
#define ACQ_C (LINE + 2 * RMW + PREEMPT)	       /* 27 */
#define HOLD_C (PAGE_STAT + LINE + RMW)		       /* 115 */
#define SLOT_C (ACQ_C + HOLD_C)			       /* 142: the lock busy per acquisition */
#define UPD_RCU_C (PREEMPT + RCU_READ + LINE + HOLD_C) /* 126 */

/* --- the probe: the file's page statistics at the end of the run ------- */

static void *books_setup(const void *params, int index)
{
	return NULL;
}

static void books_destroy(void *state)
{
}

static void books_metrics(void *state, json_t *metrics)
{
	struct page_cgroup_map *map = mm_page_cgroup_map();
	struct mem_cgroup *memcg = map->pc[0].mem_cgroup; /* the file's: nothing moves here */
	static const char *const names[MEMCG_NR_PAGE_STAT] = {
	    [MEMCG_NR_FILE_MAPPED] = "pc_file_mapped",
	    [MEMCG_NR_FILE_DIRTY] = "pc_file_dirty",
	    [MEMCG_NR_WRITEBACK] = "pc_writeback"};
	for (int i = 0; i < MEMCG_NR_PAGE_STAT; i++)
		json_object_set_new(metrics, names[i],
				    json_integer(mem_cgroup_page_stat(map, memcg, i)));
	json_object_set_new(metrics, "pc_writeback_queued",
			    json_integer(g_queue_get_length(&map->writeback)));
}

static const struct workload_type books_workload = {
    .name = "books",
    .setup = books_setup,
    .metrics = books_metrics,
    .destroy = books_destroy,
};

/* --- running a case and reading its result ------------------------------ */

/* The replica result of @variant of @fixture with @sets (seed: the
 * fixture's), the probe appended to its workloads; the run must complete
 * without a violation. */
static json_t *run_case(const char *fixture, const char *variant, const char *const *sets)
{
	GError *err = NULL;
	struct scenario *sc = scenario_load_file(fixture, sets, &err);
	g_assert_no_error(err);
	const struct scenario_variant *v = scenario_variant_find(sc, variant);
	g_assert_nonnull(v);
	struct run_config cfg = *v->config;
	struct run_workload *w = g_new0(struct run_workload, cfg.nworkloads + 1);
	memcpy(w, cfg.workloads, sizeof(*w) * (size_t)cfg.nworkloads);
	w[cfg.nworkloads] = (struct run_workload){&books_workload, NULL};
	cfg.workloads = w;
	cfg.nworkloads++;
	bool violation = true;
	json_t *r = runner_run_one(&cfg, v->seed, &violation, &err);
	g_assert_no_error(err);
	g_assert_false(violation);
	g_free(w);
	scenario_free(sc);
	return r;
}

/* The member at @path ("cpu_time_ns.sys", "locks.0.hold_ns.max": a number
 * indexes an array); it must be there. */
static json_t *get(json_t *o, const char *path)
{
	char **parts = g_strsplit(path, ".", -1);
	for (char **p = parts; *p && o; p++)
		o = json_is_array(o) ? json_array_get(o, strtoul(*p, NULL, 10))
				     : json_object_get(o, *p);
	g_strfreev(parts);
	if (!o)
		g_error("no %s in the result", path);
	return o;
}

static double num(json_t *o, const char *path)
{
	json_t *v = get(o, path);
	g_assert_true(json_is_number(v));
	return json_number_value(v);
}

/* A time in ns, to the simulation's resolution (1 ps). */
#define assert_ns(actual, expected) g_assert_cmpfloat_with_epsilon(actual, expected, 5e-4)

/* The probe's figure @name ("pc_file_dirty"), whatever its workload index. */
static double books(json_t *r, const char *name)
{
	const char *k;
	json_t *v;
	json_object_foreach (get(r, "metrics"), k, v)
		if (k[0] == 'w' && strchr(k, '.') && g_str_equal(strchr(k, '.') + 1, name))
			return json_number_value(v);
	g_error("no probe figure %s", name);
}

/* The one lock class the runs take: the page_cgroups' bit spinlock. */
static json_t *pc_lock(json_t *r)
{
	json_t *locks = get(r, "locks");
	g_assert_cmpuint(json_array_size(locks), ==, 1);
	g_assert_cmpstr(json_string_value(get(locks, "0.class")), ==, "&pc->lock");
	return json_array_get(locks, 0);
}

static json_t *line_class(json_t *r, const char *name)
{
	size_t i;
	json_t *c;
	json_array_foreach (get(r, "cachelines"), i, c)
		if (g_str_equal(json_string_value(get(c, "class")), name))
			return c;
	g_error("no cache-line class %s", name);
}

/* Accesses to page_cgroup lines at @site (0 when the site never touched
 * one): the lock word's RMW is at the site that takes the lock. */
static double pc_site(json_t *r, const char *site)
{
	size_t i;
	json_t *s;
	json_array_foreach (get(line_class(r, "struct page_cgroup"), "sites"), i, s)
		if (g_str_equal(json_string_value(get(s, "site")), site))
			return num(s, "accesses");
	return 0;
}

/* --- kbuild -------------------------------------------------------------- */

/* The fixture as it is: one stream of J jobs, each F header faults (a
 * read fault and a FILE_MAPPED +1 each), no compile time, F unmaps
 * (FILE_MAPPED -1), W object pages dirtied: 2F + W page_cgroup updates a
 * job, each at the scheme's price. */
enum { J = 4, F = 10, W = 3, KB_UPDATES = J * (2 * F + W) /* 92 */ };

static void test_kbuild_one_stream(gconstpointer variant)
{
	bool rcu = g_str_equal(variant, "rcu"), irqsave = g_str_equal(variant, "irqsave");
	double upd = rcu ? UPD_RCU : irqsave ? UPD_IRQSAVE : UPD_PLAIN;
	json_t *r = run_case(KBUILD, variant, (const char *[]){NULL});
	/* One CPU busy throughout, all in the kernel: J F read faults and the
	 * updates. plain 40000 + 92 x 138 = 52696; irqsave + 92 x 20 = 54536;
	 * rcu 40000 + 92 x 122 = 51224. */
	double sys = J * F * READ_FAULT + KB_UPDATES * upd;
	assert_ns(num(r, "metrics.elapsed_ns"), sys);
	assert_ns(num(r, "cpu_time_ns.sys"), sys);
	assert_ns(num(r, "cpu_time_ns.user"), 0); /* compile_ns 0: no user time */
	assert_ns(num(r, "cpu_time_ns.spin"), 0);
	g_assert_cmpfloat(num(r, "memcg.page_cgroup.updates"), ==, KB_UPDATES);
	g_assert_cmpfloat(num(r, "memcg.page_cgroup.locked"), ==, rcu ? 0 : KB_UPDATES);
	g_assert_cmpfloat(num(r, "memcg.page_cgroup.lockless"), ==, rcu ? KB_UPDATES : 0);
	json_t *pc = line_class(r, "struct page_cgroup");
	if (rcu) {
		/* No lock is taken: no lock class listed; one load of the moving
		 * flag and one flag RMW an update, all hits. */
		g_assert_cmpuint(json_array_size(get(r, "locks")), ==, 0);
		g_assert_cmpfloat(num(line_class(r, "memcg moving_account"), "ops.load.hit"), ==,
				  KB_UPDATES);
		g_assert_cmpfloat(num(pc, "accesses"), ==, KB_UPDATES);
		g_assert_cmpfloat(num(pc, "ops.rmw.hit"), ==, KB_UPDATES);
	} else {
		json_t *l = pc_lock(r);
		g_assert_cmpfloat(num(l, "acquisitions"), ==, KB_UPDATES);
		g_assert_cmpfloat(num(l, "contentions"), ==, 0);
		assert_ns(num(l, "hold_ns.min"), HOLD);
		assert_ns(num(l, "hold_ns.max"), HOLD);
		assert_ns(num(l, "hold_ns.total"), KB_UPDATES * HOLD); /* 10396 */
		/* irqsave: interrupts off from the arrival at the lock (after the
		 * save) to the release, 92 x 138 = 12696. */
		assert_ns(num(l, "irqoff_ns"), irqsave ? KB_UPDATES * (ACQ + HOLD) : 0);
		/* Two RMWs on the page_cgroup's line an update (lock word, flag),
		 * all hits; the lock's at the caller's site. */
		g_assert_cmpfloat(num(pc, "accesses"), ==, 2 * KB_UPDATES);
		g_assert_cmpfloat(num(pc, "ops.rmw.hit"), ==, 2 * KB_UPDATES);
		g_assert_cmpfloat(pc_site(r, "page_add_file_rmap"), ==, J * F);
		g_assert_cmpfloat(pc_site(r, "page_remove_rmap"), ==, J * F);
		g_assert_cmpfloat(pc_site(r, "account_page_dirtied"), ==, J * W);
	}
	/* Every header page mapped was unmapped; the J W object pages (job j's
	 * at 17 j + w, w < W <= 17: all distinct) stay dirty; no writeback. */
	g_assert_cmpfloat(books(r, "pc_file_mapped"), ==, 0);
	g_assert_cmpfloat(books(r, "pc_file_dirty"), ==, J * W);
	g_assert_cmpfloat(books(r, "pc_writeback"), ==, 0);
	json_decref(r);
}

/* With compile time: each job's compile is a draw of the exponential
 * distribution of mean compile_ns from the stream "kbuild.<workload>.<task>"
 * of the run's seed (kbuild.c), user time; the kernel's share is as
 * before. The test draws the same four values from the same stream. */
static void test_kbuild_compile_time(void)
{
	const char *sets[] = {"workloads.0.compile_ns=1e5", NULL};
	json_t *r = run_case(KBUILD, "plain", sets);
	struct sim_rng *rng = sim_rng_new(1 /* the fixture's seed */, "kbuild.0.0");
	struct sim_dist compile = {SIM_DIST_EXP, 1e5 * (double)SIM_NS, 1};
	sim_time_t user = 0;
	for (int j = 0; j < J; j++)
		user += sim_rng_sample(rng, &compile);
	sim_rng_free(rng);
	g_assert_cmpint(user, >, 0);
	double sys = J * F * READ_FAULT + KB_UPDATES * UPD_PLAIN; /* 52696, as without */
	assert_ns(num(r, "cpu_time_ns.user"), sim_to_ns(user));
	assert_ns(num(r, "cpu_time_ns.sys"), sys);
	assert_ns(num(r, "metrics.elapsed_ns"), sys + sim_to_ns(user)); /* one CPU, never idle */
	json_decref(r);
}

/* Three streams (CPUs 0-2) on a file of one page, each 2 jobs of 4 object
 * writes and nothing else: 3 x 2 x 4 = 24 updates of the same page, back
 * to back. */
enum { N3 = 3, M24 = N3 * 2 * 4 };

static void test_kbuild_one_page_writes(gconstpointer variant)
{
	const char *sets[] = {LINE_COSTS,
			      "memcg.page_cgroup.pages=1",
			      "workloads.0.count=3",
			      "workloads.0.jobs=2",
			      "workloads.0.faults_per_job=0",
			      "workloads.0.writes_per_job=4",
			      NULL};
	json_t *r = run_case(KBUILD, variant, sets);
	g_assert_cmpfloat(num(r, "memcg.page_cgroup.updates"), ==, M24);
	if (g_str_equal(variant, "rcu")) {
		/* Nothing serialises them: each stream's 8 updates at 126 ns, in
		 * parallel: elapsed 8 x 126 = 1008, kernel time 3 x 1008. */
		assert_ns(num(r, "metrics.elapsed_ns"), 8 * UPD_RCU_C);
		assert_ns(num(r, "cpu_time_ns.sys"), N3 * 8 * UPD_RCU_C);
		assert_ns(num(r, "cpu_time_ns.spin"), 0);
		g_assert_cmpuint(json_array_size(get(r, "locks")), ==, 0);
		json_decref(r);
		return;
	}
	/* The lock is FIFO and, once all three queue at the start, never idle:
	 * a stream's next arrival (its release, then the irq save I) comes
	 * before the lock frees (2 slots later, I <= 284). So the m-th
	 * acquisition (m = 0..23) is granted at I + 142 m + 27 and released at
	 * I + 142 (m + 1): the last at I + 24 x 142. */
	double irq = g_str_equal(variant, "irqsave") ? IRQSAVE : 0;
	assert_ns(num(r, "metrics.elapsed_ns"), irq + M24 * SLOT_C); /* 3408 / 3428 */
	json_t *l = pc_lock(r);
	g_assert_cmpfloat(num(l, "acquisitions"), ==, M24);
	g_assert_cmpfloat(num(l, "contentions"), ==, M24 - 1); /* all but the first */
	/* Waits (arrival to grant): streams 1 and 2 at the start, 142 + 27 and
	 * 2 x 142 + 27; the 21 later ones from the stream's own release (+ I)
	 * to two slots on plus the handover: 2 x 142 + 27 - I. */
	double wait = (SLOT_C + ACQ_C) + (2 * SLOT_C + ACQ_C) + 21 * (2 * SLOT_C + ACQ_C - irq);
	assert_ns(num(l, "wait_ns.total"), wait); /* 7011 / 6591 */
	assert_ns(num(l, "wait_ns.min"), SLOT_C + ACQ_C);
	assert_ns(num(l, "wait_ns.max"), 2 * SLOT_C + ACQ_C);
	assert_ns(num(l, "hold_ns.total"), M24 * HOLD_C);
	/* A waiter's spin is its wait; the kernel time: the saves, the first
	 * (uncontended) acquisition, the holds: 2787 / 3267. */
	assert_ns(num(r, "cpu_time_ns.spin"), wait);
	assert_ns(num(r, "cpu_time_ns.sys"), M24 * irq + ACQ_C + M24 * HOLD_C);
	/* irqsave: interrupts off from arrival to release: the first's
	 * handover, the others' waits, every hold: 27 + 6591 + 24 x 115 = 9378. */
	assert_ns(num(l, "irqoff_ns"), irq ? ACQ_C + wait + M24 * HOLD_C : 0);
	json_decref(r);
}

/* Four streams on a file of one page, each 2 jobs of 5 header faults and 2
 * object writes: the read faults make the streams drift, so the order is
 * not worked out; what the rules still fix: */
static void test_kbuild_one_page_faults(void)
{
	const char *sets[] = {LINE_COSTS,
			      "memcg.page_cgroup.pages=1",
			      "workloads.0.count=4",
			      "workloads.0.jobs=2",
			      "workloads.0.faults_per_job=5",
			      "workloads.0.writes_per_job=2",
			      NULL};
	json_t *r = run_case(KBUILD, "plain", sets);
	enum { N = 4, JJ = 2, FF = 5, WW = 2, M = N * JJ * (2 * FF + WW) /* 96 */ };
	json_t *l = pc_lock(r);
	/* Every update takes the page's lock: 4 x 2 x (2 x 5 + 2). */
	g_assert_cmpfloat(num(r, "memcg.page_cgroup.updates"), ==, M);
	g_assert_cmpfloat(num(l, "acquisitions"), ==, M);
	g_assert_cmpfloat(pc_site(r, "page_add_file_rmap"), ==, N * JJ * FF);
	g_assert_cmpfloat(pc_site(r, "page_remove_rmap"), ==, N * JJ * FF);
	g_assert_cmpfloat(pc_site(r, "account_page_dirtied"), ==, N * JJ * WW);
	/* All four reach the page after their first read fault, at 1000 ns:
	 * three of them wait. */
	double con = num(l, "contentions");
	g_assert_cmpfloat(con, >=, N - 1);
	/* A stream alone would take T1 = 2 (5 x 1000 + 12 x 142) = 13408. A
	 * contended acquisition's handover (27) is spin, not kernel time: */
	double t1 = JJ * (FF * READ_FAULT + (2 * FF + WW) * SLOT_C);
	double spin = num(r, "cpu_time_ns.spin");
	assert_ns(num(r, "cpu_time_ns.sys"), N * t1 - con * ACQ_C);
	assert_ns(spin, num(l, "wait_ns.total"));
	/* No stream ever idles: each ends at T1 plus its spin less its
	 * contended handovers (spin in place of kernel time), a share of
	 * E = spin - 27 con (each part >= 0); the run with the largest, between
	 * a quarter of E and all of it. And the lock, busy 142 ns an
	 * acquisition one at a time, for 96 x 142 = 13632 ns at least. */
	double elapsed = num(r, "metrics.elapsed_ns"), extra = spin - con * ACQ_C;
	g_assert_cmpfloat(elapsed, >=, t1 + extra / N - 5e-4);
	g_assert_cmpfloat(elapsed, <=, t1 + extra + 5e-4);
	g_assert_cmpfloat(elapsed, >=, M * SLOT_C - 5e-4);
	g_assert_cmpfloat(books(r, "pc_file_mapped"), ==, 0); /* every mapping undone */
	json_decref(r);
}

/* --- filewrite ----------------------------------------------------------- */

/* The fixture as it is: 1 MiB (256 pages) into a file of 4096 (no wrap),
 * the flusher sending each 100 to writeback once written (clear dirty, set
 * writeback: two updates a page): 2 batches, 56 pages left dirty. */
enum { PAGES = 256, BATCH = 100, SENT = PAGES / BATCH * BATCH /* 200 */ };
enum { FW_UPDATES = PAGES + 2 * SENT /* 656 */ };

static void test_filewrite_one_writer(gconstpointer variant)
{
	bool rcu = g_str_equal(variant, "rcu"), irqsave = g_str_equal(variant, "irqsave");
	double upd = rcu ? UPD_RCU : irqsave ? UPD_IRQSAVE : UPD_PLAIN;
	json_t *r = run_case(FILEWRITE, variant, (const char *[]){NULL});
	/* 256 x 500 + 656 x the update: plain 218528, irqsave 231648, rcu
	 * 208032; one CPU, all kernel time. */
	double sys = PAGES * WRITE_PAGE + FW_UPDATES * upd;
	assert_ns(num(r, "metrics.elapsed_ns"), sys);
	assert_ns(num(r, "cpu_time_ns.sys"), sys);
	assert_ns(num(r, "cpu_time_ns.spin"), 0);
	g_assert_cmpfloat(num(r, "memcg.page_cgroup.updates"), ==, FW_UPDATES);
	g_assert_cmpfloat(num(r, "memcg.page_cgroup.lockless"), ==, rcu ? FW_UPDATES : 0);
	if (!rcu) {
		json_t *l = pc_lock(r);
		g_assert_cmpfloat(num(l, "acquisitions"), ==, FW_UPDATES);
		g_assert_cmpfloat(num(l, "contentions"), ==, 0);
		assert_ns(num(l, "irqoff_ns"), irqsave ? FW_UPDATES * (ACQ + HOLD) : 0);
		g_assert_cmpfloat(pc_site(r, "account_page_dirtied"), ==, PAGES);
		g_assert_cmpfloat(pc_site(r, "clear_page_dirty_for_io"), ==, SENT);
		g_assert_cmpfloat(pc_site(r, "set_page_writeback"), ==, SENT);
		/* No LLC size: nothing is evicted, every access a hit. */
		g_assert_cmpfloat(num(line_class(r, "struct page_cgroup"), "ops.rmw.hit"), ==,
				  2 * FW_UPDATES);
	}
	/* The last 56 pages stay dirty; the 200 sent stay under writeback (no
	 * completion interrupt), all in the queue. */
	g_assert_cmpfloat(books(r, "pc_file_dirty"), ==, PAGES - SENT);
	g_assert_cmpfloat(books(r, "pc_writeback"), ==, SENT);
	g_assert_cmpfloat(books(r, "pc_writeback_queued"), ==, SENT);
	g_assert_cmpfloat(books(r, "pc_file_mapped"), ==, 0);
	json_decref(r);
}

/* The written data streams through the LLC (line_stream, a page each): with
 * an LLC of 0.001 MiB (1048 bytes, less than a page) a page_cgroup line is
 * evicted whenever a page is written between two of its accesses. 0.5 MiB,
 * batches of 64: 2 batches of 64 pages whose 40-byte page_cgroups fill
 * exactly 40 lines each (64 x 40 = 40 x 64), never shared between batches.
 * In a batch, while dirtying: a line's first page finds it fresh (a hit),
 * each of the other 64 - 40 = 24 pages finds it evicted by its own write
 * (memory: its lock's RMW; the flag's RMW after it hits). While sending the
 * batch to writeback (no write in between): the first access to each line
 * misses unless nothing was written since its last access, which is the
 * last line only (the batch's last page): 39 misses. 2 x (24 + 39) = 126
 * of the 2 x 64 x 6 = 768 accesses come from memory. */
static void test_filewrite_llc_eviction(void)
{
	const char *sets[] = {"machine.llc_mb=0.001", "workloads.0.size_mb=0.5",
			      "workloads.0.writeback_batch=64", NULL};
	json_t *r = run_case(FILEWRITE, "plain", sets);
	enum { P = 128, DRAM_ACCESSES = 2 * (24 + 39), UPDATES = P + 2 * P };
	json_t *pc = line_class(r, "struct page_cgroup");
	g_assert_cmpfloat(num(pc, "accesses"), ==, 2 * UPDATES);
	g_assert_cmpfloat(num(pc, "ops.rmw.dram"), ==, DRAM_ACCESSES);
	g_assert_cmpfloat(num(pc, "ops.rmw.hit"), ==, 2 * UPDATES - DRAM_ACCESSES);
	/* the dirtying misses are lock RMWs at account_page_dirtied, the
	 * writeback ones at clear_page_dirty_for_io (the first of a page's
	 * two updates); none while holding */
	json_t *s;
	size_t i;
	json_array_foreach (get(pc, "sites"), i, s) {
		const char *site = json_string_value(get(s, "site"));
		double expect = g_str_equal(site, "account_page_dirtied")      ? 2 * 24
				: g_str_equal(site, "clear_page_dirty_for_io") ? 2 * 39
									       : 0;
		g_assert_cmpfloat(num(s, "ops.rmw.dram"), ==, expect);
	}
	/* Each miss costs dram_local_ns in place of line_same_cpu_ns:
	 * 128 x 500 + 384 x 138 + 126 x (90 - 3) = 127954. */
	double sys = P * WRITE_PAGE + UPDATES * UPD_PLAIN + DRAM_ACCESSES * (DRAM - SAME_CPU);
	assert_ns(num(r, "metrics.elapsed_ns"), sys);
	assert_ns(num(r, "cpu_time_ns.sys"), sys);
	json_decref(r);
}

/* The writeback-completion interrupt "disk", periodic at @hz on the
 * writer's CPU 0 (no skew: the first a full period in), handler 2000 ns.
 * RCU takes the first periodic source as its tick, so an idle one comes
 * first (1 Hz, on CPU 3: its first tick is due at 1 s) unless @alone. */
static char *disk_irq(int hz, bool alone)
{
	return g_strdup_printf("machine.interrupts=[%s{\"type\":\"periodic\",\"name\":\"disk\","
			       "\"hz\":%d,\"handler_ns\":2000,\"cpus\":[0]}]",
			       alone ? ""
				     : "{\"type\":\"periodic\",\"name\":\"tick\",\"hz\":1,"
				       "\"handler_ns\":0,\"cpus\":[3]},",
			       hz);
}

#define HANDLER 2000
/* The writer alone under irqsave: 256 x 500 + 656 x 158. */
#define T0_IRQSAVE (PAGES * WRITE_PAGE + FW_UPDATES * UPD_IRQSAVE) /* 231648 */

/* At 10 kHz: ticks at 100 and 200 us. Each completes the oldest page under
 * writeback: the handler's 2000 ns (irq) and one irqsave update (158 ns,
 * kernel time), both on the writer's CPU, busy from 0 to the end, so each
 * lengthens the run: 231648 + 2 x 2158 = 235964 < 300 us, no third. The
 * first page is queued at 100 x 658 + 2 x 158 = 66116 ns, before the first
 * tick: both complete queued pages. */
static void test_filewrite_writeback_irq(void)
{
	char *irq = disk_irq(10000, false);
	const char *sets[] = {irq, "memcg.page_cgroup.writeback_irq=\"disk\"", NULL};
	json_t *r = run_case(FILEWRITE, "irqsave", sets);
	g_free(irq);
	enum { N = 2 };
	g_assert_cmpfloat(num(r, "interrupts.sources.1.count"), ==, N);
	g_assert_cmpstr(json_string_value(get(r, "interrupts.sources.1.name")), ==, "disk");
	assert_ns(num(r, "metrics.elapsed_ns"), T0_IRQSAVE + N * (HANDLER + UPD_IRQSAVE));
	assert_ns(num(r, "cpu_time_ns.irq"), N * HANDLER);
	assert_ns(num(r, "cpu_time_ns.sys"), T0_IRQSAVE + N * UPD_IRQSAVE);
	g_assert_cmpfloat(num(r, "memcg.page_cgroup.updates"), ==, FW_UPDATES + N);
	g_assert_cmpfloat(num(pc_lock(r), "acquisitions"), ==, FW_UPDATES + N);
	g_assert_cmpfloat(pc_site(r, "test_clear_page_writeback"), ==, N);
	g_assert_cmpfloat(books(r, "pc_writeback"), ==, SENT - N);
	g_assert_cmpfloat(books(r, "pc_writeback_queued"), ==, SENT - N);
	g_assert_cmpfloat(books(r, "pc_file_dirty"), ==, PAGES - SENT);
	json_decref(r);
}

/* A fault page_cgroup_setup had (models/mm/page_cgroup_file.c, fixed on
 * 2026-12-01): the writeback_irq source got writeback_end_io as its action,
 * then rcu_init() gave the first periodic source rcu_tick, overwriting it
 * when that source was the writeback one, so a periodic "disk" alone never
 * completed a page. Asserted here: its two ticks complete two pages, as in
 * the case above (the faulty model gave 656 updates and 200 queued). */
static void test_filewrite_periodic_irq_alone(void)
{
	g_test_set_nonfatal_assertions(); /* report every wrong figure, run the other case */
	char *irq = disk_irq(10000, true);
	const char *sets[] = {irq, "memcg.page_cgroup.writeback_irq=\"disk\"", NULL};
	json_t *r = run_case(FILEWRITE, "irqsave", sets);
	g_free(irq);
	g_assert_cmpfloat(num(r, "interrupts.sources.0.count"), ==, 2);
	g_assert_cmpfloat(num(r, "memcg.page_cgroup.updates"), ==, FW_UPDATES + 2); /* bug: 656 */
	g_assert_cmpfloat(books(r, "pc_writeback"), ==, SENT - 2); /* faulty: 200 */
	json_decref(r);
}

/* A fault writeback_end_io had (models/mm/page_cgroup_file.c, fixed on
 * 2026-12-01): its comment said a completion takes a random page only "with
 * no writer in the scenario", but the code did so whenever the queue was
 * empty, so a completion that came before the writer's first batch
 * decremented WRITEBACK for a page not under writeback. At 20 kHz: ticks at 50, 100, 150 and 200 us
 * (231648 + 4 x 2158 = 240280 < 250 us); the first page is queued at 66116 + 2158 = 68274 ns, after
 * the first tick. The three later ticks complete pages 0-2: 197 stay queued, and WRITEBACK must
 * count exactly those (the faulty model gave 196). */
static void test_filewrite_empty_queue_irq(void)
{
	g_test_set_nonfatal_assertions(); /* report every wrong figure, run the other case */
	char *irq = disk_irq(20000, false);
	const char *sets[] = {irq, "memcg.page_cgroup.writeback_irq=\"disk\"", NULL};
	json_t *r = run_case(FILEWRITE, "irqsave", sets);
	g_free(irq);
	g_assert_cmpfloat(num(r, "interrupts.sources.1.count"), ==, 4);
	g_assert_cmpfloat(books(r, "pc_writeback_queued"), ==, SENT - 3);
	g_assert_cmpfloat(books(r, "pc_writeback"), ==, SENT - 3); /* faulty: SENT - 4 */
	json_decref(r);
}

/* Two writers (CPUs 0 and 1) into the same file, plain: both dirty page 0
 * at 500 ns, so one waits; after that who meets whom depends on ties. */
static void test_filewrite_two_writers(void)
{
	const char *sets[] = {LINE_COSTS,
			      "workloads=[{\"type\":\"filewrite\",\"size_mb\":1,"
			      "\"write_page_ns\":500,\"writeback_batch\":100,\"cpu\":0},"
			      "{\"type\":\"filewrite\",\"size_mb\":1,"
			      "\"write_page_ns\":500,\"writeback_batch\":100,\"cpu\":1}]",
			      NULL};
	json_t *r = run_case(FILEWRITE, "plain", sets);
	json_t *l = pc_lock(r);
	/* Each writer's 656 updates, every one under the page's lock. */
	g_assert_cmpfloat(num(r, "memcg.page_cgroup.updates"), ==, 2 * FW_UPDATES);
	g_assert_cmpfloat(num(l, "acquisitions"), ==, 2 * FW_UPDATES);
	g_assert_cmpfloat(pc_site(r, "account_page_dirtied"), ==, 2 * PAGES);
	g_assert_cmpfloat(pc_site(r, "set_page_writeback"), ==, 2 * SENT);
	double con = num(l, "contentions");
	g_assert_cmpfloat(con, >=, 1);
	/* A writer alone: T1 = 256 x 500 + 656 x 142 = 221152. Kernel time:
	 * both T1s but the handovers of the contended acquisitions (spin).
	 * Neither writer idles: each ends at T1 plus its spin less its
	 * handovers, its share of E = spin - 27 con; the run with the larger,
	 * between half of E and all of it. */
	double t1 = PAGES * WRITE_PAGE + FW_UPDATES * SLOT_C;
	double spin = num(r, "cpu_time_ns.spin");
	assert_ns(num(r, "cpu_time_ns.sys"), 2 * t1 - con * ACQ_C);
	assert_ns(spin, num(l, "wait_ns.total"));
	double elapsed = num(r, "metrics.elapsed_ns"), extra = spin - con * ACQ_C;
	g_assert_cmpfloat(elapsed, >=, t1 + extra / 2 - 5e-4);
	g_assert_cmpfloat(elapsed, <=, t1 + extra + 5e-4);
	json_decref(r);
}

/* --- the same scenario and seed, the same bytes -------------------------- */

static char *cli_json(const char *fixture, const char *const *extra)
{
	GPtrArray *args = g_ptr_array_new();
	const char *base[] = {"run", fixture, "--format", "json",      "-q",
			      "-j",  "2",     "--set",	  "replicas=2"};
	for (size_t i = 0; i < G_N_ELEMENTS(base); i++)
		g_ptr_array_add(args, (gpointer)base[i]);
	for (; *extra; extra++)
		g_ptr_array_add(args, (gpointer)*extra);
	g_ptr_array_add(args, NULL);
	char *out = NULL, *err = NULL;
	g_assert_cmpint(mcs_cli((const char *const *)args->pdata, &out, &err), ==, 0);
	g_assert_cmpstr(err, ==, ""); /* mcs_cli leaves out the sanitizer's warning */
	g_free(err);
	g_ptr_array_free(args, TRUE);
	return out;
}

/* Twice with one seed: the same bytes; with another seed, other bytes (the
 * runs draw: compile times, interrupt arrivals), so the first comparison
 * could have failed. */
static void assert_same_bytes(const char *fixture, const char *const *sets)
{
	GPtrArray *args = g_ptr_array_new();
	for (; *sets; sets++)
		g_ptr_array_add(args, (gpointer)*sets);
	g_ptr_array_add(args, NULL);
	char *a = cli_json(fixture, (const char *const *)args->pdata);
	char *b = cli_json(fixture, (const char *const *)args->pdata);
	g_ptr_array_remove_index(args, args->len - 1);
	g_ptr_array_add(args, "--seed");
	g_ptr_array_add(args, "2");
	g_ptr_array_add(args, NULL);
	char *c = cli_json(fixture, (const char *const *)args->pdata);
	g_assert_cmpuint(strlen(a), >, 0);
	g_assert_cmpstr(a, ==, b);
	g_assert_cmpstr(a, !=, c);
	g_free(a);
	g_free(b);
	g_free(c);
	g_ptr_array_free(args, TRUE);
}

static void test_kbuild_same_bytes(void)
{
	/* four streams with compile time on a file of 64 pages (contended):
	 * every variant, two replicas */
	assert_same_bytes(KBUILD, (const char *[]){"--set", "workloads.0.count=4", "--set",
						   "workloads.0.compile_ns=1e5", "--set",
						   "memcg.page_cgroup.pages=64", NULL});
}

static void test_filewrite_same_bytes(void)
{
	/* completions from a Poisson disk on the writer's CPU */
	assert_same_bytes(
	    FILEWRITE,
	    (const char *[]){"--variant", "irqsave", "--set",
			     "machine.interrupts=[{\"type\":\"poisson\",\"name\":\"disk\","
			     "\"rate_per_s\":200000,\"handler_ns\":2000,\"cpus\":[0]}]",
			     "--set", "memcg.page_cgroup.writeback_irq=\"disk\"", NULL});
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	static const char *const variants[] = {"plain", "irqsave", "rcu"};
	for (size_t i = 0; i < G_N_ELEMENTS(variants); i++) {
		char *p = g_strdup_printf("/workloads/kbuild/one-stream/%s", variants[i]);
		g_test_add_data_func(p, variants[i], test_kbuild_one_stream);
		g_free(p);
		p = g_strdup_printf("/workloads/kbuild/one-page-writes/%s", variants[i]);
		g_test_add_data_func(p, variants[i], test_kbuild_one_page_writes);
		g_free(p);
		p = g_strdup_printf("/workloads/filewrite/one-writer/%s", variants[i]);
		g_test_add_data_func(p, variants[i], test_filewrite_one_writer);
		g_free(p);
	}
	g_test_add_func("/workloads/kbuild/one-stream/compile-time", test_kbuild_compile_time);
	g_test_add_func("/workloads/kbuild/one-page-faults/bounds", test_kbuild_one_page_faults);
	g_test_add_func("/workloads/kbuild/same-seed-same-bytes", test_kbuild_same_bytes);
	g_test_add_func("/workloads/filewrite/llc-eviction", test_filewrite_llc_eviction);
	g_test_add_func("/workloads/filewrite/writeback-irq/periodic",
			test_filewrite_writeback_irq);
	g_test_add_func("/workloads/filewrite/two-writers/bounds", test_filewrite_two_writers);
	g_test_add_func("/workloads/filewrite/same-seed-same-bytes", test_filewrite_same_bytes);
	/* The two faults of the completion interrupt, fixed on 2026-12-01. */
	g_test_add_func("/workloads/filewrite/writeback-irq/periodic-alone",
			test_filewrite_periodic_irq_alone);
	g_test_add_func("/workloads/filewrite/writeback-irq/before-first-batch",
			test_filewrite_empty_queue_irq);
	return g_test_run();
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* machine.contention "queued" against hand-computed values: N CPUs on one
 * line give the line's service-time throughput (with the depth and the
 * domain rounds), a store to a line k cores share pays the k - 1 further
 * invalidations, and a qspinlock hand-over moves exactly the lines of the
 * kernel's slow path.
 *
 * The test machine: 2 sockets (nodes) of 4 CPUs, one thread a core, one LLC
 * a socket. Costs: hit 0, LLC 40, remote 150, locked RMW 5, lock and unlock
 * 10, preempt 0; queued service 20 ns from the LLC (and as the queue
 * deepens, unless a test says), 60 ns to another socket; 7 ns a further
 * invalidation. */
#include "cacheline.h"
#include "insn.h"
#include "runner.h"
#include "scenario.h"
#include "sim_rng.h"
#include "spinlock.h"
#include "test_util.h"
#include <math.h>
#include <string.h>

static struct sim_machine queued_machine(void)
{
	struct sim_machine m = mcs_test_machine(2, 4);
	m.threads_per_core = 1;
	m.cores_per_llc = 4;
	m.nodes_per_socket = 1;
	m.contention = SIM_CONTENTION_QUEUED;
	m.cost[COST_LINE_SAME_CPU] = 0;
	m.cost[COST_LINE_LLC] = 40 * SIM_NS;
	m.cost[COST_LINE_SOCKET] = 40 * SIM_NS;
	m.cost[COST_LINE_REMOTE] = 150 * SIM_NS;
	m.cost[COST_LOCKED_RMW] = 5 * SIM_NS;
	m.cost[COST_LOCK_ACQ_REL] = 10 * SIM_NS;
	m.cost[COST_PREEMPT] = 0;
	m.cost[COST_LINE_QUEUE_LLC] = 20 * SIM_NS;
	m.cost[COST_LINE_QUEUE_DEEP] = 20 * SIM_NS;
	m.cost[COST_LINE_QUEUE_SOCKET] = 20 * SIM_NS;
	m.cost[COST_LINE_QUEUE_REMOTE] = 60 * SIM_NS;
	m.cost[COST_LINE_INVAL] = 7 * SIM_NS;
	return m;
}

static struct cacheline counter;
static int increments;
static sim_time_t done[4096]; /* when each increment ended, in order */
static int ndone;

static void incrementer(struct sim_task *t, void *arg)
{
	(void)arg;
	for (int i = 0; i < increments; i++) {
		line_atomic(t, &counter, SIM_CAT_SYS, "atomic_inc");
		done[ndone++] = sim_task_clock(t);
	}
}

/* @n CPUs (@cpus) incrementing @k times each: the run's end. */
static sim_time_t atomic_run(struct sim_machine *m, const int *cpus, int n, int k)
{
	sim_engine_init(m, 0, SIM_S, 1);
	line_init(&counter, line_class_get("counter"), 0);
	increments = k;
	for (int i = 0; i < n; i++)
		sim_task_create("inc", cpus[i], incrementer, NULL);
	g_assert_true(sim_engine_run());
	sim_time_t end = sim_end();
	line_class_reset_all();
	sim_engine_fini();
	return end;
}

/* The time between increments once every CPU waits at the line: over the
 * second half of 100 increments a CPU (one simulation a process). */
static sim_time_t steady_interval(struct sim_machine *m, const int *cpus, int n)
{
	ndone = 0;
	atomic_run(m, cpus, n, 100);
	g_assert_cmpint(ndone, ==, 100 * n);
	sim_time_t d = done[100 * n - 1] - done[50 * n - 1];
	g_assert_cmpint(d % (50 * n), ==, 0);
	return d / (50 * n);
}

/* Four CPUs of one socket, 100 increments each, exactly: CPU 0's first
 * finds the line fresh (5 ns); CPU 1's, at 0, the line idle in CPU 0's
 * cache (40 + 5: it ends at 45); every later one waits for the line and
 * is served in 20 + 5, one after the other: the last ends at
 * 45 + 398 x 25 = 9,995 ns. */
static void test_service(void)
{
	struct sim_machine m = queued_machine();
	static const int one_socket[] = {0, 1, 2, 3};
	g_assert_cmpint(steady_interval(&m, one_socket, 4), ==, 25 * SIM_NS);
	g_assert_cmpint(done[399], ==, 9995 * SIM_NS);
}

/* The queue's depth: with line_queue_deep_ns 10, a service with d requests
 * pending takes 20 x (0.5 + 0.5 x 2 / d): four CPUs, d = 4, 15 ns + 5. */
static const int four[] = {0, 1, 2, 3};

static void test_depth4(void)
{
	struct sim_machine m = queued_machine();
	m.cost[COST_LINE_QUEUE_DEEP] = 10 * SIM_NS;
	g_assert_cmpint(steady_interval(&m, four, 4), ==, 20 * SIM_NS);
}

static void test_depth2(void) /* d = 2: 20 + 5 */
{
	struct sim_machine m = queued_machine();
	m.cost[COST_LINE_QUEUE_DEEP] = 10 * SIM_NS;
	g_assert_cmpint(steady_interval(&m, four, 2), ==, 25 * SIM_NS);
}

/* Two sockets: the line moves between them once a round of the pending
 * requests. One CPU each: every service is a move, 60 + 5. Two each:
 * d = 4, moves 2 / 4, 20 + (60 - 20) / 2 + 5 = 45. */
static void test_sockets1(void)
{
	struct sim_machine m = queued_machine();
	static const int one_each[] = {0, 4};
	g_assert_cmpint(steady_interval(&m, one_each, 2), ==, 65 * SIM_NS);
}

static void test_sockets2(void)
{
	struct sim_machine m = queued_machine();
	static const int two_each[] = {0, 4, 1, 5};
	g_assert_cmpint(steady_interval(&m, two_each, 4), ==, 45 * SIM_NS);
}

/* CPUs 1..k read a line CPU 0 wrote, far apart in time (no queueing);
 * CPU 0's store then invalidates k copies: the farthest costs its
 * transfer, each further one 7 ns at its own distance over the LLC's. */
static sim_time_t store_to_shared(const int *readers, int k)
{
	struct cacheline l;
	line_init(&l, line_class_get("shared"), 0);
	g_assert_cmpint(line_access_at(0, &l, LINE_STORE, "init", 0, NULL), ==, 0);
	for (int i = 0; i < k; i++)
		line_access_at(readers[i], &l, LINE_LOAD, "read", (i + 1) * SIM_US, NULL);
	sim_time_t wait = -1;
	sim_time_t c = line_access_at(0, &l, LINE_STORE, "write", SIM_MS, &wait);
	g_assert_cmpint(wait, ==, 0);
	return c;
}

static void test_invalidations(void)
{
	struct sim_machine m = queued_machine();
	sim_engine_init(&m, 0, SIM_S, 1);
	static const int local[] = {1, 2, 3}, mixed[] = {1, 2, 4};
	g_assert_cmpint(store_to_shared(local, 1), ==, 40 * SIM_NS);
	g_assert_cmpint(store_to_shared(local, 2), ==, 47 * SIM_NS);
	g_assert_cmpint(store_to_shared(local, 3), ==, 54 * SIM_NS);
	/* a copy in the other socket costs its transfer, 150; the two local
	 * ones 7 each */
	g_assert_cmpint(store_to_shared(mixed, 3), ==, 164 * SIM_NS);
	/* two in the other socket: the farthest 150, the other 7 x 150 / 40 */
	static const int far[] = {1, 4, 5};
	g_assert_cmpint(store_to_shared(far, 3), ==, 150 * SIM_NS + 7 * SIM_NS + 26250);
	line_class_reset_all();
	sim_engine_fini();
}

/* The qspinlock slow path. A (CPU 0) holds the lock from 0 to 1000 ns;
 * B (CPU 1) arrives at 100 and takes the pending bit; C (CPU 2) at 200,
 * first in the MCS queue, spins on the word; D (CPU 3) at 300 queues
 * behind C's node. Each holds 1000 ns. */
static struct spinlock lock;
static sim_time_t grants[4];

static void holder(struct sim_task *t, void *arg)
{
	int i = GPOINTER_TO_INT(arg);
	sim_task_charge(t, SIM_CAT_USER, i * 100 * SIM_NS);
	struct spin_entry *e = spin_lock(t, &lock, SPIN_PLAIN, "holder");
	grants[i] = sim_task_clock(t);
	sim_task_charge(t, SIM_CAT_SYS, 1000 * SIM_NS);
	spin_unlock(t, &lock, e);
}

static const struct line_site *site_of(const struct line_class *c, const char *name)
{
	const struct line_site *s = g_hash_table_lookup(c->sites, name);
	g_assert_nonnull(s);
	return s;
}

static void test_qspinlock_handover(void)
{
	struct sim_machine m = queued_machine();
	sim_engine_init(&m, 0, SIM_S, 1);
	spin_lock_init(&lock, lock_class_get("&test->lock"));
	for (int i = 0; i < 4; i++)
		sim_task_create("holder", i, holder, GINT_TO_POINTER(i));
	g_assert_true(sim_engine_run());
	const struct line_class *word = lock.line->cls;
	/* A: the fast path's cmpxchg on a fresh line (5) and the pair: 15 */
	g_assert_cmpint(grants[0], ==, 15 * SIM_NS);
	/* B at A's release, 1015: A's unlock store fetches the word from D
	 * (its xchg_tail was last: 40, the line busy to 1055); B's read waits
	 * for it (40) and is served in 20 (d = 2); B's store of the locked
	 * byte invalidates A's copy (40); then the pair: 1015 + 60 + 40 + 10 */
	g_assert_cmpint(grants[1], ==, 1125 * SIM_NS);
	g_assert_cmpint(site_of(word, "queued_fetch_set_pending_acquire")->n.ops[LINE_RMW], ==, 1);
	g_assert_cmpint(site_of(word, "xchg_tail")->n.ops[LINE_RMW], ==, 2);
	/* three hand-overs (D's release finds nobody: no line moves) */
	g_assert_cmpint(site_of(word, "queued_spin_unlock")->n.ops[LINE_STORE], ==, 3);
	g_assert_cmpint(site_of(word, "set_locked")->n.ops[LINE_STORE], ==, 3);
	/* reads of the word: C's on arrival (the MCS head at once), D's once
	 * it is the head, and B's, C's and D's at their predecessor's release */
	g_assert_cmpint(site_of(word, "atomic_cond_read_acquire")->n.ops[LINE_LOAD], ==, 5);
	/* D's node: C links it, D's spin reads it */
	const struct line_class *nodes = line_class_get("qnodes (struct qnode)");
	g_assert_cmpint(site_of(nodes, "prev->next")->n.ops[LINE_STORE], ==, 1);
	g_assert_cmpint(site_of(nodes, "arch_mcs_spin_unlock_contended")->n.ops[LINE_STORE], ==, 1);
	g_assert_cmpint(site_of(nodes, "arch_mcs_spin_lock_contended")->n.ops[LINE_LOAD], ==, 1);
	g_assert_cmpint(line_class_counts(nodes).accesses, ==,
			4); /* and D's node's initialisation */
	/* lock_stat's hand-overs: three. B's, 1015 -> 1125: 110. C's at B's
	 * release: B's unlock store hits (B has the word modified), C reads it
	 * from B (40), its store of the locked byte invalidates B's copy (40),
	 * the pair (10): 90; D's the same: 290 in all */
	g_assert_cmpint(lock.cls->handovers, ==, 3);
	g_assert_cmpint(lock.cls->handover_total, ==, 290 * SIM_NS);
	g_assert_cmpint(lock.cls->hold_lines, ==, 0); /* the sections touch no line */
	spin_lock_destroy(&lock);
	spinlock_use(NULL);
	line_class_reset_all();
	sim_engine_fini();
}

/* machine.smt_spin_throughput: a spinning sibling's share of the core. One
 * node of 4 CPUs, 2 threads a core (CPU c and c + 2 share a core); a working
 * sibling costs nothing (smt_throughput 2), a spinning one halves the speed
 * (smt_spin_throughput 1). Z (CPU 0, its sibling idle) takes the lock at 0
 * and holds it 1000 ns; X (CPU 1) comes at 10 ns and spins behind Z; Y
 * (CPU 3, X's sibling) comes at 20 ns and spins behind X. X's hold is
 * charged at X's arrival, when Y runs (working): 1000. Y's is charged at
 * Y's arrival, when X spins: 1000 x 2 / (1 + (1 - 1)) = 2000. */
static sim_time_t spin_arrive[4];

static void smt_holder(struct sim_task *t, void *arg)
{
	int cpu = GPOINTER_TO_INT(arg);
	if (spin_arrive[cpu])
		sim_task_run(t, SIM_CAT_USER, spin_arrive[cpu]);
	spin_lock_hold(t, &lock, 1000 * SIM_NS, SIM_CAT_SYS, SPIN_PLAIN, "smt");
}

static sim_time_t spin_sibling_holds(double f_spin, sim_time_t *max)
{
	struct sim_machine m = queued_machine();
	m.nodes = 1;
	m.cpus_per_node = 4;
	m.threads_per_core = 2;
	m.cores_per_llc = 2;
	m.smt_throughput = 2;
	m.smt_spin_throughput = f_spin;
	sim_engine_init(&m, 0, SIM_S, 1);
	spin_lock_init(&lock, lock_class_get("&smt->lock"));
	spin_arrive[0] = 0;
	spin_arrive[1] = 10 * SIM_NS;
	spin_arrive[3] = 20 * SIM_NS;
	for (int cpu = 0; cpu < 4; cpu++)
		if (cpu != 2)
			sim_task_create("holder", cpu, smt_holder, GINT_TO_POINTER(cpu));
	g_assert_true(sim_engine_run());
	g_assert_cmpint(lock.cls->acquisitions, ==, 3);
	sim_time_t total = lock.cls->hold_total;
	*max = lock.cls->hold_max;
	spin_lock_destroy(&lock);
	line_class_reset_all();
	sim_engine_fini();
	return total;
}

static void test_smt_spinning_sibling(void)
{
	sim_time_t max;
	g_assert_cmpint(spin_sibling_holds(1, &max), ==, 4000 * SIM_NS);
	g_assert_cmpint(max, ==, 2000 * SIM_NS);
}

/* smt_spin_throughput 0: as smt_throughput, no sharing: every hold 1000 */
static void test_smt_spinning_default(void)
{
	sim_time_t max;
	g_assert_cmpint(spin_sibling_holds(0, &max), ==, 3000 * SIM_NS);
	g_assert_cmpint(max, ==, 1000 * SIM_NS);
}

/* lockbench's start_ns: one CPU, one acquisition; the run ends later by
 * exactly the task's start delay, uniform01 x start_ns from its own stream
 * "lockbench.0.0.start" of the run's seed. */
static double lockbench_end(double start_ns)
{
	char *text = g_strdup_printf(
	    "{\"name\": \"t\", \"seed\": 7, \"machine\": {\"nodes\": 1, \"cpus_per_node\": 2, "
	    "\"contention\": \"queued\"},"
	    "\"workloads\": [{\"type\": \"lockbench\", \"cpus\": 1, \"think_ns\": 0, "
	    "\"think_dist\": \"const\", \"hold_ns\": 100, \"hold_dist\": \"const\", "
	    "\"iterations\": 1, \"start_ns\": %g}], \"stop\": {\"type\": \"completion\"}}",
	    start_ns);
	GError *err = NULL;
	struct scenario *sc = scenario_load("t", text, strlen(text), NULL, &err);
	g_assert_no_error(err);
	bool violation;
	json_t *r = runner_run_one(scenario_variant_find(sc, "base")->config, 7, &violation, &err);
	g_assert_no_error(err);
	double end = json_number_value(json_object_get(r, "sim_time_ns"));
	json_decref(r);
	scenario_free(sc);
	g_free(text);
	return end;
}

static void test_lockbench_start(void)
{
	struct sim_rng *rng = sim_rng_new(7, "lockbench.0.0.start");
	double delay = (double)(sim_time_t)(sim_rng_uniform01(rng) * 5000 * SIM_NS) / SIM_NS;
	sim_rng_free(rng);
	g_assert_cmpfloat(delay, >, 0);
	g_assert_cmpfloat(delay, <, 5000);
	g_assert_cmpfloat(fabs(lockbench_end(5000) - lockbench_end(0) - delay), <, 1e-9);
}

/* kernel.critical_section_extra: lockbench's 100 ns hold, 4 CPUs, 20 us,
 * with @extra added (JSON) under @contention: lock_stat's mean hold. */
static double hold_with(const char *extra, const char *contention)
{
	char *text = g_strdup_printf(
	    "{\"name\": \"t\", \"machine\": {\"nodes\": 1, \"cpus_per_node\": 4, "
	    "\"contention\": \"%s\"}, \"kernel\": {\"critical_section_extra\": %s},"
	    "\"workloads\": [{\"type\": \"lockbench\", \"cpus\": 4, \"think_ns\": 900, "
	    "\"think_dist\": \"const\", \"hold_ns\": 100, \"hold_dist\": \"const\"}],"
	    "\"stop\": {\"type\": \"duration\", \"duration_ns\": 20000}}",
	    contention, extra);
	GError *err = NULL;
	struct scenario *sc = scenario_load("t", text, strlen(text), NULL, &err);
	g_assert_no_error(err);
	bool violation;
	json_t *r = runner_run_one(scenario_variant_find(sc, "base")->config, 1, &violation, &err);
	g_assert_no_error(err);
	json_t *lk = json_array_get(json_object_get(r, "locks"), 0);
	g_assert_cmpstr(json_string_value(json_object_get(lk, "class")), ==, "&lb->lock");
	json_t *hold = json_object_get(lk, "hold_ns");
	g_assert_cmpfloat(json_number_value(json_object_get(hold, "min")), ==,
			  json_number_value(json_object_get(hold, "max")));
	double avg = json_number_value(json_object_get(hold, "avg"));
	json_decref(r);
	scenario_free(sc);
	g_free(text);
	return avg;
}

/* Every section's hold grows by exactly what is added: 50 ns, or 105 cycles
 * at the default 2.1 GHz (50 ns); at another site, nothing. Each section's
 * own hold is the constant 100 ns (no data lines), so min = max. */
static void test_added_hold(void)
{
	for (int q = 0; q < 2; q++) {
		const char *c = q ? "queued" : "idle";
		g_assert_cmpfloat(hold_with("[]", c), ==, 100);
		g_assert_cmpfloat(hold_with("[{\"lock\": \"&lb->lock\", \"ns\": 50}]", c), ==, 150);
		g_assert_cmpfloat(hold_with("[{\"lock\": \"&lb->lock\", \"cycles\": 105, "
					    "\"site\": \"lockbench_critical_section\"}]",
					    c),
				  ==, 150);
		g_assert_cmpfloat(
		    hold_with("[{\"lock\": \"&lb->lock\", \"ns\": 50, \"site\": \"elsewhere\"}]",
			      c),
		    ==, 100);
		g_assert_cmpfloat(hold_with("[{\"lock\": \"&other\", \"ns\": 50}]", c), ==, 100);
	}
}

/* A step's instructions at the machine's CPI and clock: xa_load's 74 at
 * CPI 0.5 and 2 GHz, 18.5 ns; nothing under "idle". */
static sim_time_t xa_load_cost(enum sim_contention c)
{
	struct sim_machine m = queued_machine();
	m.contention = c;
	m.clock_ghz = 2;
	m.cpi = 0.5;
	m.insns[INSN_XA_LOAD] = 74;
	sim_engine_init(&m, 0, SIM_S, 1);
	g_assert_cmpint(insn_cost(INSN_LIST_LRU_ADD), ==, 0); /* its count left at 0 here */
	sim_time_t d = insn_cost(INSN_XA_LOAD);
	sim_engine_fini();
	return d;
}

static void test_insn_queued(void)
{
	g_assert_cmpint(xa_load_cost(SIM_CONTENTION_QUEUED), ==, 18500);
}

static void test_insn_idle(void)
{
	g_assert_cmpint(xa_load_cost(SIM_CONTENTION_IDLE), ==, 0);
}

/* scenarios/validation/atomic_counter.json against the published curves
 * (shared/brief/contention-data.md 1a and 3; docs/validation.md): each
 * point from 2 threads on within 25% of the measured ns per increment,
 * machine-wide. */
static double counter_ns(const char *variant, int cpus)
{
	char *set = g_strdup_printf("workloads.0.cpus=%d", cpus);
	const char *sets[] = {set, NULL};
	GError *err = NULL;
	struct scenario *sc = scenario_load_file(
	    MCS_SOURCE_DIR "/scenarios/validation/atomic_counter.json", sets, &err);
	g_assert_no_error(err);
	bool violation;
	json_t *r = runner_run_one(scenario_variant_find(sc, variant)->config, 1, &violation, &err);
	g_assert_no_error(err);
	double ns = json_number_value(json_object_get(json_object_get(r, "metrics"), "ns_per_op"));
	json_decref(r);
	scenario_free(sc);
	g_free(set);
	return ns;
}

static void test_counter_curves(void)
{
	static const struct {
		const char *variant;
		int cpus;
		double measured;
	} points[] = {{"perfbook", 2, 31.9},  {"perfbook", 8, 25.4},  {"perfbook", 28, 22.3},
		      {"perfbook", 32, 22.0}, {"perfbook", 56, 23.7}, {"gambhir", 2, 62.1},
		      {"gambhir", 8, 41.0},   {"gambhir", 32, 34.4}};
	for (size_t i = 0; i < G_N_ELEMENTS(points); i++) {
		double ns = counter_ns(points[i].variant, points[i].cpus);
		g_assert_cmpfloat(fabs(ns / points[i].measured - 1), <, 0.25);
	}
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	mcs_test_add_subprocess("/contention/line/service", test_service);
	mcs_test_add_subprocess("/contention/line/depth/4", test_depth4);
	mcs_test_add_subprocess("/contention/line/depth/2", test_depth2);
	mcs_test_add_subprocess("/contention/line/sockets/1", test_sockets1);
	mcs_test_add_subprocess("/contention/line/sockets/2", test_sockets2);
	mcs_test_add_subprocess("/contention/line/invalidations", test_invalidations);
	mcs_test_add_subprocess("/contention/qspinlock/handover", test_qspinlock_handover);
	mcs_test_add_subprocess("/contention/smt/spinning-sibling", test_smt_spinning_sibling);
	mcs_test_add_subprocess("/contention/smt/spinning-default", test_smt_spinning_default);
	g_test_add_func("/contention/lockbench/start", test_lockbench_start);
	g_test_add_func("/contention/added-hold", test_added_hold);
	g_test_add_func("/contention/counter-curves", test_counter_curves);
	mcs_test_add_subprocess("/contention/insn/queued", test_insn_queued);
	mcs_test_add_subprocess("/contention/insn/idle", test_insn_idle);
	return g_test_run();
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* Cache lines against hand-computed costs: a line bounced between two CPUs
 * at each distance, N CPUs incrementing one atomic, false sharing, and the
 * ticket and queued spinlocks' handoffs.
 *
 * The test machine: 2 sockets (nodes) of 4 cores x 2 threads, 2 cores an LLC
 * domain. CPUs of node 0: cores 0-3 (first threads) are CPUs 0-3, their
 * siblings CPUs 4-7; node 1: CPUs 8-15. From CPU 0: CPU 4 is its SMT
 * sibling, CPU 1 shares its LLC, CPU 2 is on the other LLC of the socket,
 * CPU 8 on the other socket. Costs: hit 0, SMT 7, LLC 40, socket 90,
 * remote 150, locked RMW 5, LLC hit 20, memory 80 / 130 ns. */
#include "cacheline.h"
#include "run.h"
#include "runner.h"
#include "scenario.h"
#include "spinlock.h"
#include "test_util.h"
#include <string.h>

static struct sim_machine hop_machine(void)
{
	struct sim_machine m = mcs_test_machine(2, 8);
	m.threads_per_core = 2;
	m.cores_per_llc = 2;
	m.nodes_per_socket = 1;
	m.cost[COST_LINE_SAME_CPU] = 0;
	m.cost[COST_LINE_SMT] = 7 * SIM_NS;
	m.cost[COST_LINE_LLC] = 40 * SIM_NS;
	m.cost[COST_LINE_SOCKET] = 90 * SIM_NS;
	m.cost[COST_LINE_REMOTE] = 150 * SIM_NS;
	m.cost[COST_LOCKED_RMW] = 5 * SIM_NS;
	m.cost[COST_LLC_HIT] = 20 * SIM_NS;
	m.cost[COST_DRAM_LOCAL] = 80 * SIM_NS;
	m.cost[COST_DRAM_REMOTE] = 130 * SIM_NS;
	return m;
}

static void test_hops(void)
{
	struct sim_machine m = hop_machine();
	sim_engine_init(&m, 0, SIM_S, 1);
	g_assert_cmpint(sim_cpu_hop(0, 0), ==, SIM_HOP_SELF);
	g_assert_cmpint(sim_cpu_hop(0, 4), ==, SIM_HOP_SMT);
	g_assert_cmpint(sim_cpu_hop(0, 1), ==, SIM_HOP_LLC);
	g_assert_cmpint(sim_cpu_hop(5, 1), ==, SIM_HOP_SMT);
	g_assert_cmpint(sim_cpu_hop(5, 0), ==, SIM_HOP_LLC); /* core 1's sibling */
	g_assert_cmpint(sim_cpu_hop(0, 2), ==, SIM_HOP_SOCKET);
	g_assert_cmpint(sim_cpu_hop(0, 8), ==, SIM_HOP_REMOTE);
	g_assert_cmpint(sim_nllcs(), ==, 4);
	g_assert_cmpint(sim_llc_cpu(3), ==, 10);
	sim_engine_fini();
}

/* One line, RMWs by @a and @b in turn: the first finds it fresh (a hit),
 * every other the other CPU's modified copy at the hop between them. */
static void ping_pong(int a, int b, sim_time_t hop)
{
	struct cacheline l;
	line_init(&l, line_class_get("ping-pong"), 0);
	g_assert_cmpint(line_access(a, &l, LINE_RMW, "a"), ==, 5 * SIM_NS);
	for (int i = 0; i < 10; i++) {
		g_assert_cmpint(line_access(i % 2 ? a : b, &l, LINE_RMW, "x"), ==,
				hop + 5 * SIM_NS);
	}
	g_assert_cmpint(line_class_counts(l.cls).ops[LINE_RMW], ==, 11);
	g_assert_cmpint(line_class_counts(l.cls).from[LINE_RMW][LINE_PEER], ==, 10);
	line_class_reset_all();
}

static void test_ping_pong(void)
{
	struct sim_machine m = hop_machine();
	sim_engine_init(&m, 0, SIM_S, 1);
	ping_pong(0, 4, 7 * SIM_NS);
	ping_pong(0, 1, 40 * SIM_NS);
	ping_pong(0, 2, 90 * SIM_NS);
	ping_pong(0, 8, 150 * SIM_NS);
	sim_engine_fini();
}

/* Loads share a line; a store invalidates the copies, waiting for the
 * farthest; a line evicted by streaming comes from memory. */
static void test_states(void)
{
	struct sim_machine m = hop_machine();
	m.llc_bytes = 1 << 20;
	sim_engine_init(&m, 0, SIM_S, 1);
	struct cacheline l;
	line_init(&l, line_class_get("states"), 1);
	g_assert_cmpint(line_access(0, &l, LINE_STORE, "w"), ==, 0);	      /* fresh */
	g_assert_cmpint(line_access(1, &l, LINE_LOAD, "r"), ==, 40 * SIM_NS); /* HITM, same LLC */
	g_assert_cmpint(line_access(1, &l, LINE_LOAD, "r"), ==, 0);	      /* now its own */
	g_assert_cmpint(line_access(5, &l, LINE_LOAD, "r"), ==, 0);	      /* its core's */
	g_assert_cmpint(line_access(8, &l, LINE_LOAD, "r"), ==, 150 * SIM_NS);
	g_assert_cmpint(line_access(9, &l, LINE_LOAD, "r"), ==, 20 * SIM_NS); /* clean in the LLC */
	/* a store from CPU 0: copies in its own LLC and on the other socket */
	g_assert_cmpint(line_access(0, &l, LINE_STORE, "w"), ==, 150 * SIM_NS);
	g_assert_cmpint(line_access(0, &l, LINE_STORE, "w"), ==, 0);
	g_assert_cmpint(line_class_counts(l.cls).hops[LINE_LOAD][SIM_HOP_REMOTE], ==, 1);
	g_assert_cmpint(line_class_counts(l.cls).from[LINE_LOAD][LINE_LLC_HIT], ==, 1);
	/* LLC 0 streams 1 MiB: still there; a byte more: evicted, and the
	 * line's home is node 1 */
	line_stream(5, 1 << 20);
	g_assert_cmpint(line_access(0, &l, LINE_LOAD, "r"), ==, 0);
	line_stream(4, 1 << 20);
	line_stream(1, 1);
	g_assert_cmpint(line_access(0, &l, LINE_LOAD, "r"), ==, 130 * SIM_NS);
	line_stream(0, (1 << 20) + 1);
	g_assert_cmpint(line_access(9, &l, LINE_LOAD, "r"), ==, 80 * SIM_NS);
	g_assert_cmpint(line_class_counts(l.cls).from[LINE_LOAD][LINE_DRAM], ==, 2);
	line_class_reset_all();
	sim_engine_fini();
}

/* N tasks on N cores of a socket increment one atomic K times each, back to
 * back: the first RMW finds the line fresh (5 ns), every other is queued
 * behind the one before and gets the line from it in half a transfer:
 * 5 + (NK - 1) x (transfer / 2 + 5). With two LLC domains in play the
 * transfers alternate as the FIFO does. */
static struct cacheline counter;

static void incrementer(struct sim_task *t, void *arg)
{
	for (int i = 0; i < 100; i++)
		line_atomic(t, &counter, SIM_CAT_SPIN, "atomic_inc");
}

static void test_atomic_throughput(void)
{
	struct sim_machine m = hop_machine();
	sim_engine_init(&m, 0, SIM_S, 1);
	line_init(&counter, line_class_get("counter"), 0);
	sim_task_create("a", 0, incrementer, NULL); /* CPUs 0 and 1: one LLC */
	sim_task_create("b", 1, incrementer, NULL);
	g_assert_true(sim_engine_run());
	g_assert_cmpint(sim_end(), ==, 5 * SIM_NS + 199 * (20 + 5) * SIM_NS);
	g_assert_cmpint(line_class_counts(counter.cls).from[LINE_RMW][LINE_PEER], ==, 199);
	line_class_reset_all();
	sim_engine_fini();
}

/* The serial throughput a preset implies: cascadelake-2s, CPUs of one
 * socket, one increment every half transfer plus a locked RMW:
 * 46.8 / 2 + 18 cycles / 2.1 GHz = 31.971 ns. */
static void test_atomic_preset(void)
{
	const char *text = "{\"name\": \"t\", \"machine\": {\"preset\": \"cascadelake-2s\"},"
			   "\"workloads\": [{\"type\": \"lockbench\", \"cpus\": 1, "
			   "\"think_ns\": 1, \"hold_ns\": 1}],"
			   "\"stop\": {\"type\": \"duration\", \"duration_ns\": 1000}}";
	GError *err = NULL;
	struct scenario *sc = scenario_load("t", text, strlen(text), NULL, &err);
	g_assert_no_error(err);
	const struct run_config *cfg = ((struct scenario_variant *)sc->variants->pdata[0])->config;
	g_assert_cmpint(cfg->machine.cost[COST_LOCKED_RMW], ==, sim_from_ns(18 / 2.1));
	g_assert_cmpint(cfg->cost_range[COST_LINE_LLC].lo, ==, 41200);
	g_assert_cmpint(cfg->cost_range[COST_LINE_LLC].hi, ==, 56200);
	sim_engine_init(&cfg->machine, 0, SIM_S, 1);
	line_init(&counter, line_class_get("counter"), 0);
	for (int i = 0; i < 4; i++)
		sim_task_create("inc", i, incrementer, NULL);
	g_assert_true(sim_engine_run());
	sim_time_t per = 23400 + sim_from_ns(18 / 2.1);
	g_assert_cmpint(sim_end(), ==, sim_from_ns(18 / 2.1) + 399 * per);
	g_assert_cmpfloat_with_epsilon(sim_to_ns(sim_end() - sim_from_ns(18 / 2.1)) / 399, 31.971,
				       0.001);
	line_class_reset_all();
	sim_engine_fini();
	scenario_free(sc);
}

/* Two CPUs of different LLC domains each store to their own counter 50
 * times, in turn. Counters in one line (false sharing): every store but
 * the first finds the line in the other CPU's cache; in two lines: hits. */
static struct cacheline shared, own[2];
static bool false_sharing;
static sim_time_t paid[2];

static void writer(struct sim_task *t, void *arg)
{
	int i = GPOINTER_TO_INT(arg);
	sim_task_charge(t, SIM_CAT_USER, i * 500 * SIM_NS); /* w1 half a period later */
	for (int k = 0; k < 50; k++) {
		sim_task_charge(t, SIM_CAT_USER, SIM_US);
		sim_task_flush(t);
		struct cacheline *l = false_sharing ? &shared : &own[i];
		sim_time_t c = line_access(sim_task_cpu(t), l, LINE_STORE, "store");
		paid[i] += c;
		sim_task_charge(t, SIM_CAT_SYS, c);
	}
}

static void run_writers(bool one_line)
{
	struct sim_machine m = hop_machine();
	sim_engine_init(&m, 0, SIM_S, 1);
	false_sharing = one_line;
	line_init(&shared, line_class_get("shared"), 0);
	for (int i = 0; i < 2; i++)
		line_init(&own[i], line_class_get("own"), 0);
	paid[0] = paid[1] = 0;
	sim_task_create("w0", 0, writer, GINT_TO_POINTER(0));
	sim_task_create("w1", 2, writer, GINT_TO_POINTER(1));
	g_assert_true(sim_engine_run());
	line_class_reset_all();
	sim_engine_fini();
}

static void test_false_sharing(void)
{
	run_writers(true);
	/* w0 first at 1 us (fresh line), then strictly in turn */
	g_assert_cmpint(paid[0], ==, 49 * 90 * SIM_NS);
	g_assert_cmpint(paid[1], ==, 50 * 90 * SIM_NS);
}

static void test_separate_lines(void)
{
	run_writers(false);
	g_assert_cmpint(paid[0], ==, 0);
	g_assert_cmpint(paid[1], ==, 0);
}

/* The Boyd-Wickizer lock benchmark (scenarios/validation/ticket_vs_mcs.json):
 * no work outside the lock, a critical section that writes 4 lines the last
 * holder wrote. On N <= 6 cores of one chip every line comes from the same
 * die (t = 52.4 ns), so an acquisition takes the handoff, 4 t and the lock
 * and unlock (9.8 ns): the queued lock hands over in one transfer, the
 * ticket lock in N / 2 (N - 1 CPUs spin on its line). On 48 cores the
 * ticket lock collapses and the queued one stays within a fifth of its
 * 2-core throughput. */
static const char *contention = "machine.contention=idle";
static const char *extra; /* one more --set, or NULL */

static double lock_throughput_reloads(const char *variant, int cpus, double *reloads)
{
	char *set = g_strdup_printf("workloads.0.cpus=%d", cpus);
	const char *sets[] = {set, contention, extra, NULL};
	GError *err = NULL;
	struct scenario *sc = scenario_load_file(
	    MCS_SOURCE_DIR "/scenarios/validation/ticket_vs_mcs.json", sets, &err);
	g_assert_no_error(err);
	bool violation;
	json_t *r = runner_run_one(scenario_variant_find(sc, variant)->config, 1, &violation, &err);
	g_assert_no_error(err);
	double x = json_number_value(
	    json_object_get(json_object_get(r, "metrics"), "acquisitions_per_us"));
	json_t *ops = NULL, *cls;
	size_t i;
	json_array_foreach (json_object_get(r, "cachelines"), i, cls)
		if (!strcmp(json_string_value(json_object_get(cls, "class")), "&lb->lock"))
			ops = json_object_get(cls, "ops");
	g_assert_nonnull(ops);
	*reloads =
	    (double)json_integer_value(json_object_get(json_object_get(ops, "load"), "peer")) /
	    (double)json_integer_value(json_object_get(json_object_get(ops, "rmw"), "peer"));
	json_decref(r);
	scenario_free(sc);
	g_free(set);
	return x;
}

static double lock_throughput(const char *variant, int cpus)
{
	double reloads;
	return lock_throughput_reloads(variant, cpus, &reloads);
}

/* ... and the cache-line report counts the ticket lock's traffic: with N
 * CPUs queued, each handoff's N - 2 other waiters re-read the word. */
static void test_ticket_vs_queued(void)
{
	double reloads;
	lock_throughput_reloads("mcs", 6, &reloads);
	g_assert_cmpfloat(reloads, ==, 0);
	lock_throughput_reloads("ticket", 6, &reloads);
	g_assert_cmpfloat_with_epsilon(reloads, 4, 0.01);

	for (int n = 2; n <= 6; n += 2) {
		double t = 52.4, fixed = 4 * t + 9.8;
		g_assert_cmpfloat_with_epsilon(lock_throughput("mcs", n), 1000 / (t + fixed),
					       0.005 * 1000 / (t + fixed));
		double ticket = 1000 / (t * n / 2 + fixed);
		g_assert_cmpfloat_with_epsilon(lock_throughput("ticket", n), ticket,
					       0.005 * ticket);
	}
	double mcs2 = lock_throughput("mcs", 2), mcs48 = lock_throughput("mcs", 48);
	g_assert_cmpfloat(mcs48, >, 0.8 * mcs2);
	g_assert_cmpfloat(lock_throughput("ticket", 48), <, 0.25 * mcs48);
}

/* Under "queued" the collapse still shows (docs/validation.md: 3452 -> 877
 * acquisitions a ms from 2 to 48 cores, the queued lock 2923 -> 2407). */
static void test_ticket_collapse_queued(void)
{
	contention = "machine.contention=queued";
	double ticket2 = lock_throughput("ticket", 2), ticket48 = lock_throughput("ticket", 48);
	double mcs2 = lock_throughput("mcs", 2), mcs48 = lock_throughput("mcs", 48);
	g_assert_cmpfloat_with_epsilon(ticket2, 3.452, 0.001);
	g_assert_cmpfloat_with_epsilon(ticket48, 0.877, 0.001);
	g_assert_cmpfloat(ticket48, <, 0.3 * ticket2);
	g_assert_cmpfloat(mcs48, >, 0.8 * mcs2);
}

/* Under "transfer" on 2 cores of one die the four data stores overlap
 * (data_order independent: one transfer and three issue spacings) or each
 * waits for the one before (serial: four transfers); the acquisition grows
 * by three transfers of 52.4 ns, 157.2 ns, less the three 1-ns spacings the
 * overlapped stores paid: 154.2 ns. */
static void test_serial_stores(void)
{
	contention = "machine.contention=transfer";
	extra = "workloads.0.data_order=independent";
	double overlapped = 1000 / lock_throughput("mcs", 2);
	extra = "workloads.0.data_order=serial";
	double serial = 1000 / lock_throughput("mcs", 2);
	extra = NULL;
	g_assert_cmpfloat_with_epsilon(serial - overlapped, 3 * 52.4 - 3 * 1.0, 0.02 * 154.2);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	mcs_test_add_subprocess("/cacheline/hops", test_hops);
	mcs_test_add_subprocess("/cacheline/ping-pong", test_ping_pong);
	mcs_test_add_subprocess("/cacheline/states", test_states);
	mcs_test_add_subprocess("/cacheline/atomic/throughput", test_atomic_throughput);
	mcs_test_add_subprocess("/cacheline/atomic/preset", test_atomic_preset);
	mcs_test_add_subprocess("/cacheline/false-sharing/one-line", test_false_sharing);
	mcs_test_add_subprocess("/cacheline/false-sharing/separate-lines", test_separate_lines);
	g_test_add_func("/cacheline/spinlock/ticket-vs-queued", test_ticket_vs_queued);
	g_test_add_func("/cacheline/spinlock/ticket-collapse-queued", test_ticket_collapse_queued);
	g_test_add_func("/cacheline/spinlock/serial-stores", test_serial_stores);
	return g_test_run();
}

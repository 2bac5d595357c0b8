// SPDX-License-Identifier: GPL-2.0-or-later
/* netperf_sendfile: `netserver` and instances of `netperf -t TCP_SENDFILE
 * -- -m SIZE` over loopback, every socket charged to its task's memcg
 * (cgroup v2 socket accounting: mem_cgroup_charge_skmem /
 * mem_cgroup_uncharge_skmem, through the per-CPU stock). Per message of
 * message_bytes (ceil(message_bytes / 4 KiB) pages of socket memory a side):
 *  - the sender (netperf, on its CPU): do_tcp_sendpages charges the send
 *    buffer (sk_wmem_schedule); loopback_xmit hands the skb to the softirq
 *    on the same CPU, where tcp_v6_rcv queues it on the receiver's socket and
 *    charges its receive buffer (sk_rmem_schedule); the ACKs of earlier data,
 *    processed at release_sock (the sender owns its socket while it sends),
 *    free the sent skbs: sk_mem_reclaim uncharges the send buffer. Its work:
 *    net_msg_ns.
 *  - the receiver (netserver's child, on its own CPU): tcp_recvmsg copies the
 *    data out and frees the skbs, sk_mem_reclaim uncharging the receive
 *    buffer (Linux 6.0 keeps sk_forward_alloc small, so every free
 *    uncharges); it sends the ACK. Its work: net_msg_ns.
 * The receiver's charge and uncharge happen on different CPUs: the sender's
 * stock runs dry and the receiver's overflows, every few messages. A pair
 * may have window_messages in flight (the socket buffers); a side that has
 * to wait sleeps until the other wakes it. */
#include "charge.h"
#include "cost.h"
#include "run_config.h"
#include "workload.h"
#include <glib.h>

struct netperf_params {
	struct workload_tasks tasks; /* first: workload_tasks_cgroup; count = instances */
	long message_bytes;
	long window_messages;
};

#define AT(member) SPEC_AT(struct netperf_params, member)
static const struct spec_field netperf_fields[] = {
    SPEC_TYPE_FIELD("netperf_sendfile"),
    {"cgroup", &workload_cgroup_spec, true, NULL, AT(tasks.cgroup)},
    {"count",
     &(const struct spec){.kind = SPEC_INTEGER,
			  .doc = "netperf instances, each a sender and a receiver task",
			  .min = 1,
			  .max = 2048},
     false, "1", AT(tasks.count)},
    {"message_bytes",
     &(const struct spec){
	 .kind = SPEC_INTEGER, .doc = "netperf's send size (-m)", .min = 1, .max = 1 << 24},
     false, "10240", AT(message_bytes)},
    {"window_messages",
     &(const struct spec){.kind = SPEC_INTEGER,
			  .doc = "messages a pair may have in flight (its socket buffers)",
			  .min = 1,
			  .max = 1 << 20},
     false, "16", AT(window_messages)},
    {NULL},
};
#undef AT

static const struct spec netperf_spec = {
    .kind = SPEC_OBJECT,
    .doc = "netperf_sendfile: netperf TCP_SENDFILE instances and their netserver children "
	   "over loopback, socket memory charged to the cgroup; run it with a duration stop",
    .fields = netperf_fields,
    .size = sizeof(struct netperf_params)};

static bool netperf_check(const void *params, const struct run_config *cfg, const char *path,
			  struct spec_check *chk)
{
	const struct netperf_params *p = params;
	int ncpus = sim_machine_cpus(&cfg->machine);
	if (2 * p->tasks.count <= ncpus)
		return true;
	return spec_check_fail(chk, path, "count",
			       "expected at most %d instances (two CPUs each), got %ld", ncpus / 2,
			       p->tasks.count);
}

struct np_pair {
	struct mem_cgroup *memcg;
	long pages, window;
	long in_flight, received;
	struct sim_task *sender, *receiver;
	bool sender_waits, receiver_waits;
};

static void wake_if(bool *waits, struct sim_task *t)
{
	if (*waits) {
		*waits = false;
		sim_task_wake(t);
	}
}

/* __sk_mem_reduce_allocated (net/core/sock.c, 6.0): the uncharge, then
 * sk_under_memory_pressure, which asks the socket's memcg
 * (mem_cgroup_sockets_enabled and sk_memcg: not for the root's sockets). */
static void sk_mem_reduce_allocated(struct sim_task *t, struct mem_cgroup *memcg, long pages)
{
	mem_cgroup_uncharge_skmem(t, memcg, pages);
	if (!mem_cgroup_disabled() && memcg->parent)
		mem_cgroup_under_socket_pressure(t, memcg);
}

static void netperf_send(struct sim_task *t, void *arg)
{
	struct np_pair *np = arg;
	while (!sim_task_should_stop(t)) {
		if (np->in_flight >= np->window) {
			np->sender_waits = true;
			sim_task_wait(t);
			continue;
		}
		mem_cgroup_charge_skmem(t, np->memcg, np->pages); /* sk_wmem_schedule */
		sim_task_charge(t, SIM_CAT_SYS, cost(COST_NET_MSG));
		mem_cgroup_charge_skmem(t, np->memcg, np->pages); /* sk_rmem_schedule, softirq */
		sk_mem_reduce_allocated(t, np->memcg, np->pages); /* ACKed: sk_mem_reclaim */
		sim_task_flush(t);
		np->in_flight++;
		wake_if(&np->receiver_waits, np->receiver);
	}
}

static void netperf_receive(struct sim_task *t, void *arg)
{
	struct np_pair *np = arg;
	while (!sim_task_should_stop(t)) {
		if (!np->in_flight) {
			np->receiver_waits = true;
			sim_task_wait(t);
			continue;
		}
		sim_task_charge(t, SIM_CAT_SYS, cost(COST_NET_MSG));
		sk_mem_reduce_allocated(t, np->memcg, np->pages); /* tcp_recvmsg: sk_mem_reclaim */
		sim_task_flush(t);
		np->in_flight--;
		np->received++;
		wake_if(&np->sender_waits, np->sender);
	}
}

struct netperf {
	int count;
	long message_bytes;
	struct np_pair *pairs;
};

/* Pair i on node i mod nodes: the sender on a core's first thread, the
 * receiver half the node's CPUs further (its sibling with 2 threads). */
static void pair_cpus(int i, int *tx, int *rx)
{
	const struct sim_machine *m = sim_machine();
	int per = m->cpus_per_node, base = (i % m->nodes) * per, j = i / m->nodes;
	*tx = base + j % per;
	*rx = base + (j + per / 2) % per;
}

static void *netperf_setup(const void *params, int index)
{
	const struct netperf_params *p = params;
	struct netperf *n = g_new0(struct netperf, 1);
	n->count = (int)p->tasks.count;
	n->message_bytes = p->message_bytes;
	n->pairs = g_new0(struct np_pair, n->count);
	for (int i = 0; i < n->count; i++) {
		struct np_pair *np = &n->pairs[i];
		char *cg = mem_cgroup_instance_name(p->tasks.cgroup, i);
		np->memcg = *cg ? mem_cgroup_lookup(cg) : memcg_tree->root;
		g_free(cg);
		np->pages = (p->message_bytes + PAGE_SIZE_BYTES - 1) / PAGE_SIZE_BYTES;
		np->window = p->window_messages;
		int tx, rx;
		pair_cpus(i, &tx, &rx);
		np->sender = sim_task_createf(tx, netperf_send, np, "netperf.%d.%d", index, i);
		np->receiver =
		    sim_task_createf(rx, netperf_receive, np, "netserver.%d.%d", index, i);
		sim_task_set_group(np->sender, np->memcg->id);
		sim_task_set_group(np->receiver, np->memcg->id);
	}
	return n;
}

/* netperf's figure: each instance's throughput in 10^6 bits/s, averaged. */
static void netperf_metrics(void *state, json_t *metrics)
{
	struct netperf *n = state;
	double window_s = sim_to_ns(sim_stop_at()) / 1e9, sum = 0;
	long messages = 0;
	for (int i = 0; i < n->count; i++) {
		messages += n->pairs[i].received;
		sum += (double)n->pairs[i].received * (double)n->message_bytes * 8 / 1e6;
	}
	json_object_set_new(metrics, "messages", json_integer(messages));
	json_object_set_new(metrics, "throughput",
			    json_real(window_s > 0 ? sum / window_s / n->count : 0));
}

static void netperf_destroy(void *state)
{
	struct netperf *n = state;
	g_free(n->pairs);
	g_free(n);
}

/* A sender and a receiver per instance. */
static long netperf_tasks(const void *params, const struct run_config *cfg)
{
	(void)cfg;
	return 2 * ((const struct netperf_params *)params)->tasks.count;
}

const struct workload_type netperf_sendfile_workload = {
    .name = "netperf_sendfile",
    .spec = &netperf_spec,
    .reads = RUN_READS_CHARGE,
    .check = netperf_check,
    .finite = workload_runs_until_stop,
    .cgroup = workload_tasks_cgroup,
    .tasks = netperf_tasks,
    .setup = netperf_setup,
    .metrics = netperf_metrics,
    .metric_info =
	(const struct run_metric[]){
	    {"throughput", true, "10^6bits/s",
	     "netperf TCP_STREAM throughput per sender pair, over the measured window"},
	    {"messages", true, "", "messages sent"},
	    {NULL, false, NULL, NULL}},
    .destroy = netperf_destroy,
};

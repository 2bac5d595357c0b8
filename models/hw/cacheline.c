// SPDX-License-Identifier: GPL-2.0-or-later
#include "cacheline.h"
#include "cost.h"
#include "sim_rng.h"
#include <math.h>
#include <string.h>

/* "queued": the last services of a line that queued, oldest first (their
 * ends rise), with where each request came from. "transfer" also keeps, for
 * each, the CPU served and how long it holds the line: from the end of its
 * service until the line leaves it for the next request (SIM_TIME_MAX while
 * none is made). */
#define LINE_QUEUE_SLOTS 128
#define LINE_QUEUED_DEPTH 32 /* "queued" counts at most this many (its fit's) */
struct line_queue {
	sim_time_t end[LINE_QUEUE_SLOTS], leave[LINE_QUEUE_SLOTS];
	int llc[LINE_QUEUE_SLOTS], socket[LINE_QUEUE_SLOTS], cpu[LINE_QUEUE_SLOTS];
	bool exclusive[LINE_QUEUE_SLOTS]; /* a store's or RMW's: the CPU got it to write */
	unsigned n; /* services recorded; slot n % LINE_QUEUE_SLOTS is the next */
};

const char *const line_op_names[LINE_OP_N] = {"load", "store", "rmw"};

/* An accessing CPU and its place, made once a run (line_machine()). */
struct line_cpu {
	int cpu, llc, socket, node;
	uint64_t llc_bit, core_bit;
};

static struct {
	GPtrArray *classes; /* creation order */
	GHashTable *by_name;
	GPtrArray *queues; /* every line's struct line_queue, freed with the classes */
	/* The run's machine, read once at the first access (line_machine()). */
	bool ready;
	bool queued;	    /* contention "queued" or "transfer": lines are servers */
	bool transfer;	    /* contention "transfer" */
	uint64_t llc_bytes; /* machine.llc_bytes */
	int nllcs;
	struct line_cpu *cpus;
	uint64_t *streamed;	    /* bytes streamed through each LLC domain */
	sim_time_t *cursor;	    /* "queued": each CPU's last access's end */
	sim_time_t *spent, *waited; /* "queued": each CPU's accesses' cost so far, and
				     * the part of it spent queued at lines */
	struct sim_rng *keep_rng;   /* "transfer": line_kept's draws */
} L;

static void class_free(gpointer p)
{
	struct line_class *c = p;
	g_hash_table_destroy(c->sites);
	g_free(c->name);
	g_free(c);
}

GPtrArray *line_class_all(void);

struct line_class *line_class_get(const char *name)
{
	line_class_all();
	struct line_class *c = g_hash_table_lookup(L.by_name, name);
	if (c)
		return c;
	c = g_new0(struct line_class, 1);
	c->name = g_strdup(name);
	c->sites = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
	g_ptr_array_add(L.classes, c);
	g_hash_table_insert(L.by_name, c->name, c);
	return c;
}

GPtrArray *line_class_all(void)
{
	if (!L.classes) {
		L.classes = g_ptr_array_new_with_free_func(class_free);
		L.by_name = g_hash_table_new(g_str_hash, g_str_equal);
	}
	return L.classes;
}

void line_class_reset_all(void)
{
	if (L.classes) {
		g_hash_table_destroy(L.by_name);
		g_ptr_array_free(L.classes, TRUE);
	}
	g_free(L.cpus);
	g_free(L.streamed);
	if (L.queues)
		g_ptr_array_free(L.queues, TRUE);
	g_free(L.cursor);
	g_free(L.spent);
	g_free(L.waited);
	if (L.keep_rng)
		sim_rng_free(L.keep_rng);
	memset(&L, 0, sizeof(L));
}

void line_init(struct cacheline *l, struct line_class *cls, int home_node)
{
	memset(l, 0, sizeof(*l));
	l->cls = cls;
	l->owner = -1;
	l->last_cpu = -1;
	l->home = home_node;
	l->llc = -1;
	l->kept_by = -1;
}

static uint64_t llc_bit(int llc)
{
	return 1ULL << (llc % 64);
}

/* What every access asks of the machine, looked up once a run (the engine
 * is set up by the first access; line_class_reset_all forgets it). */
static void line_machine(void)
{
	if (L.ready)
		return;
	const struct sim_machine *m = sim_machine();
	int n = sim_ncpus();
	L.ready = true;
	L.queued = m->contention != SIM_CONTENTION_IDLE;
	L.transfer = m->contention == SIM_CONTENTION_TRANSFER;
	L.llc_bytes = m->llc_bytes;
	L.nllcs = sim_nllcs();
	L.streamed = g_new0(uint64_t, L.nllcs);
	L.cpus = g_new(struct line_cpu, n);
	for (int c = 0; c < n; c++)
		L.cpus[c] = (struct line_cpu){c,
					      sim_cpu_llc(c),
					      sim_cpu_socket(c),
					      sim_cpu_node(c),
					      llc_bit(sim_cpu_llc(c)),
					      llc_bit(sim_cpu_core(c))};
	L.cursor = g_new0(sim_time_t, n);
	L.spent = g_new0(sim_time_t, n);
	L.waited = g_new0(sim_time_t, n);
	if (L.transfer)
		L.keep_rng = sim_rng_new(sim_seed(), "line.keep");
}

void line_stream(int cpu, uint64_t bytes)
{
	line_machine();
	L.streamed[L.cpus[cpu].llc] += bytes;
}

uint64_t line_streamed(int llc)
{
	line_machine();
	return L.streamed[llc];
}

static sim_time_t hop_cost(enum sim_hop hop)
{
	static const enum cost_id by_hop[SIM_HOP_N] = {[SIM_HOP_SELF] = COST_LINE_SAME_CPU,
						       [SIM_HOP_SMT] = COST_LINE_SMT,
						       [SIM_HOP_LLC] = COST_LINE_LLC,
						       [SIM_HOP_SOCKET] = COST_LINE_SOCKET,
						       [SIM_HOP_REMOTE] = COST_LINE_REMOTE};
	return cost(by_hop[hop]);
}

/* The LLC it was last in has streamed its size since: nobody has it. */
static void line_evict_stale(struct cacheline *l)
{
	uint64_t size = L.llc_bytes;
	if (l->llc < 0 || !size || L.streamed[l->llc] - l->streamed <= size)
		return;
	l->owner = -1;
	l->sharers = 0;
	l->cores = 0;
	l->llc = -1;
}

/* The farthest of the LLC domains holding clean copies, seen from @cpu: the
 * invalidation a store waits for. */
static enum sim_hop farthest_sharer(const struct cacheline *l, int cpu)
{
	enum sim_hop far = SIM_HOP_SELF;
	uint64_t others = l->sharers & ~L.cpus[cpu].llc_bit;
	for (int llc = 0; others && llc < L.nllcs; llc++) {
		if (!(others & llc_bit(llc)))
			continue;
		others &= ~llc_bit(llc);
		far = MAX(far, sim_cpu_hop(sim_llc_cpu(llc), cpu));
	}
	return far;
}

/* Where @me finds the line for @op, and how far it comes (for a peer). */
static enum line_source line_locate(const struct cacheline *l, const struct line_cpu *me,
				    enum line_op op, enum sim_hop *hop)
{
	int cpu = me->cpu;
	uint64_t my_llc = me->llc_bit, my_core = me->core_bit;
	bool mine = l->owner == cpu || (l->owner < 0 && (l->cores & my_core));
	*hop = SIM_HOP_SELF;
	if (l->last_cpu < 0) /* initialised by the CPU that first uses it */
		return LINE_HIT;
	if (op == LINE_LOAD
		? mine
		: l->owner == cpu || (mine && l->cores == my_core && l->sharers == my_llc))
		return LINE_HIT;
	if (l->owner >= 0) {
		*hop = sim_cpu_hop(l->owner, cpu);
		return LINE_PEER;
	}
	if (!l->sharers)
		return LINE_DRAM;
	if (op != LINE_LOAD && (l->sharers & ~my_llc)) {
		*hop = farthest_sharer(l, cpu);
		return LINE_PEER;
	}
	/* "queued": other cores' copies in this LLC are invalidated too */
	if (op != LINE_LOAD && L.queued && (l->cores & ~my_core)) {
		*hop = SIM_HOP_LLC;
		return LINE_PEER;
	}
	if (l->sharers & my_llc)
		return LINE_LLC_HIT;
	*hop = sim_cpu_hop(l->last_cpu, cpu);
	return LINE_PEER;
}

static sim_time_t source_cost(enum line_source src, enum sim_hop hop, const struct cacheline *l,
			      const struct line_cpu *me)
{
	switch (src) {
	case LINE_HIT:
		return cost(COST_LINE_SAME_CPU);
	case LINE_LLC_HIT:
		return cost(COST_LLC_HIT);
	case LINE_PEER:
		return hop_cost(hop);
	default:
		return cost(me->node == l->home ? COST_DRAM_LOCAL : COST_DRAM_REMOTE);
	}
}

/* @cls's record of @site. Sites are string literals, passed at the same
 * address every time, and a class has a few: the address is found among the
 * class's slots, by comparing pointers. One not there is looked up by the
 * string (equal strings at two addresses share one record) and takes a slot. */
static struct line_site *line_site_get(struct line_class *cls, const char *site)
{
	if (cls->nslots && cls->site_slots[cls->last_slot].site == site) /* the last one found */
		return cls->site_slots[cls->last_slot].rec;
	unsigned n = MIN(cls->nslots, LINE_SITE_SLOTS);
	for (unsigned i = 0; i < n; i++)
		if (cls->site_slots[i].site == site) {
			cls->last_slot = i;
			return cls->site_slots[i].rec;
		}
	struct line_site *s = g_hash_table_lookup(cls->sites, site);
	if (!s) {
		s = g_new0(struct line_site, 1);
		s->site = site;
		g_hash_table_insert(cls->sites, (gpointer)site, s);
	}
	cls->site_slots[cls->nslots++ % LINE_SITE_SLOTS] = (struct line_site_slot){site, s};
	return s;
}

/* @k accesses of kind @op found at @src (over @hop), costing @c in all, of
 * which @wait waiting for the line ("queued"; one access when it is > 0). */
static void counts_add(struct line_counts *n, enum line_op op, enum line_source src,
		       enum sim_hop hop, uint64_t k, sim_time_t c, sim_time_t wait)
{
	n->ops[op] += k;
	n->from[op][src] += k;
	n->accesses += k;
	if (src == LINE_PEER) {
		n->hops[op][hop] += k;
		n->transfers += k;
	}
	n->time += c;
	n->queued += wait > 0;
	n->queue_time += wait;
}

/* Counted once, at the site: a class's counts are its sites' sum
 * (line_class_counts). */
static void line_count(struct cacheline *l, enum line_op op, enum line_source src, enum sim_hop hop,
		       uint64_t k, sim_time_t c, sim_time_t wait, const char *site)
{
	counts_add(&line_site_get(l->cls, site)->n, op, src, hop, k, c, wait);
}

static void counts_sum(struct line_counts *to, const struct line_counts *n)
{
	for (int op = 0; op < LINE_OP_N; op++) {
		to->ops[op] += n->ops[op];
		for (int src = 0; src < LINE_SOURCE_N; src++)
			to->from[op][src] += n->from[op][src];
		for (int hop = 0; hop < SIM_HOP_N; hop++)
			to->hops[op][hop] += n->hops[op][hop];
	}
	to->accesses += n->accesses;
	to->transfers += n->transfers;
	to->time += n->time;
	to->queued += n->queued;
	to->queue_time += n->queue_time;
}

struct line_counts line_class_counts(const struct line_class *c)
{
	struct line_counts sum = {0};
	GHashTableIter it;
	gpointer v;
	g_hash_table_iter_init(&it, c->sites);
	while (g_hash_table_iter_next(&it, NULL, &v))
		counts_sum(&sum, &((const struct line_site *)v)->n);
	return sum;
}

bool line_queued(void)
{
	return L.ready ? L.queued : sim_machine()->contention != SIM_CONTENTION_IDLE;
}

/* A store's invalidations beyond the farthest copy's: line_inval_ns for
 * each further core holding a copy, scaled by that copy's own distance
 * (line_<hop>_ns over line_llc_ns), so a copy in another socket costs more.
 * Cores are known by core % 64 (struct cacheline.cores): on bigger machines
 * a bit stands for the first core it names. */
static sim_time_t inval_extra(const struct cacheline *l, const struct line_cpu *me)
{
	const struct sim_machine *m = sim_machine();
	uint64_t others = l->cores & ~me->core_bit;
	if (__builtin_popcountll(others) <= 1)
		return 0;
	int cores = sim_machine_cores_per_node(m);
	double llc = (double)MAX(hop_cost(SIM_HOP_LLC), 1), sum = 0, far = 0;
	for (int c = 0; others; c++) {
		if (!(others & (1ULL << c)))
			continue;
		others &= ~(1ULL << c);
		int cpu = (c / cores) * m->cpus_per_node + c % cores;
		double scale = (double)hop_cost(sim_cpu_hop(cpu, me->cpu)) / llc;
		sum += scale;
		far = MAX(far, scale);
	}
	return sim_round((sum - far) * (double)cost(COST_LINE_INVAL));
}

static struct line_queue *line_queue_of(struct cacheline *l)
{
	if (!l->queue) {
		if (!L.queues)
			L.queues = g_ptr_array_new_with_free_func(g_free);
		l->queue = g_new0(struct line_queue, 1);
		g_ptr_array_add(L.queues, l->queue);
	}
	return l->queue;
}

static void queue_push(struct line_queue *q, sim_time_t end, int cpu, bool exclusive)
{
	unsigned i = q->n++ % LINE_QUEUE_SLOTS;
	q->end[i] = end;
	q->exclusive[i] = exclusive;
	q->leave[i] = SIM_TIME_MAX;
	q->cpu[i] = cpu;
	q->llc[i] = L.cpus[cpu].llc;
	q->socket[i] = L.cpus[cpu].socket;
}

/* The line leaves the CPU of the last recorded service at @t. */
static void queue_last_leaves(struct line_queue *q, sim_time_t t)
{
	if (q && q->n)
		q->leave[(q->n - 1) % LINE_QUEUE_SLOTS] = t;
}

/* The requests pending at @at, the one being served included: the recorded
 * services that end after it, at most @max. */
static int queue_pending(const struct line_queue *q, sim_time_t at, unsigned max)
{
	int k = 0;
	for (unsigned j = 0; j < MIN(q->n, max); j++) {
		if (q->end[(q->n - 1 - j) % LINE_QUEUE_SLOTS] <= at)
			break;
		k++;
	}
	return k;
}

/* @l's queue, once it is busy: with the service in progress recorded first,
 * from the line's holder (or its last CPU). */
static struct line_queue *line_queue_busy(struct cacheline *l)
{
	struct line_queue *q = line_queue_of(l);
	if (!q->n)
		queue_push(q, l->busy_until, l->owner >= 0 ? l->owner : MAX(l->last_cpu, 0),
			   l->owner >= 0);
	return q;
}

/* The line's schedule once @me's request at @at is planned: served after
 * *@wait in @service, busy for @hold more (a locked RMW), recorded in the
 * queue once the line has one. */
static void line_plan(struct cacheline *l, const struct line_cpu *me, enum line_op op,
		      sim_time_t at, sim_time_t wait, sim_time_t service, sim_time_t hold)
{
	l->asked_at = at;
	l->busy_until = at + wait + service + hold;
	if (l->queue)
		queue_push(l->queue, l->busy_until, me->cpu, op != LINE_LOAD);
}

/* The service of a request from @me that found the line busy at @at: @d
 * requests pending with it, from @m_llc LLC domains and @m_socket sockets.
 * The line serves each domain's requests in a row, so a round through the
 * pending requests moves it between domains once per domain. */
static sim_time_t queued_service(int d, int m_llc, int m_socket)
{
	double q_llc = (double)cost(COST_LINE_QUEUE_LLC);
	double r = q_llc > 0 ? (double)cost(COST_LINE_QUEUE_DEEP) / q_llc : 1;
	double g = r + (1 - r) * 2.0 / d;
	double s_llc = q_llc * g, s_socket = (double)cost(COST_LINE_QUEUE_SOCKET) * g,
	       s_remote = (double)cost(COST_LINE_QUEUE_REMOTE) * g;
	double moves_llc = m_llc > 1 ? (double)m_llc / d : 0;
	double moves_socket = m_socket > 1 ? (double)m_socket / d : 0;
	return sim_round(s_llc + moves_llc * (s_socket - s_llc) +
			 moves_socket * (s_remote - s_socket));
}

/* "queued": a request from @me at @at for a line another cache must give
 * up, or its LLC serve, costing @idle on an idle line. A busy line makes it
 * wait (*wait) for the services queued ahead and serves it in the queued
 * time; either way the line is busy for the service (plus @hold, a locked
 * RMW's own time). Requests are served in the order they are made; one made
 * for a time before the last one's (a planned critical section's accesses
 * are priced at its future grant, then an earlier arrival comes) is served
 * in the gap before it, at its idle cost, and leaves the schedule alone. */
static sim_time_t queued_serve(struct cacheline *l, const struct line_cpu *me, enum line_op op,
			       sim_time_t at, sim_time_t idle, sim_time_t hold, sim_time_t *wait)
{
	int socket = me->socket;
	sim_time_t service = idle;
	*wait = 0;
	if (at < l->asked_at)
		return service;
	if (l->busy_until > at) {
		struct line_queue *q = line_queue_busy(l);
		uint64_t llcs = llc_bit(me->llc), sockets = llc_bit(socket);
		int d = 1 + queue_pending(q, at, LINE_QUEUED_DEPTH);
		for (int k = 0; k < d - 1; k++) {
			unsigned i = (q->n - 1 - (unsigned)k) % LINE_QUEUE_SLOTS;
			llcs |= llc_bit(q->llc[i]);
			sockets |= llc_bit(q->socket[i]);
		}
		*wait = l->busy_until - at;
		service =
		    queued_service(d, __builtin_popcountll(llcs), __builtin_popcountll(sockets));
	}
	line_plan(l, me, op, at, *wait, service, hold);
	return service;
}

/* "transfer": a request from @me at @at for a line another cache must give
 * up (or its LLC serve), costing @idle on an idle line: the request's leg,
 * the home's snoop of the holder and the line's way back, of which the last
 * is half (the assumption of docs/hardware.md). A busy line makes it wait
 * (*wait) for the services queued ahead, whose legs overlapped the request's
 * own, then serves it in the line's way back plus line_pileup_ns for each
 * request that was waiting behind the one in service when it was made (k;
 * the home slows as they pile up), plus line_home_ns where the home waits
 * for every node's probe response before it answers. The line stays with
 * its holder until the holder's snoop: @idle / 2 after an idle request,
 * line_pileup_ns x k after the queued service begins; until then the holder may use it again
 * (line_kept). */
static sim_time_t transfer_serve(struct cacheline *l, const struct line_cpu *me, enum line_op op,
				 sim_time_t at, sim_time_t idle, sim_time_t hold, sim_time_t *wait)
{
	sim_time_t service = idle, leave = at + idle - idle / 2;
	*wait = 0;
	if (at < l->asked_at) { /* served in the gap: it takes the line from every holder */
		l->kept_by = -1;
		queue_last_leaves(l->queue, at);
		return service;
	}
	if (l->busy_until > at) {
		struct line_queue *q = line_queue_busy(l);
		sim_time_t pile =
		    (queue_pending(q, at, LINE_QUEUE_SLOTS) - 1) * cost(COST_LINE_PILEUP);
		*wait = l->busy_until - at;
		service = idle / 2 + pile + cost(COST_LINE_HOME);
		leave = l->busy_until + pile;
	}
	if (l->owner >= 0 && l->owner != me->cpu) { /* the holder keeps it until @leave */
		l->kept_by = l->owner;
		l->kept_until = leave;
		queue_last_leaves(l->queue, leave);
	}
	line_plan(l, me, op, at, *wait, service, hold);
	return service;
}

/* "transfer": until when @cpu holds @l, though a request made since will
 * take it (its snoop has not reached @cpu yet); 0 if it does not. The last
 * holder's time is on the line; earlier holders' are in its queue's
 * services. */
static sim_time_t line_kept_until(const struct cacheline *l, int cpu, sim_time_t at)
{
	if (l->kept_by == cpu)
		return l->kept_until;
	const struct line_queue *q = l->queue;
	for (unsigned j = 0; q && j < MIN(q->n, LINE_QUEUE_SLOTS); j++) {
		unsigned i = (q->n - 1 - j) % LINE_QUEUE_SLOTS;
		if (q->leave[i] <= at) /* it and every older one had gone by @at */
			return 0;
		if (q->cpu[i] == cpu) /* kept only to write: it got the line for a store */
			return q->exclusive[i] && q->end[i] <= at ? q->leave[i] : 0;
	}
	return 0;
}

/* "transfer": may @cpu's access at @at, costing @c on a line it holds, use
 * @l before the snoop takes it? Yes if the access ends before the snoop,
 * no if it starts after; one that straddles the snoop is kept with the
 * share of it made before (a draw): the snoop's delay varies from one
 * hand-over to the next, and a holder that loops on the line keeps it, on
 * average, for the delay's mean over @c accesses. */
static bool line_kept(const struct cacheline *l, int cpu, sim_time_t at, sim_time_t c)
{
	sim_time_t until = line_kept_until(l, cpu, at);
	if (at >= until)
		return false;
	if (at + c <= until)
		return true;
	return sim_rng_uniform01(L.keep_rng) < (double)(until - at) / (double)c;
}

/* Where @cpu's next access happens: the end of its last one, or its
 * running task's clock if that is later. */
sim_time_t line_cpu_clock(int cpu)
{
	line_machine();
	return MAX(L.cursor[cpu], sim_cpu_clock(cpu));
}

/* The line after @me's @op: a load adds a clean copy (demoting a modified
 * one), a store or RMW leaves @me the only holder. */
static void line_update(struct cacheline *l, const struct line_cpu *me, enum line_op op)
{
	int cpu = me->cpu;
	if (op == LINE_LOAD) {
		if (l->owner >= 0 && l->owner != cpu) {
			l->sharers |= L.cpus[l->owner].llc_bit;
			l->cores |= L.cpus[l->owner].core_bit;
		}
		if (l->owner != cpu)
			l->owner = -1;
		l->sharers |= me->llc_bit;
		l->cores |= me->core_bit;
	} else {
		l->owner = cpu;
		l->sharers = me->llc_bit;
		l->cores = me->core_bit;
	}
	l->last_cpu = cpu;
	l->llc = me->llc;
	l->streamed = L.streamed[me->llc];
}

/* "transfer": @cpu uses the line it still holds (line_kept): a hit, which
 * leaves the line's state and its planned services alone. */
static sim_time_t line_hit_cost(enum line_op op)
{
	return cost(COST_LINE_SAME_CPU) + (op == LINE_RMW ? cost(COST_LOCKED_RMW) : 0);
}

static sim_time_t line_kept_access(int cpu, struct cacheline *l, enum line_op op, const char *site,
				   sim_time_t at, sim_time_t *wait)
{
	sim_time_t c = line_hit_cost(op);
	if (wait)
		*wait = 0;
	line_count(l, op, LINE_HIT, SIM_HOP_SELF, 1, c, 0, site);
	L.cursor[cpu] = at + c;
	L.spent[cpu] += c;
	return c;
}

sim_time_t line_access_at(int cpu, struct cacheline *l, enum line_op op, const char *site,
			  sim_time_t at, sim_time_t *wait)
{
	if (!l->cls) /* a zeroed line: fresh, of no named class */
		line_init(l, line_class_get("(unnamed)"), 0);
	line_machine();
	line_evict_stale(l);
	const struct line_cpu *me = &L.cpus[cpu];
	if (L.transfer && op != LINE_LOAD && l->owner != cpu &&
	    line_kept(l, cpu, at, line_hit_cost(op)))
		return line_kept_access(cpu, l, op, site, at, wait);
	enum sim_hop hop;
	enum line_source src = line_locate(l, me, op, &hop);
	sim_time_t rmw = op == LINE_RMW ? cost(COST_LOCKED_RMW) : 0;
	sim_time_t c = source_cost(src, hop, l, me), waited = 0;
	if ((src == LINE_PEER || src == LINE_LLC_HIT) && L.queued) {
		if (op != LINE_LOAD && l->owner < 0)
			c += inval_extra(l, me);
		c = (L.transfer ? transfer_serve : queued_serve)(l, me, op, at, c, rmw, &waited);
	}
	c += rmw + waited;
	if (wait)
		*wait = waited;
	line_count(l, op, src, hop, 1, c, waited, site);
	line_update(l, me, op);
	if (L.queued) {
		L.cursor[cpu] = at + c;
		L.spent[cpu] += c;
		L.waited[cpu] += waited;
	}
	return c;
}

/* "transfer": when access @i of a step that starts at @at may be made:
 * after the access it needs, or (independent) at its turn to issue, once a
 * fill buffer is free. */
static sim_time_t group_start(const struct line_req *r, int i, const sim_time_t *end, sim_time_t at)
{
	if (r[i].after >= 0)
		return end[r[i].after];
	sim_time_t start = at + i * cost(COST_LINE_ISSUE);
	return i >= LINE_MLP ? MAX(start, end[i - LINE_MLP]) : start;
}

sim_time_t line_access_group(int cpu, const struct line_req *r, int n, sim_time_t at,
			     sim_time_t *wait)
{
	g_assert(n >= 0 && n <= LINE_GROUP_MAX);
	line_machine();
	sim_time_t end[LINE_GROUP_MAX], last = at, waited = 0, w;
	if (!L.transfer) { /* one after the other */
		for (int i = 0; i < n; i++) {
			last += line_access_at(cpu, r[i].l, r[i].op, r[i].site, last, &w);
			waited += w;
		}
	} else {
		sim_time_t spent = L.spent[cpu], waited_before = L.waited[cpu];
		for (int i = 0; i < n; i++) {
			g_assert(r[i].after < i);
			sim_time_t start = group_start(r, i, end, at);
			end[i] = start + line_access_at(cpu, r[i].l, r[i].op, r[i].site, start, &w);
			if (end[i] >= last) {
				last = end[i];
				waited = w;
			}
		}
		/* the step's time, not the sum of its overlapped accesses */
		L.cursor[cpu] = last;
		L.spent[cpu] = spent + (last - at);
		L.waited[cpu] = waited_before + waited;
	}
	if (wait)
		*wait = waited;
	return last - at;
}

void line_cpu_spent(int cpu, sim_time_t *spent, sim_time_t *waited)
{
	*spent = L.spent ? L.spent[cpu] : 0;
	*waited = L.waited ? L.waited[cpu] : 0;
}

sim_time_t line_access(int cpu, struct cacheline *l, enum line_op op, const char *site)
{
	return line_access_at(cpu, l, op, site, line_queued() ? line_cpu_clock(cpu) : 0, NULL);
}

void line_count_transfers(struct cacheline *l, enum line_op op, enum sim_hop hop, uint64_t n,
			  sim_time_t each, const char *site)
{
	if (n)
		line_count(l, op, LINE_PEER, hop, n, (sim_time_t)n * each, 0, site);
}

void line_evict_core(struct cacheline *l, int cpu)
{
	if (l->last_cpu < 0)
		return;
	line_machine();
	const struct line_cpu *me = &L.cpus[cpu];
	if (l->owner == cpu) {
		l->owner = -1;
		l->sharers |= me->llc_bit;
	}
	l->cores &= ~me->core_bit;
}

void line_touch(struct sim_task *t, struct cacheline *l, enum line_op op, const char *site)
{
	sim_task_stall(t, SIM_CAT_SYS, line_access(sim_task_cpu(t), l, op, site));
}

/* "queued": the first RMW waits at the line like any request. */
static void line_atomic_queued(struct sim_task *t, struct cacheline *l, long n,
			       enum sim_cat wait_cat, const char *site)
{
	int cpu = sim_task_cpu(t);
	sim_time_t wait;
	sim_time_t c = line_access_at(cpu, l, LINE_RMW, site, sim_task_clock(t), &wait);
	sim_task_stall(t, wait_cat, wait);
	for (long i = 1; i < n; i++)
		c += line_access_at(cpu, l, LINE_RMW, site, sim_task_clock(t) + c - wait, NULL);
	sim_task_stall(t, SIM_CAT_SYS, c - wait);
}

void line_atomic_n(struct sim_task *t, struct cacheline *l, long n, enum sim_cat wait_cat,
		   const char *site)
{
	sim_task_flush(t);
	if (line_queued()) {
		line_atomic_queued(t, l, n, wait_cat, site);
		return;
	}
	sim_time_t now = sim_task_clock(t);
	int cpu = sim_task_cpu(t);
	bool queued = l->busy_until > now && l->owner != cpu;
	sim_time_t c = line_access(cpu, l, LINE_RMW, site);
	if (queued) { /* the line comes from the RMW ahead, already asked for */
		sim_task_charge(t, wait_cat, l->busy_until - now);
		c -= (c - cost(COST_LOCKED_RMW)) / 2;
	}
	for (long i = 1; i < n; i++)
		c += line_access(cpu, l, LINE_RMW, site);
	sim_task_charge(t, SIM_CAT_SYS, c);
	l->busy_until = sim_task_clock(t);
}

void line_atomic(struct sim_task *t, struct cacheline *l, enum sim_cat wait_cat, const char *site)
{
	line_atomic_n(t, l, 1, wait_cat, site);
}

static gint site_cmp(gconstpointer a, gconstpointer b)
{
	const struct line_site *x = *(struct line_site *const *)a;
	const struct line_site *y = *(struct line_site *const *)b;
	if (x->n.transfers != y->n.transfers)
		return x->n.transfers > y->n.transfers ? -1 : 1;
	if (x->n.accesses != y->n.accesses)
		return x->n.accesses > y->n.accesses ? -1 : 1;
	return strcmp(x->site, y->site);
}

GPtrArray *line_sites_sorted(const struct line_class *c)
{
	GPtrArray *all = g_ptr_array_new();
	GHashTableIter it;
	gpointer v;
	g_hash_table_iter_init(&it, c->sites);
	while (g_hash_table_iter_next(&it, NULL, &v))
		g_ptr_array_add(all, v);
	g_ptr_array_sort(all, site_cmp);
	return all;
}

static json_t *counts_json(const uint64_t *v, const char *const *names, int n)
{
	json_t *o = json_object();
	for (int i = 0; i < n; i++)
		json_object_set_new(o, names[i], json_integer((json_int_t)v[i]));
	return o;
}

/* @n as the report's members: "accesses", "transfers", "ops" (by access
 * kind: where the line was found, and transfers' "hops"), "time_ns". */
static json_t *counts_members(json_t *o, const struct line_counts *n)
{
	static const char *const sources[LINE_SOURCE_N] = {"hit", "llc_hit", "peer", "dram"};
	json_t *ops = json_object();
	for (int op = 0; op < LINE_OP_N; op++) {
		json_t *k = counts_json(n->from[op], sources, LINE_SOURCE_N);
		json_object_set_new(k, "hops", counts_json(n->hops[op], sim_hop_names, SIM_HOP_N));
		json_object_set_new(ops, line_op_names[op], k);
	}
	json_object_set_new(o, "accesses", json_integer((json_int_t)n->accesses));
	json_object_set_new(o, "transfers", json_integer((json_int_t)n->transfers));
	json_object_set_new(o, "ops", ops);
	json_object_set_new(o, "time_ns", json_real(sim_to_ns(n->time)));
	if (line_queued()) {
		json_object_set_new(o, "queued", json_integer((json_int_t)n->queued));
		json_object_set_new(o, "queue_ns", json_real(sim_to_ns(n->queue_time)));
	}
	return o;
}

/* @c with its counts @n (line_class_counts) and its sites'. */
static json_t *class_json(const struct line_class *c, const struct line_counts *n)
{
	json_t *sites = json_array();
	GPtrArray *all = line_sites_sorted(c);
	for (guint i = 0; i < all->len; i++) {
		const struct line_site *s = all->pdata[i];
		json_array_append_new(sites,
				      counts_members(json_pack("{s:s}", "site", s->site), &s->n));
	}
	g_ptr_array_free(all, TRUE);
	json_t *o = counts_members(json_pack("{s:s}", "class", c->name), n);
	json_object_set_new(o, "sites", sites);
	return o;
}

json_t *line_stats_json(void)
{
	json_t *a = json_array();
	for (guint i = 0; L.classes && i < L.classes->len; i++) {
		const struct line_class *c = L.classes->pdata[i];
		struct line_counts n = line_class_counts(c);
		if (n.accesses)
			json_array_append_new(a, class_json(c, &n));
	}
	return a;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cacheline: cache lines as model objects, with their coherence state.
 *
 * A modelled structure declares its lines (which fields share a line, as the
 * kernel's struct layout has them), and a path's accesses are explicit: a
 * load, a store or a locked read-modify-write on a named line. Each line
 * keeps where it is: the CPU that holds it modified (its last writer), the
 * cores and the LLC domains holding clean copies (bit core % 64, llc % 64),
 * and the last CPU to touch it. An access costs, from the machine's cost
 * table (models/cost.h):
 *  - a hit (line_same_cpu_ns) when this CPU's core has it, with the right to
 *    write for a store (no copy elsewhere);
 *  - an LLC hit (llc_hit_ns) when a clean copy is in this CPU's LLC domain;
 *  - a transfer from the cache that has it (line_<hop>_ns: SMT sibling, same
 *    LLC, same socket, other socket), or, for a store to a line shared
 *    elsewhere, the invalidation of the farthest copy;
 *  - memory (dram_local_ns or dram_remote_ns, by the line's home node) when
 *    no cache has it: never touched, or evicted, which happens once the LLC
 *    it was last in has streamed more bytes than it holds (line_stream());
 * plus, for a locked RMW, locked_rmw_ns. A transfer figure is what one
 * access waits for (a request and the line coming back); a line passed from
 * one queued RMW to the next moves in half that (line_atomic()).
 *
 * A zeroed struct cacheline is a fresh line too (of the class "(unnamed)"),
 * so structures allocated zeroed need no line_init to be correct.
 *
 * Accesses are not synchronised with the engine: like a plain memory access
 * they happen at the task's own clock, in the order the tasks make them.
 * Paths that need exact ordering make them inside a lock, or use
 * line_atomic(), which serialises RMWs on the line as the hardware does.
 * Every access is counted per line class and site, for the cache-line report
 * (as `perf c2c` shows real machines).
 *
 * With machine.contention "queued" (docs/hardware.md), a line is also a
 * server: a request that needs the line from another cache (a transfer, or a
 * store's invalidations) while the line is serving another one waits for it,
 * then is served in the queued service time, which depends on how many
 * requests are pending (the home agent overlaps them: line_queue_llc_ns with
 * two, falling to line_queue_deep_ns) and on how many LLC domains and
 * sockets they come from (the line serves a domain's pending requests
 * together and moves between domains once a round: line_queue_socket_ns,
 * line_queue_remote_ns for the moves). A store or RMW to a line other cores
 * share pays, besides the farthest copy's invalidation, line_inval_ns for
 * every further copy, scaled by that copy's distance. A request's time is its
 * CPU's clock: the running task's, or, inside a critical section whose
 * accesses are priced before they are charged, the end of the CPU's last
 * access (line_access_at() takes it explicitly). */
#pragma once
#include "sim_engine.h"
#include <glib.h>
#include <jansson.h>
#include <stdint.h>

enum line_op { LINE_LOAD, LINE_STORE, LINE_RMW, LINE_OP_N };
extern const char *const line_op_names[LINE_OP_N];

/* Where an access found the line. */
enum line_source {
	LINE_HIT,     /* this CPU's cache */
	LINE_LLC_HIT, /* a clean copy in this CPU's LLC domain */
	LINE_PEER,    /* another cache: a transfer (by hop) */
	LINE_DRAM,    /* memory */
	LINE_SOURCE_N
};

/* What accesses to lines found and cost: a class's, or one site's. */
struct line_counts {
	uint64_t ops[LINE_OP_N];
	uint64_t from[LINE_OP_N][LINE_SOURCE_N];
	uint64_t hops[LINE_OP_N][SIM_HOP_N]; /* transfers, by how far the line came */
	uint64_t accesses, transfers;	     /* the totals of ops and of from[][LINE_PEER] */
	sim_time_t time;		     /* what the accesses cost, queueing included */
	uint64_t queued;		     /* "queued": accesses that waited for the line */
	sim_time_t queue_time;		     /* ... and their waits */
};

struct line_site {
	const char *site;
	struct line_counts n;
};

/* A site string's address and its record (line_site_get). */
struct line_site_slot {
	const char *site;
	struct line_site *rec;
};
#define LINE_SITE_SLOTS 8

/* Every line of one kind ("&nlru->lock", "page_counter.usage"): the
 * counters of the cache-line report. */
struct line_class {
	char *name;
	GHashTable *sites; /* site name -> struct line_site (owns them) */
	/* The addresses of the class's first sites: an access finds its
	 * site's record here, without hashing or comparing the string. */
	struct line_site_slot site_slots[LINE_SITE_SLOTS];
	unsigned nslots;    /* taken so far; past LINE_SITE_SLOTS, the oldest is replaced */
	unsigned last_slot; /* the slot the last lookup found */
};

struct cacheline {
	struct line_class *cls;
	/* CPUs, nodes and LLC domains fit 16 bits (SIM_MACHINE_MAX_CPUS) */
	int16_t owner;		  /* the CPU holding it modified; -1: no cache does */
	int16_t last_cpu;	  /* the last CPU to touch it; -1: never touched */
	int16_t home;		  /* NUMA node of its memory */
	int16_t llc;		  /* the LLC domain of its last access */
	int16_t kept_by;	  /* "transfer": the holder a request will take it from ... */
	uint64_t sharers;	  /* LLC domains with a clean copy (bit llc % 64) */
	uint64_t cores;		  /* cores with a clean copy (bit core % 64) */
	uint64_t streamed;	  /* what that LLC had streamed then (bytes) */
	sim_time_t busy_until;	  /* line_atomic(), or "queued": the last service's end */
	sim_time_t asked_at;	  /* "queued": when the last service was asked for */
	sim_time_t kept_until;	  /* "transfer": ... which keeps it until then (line_kept) */
	struct line_queue *queue; /* "queued": the pending services, once it queued */
};

/* The class named @name, created on first use, kept in creation order. */
struct line_class *line_class_get(const char *name);
GPtrArray *line_class_all(void);
void line_class_reset_all(void);
/* What @c's lines' accesses found and cost: the sum of its sites'. */
struct line_counts line_class_counts(const struct line_class *c);

void line_init(struct cacheline *l, struct line_class *cls, int home_node);
/* The cost of @op on @l by @cpu, the line's new state, and the counters. */
sim_time_t line_access(int cpu, struct cacheline *l, enum line_op op, const char *site);
/* The same at simulated time @at, with machine.contention "queued" waiting
 * for the line first: *@wait (may be NULL) is that wait, which the returned
 * cost includes. Under "idle", @at is not used and the wait is 0. */
sim_time_t line_access_at(int cpu, struct cacheline *l, enum line_op op, const char *site,
			  sim_time_t at, sim_time_t *wait);
/* One access of a step (line_access_group): @after is the index of an
 * earlier access of the step whose result this one needs (a pointer it
 * loads, a value it stores), -1 if none. */
struct line_req {
	struct cacheline *l;
	enum line_op op;
	const char *site;
	int after;
};
/* The most accesses a step may make (line_access_group). */
#define LINE_GROUP_MAX 64
/* The misses a core keeps in flight at once (an Intel server core's ten L1D
 * fill buffers; docs/hardware.md). */
#define LINE_MLP 10
/* "transfer": @n accesses of one step by @cpu from @at, each made as soon as
 * what it needs is there: an independent one line_issue_ns after the one
 * before it (at most LINE_MLP in flight), a dependent one when the access it
 * needs ends. Returns the step's time, from @at to its last access's end;
 * *@wait (may be NULL) is what that last access waited for its line. Under
 * "idle" and "queued" the accesses are made one after the other, as n
 * line_access_at calls would make them. */
sim_time_t line_access_group(int cpu, const struct line_req *r, int n, sim_time_t at,
			     sim_time_t *wait);
/* "queued": where @cpu's next access happens, the end of its last one or its
 * running task's clock, whichever is later. */
sim_time_t line_cpu_clock(int cpu);
/* "queued": what @cpu's accesses have cost so far, and the part of that
 * spent waiting at lines (0 under "idle"); a lock's hold takes the
 * difference over its critical section. */
void line_cpu_spent(int cpu, sim_time_t *spent, sim_time_t *waited);
/* Is the run's contention model "queued"? */
bool line_queued(void);
/* The same, charged to @t as sys time stalled on the line (sim_task_stall:
 * SMT siblings do not stretch it). */
void line_touch(struct sim_task *t, struct cacheline *l, enum line_op op, const char *site);
/* A locked RMW on a line several CPUs update (an atomic counter): the RMWs
 * queue for the line in arrival order; one that finds another in progress
 * waits for it (charged as @wait_cat) and gets the line from it in half a
 * transfer. Flushes @t. Under "queued" and "transfer" the wait and the RMW
 * are stalls (sim_task_stall). */
void line_atomic(struct sim_task *t, struct cacheline *l, enum sim_cat wait_cat, const char *site);
/* @n RMWs back to back by one CPU: the line comes once. */
void line_atomic_n(struct sim_task *t, struct cacheline *l, long n, enum sim_cat wait_cat,
		   const char *site);
/* @n accesses the caller prices itself, each a transfer over @hop costing
 * @each (the ticket lock's spinners re-reading its word after a release),
 * counted for the report; the line's state is the caller's to keep. */
void line_count_transfers(struct cacheline *l, enum line_op op, enum sim_hop hop, uint64_t n,
			  sim_time_t each, const char *site);
/* @cpu's core lost its copy of @l to its own L1/L2 capacity (the line stays
 * in the LLC, written back if it was modified there). */
void line_evict_core(struct cacheline *l, int cpu);
/* @cpu streamed @bytes through its LLC (a page written, a file read). */
void line_stream(int cpu, uint64_t bytes);
/* What LLC domain @llc has streamed so far (bytes). */
uint64_t line_streamed(int llc);
/* @c's sites, most transfers first; free with g_ptr_array_free(a, TRUE). */
GPtrArray *line_sites_sorted(const struct line_class *c);
/* The classes' counters as the result's "cachelines" array (docs/results.md). */
json_t *line_stats_json(void);

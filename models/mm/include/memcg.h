/* SPDX-License-Identifier: GPL-2.0-or-later */
/* memcg: memory cgroups, their page counters, charging with a per-CPU stock,
 * per-node lruvecs, and the cgroup lifecycle (mkdir, rmdir -> offline ->
 * reparent). Function names follow mm/memcontrol.c and mm/page_counter.c. */
#pragma once
#include "lock_scope.h"
#include "mm_const.h"
#include "mm_stats.h"
#include "spinlock.h"
#include <glib.h>
#include <stdint.h>

struct mem_cgroup;

/* A hierarchical page counter (mm/page_counter.c; a res_counter before
 * Linux 3.19): its fields, and the lines they sit in as the run's charge
 * design lays them out (models/mm/include/charge.h). */
#define PAGE_COUNTER_LINES 3
struct page_counter {
	long usage; /* pages; atomic in the kernel */
	long max, high, min, low;
	long min_usage, low_usage;		     /* protected usage */
	long children_min_usage, children_low_usage; /* the children's, summed */
	long watermark, failcnt;
	bool protection_support; /* propagate_protected_usage runs (memory; 6.9+: not swap) */
	struct page_counter *parent;
	struct cacheline lines[PAGE_COUNTER_LINES];
	/* res_counter's lock, and the line of its usage, max_usage and limit:
	 * where the counter design places them (charge_res_counter.c) */
	struct spinlock lock;
	struct cacheline *fields;
	/* the run's memcg.charge.layout and .protection, as page_counter's
	 * accesses read them (charge_page_counter.c) */
	const struct page_counter_layout *layout;
	int protection; /* enum charge_protection */
};

struct folio;
/* A list of folios (the LRU's list_head), oldest at the tail. */
struct folio_list {
	struct folio *head, *tail;
	long nr;
};
enum lru_list { LRU_INACTIVE_FILE, LRU_ACTIVE_FILE, NR_LRU_FILE };

/* Per (memcg, node): the page LRU lists, protected by the lru lock of the
 * run's scope (memcg.lru_lock_scope): its own lru_lock, which sits in the
 * lists' line (5.11+), or its node's pgdat->lru_lock (before). */
struct lruvec {
	struct spinlock lru_lock;
	struct cacheline line;
	struct mem_cgroup *memcg;
	int nid;
	struct folio_list
	    lists[NR_LRU_FILE]; /* the folio-level LRU (models/mm/include/folio_lru.h) */
	long nr_anon;		/* lru_lock */
	long nr_file;		/* lru_lock */
	GQueue file_owners;	/* lru_lock: the owner of each file page, oldest first */
};

struct obj_cgroup {
	struct mem_cgroup *memcg; /* redirected to the parent on reparenting */
	long nr_bytes;		  /* slab bytes charged through this objcg */
	long nr_pages;		  /* pages charged for them */
};

struct memcg_stats {
	MEMCG_STATS(MM_STAT_MEMBER) /* mm_stats.h */
	sim_time_t reclaim_time;    /* in try_to_free_mem_cgroup_pages */
};

struct mem_cgroup {
	int id;	    /* index in creation order; 0 is the root */
	char *name; /* path below the root, "" for the root */
	struct mem_cgroup *parent;
	GPtrArray *children;
	guint sibling_idx; /* index in parent->children */
	struct page_counter memory;
	struct page_counter memsw; /* memory+swap (cgroup v1), charged when memcg.charge.memsw */
	struct page_counter swap;  /* memory.swap (cgroup v2): swap entries, charged at swap-out */
	int kmemcg_id;		   /* list_lru index; the root and offline memcgs: -1 */
	bool online;
	int nr_procs; /* processes in it that exit_mmap at their end (memhog's), not yet exited */
	struct lruvec *nodeinfo; /* [nodes] */
	uint64_t *shrinker_bits; /* [nodes]: bit per shrinker id */
	long *nr_deferred;	 /* [nodes x SHRINKER_MAX]: deferred scan work */
	struct obj_cgroup *objcg;
	struct memcg_stats stat;
	long page_stat[3];	   /* page_cgroup.c: FILE_MAPPED, FILE_DIRTY, WRITEBACK */
	struct memcg_rstat *rstat; /* memcg_rstat.h: its flush state, once updated */
	int *softlimit_events;	   /* [cpus]: 2.6.32's MEM_CGROUP_STAT_SOFTLIMIT count-down */
	/* css.parent and the memcg's id, the head of struct mem_cgroup: their
	 * own line, or the memory counter's usage line where the counter
	 * design places them there (css_parent says which) */
	struct cacheline css_line;
	struct cacheline *css_parent;	       /* the line parent_mem_cgroup reads */
	struct cacheline socket_pressure_line; /* socket_pressure: written by vmpressure only */
};

struct list_lru_scope_ops;

/* A CPU's stock of pages charged ahead (memcg_stock_pcp): its own line. */
struct memcg_stock_pcp {
	struct mem_cgroup *cached;
	long nr_pages;
	struct cacheline line;
};

/* A node's pgdat->lru_lock (before 5.11) in its own line. */
struct pglist_data {
	struct spinlock lru_lock;
	struct cacheline line;
	int lru_last_cpu; /* the CPU that last added to or took from its list; -1: none */
};

struct memcg_tree {
	struct mem_cgroup *root;
	const struct lock_scope *lru_lock_scope;    /* which lock protects a lruvec */
	struct pglist_data *pgdat;		    /* [nodes] */
	const struct list_lru_scope_ops *lru_scope; /* of every list_lru of the run */
	GPtrArray *all;				    /* every memcg ever created, by id */
	GPtrArray *by_kmemcg;			    /* the memcg each kmemcg_id was given to */
	GHashTable *by_name;
	int nodes;
	int ncpus;
	int next_kmemcg_id;
	struct lock_class *lruvec_class;
	bool disabled;		       /* cgroup_disable=memory, or a kernel without memcg */
	struct memcg_stock_pcp *stock; /* per CPU */
	/* memcg_rstat_updated (Linux 6.0): the per-CPU stats_updates and the
	 * global stats_flush_threshold in its line */
	long *stats_updates;	     /* per CPU */
	struct cacheline *lru_pages; /* per CPU: the struct pages it last put on a zone LRU */
	long stats_flush_threshold;
	struct cacheline stats_flush_threshold_line;
	/* Reclaim dropped @nr file pages of @memcg on @nid, oldest first:
	 * tell their owners (the filesystem model sets it). */
	void (*file_pages_dropped)(struct sim_task *t, struct mem_cgroup *memcg, int nid, long nr);
};

extern struct memcg_tree *memcg_tree;

/* What a memcg costs the simulator until the run ends (a removed one is
 * kept, as its figures are reported): its struct mem_cgroup, objcg, name
 * and figures in the result, and per node its lruvec, shrinker bits and
 * deferred counts. Measured (maximum resident size of one simulation,
 * 5000 and 20000 idle cgroups): 5.87 KB a memcg with 1 node, 8.26 KB
 * with 4, 17.8 KB with 16, 50.6 KB with 64. */
#define MEMCG_BYTES 5100
#define MEMCG_NODE_BYTES 800
static inline double mem_cgroup_bytes(int nodes)
{
	return MEMCG_BYTES + (double)MEMCG_NODE_BYTES * nodes;
}

/* mem_cgroup_disabled(): no memcg at all (memcg.enabled false). */
static inline bool mem_cgroup_disabled(void)
{
	return !memcg_tree || memcg_tree->disabled;
}

void memcg_tree_init(int nodes, int ncpus);
void memcg_tree_destroy(void);
/* A cgroup name template's instance @i: "job%d" -> "job7"; a name without
 * "%d" is returned as is. */
char *mem_cgroup_instance_name(const char *tmpl, long i);
/* mkdir: create @name (parent is the path up to its last '/'). */
struct mem_cgroup *mem_cgroup_create(const char *name, long max_pages);
struct mem_cgroup *mem_cgroup_lookup(const char *name);
/* The memcg that kmemcg_id @id was given to (it may be offline since). */
struct mem_cgroup *mem_cgroup_from_kmemcg_id(int id);
/* Pre-order iteration over @root's subtree, as mem_cgroup_iter(). */
struct mem_cgroup *mem_cgroup_iter(struct mem_cgroup *root, struct mem_cgroup *prev);

/* Charge @nr pages to @memcg from task @t; false when reclaim failed and the
 * charge ended in OOM (counted, then forced as memory.oom.group-less
 * kernels do for the faulting task's next retry). */
bool mem_cgroup_charge(struct sim_task *t, struct mem_cgroup *memcg, long nr);
void mem_cgroup_uncharge(struct sim_task *t, struct mem_cgroup *memcg, long nr);
long mem_cgroup_margin(struct mem_cgroup *memcg);
/* The lock that protects @lv's lists (folio_lruvec_lock's lock). */
struct spinlock *lruvec_lru_lock(struct lruvec *lv);
/* After a reclaim batch of @lv: lru_note_cost's lock section at every level
 * from @lv's memcg up to the root's (memcg/lruvec.c says which kernels). */
void lru_note_cost(struct sim_task *t, struct lruvec *lv);
/* Take @lv's lru lock for @nr folios moving on or off its lists. */
void lruvec_lock_pages(struct sim_task *t, struct lruvec *lv, long nr, const char *site);
/* Linux 2.6.32's zone LRU for anonymous pages (mm/swap.c): a pagevec of
 * @nr pages onto it (____pagevec_lru_add) or off it (release_pages), under
 * the node's lru lock (zone->lru_lock: memcg.lru_lock_scope node). */
#define PAGEVEC_SIZE_2632 14 /* PAGEVEC_SIZE in 2.6.32 (15 from 5.x) */
void pagevec_lru_add_anon(struct sim_task *t, struct mem_cgroup *memcg, int nid, long nr);
void release_pages_anon(struct sim_task *t, struct mem_cgroup *memcg, int nid, long nr);
/* Add pages to the memcg's LRU on @nid (lru_add under the lruvec lock). */
void lru_add_pages(struct sim_task *t, struct mem_cgroup *memcg, int nid, long anon, long file);
long lruvec_pages(struct mem_cgroup *memcg, int nid);
/* A process's exit, one of @procs alive in @memcg: its resident anonymous
 * pages, which the model keeps by cgroup, are a 1/@procs share of each
 * node's (all of them for the last), taken off the LRU and uncharged;
 * returns how many. */
long lru_release_anon(struct sim_task *t, struct mem_cgroup *memcg, int procs);
/* An exiting process's share of @total things its cgroup holds (pages,
 * swap slots), the model keeping them by cgroup: with @procs processes
 * alive there, 1/@procs of them; the last has no bound (G_MAXLONG): all
 * there are, those that come while it frees too. */
static inline long mem_cgroup_exit_share(long total, int procs)
{
	return procs > 1 ? total / procs : G_MAXLONG;
}
/* New file pages wait in a batch before they join their memcg's file LRU
 * (the kernel's per-CPU lru_add folio batch, PAGEVEC_SIZE folios). */
#define FOLIO_BATCH_SIZE 15
struct folio_batch {
	struct mem_cgroup *memcg;
	int nid;
	int nr;
	void *owners[FOLIO_BATCH_SIZE];
};
/* Add a file page owned by @owner; the batch moves to the LRU when full or
 * when the page belongs elsewhere. */
void folio_batch_add_file(struct sim_task *t, struct folio_batch *fb, struct mem_cgroup *memcg,
			  int nid, void *owner);
/* folio_batch_move_lru: the batched pages join the LRU under lru_lock. */
void folio_batch_move_lru(struct sim_task *t, struct folio_batch *fb);
/* Slab objects: charge @bytes to @objcg's memcg, a page at a time
 * (obj_cgroup_charge); uncharging returns the pages given back. */
bool obj_cgroup_charge(struct sim_task *t, struct obj_cgroup *objcg, long bytes);
long obj_cgroup_uncharge(struct sim_task *t, struct obj_cgroup *objcg, long bytes);

/* rmdir: offline and reparent (memcg_offline_kmem). */
void mem_cgroup_css_offline(struct sim_task *t, struct mem_cgroup *memcg);
void memcg_offline_kmem(struct sim_task *t, struct mem_cgroup *memcg);
/* A memcg's memory counter's memcg. */
struct mem_cgroup *mem_cgroup_of_counter(struct page_counter *c);

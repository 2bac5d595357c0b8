/* sim_machine: the simulated machine (NUMA nodes x CPUs) and its cost table.
 *
 * Plain data, shared by the scenario loader (which fills it) and the engine
 * (which runs it). Every cost is a scenario parameter: machine.costs.<key>. */
#pragma once
#include "sim_time.h"

enum sim_cost_id {
	SIM_COST_LOCK_ACQ_REL,     /* uncontended spin_lock + spin_unlock */
	SIM_COST_LINE_SAME_CPU,    /* lock cache line last held by this CPU */
	SIM_COST_LINE_SAME_NODE,   /* ... by another CPU of the same node */
	SIM_COST_LINE_OTHER_NODE,  /* ... by a CPU of another node */
	SIM_COST_IRQ_SAVE_RESTORE, /* local_irq_save + local_irq_restore */
	SIM_COST_CONTEXT_SWITCH,   /* switching a CPU from one task to another */
	SIM_COST_ATOMIC,	   /* atomic on a shared counter (page_counter) */
	SIM_COST_LIST_OP,	   /* list_add / list_del of a list_lru item, under its lock */
	SIM_COST_XA_STORE,	   /* one swap-cache xarray store, under i_pages */
	SIM_COST_XA_NODE_FREE,	   /* xa_delete_node of a shadow node */
	SIM_COST_LRU_PAGE,	   /* isolating or putting back one page, under lru_lock */
	SIM_COST_MEMSET_PAGE,	   /* user time writing one 4 KiB page */
	SIM_COST_ANON_FAULT,	   /* kernel time of one anonymous page fault */
	SIM_COST_RECLAIM_PAGE,	   /* shrink_folio_list work per page, not counting the below */
	SIM_COST_ZRAM_WRITE,	   /* compressing and storing one page in zram */
	SIM_COST_SHRINKER_CALL,	   /* one do_shrink_slab call: count_objects and setup */
	SIM_COST_RECLAIM_FILE_PAGE, /* dropping one clean, unmapped page-cache page */
	SIM_COST_FILE_READ,	   /* open + read + close of one small cached-miss file */
	SIM_COST_DENTRY_FREE,	   /* __dentry_kill: unhash and free one dentry */
	SIM_COST_INODE_FREE,	   /* evict + destroy_inode of one clean inode */
	SIM_COST_RCU_READ_LOCK,	   /* rcu_read_lock + rcu_read_unlock */
	SIM_COST_IPI,		   /* sending one IPI (synchronize_rcu_expedited) */
	SIM_COST_READ_FAULT,	   /* a read fault on a cached file page, MEMCG=n */
	SIM_COST_MEMCG_PAGE_STAT,  /* mem_cgroup_update_page_stat's work, lock excluded */
	SIM_COST_PAGE_CGROUP_LOOKUP, /* finding a page's page_cgroup and its memcg */
	SIM_COST_N
};

struct sim_cost_desc {
	const char *key;
	double default_ns;
	const char *doc;
	const char *source;
};

/* Indexed by enum sim_cost_id. */
extern const struct sim_cost_desc sim_cost_table[SIM_COST_N];

#define SIM_MACHINE_MAX_NODES 64
#define SIM_MACHINE_MAX_CPUS 4096

struct sim_machine {
	int nodes;
	int cpus_per_node;
	double clock_ghz;
	sim_time_t sched_slice; /* time slice when tasks share a CPU */
	sim_time_t cost[SIM_COST_N];
};

static inline int sim_machine_cpus(const struct sim_machine *m)
{
	return m->nodes * m->cpus_per_node;
}

/* CPUs are numbered node by node: CPU c is on node c / cpus_per_node. */
static inline int sim_machine_cpu_node(const struct sim_machine *m, int cpu)
{
	return cpu / m->cpus_per_node;
}

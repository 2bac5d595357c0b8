/* SPDX-License-Identifier: GPL-2.0-or-later */
/* insn: the instructions of the kernel steps the models spell out, priced at
 * the machine's CPI and clock (machine.contention "queued" only).
 *
 * A modelled step costs its line accesses (cacheline.h) and, besides them,
 * its own instructions: insn_cost(INSN_X) = machine.insns.<key> x
 * machine.cpi / machine.clock_ghz. The counts are of the kernel function on
 * the path the model takes, x86-64, the kernel version the model stands
 * for, each with its range and how it was counted (docs/instructions.md);
 * machine.cpi is the cycles an instruction takes with its data in L1 (the
 * line accesses are charged apart, so a CPI that includes cache misses
 * would pay them twice). Under "idle" every step costs 0 here, as before.
 * To add a step: an id here, its row in insn.c, then charge insn_cost()
 * where the kernel path runs it. */
#pragma once
#include "sim_engine.h"

enum insn_id {
	INSN_XA_LOAD,		    /* xa_load of a memcg's list_lru, one level */
	INSN_XA_LEVEL,		    /* ... each further level */
	INSN_MEMCG_FROM_SLAB_OBJ,   /* mem_cgroup_from_slab_obj (6.1: under the node lock) */
	INSN_LIST_LRU_ADD,	    /* list_lru_add's own code (list_add_tail, counts) */
	INSN_LIST_LRU_DEL,	    /* list_lru_del's own code */
	INSN_LRU_WALK_ITEM,	    /* __list_lru_walk_one, per item, callback excluded */
	INSN_SHADOW_ISOLATE,	    /* shadow_lru_isolate, xa_delete_node excluded */
	INSN_DENTRY_ISOLATE,	    /* dentry_lru_isolate, an unused dentry moved */
	INSN_INODE_ISOLATE,	    /* inode_lru_isolate, a clean inode moved */
	INSN_PAGE_COUNTER_CHARGE,   /* page_counter_try_charge, per level */
	INSN_PAGE_COUNTER_UNCHARGE, /* page_counter_uncharge, per level */
	INSN_LRU_ADD_FOLIO,	    /* lru_add_fn of one folio, stat updates included */
	INSN_ISOLATE_FOLIO,	    /* isolate_lru_folios, per folio */
	INSN_LRU_NOTE_COST_LEVEL,   /* lru_note_cost, one level, the lock held */
	INSN_SOCKET_PRESSURE_LEVEL, /* mem_cgroup_under_socket_pressure, one level */
	INSN_XAS_STORE,		   /* xas_store of one entry, update_node and its callback's test */
	INSN_SWAP_MAP_UPDATE,	   /* one slot's swap_map byte and cluster count, ci->lock held */
	INSN_SWAP_CGROUP_RECORD,   /* swap_cgroup_record of one entry, ctrl->lock held */
	INSN_CGROUP_RSTAT_UPDATED, /* cgroup_rstat_updated's linking, the CPU's lock held */
	INSN_CGROUP_RSTAT_CPU,	   /* cgroup_rstat_updated_list of one CPU, its lock held */
	INSN_MEMCG_RSTAT_FLUSH,	   /* mem_cgroup_css_rstat_flush of one memcg and CPU */
	INSN_N
};

struct insn_desc {
	const char *key;    /* machine.insns.<key> */
	double count;	    /* the default */
	double lo, hi;	    /* its range */
	const char *doc;    /* the kernel function and version */
	const char *source; /* how it was counted */
};

/* Indexed by enum insn_id. */
extern const struct insn_desc insn_table[INSN_N];

/* @id's instructions at the run's CPI and clock; 0 under "idle". */
sim_time_t insn_cost(enum insn_id id);

// SPDX-License-Identifier: GPL-2.0-or-later
#include "insn.h"
#include <glib.h>
#include <math.h>

G_STATIC_ASSERT(INSN_N <= SIM_MACHINE_MAX_INSNS);

#define COUNTED "counted on 6.13 (gcc 12, -O2, defconfig + MEMCG) by a path walk of the object"
#define DOC "; docs/instructions.md"

const struct insn_desc insn_table[INSN_N] = {
    [INSN_XA_LOAD] = {"xa_load", 74, 73, 96, "xa_load + xas_load + xas_start, one level",
		      COUNTED DOC},
    [INSN_XA_LEVEL] = {"xa_level", 22, 20, 24, "xas_descend's loop, each further level",
		       COUNTED DOC},
    [INSN_MEMCG_FROM_SLAB_OBJ] = {"mem_cgroup_from_slab_obj", 46, 40, 52,
				  "mem_cgroup_from_slab_obj (list_lru_from_kmem, 6.1, under "
				  "the node lock)",
				  "counted on 6.1" DOC},
    [INSN_LIST_LRU_ADD] = {"list_lru_add", 66, 59, 76,
			   "list_lru_add's own code: list_add_tail, nr_items (6.13: 66, 6.1: 76)",
			   COUNTED DOC},
    [INSN_LIST_LRU_DEL] = {"list_lru_del", 60, 55, 65,
			   "list_lru_del's own code: list_del_init, nr_items (6.13: 60, 6.1: 65)",
			   COUNTED DOC},
    [INSN_LRU_WALK_ITEM] = {"list_lru_walk_item", 24, 16, 28,
			    "__list_lru_walk_one, per item (REMOVED 24, ROTATE 28, SKIP 16)",
			    COUNTED DOC},
    [INSN_SHADOW_ISOLATE] = {"shadow_lru_isolate", 175, 165, 205,
			     "shadow_lru_isolate with its trylock, list_lru_isolate and the "
			     "node and lruvec statistics; xa_delete_node apart",
			     COUNTED ", part estimated from the source" DOC},
    [INSN_DENTRY_ISOLATE] = {"dentry_lru_isolate", 64, 37, 64,
			     "dentry_lru_isolate: trylock, d_lru_shrink_move (37 when referenced)",
			     COUNTED DOC},
    [INSN_INODE_ISOLATE] = {"inode_lru_isolate", 80, 47, 80,
			    "inode_lru_isolate: a clean unreferenced inode moved to the "
			    "freeable list (47-50 when kept)",
			    COUNTED DOC},
    [INSN_PAGE_COUNTER_CHARGE] = {"page_counter_charge_level", 29, 13, 29,
				  "page_counter_try_charge, per level (6.1: 29 with "
				  "propagate_protected_usage; 6.13: 13)",
				  COUNTED DOC},
    [INSN_PAGE_COUNTER_UNCHARGE] = {"page_counter_uncharge_level", 18, 18, 35,
				    "page_counter_uncharge, per level (+17 with protection)",
				    COUNTED DOC},
    [INSN_LRU_ADD_FOLIO] = {"lru_add_folio", 230, 220, 240,
			    "lru_add_fn (6.1) / lru_add (6.13) of one small file folio, with "
			    "__mod_lruvec_state and mem_cgroup_update_lru_size",
			    COUNTED DOC},
    [INSN_ISOLATE_FOLIO] = {"isolate_folio", 40, 30, 50, "isolate_lru_folios, per folio",
			    "estimated from the 6.13 source, not counted" DOC},
    [INSN_LRU_NOTE_COST_LEVEL] = {"lru_note_cost_level", 40, 25, 60,
				  "lru_note_cost, one level with its lru_lock held: file_cost, "
				  "four lruvec_page_state reads, the decay test (5.10/5.11)",
				  "estimated from the 5.11 source, not counted" DOC},
    [INSN_SOCKET_PRESSURE_LEVEL] = {"socket_pressure_level", 7, 5, 10,
				    "mem_cgroup_under_socket_pressure, one level: jiffies "
				    "against socket_pressure, parent_mem_cgroup (6.0, 6.1)",
				    "estimated from the 6.0 source, not counted" DOC},
    [INSN_XAS_STORE] = {"xas_store", 60, 45, 90,
			"xas_store of one value or folio into an existing node: the slot, "
			"update_node's count and nr_values, workingset_update_node's test",
			"estimated from the 6.12 source, not counted" DOC},
    [INSN_SWAP_MAP_UPDATE] = {"swap_map_update", 40, 25, 80,
			      "one slot's swap_map byte with ci->lock held: "
			      "cluster_alloc_range + swap_range_alloc, __swap_duplicate, "
			      "__swap_entry_free_locked",
			      "estimated from the 6.12 source, not counted" DOC},
    [INSN_SWAP_CGROUP_RECORD] = {"swap_cgroup_record", 25, 15, 40,
				 "swap_cgroup_record's lookup and cmpxchg of one 2-byte id",
				 "estimated from the 6.12 source, not counted" DOC},
    [INSN_CGROUP_RSTAT_UPDATED] = {"cgroup_rstat_updated", 40, 25, 80,
				   "cgroup_rstat_updated's loop linking a cgroup and its "
				   "ancestors on a CPU's updated list (6.10)",
				   "estimated from the 6.10 source, not counted" DOC},
    [INSN_CGROUP_RSTAT_CPU] = {"cgroup_rstat_cpu", 45, 30, 120,
			       "cgroup_rstat_updated_list for one CPU: the target's subtree "
			       "unlinked (6.10), with cgroup_rstat_flush_locked's loop step",
			       "estimated from the 6.10 source, not counted" DOC},
    [INSN_MEMCG_RSTAT_FLUSH] = {"memcg_rstat_flush", 1200, 800, 1800,
				"mem_cgroup_css_rstat_flush of one memcg on one CPU: 34 state, "
				"22 event and 27 x 2 lruvec counters, each read, compared with "
				"its prev, added to the totals and the parent's pending (6.10), "
				"with cgroup_base_stat_flush",
				"estimated from the 6.10 source, not counted" DOC},
};

/* Each step's price, worked out once for the machine's counts, CPI and
 * clock (kept beside it: another run's machine differs in them). */
static struct {
	double insns, cpi, ghz;
	sim_time_t cost;
	bool set;
} insn_cache[INSN_N];

sim_time_t insn_cost(enum insn_id id)
{
	const struct sim_machine *m = sim_machine();
	if (m->contention == SIM_CONTENTION_IDLE || m->clock_ghz <= 0)
		return 0;
	typeof(insn_cache[0]) *c = &insn_cache[id];
	if (!c->set || c->insns != m->insns[id] || c->cpi != m->cpi || c->ghz != m->clock_ghz) {
		c->insns = m->insns[id];
		c->cpi = m->cpi;
		c->ghz = m->clock_ghz;
		c->cost = sim_round(m->insns[id] * m->cpi / m->clock_ghz * (double)SIM_NS);
		c->set = true;
	}
	return c->cost;
}

#include "sim_machine.h"

#define PERFBOOK "perfbook cpu/overheads.tex, Xeon Platinum 8176 @ 2.1 GHz"

const struct sim_cost_desc sim_cost_table[SIM_COST_N] = {
	[SIM_COST_LOCK_ACQ_REL] = {"lock_acquire_release_ns", 15.4,
				   "uncontended spin_lock + spin_unlock on the same CPU",
				   PERFBOOK ", same-CPU lock acquire + release"},
	[SIM_COST_LINE_SAME_CPU] = {"line_same_cpu_ns", 0.0,
				    "lock cache line last held by this CPU: already local",
				    "no transfer needed"},
	[SIM_COST_LINE_SAME_NODE] = {"line_same_node_ns", 47.5,
				     "lock cache line moved from another CPU of the same node",
				     PERFBOOK ", other core same socket, blind CAS"},
	[SIM_COST_LINE_OTHER_NODE] = {"line_other_node_ns", 148.8,
				      "lock cache line moved from a CPU of another node",
				      PERFBOOK ", other socket, blind CAS"},
	[SIM_COST_IRQ_SAVE_RESTORE] = {"irq_save_restore_ns", 7.5,
				       "local_irq_save + local_irq_restore pair",
				       "pushf/pop/cli + popf ~23 cycles (D. Vlasenko, LKML "
				       "2016-08-17); brief's 5-10 ns range, midpoint"},
	[SIM_COST_CONTEXT_SWITCH] = {"context_switch_ns", 0.0,
				     "switching a CPU between two runnable tasks",
				     "not in the brief's sources: 0 until calibrated"},
};

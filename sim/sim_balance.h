/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sim_balance: where the scheduler moves a task (machine.migration
 * "balance"), after the fair class's two paths that move tasks in a run
 * like the seed scenarios' (kernel/sched/fair.c; idle_balance in 2.6.32,
 * newidle_balance in 5.10 to 6.9, sched_balance_newidle in 6.11 and 6.12):
 * - a CPU that goes idle pulls a task waiting on the nearest busy CPU,
 *   walking its sched domains from the smallest (SMT core, LLC, NUMA node,
 *   socket, machine) and stopping at the first that has one;
 * - a task woken while its CPU is busy runs on an idle CPU of that CPU's
 *   LLC if there is one (select_idle_sibling), a whole idle core first.
 * - the periodic balance (rebalance_domains, from the tick): each domain at
 *   its interval pulls a waiting task from the domain's CPU with most tasks
 *   when that CPU has two more than this one.
 * The engine keeps the run queues; this module only chooses, from what
 * @waiting, @running and @idle tell it. */
#pragma once
#include "sim_time.h"
#include <stdbool.h>

/* The sched domain levels a CPU balances over, smallest first. */
#define SIM_BALANCE_LEVELS 5

/* The CPU whose waiting task newly idle @cpu pulls: in the smallest domain
 * of @cpu with a CPU that has tasks waiting, the one with most waiting,
 * ties to the first from @cpu + 1 on (for_each_cpu_wrap); -1 if none.
 * @waiting(c): the tasks waiting for CPU c. */
struct sim_machine;
/* Of machine @m (its topology: sim_machine.h): */
int sim_balance_busiest(const struct sim_machine *m, int cpu, int (*waiting)(int c));

/* select_idle_sibling for a task woken while @prev is busy: the first whole
 * idle core of @prev's LLC from @prev + 1 on, else its first idle CPU, else
 * @prev. @idle(c): no task owns CPU c. */
int sim_balance_idle_sibling(const struct sim_machine *m, int prev, bool (*idle)(int c));

/* The periodic balance of busy @cpu at @now (a slice end: the tick's
 * softirq): for each domain level whose time @next[level] has come, the
 * domain's CPU with the most tasks (@running: running and waiting), if it
 * has at least two more than @cpu and one waiting (calculate_imbalance
 * between equal tasks moves one), ties to the first from @cpu + 1 on; the
 * level's next time is its interval on (sd_init: the domain's weight in ms,
 * times busy_factor 16 on a busy CPU). Returns the CPU to pull one waiting
 * task from, or -1. */
int sim_balance_periodic(const struct sim_machine *m, int cpu, sim_time_t now,
			 sim_time_t next[SIM_BALANCE_LEVELS], int (*running)(int c),
			 int (*waiting)(int c));

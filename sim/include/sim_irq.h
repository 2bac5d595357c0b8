/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sim_irq: interrupt sources and their per-CPU arrival streams.
 *
 * Each source (the periodic tick, a device's Poisson interrupts) delivers to a
 * set of CPUs, with a handler cost. Arrivals are drawn in advance, one stream
 * per (source, CPU), and consumed in time order as the CPU's time is accounted
 * (sim_engine.c): a task running with interrupts on takes an arrival where it
 * falls, one with interrupts off leaves it pending until it enables them, an
 * idle CPU takes it between tasks. Latency is the time from arrival to the
 * handler's start. */
#pragma once
#include "sim_hist.h"
#include "sim_time.h"
#include <stdbool.h>
#include <stdint.h>

struct sim_task;

enum sim_irq_kind { SIM_IRQ_PERIODIC, SIM_IRQ_POISSON };

struct sim_irq_source {
	char *name;
	enum sim_irq_kind kind;
	sim_time_t interval; /* periodic: the period; Poisson: the mean gap */
	sim_time_t handler;
	bool skew;	       /* periodic: each CPU's phase drawn at random */
	uint64_t cpu_mask[64]; /* CPUs it reaches (bit per CPU) */
	/* A model's handler body, run in interrupt context at the arrival's
	 * delivery (after the handler cost); NULL for a cost only. On an idle
	 * CPU the CPU's interrupt task runs it (sim_engine.c). */
	void (*action)(struct sim_task *t, void *arg);
	void *action_arg;
	/* statistics */
	uint64_t count;
	sim_time_t latency_total, latency_max, handler_total;
	struct sim_hist latency;
};

void sim_irq_init(struct sim_irq_source *sources, int nsources, int ncpus, uint64_t seed);
bool sim_irq_reaches(const struct sim_irq_source *s, int cpu);
void sim_irq_fini(void);
int sim_irq_nsources(void);
struct sim_irq_source *sim_irq_source(int i);
/* The earliest arrival still to come on @cpu; SIM_TIME_MAX when none. */
sim_time_t sim_irq_next(int cpu);
/* Take that arrival: returns its source (SIM_IRQ_IPI for a posted one),
 * *at its time and *handler its handler's cost. */
#define SIM_IRQ_IPI (-1)
int sim_irq_pop(int cpu, sim_time_t *at, sim_time_t *handler);
/* The name of @source ("IPI" for a posted one). */
const char *sim_irq_name(int source);
/* Post a one-shot interrupt (an IPI) to @cpu at @at, its handler @handler. */
void sim_irq_post(int cpu, sim_time_t at, sim_time_t handler);
void sim_irq_record(int cpu, int source, sim_time_t latency);
/* Per-CPU figures: arrivals delivered, total, largest and p99 latency. */
void sim_irq_cpu_stats(int cpu, uint64_t *count, sim_time_t *total, sim_time_t *max,
		       sim_time_t *p99);

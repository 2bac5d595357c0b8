/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run_config: one run as the models receive it. The loader (loader/) decodes
 * a scenario, its --set overrides and one variant into a struct run_config;
 * the kernel models (mm/: the memcg section's checks and set-up), the
 * workloads and the run assembly (run/) read it. It also declares the
 * interface every workload type implements (struct workload_type; the
 * types themselves are in workloads/), so that a kernel model can ask a
 * workload which cgroup its tasks run in without depending on the
 * workloads. */
#pragma once
#include "cost.h"
#include "sim_irq.h"
#include "sim_machine.h"
#include "spec.h"
#include <jansson.h>
#include <stdbool.h>

struct kernel_params;
struct mm_params;
struct run_config;

/* What of the memcg section a workload's work goes through (struct
 * workload_type's reads): the keys that only such work reads (mm.h,
 * mm_key_readers) are said to be unread when a variant sets them and no
 * workload of its runs does that work. */
enum run_reads {
	RUN_READS_CHARGE = 1 << 0,	/* it charges pages or objects to a memcg */
	RUN_READS_LRU = 1 << 1,		/* it puts folios on an lruvec (lru_lock) */
	RUN_READS_LIST_LRU = 1 << 2,	/* its objects go on a list_lru of its own */
	RUN_READS_SWAP = 1 << 3,	/* its anonymous pages can be swapped out */
	RUN_READS_PAGE_CGROUP = 1 << 4, /* it works on memcg.page_cgroup's file */
	RUN_READS_FOLIOS = 1 << 5,	/* it allocates page-cache folios (the folio LRU) */
};

/* What a figure of a result's "metrics" (or "cpu_time_ns.<category>") means
 * when designs are compared. Workload types describe their own figures. */
struct run_metric {
	const char *name;
	bool higher_is_better; /* a rate: compared by Hmean, else by Amean */
	const char *unit;      /* "ns", "/us" ...; "" for none */
	const char *meaning;   /* what it counts, in a line (the result's "metric_info") */
};

struct workload_type {
	MCS_NAMED; /* the scenario's "type"; its spec's doc says what it is */
	/* Its keys: an SPEC_OBJECT (first field SPEC_TYPE_FIELD(name))
	 * decoding into the type's parameter structure. */
	const struct spec *spec;
	/* Checks across keys and sections, on the decoded @params of the
	 * workload at @path ("workloads.2"); NULL: none. */
	bool (*check)(const void *params, const struct run_config *cfg, const char *path,
		      struct spec_check *chk);
	/* Does it end by itself (so that a "completion" stop can end)? NULL:
	 * always. */
	bool (*finite)(const void *params);
	/* At least how long (simulated ns) its busiest task needs to finish,
	 * from its own per-unit costs (the estimate before a run, run.h);
	 * NULL: not estimated. */
	double (*planned_ns)(const void *params, const struct run_config *cfg);
	/* At most how many bytes of model objects the counts in @params make it
	 * allocate on @cfg's machine (fileread: a dentry and an inode per file
	 * read), summed with the memcg section's (mm.h) and checked at
	 * validation against RUN_MAX_MEMORY_BYTES (run.h); NULL: none that a
	 * count drives beyond its tasks. */
	double (*memory_bytes)(const void *params, const struct run_config *cfg);
	/* How many tasks its setup creates on @cfg's machine (each one a
	 * SimGrid actor with its own stack mappings), summed with the kernel's
	 * and checked at validation against RUN_MAX_TASKS (run.h); NULL: one. */
	long (*tasks)(const void *params, const struct run_config *cfg);
	/* How many shrinkers its setup registers (fileread: its superblock's),
	 * summed with the memcg section's and checked at validation against
	 * SHRINKER_MAX (shrinker.h). */
	int shrinkers;
	/* The cgroup of its tasks ("%d": the task's index) and how many tasks
	 * there are; NULL when it names no cgroup. The memcg section checks
	 * that each exists. */
	const char *(*cgroup)(const void *params, long *count);
	unsigned reads; /* enum run_reads: what of the memcg section it uses */
	/* Create the workload's locks and tasks; @index: its position in
	 * "workloads". Returns its state. */
	void *(*setup)(const void *params, int index);
	/* Add its figures to @metrics once the run is over; NULL for a workload
	 * that reports only through the shared figures. */
	void (*metrics)(void *state, json_t *metrics);
	/* What those figures mean in a comparison ({NULL}-terminated); NULL:
	 * the defaults of run_metric_find(). */
	const struct run_metric *metric_info;
	void (*destroy)(void *state);
};

struct run_workload {
	const struct workload_type *type;
	void *params; /* the type's decoded keys */
};

struct run_config {
	struct sim_machine machine;
	struct cost_range cost_range[SIM_MACHINE_MAX_COSTS];
	/* What each interrupt source is (name, rate, handler, CPUs); the run
	 * works on a copy, which gathers its statistics. */
	struct sim_irq_source *irqs;
	int nirqs;
	sim_time_t stop_at;    /* 0: when every workload task has finished */
	sim_time_t time_limit; /* a run to completion stops here */
	struct kernel_params *kernel;
	struct mm_params *memcg;
	struct run_workload *workloads;
	int nworkloads;
};

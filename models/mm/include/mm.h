/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mm: the memory-management side of a run: the scenario's memcg section (its
 * keys and their checks, mm_params.c), the state built from it (the cgroup
 * tree, the charge path, the list_lru lock scope, the shrinkers, then each
 * memcg subsystem: the swap device, the page_cgroup file, the folio LRU)
 * and its figures for the result (mm.c). */
#pragma once
#include "spec.h"
#include <glib.h>
#include <jansson.h>
#include <stdbool.h>

struct sim_task;
struct mem_cgroup;

/* The memcg subsystems, one line each, in set-up order (torn down in
 * reverse, their figures added to the result in this order):
 *  KEY(name):   the subsystem has a key memcg.<name> of its own, whose spec
 *               is `name##_params_spec` and which decodes into struct
 *               mm_params' member `struct name##_params *name` (NULL when
 *               absent);
 *  NOKEY(name): it reads the memcg section's shared keys.
 * Each defines `const struct mm_subsystem name##_subsystem` in its own
 * files (docs/architecture.md, "A kernel subsystem"). */
#define MM_SUBSYSTEMS(KEY, NOKEY) KEY(swap) KEY(page_cgroup) NOKEY(folio_lru)

struct run_config;
struct charge_params;
struct lock_scope;

/* One entry of memcg.cgroups: @count instances of the name template. */
struct mm_cgroup_params {
	char *name;
	long count;
	double memory_max_mb; /* 0: no limit */
	double memory_min_mb, memory_low_mb;
};

/* The memcg section. */
struct mm_params {
	bool enabled; /* false: a kernel without memcg (cgroup_disable=memory) */
	struct charge_params *charge;
	const struct lock_scope *lru_lock_scope; /* pgdat (node) or lruvec (memcg) lru lock */
	double node_memory_mb; /* > 0: the folio-level page cache LRU, this much memory a node */
	const struct list_lru_scope_ops *list_lru_scope;
	SPEC_LIST(struct mm_cgroup_params *) cgroups;
	/* Each subsystem's key: swap (NULL: no swap device), page_cgroup
	 * (NULL: no page_cgroup file). */
#define MM_SUBSYSTEM_MEMBER(name) struct name##_params *name;
#define MM_SUBSYSTEM_NO_MEMBER(name)
	MM_SUBSYSTEMS(MM_SUBSYSTEM_MEMBER, MM_SUBSYSTEM_NO_MEMBER)
#undef MM_SUBSYSTEM_MEMBER
#undef MM_SUBSYSTEM_NO_MEMBER
};

/* A memcg subsystem: a model built on the cgroup tree with its own key (or
 * none), checks, state, figures and teardown. */
struct mm_subsystem {
	MCS_NAMED; /* its name: memcg.<name> is its key, when it has one */
	/* Rules across keys and sections; @cgroups: the names in
	 * memcg.cgroups ("" is the root). NULL: none. */
	bool (*check)(const struct run_config *cfg, GHashTable *cgroups, struct spec_check *chk);
	/* Build its state for the run, after the cgroup tree; NULL: none. */
	void (*setup)(const struct mm_params *mm);
	/* Add its figures to the result's "memcg" object, and what its checker
	 * found to @violations (strings); NULL: none. */
	void (*results)(json_t *memcg, json_t *violations);
	/* Free its state, before the cgroup tree goes; NULL: none. */
	void (*teardown)(void);
	/* At most how many bytes of model objects its key's counts make a run
	 * allocate, and in *@path that key ("memcg.page_cgroup.pages"), for the
	 * memory estimate checked at validation (docs/scenario.md); NULL, or
	 * *@path left NULL: nothing beyond a size the format bounds. */
	double (*memory_bytes)(const struct run_config *cfg, const char **path);
};
/* The memcg subsystems in set-up order (MM_SUBSYSTEMS), NULL-terminated. */
extern const struct mm_subsystem *const mm_subsystems[];

extern const struct spec mm_params_spec;
/* The section's keys that only some work reads (a workload's reads,
 * enum run_reads in run_config.h), and what that work is: a variant that
 * sets one for runs without such work is warned before it runs
 * (loader/scenario_warn.c). */
struct mm_key_readers {
	const char *path; /* the key, or the object whose every key */
	unsigned reads;	  /* enum run_reads: a workload with one of these reads it */
	const char *work; /* what such a workload does: "charges pages to a memcg" */
};
extern const struct mm_key_readers mm_key_readers[]; /* {NULL}-terminated */
/* What a workload of @reads reads of @cfg's memcg section: its own, and
 * the shadow nodes' list_lru (workingset_update_node) when its pages can be
 * swapped out to memcg.swap; no charge when memcg.enabled is false. */
unsigned mm_reads(const struct run_config *cfg, unsigned reads);
/* The section's rules across keys: cgroup names and parents, the cgroups
 * and interrupt source it and the workloads name. */
bool mm_params_check(const struct run_config *cfg, struct spec_check *chk);
/* The bytes of model objects memcg.cgroups makes a run allocate: every
 * memcg with its per-node state (the memory estimate, docs/scenario.md). */
double mm_cgroups_memory_bytes(const struct run_config *cfg);
/* How many cgroups memcg.cgroups makes, the root not counted. */
long mm_cgroups_count(const struct run_config *cfg);
/* What swapping out @pages anonymous pages of @memcgs cgroups can make the
 * swap device allocate (the memory estimate): each memcg's lists on
 * shadow_nodes, and an xarray node per 64 slots used, whose shadow entries
 * may stay; 0 without memcg.swap. */
double mm_swap_memory_bytes(const struct run_config *cfg, double pages, long memcgs);
/* The swap device (mm/swap/): whether it has a free slot; shrink_folio_list's
 * anonymous branch for @nr folios of @memcg on @nid, one folio at a time
 * (returns the pages freed); the shadow-only xarray nodes on no list while
 * their i_pages lock is free at the end (the run's check). */
bool swap_available(void);
long swap_writeout_folios(struct sim_task *t, struct mem_cgroup *memcg, int nid, long nr);
long swap_shadow_nodes_off_list(void);
/* exit_mmap's swap ptes: the swap entries @memcg's task swapped out are
 * freed, their shadows cleared (swap_exit.c); nothing without swap. The
 * model keeps swapped pages by cgroup: the task's are a 1/memcg->nr_procs
 * share of its cgroup's (the caller counts the processes in). */
void mm_exit_swap(struct sim_task *t, struct mem_cgroup *memcg);
/* How many shrinkers the memcg section registers: the swap device's
 * shadow-node shrinker, with memcg.swap (checked at validation with the
 * workloads' against SHRINKER_MAX, shrinker.h). */
int mm_shrinkers(const struct run_config *cfg);
/* Is @name ("" for the root) one of memcg.cgroups? */
bool mm_cgroup_known(const struct mm_params *mm, const char *name);

void mm_setup(const struct run_config *cfg);
/* Adds "memcg" to a replica result; false when the list_lru checker found
 * a violation (described in the result). */
bool mm_results(json_t *replica);
void mm_teardown(void);

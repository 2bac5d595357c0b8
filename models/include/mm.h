/* mm: the memory-management side of a run: the scenario's memcg section (its
 * keys and their checks, mm_params.c), the state built from it (the cgroup
 * tree, the list_lru lock scope, the shrinkers, the swap device, the
 * page_cgroup file) and its figures for the result (mm.c). */
#pragma once
#include "spec.h"
#include <jansson.h>
#include <stdbool.h>

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
	struct swap_params *swap;		/* NULL: no swap device */
	struct page_cgroup_params *page_cgroup; /* NULL: no page_cgroup file */
};

extern const struct spec mm_params_spec;
/* The section's rules across keys: cgroup names and parents, the cgroups
 * and interrupt source it and the workloads name. */
bool mm_params_check(const struct run_config *cfg, struct spec_check *chk);
/* Is @name ("" for the root) one of memcg.cgroups? */
bool mm_cgroup_known(const struct mm_params *mm, const char *name);

void mm_setup(const struct run_config *cfg);
/* Adds "memcg" to a replica result; false when the list_lru checker found
 * a violation (described in the result). */
bool mm_results(json_t *replica);
void mm_teardown(void);
/* The run's file of page_cgroups (memcg.page_cgroup), or NULL. */
struct page_cgroup_map *mm_page_cgroup_map(void);

/* mm: the memory-management state of one run, built from the scenario's
 * memcg section: the cgroup tree, the list_lru lock scope, the shrinkers and
 * the swap device; and its figures for the result. */
#pragma once
#include <jansson.h>
#include <stdbool.h>

void mm_setup(json_t *doc);
/* Adds "memcg" to a replica result; false when the list_lru checker found
 * a violation (described in the result). */
bool mm_results(json_t *replica);
void mm_teardown(void);
/* The run's file of page_cgroups (memcg.page_cgroup), or NULL. */
struct page_cgroup_map *mm_page_cgroup_map(void);

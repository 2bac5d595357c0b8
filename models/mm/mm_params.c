// SPDX-License-Identifier: GPL-2.0-or-later
/* The scenario's memcg section: its keys (the cgroup tree, the charge path,
 * the lock scopes, and each memcg subsystem's own key, declared by its
 * model: MM_SUBSYSTEMS) and the rules that span keys and sections. */
#include "charge.h"
#include "kernel.h"
#include "list_lru.h"
#include "lock_scope.h"
#include "memcg.h"
#include "memcg_rstat.h"
#include "mm.h"
#include "run_config.h"
#include <string.h>

#define MAX_CGROUPS 65535

#define AT(member) SPEC_AT(struct mm_cgroup_params, member)
static const struct spec_field cgroup_fields[] = {
    {"name",
     &(const struct spec){.kind = SPEC_STRING,
			  .doc = "path below the root (\"a/b\"); with count > 1 it must hold one "
				 "\"%d\"",
			  .min = 1,
			  .max = 128},
     true, NULL, AT(name)},
    {"count",
     &(const struct spec){
	 .kind = SPEC_INTEGER, .doc = "instances, %d = 0..count-1", .min = 1, .max = 65535},
     false, "1", AT(count)},
    {"memory_max_mb",
     &(const struct spec){
	 .kind = SPEC_NUMBER, .doc = "memory.max, MiB; 0 for no limit", .min = 0, .max = 1 << 30},
     false, "0", AT(memory_max_mb)},
    {"memory_min_mb",
     &(const struct spec){.kind = SPEC_NUMBER,
			  .doc = "memory.min, MiB (hard protection); 0 for none",
			  .min = 0,
			  .max = 1 << 30},
     false, "0", AT(memory_min_mb)},
    {"memory_low_mb",
     &(const struct spec){.kind = SPEC_NUMBER,
			  .doc = "memory.low, MiB (best-effort protection); 0 for none",
			  .min = 0,
			  .max = 1 << 30},
     false, "0", AT(memory_low_mb)},
    {NULL},
};
#undef AT

#define MM_SUBSYSTEM_SPEC(name) extern const struct spec name##_params_spec;
#define MM_SUBSYSTEM_NO_SPEC(name)
MM_SUBSYSTEMS(MM_SUBSYSTEM_SPEC, MM_SUBSYSTEM_NO_SPEC)
#undef MM_SUBSYSTEM_SPEC
#undef MM_SUBSYSTEM_NO_SPEC

#define AT(member) SPEC_AT(struct mm_params, member)
static const struct spec_field mm_fields[] = {
    {"enabled",
     &(const struct spec){.kind = SPEC_BOOLEAN,
			  .doc = "false: a kernel without memory cgroups (CONFIG_MEMCG=n or "
				 "cgroup_disable=memory): nothing is charged, and no memcg work "
				 "is done"},
     false, "true", AT(enabled)},
    {"charge", &charge_params_spec, false, "{}", AT(charge)},
    {"lru_lock_scope",
     &(const struct spec){.kind = SPEC_ENUM,
			  .doc = "the page LRU's lock: node (one pgdat->lru_lock per node for "
				 "every memcg's lruvec, before Linux 5.11) or memcg (each lruvec's "
				 "own lru_lock, 5.11+)",
			  .choices = lock_scopes},
     false, "\"memcg\"", AT(lru_lock_scope)},
    {"node_memory_mb",
     &(const struct spec){.kind = SPEC_NUMBER,
			  .doc = "memory a node has for the folio-level page-cache LRU (free "
				 "folios, kswapd, direct reclaim), MiB; 0: none (scaled down "
				 "from the machine's: see docs/scenario.md)",
			  .min = 0,
			  .max = 65536},
     false, "0", AT(node_memory_mb)},
    {"list_lru_scope",
     &(const struct spec){.kind = SPEC_ENUM,
			  .doc = "list_lru locking: node (one lock per node) or memcg (one lock "
				 "per list)",
			  .choices = list_lru_scopes},
     false, "\"node\"", AT(list_lru_scope)},
    {"cgroups",
     &(const struct spec){.kind = SPEC_ARRAY,
			  .doc = "the cgroup tree, parents first",
			  .min = 0,
			  .max = 1024,
			  .items = &(const struct spec){.kind = SPEC_OBJECT,
							.fields = cgroup_fields,
							.size = sizeof(struct mm_cgroup_params)}},
     false, "[]", AT(cgroups)},
/* Each memcg subsystem's own key. */
#define MM_SUBSYSTEM_FIELD(name) {#name, &name##_params_spec, false, NULL, AT(name)},
#define MM_SUBSYSTEM_NO_FIELD(name)
    MM_SUBSYSTEMS(MM_SUBSYSTEM_FIELD, MM_SUBSYSTEM_NO_FIELD)
#undef MM_SUBSYSTEM_FIELD
#undef MM_SUBSYSTEM_NO_FIELD
	{NULL},
};
#undef AT

const struct spec mm_params_spec = {.kind = SPEC_OBJECT,
				    .doc = "memory cgroups, list_lru locking and swap",
				    .fields = mm_fields,
				    .size = sizeof(struct mm_params)};

bool mm_cgroup_known(const struct mm_params *mm, const char *name)
{
	if (!*name)
		return true;
	for (size_t i = 0; i < mm->cgroups.n; i++) {
		const struct mm_cgroup_params *c = mm->cgroups.items[i];
		for (long k = 0; k < c->count; k++) {
			char *instance = mem_cgroup_instance_name(c->name, k);
			bool same = strcmp(instance, name) == 0;
			g_free(instance);
			if (same)
				return true;
		}
	}
	return false;
}

static bool name_ok(const char *name)
{
	if (name[0] == '/' || g_str_has_suffix(name, "/") || strstr(name, "//"))
		return false;
	for (const char *p = name; *p; p++)
		if (!g_ascii_isalnum(*p) && !strchr("_-./%", *p))
			return false;
	return true;
}

/* A name template: its characters, and one "%d" where count > 1. */
static bool check_template(const struct mm_cgroup_params *c, size_t i, struct spec_check *chk)
{
	const char *pct = strstr(c->name, "%d");
	bool one_pct = pct && !strstr(pct + 2, "%d") && !strchr(pct + 2, '%') &&
		       !memchr(c->name, '%', (size_t)(pct - c->name));
	char *path = g_strdup_printf("memcg.cgroups.%zu", i);
	bool ok = true;
	if (!name_ok(c->name))
		ok = spec_check_fail(chk, path, "name",
				     "expected a path of letters, digits, \"_-.\" and single \"/\" "
				     "separators, got \"%s\"",
				     c->name);
	else if (c->count > 1 && !one_pct)
		ok = spec_check_fail(chk, path, "name",
				     "expected exactly one \"%%d\" with count %ld, got \"%s\"",
				     c->count, c->name);
	else if (c->count == 1 && strchr(c->name, '%') && !one_pct) /* "job%d" x 1: "job0" */
		ok = spec_check_fail(chk, path, "name",
				     "expected at most one \"%%d\" with count 1, got \"%s\"",
				     c->name);
	g_free(path);
	return ok;
}

/* Each instance of entry @i: listed once, after its parent. */
static bool add_instances(GHashTable *known, const struct mm_cgroup_params *c, size_t i,
			  struct spec_check *chk)
{
	char *path = g_strdup_printf("memcg.cgroups.%zu", i);
	bool ok = true;
	for (long k = 0; ok && k < c->count; k++) {
		char *name = mem_cgroup_instance_name(c->name, k);
		const char *slash = strrchr(name, '/');
		char *parent = slash ? g_strndup(name, (gsize)(slash - name)) : NULL;
		if (g_hash_table_contains(known, name))
			ok = spec_check_fail(chk, path, "name", "cgroup \"%s\" is listed twice",
					     name);
		else if (parent && !g_hash_table_contains(known, parent))
			ok = spec_check_fail(chk, path, "name",
					     "parent \"%s\" of \"%s\" must be listed before it",
					     parent, name);
		g_free(parent);
		if (ok)
			g_hash_table_add(known, name);
		else
			g_free(name);
	}
	g_free(path);
	return ok;
}

/* The cgroup tree: every name, parents first, at most MAX_CGROUPS in all. */
/* A limit below one page would be no limit (0 pages): refused. */
static bool check_limits(const struct mm_cgroup_params *c, size_t i, struct spec_check *chk)
{
	const struct {
		const char *key;
		double mb;
	} lim[] = {{"memory_max_mb", c->memory_max_mb},
		   {"memory_min_mb", c->memory_min_mb},
		   {"memory_low_mb", c->memory_low_mb}};
	for (size_t k = 0; k < G_N_ELEMENTS(lim); k++) {
		if (lim[k].mb == 0 || lim[k].mb * 256 >= 1)
			continue;
		char *path = g_strdup_printf("memcg.cgroups.%zu", i);
		spec_check_fail(chk, path, lim[k].key,
				"expected 0 (none) or at least 0.00390625 (one 4 KiB page), got %g",
				lim[k].mb);
		g_free(path);
		return false;
	}
	return true;
}

static bool check_tree(const struct mm_params *mm, GHashTable *known, struct spec_check *chk)
{
	size_t total = 0;
	for (size_t i = 0; i < mm->cgroups.n; i++) {
		const struct mm_cgroup_params *c = mm->cgroups.items[i];
		if (!check_template(c, i, chk) || !check_limits(c, i, chk))
			return false;
		total += (size_t)c->count;
		if (total > MAX_CGROUPS) {
			char *path = g_strdup_printf("memcg.cgroups.%zu", i);
			spec_check_fail(chk, path, "count",
					"expected at most %d cgroups in all, got %zu", MAX_CGROUPS,
					total);
			g_free(path);
			return false;
		}
		if (!add_instances(known, c, i, chk))
			return false;
	}
	return true;
}

/* Every task's cgroup exists. */
static bool check_workload_cgroups(const struct run_config *cfg, GHashTable *known,
				   struct spec_check *chk)
{
	for (int i = 0; i < cfg->nworkloads; i++) {
		const struct run_workload *w = &cfg->workloads[i];
		long count = 0;
		const char *tmpl = w->type->cgroup ? w->type->cgroup(w->params, &count) : NULL;
		for (long k = 0; tmpl && k < count; k++) {
			char *name = mem_cgroup_instance_name(tmpl, k);
			bool found = g_hash_table_contains(known, name);
			if (!found) {
				char *path = g_strdup_printf("workloads.%d", i);
				spec_check_fail(chk, path, "cgroup",
						"task %ld's cgroup \"%s\" is not in memcg.cgroups",
						k, name);
				g_free(path);
			}
			g_free(name);
			if (!found)
				return false;
		}
	}
	return true;
}

long mm_cgroups_count(const struct run_config *cfg)
{
	long memcgs = 0;
	for (size_t i = 0; i < cfg->memcg->cgroups.n; i++)
		memcgs += cfg->memcg->cgroups.items[i]->count;
	return memcgs;
}

double mm_cgroups_memory_bytes(const struct run_config *cfg)
{
	double each = mem_cgroup_bytes(cfg->machine.nodes);
	if (cfg->kernel && cfg->kernel->version == KERNEL_MM_2024_06)
		each += memcg_rstat_bytes(cfg->machine.nodes * cfg->machine.cpus_per_node);
	return (double)mm_cgroups_count(cfg) * each;
}

bool mm_params_check(const struct run_config *cfg, struct spec_check *chk)
{
	GHashTable *known = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_hash_table_add(known, g_strdup("")); /* the root */
	bool ok = check_tree(cfg->memcg, known, chk) && check_workload_cgroups(cfg, known, chk);
	for (int i = 0; ok && mm_subsystems[i]; i++)
		if (mm_subsystems[i]->check)
			ok = mm_subsystems[i]->check(cfg, known, chk);
	g_hash_table_destroy(known);
	return ok;
}

const struct mm_key_readers mm_key_readers[] = {
    {"memcg.charge", RUN_READS_CHARGE, "charges pages to a memcg"},
    {"memcg.lru_lock_scope", RUN_READS_LRU, "puts folios on an LRU"},
    {"memcg.list_lru_scope", RUN_READS_LIST_LRU, "puts objects on a list_lru"},
    {"memcg.swap", RUN_READS_SWAP, "has anonymous pages that reclaim can swap out"},
    {"memcg.page_cgroup", RUN_READS_PAGE_CGROUP, "works on memcg.page_cgroup's file"},
    {"memcg.node_memory_mb", RUN_READS_FOLIOS, "allocates page-cache folios from node memory"},
    {NULL},
};

unsigned mm_reads(const struct run_config *cfg, unsigned reads)
{
	if (!cfg->memcg->enabled) /* mem_cgroup_disabled(): try_charge_memcg is not reached */
		reads &= ~(unsigned)RUN_READS_CHARGE;
	if ((reads & RUN_READS_SWAP) && cfg->memcg->swap)
		reads |= RUN_READS_LIST_LRU;
	return reads;
}

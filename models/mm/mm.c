// SPDX-License-Identifier: GPL-2.0-or-later
#include "mm.h"
#include "charge.h"
#include "list_lru.h"
#include "lock_whatif.h"
#include "lru_check.h"
#include "run_config.h"
#include "shrinker.h"
#include "sim_json.h"

#define MM_SUBSYSTEM_DECL(name) extern const struct mm_subsystem name##_subsystem;
MM_SUBSYSTEMS(MM_SUBSYSTEM_DECL, MM_SUBSYSTEM_DECL)
#undef MM_SUBSYSTEM_DECL

#define MM_SUBSYSTEM_ENTRY(name) &name##_subsystem,
const struct mm_subsystem *const mm_subsystems[] = {
    MM_SUBSYSTEMS(MM_SUBSYSTEM_ENTRY, MM_SUBSYSTEM_ENTRY) NULL};
#undef MM_SUBSYSTEM_ENTRY

/* Does the scenario use the memory-management model at all? */
static bool mm_used(const struct run_config *cfg)
{
	const struct mm_params *mm = cfg->memcg;
#define MM_KEY_SET(name) || mm->name
#define MM_NO_KEY(name)
	if (mm->cgroups.n MM_SUBSYSTEMS(MM_KEY_SET, MM_NO_KEY))
		return true;
#undef MM_KEY_SET
#undef MM_NO_KEY
	for (int i = 0; i < cfg->nworkloads; i++)
		if (cfg->workloads[i].type->cgroup)
			return true;
	return false;
}

/* mkdir of every cgroup of memcg.cgroups, parents first. */
static void cgroups_setup(const struct mm_params *mm)
{
	for (size_t i = 0; i < mm->cgroups.n; i++) {
		const struct mm_cgroup_params *c = mm->cgroups.items[i];
		long max_pages = (long)(c->memory_max_mb * 256);
		for (long k = 0; k < c->count; k++) {
			char *name = mem_cgroup_instance_name(c->name, k);
			struct mem_cgroup *m =
			    mem_cgroup_create(name, max_pages ? max_pages : G_MAXLONG);
			m->memory.min = (long)(c->memory_min_mb * 256);
			m->memory.low = (long)(c->memory_low_mb * 256);
			g_free(name);
		}
	}
}

void mm_setup(const struct run_config *cfg)
{
	const struct mm_params *mm = cfg->memcg;
	if (!mm_used(cfg))
		return;
	charge_use(mm->charge);
	memcg_tree_init(sim_machine()->nodes, sim_ncpus());
	memcg_tree->disabled = !mm->enabled;
	memcg_tree->lru_scope = mm->list_lru_scope;
	memcg_tree->lru_lock_scope = mm->lru_lock_scope;
	shrinker_registry_init();
	cgroups_setup(mm);
	lock_whatif_memcgs((int)memcg_tree->all->len); /* a per-memcg what-if's locks */
	for (int i = 0; mm_subsystems[i]; i++)
		if (mm_subsystems[i]->setup)
			mm_subsystems[i]->setup(mm);
}

static json_t *memcg_stats_json(const struct memcg_stats *s)
{
	json_t *o = json_object();
	MEMCG_STATS(MM_STAT_JSON)
	json_object_set_new(o, "reclaim_time_ns", sim_json_ns(s->reclaim_time));
	return o;
}

static void stats_add(struct memcg_stats *into, const struct memcg_stats *from)
{
#define ADD(field, label) into->field += from->field;
	MEMCG_STATS(ADD)
#undef ADD
	into->reclaim_time += from->reclaim_time;
}

static json_t *cgroups_json(struct memcg_stats *total)
{
	json_t *a = json_array();
	for (guint i = 1; i < memcg_tree->all->len; i++) {
		struct mem_cgroup *m = memcg_tree->all->pdata[i];
		json_t *o = json_pack("{s:s, s:b, s:I, s:I}", "name", m->name, "online", m->online,
				      "usage_pages", (json_int_t)m->memory.usage, "max_pages",
				      (json_int_t)(m->memory.max == G_MAXLONG ? 0 : m->memory.max));
		json_object_update(o, memcg_stats_json(&m->stat));
		json_array_append_new(a, o);
		stats_add(total, &m->stat);
	}
	return a;
}

static json_t *lrus_json(void)
{
	json_t *a = json_array();
	GPtrArray *lrus = list_lru_all();
	for (guint i = 0; i < lrus->len; i++) {
		struct list_lru *l = lrus->pdata[i];
		long items = 0;
		for (int n = 0; n < l->nodes; n++)
			items += list_lru_count_node(l, n);
		json_t *o = json_pack("{s:s, s:s, s:I}", "name", l->name, "scope", l->scope->name,
				      "items", (json_int_t)items);
		const struct list_lru_stats *s = &l->stat;
		LIST_LRU_STATS(MM_STAT_JSON)
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *shrinkers_json(void)
{
	json_t *a = json_array();
	for (int i = 0; i < shrinker_count(); i++) {
		const struct shrinker *s = shrinker_by_id(i);
		json_t *o = json_pack("{s:s}", "name", s->name);
		SHRINKER_STATS(MM_STAT_JSON)
		json_array_append_new(a, o);
	}
	return a;
}

bool mm_results(json_t *replica)
{
	if (!memcg_tree)
		return true;
	struct memcg_stats total = {0};
	json_t *cgroups = cgroups_json(&total);
	json_t *check = lru_check_all();
	json_t *o = json_pack("{s:s, s:o, s:o, s:o, s:o, s:o}", "list_lru_scope",
			      memcg_tree->lru_scope->name, "reclaim", memcg_stats_json(&total),
			      "list_lrus", lrus_json(), "shrinkers", shrinkers_json(), "cgroups",
			      cgroups, "violations", check);
	for (int i = 0; mm_subsystems[i]; i++)
		if (mm_subsystems[i]->results)
			mm_subsystems[i]->results(o, check);
	bool ok = json_array_size(check) == 0;
	json_object_set_new(replica, "memcg", o);
	return ok;
}

void mm_teardown(void)
{
	int n = 0;
	while (mm_subsystems[n])
		n++;
	while (n--)
		if (mm_subsystems[n]->teardown)
			mm_subsystems[n]->teardown();
	memcg_tree_destroy();
	charge_use(NULL);
	shrinker_registry_destroy();
}

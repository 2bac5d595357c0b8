// SPDX-License-Identifier: GPL-2.0-or-later
/* The memcg tree's life (mm/memcontrol.c): mem_cgroup_css_alloc's counters,
 * lruvecs and lines, the tree's set-up and tear-down, objcg charges, and
 * mem_cgroup_css_offline's reparenting. */
#include "memcg.h"
#include "charge.h"
#include "cost.h"
#include "insn.h"
#include "kernel.h"
#include "list_lru.h"
#include "memcg_rstat.h"
#include "shrinker.h"
#include "vmscan.h"
#include <string.h>

static void page_counter_init(struct page_counter *c, long max, struct page_counter *parent,
			      bool protection_support)
{
	c->max = max;
	c->protection_support = protection_support;
	c->high = G_MAXLONG;
	c->parent = charge->use_hierarchy ? parent : NULL;
	c->protection = charge->protection;
	charge->counter->init(c, charge->layout, 0);
}

static struct mem_cgroup *memcg_alloc(const char *name, struct mem_cgroup *parent, long max)
{
	struct memcg_tree *T = memcg_tree;
	struct mem_cgroup *m = g_new0(struct mem_cgroup, 1);
	m->id = (int)T->all->len;
	m->name = g_strdup(name);
	m->parent = parent;
	m->children = g_ptr_array_new();
	m->online = true;
	m->kmemcg_id = parent ? T->next_kmemcg_id++ : -1;
	if (parent)
		g_ptr_array_add(T->by_kmemcg, m);
	page_counter_init(&m->memory, max, parent ? &parent->memory : NULL, true);
	page_counter_init(&m->memsw, G_MAXLONG, parent ? &parent->memsw : NULL, true);
	/* mem_cgroup_css_alloc (6.12): page_counter_init(&memcg->swap,
	 * &parent->swap, false): no protection on the swap counter */
	page_counter_init(&m->swap, G_MAXLONG, parent ? &parent->swap : NULL, false);
	int home = m->memory.lines[0].home;
	line_init(&m->css_line, line_class_get("struct mem_cgroup: css.parent, id"), home);
	m->css_parent = &m->css_line;
	line_init(&m->socket_pressure_line, line_class_get("struct mem_cgroup: socket_pressure"),
		  home);
	if (charge->counter->place)
		charge->counter->place(m);
	m->nodeinfo = g_new0(struct lruvec, T->nodes);
	for (int n = 0; n < T->nodes; n++) {
		m->nodeinfo[n].memcg = m;
		m->nodeinfo[n].nid = n;
		line_init(&m->nodeinfo[n].line, T->lruvec_class->line, n);
		spin_lock_init_in(&m->nodeinfo[n].lru_lock, T->lruvec_class, &m->nodeinfo[n].line);
		g_queue_init(&m->nodeinfo[n].file_owners);
	}
	m->shrinker_bits = g_new0(uint64_t, T->nodes);
	m->nr_deferred = g_new0(long, (size_t)T->nodes *SHRINKER_MAX);
	m->softlimit_events = g_new0(int, T->ncpus);
	m->objcg = g_new0(struct obj_cgroup, 1);
	m->objcg->memcg = m;
	g_ptr_array_add(T->all, m);
	g_hash_table_insert(T->by_name, m->name, m);
	if (parent) {
		m->sibling_idx = parent->children->len;
		g_ptr_array_add(parent->children, m);
	}
	return m;
}

void memcg_tree_init(int nodes, int ncpus)
{
	struct memcg_tree *T = g_new0(struct memcg_tree, 1);
	memcg_tree = T;
	T->nodes = nodes;
	T->ncpus = ncpus;
	T->all = g_ptr_array_new();
	T->by_kmemcg = g_ptr_array_new();
	T->by_name = g_hash_table_new(g_str_hash, g_str_equal);
	T->lruvec_class = lock_class_get("&lruvec->lru_lock");
	T->lruvec_class->line = line_class_get("&lruvec->lru_lock");
	T->lru_lock_scope = &lock_scope_memcg;
	T->pgdat = g_new0(struct pglist_data, nodes);
	struct lock_class *pgdat_class = lock_class_get("&pgdat->lru_lock");
	/* 2.6.32: spin_lock_init(&zone->lru_lock) in free_area_init_core
	 * (mm/page_alloc.c); 4.8 .. 5.10 the node's, &pgdat->lru_lock */
	if (kernel_version() == KERNEL_2_6_32)
		lock_class_lockdep_name(pgdat_class, "&zone->lru_lock");
	pgdat_class->line = line_class_get("&pgdat->lru_lock");
	for (int n = 0; n < nodes; n++) {
		line_init(&T->pgdat[n].line, pgdat_class->line, n);
		spin_lock_init_in(&T->pgdat[n].lru_lock, pgdat_class, &T->pgdat[n].line);
		T->pgdat[n].lru_last_cpu = -1;
	}
	T->stock = g_new0(struct memcg_stock_pcp, ncpus);
	T->stats_updates = g_new0(long, ncpus);
	T->lru_pages = g_new0(struct cacheline, ncpus);
	struct line_class *pages = line_class_get("struct page (zone LRU)");
	for (int cpu = 0; cpu < ncpus; cpu++)
		line_init(&T->lru_pages[cpu], pages, sim_cpu_node(cpu));
	line_init(&T->stats_flush_threshold_line, line_class_get("stats_flush_threshold"), 0);
	struct line_class *stock_lines = line_class_get("struct memcg_stock_pcp");
	for (int cpu = 0; cpu < ncpus; cpu++)
		line_init(&T->stock[cpu].line, stock_lines, sim_cpu_node(cpu));
	T->root = memcg_alloc("", NULL, G_MAXLONG);
	memcg_rstat_init(ncpus);
}

void memcg_tree_destroy(void)
{
	struct memcg_tree *T = memcg_tree;
	if (!T)
		return;
	for (guint i = 0; i < T->all->len; i++) {
		struct mem_cgroup *m = T->all->pdata[i];
		for (int n = 0; n < T->nodes; n++) {
			spin_lock_destroy(&m->nodeinfo[n].lru_lock);
			g_queue_clear(&m->nodeinfo[n].file_owners);
		}
		charge->counter->destroy(&m->memory);
		charge->counter->destroy(&m->memsw);
		charge->counter->destroy(&m->swap);
		g_ptr_array_free(m->children, TRUE);
		g_free(m->nodeinfo);
		g_free(m->shrinker_bits);
		g_free(m->nr_deferred);
		g_free(m->objcg);
		g_free(m->softlimit_events);
		memcg_rstat_free(m);
		g_free(m->name);
		g_free(m);
	}
	g_ptr_array_free(T->all, TRUE);
	g_ptr_array_free(T->by_kmemcg, TRUE);
	g_hash_table_destroy(T->by_name);
	for (int n = 0; n < T->nodes; n++)
		spin_lock_destroy(&T->pgdat[n].lru_lock);
	g_free(T->pgdat);
	g_free(T->stock);
	g_free(T->stats_updates);
	g_free(T->lru_pages);
	g_free(T);
	memcg_tree = NULL;
	memcg_rstat_fini();
}

char *mem_cgroup_instance_name(const char *tmpl, long i)
{
	const char *pct = strstr(tmpl, "%d");
	if (!pct)
		return g_strdup(tmpl);
	return g_strdup_printf("%.*s%ld%s", (int)(pct - tmpl), tmpl, i, pct + 2);
}

struct mem_cgroup *mem_cgroup_create(const char *name, long max_pages)
{
	const char *slash = strrchr(name, '/');
	char *parent_name = slash ? g_strndup(name, (gsize)(slash - name)) : g_strdup("");
	struct mem_cgroup *parent = mem_cgroup_lookup(parent_name);
	g_free(parent_name);
	g_assert_nonnull(parent); /* the scenario loader checked the tree */
	return memcg_alloc(name, parent, max_pages);
}

static long pages_for(long bytes)
{
	return (bytes + PAGE_SIZE_BYTES - 1) / PAGE_SIZE_BYTES;
}

bool obj_cgroup_charge(struct sim_task *t, struct obj_cgroup *objcg, long bytes)
{
	objcg->nr_bytes += bytes;
	long need = pages_for(objcg->nr_bytes) - objcg->nr_pages;
	if (need <= 0)
		return true;
	objcg->nr_pages += need;
	return mem_cgroup_charge(t, objcg->memcg, need);
}

/* The freed pages go back to this CPU's stock (obj_cgroup_uncharge_pages ->
 * refill_stock), which gives them back to the counters once it holds more
 * than a batch. */
long obj_cgroup_uncharge(struct sim_task *t, struct obj_cgroup *objcg, long bytes)
{
	objcg->nr_bytes -= bytes;
	long extra = objcg->nr_pages - pages_for(objcg->nr_bytes);
	if (extra <= 0)
		return 0;
	objcg->nr_pages -= extra;
	struct mem_cgroup *memcg = objcg->memcg;
	if (!memcg->parent)
		return extra;
	memcg->stat.uncharged += extra;
	refill_stock(t, memcg, extra);
	return extra;
}

static void memcg_reparent_objcgs(struct mem_cgroup *memcg, struct mem_cgroup *parent)
{
	for (guint i = 0; i < memcg_tree->all->len; i++) {
		struct mem_cgroup *m = memcg_tree->all->pdata[i];
		if (m->objcg->memcg == memcg)
			m->objcg->memcg = parent;
	}
}

/* Linux <= 6.12 reparented objcgs first; the split list_lru lock moved it
 * after the lists, so that items keep a stable memcg until they are drained. */
void memcg_offline_kmem(struct sim_task *t, struct mem_cgroup *memcg)
{
	struct mem_cgroup *parent = memcg->parent;
	bool objcg_first = memcg_tree->lru_scope->reparent_objcg_first;
	if (objcg_first)
		memcg_reparent_objcgs(memcg, parent);
	memcg_reparent_list_lrus(t, memcg, parent);
	if (!objcg_first)
		memcg_reparent_objcgs(memcg, parent);
}

void mem_cgroup_css_offline(struct sim_task *t, struct mem_cgroup *memcg)
{
	sim_task_flush(t); /* shared state changes happen at the task's time */
	memcg->online = false;
	memcg_offline_kmem(t, memcg);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* kernel.lock_whatif (lock_whatif.h). A scope change keeps the class and
 * its sections and gives each acquisition the class's lock of the taker's
 * scope: one for every instance (global), one a NUMA node, one a CPU; the
 * data its sections touch stay the instance's. The other kinds take no
 * lock: an atomic's acquisition is one locked RMW on the lock's line (the
 * data the lock protected, as a counter made atomic), an RCU reader's is
 * rcu_read_lock and rcu_read_unlock (COST_RCU_READ_LOCK; the writers keep
 * the lock, and their frees' grace periods are not modelled here), a
 * removed lock's nothing; in each the section's work runs unserialised. */
#include "lock_whatif.h"
#include "cost.h"
#include <string.h>

struct whatif {
	char *cls;
	int kind, scope;
	GStrv sites;
	struct spinlock *locks; /* the scope's instances, made at first use */
	int n_locks;
};

static GPtrArray *whatifs;
bool lock_whatif_any;

static void whatif_free(gpointer p)
{
	struct whatif *w = p;
	for (int i = 0; w->locks && i < w->n_locks; i++)
		spin_lock_destroy(&w->locks[i]);
	g_free(w->locks);
	g_strfreev(w->sites);
	g_free(w->cls);
	g_free(w);
}

void lock_whatif_add(const char *cls, int kind, int scope, char *const *sites, size_t n)
{
	if (!whatifs)
		whatifs = g_ptr_array_new_with_free_func(whatif_free);
	struct whatif *w = g_new0(struct whatif, 1);
	w->cls = g_strdup(cls);
	w->kind = kind;
	w->scope = scope;
	w->sites = g_new0(char *, n + 1);
	for (size_t i = 0; i < n; i++)
		w->sites[i] = g_strdup(sites[i]);
	g_ptr_array_add(whatifs, w);
	lock_whatif_any = true;
}

void lock_whatif_reset(void)
{
	if (whatifs)
		g_ptr_array_free(whatifs, TRUE);
	whatifs = NULL;
	lock_whatif_any = false;
}

static struct whatif *whatif_of(const struct spinlock *l)
{
	for (guint i = 0; whatifs && i < whatifs->len; i++) {
		struct whatif *w = whatifs->pdata[i];
		if (strcmp(w->cls, l->cls->name) == 0)
			return w;
	}
	return NULL;
}

/* @w's lock of @cpu's scope, made with its own line (homed on its node). */
static struct spinlock *scope_lock(struct whatif *w, struct spinlock *l, int cpu)
{
	int ncpus = sim_ncpus();
	int nodes = sim_cpu_node(ncpus - 1) + 1;
	if (!w->locks) {
		if (!l->cls->line) /* a lock in a structure's line: now its own */
			l->cls->line = line_class_get(l->cls->name);
		w->n_locks = w->scope == LOCK_WHATIF_CPU    ? ncpus
			     : w->scope == LOCK_WHATIF_NODE ? nodes
							    : 1;
		w->locks = g_new0(struct spinlock, w->n_locks);
		for (int i = 0; i < w->n_locks; i++) {
			int node = w->scope == LOCK_WHATIF_CPU	  ? sim_cpu_node(i)
				   : w->scope == LOCK_WHATIF_NODE ? i
								  : 0;
			spin_lock_init_in(&w->locks[i], l->cls, &w->locks[i].own);
			line_init(&w->locks[i].own, l->cls->line, node);
		}
	}
	int i = w->scope == LOCK_WHATIF_CPU    ? cpu
		: w->scope == LOCK_WHATIF_NODE ? sim_cpu_node(cpu)
					       : 0;
	return &w->locks[i];
}

struct spinlock *lock_whatif_instance(struct spinlock *l, int cpu)
{
	struct whatif *w = whatif_of(l);
	return w && w->kind == LOCK_WHATIF_SCOPE ? scope_lock(w, l, cpu) : l;
}

struct spinlock *lock_whatif_lock(struct sim_task *t, struct spinlock *l, const char *site,
				  sim_time_t *instead)
{
	*instead = 0;
	struct whatif *w = whatif_of(l);
	if (!w)
		return l;
	switch (w->kind) {
	case LOCK_WHATIF_SCOPE:
		return scope_lock(w, l, sim_task_cpu(t));
	case LOCK_WHATIF_ATOMIC: /* charged and waited for by line_atomic */
		line_atomic(t, l->line, SIM_CAT_SYS, site);
		return NULL;
	case LOCK_WHATIF_RCU_READERS:
		if (!g_strv_contains((const char *const *)w->sites, site))
			return l;
		*instead = cost(COST_RCU_READ_LOCK);
		return NULL;
	default: /* LOCK_WHATIF_REMOVE */
		return NULL;
	}
}

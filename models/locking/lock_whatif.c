// SPDX-License-Identifier: GPL-2.0-or-later
/* kernel.lock_whatif (lock_whatif.h): which change a class has, and for a
 * scope which of its locks a CPU takes. What each kind costs is the
 * spinlock calls' (spinlock.c): a scope's acquisition takes the class's
 * lock of the taker's scope, with its own line, the sections and the data
 * they touch staying the instance's; an atomic's is one locked RMW on the
 * lock's line (the data the lock protected, as a counter made atomic); an
 * RCU reader's rcu_read_lock and rcu_read_unlock (the writers keep the
 * lock; their frees' grace periods are not modelled here); a removed
 * lock's nothing. Without a lock the section's work runs unserialised. */
#include "lock_whatif.h"
#include "sim_engine.h"
#include <glib.h>
#include <string.h>

struct whatif {
	char *cls;
	int kind, scope;
	GStrv sites;
};

static GPtrArray *whatifs;
static int memcgs = 1; /* the run's at its start: a per-memcg scope's locks */
bool lock_whatif_any;

static void whatif_free(gpointer p)
{
	struct whatif *w = p;
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
	memcgs = 1;
}

void lock_whatif_memcgs(int n)
{
	memcgs = n > 0 ? n : 1;
}

enum lock_whatif_kind lock_whatif_how(const char *cls, const char *site, struct sim_task *t,
				      int *instance, int *instances, int *home)
{
	const struct whatif *w = NULL;
	for (guint i = 0; whatifs && !w && i < whatifs->len; i++)
		if (strcmp(((const struct whatif *)whatifs->pdata[i])->cls, cls) == 0)
			w = whatifs->pdata[i];
	if (!w)
		return LOCK_WHATIF_AS_IS;
	if (w->kind == LOCK_WHATIF_SCOPE) {
		int ncpus = sim_ncpus(), cpu = sim_task_cpu(t), group = sim_task_group(t);
		switch (w->scope) {
		case LOCK_WHATIF_CPU:
			*instances = ncpus, *instance = cpu, *home = sim_cpu_node(cpu);
			break;
		case LOCK_WHATIF_NODE:
			*instances = sim_cpu_node(ncpus - 1) + 1;
			*instance = *home = sim_cpu_node(cpu);
			break;
		case LOCK_WHATIF_MEMCG:
			*instances = memcgs, *home = 0;
			*instance = group >= 0 && group < memcgs ? group : 0;
			break;
		default:
			*instances = 1, *instance = *home = 0;
		}
	}
	if (w->kind == LOCK_WHATIF_RCU_READERS &&
	    (!site || !g_strv_contains((const char *const *)w->sites, site)))
		return LOCK_WHATIF_AS_IS;
	return w->kind;
}

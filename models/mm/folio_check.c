// SPDX-License-Identifier: GPL-2.0-or-later
/* folio_check: the folio LRU's invariants (folio_lru_verify), like
 * lru_check for list_lru: no folio lost, duplicated, or on a list of a
 * lruvec that is not its own. */
#include "folio_reclaim.h"

/* One list of @lv: each folio belongs there, once; the count is right. */
static char *verify_list(struct lruvec *lv, enum lru_list lru, GHashTable *seen)
{
	long n = 0;
	for (struct folio *f = lv->lists[lru].head; f; f = f->next, n++) {
		if (!g_hash_table_add(seen, f))
			return g_strdup_printf("folio %p is on two lists", (void *)f);
		if (f->memcg != lv->memcg || f->nid != lv->nid)
			return g_strdup_printf(
			    "folio %ld of memcg \"%s\" node %d is on the list of "
			    "memcg \"%s\" node %d",
			    f->index, f->memcg ? f->memcg->name : "(none)", f->nid, lv->memcg->name,
			    lv->nid);
		if (f->on_lruvec != lv || f->on_list != (int)lru)
			return g_strdup_printf("folio %ld is on a list it does not record",
					       f->index);
		/* PG_lru may be clear: a path that cleared it (folio_test_clear_lru)
		 * is about to take the folio off under the lock. */
		if (!(f->flags & PG_active) != (lru == LRU_INACTIVE_FILE))
			return g_strdup_printf("folio %ld has flags %#x on the %s list", f->index,
					       f->flags,
					       lru == LRU_ACTIVE_FILE ? "active" : "inactive");
	}
	if (n != lv->lists[lru].nr)
		return g_strdup_printf(
		    "a list of memcg \"%s\" node %d counts %ld folios and holds %ld",
		    lv->memcg->name, lv->nid, lv->lists[lru].nr, n);
	return NULL;
}

/* Every folio of the pools: free, on a list, or in use off the lists. */
static char *verify_pools(GHashTable *on_lists)
{
	for (int nid = 0; nid < lru_state.nodes; nid++) {
		struct node_mem *n = &lru_state.node[nid];
		long free = n->free->len, listed = 0, off = 0;
		for (long i = 0; i < n->npool; i++) {
			struct folio *f = &n->pool[i];
			if (g_hash_table_contains(on_lists, f))
				listed++;
			else if (f->file)
				off++;
			else if (f->on_list >= 0)
				return g_strdup_printf("folio %p records a list it is not on",
						       (void *)f);
		}
		if (free + listed + off != n->npool)
			return g_strdup_printf(
			    "node %d: %ld free + %ld listed + %ld in use != %ld folios", nid, free,
			    listed, off, n->npool);
	}
	return NULL;
}

char *folio_lru_verify(void)
{
	GHashTable *seen = g_hash_table_new(g_direct_hash, g_direct_equal);
	char *err = NULL;
	GPtrArray *all = memcg_tree->all;
	for (guint i = 0; i < all->len && !err; i++) {
		struct mem_cgroup *m = all->pdata[i];
		for (int nid = 0; nid < memcg_tree->nodes && !err; nid++)
			for (int lru = 0; lru < NR_LRU_FILE && !err; lru++)
				err = verify_list(&m->nodeinfo[nid], (enum lru_list)lru, seen);
	}
	if (!err && lru_state.node)
		err = verify_pools(seen);
	g_hash_table_destroy(seen);
	return err;
}

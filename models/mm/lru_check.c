// SPDX-License-Identifier: GPL-2.0-or-later
#include "lru_check.h"
#include "list_lru.h"
#include "mm.h"

#define WALK_LIMIT 100000000L

static void violation(json_t *out, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void violation(json_t *out, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	json_array_append_new(out, json_string(s));
	g_free(s);
}

static const char *memcg_name(const struct list_lru_one *l)
{
	return l->memcg->parent ? l->memcg->name : "(root)";
}

/* Walk @l: every item must say it is on @l; returns the length. */
static long check_list(json_t *out, struct list_lru *lru, struct list_lru_one *l, bool live)
{
	long n = 0;
	for (struct lru_item *i = l->head.next; i != &l->head && n < WALK_LIMIT; i = i->next, n++)
		if (i->on != l) {
			violation(out,
				  "%s: node %d memcg %s: an item on the list says it is "
				  "elsewhere",
				  lru->name, l->nid, memcg_name(l));
			break;
		}
	if (!live && n)
		violation(out, "%s: node %d memcg %s: %ld items left on a dead list", lru->name,
			  l->nid, memcg_name(l), n);
	else if (live && n != l->nr_items)
		violation(out, "%s: node %d memcg %s: %ld items on the list, nr_items %ld",
			  lru->name, l->nid, memcg_name(l), n, l->nr_items);
	return n;
}

static void check_lru(json_t *out, struct list_lru *lru)
{
	long *sum = g_new0(long, lru->nodes);
	for (int n = 0; n < lru->nodes; n++)
		sum[n] = check_list(out, lru, &lru->node[n].lru, true);
	for (guint x = 0; x < lru->xa->len; x++) {
		struct list_lru_one *lists = lru->xa->pdata[x];
		if (!lists)
			continue;
		for (int n = 0; n < lru->nodes; n++)
			sum[n] += check_list(out, lru, &lists[n], !list_lru_one_dead(&lists[n]));
	}
	for (guint d = 0; lru->dead && d < lru->dead->len; d++) {
		struct list_lru_one *lists = lru->dead->pdata[d];
		for (int n = 0; n < lru->nodes; n++)
			check_list(out, lru, &lists[n], false);
	}
	for (int n = 0; n < lru->nodes; n++)
		if (sum[n] != lru->node[n].nr_items)
			violation(out, "%s: node %d: nr_items %ld, but its lists hold %ld",
				  lru->name, n, lru->node[n].nr_items, sum[n]);
	if (lru->stat.wrong_list_del)
		violation(out,
			  "%s: %ld list_lru_del calls unlinked an item from another list "
			  "than the one they locked",
			  lru->name, lru->stat.wrong_list_del);
	g_free(sum);
}

json_t *lru_check_all(void)
{
	json_t *out = json_array();
	GPtrArray *lrus = list_lru_all();
	for (guint i = 0; i < lrus->len; i++)
		check_lru(out, lrus->pdata[i]);
	long lost = swap_shadow_nodes_off_list();
	if (lost)
		violation(out, "shadow_nodes: %ld shadow-only xarray nodes are on no list", lost);
	return out;
}

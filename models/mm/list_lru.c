// SPDX-License-Identifier: GPL-2.0-or-later
#include "list_lru.h"
#include "cost.h"
#include "insn.h"
#include <string.h>

static GPtrArray *memcg_list_lrus; /* every list_lru, for reparenting */

/* struct list_lru_memcg: an rcu_head, then the nodes' lists. */
#define LIST_LRU_MEMCG_HEADER 16
#define CACHE_LINE 64

void lru_item_init(struct lru_item *item, struct line_class *cls, int nid)
{
	memset(item, 0, sizeof(*item));
	line_init(&item->line, cls, nid);
}

static void list_head_init(struct list_lru_one *l, struct mem_cgroup *memcg, int nid,
			   struct cacheline *head_line, struct cacheline *word_line)
{
	l->head.prev = l->head.next = &l->head;
	l->head.on = NULL;
	l->nr_items = 0;
	l->memcg = memcg;
	l->nid = nid;
	l->head_line = head_line;
	l->word_line = word_line;
}

static void node_init(struct list_lru *lru, int n)
{
	struct list_lru_node *nlru = &lru->node[n];
	line_init(&nlru->line, lru->node_lines, n);
	spin_lock_init_in(&nlru->lock, lru->cls, &nlru->line);
	list_head_init(&nlru->lru, memcg_tree->root, n, &nlru->line, &nlru->line);
	spin_lock_init_in(&nlru->lru.lock, lru->cls, &nlru->line);
}

static void list_lru_init(struct list_lru *lru, const char *name,
			  const struct list_lru_scope_ops *scope, int shrinker_id, bool keyed)
{
	memset(lru, 0, sizeof(*lru));
	lru->name = g_strdup(name);
	lru->scope = scope;
	lru->shrinker_id = shrinker_id;
	lru->nodes = memcg_tree->nodes;
	char *cls = g_strdup_printf("%s (%s)", scope->lock_class, name);
	lru->cls = lock_class_get(cls);
	lock_class_lockdep_name(lru->cls, keyed ? scope->lockdep_key : scope->lockdep_class);
	g_free(cls);
	cls = g_strdup_printf("struct list_lru_node (%s)", name);
	lru->node_lines = line_class_get(cls);
	g_free(cls);
	cls = g_strdup_printf("list_lru_memcg (%s)", name);
	lru->memcg_lines = line_class_get(cls);
	g_free(cls);
	cls = g_strdup_printf("lru_item (%s)", name);
	lru->item_lines = line_class_get(cls);
	g_free(cls);
	cls = g_strdup_printf("struct list_lru (%s)", name);
	line_init(&lru->line, line_class_get(cls), 0);
	g_free(cls);
	lru->xa_lines = g_ptr_array_new_with_free_func(g_free);
	lru->node = g_new0(struct list_lru_node, lru->nodes);
	for (int n = 0; n < lru->nodes; n++)
		node_init(lru, n);
	lru->xa = g_ptr_array_new();
	if (!memcg_list_lrus)
		memcg_list_lrus = g_ptr_array_new();
	g_ptr_array_add(memcg_list_lrus, lru);
}

void list_lru_init_memcg(struct list_lru *lru, const char *name,
			 const struct list_lru_scope_ops *scope, int shrinker_id)
{
	list_lru_init(lru, name, scope, shrinker_id, false);
}

void list_lru_init_memcg_key(struct list_lru *lru, const char *name,
			     const struct list_lru_scope_ops *scope, int shrinker_id)
{
	list_lru_init(lru, name, scope, shrinker_id, true);
}

/* The lists and their lines are one allocation: the lines start where the
 * first list's head does. */
static void free_lists(struct list_lru *lru, struct list_lru_one *lists)
{
	if (!lists)
		return;
	g_free(lists[0].head_line);
	g_free(lists);
}

void list_lru_destroy(struct list_lru *lru)
{
	for (guint i = 0; i < lru->xa->len; i++)
		free_lists(lru, lru->xa->pdata[i]);
	g_ptr_array_free(lru->xa, TRUE);
	for (guint i = 0; lru->dead && i < lru->dead->len; i++)
		free_lists(lru, lru->dead->pdata[i]);
	if (lru->dead)
		g_ptr_array_free(lru->dead, TRUE);
	g_ptr_array_free(lru->xa_lines, TRUE);
	g_free(lru->node);
	g_free(lru->name);
	g_ptr_array_remove(memcg_list_lrus, lru);
	if (memcg_list_lrus->len == 0) {
		g_ptr_array_free(memcg_list_lrus, TRUE);
		memcg_list_lrus = NULL;
	}
}

GPtrArray *list_lru_all(void)
{
	if (!memcg_list_lrus)
		memcg_list_lrus = g_ptr_array_new();
	return memcg_list_lrus;
}

/* The per-node lists of a non-root memcg: memcg_list_lru_alloc on first use
 * (the kernel allocates them when an object is first charged). */
static struct list_lru_one *list_lru_lists_by_idx(struct list_lru *lru, int idx)
{
	return idx >= 0 && (guint)idx < lru->xa->len ? lru->xa->pdata[idx] : NULL;
}

/* xa_erase: later lookups of @idx find nothing. The lists stay allocated
 * until the list_lru is destroyed (the kernel frees them after an RCU grace
 * period), so a holder that raced with the erase never sees them freed. */
static void list_lru_erase_idx(struct list_lru *lru, int idx)
{
	struct list_lru_one *lists = list_lru_lists_by_idx(lru, idx);
	if (!lists)
		return;
	lru->xa->pdata[idx] = NULL;
	if (!lru->dead)
		lru->dead = g_ptr_array_new();
	g_ptr_array_add(lru->dead, lists);
}

/* The xarray node line that leads to @idx at @level (1: 64 ids a node,
 * 2: 4096). */
static struct cacheline *xa_line(struct list_lru *lru, int level, int idx)
{
	guint slot = (guint)(idx >> (6 * level)) * 2 + (guint)(level - 1);
	if (slot >= lru->xa_lines->len)
		g_ptr_array_set_size(lru->xa_lines, slot + 1);
	struct cacheline *l = lru->xa_lines->pdata[slot];
	if (!l) {
		l = g_new0(struct cacheline, 1);
		line_init(l, lru->line.cls, 0);
		lru->xa_lines->pdata[slot] = l;
	}
	return l;
}

sim_time_t list_lru_lookup_cost(struct sim_task *t, struct list_lru *lru, struct mem_cgroup *memcg)
{
	int idx = memcg->kmemcg_id, cpu = sim_task_cpu(t);
	if (!memcg->parent || idx < 0)
		return 0;
	sim_time_t insn = insn_cost(INSN_XA_LOAD);
	sim_time_t lines = line_access(cpu, &lru->line, LINE_LOAD, "xa_load");
	if (idx >= 64) {
		insn += insn_cost(INSN_XA_LEVEL);
		lines += line_access(cpu, xa_line(lru, 2, idx), LINE_LOAD, "xa_load");
	}
	lines += line_access(cpu, xa_line(lru, 1, idx), LINE_LOAD, "xa_load");
	sim_task_stall_next(t, lines);
	return insn + lines;
}

/* The lines of one memcg's list array, and where each node's list sits. */
static void lists_place(struct list_lru *lru, struct list_lru_one *lists)
{
	size_t size = lru->scope->list_size;
	size_t nlines = (LIST_LRU_MEMCG_HEADER + lru->nodes * size + CACHE_LINE - 1) / CACHE_LINE;
	struct cacheline *lines = g_new0(struct cacheline, nlines);
	for (size_t i = 0; i < nlines; i++)
		line_init(&lines[i], lru->memcg_lines, 0);
	for (int n = 0; n < lru->nodes; n++) {
		size_t at = LIST_LRU_MEMCG_HEADER + n * size;
		lists[n].head_line = &lines[at / CACHE_LINE];
		lists[n].word_line = &lines[(at + 16) / CACHE_LINE];
	}
}

struct list_lru_one *list_lru_memcg_lists(struct list_lru *lru, struct mem_cgroup *memcg,
					  bool create)
{
	int idx = memcg->kmemcg_id;
	struct list_lru_one *lists = list_lru_lists_by_idx(lru, idx);
	if (lists || !create || idx < 0)
		return lists;
	/* The lists belong to the index's memcg: before the split, a dead
	 * memcg's index is its parent's. */
	struct mem_cgroup *owner = mem_cgroup_from_kmemcg_id(memcg->kmemcg_id);
	lists = g_new0(struct list_lru_one, lru->nodes);
	lists_place(lru, lists);
	for (int n = 0; n < lru->nodes; n++) {
		list_head_init(&lists[n], owner, n, lists[n].head_line, lists[n].word_line);
		spin_lock_init_in(&lists[n].lock, lru->cls, lists[n].word_line);
	}
	if ((guint)idx >= lru->xa->len)
		g_ptr_array_set_size(lru->xa, idx + 1);
	lru->xa->pdata[idx] = lists;
	return lists;
}

void list_lru_lock(struct sim_task *t, struct spinlock *lock, enum spin_flavour fl,
		   const char *site, struct lru_locked *held)
{
	held->lock = lock;
	held->fl = fl;
	held->entry = spin_lock(t, lock, fl, site);
}

void list_lru_unlock(struct sim_task *t, struct lru_locked *held)
{
	spin_unlock(t, held->lock, held->entry);
	held->entry = NULL;
}

static void set_shrinker_bit(struct mem_cgroup *memcg, int nid, int shrinker_id)
{
	if (shrinker_id >= 0)
		memcg->shrinker_bits[nid] |= 1ULL << shrinker_id;
}

/* The line holding the list_head of @i: an item's own, or the list's head. */
static struct cacheline *item_line(struct list_lru_one *l, struct lru_item *i)
{
	return i == &l->head ? l->head_line : &i->line;
}

/* The holder of @lock stores to the list_heads of @a and @b (and @c). */
static sim_time_t store_links(struct sim_task *t, struct spinlock *lock, struct list_lru_one *l,
			      struct lru_item *a, struct lru_item *b, struct lru_item *c)
{
	sim_time_t cost = spin_held_access(t, lock, item_line(l, a), LINE_STORE, "list_add");
	cost += spin_held_access(t, lock, item_line(l, b), LINE_STORE, "list_add");
	return c ? cost + spin_held_access(t, lock, item_line(l, c), LINE_STORE, "list_add") : cost;
}

/* list_add_tail: the item, the old tail, the head. */
static sim_time_t list_add_tail_item(struct sim_task *t, struct spinlock *lock,
				     struct list_lru_one *l, struct lru_item *item)
{
	struct lru_item *tail = l->head.prev;
	sim_time_t cost = store_links(t, lock, l, item, tail, tail == &l->head ? NULL : &l->head);
	item->prev = tail;
	item->next = &l->head;
	tail->next = item;
	l->head.prev = item;
	item->on = l;
	return cost;
}

/* list_del: the item's links are read, its neighbours' written. */
static sim_time_t list_del_item(struct sim_task *t, struct spinlock *lock, struct list_lru_one *l,
				struct lru_item *item)
{
	struct list_lru_one *on = item->on;
	sim_time_t cost = spin_held_access(t, lock, &item->line, LINE_LOAD, "list_del");
	struct lru_item *prev = item->prev, *next = item->next;
	cost += spin_held_access(t, lock, item_line(on, prev), LINE_STORE, "list_del");
	if (next != prev)
		cost += spin_held_access(t, lock, item_line(on, next), LINE_STORE, "list_del");
	prev->next = next;
	next->prev = prev;
	item->prev = item->next = NULL;
	item->on = NULL;
	return cost;
}

static void list_lru_splice(struct list_lru_one *src, struct list_lru_one *dst)
{
	for (struct lru_item *i = src->head.next; i != &src->head; i = i->next)
		i->on = dst;
	if (src->head.next != &src->head) {
		struct lru_item *first = src->head.next, *last = src->head.prev;
		first->prev = dst->head.prev;
		dst->head.prev->next = first;
		last->next = &dst->head;
		dst->head.prev = last;
	}
	src->head.next = src->head.prev = &src->head;
}

sim_time_t list_lru_move_items(struct sim_task *t, struct list_lru *lru, int nid,
			       struct list_lru_one *src, struct list_lru_one *dst,
			       struct spinlock *lock)
{
	sim_time_t cost = 0;
	if (src->head.next != &src->head) /* both heads, the ends, the counts */
		cost = store_links(t, lock, src, &src->head, src->head.next, src->head.prev) +
		       store_links(t, lock, dst, &dst->head, dst->head.prev, NULL) +
		       spin_held_access(t, lock, src->word_line, LINE_STORE, "list_splice") +
		       spin_held_access(t, lock, dst->word_line, LINE_STORE, "list_splice");
	list_lru_splice(src, dst);
	if (src->nr_items > 0) {
		dst->nr_items += src->nr_items;
		set_shrinker_bit(dst->memcg, nid, lru->shrinker_id);
		lru->stat.reparented_items += src->nr_items;
	}
	src->nr_items = 0;
	return cost;
}

static sim_time_t op_add(struct sim_task *t, struct list_lru *lru, struct list_lru_one *l,
			 struct spinlock *lock, struct lru_item *item)
{
	sim_time_t cost = insn_cost(INSN_LIST_LRU_ADD) + list_add_tail_item(t, lock, l, item);
	cost += lru->scope->count_locked(t, lru, l->nid, l, lock, +1);
	if (l->nr_items == 1)
		set_shrinker_bit(l->memcg, l->nid, lru->shrinker_id);
	return cost;
}

/* The kernel unlinks the item wherever it is and decrements the list it
 * locked: a different list here is a lost count. */
static sim_time_t op_del(struct sim_task *t, struct list_lru *lru, struct list_lru_one *l,
			 struct spinlock *lock, struct lru_item *item)
{
	if (item->on != l)
		lru->stat.wrong_list_del++;
	sim_time_t cost = insn_cost(INSN_LIST_LRU_DEL) + list_del_item(t, lock, l, item);
	return cost + lru->scope->count_locked(t, lru, l->nid, l, lock, -1);
}

sim_time_t list_lru_op_apply(struct sim_task *t, struct list_lru *lru, struct list_lru_one *l,
			     struct spinlock *lock, struct lru_op *op)
{
	struct lru_item *item = op->item;
	switch (op->kind) {
	case LRU_OP_ADD:
		if ((op->done = !item->on))
			return op_add(t, lru, l, lock, item);
		return spin_held_access(t, lock, &item->line, LINE_LOAD, "list_add");
	case LRU_OP_DEL:
		if ((op->done = item->on != NULL))
			return op_del(t, lru, l, lock, item);
		return spin_held_access(t, lock, &item->line, LINE_LOAD, "list_del");
	}
	return 0;
}

bool list_lru_add(struct sim_task *t, struct list_lru *lru, struct lru_item *item, int nid,
		  struct mem_cgroup *memcg)
{
	struct lru_op op = {.kind = LRU_OP_ADD, .item = item};
	lru->scope->op_locked(t, lru, nid, memcg, __func__, &op);
	lru->stat.added += op.done;
	return op.done;
}

bool list_lru_del(struct sim_task *t, struct list_lru *lru, struct lru_item *item, int nid,
		  struct mem_cgroup *memcg)
{
	struct lru_op op = {.kind = LRU_OP_DEL, .item = item};
	lru->scope->op_locked(t, lru, nid, memcg, __func__, &op);
	lru->stat.deleted += op.done;
	return op.done;
}

void list_lru_isolate(struct sim_task *t, struct list_lru *lru, struct list_lru_one *l,
		      struct lru_item *item)
{
	struct spinlock *lock =
	    lock_scope_lock(lru->scope->lock_scope, &lru->node[l->nid].lock, &l->lock);
	sim_time_t cost = list_del_item(t, lock, l, item);
	cost += lru->scope->count_locked(t, lru, l->nid, l, lock, -1);
	sim_task_charge(t, SIM_CAT_SYS, cost);
	lru->stat.isolated++;
}

long list_lru_count_one(struct list_lru *lru, int nid, struct mem_cgroup *memcg)
{
	struct list_lru_one *l = memcg->parent ? list_lru_memcg_lists(lru, memcg, false) : NULL;
	long n = memcg->parent ? (l ? l[nid].nr_items : 0) : lru->node[nid].lru.nr_items;
	return n > 0 ? n : 0;
}

long list_lru_count_node(struct list_lru *lru, int nid)
{
	return lru->node[nid].nr_items;
}

/* LRU_ROTATE: to the tail, under the walk's lock. */
static void list_lru_rotate(struct sim_task *t, struct list_lru_one *l, struct lru_item *item,
			    struct spinlock *lock)
{
	sim_time_t cost = list_del_item(t, lock, l, item);
	cost += list_add_tail_item(t, lock, l, item);
	sim_task_charge(t, SIM_CAT_SYS, cost);
}

/* A walk's step: the callback's verdict on @item, and what the walk does
 * with it. False: the walk ends (its list is gone, or LRU_STOP). */
static bool walk_step(struct sim_task *t, struct list_lru *lru, int nid, struct mem_cgroup *memcg,
		      enum lru_status ret, struct list_lru_one **l, struct lru_item *item,
		      struct lru_locked *held, const char *site, long *isolated, bool *restart)
{
	switch (ret) {
	case LRU_REMOVED_RETRY:
		++*isolated;
		/* fall through */
	case LRU_RETRY:
		lru->stat.retries += ret == LRU_RETRY;
		*l = lru->scope->relock(t, lru, nid, memcg, *l, held->fl, site, held);
		*restart = true;
		return *l != NULL;
	case LRU_REMOVED:
		++*isolated;
		return true;
	case LRU_ROTATE:
		list_lru_rotate(t, *l, item, held->lock);
		lru->stat.rotated++;
		return true;
	case LRU_SKIP:
		return true;
	case LRU_STOP:
		break;
	}
	list_lru_unlock(t, held);
	return false;
}

static long __list_lru_walk_one(struct sim_task *t, struct list_lru *lru, int nid,
				struct mem_cgroup *memcg, list_lru_walk_cb isolate, void *arg,
				long *nr_to_walk, enum spin_flavour fl, const char *site)
{
	struct lru_locked held = {0}; /* a walk's length is not known: dynamic */
	long isolated = 0;
	struct list_lru_one *l = lru->scope->lock_list(t, lru, nid, memcg, fl, site, &held);
	bool restart = l != NULL, more = l != NULL;
	while (restart && more) {
		restart = false;
		for (struct lru_item *item = l->head.next, *next; more && item != &l->head;
		     item = next) {
			next = item->next;
			if (*nr_to_walk <= 0)
				break;
			--*nr_to_walk;
			sim_task_charge(
			    t, SIM_CAT_SYS,
			    insn_cost(INSN_LRU_WALK_ITEM) +
				spin_held_access(t, held.lock, &item->line, LINE_LOAD, site));
			enum lru_status ret = isolate(t, lru, item, l, &held, arg);
			more = walk_step(t, lru, nid, memcg, ret, &l, item, &held, site, &isolated,
					 &restart);
			if (restart)
				break;
		}
	}
	if (more)
		list_lru_unlock(t, &held);
	if (isolated)
		lru->scope->count_unlocked(t, lru, nid, -isolated, 1);
	return isolated;
}

long list_lru_walk_one(struct sim_task *t, struct list_lru *lru, int nid, struct mem_cgroup *memcg,
		       list_lru_walk_cb isolate, void *arg, long *nr_to_walk)
{
	return __list_lru_walk_one(t, lru, nid, memcg, isolate, arg, nr_to_walk, SPIN_PLAIN,
				   "list_lru_walk_one");
}

long list_lru_walk_one_irq(struct sim_task *t, struct list_lru *lru, int nid,
			   struct mem_cgroup *memcg, list_lru_walk_cb isolate, void *arg,
			   long *nr_to_walk)
{
	return __list_lru_walk_one(t, lru, nid, memcg, isolate, arg, nr_to_walk, SPIN_IRQ,
				   "list_lru_walk_one_irq");
}

static void switch_kmemcg_id(struct mem_cgroup *memcg, int id)
{
	memcg->kmemcg_id = id;
	for (guint i = 0; i < memcg->children->len; i++)
		switch_kmemcg_id(memcg->children->pdata[i], id);
}

void memcg_reparent_list_lrus(struct sim_task *t, struct mem_cgroup *memcg,
			      struct mem_cgroup *parent)
{
	GPtrArray *lrus = list_lru_all();
	int src_idx = memcg->kmemcg_id;
	if (src_idx < 0)
		return;
	if (lrus->len && ((struct list_lru *)lrus->pdata[0])->scope->switch_kmemcg_id)
		switch_kmemcg_id(memcg, parent->kmemcg_id);
	for (guint i = 0; i < lrus->len; i++) {
		struct list_lru *lru = lrus->pdata[i];
		struct list_lru_one *lists = list_lru_lists_by_idx(lru, src_idx);
		for (int nid = 0; lists && nid < lru->nodes; nid++)
			lru->scope->reparent_one(t, lru, nid, &lists[nid], parent);
		list_lru_erase_idx(lru, src_idx);
	}
}

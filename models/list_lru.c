#include "list_lru.h"
#include "cost.h"
#include <string.h>

static GPtrArray *memcg_list_lrus; /* every list_lru, for reparenting */

static void list_head_init(struct list_lru_one *l, struct mem_cgroup *memcg, int nid)
{
	l->head.prev = l->head.next = &l->head;
	l->head.on = NULL;
	l->nr_items = 0;
	l->memcg = memcg;
	l->nid = nid;
}

void list_lru_init_memcg(struct list_lru *lru, const char *name,
			 const struct list_lru_scope_ops *scope, int shrinker_id)
{
	memset(lru, 0, sizeof(*lru));
	lru->name = g_strdup(name);
	lru->scope = scope;
	lru->shrinker_id = shrinker_id;
	lru->nodes = memcg_tree->nodes;
	char *cls = g_strdup_printf("%s (%s)", scope->lock_class, name);
	lru->cls = lock_class_get(cls);
	g_free(cls);
	cls = g_strdup_printf("&nlru->nr_items (%s)", name);
	lru->nr_class = lock_class_get(cls);
	lru->nr_class->type = "atomic";
	g_free(cls);
	lru->node = g_new0(struct list_lru_node, lru->nodes);
	for (int n = 0; n < lru->nodes; n++) {
		spin_lock_init(&lru->node[n].lock, lru->cls);
		spin_lock_init(&lru->node[n].nr_line, lru->nr_class);
		list_head_init(&lru->node[n].lru, memcg_tree->root, n);
	}
	lru->xa = g_ptr_array_new();
	if (!memcg_list_lrus)
		memcg_list_lrus = g_ptr_array_new();
	g_ptr_array_add(memcg_list_lrus, lru);
}

static void free_lists(struct list_lru *lru, struct list_lru_one *lists)
{
	if (!lists)
		return;
	for (int n = 0; n < lru->nodes; n++)
		spin_lock_destroy(&lists[n].lock);
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
	for (int n = 0; n < lru->nodes; n++) {
		spin_lock_destroy(&lru->node[n].lock);
		spin_lock_destroy(&lru->node[n].nr_line);
	}
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
struct list_lru_one *list_lru_lists_by_idx(struct list_lru *lru, int idx)
{
	return idx >= 0 && (guint)idx < lru->xa->len ? lru->xa->pdata[idx] : NULL;
}

/* xa_erase: later lookups of @idx find nothing. The lists stay allocated
 * until the list_lru is destroyed (the kernel frees them after an RCU grace
 * period), so a holder that raced with the erase never sees them freed. */
void list_lru_erase_idx(struct list_lru *lru, int idx)
{
	struct list_lru_one *lists = list_lru_lists_by_idx(lru, idx);
	if (!lists)
		return;
	lru->xa->pdata[idx] = NULL;
	if (!lru->dead)
		lru->dead = g_ptr_array_new();
	g_ptr_array_add(lru->dead, lists);
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
	for (int n = 0; n < lru->nodes; n++) {
		list_head_init(&lists[n], owner, n);
		spin_lock_init(&lists[n].lock, lru->cls);
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
	if (held->planned)
		spin_lock_hold(t, lock, held->hold, SIM_CAT_SYS, fl, site);
	else
		held->entry = spin_lock(t, lock, fl, site);
}

void list_lru_unlock(struct sim_task *t, struct lru_locked *held)
{
	if (!held->planned)
		spin_unlock(t, held->lock, held->entry);
	held->entry = NULL;
}

void set_shrinker_bit(struct mem_cgroup *memcg, int nid, int shrinker_id)
{
	if (shrinker_id >= 0)
		memcg->shrinker_bits[nid] |= 1ULL << shrinker_id;
}

static void list_add_tail_item(struct list_lru_one *l, struct lru_item *item)
{
	item->prev = l->head.prev;
	item->next = &l->head;
	l->head.prev->next = item;
	l->head.prev = item;
	item->on = l;
}

static void list_del_item(struct lru_item *item)
{
	item->prev->next = item->next;
	item->next->prev = item->prev;
	item->prev = item->next = NULL;
	item->on = NULL;
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

/* The simple operations hold the list lock for a known time: planned. */
static struct lru_locked planned_hold(sim_time_t hold)
{
	return (struct lru_locked){.planned = true, .hold = hold};
}

void list_lru_move_items(struct list_lru *lru, int nid, struct list_lru_one *src,
			 struct list_lru_one *dst)
{
	list_lru_splice(src, dst);
	if (src->nr_items > 0) {
		dst->nr_items += src->nr_items;
		set_shrinker_bit(dst->memcg, nid, lru->shrinker_id);
		lru->stat.reparented_items += src->nr_items;
	}
	src->nr_items = 0;
}

bool list_lru_add(struct sim_task *t, struct list_lru *lru, struct lru_item *item, int nid,
		  struct mem_cgroup *memcg)
{
	struct lru_locked held = planned_hold(cost(COST_LIST_OP));
	struct list_lru_one *l =
		lru->scope->lock_list(t, lru, nid, memcg, SPIN_PLAIN, false, __func__, &held);
	bool added = !item->on;
	if (added) {
		list_add_tail_item(l, item);
		lru->scope->count_locked(lru, nid, l, +1);
		if (l->nr_items == 1)
			set_shrinker_bit(l->memcg, nid, lru->shrinker_id);
		lru->stat.added++;
	}
	list_lru_unlock(t, &held);
	if (added)
		lru->scope->count_unlocked(t, lru, nid, +1, 1);
	return added;
}

bool list_lru_del(struct sim_task *t, struct list_lru *lru, struct lru_item *item, int nid,
		  struct mem_cgroup *memcg)
{
	struct lru_locked held = planned_hold(cost(COST_LIST_OP));
	struct list_lru_one *l =
		lru->scope->lock_list(t, lru, nid, memcg, SPIN_PLAIN, false, __func__, &held);
	bool deleted = item->on != NULL;
	if (deleted) {
		/* The kernel unlinks the item wherever it is and decrements the
		 * list it locked: a different list here is a lost count. */
		if (item->on != l)
			lru->stat.wrong_list_del++;
		list_del_item(item);
		lru->scope->count_locked(lru, nid, l, -1);
		lru->stat.deleted++;
	}
	list_lru_unlock(t, &held);
	if (deleted)
		lru->scope->count_unlocked(t, lru, nid, -1, 1);
	return deleted;
}

void list_lru_del_add(struct sim_task *t, struct list_lru *lru, struct lru_item *item, int nid,
		      struct mem_cgroup *memcg, long n)
{
	struct lru_locked held = planned_hold(2 * n * cost(COST_LIST_OP));
	struct list_lru_one *l =
		lru->scope->lock_list(t, lru, nid, memcg, SPIN_PLAIN, false, "list_lru_del", &held);
	if (item->on) {
		if (item->on != l)
			lru->stat.wrong_list_del++;
		list_del_item(item);
		lru->scope->count_locked(lru, nid, l, -1);
	}
	list_add_tail_item(l, item);
	lru->scope->count_locked(lru, nid, l, +1);
	if (l->nr_items == 1)
		set_shrinker_bit(l->memcg, nid, lru->shrinker_id);
	lru->stat.deleted += n;
	lru->stat.added += n;
	list_lru_unlock(t, &held);
	lru->scope->count_unlocked(t, lru, nid, 0, 2 * n);
}

void list_lru_isolate(struct sim_task *t, struct list_lru *lru, struct list_lru_one *l,
		      struct lru_item *item)
{
	sim_task_charge(t, SIM_CAT_SYS, cost(COST_LIST_OP));
	list_del_item(item);
	lru->scope->count_locked(lru, l->nid, l, -1);
	lru->stat.isolated++;
}

static void list_lru_rotate(struct list_lru_one *l, struct lru_item *item)
{
	list_del_item(item);
	list_add_tail_item(l, item);
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

static long __list_lru_walk_one(struct sim_task *t, struct list_lru *lru, int nid,
				struct mem_cgroup *memcg, list_lru_walk_cb isolate, void *arg,
				long *nr_to_walk, enum spin_flavour fl, const char *site)
{
	struct lru_locked held = {0}; /* a walk's length is not known: dynamic */
	long isolated = 0;
	struct list_lru_one *l = lru->scope->lock_list(t, lru, nid, memcg, fl, true, site, &held);
	if (!l)
		return 0;
restart:
	for (struct lru_item *item = l->head.next, *next; item != &l->head; item = next) {
		next = item->next;
		if (*nr_to_walk <= 0)
			break;
		--*nr_to_walk;
		sim_task_charge(t, SIM_CAT_SYS, cost(COST_LINE_LLC));
		enum lru_status ret = isolate(t, lru, item, l, &held, arg);
		switch (ret) {
		case LRU_REMOVED_RETRY:
			isolated++;
			/* fall through */
		case LRU_RETRY:
			lru->stat.retries += ret == LRU_RETRY;
			l = lru->scope->relock(t, lru, nid, memcg, l, fl, site, &held);
			if (!l)
				goto done;
			goto restart;
		case LRU_REMOVED:
			isolated++;
			break;
		case LRU_ROTATE:
			list_lru_rotate(l, item);
			lru->stat.rotated++;
			break;
		case LRU_SKIP:
			break;
		case LRU_STOP:
			goto out;
		}
	}
out:
	list_lru_unlock(t, &held);
done:
	if (isolated)
		lru->scope->count_unlocked(t, lru, nid, -isolated, 1);
	return isolated;
}

long list_lru_walk_one(struct sim_task *t, struct list_lru *lru, int nid,
		       struct mem_cgroup *memcg, list_lru_walk_cb isolate, void *arg,
		       long *nr_to_walk)
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

/* The registry: one line per lock scope. */
#define LIST_LRU_SCOPES(X)                                                                         \
	X(node)                                                                                    \
	X(memcg)

#define DECLARE(name) extern const struct list_lru_scope_ops list_lru_scope_##name;
#define ENTRY(name) &list_lru_scope_##name,
LIST_LRU_SCOPES(DECLARE)
const void *const list_lru_scopes[] = {LIST_LRU_SCOPES(ENTRY) NULL};

const struct list_lru_scope_ops *list_lru_scope_find(const char *name)
{
	for (int i = 0; list_lru_scopes[i]; i++) {
		const struct list_lru_scope_ops *s = list_lru_scopes[i];
		if (strcmp(s->name, name) == 0)
			return s;
	}
	return NULL;
}

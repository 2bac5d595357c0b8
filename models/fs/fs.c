// SPDX-License-Identifier: GPL-2.0-or-later
#include "fs.h"
#include "cost.h"
#include "insn.h"

static struct mem_cgroup *obj_memcg(struct obj_cgroup *objcg)
{
	return objcg->memcg; /* mem_cgroup_from_slab_obj */
}

/* inode ------------------------------------------------------------------- */

/* inode_add_lru: an unused inode whose page cache is empty (mapping
 * shrinkable) joins s_inode_lru. */
static void inode_add_lru(struct sim_task *t, struct inode *inode)
{
	if (inode->i_count || inode->i_data.nrpages || inode->i_lru.on)
		return;
	list_lru_add(t, &inode->sb->s_inode_lru, &inode->i_lru, inode->nid,
		     obj_memcg(inode->objcg));
}

static void iput(struct sim_task *t, struct inode *inode)
{
	if (--inode->i_count == 0)
		inode_add_lru(t, inode); /* iput_final keeps the cached inode */
}

/* Drop the inode's page from its memcg's file LRU (invalidate_mapping_pages). */
static long inode_drop_page(struct sim_task *t, struct inode *inode)
{
	struct address_space *m = &inode->i_data;
	struct lruvec *lv = &m->memcg->nodeinfo[m->nid];
	lruvec_lock_pages(t, lv, 1, "invalidate_mapping_pages");
	lv->nr_file -= m->nrpages; /* its LRU entry is skipped when reclaim reaches it */
	long pages = m->nrpages;
	m->nrpages = 0;
	cost_charge_flat(t, SIM_CAT_SYS, COST_RECLAIM_FILE_PAGE, pages);
	mem_cgroup_uncharge(t, m->memcg, pages);
	inode->sb->stat.inode_pages_dropped += pages;
	return pages;
}

static void destroy_inode(struct sim_task *t, struct inode *inode, struct shrink_control *sc)
{
	struct super_block *sb = inode->sb;
	inode_sb_list_del(t, inode);	      /* evict */
	xfs_inode_mark_reclaimable(t, inode); /* ->destroy_inode */
	sim_task_charge(t, SIM_CAT_SYS, cost(COST_INODE_FREE));
	sc->nr_reclaimed_pages += obj_cgroup_uncharge(t, inode->objcg, sb->inode_bytes);
	sb->nr_inodes--;
	sb->stat.inodes_freed++;
	if (!inode->queued)
		g_free(inode);
	else
		inode->sb = NULL; /* freed once reclaim pops its stale LRU entry */
}

struct inode_walk {
	struct super_block *sb;
	struct shrink_control *sc;
	GPtrArray *freeable;
};

/* inode_lru_isolate */
static enum lru_status inode_lru_isolate(struct sim_task *t, struct list_lru *lru,
					 struct lru_item *item, struct list_lru_one *l,
					 struct lru_locked *held, void *arg)
{
	struct inode_walk *w = arg;
	struct inode *inode = (struct inode *)item;
	/* spin_trylock(&inode->i_lock): a cmpxchg on the inode's line */
	line_touch(t, &inode->i_lru.line, LINE_RMW, "inode_lru_isolate");
	sim_task_charge(t, SIM_CAT_SYS, insn_cost(INSN_INODE_ISOLATE));
	if (inode->i_count) { /* in use again: just off the LRU */
		list_lru_isolate(t, lru, l, item);
		return LRU_REMOVED;
	}
	if (inode->i_referenced) {
		inode->i_referenced = false;
		return LRU_ROTATE;
	}
	if (inode->i_data.nrpages) {
		/* Pages to drop first: pin it, drop the lru lock, invalidate. */
		inode->i_count++;
		list_lru_unlock(t, held);
		w->sc->nr_reclaimed_pages += inode_drop_page(t, inode);
		inode->i_count--;
		return LRU_RETRY;
	}
	list_lru_isolate(t, lru, l, item); /* list_lru_isolate_move to freeable */
	g_ptr_array_add(w->freeable, inode);
	return LRU_REMOVED;
}

static long prune_icache_sb(struct sim_task *t, struct super_block *sb, struct shrink_control *sc)
{
	struct inode_walk w = {sb, sc, g_ptr_array_new()};
	long freed = list_lru_walk_one(t, &sb->s_inode_lru, sc->nid, sc->memcg, inode_lru_isolate,
				       &w, &sc->nr_to_scan);
	for (guint i = 0; i < w.freeable->len; i++) /* dispose_list */
		destroy_inode(t, w.freeable->pdata[i], sc);
	g_ptr_array_free(w.freeable, TRUE);
	return freed;
}

/* dentry ------------------------------------------------------------------ */

/* dentry_lru_isolate */
static enum lru_status dentry_lru_isolate(struct sim_task *t, struct list_lru *lru,
					  struct lru_item *item, struct list_lru_one *l,
					  struct lru_locked *held, void *arg)
{
	GPtrArray *dispose = arg;
	struct dentry *d = (struct dentry *)item;
	/* spin_trylock(&dentry->d_lock): a cmpxchg on the dentry's line */
	line_touch(t, &d->d_lru.line, LINE_RMW, "dentry_lru_isolate");
	sim_task_charge(t, SIM_CAT_SYS, insn_cost(INSN_DENTRY_ISOLATE));
	if (d->d_count) { /* in use: d_lru_isolate */
		list_lru_isolate(t, lru, l, item);
		return LRU_REMOVED;
	}
	if (d->d_referenced) {
		d->d_referenced = false;
		return LRU_ROTATE;
	}
	list_lru_isolate(t, lru, l, item); /* d_lru_shrink_move */
	g_ptr_array_add(dispose, d);
	return LRU_REMOVED;
}

/* shrink_dentry_list: kill each dentry, dropping its inode reference. */
static void shrink_dentry_list(struct sim_task *t, struct super_block *sb, GPtrArray *dispose,
			       struct shrink_control *sc)
{
	for (guint i = 0; i < dispose->len; i++) {
		struct dentry *d = dispose->pdata[i];
		sim_task_charge(t, SIM_CAT_SYS, cost(COST_DENTRY_FREE));
		sc->nr_reclaimed_pages += obj_cgroup_uncharge(t, d->objcg, sb->dentry_bytes);
		iput(t, d->d_inode);
		sb->nr_dentries--;
		sb->stat.dentries_freed++;
		g_free(d);
	}
}

static long prune_dcache_sb(struct sim_task *t, struct super_block *sb, struct shrink_control *sc)
{
	GPtrArray *dispose = g_ptr_array_new();
	long freed = list_lru_walk_one(t, &sb->s_dentry_lru, sc->nid, sc->memcg, dentry_lru_isolate,
				       dispose, &sc->nr_to_scan);
	shrink_dentry_list(t, sb, dispose, sc);
	g_ptr_array_free(dispose, TRUE);
	return freed;
}

/* super ------------------------------------------------------------------- */

static long super_cache_count(struct sim_task *t, struct shrinker *s, struct shrink_control *sc)
{
	struct super_block *sb = s->private_data;
	long total = list_lru_count_one(&sb->s_dentry_lru, sc->nid, sc->memcg) +
		     list_lru_count_one(&sb->s_inode_lru, sc->nid, sc->memcg);
	return total ? total : SHRINK_EMPTY;
}

/* super_cache_scan: dentries first, then inodes, in proportion. */
static long super_cache_scan(struct sim_task *t, struct shrinker *s, struct shrink_control *sc)
{
	struct super_block *sb = s->private_data;
	long dentries = list_lru_count_one(&sb->s_dentry_lru, sc->nid, sc->memcg);
	long inodes = list_lru_count_one(&sb->s_inode_lru, sc->nid, sc->memcg);
	long total = dentries + inodes + 1, nr = sc->nr_to_scan;
	sc->nr_to_scan = nr * dentries / total + 1;
	long freed = prune_dcache_sb(t, sb, sc);
	sc->nr_to_scan = nr * inodes / total + 1;
	freed += prune_icache_sb(t, sb, sc);
	return freed;
}

/* Reclaim took the oldest @nr file pages of the memcg on @nid. */
static void fs_drop_file_pages(struct sim_task *t, struct mem_cgroup *memcg, int nid, long nr)
{
	GQueue *q = &memcg->nodeinfo[nid].file_owners;
	while (nr > 0 && !g_queue_is_empty(q)) {
		struct inode *inode = g_queue_pop_head(q);
		inode->queued = false;
		if (!inode->sb) { /* freed while its entry waited */
			g_free(inode);
			continue;
		}
		if (!inode->i_data.nrpages) /* already invalidated: a stale entry */
			continue;
		nr -= inode->i_data.nrpages;
		inode->sb->stat.inode_pages_dropped += inode->i_data.nrpages;
		inode->i_data.nrpages = 0;
		inode_add_lru(t, inode); /* mapping now shrinkable */
	}
}

void super_block_init(struct super_block *sb, const struct list_lru_scope_ops *scope,
		      long dentry_bytes, long inode_bytes)
{
	memset(sb, 0, sizeof(*sb));
	sb->dentry_bytes = dentry_bytes;
	sb->inode_bytes = inode_bytes;
	sb->s_shrink.name = "super_cache";
	sb->s_shrink.seeks = DEFAULT_SEEKS;
	sb->s_shrink.count_objects = super_cache_count;
	sb->s_shrink.scan_objects = super_cache_scan;
	sb->s_shrink.private_data = sb;
	shrinker_register(&sb->s_shrink);
	list_lru_init_memcg(&sb->s_dentry_lru, "s_dentry_lru", scope, sb->s_shrink.id);
	list_lru_init_memcg(&sb->s_inode_lru, "s_inode_lru", scope, sb->s_shrink.id);
	inode_lists_init(sb);
	memcg_tree->file_pages_dropped = fs_drop_file_pages;
}

void super_block_destroy(struct super_block *sb)
{
	/* Objects still cached at the end are freed with the run. */
	list_lru_destroy(&sb->s_dentry_lru);
	list_lru_destroy(&sb->s_inode_lru);
	inode_lists_destroy(sb);
}

void fs_read_file(struct sim_task *t, struct super_block *sb, struct mem_cgroup *memcg,
		  struct folio_batch *fb)
{
	int nid = sim_cpu_node(sim_task_cpu(t));
	cost_charge_flat(t, SIM_CAT_SYS, COST_FILE_READ, 1);
	line_stream(sim_task_cpu(t), PAGE_SIZE_BYTES); /* the file's page, copied out */
	obj_cgroup_charge(t, memcg->objcg, sb->dentry_bytes + sb->inode_bytes); /* d_alloc, iget */
	struct inode *inode = g_new0(struct inode, 1);
	struct dentry *d = g_new0(struct dentry, 1);
	lru_item_init(&inode->i_lru, sb->s_inode_lru.item_lines, nid);
	lru_item_init(&d->d_lru, sb->s_dentry_lru.item_lines, nid);
	inode->sb = sb;
	inode->objcg = d->objcg = memcg->objcg;
	inode->nid = d->nid = nid;
	inode->i_count = 1; /* held by the dentry */
	d->d_inode = inode;
	sb->nr_inodes++;
	sb->nr_dentries++;
	xfs_iget_cache_miss(t, inode); /* the lookup of the cold name */
	inode_sb_list_add(t, inode);   /* xfs_setup_inode */
	/* the read: one page into the page cache */
	mem_cgroup_charge(t, memcg, 1);
	inode->i_data = (struct address_space){1, memcg, nid};
	inode->queued = true;
	folio_batch_add_file(t, fb, memcg, nid, inode);
	/* close, dput: the unused dentry stays cached on the LRU */
	list_lru_add(t, &sb->s_dentry_lru, &d->d_lru, nid, obj_memcg(d->objcg));
	sb->stat.files_read++;
}

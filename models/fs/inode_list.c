// SPDX-License-Identifier: GPL-2.0-or-later
/* The shared structures an inode's life takes on its superblock (Linux
 * 6.12, XFS; checked against 6.12.0's fs/inode.c and xfs_icache.c), besides
 * its list_lru:
 *  - fs/inode.c inode_sb_list_add (from xfs_setup_inode, per inode read in)
 *    and inode_sb_list_del (from evict): spin_lock(&sb->s_inode_list_lock)
 *    around list_add / list_del_init of inode->i_sb_list on sb->s_inodes. The
 *    lock is ____cacheline_aligned_in_smp with the list head after it, so
 *    the head shares the lock's line; the neighbours' i_sb_list (beside
 *    i_lru in struct inode: the inode's line) belong to whichever CPU added
 *    them. One lock per superblock: every CPU, every file.
 *  - fs/xfs/xfs_icache.c xfs_iget_cache_miss: spin_lock(&pag->pag_ici_lock),
 *    radix_tree_insert(&pag->pag_ici_root); and xfs_inode_mark_reclaimable
 *    (from ->destroy_inode) under the same lock, taken one call down in
 *    xfs_inodegc_set_reclaimable, to tag the inode
 *    reclaimable. One lock per allocation group; the root (after the lock,
 *    its line) and a leaf of 64 inodes, which the reader's own inode chunk
 *    fills (a per-CPU line stands for it). The background reclaim that
 *    later deletes the inode from the tree is not modelled.
 * XFS fakes the VFS inode hash (inode_fake_hash): no inode_hash_lock. The
 * readers' directories are not known: each reader's files are taken to be
 * in a directory of its own, which XFS's directory rotor gives an AG of its
 * own (cgroup i: AG i mod XFS_AGCOUNT); the per-directory locks are left out. */
#include "fs.h"
#include "kernel.h"

static sim_time_t section_stores(struct sim_task *t, struct spinlock *l, struct cacheline **lines,
				 int n, const char *site)
{
	sim_time_t spent = 0;
	for (int i = 0; i < n; i++)
		if (lines[i])
			spent += spin_held_access(t, l, lines[i], LINE_STORE, site);
	return spent;
}

struct sb_list_op {
	struct super_block *sb;
	struct inode *inode;
};

/* list_add(&inode->i_sb_list, &sb->s_inodes): the head, the inode, the
 * first inode's prev. */
static sim_time_t sb_list_add_section(struct sim_task *t, void *arg)
{
	struct sb_list_op *op = arg;
	struct super_block *sb = op->sb;
	struct inode *first = sb->s_inodes;
	struct cacheline *lines[] = {sb->s_inode_list_lock.line, &op->inode->i_lru.line,
				     first ? &first->i_lru.line : NULL};
	op->inode->sb_next = first;
	op->inode->sb_prev = NULL;
	if (first)
		first->sb_prev = op->inode;
	sb->s_inodes = op->inode;
	return section_stores(t, &sb->s_inode_list_lock, lines, 3, "inode_sb_list_add");
}

/* list_del_init(&inode->i_sb_list): the previous entry's next (or the head), the
 * next entry's prev. */
static sim_time_t sb_list_del_section(struct sim_task *t, void *arg)
{
	struct sb_list_op *op = arg;
	struct super_block *sb = op->sb;
	struct inode *prev = op->inode->sb_prev, *next = op->inode->sb_next;
	struct cacheline *lines[] = {prev ? &prev->i_lru.line : sb->s_inode_list_lock.line,
				     next ? &next->i_lru.line : NULL};
	if (prev)
		prev->sb_next = next;
	else
		sb->s_inodes = next;
	if (next)
		next->sb_prev = prev;
	op->inode->sb_prev = op->inode->sb_next = NULL;
	return section_stores(t, &sb->s_inode_list_lock, lines, 2, "inode_sb_list_del");
}

void inode_sb_list_add(struct sim_task *t, struct inode *inode)
{
	struct sb_list_op op = {inode->sb, inode};
	spin_lock_hold_fn(t, &inode->sb->s_inode_list_lock, sb_list_add_section, &op, SIM_CAT_SYS,
			  SPIN_PLAIN, __func__);
}

void inode_sb_list_del(struct sim_task *t, struct inode *inode)
{
	struct sb_list_op op = {inode->sb, inode};
	spin_lock_hold_fn(t, &inode->sb->s_inode_list_lock, sb_list_del_section, &op, SIM_CAT_SYS,
			  SPIN_PLAIN, __func__);
}

struct pag_op {
	struct xfs_perag *pag;
	const char *site;
};

/* The tree's root (the lock's line) and the reader's leaf. */
static sim_time_t pag_ici_section(struct sim_task *t, void *arg)
{
	struct pag_op *op = arg;
	struct cacheline *lines[] = {op->pag->pag_ici_lock.line, &op->pag->leaf[sim_task_cpu(t)]};
	return section_stores(t, &op->pag->pag_ici_lock, lines, 2, op->site);
}

static void pag_ici_locked(struct sim_task *t, struct inode *inode, const char *site)
{
	struct pag_op op = {&inode->sb->pag[inode->ag], site};
	spin_lock_hold_fn(t, &op.pag->pag_ici_lock, pag_ici_section, &op, SIM_CAT_SYS, SPIN_PLAIN,
			  site);
}

void xfs_iget_cache_miss(struct sim_task *t, struct inode *inode)
{
	inode->ag = inode->objcg->memcg->id % XFS_AGCOUNT; /* its reader's directory's AG */
	pag_ici_locked(t, inode, __func__);
}

void xfs_inode_mark_reclaimable(struct sim_task *t, struct inode *inode)
{
	pag_ici_locked(t, inode, __func__);
}

void inode_lists_init(struct super_block *sb)
{
	int ncpus = sim_ncpus();
	struct lock_class *list_cls = lock_class_get("&s->s_inode_list_lock");
	/* alloc_super (fs/super.c, 5.11+); 2.6.32 kept sb->s_inodes under the
	 * global inode_lock (fs/inode.c: DEFINE_SPINLOCK(inode_lock)) */
	if (kernel_version() == KERNEL_2_6_32)
		lock_class_lockdep_name(list_cls, "inode_lock");
	spin_lock_init(&sb->s_inode_list_lock, list_cls);
	struct lock_class *ici = lock_class_get("&pag->pag_ici_lock");
	struct line_class *leaf = line_class_get("pag_ici_root leaf");
	for (int a = 0; a < XFS_AGCOUNT; a++) {
		spin_lock_init(&sb->pag[a].pag_ici_lock, ici);
		sb->pag[a].leaf = g_new0(struct cacheline, ncpus);
		for (int cpu = 0; cpu < ncpus; cpu++)
			line_init(&sb->pag[a].leaf[cpu], leaf, sim_cpu_node(cpu));
	}
}

void inode_lists_destroy(struct super_block *sb)
{
	spin_lock_destroy(&sb->s_inode_list_lock);
	for (int a = 0; a < XFS_AGCOUNT; a++) {
		spin_lock_destroy(&sb->pag[a].pag_ici_lock);
		g_free(sb->pag[a].leaf);
	}
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fs: one filesystem's dentries and inodes on its superblock's memcg-aware
 * list_lrus (s_dentry_lru, s_inode_lru), reclaimed by the superblock
 * shrinker, as fs/dcache.c, fs/inode.c and fs/super.c do it. Each file has
 * one page of page cache on its reader's memcg file LRU. */
#pragma once
#include "list_lru.h"
#include "shrinker.h"

/* The page-cache side of an inode: its pages sit on a memcg's file LRU. */
struct address_space {
	int nrpages;
	struct mem_cgroup *memcg; /* charged to */
	int nid;
};

struct inode {
	struct lru_item i_lru; /* first: on s_inode_lru */
	int i_count;
	bool i_referenced; /* I_REFERENCED */
	struct address_space i_data;
	struct obj_cgroup *objcg;
	int nid;
	struct super_block *sb;		 /* NULL once freed while still queued (below) */
	struct inode *sb_prev, *sb_next; /* i_sb_list on sb->s_inodes (s_inode_list_lock) */
	int ag;				 /* its XFS allocation group */
	bool queued;			 /* its page has an entry on the memcg's file LRU queue */
};

struct dentry {
	struct lru_item d_lru; /* first: on s_dentry_lru */
	int d_count;
	bool d_referenced; /* DCACHE_REFERENCED */
	struct inode *d_inode;
	struct obj_cgroup *objcg;
	int nid;
};

/* What the model allocates per file read and keeps until the file's objects
 * are reclaimed: its dentry and inode, its page's entry on the file LRU
 * queue and the allocator's overhead (measured: 10^6 and 3*10^6 files of one
 * fileread task differ by 325 bytes a file in maximum resident size). */
#define FS_BYTES_PER_FILE 330

struct fs_stats {
	long files_read, dentries_freed, inodes_freed, inode_pages_dropped;
};

/* XFS's allocation groups: mkfs.xfs's default for a single device from
 * 128 MiB to 4 TiB. */
#define XFS_AGCOUNT 4

/* struct xfs_perag's in-core inode tree. */
struct xfs_perag {
	struct spinlock pag_ici_lock; /* pag_ici_root follows it in its line */
	struct cacheline *leaf;	      /* [ncpus]: the radix leaf of each reader's inodes */
};

struct super_block {
	struct list_lru s_dentry_lru;
	struct list_lru s_inode_lru;
	struct shrinker s_shrink;
	long dentry_bytes, inode_bytes;	   /* slab object sizes, charged to memcgs */
	long nr_dentries, nr_inodes;	   /* allocated */
	struct spinlock s_inode_list_lock; /* s_inodes: its head in the lock's line */
	struct inode *s_inodes;		   /* the first inode on it */
	struct xfs_perag pag[XFS_AGCOUNT];
	struct fs_stats stat;
};

void super_block_init(struct super_block *sb, const struct list_lru_scope_ops *scope,
		      long dentry_bytes, long inode_bytes);
void super_block_destroy(struct super_block *sb);
/* open + read + close of one file not in cache, by @t in @memcg: a dentry
 * and an inode are allocated and charged, one page is read into the page
 * cache (through the reader's folio batch @fb), and the unused dentry goes
 * on the LRU (dput). */
void fs_read_file(struct sim_task *t, struct super_block *sb, struct mem_cgroup *memcg,
		  struct folio_batch *fb);
/* inode_list.c: the superblock's inode list and XFS's per-AG inode trees
 * (their locks and lines), set up and torn down with the superblock. */
void inode_lists_init(struct super_block *sb);
void inode_lists_destroy(struct super_block *sb);
void inode_sb_list_add(struct sim_task *t, struct inode *inode);
void inode_sb_list_del(struct sim_task *t, struct inode *inode);
void xfs_iget_cache_miss(struct sim_task *t, struct inode *inode);
void xfs_inode_mark_reclaimable(struct sim_task *t, struct inode *inode);

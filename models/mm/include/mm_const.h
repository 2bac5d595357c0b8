/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mm_const: the kernel constants the models use, with the kernel's names. */
#pragma once

#define PAGE_SIZE_BYTES 4096L
#define SWAP_CLUSTER_MAX 32L   /* pages reclaimed per batch */
#define DEF_PRIORITY 12	       /* reclaim scans lru_size >> priority */
#define MAX_RECLAIM_RETRIES 16 /* try_charge_memcg retries before OOM */
#define MEMCG_CHARGE_BATCH 64L /* per-CPU stock refill */
#define SHRINK_BATCH 128L      /* do_shrink_slab scan batch */
#define DEFAULT_SEEKS 2
#define XA_CHUNK_SHIFT 6 /* xarray node = 64 slots */
#define XA_CHUNK_SIZE (1L << XA_CHUNK_SHIFT)
#define SWAPFILE_CLUSTER 512L	    /* swap slots per allocation cluster */
#define SWAP_ADDRESS_SPACE_SHIFT 14 /* swap cache: one address space per 64 MiB */
#define SWAP_ADDRESS_SPACE_PAGES (1L << SWAP_ADDRESS_SPACE_SHIFT)

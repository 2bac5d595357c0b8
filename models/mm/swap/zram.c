// SPDX-License-Identifier: GPL-2.0-or-later
/* zram as Linux 6.12's drivers/block/zram/zram_drv.c runs it for memhog,
 * whose pages are all 0xff (numactl's memhog memsets them): every page is
 * same-filled, so zram_write_page stores no object (no zsmalloc, no
 * compression) and keeps only the slot's table entry. What every CPU shares
 * is struct zram_stats, one line of atomics: same_pages and pages_stored at
 * each write (atomic64_inc), notify_free, same_pages and pages_stored at
 * each free (zram_slot_free_notify -> zram_free_page). The slot's own lock
 * (zram->table[index].lock, a spinlock since 6.12) and table entry are the
 * slot's CPU's: taken twice per write (zram_write_page, then zram_bio_write's
 * zram_accessed), once per free, never contended here. */
#include "cost.h"
#include "swap.h"

/* zram_slot_lock + unlock of an uncontended, CPU-local slot. */
static void zram_slot_lock_pair(struct sim_task *t)
{
	sim_task_charge(t, SIM_CAT_SYS, cost(COST_LOCKED_RMW));
}

void zram_write_page(struct sim_task *t, long slot)
{
	struct zram *zram = &swap_active->zram;
	(void)slot;
	/* page_same_filled reads the page: zram's work, then its stream */
	cost_charge_flat(t, SIM_CAT_SYS, COST_ZRAM_WRITE, 1);
	line_stream(sim_task_cpu(t), PAGE_SIZE_BYTES);
	/* same_pages, then (the slot lock, zram_free_page and the flags
	 * between, a few ns) pages_stored: taken as two RMWs back to back */
	line_atomic_n(t, &zram->stats, 2, SIM_CAT_SYS, "zram_write_page");
	zram_slot_lock_pair(t); /* zram_write_page */
	zram_slot_lock_pair(t); /* zram_bio_write: zram_accessed */
}

void zram_slot_free_notify(struct sim_task *t, long slot)
{
	struct zram *zram = &swap_active->zram;
	(void)slot;
	line_atomic(t, &zram->stats, SIM_CAT_SYS, "zram_slot_free_notify"); /* notify_free */
	zram_slot_lock_pair(t);
	/* zram_free_page of a ZRAM_SAME slot: same_pages, then pages_stored */
	line_atomic_n(t, &zram->stats, 2, SIM_CAT_SYS, "zram_free_page");
}

void zram_init(struct zram *zram)
{
	line_init(&zram->stats, line_class_get("zram->stats"), 0);
}

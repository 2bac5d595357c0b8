// SPDX-License-Identifier: GPL-2.0-or-later
/* The run's swap device (mm/swapfile.c's swap_info[]: one device here), set
 * by swap_device_init (swap.c), read by every swap path. */
#include "mm.h"
#include "swap.h"

struct swap_device *swap_active;

bool swap_available(void)
{
	return swap_active && swap_active->stat.slots_used < swap_active->nr_slots;
}

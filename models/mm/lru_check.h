/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lru_check: the list_lru invariant checker. No item lost, duplicated or
 * left on a dead list; every list's nr_items equals its length; each node's
 * count equals the sum of its lists'. Run at the end of every simulation. */
#pragma once
#include <jansson.h>

/* The violations found, one string each; an empty array when all holds. */
json_t *lru_check_all(void);

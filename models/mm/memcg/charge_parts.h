/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the charge path's files (charge.c, charge_stock.c, charge_uncharge.c)
 * share, private to models/mm/memcg/. */
#pragma once
#include "charge.h"

/* Take @nr pages back from @memcg's counters (memory, and memsw with it). */
void counters_uncharge(struct sim_task *t, struct mem_cgroup *memcg, long nr);
/* Take @nr pages from this CPU's stock if it holds them for @memcg. */
bool consume_stock(struct sim_task *t, struct mem_cgroup *memcg, long nr);
/* 2.6.32's css_tryget (@site "css_tryget") or css_put of @nr pages. */
void css_ref(struct sim_task *t, struct mem_cgroup *memcg, long nr, const char *site);
/* 2.6.32's soft-limit event check of @nr pages' events on this CPU. */
void memcg_check_events(struct sim_task *t, struct mem_cgroup *memcg, long nr);

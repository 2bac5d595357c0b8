/* SPDX-License-Identifier: GPL-2.0-or-later */
/* static_key: a hot-path check done as a plain branch (a load of the flag's
 * cache line, test, conditional branch) or as a static key (a patched NOP or
 * JMP), chosen by the scenario as a table of operations; and the cost of
 * flipping a key (static_branch_enable/disable: text patching with IPIs that
 * stall every CPU; for the plain flag, a store to its line that the next
 * check on every other CPU pays to fetch). Per-check instruction costs are in
 * cycles at machine.clock_ghz; where the flag's line is comes from the cache
 * model (models/hw/include/cacheline.h). */
#pragma once
#include "cacheline.h"
#include "mcs_named.h"
#include "sim_engine.h"
#include "sim_rng.h"
#include <jansson.h>

struct static_key_params {
	double load_cycles; /* the load instruction, the line in L1 */
	double miss_prob;   /* the core's caches lost the flag's line since the last check */
	double test_branch_cycles, mispredict_cycles, mispredict_prob;
	double nop_cycles, jmp_cycles; /* the patched site */
	double patch_site_ns;	       /* text_poke of one site, unbatched */
	double patch_batch_ns;	       /* a whole batch of sites */
	double patch_stall_ns;	       /* each CPU's stall per IPI round */
	long sites;
	bool batched;
};

struct hot_path {
	const char *name;
	long checks;
};

struct static_key {
	const char *name;
	bool enabled;
	struct cacheline flag;	      /* the plain branch's flag (__read_mostly) */
	long branches, branch_misses; /* counted as perf stat would */
	struct hot_path *paths;	      /* {NULL}-terminated */
	struct static_key_params p;
	struct sim_rng *rng;
	const struct static_key_ops *ops;
};

struct static_key_ops {
	MCS_NAMED;
	/* One check on @path by @cpu; its cycles (branches and misses counted). */
	double (*check)(struct static_key *k, int cpu, struct hot_path *path);
	/* The key was flipped: what it costs @t and the other CPUs. */
	void (*flip)(struct sim_task *t, struct static_key *k);
};

/* The schemes a scenario chooses from (its "check"), NULL-terminated. */
extern const struct mcs_named *const static_key_schemes[];

/* A check of @key on hot path @path by @t: its cost charged as sys. */
void static_branch_check(struct sim_task *t, struct static_key *key, struct hot_path *path);
/* The key's flag line, in @key->name's class on node 0. */
void static_key_init(struct static_key *key);
/* static_branch_enable / disable: patch every site, stalling every CPU. */
void static_branch_set(struct sim_task *t, struct static_key *key, bool enabled);
json_t *static_key_json(const struct static_key *key);

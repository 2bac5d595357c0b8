/* static_key: a hot-path check done as a plain branch (load of the flag's
 * cache line, test, conditional branch) or as a static key (a patched NOP or
 * JMP), chosen by the scenario as a table of operations; and the cost of
 * flipping a key (static_branch_enable/disable: text patching with IPIs that
 * stall every CPU). Per-check costs are in cycles at machine.clock_ghz. */
#pragma once
#include "sim_engine.h"
#include "sim_rng.h"
#include <jansson.h>

struct static_key_params {
	double load_hit_cycles, load_miss_cycles, miss_prob; /* the flag's load */
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
	long branches, branch_misses; /* counted as perf stat would */
	struct hot_path *paths;	      /* {NULL}-terminated */
	struct static_key_params p;
	struct sim_rng *rng;
	const struct static_key_ops *ops;
};

struct static_key_ops {
	const char *name;
	/* One check on @path; its cycles (branches and misses counted). */
	double (*check)(struct static_key *k, struct hot_path *path);
	/* The key was flipped: what it costs @t and the other CPUs. */
	void (*flip)(struct sim_task *t, struct static_key *k);
};

/* The schemes a scenario chooses from (its "check"), NULL-terminated. */
extern const void *const static_key_schemes[];

/* A check of @key on hot path @path by @t: its cost charged as sys. */
void static_branch_check(struct sim_task *t, struct static_key *key, struct hot_path *path);
/* static_branch_enable / disable: patch every site, stalling every CPU. */
void static_branch_set(struct sim_task *t, struct static_key *key, bool enabled);
json_t *static_key_json(const struct static_key *key);

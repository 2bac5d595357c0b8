/* SPDX-License-Identifier: GPL-2.0-or-later */
/* scenario: loading, overriding and checking scenario files, and decoding
 * each variant into the configuration a run takes (models/config/include/run_config.h).
 *
 * A scenario is checked whole before anything runs: syntax, keys, types,
 * ranges and cross-key rules, for the base and for every variant, with
 * --set overrides applied. Errors read "FILE:LINE:COLUMN: PATH: message". */
#pragma once
#include "lockstat.h"
#include "run.h"
#include "spec_json.h"
#include <stdint.h>

#define SCENARIO_MAX_BYTES (4 << 20)
#define SCENARIO_MAX_VARIANTS 32
#define SCENARIO_MAX_REPLICAS 100
/* The largest seed: the largest integer a double holds exactly (2^53 - 1). */
#define SCENARIO_MAX_SEED 9007199254740991ULL
/* The result document the parent process keeps holds every run's figures
 * of every cgroup (memcg.cgroups): about SCENARIO_RESULT_CGROUP_BYTES a
 * cgroup for a variant's first run and SCENARIO_RESULT_CGROUP_RUN_BYTES for
 * each further replica or cost draw (measured, docs/scenario.md); a
 * scenario whose sum over its variants is past SCENARIO_MAX_RESULT_BYTES
 * is refused at validation. */
#define SCENARIO_RESULT_CGROUP_BYTES 7600.0
#define SCENARIO_RESULT_CGROUP_RUN_BYTES 6600.0
#define SCENARIO_MAX_RESULT_BYTES (4.0 * 1024 * 1024 * 1024)
#define SCENARIO_MAX_DRAWS 10000

/* time(1) of a measured run, in s; NAN: not given. */
struct scenario_time {
	double real_s, user_s, sys_s;
};

/* A variant's "measured" (scenario_measured.c): what a machine measured for
 * the kernel it stands for, which `memcgsim fit` fits its costs to. */
struct scenario_measured {
	char *source;
	char *locks_path; /* as written, relative to the scenario's directory; NULL: none */
	double seconds;	  /* how long the lock statistics were gathered */
	struct scenario_time *time; /* NULL: not given */
	struct lockstat *locks;	    /* read at load, its seconds set; NULL: none */
};

/* A design to run: the base with the variant's and the command line's
 * overrides, decoded. */
struct scenario_variant {
	char *name;
	char *description;
	uint64_t seed;
	int replicas;
	/* Cost draws (draw_costs): runs besides the replicas, each with the
	 * costs that have a range drawn; keyed by the scenario's seed, so that
	 * every variant gets the same draws. */
	int draws;
	uint64_t draw_seed;
	struct run_config *config;
	struct scenario_measured *measured; /* NULL: none given */
};

/* What a scenario probably does not mean (scenario_warn.c): said on
 * standard error before it runs, never an error. */
struct scenario_warning {
	char *variant; /* the variant it is about; NULL: the whole scenario */
	char *text;
};

struct scenario {
	char *file;
	GHashTable *locs;
	json_t *base;	     /* validated, defaults filled in */
	GPtrArray *variants; /* struct scenario_variant *, at least one */
	GPtrArray *warnings; /* struct scenario_warning * */
	/* The variants a run without --variant runs (default_variants), in
	 * the file's order; NULL: every variant. */
	char **default_variants;
};

/* @sets: "PATH=VALUE" overrides from the command line, applied last. */
struct scenario *scenario_load(const char *file, const char *text, size_t len,
			       const char *const *sets, GError **err);
struct scenario *scenario_load_file(const char *path, const char *const *sets, GError **err);
void scenario_free(struct scenario *sc);
/* A "comparisons" entry's variant names (docs/scenario.md), into @names
 * (stripped; g_free each): 2 for "A..B", 4 for "A..B vs C..D"; 0, and none
 * set, when it is neither shape (a side empty, a third "..", a third pair). */
unsigned scenario_comparison_names(const char *comparison, char *names[4]);
/* Free what only checking @sc and placing its errors needed (its base
 * document and its positions: base and locs become NULL), keeping its
 * variants, for a sweep that holds a scenario at every grid point. */
void scenario_drop_source(struct scenario *sc);
const struct scenario_variant *scenario_variant_find(const struct scenario *sc, const char *name);
/* --variant's word for every variant of a scenario. */
#define SCENARIO_ALL_VARIANTS "all"
/* Keep only the variants of @sc that run (scenario_variants.c), and their
 * warnings: those @choice names ("NAME[,NAME...]", in the scenario's order
 * whatever the list's: the first that runs is the baseline), every one for
 * "all", and for NULL the scenario's default_variants, or every one when it
 * has none. False (MCS_ERROR_INPUT, "FILE: --variant: ...") when @choice
 * names no variant of @sc, an empty name, one twice, or "all" in a list;
 * @sc is then as it was. */
bool scenario_choose(struct scenario *sc, const char *choice, GError **err);
/* Every lock class variant @v's what-ifs name (kernel.critical_section_extra)
 * is one of @own (NULL-terminated: those its run makes); one that is only
 * in @any (another variant's) adds its index (size_t) to @lacking; one in
 * neither: false, MCS_ERROR_INPUT, at the entry's file:line:col and path,
 * with the nearest class of @any (scenario_locks.c). */
bool scenario_lock_classes_check(const struct scenario *sc, const struct scenario_variant *v,
				 const char *const *own, const char *const *any, GArray *lacking,
				 GError **err);
/* The model objects a run of @cfg allocates, as the budget of validation
 * estimates them (RUN_MAX_MEMORY_BYTES: docs/scenario.md). */
double scenario_memory_bytes(const struct run_config *cfg);

const struct spec *scenario_spec(void);
json_t *scenario_json_schema(void);

/* The seed of replica @r: the scenario seed for replica 0. */
uint64_t scenario_replica_seed(uint64_t seed, int r);
/* The seed of cost draw @d's runs, the same for every variant (@seed: the
 * scenario's); never a replica's. */
uint64_t scenario_draw_seed(uint64_t seed, int d);

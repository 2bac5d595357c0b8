/* scenario: loading, overriding and checking scenario files.
 *
 * A scenario is checked whole before anything runs: syntax, keys, types,
 * ranges and cross-key rules, for the base and for every variant, with
 * --set overrides applied. Errors read "FILE:LINE:COLUMN: PATH: message". */
#pragma once
#include "sim_machine.h"
#include "spec.h"
#include <stdint.h>

#define SCENARIO_MAX_BYTES (4 << 20)
#define SCENARIO_MAX_VARIANTS 32
#define SCENARIO_MAX_REPLICAS 100

struct scenario_variant {
	char *name;
	char *description;
	json_t *doc; /* the base with the variant's and the command line's overrides */
};

struct scenario {
	char *file;
	GHashTable *locs;
	json_t *base;	    /* validated, defaults filled in */
	GPtrArray *variants; /* struct scenario_variant *, at least one */
};

/* @sets: "PATH=VALUE" overrides from the command line, applied last. */
struct scenario *scenario_load(const char *file, const char *text, size_t len,
			       const char *const *sets, GError **err);
struct scenario *scenario_load_file(const char *path, const char *const *sets, GError **err);
void scenario_free(struct scenario *sc);
const struct scenario_variant *scenario_variant_find(const struct scenario *sc, const char *name);

const struct spec *scenario_spec(void);
json_t *scenario_json_schema(void);

/* Typed views of a validated document. */
void scenario_machine(json_t *doc, struct sim_machine *m);
sim_time_t scenario_stop_at(json_t *doc); /* 0: stop when the workloads complete */
/* The machine's interrupt sources (*n of them); free with the function below. */
struct sim_irq_source *scenario_irq_sources(json_t *doc, int *n);
void scenario_irq_sources_free(struct sim_irq_source *s, int n);
sim_time_t scenario_time_limit(json_t *doc);
uint64_t scenario_seed(json_t *doc);
int scenario_replicas(json_t *doc);
/* The seed of replica @r: the scenario seed for replica 0. */
uint64_t scenario_replica_seed(uint64_t seed, int r);
/* A workload's duration distribution from "<prefix>_ns", "_dist", "_cv". */
struct sim_dist;
void scenario_dist(json_t *w, const char *prefix, struct sim_dist *d);

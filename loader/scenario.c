// SPDX-License-Identifier: GPL-2.0-or-later
/* The scenario format's top (its keys, variants, published figures) and
 * its schema, the seeds of replicas and draws, a scenario's parts; the
 * loading is scenario_load.c's. */
#include "scenario.h"
#include "kernel.h"
#include "mm.h"
#include "scenario_parts.h"
#include "sim_rng.h"
#include "workload.h"
#include <string.h>

/* The format ----------------------------------------------------------- */

/* The workload types' keys, as the alternatives of "workloads" items
 * (filled in from the registry, models/workloads/workload.c). */
static struct spec_tag workload_tags[64];

static const struct spec workloads_spec = {
    .kind = SPEC_ARRAY,
    .doc = "what runs on the machine",
    .min = 1,
    .max = 64,
    .items = &(const struct spec){.kind = SPEC_TAGGED, .tags = workload_tags}};

static const struct spec variant_name_spec = {
    .kind = SPEC_STRING, .doc = "variant name, used by --variant", .min = 1, .max = 64};
static const struct spec text_spec = {
    .kind = SPEC_STRING, .doc = "free text", .min = 0, .max = 4096};
static const struct spec overrides_spec = {
    .kind = SPEC_OVERRIDES,
    .doc = "\"dotted.path\": value overrides of the base scenario",
    .max = 256};
static const struct spec_field variant_fields[] = {
    {"name", &variant_name_spec, true, NULL, 0},
    {"description", &text_spec, false, "\"\"", 0},
    {"set", &overrides_spec, false, "{}", 0},
    {"measured", &scenario_measured_spec, false, NULL, 0},
    {NULL}};
static const struct spec variants_spec = {
    .kind = SPEC_ARRAY,
    .doc = "named designs to compare; the first is the baseline",
    .min = 0,
    .max = SCENARIO_MAX_VARIANTS,
    .items = &(const struct spec){.kind = SPEC_OBJECT, .fields = variant_fields}};

/* What was measured on real machines, for the reports to show beside the
 * model's figures (the summary): a number a variant, by the variant's name. */
static const struct spec published_values_spec = {
    .kind = SPEC_OVERRIDES,
    .doc = "\"VARIANT\": the published figure of that variant, in the metric's unit",
    .max = SCENARIO_MAX_VARIANTS};
static const struct spec_field published_fields[] = {
    {"source", &text_spec, true, NULL, 0},
    {"metric",
     &(const struct spec){.kind = SPEC_STRING,
			  .doc = "the metric the figures are of "
				 "(elapsed_ns: real time, in ns)",
			  .min = 1,
			  .max = 128},
     true, NULL, 0},
    {"values", &published_values_spec, true, NULL, 0},
    {NULL}};

static const struct spec_field top_fields[] = {
    {"name",
     &(const struct spec){.kind = SPEC_STRING, .doc = "scenario name", .min = 1, .max = 128}, true,
     NULL, 0},
    {"description", &text_spec, false, "\"\"", 0},
    {"seed",
     &(const struct spec){
	 .kind = SPEC_INTEGER, .doc = "random seed", .min = 0, .max = (double)SCENARIO_MAX_SEED},
     false, "1", 0},
    {"replicas",
     &(const struct spec){.kind = SPEC_INTEGER,
			  .doc = "runs per variant, each "
				 "with its own seed",
			  .min = 1,
			  .max = SCENARIO_MAX_REPLICAS},
     false, "1", 0},
    {"draw_costs",
     &(const struct spec){.kind = SPEC_INTEGER,
			  .doc = "cost draws per variant besides the replicas: runs with every "
				 "cost that has a preset range drawn from it, the same draws for "
				 "every variant (docs/hardware.md)",
			  .min = 0,
			  .max = SCENARIO_MAX_DRAWS},
     false, "0", 0},
    {"machine", &scenario_machine_spec, true, NULL, 0},
    {"workloads", &workloads_spec, true, NULL, 0},
    {"kernel", &kernel_params_spec, false, "{}", 0},
    {"memcg", &mm_params_spec, false, "{}", 0},
    {"stop", &scenario_stop_spec, true, NULL, 0},
    {"variants", &variants_spec, false, "[]", 0},
    {"default_variants",
     &(const struct spec){.kind = SPEC_ARRAY,
			  .doc = "the variants a run without --variant runs, by name (the "
				 "baseline is the first of the variants that run); without it, "
				 "every variant. --variant all runs every one",
			  .min = 1,
			  .max = SCENARIO_MAX_VARIANTS,
			  .items = &variant_name_spec},
     false, NULL, 0},
    {"published",
     &(const struct spec){.kind = SPEC_OBJECT,
			  .doc = "published measurements to show beside the model's: their "
				 "source, the metric and a figure a variant",
			  .fields = published_fields},
     false, NULL, 0},
    {"comparisons",
     &(const struct spec){.kind = SPEC_ARRAY,
			  .doc = "the comparisons the scenario exists for, each given a verdict "
				 "in the reports: \"A..B\" (B against A), or \"A..B vs C..D\" (the "
				 "change of D against C less that of B against A: a difference "
				 "of differences)",
			  .min = 0,
			  .max = 16,
			  .items = &(const struct spec){.kind = SPEC_STRING, .min = 4, .max = 512}},
     false, NULL, 0},
    {"exercises",
     &(const struct spec){.kind = SPEC_ARRAY,
			  .doc =
			      "what the unmodified scenario exists to exercise: figures of a "
			      "variant's result, \"[VARIANT:]PATH\" (\"memcg.reclaim.pswpout\"; "
			      "\"v1-after:memcg.reclaim.slab_scanned\": that variant's only), "
			      "that its runs make more than 0; a run whose --set leaves one at 0 "
			      "is said not to stand for the scenario (docs/scenario.md)",
			  .min = 0,
			  .max = 32,
			  .items = &(const struct spec){.kind = SPEC_STRING, .min = 1, .max = 256}},
     false, NULL, 0},
    {"sweep",
     &(const struct spec){.kind = SPEC_ARRAY,
			  .doc = "parameters of `memcgsim sweep`, as its --param: "
				 "\"PATH[,PATH...]=VALUES\" (docs/sweeps.md)",
			  .min = 0,
			  .max = 16,
			  .items =
			      &(const struct spec){.kind = SPEC_STRING, .min = 3, .max = 4096}},
     false, NULL, 0},
    {NULL}};
static const struct spec top_spec = {
    .kind = SPEC_OBJECT, .doc = "a memcgsim scenario", .fields = top_fields};

static gpointer spec_init(gpointer unused)
{
	scenario_machine_spec_init();
	for (int i = 0; workload_types[i]; i++) {
		g_assert(i + 1 < (int)G_N_ELEMENTS(workload_tags));
		workload_tags[i] =
		    (struct spec_tag){workload_types[i]->name, workload_types[i]->spec};
	}
	return NULL;
}

const struct spec *scenario_spec(void)
{
	static GOnce once = G_ONCE_INIT;
	g_once(&once, spec_init, NULL);
	return &top_spec;
}

json_t *scenario_json_schema(void)
{
	json_t *s = spec_json_schema(scenario_spec());
	json_object_set_new(s, "$schema",
			    json_string("https://json-schema.org/draft/2020-12/schema"));
	json_object_set_new(s, "title", json_string("memcgsim scenario"));
	return s;
}

uint64_t scenario_replica_seed(uint64_t seed, int r)
{
	return r == 0 ? seed : sim_rng_mix(seed, (uint64_t)r) >> 11; /* stays below 2^53 */
}

uint64_t scenario_draw_seed(uint64_t seed, int d)
{
	return sim_rng_mix(seed, (1ULL << 32) + (uint64_t)d) >> 11; /* apart from the replicas' */
}

/* A scenario's parts ---------------------------------------------------- */

static void variant_free(gpointer p)
{
	struct scenario_variant *v = p;
	g_free(v->name);
	g_free(v->description);
	scenario_config_free(v->config);
	scenario_measured_free(v->measured);
	g_free(v);
}

static void warning_free(gpointer p)
{
	struct scenario_warning *w = p;
	g_free(w->variant);
	g_free(w->text);
	g_free(w);
}

struct scenario *scenario_new(const char *file)
{
	struct scenario *sc = g_new0(struct scenario, 1);
	sc->file = g_strdup(file);
	sc->locs = jpos_map_new();
	sc->variants = g_ptr_array_new_with_free_func(variant_free);
	sc->warnings = g_ptr_array_new_with_free_func(warning_free);
	return sc;
}

void scenario_free(struct scenario *sc)
{
	if (!sc)
		return;
	if (sc->variants)
		g_ptr_array_free(sc->variants, TRUE);
	if (sc->warnings)
		g_ptr_array_free(sc->warnings, TRUE);
	g_strfreev(sc->default_variants);
	json_decref(sc->base);
	if (sc->locs)
		g_hash_table_destroy(sc->locs);
	g_free(sc->file);
	g_free(sc);
}

void scenario_drop_source(struct scenario *sc)
{
	g_clear_pointer(&sc->base, json_decref);
	g_clear_pointer(&sc->locs, g_hash_table_destroy);
}

const struct scenario_variant *scenario_variant_find(const struct scenario *sc, const char *name)
{
	for (guint i = 0; i < sc->variants->len; i++) {
		const struct scenario_variant *v = sc->variants->pdata[i];
		if (strcmp(v->name, name) == 0)
			return v;
	}
	return NULL;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* scenario_parts: what the loader's files share (not part of its interface).
 * scenario.c holds the top of the format, scenario_load.c the loading;
 * scenario_machine.c the machine, its interrupt sources and the stop rule;
 * scenario_config.c decoding a checked document into a struct run_config
 * and the checks that span keys. */
#pragma once
#include "run.h"
#include "spec_json.h"

extern const struct spec scenario_machine_spec, scenario_stop_spec;

/* Fill in the costs' keys of the machine spec (once, before any use). */
void scenario_machine_spec_init(void);
/* Fill in what the machine section leaves out from its preset, if it names
 * one (before validation). */
void scenario_preset_apply(json_t *doc, GHashTable *locs);
/* The machine's rules across keys (its CPUs, its interrupt sources' CPUs). */
bool scenario_machine_check(json_t *doc, GHashTable *locs, GError **err);
/* Fill @cfg's machine, interrupt sources and stop rule from the checked @doc. */
void scenario_machine_decode(json_t *doc, struct run_config *cfg);
void scenario_machine_free(struct run_config *cfg);

/* The document's configuration, decoded and checked across keys (@err set
 * and NULL when a check fails). */
struct run_config *scenario_config_new(json_t *doc, GHashTable *locs, GError **err);
void scenario_config_free(struct run_config *cfg);

/* A new empty scenario of @file (scenario.c), as the loader fills it in. */
struct scenario *scenario_new(const char *file);

/* The loaded scenario's warnings (struct scenario_warning), from the file
 * as written (@raw) and the command line's @sets. */
struct scenario;
void scenario_warnings(struct scenario *sc, json_t *raw, const char *const *sets);

/* Which variants run (scenario_variants.c). A variant's name is not one of
 * --variant's words: not "all", and no ','. */
bool scenario_variant_name_check(GHashTable *locs, json_t *variant, size_t i, GError **err);
/* default_variants: only at the top (not in a variant's set), each a
 * variant of the scenario, once; decoded into sc->default_variants. */
bool scenario_defaults_check(struct scenario *sc, GError **err);

/* A variant's "measured" (scenario_measured.c): its spec, and item @i of
 * the variants, @variant, read (its lock file too): NULL without one, or
 * with @err set when the file is not there or not a lock statistics file. */
extern const struct spec scenario_measured_spec;
struct scenario_measured *scenario_measured_read(struct scenario *sc, json_t *variant, size_t i,
						 GError **err);
void scenario_measured_free(struct scenario_measured *m);

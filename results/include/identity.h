/* SPDX-License-Identifier: GPL-2.0-or-later */
/* identity: what made a result. The model identity is the version and a
 * hash of the sources that make results (scripts/build/model-id.cmake); every
 * result, run file and sweep plan records it, and a sweep refuses to mix
 * runs of two (docs/results.md, "Model identity"). */
#pragma once
#include <glib.h>
#include <jansson.h>
#include <stdbool.h>

/* The key the identity is recorded under. */
#define IDENTITY_KEY "model"
/* How a document without the key is named in messages. */
#define IDENTITY_UNRECORDED "(not recorded)"

/* This build's model identity, "VERSION+HASH16". Tests only:
 * MEMCGSIM_TEST_MODEL=ID stands for it (two builds without building two). */
const char *identity_model(void);
/* The identity @doc records, or IDENTITY_UNRECORDED. */
const char *identity_of(json_t *doc);

/* The distinct identities of a set of documents, in the order first seen. */
struct identity_set {
	GPtrArray *ids;	  /* interned strings */
	GPtrArray *where; /* the file each was first seen in (owned) */
};
void identity_set_init(struct identity_set *s);
void identity_set_clear(struct identity_set *s);
/* Add @doc's identity, first seen in @where. */
void identity_set_add(struct identity_set *s, json_t *doc, const char *where);
/* True when the set holds at most one identity, or @mix accepts more;
 * otherwise MCS_ERROR_INPUT naming the first two and where they were seen. */
bool identity_set_check(const struct identity_set *s, bool mix, GError **err);
/* What a result made of the set's documents records: the one identity, or
 * the identities joined by " + " (sorted) when mixed; new reference. */
json_t *identity_set_json(const struct identity_set *s);

/* A copy of @doc without the identity: what two documents of two builds
 * must agree on. */
json_t *identity_strip(json_t *doc);

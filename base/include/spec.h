/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spec: the scenario format as data. A spec tree describes every key a
 * scenario may hold: its type, range, default and documentation, and where its
 * value goes in a C structure. Models declare the specs of their own
 * parameters beside their code and receive those structures filled in; the
 * loader (loader/spec_json.h) validates JSON documents against the same
 * trees, decodes them, applies --set and variant overrides, and exports the
 * JSON Schema, so the four cannot drift apart. Nothing here sees JSON.
 *
 * How a value is decoded, by kind (SPEC_AT gives where it goes):
 *  - SPEC_INTEGER: long;   SPEC_NUMBER: double (NAN when absent);
 *  - SPEC_BOOLEAN: bool;   SPEC_STRING: char * (NULL when absent);
 *  - SPEC_ENUM: with .values, the int index of the name; with .choices, the
 *    chosen table of operations (a pointer);
 *  - SPEC_OBJECT: a pointer to a zeroed struct of .size bytes (NULL when
 *    absent), its members decoded by its fields;
 *  - SPEC_ARRAY: a SPEC_LIST of its items, each decoded as above.
 * SPEC_TAGGED and SPEC_OVERRIDES are validated only: the loader decodes them
 * itself (workloads by their type, variants by applying them). */
#pragma once
#include "mcs_error.h"
#include "mcs_named.h"
#include <glib.h>
#include <stdbool.h>
#include <stddef.h>

enum spec_kind {
	SPEC_OBJECT,
	SPEC_ARRAY,
	SPEC_INTEGER,
	SPEC_NUMBER,
	SPEC_STRING,
	SPEC_ENUM,
	SPEC_BOOLEAN,
	SPEC_TAGGED,	/* an object whose "type" member selects its spec */
	SPEC_OVERRIDES, /* an object of "dotted.path": value, checked when applied */
};

struct spec;

/* Where a field's decoded value goes in its object's struct; a field whose
 * .at is 0 is validated but not decoded. */
#define SPEC_AT(type, member) (offsetof(type, member) + 1)

struct spec_field {
	const char *key;
	const struct spec *spec;
	bool required;
	const char *default_json; /* filled in when absent; NULL: stays absent */
	size_t at;		  /* SPEC_AT(struct, member), or 0 */
};

struct spec_tag {
	const char *tag;
	const struct spec *spec; /* an SPEC_OBJECT that has a "type" field */
};

struct spec {
	enum spec_kind kind;
	const char *doc;
	double min, max;	   /* value (numbers), length (strings), count (arrays, objects) */
	const char *const *values; /* SPEC_ENUM: names, NULL-terminated */
	/* SPEC_ENUM, instead of .values: the registry of a pluggable scheme
	 * (mcs_named.h); the value decodes to the chosen table. */
	const struct mcs_named *const *choices;
	const struct spec_field *fields; /* SPEC_OBJECT, {NULL}-terminated */
	size_t size;			 /* SPEC_OBJECT: the struct it decodes into */
	const struct spec *items;	 /* SPEC_ARRAY */
	const struct spec_tag *tags;	 /* SPEC_TAGGED, {NULL}-terminated */
};

/* A decoded SPEC_ARRAY of values of C type @T. */
#define SPEC_LIST(T)                                                                               \
	struct {                                                                                   \
		T *items;                                                                          \
		size_t n;                                                                          \
	}

/* The "type" member of a workload (a SPEC_TAGGED alternative): @name only. */
#define SPEC_TYPE_FIELD(name)                                                                      \
	{                                                                                          \
		"type",                                                                            \
		    &(const struct spec){.kind = SPEC_ENUM,                                        \
					 .values = (const char *const[]){name, NULL}},             \
		    true, NULL, 0                                                                  \
	}

/* The name of choice @i of an SPEC_ENUM (.values or .choices); NULL past the
 * end. */
const char *spec_enum_name(const struct spec *s, size_t i);

/* Cross-key checks (a workload's CPUs against the machine's, a cgroup that
 * must exist) run on decoded values and report through this: @path is the
 * dotted path of the offending value in the scenario ("workloads.2.cpu"),
 * and the loader points the error at its place in the file. */
struct spec_check {
	void (*fail)(struct spec_check *c, const char *path, const char *msg);
};

/* Report a failed check of member @key of the object at @path ("workloads.2"
 * and "cpu"), or of @path itself when @key is NULL; returns false. */
bool spec_check_fail(struct spec_check *c, const char *path, const char *key, const char *fmt, ...)
    G_GNUC_PRINTF(4, 5);

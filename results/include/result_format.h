/* SPDX-License-Identifier: GPL-2.0-or-later */
/* result_format: the shape of a result document (docs/results.md) declared
 * once, as tables of its objects' members: what each member is (a kind),
 * whether it must be there, and what it means. The checker of a document
 * read back (result_check.c) walks these tables, and docs/results.md's list
 * of the members the reports read ("The members checked") is printed from
 * them (result_format_doc; a test holds the two together). */
#pragma once
#include "result_keys.h"
#include <glib.h>
#include <jansson.h>
#include <stdbool.h>

/* The documents' "format": a result's, a sweep result's; a reader refuses
 * any other with the one it expects (an older or newer format). */
#define RESULT_FORMAT "memcgsim-result-1"
#define RESULT_FORMAT_SWEEP "memcgsim-sweep-1"

/* Is @doc a sweep result (its "format")? */
static inline bool result_is_sweep(const json_t *doc)
{
	return g_strcmp0(json_string_value(json_object_get(doc, RK_format)), RESULT_FORMAT_SWEEP) ==
	       0;
}

/* What a member holds, with the words its error says ("expected ..."). */
enum result_kind {
	RESULT_STRING,	  /* a string */
	RESULT_OBJECT,	  /* an object */
	RESULT_ARRAY,	  /* an array */
	RESULT_COUNT,	  /* an integer, 0 or more */
	RESULT_TIME,	  /* a finite number, 0 or more (ns) */
	RESULT_TIMES,	  /* an object of times */
	RESULT_FIGURES,	  /* an object of finite numbers */
	RESULT_OBJECTS,	  /* an array of objects of shape .of */
	RESULT_SHAPE,	  /* an object of shape .of */
	RESULT_INCLUDE,	  /* not a member: .of's members, checked here, in their order */
	RESULT_NONEMPTY,  /* not a member: the array .key (above) has an element */
	RESULT_BATCHES,	  /* a run's batch means (docs/results.md) */
	RESULT_LOG_RANGE, /* not a member: a sweep's log ranges' values are > 0 */
	RESULT_STRINGS,	  /* an array whose first element is a string */
	RESULT_BOOLEAN,	  /* true or false */
	RESULT_MEMBERS,	  /* an object whose every member is an object of shape .of */
};

struct result_shape;

/* One member of an object of the document. */
struct result_key {
	const char *key;
	enum result_kind kind;
	bool required;
	const struct result_shape *of; /* RESULT_OBJECTS, _SHAPE, _INCLUDE, _MEMBERS */
	const char *what;	       /* the error's "expected ..." when not the kind's */
	const char *doc;	       /* what it is, for docs/results.md */
};

/* An object of the document: its members, and whether every number below
 * them that no member names is a count or time (a lock's, a line's). */
struct result_shape {
	const char *name;	       /* as docs/results.md calls it: "VARIANT", "LOCK" */
	const struct result_key *keys; /* ends with a key NULL */
	bool counts_under;
};

/* The shapes: a result, a sweep result, and one replica's run. */
extern const struct result_shape result_shape_result;
extern const struct result_shape result_shape_sweep;
extern const struct result_shape result_shape_replica;

/* The error's words for @k ("a string", "a time in ns, 0 or more" ...). */
const char *result_key_what(const struct result_key *k);
/* The members checked, shape by shape, as docs/results.md lists them. */
void result_format_doc(GString *out);

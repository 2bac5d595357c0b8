/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mcs_named: what every table of operations and every registry entry starts
 * with (a list_lru lock scope, a spinlock, a workload type, a preset, a
 * memcg subsystem ...): its name, as the scenario or the command line spells
 * it, and a line saying what it is. A registry is a NULL-terminated array of
 * pointers to those heads; one lookup, with its did-you-mean, serves all. */
#pragma once
#include <stddef.h>

struct mcs_named {
	const char *name;
	const char *doc;
};

/* The first member of a table: `.name` and `.doc` as plain members, and
 * `.named`, the same two as a struct mcs_named, for the registry. */
#define MCS_NAMED                                                                                  \
	union {                                                                                    \
		struct mcs_named named;                                                            \
		struct {                                                                           \
			const char *name;                                                          \
			const char *doc;                                                           \
		};                                                                                 \
	}

/* A positional initializer of that first member. */
#define MCS_NAME(name_, doc_)                                                                      \
	{                                                                                          \
		.named = {(name_), (doc_) }                                                        \
	}

/* The entry of @registry named @name, or NULL. Its table is the entry's
 * container: the head is its first member. */
const struct mcs_named *mcs_named_find(const struct mcs_named *const *registry, const char *name);
/* The name in @registry closest to @name when one is close enough to be a
 * typo of it ("did you mean": an edit distance of at most a third of its
 * length, and at least 1), else NULL. */
const char *mcs_named_near(const struct mcs_named *const *registry, const char *name);
/* The same over a NULL-terminated list of names (keys and values of a
 * scenario: at least 2). */
const char *mcs_near_miss(const char *name, const char *const *known);

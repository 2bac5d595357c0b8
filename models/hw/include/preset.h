/* SPDX-License-Identifier: GPL-2.0-or-later */
/* preset: named real machines (machine.preset). A preset gives a machine's
 * topology, clock, LLC size and costs, each number with the range its
 * sources span (docs/hardware.md has the sources). The loader fills in what
 * a scenario's machine section leaves out; every number stays overridable.
 * Costs given in cycles are turned into ns at the machine's clock (the
 * preset's, or the scenario's own when it sets one). */
#pragma once
#include "mcs_named.h"
#include <stdbool.h>

enum preset_unit {
	PRESET_PLAIN,  /* a machine key: a count, GHz, MiB */
	PRESET_NS,     /* a cost, ns */
	PRESET_CYCLES, /* a cost, cycles of the machine's clock */
};

struct preset_value {
	const char *key; /* below "machine": "cpus_per_node", "costs.line_llc_ns" */
	double value, lo, hi;
	enum preset_unit unit;
};

struct preset {
	MCS_NAMED;
	const struct preset_value *values; /* {NULL}-terminated */
};

/* The presets a scenario chooses from, NULL-terminated. */
extern const struct mcs_named *const presets[];
const struct preset *preset_find(const char *name);
/* @p's value for @key (a cost key, "line_llc_ns"), or NULL. */
const struct preset_value *preset_cost(const struct preset *p, const char *key);

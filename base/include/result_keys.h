/* SPDX-License-Identifier: GPL-2.0-or-later */
/* result_keys: the names of a result document's structural members
 * (docs/results.md), declared once for everything that writes or reads one:
 * the run that writes a replica (models/run), the replicas' merge and the
 * checker's declaration of the document's shape (results/), the sweeps, the
 * reports and the commands. Each is RK_<name>, so a misspelt member does not
 * compile; RESULT_KEYS lists them all (a test holds the list to the shapes
 * result_format.c declares). */
#pragma once

#define RESULT_KEYS(X)                                                                             \
	X(format)                                                                                  \
	X(variants)                                                                                \
	X(per_replica)                                                                             \
	X(draws)                                                                                   \
	X(sim_time_ns)                                                                             \
	X(cpu_time_ns)                                                                             \
	X(locks)                                                                                   \
	X(metrics)                                                                                 \
	X(metric_info)                                                                             \
	X(cachelines)                                                                              \
	X(batches)                                                                                 \
	X(published)                                                                               \
	X(exercises)                                                                               \
	X(comparisons)                                                                             \
	X(overrides)                                                                               \
	X(fit)                                                                                     \
	X(fit_role)                                                                                \
	X(points)

#define RESULT_KEY_DEFINE(name) static const char RK_##name[] = #name;
RESULT_KEYS(RESULT_KEY_DEFINE)
#undef RESULT_KEY_DEFINE

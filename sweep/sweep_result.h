/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sweep_result: a sweep's DIR/result.json, built from its plan and its run
 * files alone (so that any way of getting the runs there gives the same
 * bytes), one grid point at a time. */
#pragma once
#include "sweep.h"

/* Count the runs @runs of the plan @m in @dir into @out, and write
 * DIR/result.json when every one is in: each point's runs read, its result
 * made and its text written out (to DIR/result.json.points, until the
 * models of all the runs are known for the head), then freed, so that the
 * document is never whole in memory. Shard K of N's own runs must all be in
 * (they have run): else MCS_ERROR_FAILED; the runs must be of one model
 * unless @mix (identity_set_check). A signal while the runs are read stops
 * it (false, the interruption in @err, @out all zero). */
bool sweep_result_write(const char *dir, json_t *m, const GArray *runs, int shard_k, int shard_n,
			bool mix, struct sweep_outcome *out, GError **err);

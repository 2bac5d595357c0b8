/* runner: runs each variant and replica of a scenario in its own process
 * (SimGrid allows one simulation per process) and gathers the results into
 * one result document (docs/results.md). */
#pragma once
#include "scenario.h"

/* Run one simulation of @doc with @seed in a child process. Returns the
 * replica result, or NULL with @err set when the child died; *violation is
 * set when the run reported a failure (exit status 1). */
json_t *runner_run_one(json_t *doc, uint64_t seed, bool *violation, GError **err);
/* Run every variant (or only @only, when not NULL) with all its replicas,
 * @parallel simulations at a time; the result does not depend on @parallel. */
json_t *runner_run(const struct scenario *sc, const char *only, int parallel, bool *violation,
		   GError **err);

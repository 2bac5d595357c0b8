// SPDX-License-Identifier: GPL-2.0-or-later
/* memcgsim merge SHARD_DIR...: the directories of a sharded sweep put
 * together. */
#include "cli_util.h"
#include "output.h"
#include "sweep.h"

static int cmd_merge(struct cli *c)
{
	if (!cli_out_given(c, "merge"))
		return EXIT_USAGE;
	GError *err = NULL;
	if (!output_check_dir(c->out, "--out", &err))
		return cli_error(err, "memcgsim: ");
	struct sweep_outcome so;
	bool ok = sweep_merge(c->out, (const char *const *)c->files, c->mix_builds, &so, &err);
	return cli_sweep_status(c->out, &so, ok ? NULL : err);
}

static const GOptionEntry merge_options[] = {CLI_OPT_FILES("SHARD_DIR..."),
					     CLI_OPT_OUT("The merged sweep's directory"),
					     CLI_OPT_MIX_BUILDS,
					     {NULL}};

const struct cli_command cli_merge_command = {
    .name = "merge",
    .doc = "put the directories of a sharded sweep together",
    .synopsis = "SHARD_DIR... - merge the directories of a sharded sweep",
    .options = merge_options,
    .files = CLI_FILES_ONE_OR_MORE,
    .files_what = "shard directories",
    .fn = cmd_merge,
};

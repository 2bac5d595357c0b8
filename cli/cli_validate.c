// SPDX-License-Identifier: GPL-2.0-or-later
/* memcgsim validate FILE: a scenario checked (with its --set overrides)
 * without running it. */
#include "cli_util.h"
#include "scenario.h"
#include <stdio.h>

static int cmd_validate(struct cli *c)
{
	GError *err = NULL;
	/* every variant is checked, and warned about, whichever a run runs */
	c->variant = g_strdup(SCENARIO_ALL_VARIANTS);
	if (!cli_seed_valid(c))
		return EXIT_USAGE;
	struct scenario *sc = cli_scenario_load(c, &err);
	if (!sc)
		return cli_error(err, "");
	if (!cli_lock_classes_check(sc, NULL, &err)) {
		scenario_free(sc);
		return cli_error(err, "");
	}
	printf("%s: ok, %u variant%s", c->files[0], sc->variants->len,
	       sc->variants->len == 1 ? "" : "s");
	for (char **d = sc->default_variants; d && *d; d++)
		printf("%s%s", d == sc->default_variants ? "; a run without --variant runs " : ", ",
		       *d);
	printf("\n");
	scenario_free(sc);
	return 0;
}

static const GOptionEntry validate_options[] = {CLI_OPT_SET, CLI_OPT_FILES("FILE"), {NULL}};

const struct cli_command cli_validate_command = {
    .name = "validate",
    .doc = "check a scenario (and --set overrides) without running it",
    .synopsis = "FILE - check a scenario without running it",
    .options = validate_options,
    .files = 1,
    .files_what = "scenario FILE",
    .scenario = true,
    .fn = cmd_validate,
};

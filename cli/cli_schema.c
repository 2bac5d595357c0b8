// SPDX-License-Identifier: GPL-2.0-or-later
/* memcgsim schema: the JSON Schema of the scenario format. */
#include "cli_util.h"
#include "scenario.h"
#include <stdio.h>

static int cmd_schema(struct cli *c)
{
	json_t *s = scenario_json_schema();
	char *text = json_dumps(s, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
	printf("%s\n", text);
	free(text);
	json_decref(s);
	return 0;
}

static const GOptionEntry schema_options[] = {{NULL}};

const struct cli_command cli_schema_command = {
	.name = "schema",
	.doc = "print the scenario JSON Schema",
	.synopsis = "- print the scenario JSON Schema",
	.options = schema_options,
	.fn = cmd_schema,
};

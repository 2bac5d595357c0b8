// SPDX-License-Identifier: GPL-2.0-or-later
/* memcgsim schema: the JSON Schema of the scenario format. */
#include "cli_util.h"
#include "scenario.h"
#include <stdio.h>

static int cmd_schema(struct cli *c)
{
	json_t *s = scenario_json_schema();
	char *text = json_dumps(s, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
	GString *out = g_string_new(text);
	g_string_append_c(out, '\n');
	free(text);
	json_decref(s);
	GError *err = NULL;
	bool ok = cli_output(c, out, "the schema", &err);
	g_string_free(out, TRUE);
	return ok ? 0 : cli_error(err, "memcgsim: ");
}

static const GOptionEntry schema_options[] = {{NULL}};

const struct cli_command cli_schema_command = {
    .name = "schema",
    .doc = "print the scenario JSON Schema",
    .synopsis = "- print the scenario JSON Schema",
    .options = schema_options,
    .fn = cmd_schema,
};

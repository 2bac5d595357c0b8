// SPDX-License-Identifier: GPL-2.0-or-later
/* What several commands share: the values the options set, their checks,
 * errors and exit statuses, the output, the scenario a command loads. */
#include "cli_util.h"
#include "calib.h"
#include "change.h"
#include "output.h"
#include "result.h"
#include "scenario.h"
#include "sweep.h"
#include <glib/gstdio.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cli cli_args;

int cli_error(GError *err, const char *prefix)
{
	int rc = g_error_matches(err, MCS_ERROR, MCS_ERROR_INPUT) ? EXIT_USAGE : EXIT_VIOLATION;
	char *shown = mcs_error_printable(err->message); /* it may quote hostile input */
	fprintf(stderr, "%s%s\n", prefix, shown);
	g_free(shown);
	g_error_free(err);
	return rc;
}

void cli_say(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	char *shown = mcs_error_printable(msg);
	fprintf(stderr, "memcgsim: %s\n", shown);
	g_free(shown);
	g_free(msg);
}

void cli_note(const char *msg)
{
	cli_say("%s", msg);
}

bool cli_output(const struct cli *c, GString *out, const char *what, GError **err)
{
	if (output_write(c->output, out->str, out->len, err))
		return true;
	if (err && !*err) /* output_write says why; this only if it did not */
		g_set_error(err, MCS_ERROR, MCS_ERROR_FAILED, "cannot write %s", what);
	return false;
}

/* --timeout: 1 to 31 days of seconds; the clock starts now. */
bool cli_timeout_start(const struct cli *c)
{
	if (c->timeout == CLI_TIMEOUT_UNSET)
		return true;
	if (c->timeout < 1 || c->timeout > 31 * 86400) {
		fprintf(stderr, "memcgsim: --timeout: expected 1 to %d seconds, got %d\n",
			31 * 86400, c->timeout);
		return false;
	}
	output_timeout_start(c->timeout);
	return true;
}

/* @seed without its leading zeros ("00001": "1", "000": "0"), which JSON
 * does not allow in a number. */
static const char *seed_digits(const char *seed)
{
	while (seed[0] == '0' && g_ascii_isdigit(seed[1]))
		seed++;
	return seed;
}

/* --seed: digits only (no sign, space or exponent), in the scenario's
 * range (scenario.h); leading zeros are allowed. Said as typed. */
bool cli_seed_valid(const struct cli *c)
{
	bool ok = !c->seed || (*c->seed && strlen(seed_digits(c->seed)) <= 16);
	for (const char *p = c->seed; ok && p && *p; p++)
		ok = g_ascii_isdigit(*p);
	ok = ok && (!c->seed || g_ascii_strtoull(c->seed, NULL, 10) <= SCENARIO_MAX_SEED);
	if (!ok)
		cli_say("--seed: expected an integer in [0, %llu], got \"%s\"",
			(unsigned long long)SCENARIO_MAX_SEED, c->seed);
	return ok;
}

bool cli_jobs_valid(const struct cli *c)
{
	if (c->jobs >= 1 && c->jobs <= 1024)
		return true;
	fprintf(stderr, "memcgsim: --jobs: expected 1 to 1024, got %d\n", c->jobs);
	return false;
}

bool cli_out_given(const struct cli *c, const char *command)
{
	if (c->out)
		return true;
	cli_say("%s: --out DIR is required", command);
	return false;
}

bool cli_draw_costs_valid(const struct cli *c)
{
	if (c->draw_costs == CLI_DRAW_COSTS_UNSET ||
	    (c->draw_costs >= 0 && c->draw_costs <= SCENARIO_MAX_DRAWS))
		return true;
	fprintf(stderr, "memcgsim: --draw-costs: expected 0 to %d, got %d\n", SCENARIO_MAX_DRAWS,
		c->draw_costs);
	return false;
}

GPtrArray *cli_collect_sets(struct cli *c)
{
	GPtrArray *sets = g_ptr_array_new_with_free_func(g_free);
	for (char **s = c->sets; s && *s; s++)
		g_ptr_array_add(sets, g_strdup(*s));
	if (c->seed)
		g_ptr_array_add(sets, g_strdup_printf("seed=%s", seed_digits(c->seed)));
	if (c->draw_costs != CLI_DRAW_COSTS_UNSET)
		g_ptr_array_add(sets, g_strdup_printf("draw_costs=%d", c->draw_costs));
	g_ptr_array_add(sets, NULL);
	return sets;
}

bool cli_machines_apply(struct cli *c)
{
	if (!c->machines)
		return true;
	GPtrArray *sets = g_ptr_array_new_with_free_func(g_free);
	GError *err = NULL;
	for (char **m = c->machines; *m && !err; m++)
		calib_machine_sets(*m, sets, &err);
	if (err) {
		g_ptr_array_free(sets, TRUE);
		cli_error(err, "");
		return false;
	}
	g_ptr_array_set_free_func(sets, NULL);
	for (char **s = c->sets; s && *s; s++)
		g_ptr_array_add(sets, *s);
	g_free(c->sets); /* its strings are in @sets now */
	g_ptr_array_add(sets, NULL);
	c->sets = (char **)g_ptr_array_free(sets, FALSE);
	return true;
}

struct scenario *cli_scenario_load(struct cli *c, GError **err)
{
	GPtrArray *sets = cli_collect_sets(c);
	struct scenario *sc =
	    scenario_load_file(c->files[0], (const char *const *)sets->pdata, err);
	g_ptr_array_free(sets, TRUE);
	if (!sc)
		return NULL;
	if (!scenario_choose(sc, c->variant, err)) {
		scenario_free(sc);
		return NULL;
	}
	for (guint i = 0; i < sc->warnings->len; i++) { /* of the variants that run */
		const struct scenario_warning *w = sc->warnings->pdata[i];
		cli_say("warning: %s", w->text);
	}
	return sc;
}

/* Print the failure of a sweep or a merge into @dir, if any, and where the
 * directory stands; the exit status. */
int cli_sweep_status(const char *dir, struct sweep_outcome *so, GError *err)
{
	int rc = err ? cli_error(err, "memcgsim: ") : 0;
	if (so->done != so->total) /* more, with stray run files */
		cli_say("%s: %zu of %zu runs done; resume the sweep, or merge its shards, for the "
			"result",
			dir, so->done, so->total);
	else if (so->result_path)
		cli_say("%s: all %zu runs done; result in %s", dir, so->total, so->result_path);
	if (so->result_path && so->result_bytes > RESULT_MAX_BYTES)
		cli_say("%s: %zu bytes, more than report reads (%d): fewer points, variants or "
			"replicas make one it reads",
			so->result_path, so->result_bytes, RESULT_MAX_BYTES);
	if (so->violation) {
		fprintf(stderr, "memcgsim: a run of the sweep reported a failure\n");
		rc = EXIT_VIOLATION;
	}
	sweep_outcome_clear(so);
	return rc;
}

/* Are @a and @b one file: the same inode when both exist, else (neither
 * exists yet) the same name in the same directory? */
static bool same_file(const char *a, const char *b)
{
	GStatBuf sa, sb;
	bool ea = g_stat(a, &sa) == 0, eb = g_stat(b, &sb) == 0;
	if (ea || eb)
		return ea && eb && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	char *da = g_path_get_dirname(a), *db = g_path_get_dirname(b);
	char *ba = g_path_get_basename(a), *bb = g_path_get_basename(b);
	char *ra = realpath(da, NULL), *rb = realpath(db, NULL);
	bool same = ra && rb && g_str_equal(ra, rb) && g_str_equal(ba, bb);
	free(ra);
	free(rb);
	g_free(da);
	g_free(db);
	g_free(ba);
	g_free(bb);
	return same;
}

static bool is_file_output(const struct cli_path *o)
{
	return o->path && !g_str_equal(o->path, "-");
}

bool cli_outputs_apart(const struct cli_path *outs, const struct cli_path *ins, GError **err)
{
	for (const struct cli_path *o = outs; o->what; o++) {
		if (!is_file_output(o))
			continue;
		for (const struct cli_path *i = ins; i->what; i++)
			if (i->path && same_file(o->path, i->path)) {
				g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
					    "%s: %s: is %s, an input: refusing to replace it",
					    o->what, o->path, i->what);
				return false;
			}
		for (const struct cli_path *p = outs; p < o; p++)
			if (is_file_output(p) && same_file(o->path, p->path)) {
				g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
					    "%s: %s: is also %s's file: give each output its own",
					    o->what, o->path, p->what);
				return false;
			}
	}
	return true;
}

char *cli_output_target(const char *path)
{
	char *target = output_link_target(path);
	return target ? target : g_strdup(path);
}

gboolean cli_parse_variant(const char *name, const char *value, gpointer data, GError **err)
{
	(void)name;
	(void)data;
	if (cli_args.variant) {
		g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
			    "--variant: given twice (\"%s\", then \"%s\"); give one, a list "
			    "NAME,NAME... for more",
			    cli_args.variant, value);
		return FALSE;
	}
	cli_args.variant = g_strdup(value);
	return TRUE;
}

gboolean cli_parse_resolution(const char *name, const char *value, gpointer data, GError **err)
{
	(void)name;
	(void)data;
	if (!cli_args.resolution)
		cli_args.resolution = change_resolution_new();
	return change_resolution_set(cli_args.resolution, value, err);
}

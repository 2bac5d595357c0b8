// SPDX-License-Identifier: GPL-2.0-or-later
/* memcgsim locks SCENARIO: every variant's lock classes, as a run of it
 * makes them, and the sites that take each in the run's first --for NS of
 * simulated time; and the check, before a run or at validate, that a
 * what-if names a class its variant has (cli_lock_classes_check). */
#include "cli_util.h"
#include "kernel.h"
#include "mcs_json.h"
#include "runner.h"
#include "scenario.h"
#include <stdio.h>

/* locks' own options (the others: struct cli). */
static struct {
	double for_ns; /* --for NS: the sites seen in a run's first NS */
} locks_args = {.for_ns = 1e9};

/* Is there a what-if that names a lock class in @sc? */
static bool names_classes(const struct scenario *sc)
{
	for (guint i = 0; i < sc->variants->len; i++) {
		const struct kernel_params *k =
		    ((const struct scenario_variant *)sc->variants->pdata[i])->config->kernel;
		if (k && (k->hold_extra.n || k->whatif.n))
			return true;
	}
	return false;
}

/* Variant @v's what-ifs that name a class only another variant has, each
 * said, and kept in @lacking ("VARIANT\nINDEX") when given. */
static void lacking_said(const struct scenario_variant *v, GArray *idx, GHashTable *lacking)
{
	for (guint k = 0; k < idx->len; k++) {
		size_t x = g_array_index(idx, size_t, k);
		cli_say("warning: kernel.critical_section_extra.%zu: variant \"%s\" has no lock "
			"class \"%s\" (another variant has), so it adds nothing to it",
			x, v->name, v->config->kernel->hold_extra.items[x]->lock);
		if (lacking)
			g_hash_table_add(lacking, g_strdup_printf("%s\n%zu", v->name, x));
	}
}

/* Each variant's classes into @lists, and every variant's once into @any
 * (NULL-terminated, the names @lists'). */
static bool all_classes(const struct scenario *sc, GPtrArray *lists, GPtrArray *any, GError **err)
{
	for (guint i = 0; i < sc->variants->len; i++) {
		const struct scenario_variant *v = sc->variants->pdata[i];
		json_t *classes = runner_lock_classes(v->config, v->seed, 0, err);
		if (!classes)
			return false;
		g_ptr_array_add(lists, classes);
		size_t k;
		json_t *c;
		json_array_foreach (classes, k, c) {
			const char *name = json_string_value(json_object_get(c, "class"));
			if (!g_ptr_array_find_with_equal_func(any, name, g_str_equal, NULL))
				g_ptr_array_add(any, (gpointer)name);
		}
	}
	g_ptr_array_add(any, NULL);
	return true;
}

bool cli_lock_classes_check(const struct scenario *sc, GHashTable *lacking, GError **err)
{
	if (!names_classes(sc))
		return true;
	GPtrArray *lists = g_ptr_array_new_with_free_func((GDestroyNotify)json_decref);
	GPtrArray *any = g_ptr_array_new(); /* every variant's, once */
	bool ok = all_classes(sc, lists, any, err);
	GArray *idx = g_array_new(FALSE, FALSE, sizeof(size_t));
	for (guint i = 0; ok && i < sc->variants->len; i++) {
		const char **own = mcs_json_strings(lists->pdata[i], "class");
		g_array_set_size(idx, 0);
		ok = scenario_lock_classes_check(sc, sc->variants->pdata[i], own,
						 (const char *const *)any->pdata, idx, err);
		if (ok)
			lacking_said(sc->variants->pdata[i], idx, lacking);
		g_free(own);
	}
	g_array_free(idx, TRUE);
	g_ptr_array_free(any, TRUE);
	g_ptr_array_free(lists, TRUE);
	return ok;
}

/* Variant @v's classes: one a line, then the sites that took it. */
static void variant_locks(const struct scenario_variant *v, json_t *classes, double for_ns,
			  GString *out)
{
	g_string_append_printf(out, "variant %s: %zu lock classes\n", v->name,
			       json_array_size(classes));
	size_t i;
	json_t *c;
	json_array_foreach (classes, i, c) {
		const char *kernel = json_string_value(json_object_get(c, "lockdep_class"));
		g_string_append_printf(out, "  %s", json_string_value(json_object_get(c, "class")));
		if (kernel && *kernel)
			g_string_append_printf(out, "  (/proc/lock_stat: %s)", kernel);
		else if (kernel)
			g_string_append(out,
					"  (not in /proc/lock_stat: lockdep does not track it)");
		g_string_append_c(out, '\n');
		json_t *sites = json_object_get(c, "taken_at");
		if (!json_object_size(sites)) {
			g_string_append_printf(out, "      not taken in the first %g s\n",
					       for_ns / 1e9);
			continue;
		}
		const char *site;
		json_t *n;
		json_object_foreach (sites, site, n)
			g_string_append_printf(out, "      %-40s %10lld\n", site,
					       (long long)json_integer_value(n));
	}
}

static int cmd_locks(struct cli *c)
{
	GError *err = NULL;
	if (!c->variant)
		c->variant = g_strdup(SCENARIO_ALL_VARIANTS);
	if (!cli_seed_valid(c))
		return EXIT_USAGE;
	if (!(locks_args.for_ns >= 0 && locks_args.for_ns <= 1e12)) {
		cli_say("--for: expected 0 to 1e12 ns of simulated time, got %g",
			locks_args.for_ns);
		return EXIT_USAGE;
	}
	struct scenario *sc = cli_scenario_load(c, &err);
	if (!sc)
		return cli_error(err, "");
	GString *out = g_string_new(NULL);
	g_string_append_printf(
	    out,
	    "Lock classes of %s, as its runs name them, with the sites that "
	    "took each in a run's first %g s of simulated time (acquisitions):\n",
	    c->scenario_arg ? c->scenario_arg : c->files[0], locks_args.for_ns / 1e9);
	bool ok = true;
	for (guint i = 0; ok && i < sc->variants->len; i++) {
		const struct scenario_variant *v = sc->variants->pdata[i];
		json_t *classes =
		    runner_lock_classes(v->config, v->seed, sim_from_ns(locks_args.for_ns), &err);
		ok = classes != NULL;
		if (ok) {
			g_string_append_c(out, '\n');
			variant_locks(v, classes, locks_args.for_ns, out);
		}
		json_decref(classes);
	}
	scenario_free(sc);
	ok = ok && cli_output(c, out, "output", &err);
	g_string_free(out, TRUE);
	return ok ? 0 : cli_error(err, "memcgsim: ");
}

static const GOptionEntry locks_options[] = {
    CLI_OPT_SET,
    CLI_OPT_VARIANT,
    CLI_OPT_OUTPUT,
    {"for", 0, 0, G_OPTION_ARG_DOUBLE, &locks_args.for_ns,
     "The sites that take each class in a run's first NS of simulated time (default 1e9: "
     "1 s; 0: the classes alone)",
     "NS"},
    CLI_OPT_FILES("SCENARIO"),
    {NULL}};

const struct cli_command cli_locks_command = {
    .name = "locks",
    .doc = "list each variant's lock classes and the sites that take them",
    .synopsis = "SCENARIO - list each variant's lock classes and where they are taken",
    .options = locks_options,
    .files = 1,
    .files_what = "SCENARIO",
    .scenario = true,
    .fn = cmd_locks,
};

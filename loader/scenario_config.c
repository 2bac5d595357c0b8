// SPDX-License-Identifier: GPL-2.0-or-later
/* A checked document decoded into the structures the models receive (a
 * struct run_config), and the checks that span keys and sections, run on
 * the decoded values with their errors pointed back at the file. */
#include "kernel.h"
#include "mm.h"
#include "run.h"
#include "scenario.h"
#include "scenario_parts.h"
#include "shrinker.h"
#include "workload.h"
#include <string.h>

/* A model's failed check, reported at the place of @path in the document. */
struct doc_check {
	struct spec_check chk;
	json_t *doc;
	GHashTable *locs;
	GError **err;
};

/* The container of the value at dotted @path, and its key there. */
static json_t *path_parent(json_t *doc, const char *path, const char **key)
{
	const char *dot = strrchr(path, '.');
	*key = dot ? dot + 1 : path;
	if (!*path)
		return NULL;
	json_t *node = doc;
	char **parts = g_strsplit(path, ".", -1);
	for (char **p = parts; p[1]; p++)
		node = json_is_array(node) ? json_array_get(node, g_ascii_strtoull(*p, NULL, 10))
					   : json_object_get(node, *p);
	g_strfreev(parts);
	return node;
}

static void doc_check_fail(struct spec_check *chk, const char *path, const char *msg)
{
	struct doc_check *c = (struct doc_check *)chk;
	const char *key;
	json_t *parent = path_parent(c->doc, path, &key);
	spec_fail(c->locs, parent, key, path, c->err, "%s", msg);
}

static void workloads_decode(json_t *doc, struct run_config *cfg)
{
	json_t *ws = json_object_get(doc, "workloads");
	cfg->nworkloads = (int)json_array_size(ws);
	cfg->workloads = g_new0(struct run_workload, cfg->nworkloads);
	for (int i = 0; i < cfg->nworkloads; i++) {
		json_t *w = json_array_get(ws, (size_t)i);
		struct run_workload *rw = &cfg->workloads[i];
		rw->type = workload_type_find(json_string_value(json_object_get(w, "type")));
		rw->params = spec_decode(rw->type->spec, w);
	}
}

/* A sum over the parts of a scenario (bytes of the memory estimate, tasks)
 * so far, and its biggest part's size and path: what a refusal names. */
struct parts_sum {
	double total, most;
	char *path;
};

static void parts_add(struct parts_sum *s, const char *path, double n)
{
	s->total += n;
	if (n > s->most) {
		s->most = n;
		g_free(s->path);
		s->path = g_strdup(path);
	}
}

/* parts_add() of workload @i's @n. */
static void parts_add_workload(struct parts_sum *s, int i, double n)
{
	char *path = g_strdup_printf("workloads.%d", i);
	parts_add(s, path, n);
	g_free(path);
}

/* The model objects the counts of the memcg section and of the workloads
 * make a run allocate, part by part into @s. */
static void memory_parts(const struct run_config *cfg, struct parts_sum *s)
{
	parts_add(s, "memcg.cgroups", mm_cgroups_memory_bytes(cfg));
	for (int i = 0; mm_subsystems[i]; i++) {
		const char *path = NULL;
		double bytes =
		    mm_subsystems[i]->memory_bytes ? mm_subsystems[i]->memory_bytes(cfg, &path) : 0;
		if (path)
			parts_add(s, path, bytes);
	}
	for (int i = 0; i < cfg->nworkloads; i++) {
		const struct run_workload *w = &cfg->workloads[i];
		parts_add_workload(
		    s, i, w->type->memory_bytes ? w->type->memory_bytes(w->params, cfg) : 0);
	}
}

double scenario_memory_bytes(const struct run_config *cfg)
{
	struct parts_sum s = {0, -1, NULL};
	memory_parts(cfg, &s);
	g_free(s.path);
	return s.total;
}

/* Within the budget (docs/scenario.md). */
static bool memory_check(const struct run_config *cfg, struct spec_check *chk)
{
	struct parts_sum s = {0, -1, NULL};
	memory_parts(cfg, &s);
	bool ok = s.total <= RUN_MAX_MEMORY_BYTES ||
		  spec_check_fail(chk, s.path, NULL,
				  "the scenario would allocate about %.3g GiB of model objects "
				  "(this one %.3g GiB), more than the %.0f GiB a run may hold",
				  s.total / (1 << 30), s.most / (1 << 30),
				  RUN_MAX_MEMORY_BYTES / (1 << 30));
	g_free(s.path);
	return ok;
}

/* Every task is a SimGrid actor with its own stack mappings: the workloads'
 * and the kernel's, within RUN_MAX_TASKS (docs/scenario.md). */
static bool tasks_check(const struct run_config *cfg, struct spec_check *chk)
{
	struct parts_sum s = {(double)run_kernel_tasks(cfg), -1, NULL};
	for (int i = 0; i < cfg->nworkloads; i++) {
		const struct run_workload *w = &cfg->workloads[i];
		parts_add_workload(&s, i,
				   (double)(w->type->tasks ? w->type->tasks(w->params, cfg) : 1));
	}
	bool ok =
	    s.total <= RUN_MAX_TASKS ||
	    spec_check_fail(chk, s.path, NULL,
			    "the scenario would run %ld tasks (this workload %ld, the kernel's "
			    "at most %ld), more than the %d a run may have",
			    (long)s.total, (long)s.most, run_kernel_tasks(cfg), RUN_MAX_TASKS);
	g_free(s.path);
	return ok;
}

/* The shrinkers the run registers (each fileread's superblock's, the swap
 * device's), within the registry's SHRINKER_MAX. */
static bool shrinkers_check(const struct run_config *cfg, struct spec_check *chk)
{
	int total = mm_shrinkers(cfg);
	for (int i = 0; i < cfg->nworkloads; i++) {
		total += cfg->workloads[i].type->shrinkers;
		if (total <= SHRINKER_MAX)
			continue;
		char *path = g_strdup_printf("workloads.%d", i);
		spec_check_fail(
		    chk, path, NULL,
		    "registers shrinker %d, but a run has at most %d (a superblock's for "
		    "each fileread, and the swap device's with memcg.swap)",
		    total, SHRINKER_MAX);
		g_free(path);
		return false;
	}
	return true;
}

/* Each workload's own rules; and with a "completion" stop, it must end. */
static bool workloads_check(const struct run_config *cfg, struct spec_check *chk)
{
	for (int i = 0; i < cfg->nworkloads; i++) {
		const struct run_workload *w = &cfg->workloads[i];
		char *path = g_strdup_printf("workloads.%d", i);
		bool ok = !w->type->check || w->type->check(w->params, cfg, path, chk);
		if (ok && !cfg->stop_at && w->type->finite && !w->type->finite(w->params))
			ok = spec_check_fail(
			    chk, path, NULL,
			    "never finishes as given, but stop.type is \"completion\" "
			    "(stop after a duration; a lockbench can be given "
			    "iterations)");
		g_free(path);
		if (!ok)
			return false;
	}
	return true;
}

struct run_config *scenario_config_new(json_t *doc, GHashTable *locs, GError **err)
{
	if (!scenario_machine_check(doc, locs, err))
		return NULL;
	struct run_config *cfg = g_new0(struct run_config, 1);
	scenario_machine_decode(doc, cfg);
	cfg->kernel = spec_decode(&kernel_params_spec, json_object_get(doc, "kernel"));
	cfg->memcg = spec_decode(&mm_params_spec, json_object_get(doc, "memcg"));
	workloads_decode(doc, cfg);
	struct doc_check c = {{doc_check_fail}, doc, locs, err};
	if (mm_params_check(cfg, &c.chk) && workloads_check(cfg, &c.chk) &&
	    memory_check(cfg, &c.chk) && tasks_check(cfg, &c.chk) && shrinkers_check(cfg, &c.chk))
		return cfg;
	scenario_config_free(cfg);
	return NULL;
}

void scenario_config_free(struct run_config *cfg)
{
	if (!cfg)
		return;
	scenario_machine_free(cfg);
	spec_decoded_free(&kernel_params_spec, cfg->kernel);
	spec_decoded_free(&mm_params_spec, cfg->memcg);
	for (int i = 0; i < cfg->nworkloads; i++)
		spec_decoded_free(cfg->workloads[i].type->spec, cfg->workloads[i].params);
	g_free(cfg->workloads);
	g_free(cfg);
}

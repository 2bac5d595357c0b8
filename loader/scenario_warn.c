// SPDX-License-Identifier: GPL-2.0-or-later
/* What a scenario asks that it probably does not mean, said before it runs
 * (scenario.h, struct scenario_warning): a leaf cgroup no task runs in, and
 * a variant that sets a memcg key no workload of its runs reads, and a
 * command line's --set that overrides what a variant sets (the runs keep the
 * variant's name). */
#include "memcg.h"
#include "mm.h"
#include "page_cgroup.h"
#include "scenario.h"
#include "scenario_parts.h"
#include "workload.h"
#include <string.h>

static void warn(struct scenario *sc, const char *variant, char *text)
{
	struct scenario_warning *w = g_new(struct scenario_warning, 1);
	w->variant = g_strdup(variant);
	w->text = text;
	g_ptr_array_add(sc->warnings, w);
}

/* Every name in @all that another one is under ("a" and "a/b" for
 * "a/b/c"): the parents, a set. */
static GHashTable *parents_of(GPtrArray *all)
{
	GHashTable *parents = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	for (guint i = 0; i < all->len; i++) {
		const char *name = all->pdata[i];
		for (const char *slash = strchr(name, '/'); slash; slash = strchr(slash + 1, '/'))
			g_hash_table_add(parents, g_strndup(name, (gsize)(slash - name)));
	}
	return parents;
}

/* The cgroups @cfg puts something in: its workloads' tasks, the
 * page_cgroup file's pages. */
static void used_cgroups(const struct run_config *cfg, GHashTable *used)
{
	for (int i = 0; i < cfg->nworkloads; i++) {
		const struct run_workload *w = &cfg->workloads[i];
		long count = 0;
		const char *tmpl = w->type->cgroup ? w->type->cgroup(w->params, &count) : NULL;
		for (long k = 0; tmpl && k < count; k++)
			g_hash_table_add(used, mem_cgroup_instance_name(tmpl, k));
	}
	if (cfg->memcg && cfg->memcg->page_cgroup && cfg->memcg->page_cgroup->cgroup)
		g_hash_table_add(used, g_strdup(cfg->memcg->page_cgroup->cgroup));
}

/* Each memcg.cgroups entry's leaves that nothing is put in, in any variant
 * (a variant may move the tasks to the root on purpose). */
static void unused_cgroups(struct scenario *sc)
{
	const struct run_config *cfg =
	    ((const struct scenario_variant *)sc->variants->pdata[0])->config;
	if (!cfg->memcg || !cfg->memcg->enabled || !cfg->memcg->cgroups.n)
		return;
	GHashTable *used = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	for (guint i = 0; i < sc->variants->len; i++)
		used_cgroups(((const struct scenario_variant *)sc->variants->pdata[i])->config,
			     used);
	GPtrArray *all = g_ptr_array_new_with_free_func(g_free);
	for (size_t c = 0; c < cfg->memcg->cgroups.n; c++)
		for (long k = 0; k < cfg->memcg->cgroups.items[c]->count; k++)
			g_ptr_array_add(
			    all, mem_cgroup_instance_name(cfg->memcg->cgroups.items[c]->name, k));
	GHashTable *parents = parents_of(all);
	guint at = 0;
	for (size_t c = 0; c < cfg->memcg->cgroups.n; c++) {
		const struct mm_cgroup_params *p = cfg->memcg->cgroups.items[c];
		long idle = 0;
		GString *names = g_string_new(NULL);
		for (long k = 0; k < p->count; k++, at++) {
			const char *name = all->pdata[at];
			if (g_hash_table_contains(used, name) ||
			    g_hash_table_contains(parents, name))
				continue;
			if (idle++ < 3)
				g_string_append_printf(names, "%s%s", idle > 1 ? ", " : "", name);
		}
		if (idle)
			warn(sc, NULL,
			     g_strdup_printf(
				 "memcg.cgroups.%zu (\"%s\"): %ld of its %ld cgroups have no "
				 "task and no pages in any variant (%s%s)",
				 c, p->name, idle, p->count, names->str, idle > 3 ? ", ..." : ""));
		g_string_free(names, TRUE);
	}
	g_hash_table_destroy(parents);
	g_ptr_array_free(all, TRUE);
	g_hash_table_destroy(used);
}

/* The workload types that would read a key of @r: "fileread would; memhog
 * would with memcg.swap" (a swapping workload's shadow nodes go on a
 * list_lru). */
static char *key_readers(const struct mm_key_readers *r)
{
	GString *direct = g_string_new(NULL), *swapping = g_string_new(NULL);
	for (int i = 0; workload_types[i]; i++) {
		unsigned reads = workload_types[i]->reads;
		GString *to = (reads & r->reads) ? direct
			      : (r->reads & RUN_READS_LIST_LRU) && (reads & RUN_READS_SWAP)
				  ? swapping
				  : NULL;
		if (to)
			g_string_append_printf(to, "%s%s", to->len ? ", " : "",
					       workload_types[i]->name);
	}
	g_string_append(direct, " would");
	if (swapping->len)
		g_string_append_printf(direct, "; %s would with memcg.swap", swapping->str);
	g_string_free(swapping, TRUE);
	return g_string_free(direct, FALSE);
}

/* Why no workload of @cfg reads @key, a key that only some work reads
 * (mm_key_readers): "none puts objects on a list_lru (fileread would;
 * ...)"; NULL when one does, or when every workload reads it. g_free it. */
static char *unread_why(const struct run_config *cfg, const char *key)
{
	for (const struct mm_key_readers *r = mm_key_readers; r->path; r++) {
		if (!g_str_equal(key, r->path) &&
		    !(g_str_has_prefix(key, r->path) && key[strlen(r->path)] == '.'))
			continue;
		unsigned reads = 0;
		for (int i = 0; i < cfg->nworkloads; i++)
			reads |= mm_reads(cfg, cfg->workloads[i].type->reads);
		if (reads & r->reads)
			return NULL;
		char *readers = key_readers(r);
		char *why = g_strdup_printf("%snone %s (%s)",
					    cfg->memcg->enabled ? "" : "with memcg.enabled false ",
					    r->work, readers);
		g_free(readers);
		return why;
	}
	return NULL;
}

/* The path of a --set "PATH=VALUE" (g_free it); NULL for one that sets a
 * variant ("variants..."), which is the variant's own doing. */
static char *set_path(const char *set)
{
	const char *eq = strchr(set, '=');
	return eq && !g_str_has_prefix(set, "variants") ? g_strndup(set, (gsize)(eq - set)) : NULL;
}

/* A variant's key, or a --set's, that no workload of its runs reads. */
static void unread_keys(struct scenario *sc, json_t *raw, const char *const *sets)
{
	size_t i;
	json_t *v;
	json_array_foreach (json_object_get(raw, "variants"), i, v) {
		const char *vname = json_string_value(json_object_get(v, "name"));
		const struct scenario_variant *sv = scenario_variant_find(sc, vname);
		const char *key;
		json_t *val;
		json_object_foreach (json_object_get(v, "set"), key, val) {
			char *why = sv ? unread_why(sv->config, key) : NULL;
			if (why)
				warn(sc, vname,
				     g_strdup_printf("variant \"%s\" sets %s, which no workload "
						     "reads: %s",
						     vname, key, why));
			g_free(why);
		}
	}
	for (const char *const *s = sets; s && *s; s++) { /* unread in every variant */
		char *path = set_path(*s), *why = NULL;
		if (!path)
			continue;
		bool unread = true;
		for (guint k = 0; unread && k < sc->variants->len; k++) {
			char *w = unread_why(
			    ((struct scenario_variant *)sc->variants->pdata[k])->config, path);
			unread = w != NULL;
			if (why)
				g_free(w);
			else
				why = w;
		}
		if (!unread)
			g_clear_pointer(&why, g_free);
		if (why)
			warn(sc, NULL,
			     g_strdup_printf("--set %s sets a key no workload reads: %s", *s, why));
		g_free(why);
		g_free(path);
	}
}

/* A --set's value as the loader reads it: JSON, or else a bare string. */
static json_t *set_value(const char *text)
{
	json_t *v = json_loads(text, JSON_DECODE_ANY, NULL);
	return v ? v : json_string(text);
}

static bool paths_overlap(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);
	if (na == nb)
		return strcmp(a, b) == 0;
	const char *s = na < nb ? a : b, *l = na < nb ? b : a;
	size_t n = MIN(na, nb);
	return strncmp(s, l, n) == 0 && l[n] == '.';
}

/* A --set on a path a variant sets too (or inside it, or around it). */
static void set_overrides(struct scenario *sc, json_t *raw, const char *const *sets)
{
	size_t i;
	json_t *v;
	json_array_foreach (json_object_get(raw, "variants"), i, v) {
		const char *vname = json_string_value(json_object_get(v, "name"));
		const char *key;
		json_t *val;
		json_object_foreach (json_object_get(v, "set"), key, val) {
			for (const char *const *s = sets; s && *s; s++) {
				char *path = set_path(*s);
				if (!path)
					continue;
				json_t *given = set_value(*s + strlen(path) + 1);
				bool same =
				    g_str_equal(path, key) && given && json_equal(given, val);
				if (paths_overlap(path, key) && !same) {
					char *was = json_dumps(val, JSON_ENCODE_ANY | JSON_COMPACT);
					warn(sc, vname,
					     g_strdup_printf(
						 "--set %s overrides variant \"%s\"'s %s = %s: "
						 "its runs keep the variant's name",
						 *s, vname, key, was));
					free(was);
				}
				json_decref(given);
				g_free(path);
			}
		}
	}
}

void scenario_warnings(struct scenario *sc, json_t *raw, const char *const *sets)
{
	unused_cgroups(sc);
	unread_keys(sc, raw, sets);
	set_overrides(sc, raw, sets);
}

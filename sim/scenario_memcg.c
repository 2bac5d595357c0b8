#include "scenario_memcg.h"
#include <string.h>

#define MAX_CGROUPS 4096

char *scenario_cgroup_instance(const char *tmpl, long i)
{
	const char *pct = strstr(tmpl, "%d");
	if (!pct)
		return g_strdup(tmpl);
	return g_strdup_printf("%.*s%ld%s", (int)(pct - tmpl), tmpl, i, pct + 2);
}

static void cgroup_free(gpointer p)
{
	struct scenario_cgroup *c = p;
	g_free(c->name);
	g_free(c);
}

GPtrArray *scenario_cgroups(json_t *doc)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(cgroup_free);
	json_t *list = json_object_get(json_object_get(doc, "memcg"), "cgroups");
	size_t i;
	json_t *c;
	json_array_foreach (list, i, c) {
		const char *tmpl = json_string_value(json_object_get(c, "name"));
		long count = (long)json_integer_value(json_object_get(c, "count"));
		double mb = json_number_value(json_object_get(c, "memory_max_mb"));
		for (long k = 0; k < count && out->len < MAX_CGROUPS + 1; k++) {
			struct scenario_cgroup *cg = g_new0(struct scenario_cgroup, 1);
			cg->name = scenario_cgroup_instance(tmpl, k);
			cg->max_pages = (long)(mb * 256);
			g_ptr_array_add(out, cg);
		}
	}
	return out;
}

static bool name_ok(const char *name)
{
	if (name[0] == '/' || g_str_has_suffix(name, "/") || strstr(name, "//"))
		return false;
	for (const char *p = name; *p; p++)
		if (!g_ascii_isalnum(*p) && !strchr("_-./%", *p))
			return false;
	return true;
}

static bool check_template(json_t *c, size_t i, GHashTable *locs, GError **err)
{
	const char *tmpl = json_string_value(json_object_get(c, "name"));
	long count = (long)json_integer_value(json_object_get(c, "count"));
	const char *pct = strstr(tmpl, "%d");
	bool one_pct = pct && !strstr(pct + 2, "%d") && !strchr(pct + 2, '%') &&
		       !memchr(tmpl, '%', (size_t)(pct - tmpl));
	char *path = g_strdup_printf("memcg.cgroups.%zu.name", i);
	bool ok = true;
	if (!name_ok(tmpl))
		ok = spec_fail(locs, c, "name", path, err,
			       "expected a path of letters, digits, \"_-.\" and single \"/\" "
			       "separators, got \"%s\"",
			       tmpl);
	else if (count > 1 && !one_pct)
		ok = spec_fail(locs, c, "name", path, err,
			       "expected exactly one \"%%d\" with count %ld, got \"%s\"", count, tmpl);
	else if (count == 1 && strchr(tmpl, '%') && !one_pct) /* "job%d" x 1: "job0" */
		ok = spec_fail(locs, c, "name", path, err,
			       "expected at most one \"%%d\" with count 1, got \"%s\"", tmpl);
	g_free(path);
	return ok;
}

static bool check_workload_cgroups(json_t *doc, GHashTable *known, GHashTable *locs,
				   GError **err)
{
	size_t i;
	json_t *w;
	json_array_foreach (json_object_get(doc, "workloads"), i, w) {
		json_t *cg = json_object_get(w, "cgroup");
		if (!cg)
			continue;
		long count = (long)json_integer_value(json_object_get(w, "count"));
		for (long k = 0; k < count; k++) {
			char *name = scenario_cgroup_instance(json_string_value(cg), k);
			bool found = *name == '\0' || g_hash_table_contains(known, name);
			if (!found) {
				char *path = g_strdup_printf("workloads.%zu.cgroup", i);
				spec_fail(locs, w, "cgroup", path, err,
					  "task %ld's cgroup \"%s\" is not in memcg.cgroups", k, name);
				g_free(path);
			}
			g_free(name);
			if (!found)
				return false;
		}
	}
	return true;
}

static bool known_cgroup(GHashTable *known, const char *name)
{
	return *name == '\0' || g_hash_table_contains(known, name);
}

/* memcg.page_cgroup's cgroup and interrupt source exist; the workloads that
 * use the file have it. */
static bool check_page_cgroup(json_t *doc, GHashTable *known, GHashTable *locs, GError **err)
{
	json_t *pc = json_object_get(json_object_get(doc, "memcg"), "page_cgroup");
	if (pc && !known_cgroup(known, json_string_value(json_object_get(pc, "cgroup"))))
		return spec_fail(locs, pc, "cgroup", "memcg.page_cgroup.cgroup", err,
				 "\"%s\" is not in memcg.cgroups",
				 json_string_value(json_object_get(pc, "cgroup")));
	json_t *irq = pc ? json_object_get(pc, "writeback_irq") : NULL;
	if (irq) {
		bool found = false;
		size_t i;
		json_t *s;
		json_array_foreach (json_object_get(json_object_get(doc, "machine"), "interrupts"),
				    i, s)
			found |= g_str_equal(json_string_value(json_object_get(s, "name")),
					     json_string_value(irq));
		if (!found)
			return spec_fail(locs, pc, "writeback_irq",
					 "memcg.page_cgroup.writeback_irq", err,
					 "no interrupt source \"%s\" in machine.interrupts",
					 json_string_value(irq));
	}
	size_t i;
	json_t *w;
	json_array_foreach (json_object_get(doc, "workloads"), i, w) {
		const char *type = json_string_value(json_object_get(w, "type"));
		bool uses = g_str_equal(type, "readfault") || g_str_equal(type, "movecharge") ||
			    g_str_equal(type, "filewrite") || g_str_equal(type, "kbuild");
		char idx[24];
		g_snprintf(idx, sizeof(idx), "%zu", i);
		char *path = g_strdup_printf("workloads.%zu", i);
		bool ok = true;
		if (uses && !pc)
			ok = spec_fail(locs, json_object_get(doc, "workloads"), idx, path, err,
				       "a %s workload needs memcg.page_cgroup", type);
		json_t *to = json_object_get(w, "to");
		if (ok && g_str_equal(type, "movecharge") && !known_cgroup(known, json_string_value(to))) {
			char *p = g_strdup_printf("%s.to", path);
			ok = spec_fail(locs, w, "to", p, err, "\"%s\" is not in memcg.cgroups",
				       json_string_value(to));
			g_free(p);
		}
		g_free(path);
		if (!ok)
			return false;
	}
	return true;
}

bool scenario_memcg_check(json_t *doc, GHashTable *locs, GError **err)
{
	json_t *list = json_object_get(json_object_get(doc, "memcg"), "cgroups");
	GHashTable *known = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	bool ok = true;
	size_t i, total = 0;
	json_t *c;
	json_array_foreach (list, i, c) {
		if (!(ok = check_template(c, i, locs, err)))
			break;
		const char *tmpl = json_string_value(json_object_get(c, "name"));
		long count = (long)json_integer_value(json_object_get(c, "count"));
		char *path = g_strdup_printf("memcg.cgroups.%zu.name", i);
		total += (size_t)count;
		if (total > MAX_CGROUPS)
			ok = spec_fail(locs, c, "count", path, err,
				       "expected at most %d cgroups in all, got %zu", MAX_CGROUPS,
				       total);
		for (long k = 0; ok && k < count; k++) {
			char *name = scenario_cgroup_instance(tmpl, k);
			const char *slash = strrchr(name, '/');
			char *parent = slash ? g_strndup(name, (gsize)(slash - name)) : NULL;
			if (g_hash_table_contains(known, name))
				ok = spec_fail(locs, c, "name", path, err,
					       "cgroup \"%s\" is listed twice", name);
			else if (parent && !g_hash_table_contains(known, parent))
				ok = spec_fail(locs, c, "name", path, err,
					       "parent \"%s\" of \"%s\" must be listed before it",
					       parent, name);
			g_free(parent);
			if (ok)
				g_hash_table_add(known, name);
			else
				g_free(name);
		}
		g_free(path);
		if (!ok)
			break;
	}
	ok = ok && check_workload_cgroups(doc, known, locs, err) &&
	     check_page_cgroup(doc, known, locs, err);
	g_hash_table_destroy(known);
	return ok;
}

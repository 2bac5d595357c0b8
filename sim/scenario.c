#include "scenario.h"
#include "cost.h"
#include "scenario_memcg.h"
#include "sim_dist.h"
#include "sim_irq.h"
#include "sim_rng.h"
#include "workload_specs.h"
#include <glib/gstdio.h>
#include <string.h>

/* The format ----------------------------------------------------------- */

static struct spec cost_specs[COST_N];
static struct spec_field cost_fields[COST_N + 1];
static char *cost_defaults[COST_N];

static const struct spec costs_spec = {
	.kind = SPEC_OBJECT,
	.doc = "cost table, in ns; every key optional, defaults from docs/costs.md",
	.fields = cost_fields};
static const struct spec nodes_spec = {
	.kind = SPEC_INTEGER, .doc = "NUMA nodes", .min = 1, .max = SIM_MACHINE_MAX_NODES};
static const struct spec cpus_per_node_spec = {
	.kind = SPEC_INTEGER, .doc = "CPUs per node", .min = 1, .max = SIM_MACHINE_MAX_CPUS};
static const struct spec clock_spec = {
	.kind = SPEC_NUMBER, .doc = "CPU clock in GHz (cycles to time)", .min = 0.1, .max = 10};
static const struct spec slice_spec = {
	.kind = SPEC_NUMBER,
	.doc = "time slice when tasks share a CPU, ns (kernel sysctl_sched_base_slice 0.75 ms)",
	.min = 1000,
	.max = 1e10};
static const char *const periodic_types[] = {"periodic", NULL};
static const char *const poisson_types[] = {"poisson", NULL};
static const struct spec irq_name_spec = {
	.kind = SPEC_STRING, .doc = "source name (\"tick\", \"nvme\" ...)", .min = 1, .max = 32};
static const struct spec irq_handler_spec = {
	.kind = SPEC_NUMBER, .doc = "handler cost, ns", .min = 0, .max = 1e9};
static const struct spec irq_cpus_spec = {
	.kind = SPEC_ARRAY,
	.doc = "CPUs it interrupts (its affinity); all when absent",
	.min = 1,
	.max = SIM_MACHINE_MAX_CPUS,
	.items = &(const struct spec){.kind = SPEC_INTEGER, .min = 0,
				      .max = SIM_MACHINE_MAX_CPUS - 1}};
static const struct spec_field periodic_fields[] = {
	{"type", &(const struct spec){.kind = SPEC_ENUM, .values = periodic_types}, true, NULL},
	{"name", &irq_name_spec, true, NULL},
	{"hz", &(const struct spec){.kind = SPEC_NUMBER, .doc = "interrupts per second per CPU",
				    .min = 1, .max = 1e6},
	 true, NULL},
	{"handler_ns", &irq_handler_spec, true, NULL},
	{"skew", &(const struct spec){.kind = SPEC_BOOLEAN,
				      .doc = "each CPU's phase at random (sched_skew_tick); "
					     "default: all CPUs together"},
	 false, "false"},
	{"cpus", &irq_cpus_spec, false, NULL},
	{NULL, NULL, false, NULL}};
static const struct spec_field poisson_fields[] = {
	{"type", &(const struct spec){.kind = SPEC_ENUM, .values = poisson_types}, true, NULL},
	{"name", &irq_name_spec, true, NULL},
	{"rate_per_s", &(const struct spec){.kind = SPEC_NUMBER,
					    .doc = "mean interrupts per second per CPU",
					    .min = 1e-3, .max = 1e7},
	 true, NULL},
	{"handler_ns", &irq_handler_spec, true, NULL},
	{"cpus", &irq_cpus_spec, false, NULL},
	{NULL, NULL, false, NULL}};
static const struct spec_tag irq_tags[] = {
	{"periodic", &(const struct spec){.kind = SPEC_OBJECT,
					  .doc = "a periodic interrupt, such as the tick (HZ)",
					  .fields = periodic_fields}},
	{"poisson", &(const struct spec){.kind = SPEC_OBJECT,
					 .doc = "a device's interrupts, arriving as a Poisson process",
					 .fields = poisson_fields}},
	{NULL, NULL}};
static const struct spec interrupts_spec = {
	.kind = SPEC_ARRAY,
	.doc = "interrupt sources; interrupts are deferred while a CPU has them off",
	.min = 0,
	.max = 16,
	.items = &(const struct spec){.kind = SPEC_TAGGED, .tags = irq_tags}};

static const struct spec_field machine_fields[] = {
	{"nodes", &nodes_spec, true, NULL},
	{"cpus_per_node", &cpus_per_node_spec, true, NULL},
	{"clock_ghz", &clock_spec, false, "2.1"},
	{"sched_slice_ns", &slice_spec, false, "750000"},
	{"costs", &costs_spec, false, "{}"},
	{"interrupts", &interrupts_spec, false, "[]"},
	{NULL, NULL, false, NULL}};
static const struct spec machine_spec = {
	.kind = SPEC_OBJECT, .doc = "the simulated machine", .fields = machine_fields};

static const struct spec workloads_spec = {
	.kind = SPEC_ARRAY,
	.doc = "what runs on the machine",
	.min = 1,
	.max = 64,
	.items = &(const struct spec){.kind = SPEC_TAGGED, .tags = workload_tags}};

static const char *const duration_types[] = {"duration", NULL};
static const char *const completion_types[] = {"completion", NULL};
static const struct spec run_length_spec = {
	.kind = SPEC_NUMBER, .doc = "simulated time, ns (at most one hour)", .min = 1, .max = 3.6e12};
static const struct spec_field duration_fields[] = {
	{"type", &(const struct spec){.kind = SPEC_ENUM, .values = duration_types}, true, NULL},
	{"duration_ns", &run_length_spec, true, NULL},
	{NULL, NULL, false, NULL}};
static const struct spec_field completion_fields[] = {
	{"type", &(const struct spec){.kind = SPEC_ENUM, .values = completion_types}, true, NULL},
	{"limit_ns", &run_length_spec, false, "3.6e12"},
	{NULL, NULL, false, NULL}};
static const struct spec_tag stop_tags[] = {
	{"duration", &(const struct spec){.kind = SPEC_OBJECT,
					  .doc = "stop after a fixed simulated time",
					  .fields = duration_fields}},
	{"completion", &(const struct spec){.kind = SPEC_OBJECT,
					    .doc = "stop when every workload task has finished",
					    .fields = completion_fields}},
	{NULL, NULL}};
static const struct spec stop_spec = {
	.kind = SPEC_TAGGED, .doc = "when the run ends", .tags = stop_tags};

static const struct spec variant_name_spec = {
	.kind = SPEC_STRING, .doc = "variant name, used by --variant", .min = 1, .max = 64};
static const struct spec text_spec = {.kind = SPEC_STRING, .doc = "free text", .min = 0, .max = 4096};
static const struct spec overrides_spec = {
	.kind = SPEC_OVERRIDES,
	.doc = "\"dotted.path\": value overrides of the base scenario",
	.max = 256};
static const struct spec_field variant_fields[] = {
	{"name", &variant_name_spec, true, NULL},
	{"description", &text_spec, false, "\"\""},
	{"set", &overrides_spec, false, "{}"},
	{NULL, NULL, false, NULL}};
static const struct spec variants_spec = {
	.kind = SPEC_ARRAY,
	.doc = "named designs to compare; the first is the baseline",
	.min = 0,
	.max = SCENARIO_MAX_VARIANTS,
	.items = &(const struct spec){.kind = SPEC_OBJECT, .fields = variant_fields}};

static const char *const lru_scopes[] = {"node", "memcg", NULL};
static const struct spec cgroup_name_spec = {
	.kind = SPEC_STRING,
	.doc = "path below the root (\"a/b\"); with count > 1 it must hold one \"%d\"",
	.min = 1,
	.max = 128};
static const struct spec_field cgroup_fields[] = {
	{"name", &cgroup_name_spec, true, NULL},
	{"count", &(const struct spec){.kind = SPEC_INTEGER, .doc = "instances, %d = 0..count-1",
				       .min = 1, .max = 4096},
	 false, "1"},
	{"memory_max_mb", &(const struct spec){.kind = SPEC_NUMBER,
					       .doc = "memory.max, MiB; 0 for no limit",
					       .min = 0, .max = 1 << 30},
	 false, "0"},
	{NULL, NULL, false, NULL}};
static const char *const swap_types[] = {"zram", NULL};
static const char *const cluster_orders[] = {"sequential", "interleave", NULL};
static const struct spec_field swap_fields[] = {
	{"type", &(const struct spec){.kind = SPEC_ENUM, .values = swap_types}, false, "\"zram\""},
	{"size_mb", &(const struct spec){.kind = SPEC_NUMBER, .doc = "swap device size, MiB",
					 .min = 0, .max = 1 << 24},
	 true, NULL},
	{"batch_pages", &(const struct spec){.kind = SPEC_INTEGER,
					     .doc = "folios swapped out per simulated step "
						    "(their locks merged); see docs/calibration.md",
					     .min = 1, .max = 512},
	 false, "8"},
	{"cluster_order", &(const struct spec){.kind = SPEC_ENUM,
					       .doc = "which free cluster a CPU takes: the next in "
						      "device order (sequential: every CPU in one "
						      "64 MiB swap-cache address space), or one in "
						      "its own address space (interleave)",
					       .values = cluster_orders},
	 false, "\"sequential\""},
	{NULL, NULL, false, NULL}};
static const char *const pc_lockings[] = {"plain", "irqsave", "rcu", NULL};
static const struct spec_field page_cgroup_fields[] = {
	{"locking", &(const struct spec){.kind = SPEC_ENUM,
					 .doc = "how page_cgroup updates are protected: the bit "
						"spinlock with interrupts on (plain), irqsave, or RCU "
						"with the lock only while charges move",
					 .values = pc_lockings},
	 false, "\"plain\""},
	{"pages", &(const struct spec){.kind = SPEC_INTEGER, .doc = "pages of the file",
				       .min = 1, .max = 1 << 24},
	 true, NULL},
	{"cgroup", &(const struct spec){.kind = SPEC_STRING,
					.doc = "the file's pages are charged to it (\"\": the root)",
					.min = 0, .max = 128},
	 false, "\"\""},
	{"writeback_irq", &(const struct spec){.kind = SPEC_STRING,
					       .doc = "a machine.interrupts source whose handler "
						      "completes writeback of a random page of the "
						      "file (an update from interrupt context)",
					       .min = 1, .max = 32},
	 false, NULL},
	{NULL, NULL, false, NULL}};

static const struct spec_field memcg_fields[] = {
	{"list_lru_scope", &(const struct spec){.kind = SPEC_ENUM,
						.doc = "list_lru locking: node (one lock per "
						       "node) or memcg (one lock per list)",
						.values = lru_scopes},
	 false, "\"node\""},
	{"cgroups", &(const struct spec){.kind = SPEC_ARRAY, .doc = "the cgroup tree, parents first",
					 .min = 0, .max = 1024,
					 .items = &(const struct spec){.kind = SPEC_OBJECT,
								       .fields = cgroup_fields}},
	 false, "[]"},
	{"swap", &(const struct spec){.kind = SPEC_OBJECT, .doc = "a swap device",
				      .fields = swap_fields},
	 false, NULL},
	{"page_cgroup", &(const struct spec){.kind = SPEC_OBJECT,
					     .doc = "a file's page_cgroups and how their "
						    "updates are locked",
					     .fields = page_cgroup_fields},
	 false, NULL},
	{NULL, NULL, false, NULL}};
static const struct spec memcg_spec = {
	.kind = SPEC_OBJECT, .doc = "memory cgroups, list_lru locking and swap",
	.fields = memcg_fields};

static const struct spec_field top_fields[] = {
	{"name", &(const struct spec){.kind = SPEC_STRING, .doc = "scenario name", .min = 1, .max = 128},
	 true, NULL},
	{"description", &text_spec, false, "\"\""},
	{"seed", &(const struct spec){.kind = SPEC_INTEGER, .doc = "random seed", .min = 0,
				      .max = 9007199254740991.0},
	 false, "1"},
	{"replicas", &(const struct spec){.kind = SPEC_INTEGER, .doc = "runs per variant, each "
								      "with its own seed",
					  .min = 1, .max = SCENARIO_MAX_REPLICAS},
	 false, "1"},
	{"machine", &machine_spec, true, NULL},
	{"workloads", &workloads_spec, true, NULL},
	{"memcg", &memcg_spec, false, "{}"},
	{"stop", &stop_spec, true, NULL},
	{"variants", &variants_spec, false, "[]"},
	{"sweep", &(const struct spec){.kind = SPEC_ARRAY,
				       .doc = "parameters of `memcgsim sweep`, as its --param: "
					      "\"PATH[,PATH...]=VALUES\" (docs/sweeps.md)",
				       .min = 0, .max = 16,
				       .items = &(const struct spec){.kind = SPEC_STRING, .min = 3,
								     .max = 4096}},
	 false, NULL},
	{NULL, NULL, false, NULL}};
static const struct spec top_spec = {
	.kind = SPEC_OBJECT, .doc = "a memcgsim scenario", .fields = top_fields};

static gpointer init_cost_fields(gpointer unused)
{
	for (int i = 0; i < COST_N; i++) {
		const struct sim_cost_desc *d = &cost_table[i];
		cost_defaults[i] = g_strdup_printf("%.17g", d->default_ns);
		cost_specs[i] = (struct spec){
			.kind = SPEC_NUMBER, .doc = d->doc, .min = 0, .max = 1e9};
		cost_fields[i] = (struct spec_field){d->key, &cost_specs[i], false, cost_defaults[i]};
	}
	return NULL;
}

const struct spec *scenario_spec(void)
{
	static GOnce once = G_ONCE_INIT;
	g_once(&once, init_cost_fields, NULL);
	return &top_spec;
}

json_t *scenario_json_schema(void)
{
	json_t *s = spec_json_schema(scenario_spec());
	json_object_set_new(s, "$schema", json_string("https://json-schema.org/draft/2020-12/schema"));
	json_object_set_new(s, "title", json_string("memcgsim scenario"));
	return s;
}

/* Typed views ------------------------------------------------------------ */

static double num(json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

void scenario_machine(json_t *doc, struct sim_machine *m)
{
	json_t *mj = json_object_get(doc, "machine");
	json_t *costs = json_object_get(mj, "costs");
	memset(m, 0, sizeof(*m));
	m->nodes = (int)num(mj, "nodes");
	m->cpus_per_node = (int)num(mj, "cpus_per_node");
	m->clock_ghz = num(mj, "clock_ghz");
	m->sched_slice = sim_from_ns(num(mj, "sched_slice_ns"));
	for (int i = 0; i < COST_N; i++)
		m->cost[i] = sim_from_ns(num(costs, cost_table[i].key));
	m->context_switch = m->cost[COST_CONTEXT_SWITCH];
}

struct sim_irq_source *scenario_irq_sources(json_t *doc, int *n)
{
	json_t *list = json_object_get(json_object_get(doc, "machine"), "interrupts");
	struct sim_machine m;
	scenario_machine(doc, &m);
	*n = (int)json_array_size(list);
	struct sim_irq_source *s = g_new0(struct sim_irq_source, *n ? *n : 1);
	size_t i;
	json_t *o;
	json_array_foreach (list, i, o) {
		bool periodic = g_str_equal(json_string_value(json_object_get(o, "type")), "periodic");
		s[i].name = g_strdup(json_string_value(json_object_get(o, "name")));
		s[i].kind = periodic ? SIM_IRQ_PERIODIC : SIM_IRQ_POISSON;
		double per_s = num(o, periodic ? "hz" : "rate_per_s");
		s[i].interval = (sim_time_t)llround((double)SIM_S / per_s);
		s[i].handler = sim_from_ns(num(o, "handler_ns"));
		s[i].skew = json_is_true(json_object_get(o, "skew"));
		json_t *cpus = json_object_get(o, "cpus");
		for (int c = 0; c < sim_machine_cpus(&m); c++) {
			bool on = !cpus;
			size_t k;
			json_t *cj;
			json_array_foreach (cpus, k, cj)
				on |= json_integer_value(cj) == c;
			if (on)
				s[i].cpu_mask[c / 64] |= 1ULL << (c % 64);
		}
	}
	return s;
}

void scenario_irq_sources_free(struct sim_irq_source *s, int n)
{
	for (int i = 0; i < n; i++) {
		g_free(s[i].name);
		sim_hist_free(&s[i].latency);
	}
	g_free(s);
}

sim_time_t scenario_stop_at(json_t *doc)
{
	json_t *stop = json_object_get(doc, "stop");
	json_t *d = json_object_get(stop, "duration_ns");
	return d ? sim_from_ns(json_number_value(d)) : 0;
}

sim_time_t scenario_time_limit(json_t *doc)
{
	json_t *stop = json_object_get(doc, "stop");
	json_t *d = json_object_get(stop, "duration_ns");
	return sim_from_ns(json_number_value(d ? d : json_object_get(stop, "limit_ns")));
}

uint64_t scenario_seed(json_t *doc)
{
	return (uint64_t)json_integer_value(json_object_get(doc, "seed"));
}

int scenario_replicas(json_t *doc)
{
	return (int)json_integer_value(json_object_get(doc, "replicas"));
}

uint64_t scenario_replica_seed(uint64_t seed, int r)
{
	return r == 0 ? seed : sim_rng_mix(seed, (uint64_t)r) >> 11; /* stays below 2^53 */
}

void scenario_dist(json_t *w, const char *prefix, struct sim_dist *d)
{
	char *k = g_strdup_printf("%s_ns", prefix);
	d->mean_ps = num(w, k) * (double)SIM_NS;
	g_free(k);
	k = g_strdup_printf("%s_dist", prefix);
	d->kind = SIM_DIST_CONST;
	sim_dist_kind_from_name(json_string_value(json_object_get(w, k)), &d->kind);
	g_free(k);
	k = g_strdup_printf("%s_cv", prefix);
	json_t *cv = json_object_get(w, k);
	d->cv = cv ? json_number_value(cv) : sim_dist_default_cv(d->kind);
	g_free(k);
}

/* Checks that span keys ------------------------------------------------ */

static bool check_doc(json_t *doc, GHashTable *locs, GError **err)
{
	struct sim_machine m;
	scenario_machine(doc, &m);
	json_t *mj = json_object_get(doc, "machine");
	if (sim_machine_cpus(&m) > SIM_MACHINE_MAX_CPUS)
		return spec_fail(locs, mj, "cpus_per_node", "machine.cpus_per_node", err,
				 "expected nodes x cpus_per_node <= %d, got %d x %d",
				 SIM_MACHINE_MAX_CPUS, m.nodes, m.cpus_per_node);
	size_t i;
	json_t *irq;
	json_array_foreach (json_object_get(mj, "interrupts"), i, irq) {
		size_t k;
		json_t *cpu;
		json_array_foreach (json_object_get(irq, "cpus"), k, cpu) {
			if (json_integer_value(cpu) < sim_machine_cpus(&m))
				continue;
			char *path = g_strdup_printf("machine.interrupts.%zu.cpus.%zu", i, k);
			char idx[24];
			g_snprintf(idx, sizeof(idx), "%zu", k);
			spec_fail(locs, json_object_get(irq, "cpus"), idx, path, err,
				  "expected a CPU below %d (the machine's CPUs), got %" JSON_INTEGER_FORMAT,
				  sim_machine_cpus(&m), json_integer_value(cpu));
			g_free(path);
			return false;
		}
	}
	if (!scenario_memcg_check(doc, locs, err))
		return false;
	json_t *ws = json_object_get(doc, "workloads");
	bool needs_end = scenario_stop_at(doc) == 0;
	json_t *w;
	json_array_foreach (ws, i, w) {
		const struct workload_spec *s =
			workload_spec_find(json_string_value(json_object_get(w, "type")));
		char *path = g_strdup_printf("workloads.%zu", i);
		char idx[24];
		g_snprintf(idx, sizeof(idx), "%zu", i);
		bool ok = s->check(w, path, &m, locs, err);
		if (ok && needs_end && !s->finite(w))
			ok = spec_fail(locs, ws, idx, path, err,
				       "never finishes, but stop.type is \"completion\" (give it "
				       "iterations, or stop after a duration)");
		g_free(path);
		if (!ok)
			return false;
	}
	return true;
}

/* Overrides ------------------------------------------------------------- */

/* Parse "PATH=VALUE" and set it; VALUE is JSON, or else a bare string. */
static bool apply_set(json_t *doc, GHashTable *locs, const char *arg, GError **err)
{
	const char *eq = strchr(arg, '=');
	struct json_loc at = {"--set", 1, 1};
	if (!eq || eq == arg) {
		char *got = g_strescape(arg, NULL);
		g_set_error(err, MCS_ERROR, 0, "--set:1:1: (root): expected PATH=VALUE, got \"%s\"",
			    got);
		g_free(got);
		return false;
	}
	char *path = g_strndup(arg, (gsize)(eq - arg));
	const char *text = eq + 1;
	at.col = (int)g_utf8_strlen(arg, eq + 1 - arg) + 1;
	json_error_t jerr;
	json_t *value = json_loads(text, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &jerr);
	bool ok = true;
	if (!value && strchr("{[\"", *text) && *text) {
		g_set_error(err, MCS_ERROR, 0, "--set:1:%d: %s: invalid JSON: %s",
			    at.col + jerr.column - 1, path, jerr.text);
		ok = false;
	} else if (!value) {
		value = json_string(text);
		if (!value) {
			g_set_error(err, MCS_ERROR, 0, "--set:1:%d: %s: expected UTF-8 text", at.col,
				    path);
			ok = false;
		}
	}
	if (ok) {
		json_t *holder = json_object(); /* positions inside VALUE, then moved */
		json_pos_scan(locs, "--set", text, strlen(text), holder, "v", value, at.col);
		ok = spec_set_path(scenario_spec(), doc, path, value, locs, &at, err);
		json_decref(holder);
	}
	g_free(path);
	return ok;
}

static bool apply_sets(json_t *doc, GHashTable *locs, const char *const *sets, bool variants_too,
		       GError **err)
{
	for (; sets && *sets; sets++) {
		if (!variants_too && g_str_has_prefix(*sets, "variants"))
			continue;
		if (!apply_set(doc, locs, *sets, err))
			return false;
	}
	return true;
}

static bool apply_variant(json_t *doc, GHashTable *locs, json_t *set, GError **err)
{
	const char *path;
	json_t *v;
	json_object_foreach (set, path, v) {
		const struct json_loc *at = json_loc_get(locs, set, path);
		struct json_loc here = at ? *at : (struct json_loc){"?", 0, 0};
		if (!spec_set_path(scenario_spec(), doc, path, json_pos_copy(locs, v), locs, &here,
				   err))
			return false;
	}
	return true;
}

/* Loading ---------------------------------------------------------------- */

static void variant_free(gpointer p)
{
	struct scenario_variant *v = p;
	g_free(v->name);
	g_free(v->description);
	json_decref(v->doc);
	g_free(v);
}

void scenario_free(struct scenario *sc)
{
	if (!sc)
		return;
	if (sc->variants)
		g_ptr_array_free(sc->variants, TRUE);
	json_decref(sc->base);
	if (sc->locs)
		g_hash_table_destroy(sc->locs);
	g_free(sc->file);
	g_free(sc);
}

static bool build_variant(struct scenario *sc, const char *name, const char *desc, json_t *set,
			  const char *const *sets, GError **err)
{
	json_t *doc = json_pos_copy(sc->locs, sc->base);
	json_object_del(doc, "variants");
	bool ok = (!set || apply_variant(doc, sc->locs, set, err)) &&
		  apply_sets(doc, sc->locs, sets, false, err) &&
		  spec_validate(scenario_spec(), doc, sc->locs, err) &&
		  check_doc(doc, sc->locs, err);
	if (!ok) {
		json_decref(doc);
		return false;
	}
	struct scenario_variant *v = g_new0(struct scenario_variant, 1);
	v->name = g_strdup(name);
	v->description = g_strdup(desc);
	v->doc = doc;
	g_ptr_array_add(sc->variants, v);
	return true;
}

static bool build_variants(struct scenario *sc, const char *const *sets, GError **err)
{
	json_t *vs = json_object_get(sc->base, "variants");
	if (json_array_size(vs) == 0)
		return build_variant(sc, "base", "", NULL, sets, err);
	size_t i;
	json_t *v;
	json_array_foreach (vs, i, v) {
		const char *name = json_string_value(json_object_get(v, "name"));
		if (scenario_variant_find(sc, name)) {
			char *path = g_strdup_printf("variants.%zu.name", i);
			spec_fail(sc->locs, v, "name", path, err, "duplicate variant name \"%s\"",
				  name);
			g_free(path);
			return false;
		}
		if (!build_variant(sc, name, json_string_value(json_object_get(v, "description")),
				   json_object_get(v, "set"), sets, err))
			return false;
	}
	return true;
}

struct scenario *scenario_load(const char *file, const char *text, size_t len,
			       const char *const *sets, GError **err)
{
	struct scenario *sc = g_new0(struct scenario, 1);
	sc->file = g_strdup(file);
	sc->locs = json_loc_map_new();
	sc->variants = g_ptr_array_new_with_free_func(variant_free);
	if (len > SCENARIO_MAX_BYTES) {
		g_set_error(err, MCS_ERROR, 0, "%s:1:1: (root): file too large (%zu bytes, at most %d)",
			    file, len, SCENARIO_MAX_BYTES);
		goto fail;
	}
	json_error_t jerr;
	sc->base = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!sc->base) {
		char *path = json_pos_path_at(text, len, (size_t)jerr.position);
		g_set_error(err, MCS_ERROR, 0, "%s:%d:%d: %s: invalid JSON: %s", file,
			    jerr.line < 1 ? 1 : jerr.line, jerr.column < 1 ? 1 : jerr.column, path,
			    jerr.text);
		g_free(path);
		goto fail;
	}
	json_pos_scan(sc->locs, file, text, len, NULL, "", sc->base, 1);
	if (!apply_sets(sc->base, sc->locs, sets, true, err) ||
	    !spec_validate(scenario_spec(), sc->base, sc->locs, err) ||
	    !check_doc(sc->base, sc->locs, err) || !build_variants(sc, sets, err))
		goto fail;
	return sc;
fail:
	scenario_free(sc);
	return NULL;
}

struct scenario *scenario_load_file(const char *path, const char *const *sets, GError **err)
{
	GStatBuf st;
	if (g_stat(path, &st) == 0 && st.st_size > SCENARIO_MAX_BYTES) {
		g_set_error(err, MCS_ERROR, 0,
			    "%s:1:1: (root): file too large (%lld bytes, at most %d)", path,
			    (long long)st.st_size, SCENARIO_MAX_BYTES);
		return NULL;
	}
	char *text = NULL;
	gsize len = 0;
	GError *ferr = NULL;
	if (!g_file_get_contents(path, &text, &len, &ferr)) {
		g_set_error(err, MCS_ERROR, 0, "%s:1:1: (root): cannot read: %s", path,
			    ferr->message);
		g_error_free(ferr);
		return NULL;
	}
	struct scenario *sc = scenario_load(path, text, len, sets, err);
	g_free(text);
	return sc;
}

const struct scenario_variant *scenario_variant_find(const struct scenario *sc, const char *name)
{
	for (guint i = 0; i < sc->variants->len; i++) {
		const struct scenario_variant *v = sc->variants->pdata[i];
		if (strcmp(v->name, name) == 0)
			return v;
	}
	return NULL;
}

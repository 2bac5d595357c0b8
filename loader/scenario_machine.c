// SPDX-License-Identifier: GPL-2.0-or-later
/* The machine section of a scenario (NUMA nodes, CPUs, clock, costs,
 * interrupt sources) and the stop rule: their keys, their checks, and their
 * decoding into a struct run_config. */
#include "cost.h"
#include "insn.h"
#include "mcs_json.h"
#include "preset.h"
#include "scenario_parts.h"
#include <math.h>
#include <string.h>

static struct spec cost_specs[COST_N];
static struct spec_field cost_fields[COST_N + 1];
static char *cost_defaults[COST_N];

static const struct spec costs_spec = {
    .kind = SPEC_OBJECT,
    .doc = "cost table, in ns; every key optional, defaults from docs/costs.md",
    .fields = cost_fields};
static const struct spec private_ns_spec = {
    .kind = SPEC_NUMBER,
    .doc = "the bottom-up bound of this flat cost's private work, ns: what the cost "
	   "charges above it is unexplained time (docs/flat-costs.md); 0: no bound",
    .min = 0,
    .max = 1e9};
static struct spec_field private_fields[COST_N + 1];
static const struct spec private_spec = {
    .kind = SPEC_OBJECT,
    .doc = "flat per-call costs' bounds of their private work, in ns, by cost key; a cost "
	   "without one is all private",
    .fields = private_fields};
static const struct spec private_lo_ns_spec = {
    .kind = SPEC_NUMBER,
    .doc = "the bottom-up low bound of this flat cost's private work, ns (docs/flat-costs.md): "
	   "with private_ns, its range, which memcgsim fit moves it within",
    .min = 0,
    .max = 1e9};
static struct spec_field private_lo_fields[COST_N + 1];
static const struct spec private_lo_spec = {
    .kind = SPEC_OBJECT,
    .doc = "flat per-call costs' low bounds of their private work, in ns, by cost key: a "
	   "sys cost with both bounds is one memcgsim fit moves, within them, to time(1)'s sys",
    .fields = private_lo_fields};
static struct spec insn_specs[INSN_N];
static struct spec_field insn_fields[INSN_N + 1];
static char *insn_defaults[INSN_N];
static const struct spec insns_spec = {
    .kind = SPEC_OBJECT,
    .doc = "contention queued: the instructions of each modelled kernel step; every key "
	   "optional, defaults from docs/instructions.md",
    .fields = insn_fields};
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
    .items = &(const struct spec){.kind = SPEC_INTEGER, .min = 0, .max = SIM_MACHINE_MAX_CPUS - 1}};
static const struct spec_field periodic_fields[] = {
    {"type", &(const struct spec){.kind = SPEC_ENUM, .values = periodic_types}, true, NULL, 0},
    {"name", &irq_name_spec, true, NULL, 0},
    {"hz",
     &(const struct spec){
	 .kind = SPEC_NUMBER, .doc = "interrupts per second per CPU", .min = 1, .max = 1e6},
     true, NULL, 0},
    {"handler_ns", &irq_handler_spec, true, NULL, 0},
    {"skew",
     &(const struct spec){.kind = SPEC_BOOLEAN,
			  .doc = "each CPU's phase at random (sched_skew_tick); "
				 "default: all CPUs together"},
     false, "false", 0},
    {"cpus", &irq_cpus_spec, false, NULL, 0},
    {NULL}};
static const struct spec_field poisson_fields[] = {
    {"type", &(const struct spec){.kind = SPEC_ENUM, .values = poisson_types}, true, NULL, 0},
    {"name", &irq_name_spec, true, NULL, 0},
    {"rate_per_s",
     &(const struct spec){
	 .kind = SPEC_NUMBER, .doc = "mean interrupts per second per CPU", .min = 1e-3, .max = 1e7},
     true, NULL, 0},
    {"handler_ns", &irq_handler_spec, true, NULL, 0},
    {"cpus", &irq_cpus_spec, false, NULL, 0},
    {NULL}};
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
    {"preset",
     &(const struct spec){.kind = SPEC_ENUM,
			  .doc = "a real machine (docs/hardware.md) that gives every key below "
				 "the scenario leaves out",
			  .choices = presets},
     false, NULL, 0},
    {"nodes", &nodes_spec, true, NULL, 0},
    {"cpus_per_node", &cpus_per_node_spec, true, NULL, 0},
    {"threads_per_core",
     &(const struct spec){.kind = SPEC_INTEGER, .doc = "SMT threads a core", .min = 1, .max = 8},
     false, "1", 0},
    {"smt_throughput",
     &(const struct spec){.kind = SPEC_NUMBER,
			  .doc = "what a core with two busy threads delivers, in threads alone: "
				 "each runs at smt_throughput / 2 of its solo speed, with "
				 "contention \"queued\"; 2: no sharing (docs/hardware.md)",
			  .min = 1,
			  .max = 2},
     false, "2", 0},
    {"smt_spin_throughput",
     &(const struct spec){.kind = SPEC_NUMBER,
			  .doc = "smt_throughput while one of the two threads spins waiting for a "
				 "spinlock: the other runs at smt_spin_throughput / 2 of its solo "
				 "speed; 0: smt_throughput (docs/hardware.md)",
			  .min = 0,
			  .max = 2},
     false, "0", 0},
    {"cores_per_llc",
     &(const struct spec){.kind = SPEC_INTEGER,
			  .doc = "cores sharing a last-level cache domain (an LLC, or an AMD "
				 "CCX); 0: all the cores of a node",
			  .min = 0,
			  .max = SIM_MACHINE_MAX_CPUS},
     false, "0", 0},
    {"nodes_per_socket",
     &(const struct spec){.kind = SPEC_INTEGER,
			  .doc = "NUMA nodes a socket",
			  .min = 1,
			  .max = SIM_MACHINE_MAX_NODES},
     false, "1", 0},
    {"llc_mb",
     &(const struct spec){.kind = SPEC_NUMBER,
			  .doc = "size of an LLC domain, MiB: a line is evicted once its domain "
				 "streamed this much since its last access; 0: never",
			  .min = 0,
			  .max = 1 << 20},
     false, "0", 0},
    {"clock_ghz", &clock_spec, false, "2.1", 0},
    {"contention",
     &(const struct spec){.kind = SPEC_ENUM,
			  .doc = "how contended lines and locks are priced: idle (each access "
				 "its idle latency), queued (lines serve one request at a "
				 "time, the spinlock slow paths, SMT siblings sharing a core) "
				 "or transfer (queued, with every access from a CPU without "
				 "the line a transfer slowed by the requests piled up ahead, "
				 "the last holder keeping the line until it leaves, and "
				 "independent misses overlapping; docs/hardware.md)",
			  .values = sim_contention_names},
     false, "\"idle\"", 0},
    {"cpi",
     &(const struct spec){.kind = SPEC_NUMBER,
			  .doc = "contention queued: cycles an instruction of a kernel step takes "
				 "with its data in L1 (docs/hardware.md)",
			  .min = 0.1,
			  .max = 10},
     false, "0.7", 0},
    {"sched_slice_ns", &slice_spec, false, "750000", 0},
    {"migration",
     &(const struct spec){.kind = SPEC_ENUM,
			  .doc = "whether tasks move between CPUs: balance (the fair class's "
				 "newly idle balance, a CPU that goes idle pulling the task "
				 "that has waited longest on the nearest CPU with tasks waiting; "
				 "the periodic balance, a busy CPU pulling a waiting task from a "
				 "CPU of its domain with two more tasks; select_idle_sibling, a "
				 "task woken while its CPU is busy running on an idle CPU of "
				 "that CPU's LLC; a task's lines stay where it used them; "
				 "docs/hardware.md) or off (each task stays on the CPU it was "
				 "created on)",
			  .values = (const char *const[]){"off", "balance", NULL}},
     false, "\"balance\"", 0},
    {"costs", &costs_spec, false, "{}", 0},
    {"private_ns", &private_spec, false, "{}", 0},
    {"private_lo_ns", &private_lo_spec, false, "{}", 0},
    {"insns", &insns_spec, false, "{}", 0},
    {"interrupts", &interrupts_spec, false, "[]", 0},
    {NULL}};
const struct spec scenario_machine_spec = {
    .kind = SPEC_OBJECT, .doc = "the simulated machine", .fields = machine_fields};

static const char *const duration_types[] = {"duration", NULL};
static const char *const completion_types[] = {"completion", NULL};
static const struct spec run_length_spec = {
    .kind = SPEC_NUMBER, .doc = "simulated time, ns (at most one hour)", .min = 1, .max = 3.6e12};
static const struct spec_field duration_fields[] = {
    {"type", &(const struct spec){.kind = SPEC_ENUM, .values = duration_types}, true, NULL, 0},
    {"duration_ns", &run_length_spec, true, NULL, 0},
    {NULL}};
static const struct spec_field completion_fields[] = {
    {"type", &(const struct spec){.kind = SPEC_ENUM, .values = completion_types}, true, NULL, 0},
    {"limit_ns", &run_length_spec, false, "3.6e12", 0},
    {NULL}};
static const struct spec_tag stop_tags[] = {
    {"duration", &(const struct spec){.kind = SPEC_OBJECT,
				      .doc = "stop after a fixed simulated time",
				      .fields = duration_fields}},
    {"completion", &(const struct spec){.kind = SPEC_OBJECT,
					.doc = "stop when every workload task has finished",
					.fields = completion_fields}},
    {NULL, NULL}};
const struct spec scenario_stop_spec = {
    .kind = SPEC_TAGGED, .doc = "when the run ends", .tags = stop_tags};

void scenario_machine_spec_init(void)
{
	for (int i = 0; i < COST_N; i++) {
		const struct sim_cost_desc *d = &cost_table[i];
		cost_defaults[i] = g_strdup_printf("%.17g", d->default_ns);
		cost_specs[i] =
		    (struct spec){.kind = SPEC_NUMBER, .doc = d->doc, .min = 0, .max = COST_MAX_NS};
		cost_fields[i] =
		    (struct spec_field){d->key, &cost_specs[i], false, cost_defaults[i], 0};
		private_fields[i] = (struct spec_field){d->key, &private_ns_spec, false, NULL, 0};
		private_lo_fields[i] =
		    (struct spec_field){d->key, &private_lo_ns_spec, false, NULL, 0};
	}
	for (int i = 0; i < INSN_N; i++) {
		const struct insn_desc *d = &insn_table[i];
		insn_defaults[i] = g_strdup_printf("%.17g", d->count);
		insn_specs[i] =
		    (struct spec){.kind = SPEC_NUMBER, .doc = d->doc, .min = 0, .max = 1e6};
		insn_fields[i] =
		    (struct spec_field){d->key, &insn_specs[i], false, insn_defaults[i], 0};
	}
}

/* Threads make cores, cores LLC domains, nodes sockets, evenly. */
static bool topology_check(json_t *mj, GHashTable *locs, GError **err)
{
	long nodes = (long)mcs_json_num(mj, "nodes");
	long per_node = (long)mcs_json_num(mj, "cpus_per_node");
	long threads = (long)mcs_json_num(mj, "threads_per_core");
	long per_llc = (long)mcs_json_num(mj, "cores_per_llc");
	long per_socket = (long)mcs_json_num(mj, "nodes_per_socket");
	if (nodes * per_node > SIM_MACHINE_MAX_CPUS)
		return spec_fail(locs, mj, "cpus_per_node", "machine.cpus_per_node", err,
				 "expected nodes x cpus_per_node <= %d, got %ld x %ld",
				 SIM_MACHINE_MAX_CPUS, nodes, per_node);
	if (per_node % threads)
		return spec_fail(locs, mj, "threads_per_core", "machine.threads_per_core", err,
				 "expected a divisor of cpus_per_node (%ld), got %ld", per_node,
				 threads);
	if (per_llc && (per_node / threads) % per_llc)
		return spec_fail(locs, mj, "cores_per_llc", "machine.cores_per_llc", err,
				 "expected a divisor of the cores a node (%ld), got %ld",
				 per_node / threads, per_llc);
	if (nodes % per_socket)
		return spec_fail(locs, mj, "nodes_per_socket", "machine.nodes_per_socket", err,
				 "expected a divisor of nodes (%ld), got %ld", nodes, per_socket);
	return true;
}

/* A low bound of a private part (private_lo_ns) goes with its high bound
 * (private_ns), and is below it. */
static bool private_range_check(json_t *mj, GHashTable *locs, GError **err)
{
	json_t *lo = json_object_get(mj, "private_lo_ns");
	json_t *hi = json_object_get(mj, "private_ns");
	const char *key;
	json_t *v;
	json_object_foreach (lo, key, v) {
		json_t *h = json_object_get(hi, key);
		char *path = g_strdup_printf("machine.private_lo_ns.%s", key);
		bool ok = true;
		if (!h)
			ok = spec_fail(locs, lo, key, path, err,
				       "needs machine.private_ns.%s, the range's high bound", key);
		else if (json_number_value(v) >= json_number_value(h))
			ok = spec_fail(locs, lo, key, path, err,
				       "expected less than machine.private_ns.%s (%g), got %g", key,
				       json_number_value(h), json_number_value(v));
		g_free(path);
		if (!ok)
			return false;
	}
	return true;
}

static void irq_cpu_mask(json_t *o, int ncpus, uint64_t *mask);

/* Interrupts that would keep a CPU busy all the time (a rate times its
 * handler's length, summed over the sources on the CPU, at or above 1)
 * would never let a task run: refused, at the source that reaches it. */
static bool irq_load_check(json_t *mj, long ncpus, GHashTable *locs, GError **err)
{
	double *load = g_new0(double, (size_t)ncpus);
	size_t i;
	json_t *irq;
	bool ok = true;
	json_array_foreach (json_object_get(mj, "interrupts"), i, irq) {
		bool periodic =
		    g_str_equal(json_string_value(json_object_get(irq, "type")), "periodic");
		double share = mcs_json_num(irq, periodic ? "hz" : "rate_per_s") *
			       mcs_json_num(irq, "handler_ns") / 1e9;
		uint64_t mask[SIM_MACHINE_MAX_CPUS / 64] = {0};
		irq_cpu_mask(irq, (int)ncpus, mask);
		for (long c = 0; ok && c < ncpus; c++) {
			if (!(mask[c / 64] >> (c % 64) & 1) || (load[c] += share) < 1)
				continue;
			char *path = g_strdup_printf("machine.interrupts.%zu.handler_ns", i);
			spec_fail(
			    locs, irq, "handler_ns", path, err,
			    "the interrupts would keep CPU %ld busy %.4g%% of the time (rate x "
			    "handler_ns, summed over its sources); expected below 100%%",
			    c, 100 * load[c]);
			g_free(path);
			ok = false;
		}
		if (!ok)
			break;
	}
	g_free(load);
	return ok;
}

bool scenario_machine_check(json_t *doc, GHashTable *locs, GError **err)
{
	json_t *mj = json_object_get(doc, "machine");
	long nodes = (long)mcs_json_num(mj, "nodes");
	long per_node = (long)mcs_json_num(mj, "cpus_per_node");
	if (!topology_check(mj, locs, err) || !private_range_check(mj, locs, err))
		return false;
	size_t i;
	json_t *irq;
	json_array_foreach (json_object_get(mj, "interrupts"), i, irq) {
		size_t k;
		json_t *cpu;
		json_array_foreach (json_object_get(irq, "cpus"), k, cpu) {
			if (json_integer_value(cpu) < nodes * per_node)
				continue;
			char *path = g_strdup_printf("machine.interrupts.%zu.cpus.%zu", i, k);
			char idx[24];
			g_snprintf(idx, sizeof(idx), "%zu", k);
			spec_fail(locs, json_object_get(irq, "cpus"), idx, path, err,
				  "expected a CPU below %ld (the machine's CPUs), got "
				  "%" JSON_INTEGER_FORMAT,
				  nodes * per_node, json_integer_value(cpu));
			g_free(path);
			return false;
		}
	}
	return irq_load_check(mj, nodes * per_node, locs, err);
}

static void machine_decode(json_t *mj, struct sim_machine *m)
{
	json_t *costs = json_object_get(mj, "costs");
	memset(m, 0, sizeof(*m));
	m->nodes = (int)mcs_json_num(mj, "nodes");
	m->cpus_per_node = (int)mcs_json_num(mj, "cpus_per_node");
	m->threads_per_core = (int)mcs_json_num(mj, "threads_per_core");
	m->cores_per_llc = (int)mcs_json_num(mj, "cores_per_llc");
	if (!m->cores_per_llc)
		m->cores_per_llc = sim_machine_cores_per_node(m);
	m->nodes_per_socket = (int)mcs_json_num(mj, "nodes_per_socket");
	m->llc_bytes = (uint64_t)(mcs_json_num(mj, "llc_mb") * (1 << 20));
	m->clock_ghz = mcs_json_num(mj, "clock_ghz");
	m->smt_throughput = mcs_json_num(mj, "smt_throughput");
	m->smt_spin_throughput = mcs_json_num(mj, "smt_spin_throughput");
	const char *contention = json_string_value(json_object_get(mj, "contention"));
	m->contention = SIM_CONTENTION_IDLE;
	for (int i = 0; sim_contention_names[i]; i++)
		if (strcmp(contention, sim_contention_names[i]) == 0)
			m->contention = (enum sim_contention)i;
	m->sched_slice = sim_from_ns(mcs_json_num(mj, "sched_slice_ns"));
	m->migration = strcmp(json_string_value(json_object_get(mj, "migration")), "balance") == 0;
	json_t *private = json_object_get(mj, "private_ns");
	json_t *private_lo = json_object_get(mj, "private_lo_ns");
	for (int i = 0; i < COST_N; i++) {
		m->cost[i] = sim_from_ns(mcs_json_num(costs, cost_table[i].key));
		json_t *bound = json_object_get(private, cost_table[i].key);
		m->cost_private[i] =
		    json_is_number(bound) ? sim_from_ns(json_number_value(bound)) : 0;
		bound = json_object_get(private_lo, cost_table[i].key);
		m->cost_private_lo[i] =
		    json_is_number(bound) ? sim_from_ns(json_number_value(bound)) : -1;
	}
	m->context_switch = m->cost[COST_CONTEXT_SWITCH];
	json_t *insns = json_object_get(mj, "insns");
	for (int i = 0; i < INSN_N; i++)
		m->insns[i] = mcs_json_num(insns, insn_table[i].key);
	m->cpi = mcs_json_num(mj, "cpi");
}

/* The CPUs of source @o: its "cpus", or every CPU of the machine. */
static void irq_cpu_mask(json_t *o, int ncpus, uint64_t *mask)
{
	json_t *cpus = json_object_get(o, "cpus");
	size_t k;
	json_t *cj;
	if (!cpus)
		for (int c = 0; c < ncpus; c++)
			mask[c / 64] |= 1ULL << (c % 64);
	json_array_foreach (cpus, k, cj)
		mask[json_integer_value(cj) / 64] |= 1ULL << (json_integer_value(cj) % 64);
}

static void irq_decode(json_t *o, int ncpus, struct sim_irq_source *s)
{
	bool periodic = g_str_equal(json_string_value(json_object_get(o, "type")), "periodic");
	s->name = g_strdup(json_string_value(json_object_get(o, "name")));
	s->kind = periodic ? SIM_IRQ_PERIODIC : SIM_IRQ_POISSON;
	double per_s = mcs_json_num(o, periodic ? "hz" : "rate_per_s");
	s->interval = (sim_time_t)llround((double)SIM_S / per_s);
	s->handler = sim_from_ns(mcs_json_num(o, "handler_ns"));
	s->skew = json_is_true(json_object_get(o, "skew"));
	irq_cpu_mask(o, ncpus, s->cpu_mask);
}

/* A preset value as the machine section has it: cycles become ns at @ghz. */
static double preset_in_section(const struct preset_value *v, double x, double ghz)
{
	return v->unit == PRESET_CYCLES ? x / ghz : x;
}

static json_t *preset_json(double x)
{
	return x == floor(x) && fabs(x) < 1e15 ? json_integer((json_int_t)x) : json_real(x);
}

/* Set @key of @o to @v where it is absent, at the preset key's place. */
static void preset_fill(json_t *o, const char *key, json_t *v, GHashTable *locs,
			const struct jpos *at)
{
	if (json_object_get(o, key)) {
		json_decref(v);
		return;
	}
	json_object_set_new(o, key, v);
	if (at)
		jpos_set(locs, o, key, at->source, at->line, at->col);
}

void scenario_preset_apply(json_t *doc, GHashTable *locs)
{
	json_t *mj = json_object_get(doc, "machine");
	const char *name = json_string_value(json_object_get(mj, "preset"));
	const struct preset *p = name ? preset_find(name) : NULL;
	if (!json_is_object(mj) || !p)
		return; /* validation says what is wrong */
	const struct jpos *at = jpos_get(locs, mj, "preset");
	for (const struct preset_value *v = p->values; v->key; v++)
		if (v->unit == PRESET_PLAIN)
			preset_fill(mj, v->key, preset_json(v->value), locs, at);
	double ghz = json_number_value(json_object_get(mj, "clock_ghz"));
	preset_fill(mj, "costs", json_object(), locs, at);
	json_t *costs = json_object_get(mj, "costs");
	for (const struct preset_value *v = p->values; json_is_object(costs) && ghz > 0 && v->key;
	     v++)
		if (v->unit != PRESET_PLAIN)
			preset_fill(costs, v->key + strlen("costs."),
				    json_real(preset_in_section(v, v->value, ghz)), locs, at);
}

/* A cost at its preset value carries the preset's range. */
static void cost_ranges(json_t *mj, struct run_config *cfg)
{
	const char *name = json_string_value(json_object_get(mj, "preset"));
	const struct preset *p = name ? preset_find(name) : NULL;
	double ghz = cfg->machine.clock_ghz;
	for (int i = 0; p && i < COST_N; i++) {
		const struct preset_value *v = preset_cost(p, cost_table[i].key);
		if (cfg->machine.contention == SIM_CONTENTION_IDLE && cost_queued_only(i))
			continue;
		if (!v || cfg->machine.cost[i] != sim_from_ns(preset_in_section(v, v->value, ghz)))
			continue;
		cfg->cost_range[i].lo = sim_from_ns(preset_in_section(v, v->lo, ghz));
		cfg->cost_range[i].hi = sim_from_ns(preset_in_section(v, v->hi, ghz));
	}
}

void scenario_machine_decode(json_t *doc, struct run_config *cfg)
{
	json_t *mj = json_object_get(doc, "machine");
	machine_decode(mj, &cfg->machine);
	cost_ranges(mj, cfg);
	json_t *list = json_object_get(mj, "interrupts");
	cfg->nirqs = (int)json_array_size(list);
	cfg->irqs = g_new0(struct sim_irq_source, cfg->nirqs ? cfg->nirqs : 1);
	for (int i = 0; i < cfg->nirqs; i++)
		irq_decode(json_array_get(list, (size_t)i), sim_machine_cpus(&cfg->machine),
			   &cfg->irqs[i]);
	json_t *stop = json_object_get(doc, "stop");
	json_t *d = json_object_get(stop, "duration_ns");
	cfg->stop_at = d ? sim_from_ns(json_number_value(d)) : 0;
	cfg->time_limit = sim_from_ns(json_number_value(d ? d : json_object_get(stop, "limit_ns")));
}

void scenario_machine_free(struct run_config *cfg)
{
	for (int i = 0; i < cfg->nirqs; i++)
		g_free(cfg->irqs[i].name);
	g_free(cfg->irqs);
}

#include "workload_specs.h"
#include "sim_dist.h"
#include <math.h>
#include <string.h>

const struct spec workload_dist_spec = {
	.kind = SPEC_ENUM,
	.doc = "distribution: const, exp (exponential), uniform (mean +- sqrt(3) cv mean), "
	       "lognormal (mean, cv)",
	.values = sim_dist_names};
const struct spec workload_cv_spec = {
	.kind = SPEC_NUMBER,
	.doc = "coefficient of variation for uniform (default 0.577: U(0, 2 mean)) and "
	       "lognormal (default 1)",
	.min = 0,
	.max = 10};

bool workload_check_dist(json_t *w, const char *prefix, const char *path, GHashTable *locs,
			 GError **err)
{
	char *dkey = g_strdup_printf("%s_dist", prefix), *ckey = g_strdup_printf("%s_cv", prefix);
	enum sim_dist_kind kind = SIM_DIST_CONST;
	sim_dist_kind_from_name(json_string_value(json_object_get(w, dkey)), &kind);
	json_t *cv = json_object_get(w, ckey);
	bool ok = true;
	if (cv && kind == SIM_DIST_UNIFORM && json_number_value(cv) > 1 / sqrt(3.0) + 1e-12) {
		char *p = g_strdup_printf("%s.%s", path, ckey);
		ok = spec_fail(locs, w, ckey, p, err,
			       "expected at most 0.57735 for a uniform distribution (it would go "
			       "below 0), got %g",
			       json_number_value(cv));
		g_free(p);
	}
	g_free(dkey);
	g_free(ckey);
	return ok;
}

/* lockbench ------------------------------------------------------------- */

static const char *const lockbench_types[] = {"lockbench", NULL};
static const char *const lockbench_scopes[] = {"global", "node", NULL};
static const char *const lockbench_placements[] = {"spread", "pack", NULL};
static const char *const lockbench_flavours[] = {"plain", "irq", "irqsave", NULL};

static const struct spec lockbench_type = {.kind = SPEC_ENUM, .values = lockbench_types};
static const struct spec lockbench_cpus = {
	.kind = SPEC_INTEGER,
	.doc = "CPUs running the loop, one task each; at most the machine's CPUs",
	.min = 1,
	.max = SIM_MACHINE_MAX_CPUS};
static const struct spec lockbench_think = {
	.kind = SPEC_NUMBER, .doc = "mean time between release and the next acquire (user)",
	.min = 0, .max = 1e12};
static const struct spec lockbench_hold = {
	.kind = SPEC_NUMBER, .doc = "mean time the lock is held (sys)", .min = 0, .max = 1e12};
static const struct spec lockbench_scope = {
	.kind = SPEC_ENUM,
	.doc = "one lock for all CPUs (global) or one lock per NUMA node (node)",
	.values = lockbench_scopes};
static const struct spec lockbench_placement = {
	.kind = SPEC_ENUM,
	.doc = "spread: task i on node i mod nodes; pack: task i on CPU i",
	.values = lockbench_placements};
static const struct spec lockbench_iterations = {
	.kind = SPEC_INTEGER,
	.doc = "acquisitions per task, 0 for no limit (needs a duration stop)",
	.min = 0,
	.max = 1e12};

static const struct spec_field lockbench_fields[] = {
	{"type", &lockbench_type, true, NULL},
	{"cpus", &lockbench_cpus, true, NULL},
	{"think_ns", &lockbench_think, true, NULL},
	{"think_dist", &workload_dist_spec, false, "\"exp\""},
	{"think_cv", &workload_cv_spec, false, NULL},
	{"hold_ns", &lockbench_hold, true, NULL},
	{"hold_dist", &workload_dist_spec, false, "\"exp\""},
	{"hold_cv", &workload_cv_spec, false, NULL},
	{"lock_scope", &lockbench_scope, false, "\"global\""},
	{"placement", &lockbench_placement, false, "\"spread\""},
	{"iterations", &lockbench_iterations, false, "0"},
	{"lock_flavour", &(const struct spec){.kind = SPEC_ENUM,
					      .doc = "spin_lock, spin_lock_irq or spin_lock_irqsave",
					      .values = lockbench_flavours},
	 false, "\"plain\""},
	{NULL, NULL, false, NULL},
};

static const struct spec lockbench_spec = {
	.kind = SPEC_OBJECT,
	.doc = "validation workload: each CPU loops think, lock, hold, unlock on a shared spinlock",
	.fields = lockbench_fields};

static bool lockbench_check(json_t *w, const char *path, const struct sim_machine *m,
			    GHashTable *locs, GError **err)
{
	json_int_t cpus = json_integer_value(json_object_get(w, "cpus"));
	if (cpus > sim_machine_cpus(m)) {
		char *p = g_strdup_printf("%s.cpus", path);
		spec_fail(locs, w, "cpus", p, err,
			  "expected at most %d (the machine's CPUs), got %" JSON_INTEGER_FORMAT,
			  sim_machine_cpus(m), cpus);
		g_free(p);
		return false;
	}
	return workload_check_dist(w, "think", path, locs, err) &&
	       workload_check_dist(w, "hold", path, locs, err);
}

static bool lockbench_finite(json_t *w)
{
	return json_integer_value(json_object_get(w, "iterations")) > 0;
}

static const struct workload_spec lockbench_wspec = {"lockbench", &lockbench_spec,
						     lockbench_check, lockbench_finite};

/* memhog --------------------------------------------------------------- */

static const char *const memhog_types[] = {"memhog", NULL};
static const struct spec memhog_type = {.kind = SPEC_ENUM, .values = memhog_types};
static const struct spec memhog_cgroup = {
	.kind = SPEC_STRING,
	.doc = "cgroup of task i: a memcg.cgroups name; \"%d\" is replaced by i",
	.min = 0,
	.max = 128};
static const struct spec memhog_count = {
	.kind = SPEC_INTEGER, .doc = "tasks, one per cgroup instance", .min = 1, .max = 4096};
static const struct spec memhog_start_spread = {
	.kind = SPEC_NUMBER,
	.doc = "tasks start at uniform random times in [0, this] ns: a shell launching them "
	       "'together' (default 2 ms)",
	.min = 0,
	.max = 1e12};
static const struct spec memhog_size = {
	.kind = SPEC_NUMBER, .doc = "memory each task writes once, MiB", .min = 0, .max = 1048576};

static const struct spec_field memhog_fields[] = {
	{"type", &memhog_type, true, NULL},
	{"cgroup", &memhog_cgroup, true, NULL},
	{"count", &memhog_count, false, "1"},
	{"size_mb", &memhog_size, true, NULL},
	{"placement", &lockbench_placement, false, "\"spread\""},
	{"start_spread_ns", &memhog_start_spread, false, "2000000"},
	{NULL, NULL, false, NULL},
};

static const struct spec memhog_spec = {
	.kind = SPEC_OBJECT,
	.doc = "memhog: each task writes size_mb of anonymous memory once, charged to its cgroup",
	.fields = memhog_fields};

/* Workloads whose only cross-key rule, the cgroup names, is checked with the
 * memcg section (scenario_memcg.c). */
static bool no_more_checks(json_t *w, const char *path, const struct sim_machine *m,
			   GHashTable *locs, GError **err)
{
	return true;
}

static bool memhog_finite(json_t *w)
{
	return true;
}

static const struct workload_spec memhog_wspec = {"memhog", &memhog_spec, no_more_checks,
						  memhog_finite};

/* fileread -------------------------------------------------------------- */

static const char *const fileread_types[] = {"fileread", NULL};
static const struct spec fileread_files = {
	.kind = SPEC_INTEGER, .doc = "files each task reads once", .min = 0, .max = 1e8};
static const struct spec fileread_start = {
	.kind = SPEC_NUMBER,
	.doc = "when the tasks start, ns (after cgroup churn scheduled before)",
	.min = 0,
	.max = 3.6e12};
static const struct spec object_bytes = {
	.kind = SPEC_INTEGER, .doc = "slab object size, bytes", .min = 1, .max = 65536};

static const struct spec_field fileread_fields[] = {
	{"type", &(const struct spec){.kind = SPEC_ENUM, .values = fileread_types}, true, NULL},
	{"cgroup", &memhog_cgroup, true, NULL},
	{"count", &memhog_count, false, "1"},
	{"files", &fileread_files, true, NULL},
	{"start_ns", &fileread_start, false, "0"},
	{"dentry_bytes", &object_bytes, false, "192"},
	{"inode_bytes", &object_bytes, false, "1024"},
	{"placement", &lockbench_placement, false, "\"spread\""},
	{"start_spread_ns", &memhog_start_spread, false, "2000000"},
	{NULL, NULL, false, NULL},
};

static const struct spec fileread_spec = {
	.kind = SPEC_OBJECT,
	.doc = "fileread: each task reads its files once; a dentry, an inode (sizes: dentry "
	       "192 B, XFS inode 1 KiB) and one page of page cache per file",
	.fields = fileread_fields};

static const struct workload_spec fileread_wspec = {"fileread", &fileread_spec, no_more_checks,
						    memhog_finite};

/* cgchurn --------------------------------------------------------------- */

static const char *const cgchurn_types[] = {"cgchurn", NULL};
static const struct spec churn_time = {.kind = SPEC_NUMBER, .doc = "ns", .min = 0, .max = 3.6e12};
static const struct spec_field cgchurn_fields[] = {
	{"type", &(const struct spec){.kind = SPEC_ENUM, .values = cgchurn_types}, true, NULL},
	{"cgroup", &memhog_cgroup, true, NULL},
	{"count", &memhog_count, false, "1"},
	{"at_ns", &churn_time, false, "0"},
	{"interval_ns", &churn_time, false, "0"},
	{"period_ns", &churn_time, false, "0"},
	{"cycles", &(const struct spec){.kind = SPEC_INTEGER, .doc = "rmdir (+ mkdir) rounds",
					.min = 1, .max = 1e6},
	 false, "1"},
	{"recreate", &(const struct spec){.kind = SPEC_BOOLEAN,
					  .doc = "mkdir each cgroup again after its rmdir"},
	 false, "true"},
	{"cpu", &(const struct spec){.kind = SPEC_INTEGER, .doc = "CPU running the events",
				     .min = 0, .max = SIM_MACHINE_MAX_CPUS - 1},
	 false, "0"},
	{NULL, NULL, false, NULL},
};

static const struct spec cgchurn_spec = {
	.kind = SPEC_OBJECT,
	.doc = "cgchurn: rmdir (offline + reparent) and mkdir of cgroup instances at given times",
	.fields = cgchurn_fields};

#define MAX_CHURN_EVENTS 100000 /* each recreation is a new memcg */

static bool check_cpu_in_machine(json_t *w, const char *path, const struct sim_machine *m,
			  GHashTable *locs, GError **err)
{
	json_t *cycles = json_object_get(w, "cycles");
	json_int_t events = json_integer_value(json_object_get(w, "count")) *
			    (cycles ? json_integer_value(cycles) : 1);
	if (g_str_equal(json_string_value(json_object_get(w, "type")), "cgchurn") &&
	    events > MAX_CHURN_EVENTS) {
		char *p = g_strdup_printf("%s.cycles", path);
		spec_fail(locs, w, "cycles", p, err,
			  "expected count x cycles <= %d rmdir events (each mkdir makes a memcg), "
			  "got %" JSON_INTEGER_FORMAT,
			  MAX_CHURN_EVENTS, events);
		g_free(p);
		return false;
	}
	json_int_t cpu = json_integer_value(json_object_get(w, "cpu"));
	if (cpu >= sim_machine_cpus(m)) {
		char *p = g_strdup_printf("%s.cpu", path);
		spec_fail(locs, w, "cpu", p, err,
			  "expected a CPU below %d (the machine's CPUs), got %" JSON_INTEGER_FORMAT,
			  sim_machine_cpus(m), cpu);
		g_free(p);
		return false;
	}
	return true;
}

static const struct workload_spec cgchurn_wspec = {"cgchurn", &cgchurn_spec, check_cpu_in_machine,
						   memhog_finite};

/* readfault, movecharge ---------------------------------------------------- */

static const char *const readfault_types[] = {"readfault", NULL};
static const struct spec_field readfault_fields[] = {
	{"type", &(const struct spec){.kind = SPEC_ENUM, .values = readfault_types}, true, NULL},
	{"iterations", &(const struct spec){.kind = SPEC_INTEGER,
					    .doc = "times the file is mapped, read-faulted page by "
						   "page, and unmapped",
					    .min = 1, .max = 1e9},
	 true, NULL},
	{"cpu", &(const struct spec){.kind = SPEC_INTEGER, .doc = "CPU of the faulting task",
				     .min = 0, .max = SIM_MACHINE_MAX_CPUS - 1},
	 false, "0"},
	{NULL, NULL, false, NULL},
};
static const struct spec readfault_spec = {
	.kind = SPEC_OBJECT,
	.doc = "readfault: the read-fault micro benchmark on memcg.page_cgroup's file, warm in "
	       "the page cache: each fault updates FILE_MAPPED (page_add_file_rmap), each "
	       "unmap again",
	.fields = readfault_fields};

static const char *const movecharge_types[] = {"movecharge", NULL};
static const struct spec_field movecharge_fields[] = {
	{"type", &(const struct spec){.kind = SPEC_ENUM, .values = movecharge_types}, true, NULL},
	{"to", &(const struct spec){.kind = SPEC_STRING,
				    .doc = "cgroup the charges move to (and back, every other "
					   "cycle)",
				    .min = 0, .max = 128},
	 true, NULL},
	{"pages", &(const struct spec){.kind = SPEC_INTEGER, .doc = "pages moved each time",
				       .min = 1, .max = 1 << 24},
	 true, NULL},
	{"at_ns", &churn_time, false, "0"},
	{"period_ns", &churn_time, false, "0"},
	{"cycles", &(const struct spec){.kind = SPEC_INTEGER, .doc = "moves", .min = 1,
					.max = 1e6},
	 false, "1"},
	{"cpu", &(const struct spec){.kind = SPEC_INTEGER, .doc = "CPU of the mover",
				     .min = 0, .max = SIM_MACHINE_MAX_CPUS - 1},
	 false, "0"},
	{NULL, NULL, false, NULL},
};
static const struct spec movecharge_spec = {
	.kind = SPEC_OBJECT,
	.doc = "movecharge: task migration with move_charge: the file's page charges move "
	       "between cgroups at given times",
	.fields = movecharge_fields};

/* swapcycle -------------------------------------------------------------- */

static const char *const swapcycle_types[] = {"swapcycle", NULL};
static const char *const check_schemes[] = {"branch", "static-key", NULL};
#define NUM_FIELD(key, doc_, lo, hi, def)                                                   \
	{key, &(const struct spec){.kind = SPEC_NUMBER, .doc = doc_, .min = lo, .max = hi}, false, def}
static const struct spec_field swapcycle_fields[] = {
	{"type", &(const struct spec){.kind = SPEC_ENUM, .values = swapcycle_types}, true, NULL},
	{"size_mb", &memhog_size, true, NULL},
	{"check", &(const struct spec){.kind = SPEC_ENUM,
				       .doc = "cgroup_memory_noswap as a plain branch or a static "
					      "key",
				       .values = check_schemes},
	 false, "\"branch\""},
	{"cpu", &(const struct spec){.kind = SPEC_INTEGER, .doc = "CPU of the task", .min = 0,
				     .max = SIM_MACHINE_MAX_CPUS - 1},
	 false, "0"},
	NUM_FIELD("page_ns", "per-page work besides the checks (page-out and swap-in fault)", 0,
		  1e9, "3400"),
	NUM_FIELD("other_branches_per_page", "branches perf stat counts elsewhere, per page", 0,
		  1e6, "0"),
	NUM_FIELD("other_branch_misses_per_page", "branch misses elsewhere, per page", 0, 1e6,
		  "0"),
	{"extra_faults", &(const struct spec){.kind = SPEC_INTEGER,
					      .doc = "page faults besides the swap-ins", .min = 0,
					      .max = 1e12},
	 false, "0"},
	NUM_FIELD("load_hit_cycles", "loading the flag from L1", 0, 1e4, "4"),
	NUM_FIELD("load_miss_cycles", "loading it on a cache miss", 0, 1e4, "40"),
	NUM_FIELD("miss_prob", "probability of that miss", 0, 1, "0"),
	NUM_FIELD("test_branch_cycles", "test and conditional branch", 0, 1e4, "1"),
	NUM_FIELD("mispredict_cycles", "a mispredicted branch's penalty", 0, 1e4, "17"),
	NUM_FIELD("mispredict_prob", "probability of a mispredict", 0, 1, "0"),
	NUM_FIELD("nop_cycles", "a patched 5-byte NOP", 0, 1e4, "0.25"),
	NUM_FIELD("jmp_cycles", "a patched JMP", 0, 1e4, "1"),
	NUM_FIELD("patch_site_ns", "text_poke of one site, unbatched", 0, 1e10, "1017857"),
	NUM_FIELD("patch_batch_ns", "a batched update of all sites", 0, 1e10, "1400000"),
	NUM_FIELD("patch_stall_ns", "each other CPU's stall per IPI round", 0, 1e9, "2000"),
	{"patch_sites", &(const struct spec){.kind = SPEC_INTEGER, .doc = "sites of the key",
					     .min = 1, .max = 100000},
	 false, "56"},
	{"patch_batched", &(const struct spec){.kind = SPEC_BOOLEAN,
					       .doc = "batched text patching"},
	 false, "true"},
	NUM_FIELD("flip_at_ns", "flip the key once at this time (static_branch_enable or "
				"_disable), to see its cost; absent: never",
		  0, 3.6e12, NULL),
	{NULL, NULL, false, NULL},
};
static const struct spec swapcycle_spec = {
	.kind = SPEC_OBJECT,
	.doc = "swapcycle: map (populated), MADV_PAGEOUT, write again, as perf stat sees it; the "
	       "swap hot paths check cgroup_memory_noswap as a branch or a static key",
	.fields = swapcycle_fields};

static const struct workload_spec swapcycle_wspec = {"swapcycle", &swapcycle_spec,
						     check_cpu_in_machine, memhog_finite};

/* filewrite, kbuild ---------------------------------------------------------- */

static const char *const filewrite_types[] = {"filewrite", NULL};
static const struct spec_field filewrite_fields[] = {
	{"type", &(const struct spec){.kind = SPEC_ENUM, .values = filewrite_types}, true, NULL},
	{"size_mb", &memhog_size, true, NULL},
	NUM_FIELD("write_page_ns", "write(2) of one page into the page cache, accounting excluded",
		  0, 1e9, "1000"),
	{"writeback_batch", &(const struct spec){.kind = SPEC_INTEGER,
						 .doc = "pages the flusher sends to writeback at "
							"once",
						 .min = 1, .max = 1 << 20},
	 false, "64"},
	{"cpu", &(const struct spec){.kind = SPEC_INTEGER, .doc = "CPU of the writer", .min = 0,
				     .max = SIM_MACHINE_MAX_CPUS - 1},
	 false, "0"},
	{NULL, NULL, false, NULL},
};
static const struct spec filewrite_spec = {
	.kind = SPEC_OBJECT,
	.doc = "filewrite: dd into memcg.page_cgroup's file: pages dirtied, sent to writeback in "
	       "batches, completed by the writeback interrupt",
	.fields = filewrite_fields};

static const char *const kbuild_types[] = {"kbuild", NULL};
static const struct spec kbuild_count = {
	.kind = SPEC_INTEGER, .doc = "make -j: one job stream per CPU", .min = 1, .max = 4096};
static const struct spec_field kbuild_fields[] = {
	{"type", &(const struct spec){.kind = SPEC_ENUM, .values = kbuild_types}, true, NULL},
	{"count", &kbuild_count, true, NULL},
	{"jobs", &(const struct spec){.kind = SPEC_INTEGER, .doc = "compile jobs per stream",
				      .min = 1, .max = 1e7},
	 true, NULL},
	{"faults_per_job", &(const struct spec){.kind = SPEC_INTEGER,
						.doc = "header pages read-faulted per job",
						.min = 0, .max = 1e6},
	 false, "200"},
	{"writes_per_job", &(const struct spec){.kind = SPEC_INTEGER,
						.doc = "object pages written per job", .min = 0,
						.max = 1e6},
	 false, "20"},
	NUM_FIELD("compile_ns", "mean compile time of a job (user)", 0, 1e12, "50000000"),
	{NULL, NULL, false, NULL},
};
static const struct spec kbuild_spec = {
	.kind = SPEC_OBJECT,
	.doc = "kbuild: a kernel-build-like mix on memcg.page_cgroup's file: header read faults, "
	       "compiles, object writes",
	.fields = kbuild_fields};

static const struct workload_spec filewrite_wspec = {"filewrite", &filewrite_spec,
						     check_cpu_in_machine, memhog_finite};
static const struct workload_spec kbuild_wspec = {"kbuild", &kbuild_spec, no_more_checks,
						  memhog_finite};

static const struct workload_spec readfault_wspec = {"readfault", &readfault_spec,
						     check_cpu_in_machine, memhog_finite};
static const struct workload_spec movecharge_wspec = {"movecharge", &movecharge_spec,
						      check_cpu_in_machine, memhog_finite};

/* registry -------------------------------------------------------------- */

const struct workload_spec *const workload_specs[] = {
	&lockbench_wspec, &memhog_wspec, &fileread_wspec, &cgchurn_wspec,
	&readfault_wspec, &movecharge_wspec, &swapcycle_wspec, &filewrite_wspec, &kbuild_wspec,
	NULL};
const struct spec_tag workload_tags[] = {{"lockbench", &lockbench_spec},
					 {"memhog", &memhog_spec},
					 {"fileread", &fileread_spec},
					 {"cgchurn", &cgchurn_spec},
					 {"readfault", &readfault_spec},
					 {"movecharge", &movecharge_spec},
					 {"swapcycle", &swapcycle_spec},
					 {"filewrite", &filewrite_spec},
					 {"kbuild", &kbuild_spec},
					 {NULL, NULL}};

const struct workload_spec *workload_spec_find(const char *type)
{
	for (int i = 0; workload_specs[i]; i++)
		if (strcmp(workload_specs[i]->type, type) == 0)
			return workload_specs[i];
	return NULL;
}

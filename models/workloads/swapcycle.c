// SPDX-License-Identifier: GPL-2.0-or-later
/* swapcycle: the static-key benchmark's program: map size_mb of anonymous
 * memory (populated: no page faults), MADV_PAGEOUT all of it to zram, write it
 * again (a swap-in fault per page), counted as `perf stat` counts them. On the
 * way, the swap hot paths check cgroup_memory_noswap: as a plain branch or a
 * static key (static_key.c). Per-page work other than those checks is one
 * fitted cost, half in the page-out, half in the fault; the branches and
 * misses perf stat sees elsewhere per page are fitted counts. */
#include "static_key.h"
#include "workload.h"
#include <glib.h>
#include <math.h>

struct swapcycle_params {
	double size_mb;
	const struct static_key_ops *check;
	long cpu;
	double page_ns, other_branches_per_page, other_branch_misses_per_page;
	long extra_faults;
	struct static_key_params key; /* the check's costs and the patching's */
	double flip_at_ns;
};

#define AT(member) SPEC_AT(struct swapcycle_params, member)
#define NUM_FIELD(key_, doc_, lo, hi, def, member)                                                 \
	{                                                                                          \
		key_,                                                                              \
		    &(const struct spec){.kind = SPEC_NUMBER, .doc = doc_, .min = lo, .max = hi},  \
		    false, def, AT(member)                                                         \
	}
static const struct spec_field swapcycle_fields[] = {
    SPEC_TYPE_FIELD("swapcycle"),
    {"size_mb", &workload_size_spec, true, NULL, AT(size_mb)},
    {"check",
     &(const struct spec){.kind = SPEC_ENUM,
			  .doc = "cgroup_memory_noswap as a plain branch or a static key",
			  .choices = static_key_schemes},
     false, "\"branch\"", AT(check)},
    WORKLOAD_CPU_FIELD("CPU of the task", AT(cpu)),
    NUM_FIELD("page_ns", "per-page work besides the checks (page-out and swap-in fault)", 0, 1e9,
	      "3400", page_ns),
    NUM_FIELD("other_branches_per_page", "branches perf stat counts elsewhere, per page", 0, 1e6,
	      "0", other_branches_per_page),
    NUM_FIELD("other_branch_misses_per_page", "branch misses elsewhere, per page", 0, 1e6, "0",
	      other_branch_misses_per_page),
    {"extra_faults",
     &(const struct spec){
	 .kind = SPEC_INTEGER, .doc = "page faults besides the swap-ins", .min = 0, .max = 1e12},
     false, "0", AT(extra_faults)},
    NUM_FIELD("load_cycles", "the flag's load instruction, its line in L1", 0, 1e4, "4",
	      key.load_cycles),
    NUM_FIELD("miss_prob",
	      "probability that the core's caches lost the flag's line since the last check", 0, 1,
	      "0", key.miss_prob),
    NUM_FIELD("test_branch_cycles", "test and conditional branch", 0, 1e4, "1",
	      key.test_branch_cycles),
    NUM_FIELD("mispredict_cycles", "a mispredicted branch's penalty", 0, 1e4, "17",
	      key.mispredict_cycles),
    NUM_FIELD("mispredict_prob", "probability of a mispredict", 0, 1, "0", key.mispredict_prob),
    NUM_FIELD("nop_cycles", "a patched 5-byte NOP", 0, 1e4, "0.25", key.nop_cycles),
    NUM_FIELD("jmp_cycles", "a patched JMP", 0, 1e4, "1", key.jmp_cycles),
    NUM_FIELD("patch_site_ns", "text_poke of one site, unbatched", 0, 1e10, "1017857",
	      key.patch_site_ns),
    NUM_FIELD("patch_batch_ns", "a batched update of all sites", 0, 1e10, "1400000",
	      key.patch_batch_ns),
    NUM_FIELD("patch_stall_ns", "each other CPU's stall per IPI round", 0, 1e9, "2000",
	      key.patch_stall_ns),
    {"patch_sites",
     &(const struct spec){.kind = SPEC_INTEGER, .doc = "sites of the key", .min = 1, .max = 100000},
     false, "56", AT(key.sites)},
    {"patch_batched", &(const struct spec){.kind = SPEC_BOOLEAN, .doc = "batched text patching"},
     false, "true", AT(key.batched)},
    NUM_FIELD("flip_at_ns",
	      "flip the key once at this time (static_branch_enable or _disable), to see its "
	      "cost; absent: never",
	      0, 3.6e12, NULL, flip_at_ns),
    {NULL},
};
#undef NUM_FIELD
#undef AT

static const struct spec swapcycle_spec = {
    .kind = SPEC_OBJECT,
    .doc = "swapcycle: map (populated), MADV_PAGEOUT, write again, as perf stat sees it; the "
	   "swap hot paths check cgroup_memory_noswap as a branch or a static key",
    .fields = swapcycle_fields,
    .size = sizeof(struct swapcycle_params)};

static bool swapcycle_check(const void *params, const struct run_config *cfg, const char *path,
			    struct spec_check *chk)
{
	return workload_check_cpu(((const struct swapcycle_params *)params)->cpu, cfg, path, chk);
}

enum {
	SWAPOUT,
	TRY_CHARGE_SWAP,
	UNCHARGE_SWAP,
	GET_NR_SWAP_PAGES,
	SWAP_FULL,
	MEMSW_ACCOUNT,
	NR_PATHS
};

struct swapcycle {
	long pages;
	sim_time_t page_ns;
	double other_branches, other_misses; /* per page */
	long extra_faults;
	sim_time_t flip_at; /* < 0: the key is not flipped during the run */
	struct hot_path paths[NR_PATHS + 1];
	struct static_key key;
	sim_time_t task_time;
};

static void swapcycle_loop(struct sim_task *t, void *arg)
{
	struct swapcycle *sc = arg;
	struct static_key *k = &sc->key;
	struct hot_path *p = sc->paths;
	sim_time_t start = sim_task_clock(t);
	bool flipped = sc->flip_at < 0;
	/* MADV_PAGEOUT: reclaim_pages in batches of SWAP_CLUSTER_MAX */
	for (long i = 0; i < sc->pages; i++) {
		if (!flipped && sim_task_clock(t) >= sc->flip_at) {
			static_branch_set(t, k, !k->enabled);
			flipped = true;
		}
		if (i % 32 == 0)
			static_branch_check(t, k, &p[GET_NR_SWAP_PAGES]);
		static_branch_check(t, k, &p[TRY_CHARGE_SWAP]);
		static_branch_check(t, k, &p[SWAPOUT]);
		static_branch_check(t, k, &p[MEMSW_ACCOUNT]); /* the memory uncharge */
		sim_task_charge(t, SIM_CAT_SYS, sc->page_ns / 2);
	}
	/* the second write: do_swap_page for each page */
	for (long i = 0; i < sc->pages; i++) {
		static_branch_check(t, k, &p[SWAP_FULL]);
		static_branch_check(t, k, &p[UNCHARGE_SWAP]);
		static_branch_check(t, k, &p[MEMSW_ACCOUNT]); /* the charge */
		sim_task_charge(t, SIM_CAT_SYS, sc->page_ns - sc->page_ns / 2);
	}
	sc->task_time = sim_task_clock(t) - start;
}

static void *swapcycle_setup(const void *params, int index)
{
	static const char *const names[NR_PATHS] = {
	    "mem_cgroup_swapout",	  "__mem_cgroup_try_charge_swap",
	    "__mem_cgroup_uncharge_swap", "mem_cgroup_get_nr_swap_pages",
	    "mem_cgroup_swap_full",	  "do_memsw_account"};
	const struct swapcycle_params *p = params;
	struct swapcycle *sc = g_new0(struct swapcycle, 1);
	sc->pages = (long)(p->size_mb * 256);
	sc->page_ns = sim_from_ns(p->page_ns);
	sc->other_branches = p->other_branches_per_page;
	sc->other_misses = p->other_branch_misses_per_page;
	sc->extra_faults = p->extra_faults;
	sc->flip_at = isnan(p->flip_at_ns) ? -1 : sim_from_ns(p->flip_at_ns);
	for (int i = 0; i < NR_PATHS; i++)
		sc->paths[i].name = names[i];
	struct static_key *k = &sc->key;
	k->name = "cgroup_memory_noswap";
	k->ops = p->check;
	k->enabled = true; /* static_branch_enable at boot */
	k->paths = sc->paths;
	k->p = p->key;
	static_key_init(k);
	char *stream = g_strdup_printf("swapcycle.%d.branches", index);
	k->rng = sim_rng_new(sim_seed(), stream);
	g_free(stream);
	sim_task_createf((int)p->cpu, swapcycle_loop, sc, "swapcycle.%d", index);
	return sc;
}

/* perf stat's view of the task: task-clock, cycles, page faults, branches. */
static void swapcycle_metrics(void *state, json_t *metrics)
{
	struct swapcycle *sc = state;
	double ms = sim_to_ns(sc->task_time) / 1e6;
	json_object_set_new(metrics, "task_clock_ms", json_real(ms));
	json_object_set_new(metrics, "cycles",
			    json_real(sim_to_ns(sc->task_time) * sim_machine()->clock_ghz));
	json_object_set_new(metrics, "page_faults", json_integer(sc->pages + sc->extra_faults));
	json_object_set_new(
	    metrics, "branches",
	    json_real((double)sc->key.branches + sc->other_branches * (double)sc->pages));
	json_object_set_new(
	    metrics, "branch_misses",
	    json_real((double)sc->key.branch_misses + sc->other_misses * (double)sc->pages));
	json_object_set_new(metrics, "static_key", static_key_json(&sc->key));
}

static void swapcycle_destroy(void *state)
{
	struct swapcycle *sc = state;
	sim_rng_free(sc->key.rng);
	g_free(sc);
}

const struct workload_type swapcycle_workload = {
    .name = "swapcycle",
    .spec = &swapcycle_spec,
    .check = swapcycle_check,
    .setup = swapcycle_setup,
    .metrics = swapcycle_metrics,
    .metric_info =
	(const struct run_metric[]){
	    {"task_clock_ms", false, "ms", "perf stat's task-clock: CPU time of the tasks"},
	    {"cycles", false, "", "perf stat's cycles: the tasks' CPU time x clock"},
	    {"page_faults", false, "", "page faults taken (each swapped page faulted back)"},
	    {"branches", false, "", "perf stat's branches (modelled from the instructions)"},
	    {"branch_misses", false, "", "perf stat's branch-misses (modelled)"},
	    {NULL, false, NULL, NULL}},
    .destroy = swapcycle_destroy,
};

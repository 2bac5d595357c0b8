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

enum { SWAPOUT, TRY_CHARGE_SWAP, UNCHARGE_SWAP, GET_NR_SWAP_PAGES, SWAP_FULL, MEMSW_ACCOUNT,
       NR_PATHS };

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

static double num(json_t *w, const char *k)
{
	return json_number_value(json_object_get(w, k));
}

static void *swapcycle_setup(json_t *w, int index)
{
	static const char *const names[NR_PATHS] = {
		"mem_cgroup_swapout",	       "__mem_cgroup_try_charge_swap",
		"__mem_cgroup_uncharge_swap", "mem_cgroup_get_nr_swap_pages",
		"mem_cgroup_swap_full",	       "do_memsw_account"};
	struct swapcycle *sc = g_new0(struct swapcycle, 1);
	sc->pages = (long)(num(w, "size_mb") * 256);
	sc->page_ns = sim_from_ns(num(w, "page_ns"));
	sc->other_branches = num(w, "other_branches_per_page");
	sc->other_misses = num(w, "other_branch_misses_per_page");
	sc->extra_faults = (long)json_integer_value(json_object_get(w, "extra_faults"));
	json_t *flip = json_object_get(w, "flip_at_ns");
	sc->flip_at = flip ? sim_from_ns(json_number_value(flip)) : -1;
	for (int i = 0; i < NR_PATHS; i++)
		sc->paths[i].name = names[i];
	struct static_key *k = &sc->key;
	k->name = "cgroup_memory_noswap";
	k->ops = static_key_ops_find(json_string_value(json_object_get(w, "check")));
	k->enabled = true; /* static_branch_enable at boot */
	k->paths = sc->paths;
	k->p = (struct static_key_params){
		num(w, "load_hit_cycles"),  num(w, "load_miss_cycles"),	 num(w, "miss_prob"),
		num(w, "test_branch_cycles"), num(w, "mispredict_cycles"), num(w, "mispredict_prob"),
		num(w, "nop_cycles"),	    num(w, "jmp_cycles"),	 num(w, "patch_site_ns"),
		num(w, "patch_batch_ns"),   num(w, "patch_stall_ns"),
		(int)json_integer_value(json_object_get(w, "patch_sites")),
		json_is_true(json_object_get(w, "patch_batched"))};
	char *stream = g_strdup_printf("swapcycle.%d.branches", index);
	k->rng = sim_rng_new(sim_seed(), stream);
	g_free(stream);
	char *name = g_strdup_printf("swapcycle.%d", index);
	sim_task_create(name, (int)json_integer_value(json_object_get(w, "cpu")), swapcycle_loop, sc);
	g_free(name);
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
	json_object_set_new(metrics, "branches",
			    json_real((double)sc->key.branches +
				      sc->other_branches * (double)sc->pages));
	json_object_set_new(metrics, "branch_misses",
			    json_real((double)sc->key.branch_misses +
				      sc->other_misses * (double)sc->pages));
	json_object_set_new(metrics, "static_key", static_key_json(&sc->key));
}

static void swapcycle_destroy(void *state)
{
	struct swapcycle *sc = state;
	sim_rng_free(sc->key.rng);
	g_free(sc);
}

const struct workload_ops swapcycle_ops = {"swapcycle", swapcycle_setup, swapcycle_metrics,
					   swapcycle_destroy};

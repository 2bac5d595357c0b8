// SPDX-License-Identifier: GPL-2.0-or-later
#include "static_key.h"
#include "sim_irq.h"
#include <math.h>

static double cycles_to_ns(double cycles)
{
	return cycles / sim_machine()->clock_ghz;
}

/* A plain branch: load the flag (from L1, or, when the core's caches have
 * lost it with miss_prob, from wherever the line is), test it, branch
 * (mispredicted with mispredict_prob). */
static double branch_check(struct static_key *k, int cpu, struct hot_path *path)
{
	if (sim_rng_uniform01(k->rng) < k->p.miss_prob)
		line_evict_core(&k->flag, cpu);
	double c =
	    k->p.load_cycles + k->p.test_branch_cycles +
	    sim_to_ns(line_access(cpu, &k->flag, LINE_LOAD, path->name)) * sim_machine()->clock_ghz;
	k->branches++;
	if (k->p.mispredict_prob > 0 && sim_rng_uniform01(k->rng) < k->p.mispredict_prob) {
		c += k->p.mispredict_cycles;
		k->branch_misses++;
	}
	return c;
}

/* A static key (static_branch_likely): a NOP while the key is true, a JMP
 * (an unconditional branch, never mispredicted) while it is false. */
static double patched_check(struct static_key *k, int cpu, struct hot_path *path)
{
	if (k->enabled)
		return k->p.nop_cycles;
	k->branches++;
	return k->p.jmp_cycles;
}

void static_branch_check(struct sim_task *t, struct static_key *key, struct hot_path *path)
{
	path->checks++;
	double c = key->ops->check(key, sim_task_cpu(t), path);
	sim_task_charge(t, SIM_CAT_SYS, sim_round(cycles_to_ns(c) * (double)SIM_NS));
}

/* The plain branch: the flag's store is all; the other CPUs' next checks
 * fetch the line. */
static void branch_flip(struct sim_task *t, struct static_key *key)
{
	line_touch(t, &key->flag, LINE_STORE, "static_branch_set");
}

/* text_poke_bp: three IPI rounds per site (or per batch), every other CPU
 * stalled in each. */
static void patched_flip(struct sim_task *t, struct static_key *key)
{
	int rounds = key->p.batched ? 3 : 3 * (int)key->p.sites;
	double caller =
	    key->p.batched ? key->p.patch_batch_ns : key->p.sites * key->p.patch_site_ns;
	sim_task_flush(t);
	sim_time_t start = sim_now(), step = sim_from_ns(caller) / rounds;
	for (int r = 0; r < rounds; r++) /* every other CPU stalls in each round */
		for (int c = 0; c < sim_ncpus(); c++)
			if (c != sim_task_cpu(t))
				sim_irq_post(c, start + r * step,
					     sim_from_ns(key->p.patch_stall_ns));
	sim_task_charge(t, SIM_CAT_SYS, sim_from_ns(caller));
}

static const struct static_key_ops static_key_branch = {
    .name = "branch",
    .doc = "a load and a conditional branch on a global flag",
    .check = branch_check,
    .flip = branch_flip};
static const struct static_key_ops static_key_patched = {
    .name = "static-key",
    .doc = "a patched jump or nop (jump labels); flipping it patches the text",
    .check = patched_check,
    .flip = patched_flip};

const struct mcs_named *const static_key_schemes[] = {&static_key_branch.named,
						      &static_key_patched.named, NULL};

void static_key_init(struct static_key *key)
{
	line_init(&key->flag, line_class_get(key->name), 0);
}

void static_branch_set(struct sim_task *t, struct static_key *key, bool enabled)
{
	key->enabled = enabled;
	key->ops->flip(t, key);
}

json_t *static_key_json(const struct static_key *key)
{
	json_t *paths = json_object();
	for (const struct hot_path *p = key->paths; p->name; p++)
		json_object_set_new(paths, p->name, json_integer(p->checks));
	return json_pack("{s:s, s:s, s:b, s:o}", "key", key->name, "scheme", key->ops->name,
			 "enabled", key->enabled, "checks", paths);
}

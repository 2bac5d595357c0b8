// SPDX-License-Identifier: GPL-2.0-or-later
/* The scenario's kernel section: build choices of the simulated kernel that
 * are not a model's own parameters (which spinlock implementation it has). */
#include "kernel.h"
#include "lock_whatif.h"
#include "sim_engine.h"
#include "spinlock.h"

/* A what-if's lock class: critical_section_extra's and lock_whatif's. */
static const struct spec lock_class_spec = {
    .kind = SPEC_STRING,
    .doc = "the lock class, as the report names it (\"&nlru->lock\"; memcgsim locks lists them)",
    .min = 1,
    .max = 256};

#define EXTRA(member) SPEC_AT(struct kernel_hold_extra, member)
static const struct spec_field hold_extra_fields[] = {
    {"lock", &lock_class_spec, true, NULL, EXTRA(lock)},
    {"site",
     &(const struct spec){.kind = SPEC_STRING,
			  .doc = "only the critical sections taken at this site (the model "
				 "function the report's contention points name); absent: all",
			  .min = 1,
			  .max = 256},
     false, NULL, EXTRA(site)},
    {"ns", &(const struct spec){.kind = SPEC_NUMBER, .doc = "ns added", .min = 0, .max = 1e9},
     false, "0", EXTRA(ns)},
    {"cycles",
     &(const struct spec){
	 .kind = SPEC_NUMBER, .doc = "cycles added, at the machine's clock", .min = 0, .max = 1e10},
     false, "0", EXTRA(cycles)},
    {NULL},
};
#undef EXTRA

#define WHATIF(member) SPEC_AT(struct kernel_lock_whatif, member)
static const struct spec_field whatif_fields[] = {
    {"lock", &lock_class_spec, true, NULL, WHATIF(lock)},
    {"kind",
     &(const struct spec){
	 .kind = SPEC_ENUM,
	 .doc = "scope: every acquisition takes the class's lock of the taker's scope "
		"instead (the sections and their data unchanged); atomic: no lock, its "
		"acquisition a locked RMW on the lock's line, the section's work "
		"unserialised; rcu_readers: at the sites named, rcu_read_lock in place of "
		"the lock (the other sites, the writers, keep it); remove: no lock",
	 .values = (const char *const[]){"scope", "atomic", "rcu_readers", "remove", NULL}},
     true, NULL, WHATIF(kind)},
    {"scope",
     &(const struct spec){.kind = SPEC_ENUM,
			  .doc = "for a scope: one lock for every instance (global), one a NUMA "
				 "node (node), one a CPU (cpu), one a memcg (memcg: the memcg of "
				 "the task that takes it, a workload's cgroup; the root's for a "
				 "task of none, or of a memcg made during the run)",
			  .values = (const char *const[]){"global", "node", "cpu", "memcg", NULL}},
     false, "\"global\"", WHATIF(scope)},
    {"sites",
     &(const struct spec){.kind = SPEC_ARRAY,
			  .doc = "for rcu_readers: the reader sites (contention points' names)",
			  .min = 0,
			  .max = 64,
			  .items = &(const struct spec){.kind = SPEC_STRING, .min = 1, .max = 256}},
     false, "[]", WHATIF(sites)},
    {NULL},
};
#undef WHATIF

#define VM(member) SPEC_AT(struct kernel_vm, member)
static const struct spec_field vm_fields[] = {
    {"pv_spinlock",
     &(const struct spec){.kind = SPEC_BOOLEAN,
			  .doc = "paravirt qspinlock (CONFIG_PARAVIRT_SPINLOCKS with KVM's "
				 "PV_UNHALT): __pv_queued_spin_unlock is a cmpxchg, a locked RMW "
				 "at every release"},
     false, "true", VM(pv_spinlock)},
    {"steal",
     &(const struct spec){.kind = SPEC_NUMBER,
			  .doc = "the fraction of time the host deschedules a vCPU (steal "
				 "time): a lock holder is descheduled with probability steal x "
				 "hold / deschedule time, and its waiters wait that long",
			  .min = 0,
			  .max = 0.9},
     false, "0", VM(steal)},
    {"deschedule_us",
     &(const struct spec){.kind = SPEC_NUMBER,
			  .doc = "how long a descheduled vCPU stays off its physical CPU, us",
			  .min = 1,
			  .max = 1e5},
     false, "3000", VM(deschedule_us)},
    {NULL},
};
#undef VM

#define AT(member) SPEC_AT(struct kernel_params, member)
static const struct spec_field kernel_fields[] = {
    {"spinlock",
     &(const struct spec){.kind = SPEC_ENUM,
			  .doc = "the spinlock: qspinlock (Linux 4.2 on: queued, MCS) or ticket "
				 "(before 4.2)",
			  .choices = spinlock_impls},
     false, "\"qspinlock\"", AT(spinlock)},
    {"debug_locks",
     &(const struct spec){
	 .kind = SPEC_ENUM,
	 .doc = "a debug kernel's lock bookkeeping (a test-environment hypothesis): none; "
		"lockdep (PROVE_LOCKING + DEBUG_SPINLOCK: lock_acquire before every "
		"spinlock acquisition, lock_release inside the hold); lock_stat (lockdep "
		"with LOCK_STAT: lock_acquired and the hold accounting inside the hold "
		"too). Costs: machine.costs lockdep_acquire_ns, lockdep_release_ns, "
		"lock_stat_ns",
	 .values = (const char *const[]){"none", "lockdep", "lock_stat", NULL}},
     false, "\"none\"", AT(debug_locks)},
    {"vm",
     &(const struct spec){.kind = SPEC_OBJECT,
			  .doc = "the kernel runs as a KVM guest (a test-environment hypothesis): "
				 "paravirt spinlocks, and vCPUs descheduled by the host while "
				 "they may hold a lock; absent: bare metal",
			  .fields = vm_fields,
			  .size = sizeof(struct kernel_vm)},
     false, NULL, AT(vm)},
    {"version",
     &(const struct spec){
	 .kind = SPEC_ENUM,
	 .doc = "the kernel tree the variant stands for: where a modelled path differs "
		"between eras, the run follows this one's (docs/calibration.md lists "
		"each). mm-2024-06: the mm tree of June 2024 (between 6.9 and 6.11-rc; "
		"a process's exit frees its swap slots one at a time through the "
		"per-CPU slot cache, as 6.10 and 6.11 do, and so does every version "
		"before 6.12 here); 6.12: the batched exit (__swap_entries_free); "
		"6.14: the swap slot allocator and frees under the cluster lock, "
		"si->lock only to move a cluster between lists (move_cluster, "
		"isolate_lock_cluster), no slot cache on the free path, swap_cgroup's "
		"ids without ctrl->lock; "
		"2.6.32: a memcg charge takes a css reference and an uncharge drops "
		"one a page, atomics on the memcg's line; "
		"other paths run 6.12's whatever the version until their audit says "
		"otherwise",
	 .values = (const char *const[]){"2.6.32", "5.11", "6.0", "6.1", "mm-2024-06", "6.12",
					 "6.13", "6.14", NULL}},
     false, "\"6.12\"", AT(version)},
    {"critical_section_extra",
     &(const struct spec){
	 .kind = SPEC_ARRAY,
	 .doc = "time added inside a lock class's critical sections (all, or one "
		"site's): what a patch adding work under that lock would cost",
	 .min = 0,
	 .max = 64,
	 .items = &(const struct spec){.kind = SPEC_OBJECT,
				       .doc = "one lock class (and site) and what it adds",
				       .fields = hold_extra_fields,
				       .size = sizeof(struct kernel_hold_extra)}},
     false, "[]", AT(hold_extra)},
    {"lock_whatif",
     &(const struct spec){
	 .kind = SPEC_ARRAY,
	 .doc = "lock classes changed without C: another scope, an atomic, RCU for "
		"readers, or no lock (docs/scenario.md, \"What-ifs on a lock class\")",
	 .min = 0,
	 .max = 32,
	 .items = &(const struct spec){.kind = SPEC_OBJECT,
				       .doc = "one lock class and its change",
				       .fields = whatif_fields,
				       .size = sizeof(struct kernel_lock_whatif)}},
     false, "[]", AT(whatif)},
    {NULL},
};
#undef AT

const struct spec kernel_params_spec = {.kind = SPEC_OBJECT,
					.doc = "the simulated kernel's build choices",
					.fields = kernel_fields,
					.size = sizeof(struct kernel_params)};

static enum kernel_version version = KERNEL_6_12;

enum kernel_version kernel_version(void)
{
	return version;
}

void kernel_setup(const struct kernel_params *k)
{
	version = k->version;
	spinlock_use(k->spinlock);
	spinlock_debug(k->debug_locks);
	if (k->vm)
		spinlock_vm(k->vm->pv_spinlock, k->vm->steal,
			    sim_from_ns(k->vm->deschedule_us * 1000));
	for (size_t i = 0; i < k->hold_extra.n; i++) {
		const struct kernel_hold_extra *x = k->hold_extra.items[i];
		sim_time_t d = sim_from_ns(x->ns + x->cycles / sim_machine()->clock_ghz);
		spinlock_add_hold(x->lock, x->site, d);
	}
	for (size_t i = 0; i < k->whatif.n; i++) {
		const struct kernel_lock_whatif *w = k->whatif.items[i];
		lock_whatif_add(w->lock, w->kind, w->scope, w->sites.items, w->sites.n);
	}
}

void kernel_teardown(void)
{
	spinlock_use(NULL);
	version = KERNEL_6_12;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kernel: the scenario's kernel section, build choices of the simulated
 * kernel that are not a model's own parameters (kernel.c). */
#pragma once
#include "spec.h"

struct spinlock_ops;

/* kernel.critical_section_extra: time added inside a lock class's critical
 * sections (all of them, or one site's), the reviewer's "what if this
 * patch adds a stats update under that lock?". */
struct kernel_hold_extra {
	char *lock;	   /* the lock class, as lock_stat names it ("&nlru->lock") */
	char *site;	   /* the model function taking it; NULL: every site */
	double ns, cycles; /* added, at the machine's clock for cycles */
};

/* kernel.lock_whatif: a lock class changed (lock_whatif.h): its scope,
 * an atomic, RCU readers at @sites, or removed. */
struct kernel_lock_whatif {
	char *lock;
	int kind;  /* enum lock_whatif_kind */
	int scope; /* enum lock_whatif_scope, for a scope */
	SPEC_LIST(char *) sites;
};

/* kernel.vm: the kernel as a KVM guest (a test-environment hypothesis). */
struct kernel_vm {
	bool pv_spinlock;     /* paravirt qspinlock: the unlock is a cmpxchg */
	double steal;	      /* fraction of the time a vCPU is descheduled */
	double deschedule_us; /* how long, each time */
};

/* kernel.version: the tree a variant stands for, oldest first, so that
 * paths can ask "before 6.12?". Each model path that differs between eras
 * says which it follows (docs/calibration.md, the era audit). */
enum kernel_version {
	KERNEL_2_6_32,
	KERNEL_5_11,
	KERNEL_6_0,
	KERNEL_6_1,
	KERNEL_MM_2024_06, /* the mm tree of June 2024, between 6.9 and 6.11-rc */
	KERNEL_6_12,
	KERNEL_6_13,
	KERNEL_6_14, /* the swap allocator's locks reworked (Kairui Song's series) */
};

/* The kernel section. */
struct kernel_params {
	const struct spinlock_ops *spinlock;
	int debug_locks;      /* SPIN_DEBUG_* (spinlock.h) */
	struct kernel_vm *vm; /* NULL: bare metal */
	SPEC_LIST(struct kernel_hold_extra *) hold_extra;
	SPEC_LIST(struct kernel_lock_whatif *) whatif;
	int version; /* enum kernel_version */
};
extern const struct spec kernel_params_spec;

/* The run's kernel: its spinlock and the critical-section extras. */
void kernel_setup(const struct kernel_params *k);
void kernel_teardown(void);
/* The run's kernel.version (6.12 outside a run). */
enum kernel_version kernel_version(void);

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kernel: the scenario's kernel section, build choices of the simulated
 * kernel that are not a model's own parameters (kernel.c). */
#pragma once
#include "spec.h"

struct spinlock_ops;

/* The kernel section. */
struct kernel_params {
	const struct spinlock_ops *spinlock;
};
extern const struct spec kernel_params_spec;

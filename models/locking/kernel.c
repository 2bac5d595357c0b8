// SPDX-License-Identifier: GPL-2.0-or-later
/* The scenario's kernel section: build choices of the simulated kernel that
 * are not a model's own parameters (which spinlock implementation it has). */
#include "kernel.h"
#include "spinlock.h"

#define AT(member) SPEC_AT(struct kernel_params, member)
static const struct spec_field kernel_fields[] = {
	{"spinlock",
	 &(const struct spec){.kind = SPEC_ENUM,
			      .doc = "the spinlock: qspinlock (Linux 4.2 on: queued, MCS) or ticket "
				     "(before 4.2)",
			      .choices = spinlock_impls},
	 false, "\"qspinlock\"", AT(spinlock)},
	{NULL},
};
#undef AT

const struct spec kernel_params_spec = {.kind = SPEC_OBJECT,
					.doc = "the simulated kernel's build choices",
					.fields = kernel_fields,
					.size = sizeof(struct kernel_params)};

// SPDX-License-Identifier: GPL-2.0-or-later
/* The workload types' registry (workload.h); what they share is workload.c. */
#include "workload.h"
#include <string.h>

/* The registry: one line per workload type, each defined in its own file
 * as `const struct workload_type <name>_workload`. */
#define WORKLOAD_TYPES(X)                                                                          \
	X(lockbench)                                                                               \
	X(atomicbench)                                                                             \
	X(memhog)                                                                                  \
	X(fileread)                                                                                \
	X(cgchurn)                                                                                 \
	X(readfault)                                                                               \
	X(movecharge)                                                                              \
	X(swapcycle)                                                                               \
	X(filewrite)                                                                               \
	X(kbuild)                                                                                  \
	X(pagefault_loop)                                                                          \
	X(netperf_sendfile)                                                                        \
	X(readtwice)

#define DECLARE(name) extern const struct workload_type name##_workload;
#define ENTRY(name) &name##_workload,
WORKLOAD_TYPES(DECLARE)
const struct workload_type *const workload_types[] = {WORKLOAD_TYPES(ENTRY) NULL};

const struct workload_type *workload_type_find(const char *name)
{
	for (int i = 0; workload_types[i]; i++)
		if (strcmp(workload_types[i]->name, name) == 0)
			return workload_types[i];
	return NULL;
}

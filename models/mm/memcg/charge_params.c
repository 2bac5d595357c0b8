// SPDX-License-Identifier: GPL-2.0-or-later
/* charge_params: the scenario's memcg.charge (its spec, the counter designs'
 * registry, the page_counter layouts) and the run's choice of it. */
#include "charge.h"

#define CHARGE_COUNTERS(X) X(page_counter) X(res_counter)
#define ENTRY(name) &charge_##name.named,
static const struct mcs_named *const charge_counters[] = {CHARGE_COUNTERS(ENTRY) NULL};
#undef ENTRY

/* struct page_counter's fields by line: before Linux 6.1 (the layout of
 * 5.13 .. 6.0, not aligned: the memory counter starts 208 bytes into struct
 * mem_cgroup, after css and id, so usage, the limits and emin share a line
 * with css.parent and the memcg's id; min_usage, low_usage, the watermark
 * and parent fill the next), and after "mm: page_counter: rearrange struct
 * page_counter fields" (6.1, ____cacheline_internodealigned_in_smp): usage
 * alone, the protection and watermark, the read-mostly limits. */
const struct page_counter_layout page_counter_layouts[] = {
    {{{"shared", "usage shares its line with min, low, high, max and, in struct mem_cgroup, "
		 "css.parent (Linux <= 6.0)"}},
     {[PC_USAGE] = 0,
      [PC_LIMITS] = 0,
      [PC_MIN_USAGE] = 1,
      [PC_LOW_USAGE] = 1,
      [PC_WATERMARK] = 1,
      [PC_PARENT] = 1},
     {"struct page_counter: usage, min, low, high, max, emin",
      "struct page_counter: min_usage, low_usage, watermark, parent", NULL},
     true},
    {{{"split",
       "usage alone in its line; protection and watermark; the read-mostly limits (6.1+)"}},
     {[PC_USAGE] = 0,
      [PC_MIN_USAGE] = 1,
      [PC_LOW_USAGE] = 1,
      [PC_WATERMARK] = 1,
      [PC_LIMITS] = 2,
      [PC_PARENT] = 2},
     {"struct page_counter: usage", "struct page_counter: min_usage, low_usage, watermark",
      "struct page_counter: min, low, high, max, parent"},
     false},
    {.named = {NULL, NULL}},
};
static const struct mcs_named *const layout_choices[] = {&page_counter_layouts[0].named,
							 &page_counter_layouts[1].named, NULL};

#define AT(member) SPEC_AT(struct charge_params, member)
static const struct spec_field charge_fields[] = {
    {"counter",
     &(const struct spec){.kind = SPEC_ENUM,
			  .doc = "the counter design: page_counter (lockless atomics, Linux "
				 "3.19+) or res_counter (a spinlock per counter, 2.6.25 .. 3.18)",
			  .choices = charge_counters},
     false, "\"page_counter\"", AT(counter)},
    {"stock_batch",
     &(const struct spec){.kind = SPEC_INTEGER,
			  .doc = "pages a CPU charges at once into its per-CPU stock "
				 "(MEMCG_CHARGE_BATCH: 32 before Linux 6.1, 64 from 6.1; 0: no "
				 "stock, as before 2.6.33)",
			  .min = 0,
			  .max = 4096},
     false, "64", AT(stock_batch)},
    {"uncharge_batch",
     &(const struct spec){.kind = SPEC_BOOLEAN,
			  .doc = "gather an unmap's uncharges per task and apply them once "
				 "(mem_cgroup_uncharge_start/end, 2.6.33)"},
     false, "false", AT(uncharge_batch)},
    {"memsw",
     &(const struct spec){.kind = SPEC_BOOLEAN,
			  .doc = "charge the memory+swap counter as well (cgroup v1 with swap "
				 "accounting)"},
     false, "false", AT(memsw)},
    {"use_hierarchy",
     &(const struct spec){.kind = SPEC_BOOLEAN,
			  .doc = "a charge walks the ancestors' counters up to the root's "
				 "(cgroup v2; cgroup v1's memory.use_hierarchy, 0 by default "
				 "before 3.x)"},
     false, "true", AT(use_hierarchy)},
    {"protection",
     &(const struct spec){.kind = SPEC_ENUM,
			  .doc = "propagate_protected_usage with memory.min/low set: xchg (an "
				 "atomic_long_xchg per charge, Linux <= 6.0) or on_change (a read, "
				 "the xchg only when the protected usage changed, 6.1+)",
			  .values = (const char *const[]){"xchg", "on_change", NULL}},
     false, "\"on_change\"", AT(protection)},
    {"layout",
     &(const struct spec){.kind = SPEC_ENUM,
			  .doc = "struct page_counter's layout: shared (<= 6.0) or split (6.1+)",
			  .choices = layout_choices},
     false, "\"split\"", AT(layout)},
    {NULL},
};
#undef AT

const struct spec charge_params_spec = {
    .kind = SPEC_OBJECT,
    .doc = "the charge path's design (docs/scenario.md, \"Charging designs\")",
    .fields = charge_fields,
    .size = sizeof(struct charge_params)};

const struct charge_params charge_defaults = {
    .counter = &charge_page_counter,
    .stock_batch = 64,
    .use_hierarchy = true,
    .protection = CHARGE_PROTECTION_ON_CHANGE,
    .layout = &page_counter_layouts[1],
};
const struct charge_params *charge = &charge_defaults;

void charge_use(const struct charge_params *p)
{
	charge = p ? p : &charge_defaults;
}

/* report: the plain-text report of a result document, for pasting into a
 * design review: per variant the simulated time and CPU time, a lock_stat
 * table and a perf-lock-contention table; with two or more variants an
 * mmtests-style comparison. */
#pragma once
#include <glib.h>
#include <jansson.h>

void report_text(json_t *result, GString *out);

/* report_locks.c */
void report_lock_stat(json_t *locks, GString *out);
void report_perf_lock(json_t *locks, GString *out);
/* report_irq.c */
void report_irq(json_t *variant, GString *out);
void report_rcu(json_t *variant, GString *out);
/* report_memcg.c */
void report_memcg(json_t *variant, GString *out);
/* report_compare.c */
void report_compare(json_t *variants, GString *out);
void report_duration(json_t *variants, GString *out);
/* The elements of @array, sorted with @cmp (on json_t **); free with
 * g_ptr_array_free(a, TRUE). */
GPtrArray *report_sorted(json_t *array, GCompareFunc cmp);
/* A duration in ns with a scaled unit ("2.13 us"), @width wide. */
void report_time(GString *out, double ns, int width);

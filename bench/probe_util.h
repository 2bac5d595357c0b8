/* SPDX-License-Identifier: GPL-2.0-or-later */
/* probe_util: what memcgsim-probe's measurements share (bench/probe.c,
 * bench/probe_pairs.c): pinning, the clock, sorting runs, the machine. */
#pragma once
#include <jansson.h>
#include <stdbool.h>

/* Pin the calling thread to @cpu; false when it cannot be. */
bool probe_pin(int cpu);
/* CLOCK_MONOTONIC, in s. */
double probe_now_s(void);
/* qsort's order of doubles. */
int probe_cmp_double(const void *a, const void *b);
/* Is this a guest VM (/proc/cpuinfo's "hypervisor" flag)? */
bool probe_virtualised(void);
/* A measurement file's head (data/contention/README.md): format, @name,
 * its source (@file, the probe's source that measured it), and the machine
 * (this one's CPU model, @family, @cores a socket or, at 0, null). */
json_t *probe_doc(const char *name, const char *file, const char *family, int cores);

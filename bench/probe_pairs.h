/* SPDX-License-Identifier: GPL-2.0-or-later */
/* probe_pairs: memcgsim-probe's third measurement, one line passed between
 * two CPUs of each distance class from CPU 0 (probe-line-pairs.json).
 *
 * The class of CPU k against CPU 0 is read from sysfs (DIR/cpu/cpuN/...,
 * DIR normally /sys/devices/system): "smt" when topology/core_cpus_list
 * (or thread_siblings_list) holds both, "llc" when cache/index3's
 * shared_cpu_list does, "socket" when topology/physical_package_id is the
 * same, "remote" otherwise; the model's line_smt_ns, line_llc_ns,
 * line_socket_ns and line_remote_ns. For each class, its first CPU and CPU
 * 0 pass one line back and forth (each waits for the other's value, then
 * stores its own): one transfer is the run's wall time over 2 x OPS. */
#pragma once
#include <jansson.h>

enum probe_class { PROBE_SMT, PROBE_LLC, PROBE_SOCKET, PROBE_REMOTE, PROBE_CLASSES };

/* The class of CPU @k against CPU 0 under @sysfs; -1 when sysfs does not
 * say (a file missing or unreadable). */
int probe_pair_class(const char *sysfs, int k);
/* The measurement document over CPUs 0 .. @cpus - 1, each class's first
 * CPU paired with CPU 0, the median of @runs runs of @ops round trips a
 * point; NULL when no CPU has a class, or a thread could not start or be
 * pinned (said on standard error). */
json_t *probe_pairs_measure(const char *sysfs, int cpus, long ops, int runs);
/* The measurement @pairs as a machine file (memcgsim-machine-1, for
 * memcgsim run --machine): each class's median as its line_<class>_ns, on
 * the preset @preset otherwise. */
json_t *probe_pairs_machine(const json_t *pairs, const char *preset);

// SPDX-License-Identifier: GPL-2.0-or-later
/* What memcgsim-probe's measurements share (probe_util.h). */
#define _GNU_SOURCE
#include "probe_util.h"
#include <glib.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <time.h>

bool probe_pin(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0;
}

double probe_now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int probe_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

bool probe_virtualised(void)
{
	char *cpuinfo = NULL;
	bool v = g_file_get_contents("/proc/cpuinfo", &cpuinfo, NULL, NULL) &&
		 strstr(cpuinfo, " hypervisor") != NULL;
	g_free(cpuinfo);
	return v;
}

/* /proc/cpuinfo's first model name; g_free it. */
static char *cpu_model(void)
{
	char *cpu = NULL;
	g_file_get_contents("/proc/cpuinfo", &cpu, NULL, NULL);
	char *model = cpu ? strstr(cpu, "model name") : NULL;
	char *name = model && strchr(model, ':')
			 ? g_strstrip(g_strndup(strchr(model, ':') + 1,
						strcspn(strchr(model, ':') + 1, "\n")))
			 : g_strdup("unknown");
	g_free(cpu);
	return name;
}

json_t *probe_doc(const char *name, const char *file, const char *family, int cores)
{
	char *cpu = cpu_model();
	char *source = g_strdup_printf("memcgsim-probe on this machine (%s)", file);
	json_t *doc = json_pack(
	    "{s:s, s:s, s:s, s:s, s:s, s:{s:s, s:s, s:s, s:n, s:o, s:n, s:n, s:b}}", "format",
	    "memcgsim-measurement-1", "name", name, "source", source, "brief_section",
	    "none: measured here", "read", "directly", "machine", "description",
	    "the machine memcgsim-probe ran on", "cpu", cpu, "family", family, "sockets",
	    "cores_per_socket", cores > 0 ? json_integer(cores) : json_null(), "threads_per_core",
	    "ghz", "virtualised", probe_virtualised());
	g_free(source);
	g_free(cpu);
	return doc;
}

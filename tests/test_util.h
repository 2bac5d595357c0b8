/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers shared by the test programs. */
#pragma once
#include <glib.h>
#include <stdbool.h>

/* Register @body to run in a subprocess of its own: SimGrid allows one
 * simulation per process. */
static void mcs_subprocess_case(gconstpointer body)
{
	if (g_test_subprocess()) {
		((void (*)(void))body)();
		return;
	}
	g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
	g_test_trap_assert_passed();
}

/* A machine of @nodes x @cpus with the cost table's defaults. */
#include "cost.h"
static inline struct sim_machine mcs_test_machine(int nodes, int cpus)
{
	struct sim_machine m = {
	    .nodes = nodes, .cpus_per_node = cpus, .clock_ghz = 2.1, .sched_slice = 750 * SIM_US};
	for (int i = 0; i < COST_N; i++)
		m.cost[i] = sim_from_ns(cost_table[i].default_ns);
	m.context_switch = m.cost[COST_CONTEXT_SWITCH];
	return m;
}

/* The @op accesses at @site to the lines of class @cls. */
#include "cacheline.h"
static inline uint64_t mcs_test_site_ops(const struct line_class *cls, const char *site,
					 enum line_op op)
{
	uint64_t n = 0;
	GPtrArray *sites = line_sites_sorted(cls);
	for (guint i = 0; i < sites->len; i++) {
		const struct line_site *ls = sites->pdata[i];
		if (g_str_equal(ls->site, site))
			n += ls->n.ops[op];
	}
	g_ptr_array_free(sites, TRUE);
	return n;
}

static inline void mcs_test_add_subprocess(const char *path, void (*body)(void))
{
	g_test_add_data_func(path, (gconstpointer)body, mcs_subprocess_case);
}

#include <string.h>
/* Is @line the warning AddressSanitizer prints (under scripts/check/sanitize.sh)
 * when SimGrid switches stacks? It is not memcgsim's output. */
static inline bool mcs_asan_warning(const char *line)
{
	static const char *const warning[] = {
	    "WARNING: ASan is ignoring requested __asan_handle_no_return",
	    "False positive error reports may follow",
	    "For details see https://github.com/google/sanitizers/issues/189", NULL};
	for (const char *const *w = warning; *w; w++)
		if (strstr(line, *w))
			return true;
	return false;
}

/* @s without those lines; g_free it. */
static inline char *mcs_without_asan_warning(const char *s)
{
	char **lines = g_strsplit(s, "\n", -1);
	GString *kept = g_string_new(NULL);
	for (char **l = lines; *l; l++)
		if (!mcs_asan_warning(*l))
			g_string_append_printf(kept, "%s%s", *l, l[1] ? "\n" : "");
	g_strfreev(lines);
	return g_string_free(kept, FALSE);
}

#ifdef MCS_BINARY
#include <sys/wait.h>
/* Run the memcgsim binary with @args (NULL-terminated); its exit status,
 * standard output and error. */
static inline int mcs_cli(const char *const *args, char **out, char **err)
{
	GPtrArray *argv = g_ptr_array_new();
	g_ptr_array_add(argv, (gpointer)MCS_BINARY);
	for (; *args; args++)
		g_ptr_array_add(argv, (gpointer)*args);
	g_ptr_array_add(argv, NULL);
	int status = 0;
	GError *e = NULL;
	g_assert_true(g_spawn_sync(NULL, (char **)argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
				   out, err, &status, &e));
	g_assert_no_error(e);
	g_ptr_array_free(argv, TRUE);
	if (err) { /* what memcgsim printed, less the sanitizer's stack-switch warning */
		char *own = mcs_without_asan_warning(*err);
		g_free(*err);
		*err = own;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

#include <sys/resource.h>
#include <unistd.h>
/* Peak memory is checked against a bound only where it means what it says:
 * not under AddressSanitizer, whose shadow memory and quarantine come on
 * top. */
#if defined(__SANITIZE_ADDRESS__)
#define MCS_RSS_CHECKED 0
#else
#define MCS_RSS_CHECKED 1
#endif

/* mcs_cli() with standard output discarded, and the peak resident memory
 * of the memcgsim process (the most of it and of any process it waited
 * for), in bytes, in *@rss. */
static inline int mcs_cli_rss(const char *const *args, char **err, size_t *rss)
{
	GPtrArray *argv = g_ptr_array_new();
	g_ptr_array_add(argv, (gpointer)MCS_BINARY);
	for (; *args; args++)
		g_ptr_array_add(argv, (gpointer)*args);
	g_ptr_array_add(argv, NULL);
	GPid pid;
	int fd;
	GError *e = NULL;
	g_assert_true(
	    g_spawn_async_with_pipes(NULL, (char **)argv->pdata, NULL,
				     G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL, NULL,
				     NULL, &pid, NULL, NULL, &fd, &e));
	g_assert_no_error(e);
	g_ptr_array_free(argv, TRUE);
	GString *text = g_string_new(NULL);
	char buf[4096];
	ssize_t n;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		g_string_append_len(text, buf, n);
	close(fd);
	int status = 0;
	struct rusage ru;
	g_assert_cmpint(wait4(pid, &status, 0, &ru), ==, pid);
	*rss = (size_t)ru.ru_maxrss * 1024; /* kilobytes on Linux */
	*err = mcs_without_asan_warning(text->str);
	g_string_free(text, TRUE);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
#endif

#include <glib/gstdio.h>
/* Remove @dir and everything under it. */
static inline void mcs_rm_tree(const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *n;
	while (d && (n = g_dir_read_name(d))) {
		char *p = g_build_filename(dir, n, NULL);
		if (g_file_test(p, G_FILE_TEST_IS_DIR))
			mcs_rm_tree(p);
		else
			g_unlink(p);
		g_free(p);
	}
	if (d)
		g_dir_close(d);
	g_rmdir(dir);
}

/* The contents of @path (NULL when it cannot be read). */
static inline char *mcs_slurp(const char *path)
{
	char *text = NULL;
	return g_file_get_contents(path, &text, NULL, NULL) ? text : NULL;
}

/* A scenario that runs in microseconds of simulated time (one CPU, 1 us),
 * written as DIR/tiny.json, for sweeps of many points; g_free the path. */
static inline char *mcs_tiny_scenario(const char *dir)
{
	char *file = g_build_filename(dir, "tiny.json", NULL);
	g_assert_true(g_file_set_contents(
	    file,
	    "{\"name\": \"tiny\", \"machine\": {\"nodes\": 1, \"cpus_per_node\": 1},\n"
	    " \"workloads\": [{\"type\": \"lockbench\", \"cpus\": 1, \"think_ns\": 100, "
	    "\"hold_ns\": 10}],\n"
	    " \"stop\": {\"type\": \"duration\", \"duration_ns\": 1000}}\n",
	    -1, NULL));
	return file;
}

// SPDX-License-Identifier: GPL-2.0-or-later
#include "output.h"
#include "mcs_file.h"
#include <errno.h>
#include <signal.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool refuse(GError **err, const char *what, const char *path, const char *why)
{
	g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT, "%s: %s: %s", what, path, why);
	return false;
}

/* The directory @path would be written in: it exists, is a directory and
 * can be written. */
static bool parent_writable(const char *path, const char *what, GError **err)
{
	char *dir = g_path_get_dirname(path);
	struct stat st;
	char *why = NULL;
	if (stat(dir, &st) != 0)
		why = g_strdup_printf("its directory %s: %s", dir, g_strerror(errno));
	else if (!S_ISDIR(st.st_mode))
		why = g_strdup_printf("its directory %s is %s", dir, mcs_file_kind(st.st_mode));
	else if (access(dir, W_OK) != 0)
		why = g_strdup_printf("its directory %s: %s", dir, g_strerror(errno));
	bool ok = !why || refuse(err, what, path, why);
	g_free(why);
	g_free(dir);
	return ok;
}

/* A symlink's target (which must exist), or @path itself; g_free it. */
static char *output_target(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode))
		return g_strdup(path);
	char *real = realpath(path, NULL); /* NULL when it points nowhere */
	char *target = real ? g_strdup(real) : NULL;
	free(real);
	return target;
}

bool output_check(const char *path, const char *what, GError **err)
{
	if (!path || g_str_equal(path, "-"))
		return true;
	if (!*path)
		return refuse(err, what, "\"\"", "expected a file name");
	char *target = output_target(path);
	if (!target)
		return refuse(err, what, path, "a symbolic link to nothing");
	struct stat st;
	bool ok = true;
	if (stat(target, &st) == 0 && !S_ISREG(st.st_mode)) {
		char *why = g_strdup_printf("%s, not a regular file: refusing to replace it",
					    mcs_file_kind(st.st_mode));
		ok = refuse(err, what, path, why);
		g_free(why);
	}
	ok = ok && parent_writable(target, what, err);
	g_free(target);
	return ok;
}

bool output_check_dir(const char *path, const char *what, GError **err)
{
	if (!path || !*path)
		return refuse(err, what, "\"\"", "expected a directory name");
	struct stat st;
	if (stat(path, &st) != 0)
		return parent_writable(path, what, err);
	if (!S_ISDIR(st.st_mode)) {
		char *why = g_strdup_printf("%s, not a directory", mcs_file_kind(st.st_mode));
		bool ok = refuse(err, what, path, why);
		g_free(why);
		return ok;
	}
	return access(path, W_OK) == 0 || refuse(err, what, path, "cannot write in it");
}

gboolean output_write(const char *path, const char *data, gsize len, GError **err)
{
	if (!path || g_str_equal(path, "-")) {
		fwrite(data, 1, len, stdout);
		return fflush(stdout) == 0;
	}
	return output_file(path, data, (gssize)len, err);
}

bool output_file(const char *path, const char *data, gssize len, GError **err)
{
	/* g_file_set_contents writes a temporary file and renames it: over a
	 * symlink's target, not the link. */
	char *target = output_target(path);
	GError *e = NULL;
	bool ok = g_file_set_contents(target ? target : path, data, len, &e) ||
		  output_failure(err, e);
	g_free(target);
	return ok;
}

bool output_failure(GError **err, GError *e)
{
	g_set_error_literal(err, MCS_ERROR, MCS_ERROR_FAILED, e->message);
	g_error_free(e);
	return false;
}

void output_remove_files(const char *dir, const char *part)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *n;
	while (d && (n = g_dir_read_name(d)))
		if (!part || strstr(n, part)) {
			char *p = g_build_filename(dir, n, NULL);
			g_unlink(p);
			g_free(p);
		}
	if (d)
		g_dir_close(d);
}

static volatile sig_atomic_t got_signal;
static GHashTable *temps; /* path -> GINT_TO_POINTER(is_dir + 1) */

static void on_signal(int sig)
{
	got_signal = sig;
}

void output_signals_install(void)
{
	struct sigaction sa = {0};
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: waitpid returns EINTR */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static int timeout_s;

void output_timeout_start(int seconds)
{
	timeout_s = seconds;
	if (seconds > 0) {
		struct sigaction sa = {0};
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGALRM, &sa, NULL);
		alarm((unsigned)seconds);
	}
}

int output_timeout(void)
{
	return timeout_s;
}

int output_interrupted(void)
{
	return got_signal;
}

void output_temp_add(const char *path, bool is_dir)
{
	if (!temps)
		temps = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_hash_table_insert(temps, g_strdup(path), GINT_TO_POINTER(is_dir + 1));
}

void output_temp_done(const char *path)
{
	if (temps)
		g_hash_table_remove(temps, path);
}

void output_temps_remove(void)
{
	if (!temps)
		return;
	GHashTableIter it;
	gpointer k, v;
	g_hash_table_iter_init(&it, temps);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		if (GPOINTER_TO_INT(v) == 2) {
			output_remove_files(k, NULL);
			g_rmdir(k);
		} else {
			g_unlink(k);
		}
	}
	g_hash_table_remove_all(temps);
}

void output_shell_arg(GString *cmd, const char *arg)
{
	bool plain = *arg != '\0';
	for (const char *p = arg; *p && plain; p++)
		plain = g_ascii_isalnum(*p) || strchr("_./=:,+-@%", *p);
	char *q = plain ? NULL : g_shell_quote(arg);
	g_string_append_printf(cmd, " %s", plain ? arg : q);
	g_free(q);
}

// SPDX-License-Identifier: GPL-2.0-or-later
#include "output.h"
#include "mcs_file.h"
#include "output_dir.h"
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static volatile sig_atomic_t got_signal;
/* an output was put in place (renamed over its destination) */
static volatile sig_atomic_t in_place;
static volatile sig_atomic_t temps_held; /* temporaries registered */
static int timeout_s;

/* "WHAT: PATH: WHY", or "PATH: WHY" when @what is NULL (a writer that does
 * not know the option that named the path). */
static bool refuse(GError **err, const char *what, const char *path, const char *why)
{
	if (what)
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT, "%s: %s: %s", what, path, why);
	else
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT, "%s: %s", path, why);
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

char *output_link_target(const char *path)
{
	char *cur = g_strdup(path);
	struct stat st;
	/* each link read and joined to its directory: no realpath(), which
	 * fails on a path longer than PATH_MAX (a deep working directory) */
	for (int hops = 0; hops <= 40; hops++) {
		if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) {
			if (!hops || stat(cur, &st) == 0)
				return cur;
			break; /* the last link leads nowhere */
		}
		char *link = g_file_read_link(cur, NULL);
		char *dir = g_path_get_dirname(cur);
		g_free(cur);
		cur = !link			 ? NULL
		      : g_path_is_absolute(link) ? g_strdup(link)
						 : g_build_filename(dir, link, NULL);
		g_free(dir);
		g_free(link);
		if (!cur)
			return NULL;
	}
	g_free(cur); /* nowhere, or a loop */
	return NULL;
}

/* What @path is, followed through a symlink when @follow (a path the user
 * named, as -o), or as it is (a file inside an output directory, which the
 * tool never writes through a link): 0 when it exists, else errno. */
static int output_stat(const char *path, bool follow, struct stat *st)
{
	return (follow ? stat(path, st) : lstat(path, st)) == 0 ? 0 : errno;
}

static bool refuse_kind(GError **err, const char *what, const char *path, unsigned mode)
{
	char *why =
	    g_strdup_printf("%s, not a regular file: refusing to replace it", mcs_file_kind(mode));
	refuse(err, what, path, why);
	g_free(why);
	errno = EEXIST;
	return false;
}

bool output_check(const char *path, const char *what, GError **err)
{
	if (!path || g_str_equal(path, "-"))
		return true;
	if (!*path)
		return refuse(err, what, "\"\"", "expected a file name");
	char *target = output_link_target(path);
	if (!target)
		return refuse(err, what, path, "a symbolic link to nothing");
	struct stat st;
	bool ok = true;
	int e = output_stat(target, true, &st);
	if (e == 0 && S_ISCHR(st.st_mode)) /* /dev/null, a terminal: written into */
		ok = access(target, W_OK) == 0 || refuse(err, what, path, g_strerror(errno));
	else if (e == 0 && !S_ISREG(st.st_mode))
		ok = refuse_kind(err, what, path, st.st_mode);
	else
		ok = parent_writable(target, what, err);
	g_free(target);
	return ok;
}

bool output_check_dir(const char *path, const char *what, GError **err)
{
	if (!path || !*path)
		return refuse(err, what, "\"\"", "expected a directory name");
	struct stat st;
	if (stat(path, &st) != 0) {
		/* "demo/" is made in "." as "demo" is: its parent is not "demo" */
		char *bare = g_strdup(path);
		for (size_t n = strlen(bare); n > 1 && bare[n - 1] == '/'; n--)
			bare[n - 1] = '\0';
		bool ok = parent_writable(bare, what, err);
		g_free(bare);
		return ok;
	}
	if (!S_ISDIR(st.st_mode)) {
		char *why = g_strdup_printf("%s, not a directory", mcs_file_kind(st.st_mode));
		bool ok = refuse(err, what, path, why);
		g_free(why);
		return ok;
	}
	return access(path, W_OK) == 0 || refuse(err, what, path, "cannot write in it");
}

static bool fail_errno(GError **err, const char *name, const char *doing, int e)
{
	g_set_error(err, MCS_ERROR, MCS_ERROR_FAILED, "%s: %s%s", name, doing, g_strerror(e));
	errno = e;
	return false;
}

bool output_fd_put(int fd, const char *name, const void *data, size_t len, GError **err)
{
	const char *p = data;
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return fail_errno(err, name, "cannot write: ", n < 0 ? errno : EIO);
		p += n;
		len -= (size_t)n;
	}
	return true;
}

/* In the owned directory @o->dir_fd: DEST.tmp.XXXXXX, made afresh. */
static int temp_at(struct output *o, char **name)
{
	for (int tries = 0; tries < 100; tries++) {
		*name = g_strdup_printf("%s.tmp.%06X", o->base, g_random_int() & 0xffffff);
		int fd = openat(o->dir_fd, *name,
				O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd >= 0 || errno != EEXIST)
			return fd;
		g_clear_pointer(name, g_free);
	}
	errno = EEXIST;
	return -1;
}

/* The temporary beside @dest: created, never opened through anything that
 * was there (O_EXCL), removed if interrupted; in an owned directory,
 * through its descriptor (output_dir.h). */
static bool output_temp_open(struct output *o, const char *dest, GError **err)
{
	o->dir_fd = o->owned ? output_dir_of(dest, &o->base, err) : -1;
	if (o->dir_fd == -2)
		return false;
	if (o->dir_fd >= 0) {
		char *name = NULL, *dir = g_path_get_dirname(dest);
		o->fd = temp_at(o, &name);
		o->tmp = o->fd >= 0 ? g_build_filename(dir, name, NULL) : NULL;
		g_free(dir);
		g_free(name);
	} else {
		o->tmp = g_strdup_printf("%s.tmp.XXXXXX", dest);
		o->fd = g_mkstemp_full(o->tmp, O_WRONLY | O_CLOEXEC, 0666);
	}
	if (o->fd < 0) {
		fail_errno(err, dest, "", errno);
		g_clear_pointer(&o->tmp, g_free);
		return false;
	}
	output_temp_add(o->tmp, false);
	o->dest = g_strdup(dest);
	return true;
}

bool output_open(struct output *o, const char *path, bool owned, GError **err)
{
	*o = (struct output){.fd = -1, .owned = owned, .dir_fd = -1};
	if (!owned && (!path || g_str_equal(path, "-"))) {
		fflush(stdout);
		o->fd = STDOUT_FILENO;
		o->name = g_strdup("standard output");
		return true;
	}
	o->name = g_strdup(path);
	char *target = owned ? g_strdup(path) : output_link_target(path);
	struct stat st;
	bool ok = true;
	if (!target)
		ok = refuse(err, NULL, path, "a symbolic link to nothing"); /* -o or --trace */
	else if (output_stat(target, !owned, &st) != 0)
		ok = output_temp_open(o, target, err);
	else if (!owned && S_ISCHR(st.st_mode)) {
		o->fd = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
		ok = o->fd >= 0 || fail_errno(err, path, "", errno);
	} else if (!S_ISREG(st.st_mode))
		ok = refuse_kind(err, NULL, path, st.st_mode);
	else if ((ok = output_temp_open(o, target, err)) && !owned &&
		 fchmod(o->fd, st.st_mode & 0777) != 0) /* the replaced file's mode kept */
		ok = fail_errno(err, path, "", errno);
	g_free(target);
	if (!ok)
		output_abort(o);
	return ok;
}

bool output_put(struct output *o, const void *data, size_t len, GError **err)
{
	return output_fd_put(o->fd, o->name, data, len, err);
}

void output_abort(struct output *o)
{
	int e = errno;
	if (o->fd > STDOUT_FILENO)
		close(o->fd);
	if (o->tmp) {
		char *name = o->dir_fd >= 0 ? g_path_get_basename(o->tmp) : NULL;
		if (name)
			unlinkat(o->dir_fd, name, 0);
		else
			g_unlink(o->tmp);
		g_free(name);
		output_temp_done(o->tmp);
	}
	g_clear_pointer(&o->tmp, g_free);
	g_clear_pointer(&o->base, g_free);
	g_clear_pointer(&o->dest, g_free);
	g_clear_pointer(&o->name, g_free);
	o->fd = -1;
	errno = e;
}

/* The test hook: MEMCGSIM_TEST_SIGNAL_AT=SIG:NAME raises SIG just before
 * NAME is put in place (or read); SIG:NAME:after just after it is. */
static void signal_hook(const char *dest, bool after)
{
	const char *at = g_getenv("MEMCGSIM_TEST_SIGNAL_AT");
	const char *colon = at ? strchr(at, ':') : NULL;
	if (!colon)
		return;
	char *base = g_path_get_basename(dest), *want = g_strdup(colon + 1);
	size_t n = strlen(want);
	bool wants_after = n > 6 && g_str_equal(want + n - 6, ":after");
	if (wants_after)
		want[n - 6] = '\0';
	if (wants_after == after && g_str_equal(base, want))
		raise(atoi(at));
	g_free(want);
	g_free(base);
}

void output_test_signal_at(const char *dest)
{
	signal_hook(dest, false);
}

bool output_interrupt_error(const char *name, GError **err)
{
	g_clear_error(err);
	GString *m = g_string_new(NULL);
	if (name)
		g_string_printf(m, "%s: left as it was: ", name);
	if (got_signal == SIGALRM)
		g_string_append_printf(m, "timed out after %d s (--timeout)", timeout_s);
	else
		g_string_append_printf(m, "interrupted by signal %d (%s)", (int)got_signal,
				       g_strsignal(got_signal));
	g_set_error_literal(err, MCS_ERROR, MCS_ERROR_FAILED, m->str);
	g_string_free(m, TRUE);
	return false;
}

bool output_go_on(GError **err)
{
	return !got_signal || output_interrupt_error(NULL, err);
}

/* Nothing is put in place once a signal or --timeout has come. */
static bool output_may_replace(const char *dest, const char *name, GError **err)
{
	output_test_signal_at(dest);
	return !got_signal || output_interrupt_error(name, err);
}

/* What is at @o's destination now (lstat; in an owned directory, through
 * its descriptor, whose name must still lead to it). */
static int dest_stat(struct output *o, struct stat *st, GError **err)
{
	if (o->dir_fd < 0)
		return output_stat(o->dest, false, st);
	char *base = NULL;
	if (output_dir_of(o->dest, &base, err) == -2)
		return -2;
	g_free(base);
	return fstatat(o->dir_fd, o->base, st, AT_SYMLINK_NOFOLLOW);
}

static int dest_rename(struct output *o)
{
	if (o->dir_fd < 0)
		return rename(o->tmp, o->dest);
	char *name = g_path_get_basename(o->tmp);
	int r = renameat(o->dir_fd, name, o->dir_fd, o->base);
	g_free(name);
	return r;
}

bool output_commit(struct output *o, GError **err)
{
	bool ok = true;
	struct stat st;
	if (o->fd > STDOUT_FILENO && close(o->fd) != 0)
		ok = fail_errno(err, o->name, "cannot write: ", errno);
	o->fd = -1;
	/* what came to be at the destination since the check is refused too,
	 * and so is an owned directory replaced since */
	int there = ok && o->dest ? dest_stat(o, &st, err) : -1;
	if (there == -2)
		ok = false;
	else if (there == 0 && !S_ISREG(st.st_mode) && (o->owned || !S_ISLNK(st.st_mode)))
		ok = refuse_kind(err, NULL, o->name, st.st_mode);
	if (ok && o->dest && !output_may_replace(o->dest, o->name, err))
		ok = false;
	else if (ok && o->dest && dest_rename(o) != 0)
		ok = fail_errno(err, o->name, "", errno);
	if (ok && o->tmp) {
		output_temp_done(o->tmp);
		g_clear_pointer(&o->tmp, g_free);
	}
	in_place = in_place || (ok && o->dest) ? 1 : 0;
	if (ok && o->dest)
		signal_hook(o->dest, true);
	output_abort(o);
	return ok;
}

bool output_any_in_place(void)
{
	return in_place;
}

/* Open @path, @len bytes of @data, commit: the whole of it or nothing. */
static bool output_whole(const char *path, bool owned, const char *data, gssize len, GError **err)
{
	struct output o;
	size_t n = len < 0 ? strlen(data) : (size_t)len;
	if (!output_open(&o, path, owned, err))
		return false;
	if (!output_put(&o, data, n, err)) {
		output_abort(&o);
		return false;
	}
	return output_commit(&o, err);
}

gboolean output_write(const char *path, const char *data, gsize len, GError **err)
{
	return output_whole(path, false, data, (gssize)len, err);
}

bool output_file(const char *path, const char *data, gssize len, GError **err)
{
	return output_whole(path, true, data, len, err);
}

bool output_move(const char *from, const char *to, GError **err)
{
	struct stat st;
	if (output_stat(to, false, &st) == 0 && !S_ISREG(st.st_mode))
		return refuse_kind(err, NULL, to, st.st_mode);
	if (!output_may_replace(to, to, err))
		return false;
	return rename(from, to) == 0 || fail_errno(err, to, "", errno);
}

bool output_check_owned(const char *path, bool is_dir, GError **err)
{
	struct stat st;
	if (output_stat(path, false, &st) != 0 ||
	    (is_dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode)))
		return true;
	if (!is_dir)
		return refuse_kind(err, NULL, path, st.st_mode);
	g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
		    "%s: %s, not a directory: refusing to write in it", path,
		    mcs_file_kind(st.st_mode));
	return false;
}

int output_lock_open(const char *path, GError **err)
{
	struct stat st;
	if (output_stat(path, false, &st) == 0 && !S_ISREG(st.st_mode)) {
		refuse_kind(err, NULL, path, st.st_mode);
		return -1;
	}
	/* O_NOFOLLOW, O_NONBLOCK: what took its place since is not followed or
	 * waited on; nothing in it is truncated here */
	int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
	if (fd < 0) {
		fail_errno(err, path, "", errno);
		return -1;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		refuse_kind(err, NULL, path, st.st_mode);
		close(fd);
		return -1;
	}
	/* a hard link would make the pid written into it land in a file
	 * outside the directory */
	if (st.st_nlink > 1) {
		uintmax_t others = (uintmax_t)st.st_nlink - 1;
		g_set_error(
		    err, MCS_ERROR, MCS_ERROR_INPUT,
		    "%s: has %ju other hard link%s: refusing to write it (remove it, and the "
		    "sweep makes its own)",
		    path, others, others == 1 ? "" : "s");
		close(fd);
		return -1;
	}
	return fd;
}

char *output_temp_beside(const char *path, GError **err)
{
	char *target = output_link_target(path);
	struct stat st;
	bool direct =
	    !target || g_str_equal(path, "-") || (stat(target, &st) == 0 && !S_ISREG(st.st_mode));
	char *tmp = NULL;
	int fd;
	if (direct) {
		fd = mcs_tmp_file("memcgsim.tmp.XXXXXX", &tmp, err);
	} else {
		tmp = g_strdup_printf("%s.tmp.XXXXXX", target);
		fd = g_mkstemp_full(tmp, O_WRONLY | O_CLOEXEC, 0666);
		if (fd < 0) {
			fail_errno(err, target, "", errno);
			g_clear_pointer(&tmp, g_free);
		}
	}
	if (fd >= 0) {
		close(fd);
		output_temp_add(tmp, false);
	}
	g_free(target);
	return tmp;
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

static GHashTable *temps; /* path -> GINT_TO_POINTER(is_dir + 1) */

/* What a signal abandoning the work says (mcs_file_abandonable), made
 * before it can come: the handler only writes it. */
static char abandon_say[3][64];
static const int abandon_signals[3] = {SIGINT, SIGTERM, SIGHUP};
static pid_t main_pid; /* not a runner's child, which inherits the handler */

/* A signal records itself for the command to stop at its next step; in
 * work it may abandon (nothing written, nothing to tidy), the command ends
 * there and then, saying so and dying of the signal. */
static void on_signal(int sig)
{
	got_signal = sig;
	if (sig == SIGALRM || !mcs_file_abandonable() || temps_held || in_place ||
	    getpid() != main_pid)
		return;
	for (int i = 0; i < 3; i++)
		if (abandon_signals[i] == sig &&
		    write(STDERR_FILENO, abandon_say[i], strlen(abandon_say[i])) < 0)
			break; /* nothing to do about it: dying anyway */
	signal(sig, SIG_DFL);
	raise(sig);
}

static bool signal_came(void)
{
	return got_signal != 0;
}

void output_signals_install(void)
{
	mcs_file_stop_when(signal_came); /* reading an input stops at once */
	main_pid = getpid();
	for (int i = 0; i < 3; i++)
		g_snprintf(abandon_say[i], sizeof(abandon_say[i]),
			   "memcgsim: interrupted by signal %d (%s)\n", abandon_signals[i],
			   g_strsignal(abandon_signals[i]));
	struct sigaction sa = {0};
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: waitpid returns EINTR */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

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
	temps_held++; /* first: a signal in between must not abandon it */
	g_hash_table_insert(temps, g_strdup(path), GINT_TO_POINTER(is_dir + 1));
	temps_held = (sig_atomic_t)g_hash_table_size(temps);
}

void output_temp_done(const char *path)
{
	if (temps)
		g_hash_table_remove(temps, path);
	temps_held = temps ? (sig_atomic_t)g_hash_table_size(temps) : 0;
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
	temps_held = 0;
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

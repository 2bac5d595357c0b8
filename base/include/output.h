/* SPDX-License-Identifier: GPL-2.0-or-later */
/* output: writing a report or result to a file atomically (a temporary file
 * beside it, renamed over it), or to standard output. */
#pragma once
#include "mcs_error.h"
#include <glib.h>
#include <stdbool.h>

/* Every file the tool writes goes through here. A path the user named (-o,
 * --trace): "-" (or NULL) is standard output and a character device
 * (/dev/null) is written into directly; a regular file, or none, is
 * replaced atomically (a temporary beside it, renamed over it; through a
 * symlink: its target); a FIFO, a directory, a socket or a block device is
 * refused. A file inside an output directory (a sweep's lock, runs and
 * result, plots) is "owned": it is replaced only when absent or a regular
 * file, never opened through a symlink, never truncated before it is
 * checked. Every byte is checked: a failed or short write is
 * MCS_ERROR_FAILED "PATH: cannot write: WHY", and nothing half-written is
 * left where the output was expected. */

/* Before any work: can @path (the value of option @what, "-o") be
 * written? NULL or "-" (standard output) can, and so can a character
 * device. A path that exists must otherwise be a regular file, or a symlink
 * to one (its target is what is replaced); its directory must exist and be
 * writable. Otherwise MCS_ERROR_INPUT:
 * "-o: r.txt: a FIFO, not a regular file: refusing to replace it". */
bool output_check(const char *path, const char *what, GError **err);
/* The same for a directory an output goes into (--plots, --out): it is a
 * directory, or it does not exist and its parent is a writable directory. */
bool output_check_dir(const char *path, const char *what, GError **err);

/* An output being written. */
struct output {
	char *name; /* for errors: the path, or "standard output" */
	char *dest; /* what the temporary replaces; NULL: written directly */
	char *tmp;  /* the temporary, DEST.tmp.XXXXXX */
	int fd;
	bool owned; /* inside an output directory */
	int dir_fd; /* the owned directory it is made in (output_dir.h), or -1 */
	char *base; /* then: DEST's name in it */
};
/* Start writing @path (@owned: a file inside an output directory); false
 * with @err when it is refused (MCS_ERROR_INPUT, "PATH: a FIFO, not a
 * regular file: refusing to replace it") or cannot be made. */
bool output_open(struct output *o, const char *path, bool owned, GError **err);
bool output_put(struct output *o, const void *data, size_t len, GError **err);
/* Close and put it in place (checked again); false with @err, the
 * temporary removed, when that fails or a signal or --timeout came
 * (output_interrupt_error). output_abort: give up, remove it. */
bool output_commit(struct output *o, GError **err);
/* Has an output been put in place? A command that succeeded with its
 * outputs in place before a signal came exits normally (cli/memcgsim.c). */
bool output_any_in_place(void);
void output_abort(struct output *o);
/* All of @len bytes of @data to the descriptor @fd, @name in the error; on
 * failure errno says why (as after every function here that fails). */
bool output_fd_put(int fd, const char *name, const void *data, size_t len, GError **err);

/* @path NULL or "-": standard output; else a path the user named. */
gboolean output_write(const char *path, const char *data, gsize len, GError **err);
/* Write @data (@len bytes; -1: up to its NUL) to the owned file @path
 * atomically; false with @err when it cannot. */
bool output_file(const char *path, const char *data, gssize len, GError **err);
/* Rename the tool's own file @from to the owned path @to. */
bool output_move(const char *from, const char *to, GError **err);
/* Before writing in an output directory: its owned @path is absent, or a
 * regular file (@is_dir: a directory), not a symlink; else MCS_ERROR_INPUT. */
bool output_check_owned(const char *path, bool is_dir, GError **err);
/* Open (made if missing) the lock file @path for reading and writing: a
 * regular file, not through a symlink, not truncated; the descriptor, or
 * -1 with @err. */
int output_lock_open(const char *path, GError **err);
/* A new empty temporary file for what will become @path (a path the user
 * named): beside it, or in TMPDIR when @path is standard output or a
 * device; registered to be removed if interrupted. g_free it; NULL with
 * @err. */
char *output_temp_beside(const char *path, GError **err);
/* Where @path leads: @path itself when it is not a symbolic link, else the
 * file its links end at (which must exist), each relative link joined to
 * its link's directory; NULL when they end nowhere or loop. g_free it. */
char *output_link_target(const char *path);
/* Remove the files in @dir whose names contain @part (NULL: every file). */
void output_remove_files(const char *dir, const char *part);

/* Signals and temporaries. output_signals_install() makes SIGINT, SIGTERM
 * and SIGHUP interrupt what is waiting (no SA_RESTART) and records which
 * came; the runner then stops its children and fails, and the CLI removes
 * the registered temporaries and dies of the same signal, leaving every
 * output as it was. */
void output_signals_install(void);
/* --timeout: SIGALRM after @seconds (0: never) interrupts as a signal
 * would; the runner's error then says it timed out. */
void output_timeout_start(int seconds);
int output_timeout(void);
/* The signal that came, or 0. */
int output_interrupted(void);
/* After a signal or --timeout: false with @err (MCS_ERROR_FAILED, any
 * error there replaced) saying which: "interrupted by signal 2
 * (Interrupt)", "timed out after 5 s (--timeout)", after "NAME: left as it
 * was: " when @name is not NULL. output_commit() and output_move() refuse
 * so to put anything in place once one came. */
bool output_interrupt_error(const char *name, GError **err);
/* true while no signal came; else output_interrupt_error(NULL, @err), for
 * a long phase to stop at. */
bool output_go_on(GError **err);
/* Tests only: MEMCGSIM_TEST_SIGNAL_AT=SIG:NAME raises SIG just before a
 * file named NAME (its last component) would be put in place, the latest
 * moment an interruption can come, and when an input of that name (a
 * result, a run file) has been read, before it is parsed (docs/testing.md). */
void output_test_signal_at(const char *path);
/* A temporary file (or, @is_dir, a directory of files) to remove if
 * interrupted; output_temp_done() when it is gone or kept. */
void output_temp_add(const char *path, bool is_dir);
void output_temp_done(const char *path);
/* Remove every registered temporary (after an interruption). */
void output_temps_remove(void);
/* " ARG" after a command: ARG as it is when the shell would take it so,
 * else in single quotes. */
void output_shell_arg(GString *cmd, const char *arg);

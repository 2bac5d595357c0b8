/* SPDX-License-Identifier: GPL-2.0-or-later */
/* output: writing a report or result to a file atomically (a temporary file
 * beside it, renamed over it), or to standard output. */
#pragma once
#include "mcs_error.h"
#include <glib.h>
#include <stdbool.h>

/* Before any work: can @path (the value of option @what, "-o") be
 * written? NULL or "-" (standard output) can. A path that exists must be a
 * regular file, or a symlink to one (its target is what is replaced); its
 * directory must exist and be writable. Otherwise MCS_ERROR_INPUT:
 * "-o: r.txt: a FIFO, not a regular file: refusing to replace it". */
bool output_check(const char *path, const char *what, GError **err);
/* The same for a directory an output goes into (--plots, --out): it is a
 * directory, or it does not exist and its parent is a writable directory. */
bool output_check_dir(const char *path, const char *what, GError **err);

/* @path NULL or "-": standard output. */
gboolean output_write(const char *path, const char *data, gsize len, GError **err);
/* Write @data (@len bytes; -1: up to its NUL) to the file @path atomically
 * (through a symlink: to its target); false with @err (MCS_ERROR_FAILED)
 * when it cannot. */
bool output_file(const char *path, const char *data, gssize len, GError **err);
/* @e, the error of a GLib file operation, as the failure it is here:
 * MCS_ERROR_FAILED, with GLib's message. Frees @e; returns false. */
bool output_failure(GError **err, GError *e);
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
/* A temporary file (or, @is_dir, a directory of files) to remove if
 * interrupted; output_temp_done() when it is gone or kept. */
void output_temp_add(const char *path, bool is_dir);
void output_temp_done(const char *path);
/* Remove every registered temporary (after an interruption). */
void output_temps_remove(void);
/* " ARG" after a command: ARG as it is when the shell would take it so,
 * else in single quotes. */
void output_shell_arg(GString *cmd, const char *arg);

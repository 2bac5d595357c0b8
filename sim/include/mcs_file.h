/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mcs_file: reading an input file with its size limit applied while
 * reading. Only a regular file is read: a FIFO, a device, a socket or a
 * directory is refused at once (opened without blocking), and a file that
 * grows past the limit while it is read is refused when it passes it. */
#pragma once
#include "mcs_error.h"
#include <stdbool.h>

/* Read @path (at most @max bytes) into *@text (NUL-terminated, g_free it)
 * and *@len. On failure MCS_ERROR_INPUT with what was wrong, without the
 * path: "not a regular file (a FIFO)", "more than 4194304 bytes", or the
 * system's message. */
bool mcs_file_read(const char *path, gsize max, char **text, gsize *len, GError **err);
/* The same for an input the user named: on failure the error is
 * "PATH:1:1: (root): cannot read: WHY", as the other input errors are
 * placed. The text (g_free it), or NULL. */
char *mcs_file_read_input(const char *path, gsize max, gsize *len, GError **err);
/* What kind of file @mode is, for messages: "a FIFO", "a directory" ... */
const char *mcs_file_kind(unsigned mode);

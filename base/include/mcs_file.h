/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mcs_file: reading an input file with its size limit applied while
 * reading. Only a regular file is read: a FIFO, a device, a socket or a
 * directory is refused at once (opened without blocking), and a file that
 * grows past the limit while it is read is refused when it passes it. */
#pragma once
#include "mcs_error.h"
#include <jansson.h>
#include <stdbool.h>

/* Read @path (at most @max bytes) into *@text (NUL-terminated, g_free it)
 * and *@len. On failure MCS_ERROR_INPUT with what was wrong, without the
 * path: "not a regular file (a FIFO)", "more than 4194304 bytes", or the
 * system's message. */
bool mcs_file_read(const char *path, gsize max, char **text, gsize *len, GError **err);
/* The same for a file inside a directory the tool writes (a sweep's run
 * files, sweep.json, result.json): a symbolic link is not followed but
 * refused, "not a regular file (a symbolic link)", its target unread. */
bool mcs_file_read_owned(const char *path, gsize max, char **text, gsize *len, GError **err);
/* The same for an input the user named: on failure the error is
 * "PATH:1:1: (root): cannot read: WHY", as the other input errors are
 * placed. The text (g_free it), or NULL. */
char *mcs_file_read_input(const char *path, gsize max, gsize *len, GError **err);
/* What kind of file @mode is, for messages: "a FIFO", "a directory" ... */
const char *mcs_file_kind(unsigned mode);

/* A new temporary file (mode 0600) or directory (0700) in TMPDIR or /tmp,
 * named from @templ ("memcgsim-run-XXXXXX.json"): its descriptor and path
 * (g_free it), or the path (g_free it); -1 or NULL with @err naming TMPDIR
 * and why. Not registered as a temporary: the caller does that. */
int mcs_tmp_file(const char *templ, char **path, GError **err);
char *mcs_tmp_dir(const char *templ, GError **err);

/* Parse @len bytes of @text as jansson's json_loadb(@flags) would, building
 * at most @max_parsed bytes of JSON values (what jansson allocates, with
 * malloc's own overhead: 5 to 7 times the text for a result, up to 80 times
 * for a text of empty objects). NULL with @err set when it would take more
 * (MCS_ERROR_INPUT, "needs more than N MiB once parsed (the most read
 * here)") or the stop function said to stop (MCS_ERROR_FAILED,
 * "interrupted"; what was parsed is left unfreed, for the command dies of
 * the signal); NULL with @err unset and @je jansson's error when the
 * text is not JSON. Not for two threads at once: it counts jansson's
 * allocations while it parses. */
json_t *mcs_file_parse(const char *text, gsize len, size_t flags, gsize max_parsed,
		       json_error_t *je, GError **err);
/* What tells reading and parsing an input to stop at once (a signal came):
 * called between chunks read and at every allocation of a parse. */
void mcs_file_stop_when(bool (*stop)(void));
/* Work a signal may abandon at once (loading a scenario: seconds for a
 * hostile 4 MiB one, with nothing written and nothing to tidy): between
 * begin and end, nested, mcs_file_abandonable() is true, and the signal
 * handler (output.h) ends the command there and then unless it holds a
 * temporary or has put an output in place. Async-signal-safe to read. */
void mcs_file_abandonable_begin(void);
void mcs_file_abandonable_end(void);
bool mcs_file_abandonable(void);

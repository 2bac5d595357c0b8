/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mcs_error: the project's GError domain. Every layer reports failures as a
 * GError in this domain; the code says what kind of failure it is, and only
 * the command line (cli/) turns it into an exit status and prints it. */
#pragma once
#include <glib.h>

#define MCS_ERROR (mcs_error_quark())
GQuark mcs_error_quark(void);

enum mcs_error_code {
	MCS_ERROR_FAILED = 1, /* a simulation, a child process or an output failed: exit 1 */
	MCS_ERROR_INPUT = 2,  /* bad usage or bad input; nothing was written: exit 2 */
};

/* The longest message shown, in characters; a longer one is cut at a
 * character boundary and ends in "...". */
#define MCS_MESSAGE_MAX 2000

/* @msg as it may reach a terminal: valid UTF-8 (a byte that is not part of
 * a valid sequence as \xNN), no control characters (C0 but tab, DEL, C1:
 * \xNN, or \u00NN for C1), at most MCS_MESSAGE_MAX characters. g_free it. */
char *mcs_error_printable(const char *msg);
/* @len bytes of @text, lines and all, appended to @out escaped the same way
 * (line breaks kept, no length bound): a report made from a hand-edited
 * result cannot send a terminal an escape sequence. */
void mcs_text_printable_append(GString *out, const char *text, gsize len);

// SPDX-License-Identifier: GPL-2.0-or-later
#include "mcs_error.h"
#include <stdbool.h>
#include <string.h>

G_DEFINE_QUARK(memcgsim_scenario_error, mcs_error)

/* A code point a terminal would act on rather than show. */
static bool is_control(gunichar c)
{
	return (c < 0x20 && c != '\t') || c == 0x7f || (c >= 0x80 && c < 0xa0);
}

char *mcs_error_printable(const char *msg)
{
	GString *out = g_string_new(NULL);
	const char *p = msg, *end = msg + strlen(msg);
	for (long chars = 0; p < end; chars++) {
		if (chars == MCS_MESSAGE_MAX) {
			g_string_append(out, "...");
			break;
		}
		gunichar c = g_utf8_get_char_validated(p, end - p);
		if (c == (gunichar)-1 || c == (gunichar)-2) { /* not UTF-8: the byte */
			g_string_append_printf(out, "\\x%02x", (unsigned char)*p++);
			continue;
		}
		const char *next = g_utf8_next_char(p);
		if (is_control(c))
			g_string_append_printf(out, c < 0x80 ? "\\x%02x" : "\\u%04x", (unsigned)c);
		else
			g_string_append_len(out, p, next - p);
		p = next;
	}
	return g_string_free(out, FALSE);
}

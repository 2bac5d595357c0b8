// SPDX-License-Identifier: GPL-2.0-or-later
#include "mcs_error.h"
#include <stdbool.h>
#include <string.h>

G_DEFINE_QUARK(memcgsim_scenario_error, mcs_error)

/* A code point a terminal would act on rather than show (@newline: a line
 * break is kept), or one it shows as nothing: a format character (a byte
 * order mark, a zero-width space, a bidirectional override) or a line or
 * paragraph separator. */
static bool is_control(gunichar c, bool newline)
{
	GUnicodeType t = g_unichar_type(c);
	return (c < 0x20 && c != '\t' && !(newline && c == '\n')) || c == 0x7f ||
	       (c >= 0x80 && c < 0xa0) || t == G_UNICODE_FORMAT || t == G_UNICODE_LINE_SEPARATOR ||
	       t == G_UNICODE_PARAGRAPH_SEPARATOR;
}

/* @len bytes of @s onto @out, escaped as mcs_error_printable says; at most
 * @max characters (-1: all) and then "...". */
static void printable_append(GString *out, const char *s, gsize len, long max, bool newline)
{
	const char *p = s, *end = s + len;
	for (long chars = 0; p < end; chars++) {
		if (chars == max) {
			g_string_append(out, "...");
			break;
		}
		gunichar c = g_utf8_get_char_validated(p, end - p);
		if (c == (gunichar)-1 || c == (gunichar)-2) { /* not UTF-8: the byte */
			g_string_append_printf(out, "\\x%02x", (unsigned char)*p++);
			continue;
		}
		const char *next = g_utf8_next_char(p);
		if (is_control(c, newline))
			g_string_append_printf(out, c < 0x80 ? "\\x%02x" : "\\u%04x", (unsigned)c);
		else
			g_string_append_len(out, p, next - p);
		p = next;
	}
}

char *mcs_error_printable(const char *msg)
{
	GString *out = g_string_new(NULL);
	printable_append(out, msg, strlen(msg), MCS_MESSAGE_MAX, false);
	return g_string_free(out, FALSE);
}

void mcs_text_printable_append(GString *out, const char *text, gsize len)
{
	printable_append(out, text, len, -1, true);
}

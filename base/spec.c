// SPDX-License-Identifier: GPL-2.0-or-later
#include "spec.h"

const char *spec_enum_name(const struct spec *s, size_t i)
{
	if (s->choices)
		return s->choices[i] ? s->choices[i]->name : NULL;
	return s->values[i];
}

bool spec_check_fail(struct spec_check *c, const char *path, const char *key, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	char *at = key ? g_strdup_printf("%s.%s", path, key) : g_strdup(path);
	c->fail(c, at, msg);
	g_free(at);
	g_free(msg);
	return false;
}

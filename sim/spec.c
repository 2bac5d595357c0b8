#include "spec.h"

const char *spec_enum_name(const struct spec *s, size_t i)
{
	if (s->choices)
		return s->choices[i] ? *(const char *const *)s->choices[i] : NULL;
	return s->values[i];
}

bool spec_check_fail(struct spec_check *c, const char *path, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	c->fail(c, path, msg);
	g_free(msg);
	return false;
}

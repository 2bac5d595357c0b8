// SPDX-License-Identifier: GPL-2.0-or-later
#include "mcs_named.h"
#include <glib.h>
#include <string.h>

const struct mcs_named *mcs_named_find(const struct mcs_named *const *registry, const char *name)
{
	for (; *registry; registry++)
		if (strcmp((*registry)->name, name) == 0)
			return *registry;
	return NULL;
}

static guint edit_distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b);
	if (n > 64 || m > 64)
		return G_MAXUINT;
	guint d[65][65];
	for (size_t i = 0; i <= n; i++)
		d[i][0] = (guint)i;
	for (size_t j = 0; j <= m; j++)
		d[0][j] = (guint)j;
	for (size_t i = 1; i <= n; i++)
		for (size_t j = 1; j <= m; j++) {
			guint sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			guint del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
			d[i][j] = MIN(sub, MIN(del, ins));
		}
	return d[n][m];
}

/* The closest candidate, @name_of(@list, i) the i-th (NULL past the last),
 * within an edit distance of a third of @name's length, and at least
 * @floor. */
static const char *nearest(const char *name, const char *(*name_of)(const void *, size_t),
			   const void *list, guint floor)
{
	const char *best = NULL, *c;
	guint best_d = G_MAXUINT;
	for (size_t i = 0; (c = name_of(list, i)); i++) {
		guint dist = edit_distance(name, c);
		if (dist < best_d) {
			best_d = dist;
			best = c;
		}
	}
	guint limit = MAX(floor, (guint)strlen(name) / 3);
	return best_d <= limit ? best : NULL;
}

static const char *string_at(const void *list, size_t i)
{
	return ((const char *const *)list)[i];
}

static const char *named_at(const void *list, size_t i)
{
	const struct mcs_named *e = ((const struct mcs_named *const *)list)[i];
	return e ? e->name : NULL;
}

/* A scenario's keys and values are long: two edits are a typo. */
const char *mcs_near_miss(const char *name, const char *const *known)
{
	return nearest(name, string_at, known, 2);
}

/* A registry's names are short ("md", "run"): one edit is. */
const char *mcs_named_near(const struct mcs_named *const *registry, const char *name)
{
	return nearest(name, named_at, registry, 1);
}

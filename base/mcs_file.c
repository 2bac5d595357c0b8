// SPDX-License-Identifier: GPL-2.0-or-later
#include "mcs_file.h"
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

/* malloc's own bytes per block (its size field), counted with the block */
#define MALLOC_OVERHEAD sizeof(size_t)

static bool (*stop_fn)(void);

void mcs_file_stop_when(bool (*stop)(void))
{
	stop_fn = stop;
}

static bool stopping(void)
{
	return stop_fn && stop_fn();
}

static volatile sig_atomic_t abandonable; /* begins less ends */

void mcs_file_abandonable_begin(void)
{
	abandonable++;
}

void mcs_file_abandonable_end(void)
{
	abandonable--;
}

bool mcs_file_abandonable(void)
{
	return abandonable > 0;
}

const char *mcs_file_kind(unsigned mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
		return "a regular file";
	case S_IFDIR:
		return "a directory";
	case S_IFIFO:
		return "a FIFO";
	case S_IFCHR:
		return "a character device";
	case S_IFBLK:
		return "a block device";
	case S_IFSOCK:
		return "a socket";
	case S_IFLNK:
		return "a symbolic link";
	default:
		return "not a file";
	}
}

static bool fail(GError **err, const char *msg)
{
	g_set_error_literal(err, MCS_ERROR, MCS_ERROR_INPUT, msg);
	return false;
}

static bool too_long(GError **err, gsize max)
{
	g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT, "more than %" G_GSIZE_FORMAT " bytes", max);
	return false;
}

/* Up to @max + 1 bytes: one more than allowed says it is too long (the
 * file grew since its size was looked at). */
static bool read_all(int fd, gsize max, GByteArray *buf, GError **err)
{
	guint8 chunk[65536];
	for (;;) {
		if (stopping()) {
			g_set_error_literal(err, MCS_ERROR, MCS_ERROR_FAILED, "interrupted");
			return false;
		}
		ssize_t n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return fail(err, g_strerror(errno));
		if (n == 0)
			return true;
		g_byte_array_append(buf, chunk, (guint)n);
		if (buf->len > max)
			return too_long(err, max);
	}
}

char *mcs_file_read_input(const char *path, gsize max, gsize *len, GError **err)
{
	char *text = NULL;
	GError *e = NULL;
	if (!mcs_file_read(path, max, &text, len, &e)) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT, "%s:1:1: (root): cannot read: %s",
			    path, e->message);
		g_error_free(e);
	}
	return text;
}

static bool file_read(const char *path, int flags, gsize max, char **text, gsize *len, GError **err)
{
	*text = NULL;
	*len = 0;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | flags);
	if (fd < 0 && errno == ELOOP && (flags & O_NOFOLLOW))
		return fail(err, "not a regular file (a symbolic link)");
	if (fd < 0)
		return fail(err, g_strerror(errno));
	struct stat st;
	bool ok = fstat(fd, &st) == 0 || fail(err, g_strerror(errno));
	if (ok && !S_ISREG(st.st_mode)) {
		char *msg = g_strdup_printf("not a regular file (%s)", mcs_file_kind(st.st_mode));
		ok = fail(err, msg);
		g_free(msg);
	}
	/* refused before reading when it is too long already; else read into
	 * room for all of it, rather than a buffer doubled as it fills */
	ok = ok && ((gsize)st.st_size <= max || too_long(err, max));
	GByteArray *buf = g_byte_array_sized_new(ok ? (guint)st.st_size + 1 : 0);
	ok = ok && read_all(fd, max, buf, err);
	close(fd);
	*len = ok ? buf->len : 0;
	g_byte_array_append(buf, (const guint8 *)"", 1);
	char *data = (char *)g_byte_array_free(buf, FALSE);
	if (!ok) {
		g_free(data);
		data = NULL;
	}
	*text = data;
	return ok;
}

bool mcs_file_read(const char *path, gsize max, char **text, gsize *len, GError **err)
{
	return file_read(path, 0, max, text, len, err);
}

bool mcs_file_read_owned(const char *path, gsize max, char **text, gsize *len, GError **err)
{
	return file_read(path, O_NOFOLLOW, max, text, len, err);
}

/* jansson's allocations while mcs_file_parse() parses: counted against its
 * budget, and refused once it is spent or a stop came. */
static struct {
	gsize used, max;
	bool over, stopped;
} parse;

static void *parse_malloc(size_t n)
{
	if (parse.used + n + MALLOC_OVERHEAD > parse.max) {
		parse.over = true;
		return NULL;
	}
	if (stopping()) {
		parse.stopped = true;
		return NULL;
	}
	void *p = malloc(n);
	if (p)
		parse.used += malloc_usable_size(p) + MALLOC_OVERHEAD;
	return p;
}

static void parse_free(void *p)
{
	if (parse.stopped) /* the command stops: not worth the seconds a big tree takes */
		return;
	if (p)
		parse.used -= MIN(parse.used, malloc_usable_size(p) + MALLOC_OVERHEAD);
	free(p);
}

json_t *mcs_file_parse(const char *text, gsize len, size_t flags, gsize max_parsed,
		       json_error_t *je, GError **err)
{
	json_malloc_t old_malloc;
	json_free_t old_free;
	json_get_alloc_funcs(&old_malloc, &old_free);
	parse.used = 0;
	parse.max = max_parsed;
	parse.over = parse.stopped = false;
	/* what is parsed now is freed later with free(), as every block is */
	json_set_alloc_funcs(parse_malloc, parse_free);
	json_t *doc = json_loadb(text, len, flags, je);
	json_set_alloc_funcs(old_malloc, old_free);
	if (doc || (!parse.over && !parse.stopped))
		return doc;
	if (parse.stopped)
		g_set_error_literal(err, MCS_ERROR, MCS_ERROR_FAILED, "interrupted");
	else
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
			    "needs more than %" G_GSIZE_FORMAT " MiB once parsed "
			    "(the most read here)",
			    max_parsed >> 20);
	return NULL;
}

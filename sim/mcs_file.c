// SPDX-License-Identifier: GPL-2.0-or-later
#include "mcs_file.h"
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* Up to @max + 1 bytes: one more than allowed says it is too long. */
static bool read_all(int fd, gsize max, GByteArray *buf, GError **err)
{
	guint8 chunk[65536];
	for (;;) {
		ssize_t n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return fail(err, g_strerror(errno));
		if (n == 0)
			return true;
		g_byte_array_append(buf, chunk, (guint)n);
		if (buf->len > max) {
			char *msg = g_strdup_printf("more than %" G_GSIZE_FORMAT " bytes", max);
			g_set_error_literal(err, MCS_ERROR, MCS_ERROR_INPUT, msg);
			g_free(msg);
			return false;
		}
	}
}

char *mcs_file_read_input(const char *path, gsize max, gsize *len, GError **err)
{
	char *text = NULL;
	GError *e = NULL;
	if (!mcs_file_read(path, max, &text, len, &e)) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT, "%s:1:1: (root): cannot read: %s", path,
			    e->message);
		g_error_free(e);
	}
	return text;
}

bool mcs_file_read(const char *path, gsize max, char **text, gsize *len, GError **err)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return fail(err, g_strerror(errno));
	struct stat st;
	bool ok = fstat(fd, &st) == 0 || fail(err, g_strerror(errno));
	if (ok && !S_ISREG(st.st_mode)) {
		char *msg = g_strdup_printf("not a regular file (%s)", mcs_file_kind(st.st_mode));
		ok = fail(err, msg);
		g_free(msg);
	}
	GByteArray *buf = g_byte_array_new();
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

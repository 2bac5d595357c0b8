// SPDX-License-Identifier: GPL-2.0-or-later
/* Temporary files and directories in TMPDIR (or /tmp), and a failure to
 * make one said as TMPDIR's: the variable is what the user has to fix. */
#include "mcs_file.h"
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>

/* "TMPDIR=/x: cannot make a temporary file in it: Not a directory". */
static void tmp_failure(GError **err, const char *what, int e)
{
	const char *env = g_getenv("TMPDIR");
	g_set_error(err, MCS_ERROR, MCS_ERROR_FAILED, "%s%s: cannot make a temporary %s in it: %s",
		    env && *env ? "TMPDIR=" : "", g_get_tmp_dir(), what, g_strerror(e));
	errno = e;
}

int mcs_tmp_file(const char *templ, char **path, GError **err)
{
	*path = g_build_filename(g_get_tmp_dir(), templ, NULL);
	int fd = g_mkstemp_full(*path, O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0) {
		tmp_failure(err, "file", errno);
		g_clear_pointer(path, g_free);
	}
	return fd;
}

char *mcs_tmp_dir(const char *templ, GError **err)
{
	char *path = g_build_filename(g_get_tmp_dir(), templ, NULL);
	if (!g_mkdtemp_full(path, 0700)) {
		tmp_failure(err, "directory", errno);
		g_clear_pointer(&path, g_free);
	}
	return path;
}

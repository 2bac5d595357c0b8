#include "output.h"
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

gboolean output_write(const char *path, const char *data, gsize len, GError **err)
{
	if (!path || g_str_equal(path, "-")) {
		fwrite(data, 1, len, stdout);
		return fflush(stdout) == 0;
	}
	return output_file(path, data, (gssize)len, err);
}

bool output_file(const char *path, const char *data, gssize len, GError **err)
{
	/* g_file_set_contents writes a temporary file and renames it. */
	GError *e = NULL;
	return g_file_set_contents(path, data, len, &e) || output_failure(err, e);
}

bool output_failure(GError **err, GError *e)
{
	g_set_error_literal(err, MCS_ERROR, MCS_ERROR_FAILED, e->message);
	g_error_free(e);
	return false;
}

void output_remove_files(const char *dir, const char *part)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *n;
	while (d && (n = g_dir_read_name(d)))
		if (!part || strstr(n, part)) {
			char *p = g_build_filename(dir, n, NULL);
			g_unlink(p);
			g_free(p);
		}
	if (d)
		g_dir_close(d);
}

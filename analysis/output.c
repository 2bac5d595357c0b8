#include "output.h"
#include <stdio.h>

gboolean output_write(const char *path, const char *data, gsize len, GError **err)
{
	if (!path || g_str_equal(path, "-")) {
		fwrite(data, 1, len, stdout);
		return fflush(stdout) == 0;
	}
	/* g_file_set_contents writes a temporary file and renames it. */
	return g_file_set_contents(path, data, (gssize)len, err);
}

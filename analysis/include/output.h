/* output: writing a report or result to a file atomically (a temporary file
 * beside it, renamed over it), or to standard output. */
#pragma once
#include <glib.h>

/* @path NULL or "-": standard output. */
gboolean output_write(const char *path, const char *data, gsize len, GError **err);
/* Remove the files in @dir whose names contain @part (NULL: every file). */
void output_remove_files(const char *dir, const char *part);

// SPDX-License-Identifier: GPL-2.0-or-later
#include "output_dir.h"
#include "mcs_file.h"
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

struct owned_dir {
	char *path;  /* canonical: g_canonicalize_filename, no symlink followed */
	char *shown; /* as the command was given it, for messages */
	int fd;
	dev_t dev;
	ino_t ino;
};

static GPtrArray *owned; /* struct owned_dir * */

static void owned_free(gpointer p)
{
	struct owned_dir *d = p;
	close(d->fd);
	g_free(d->path);
	g_free(d->shown);
	g_free(d);
}

bool output_dir_own(const char *path, GError **err)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_FAILED, "%s: %s", path, g_strerror(errno));
		if (fd >= 0)
			close(fd);
		return false;
	}
	if (!owned)
		owned = g_ptr_array_new_with_free_func(owned_free);
	struct owned_dir *d = g_new0(struct owned_dir, 1);
	*d = (struct owned_dir){g_canonicalize_filename(path, NULL), g_strdup(path), fd, st.st_dev,
				st.st_ino};
	g_ptr_array_add(owned, d);
	return true;
}

void output_dir_release_all(void)
{
	g_clear_pointer(&owned, g_ptr_array_unref);
}

int output_dir_of(const char *dest, char **base, GError **err)
{
	*base = NULL;
	if (!owned)
		return -1;
	char *canon = g_canonicalize_filename(dest, NULL);
	char *dir = g_path_get_dirname(canon);
	struct owned_dir *d = NULL;
	for (guint i = 0; i < owned->len && !d; i++)
		if (g_str_equal(((struct owned_dir *)owned->pdata[i])->path, dir))
			d = owned->pdata[i];
	int fd = -1;
	struct stat st;
	bool gone = d && lstat(d->path, &st) != 0;
	if (d && (gone || !S_ISDIR(st.st_mode) || st.st_dev != d->dev || st.st_ino != d->ino)) {
		const char *now = gone			? "now missing"
				  : S_ISLNK(st.st_mode) ? "now a symbolic link"
				  : S_ISDIR(st.st_mode) ? "now another directory"
							: mcs_file_kind(st.st_mode);
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
			    "%s: replaced while memcgsim ran (%s): refusing to write in it",
			    d->shown, now);
		fd = -2;
	} else if (d) {
		fd = d->fd;
		*base = g_path_get_basename(canon);
	}
	g_free(dir);
	g_free(canon);
	return fd;
}

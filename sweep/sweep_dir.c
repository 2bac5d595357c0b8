// SPDX-License-Identifier: GPL-2.0-or-later
/* A sweep's directory: its lock, its plan (sweep.json) checked against the
 * one asked for, the directories held open, half-written files cleaned. */
#include "identity.h"
#include "output.h"
#include "output_dir.h"
#include "sweep_parts.h"
#include <errno.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <unistd.h>

#define SWEEP_LOCK ".memcgsim.lock"

int sweep_dir_lock(const char *dir, GError **err)
{
	if (g_mkdir_with_parents(dir, 0777) != 0) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_FAILED, "%s: %s", dir, g_strerror(errno));
		return -1;
	}
	char *path = g_build_filename(dir, SWEEP_LOCK, NULL);
	int fd = output_lock_open(path, err);
	if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) != 0) {
		char holder[32] = "";
		ssize_t n = pread(fd, holder, sizeof(holder) - 1, 0);
		holder[n > 0 ? n : 0] = '\0';
		g_strchomp(holder);
		g_set_error(
		    err, MCS_ERROR, MCS_ERROR_INPUT,
		    "%s: in use by another memcgsim (pid %s); wait for it, or choose another "
		    "--out",
		    dir, *holder ? holder : "unknown");
		close(fd);
		fd = -1;
	} else if (fd >= 0) {
		char pid[32];
		int len = g_snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
		if (ftruncate(fd, 0) != 0 || !output_fd_put(fd, path, pid, (size_t)len, err)) {
			if (err && !*err)
				g_set_error(err, MCS_ERROR, MCS_ERROR_FAILED,
					    "%s: cannot write: %s", path, g_strerror(errno));
			close(fd);
			fd = -1;
		}
	}
	g_free(path);
	return fd;
}

void sweep_dir_unlock(int fd)
{
	output_dir_release_all();
	if (fd >= 0)
		close(fd); /* releases the flock; the file stays, harmlessly */
}

bool sweep_dir_own(const char *dir, GError **err)
{
	char *runs = g_build_filename(dir, "runs", NULL);
	bool ok = output_dir_own(dir, err) && output_dir_own(runs, err);
	g_free(runs);
	return ok;
}

bool sweep_same_plan(json_t *a, json_t *b)
{
	json_t *sa = identity_strip(a), *sb = identity_strip(b);
	bool same = json_equal(sa, sb);
	json_decref(sa);
	json_decref(sb);
	return same;
}

json_t *sweep_manifest_read(const char *path)
{
	char *why = NULL;
	json_t *m =
	    runfile_read_json(path, SWEEP_MANIFEST_MAX_BYTES, SWEEP_MANIFEST_MAX_PARSED, &why);
	g_free(why);
	return m;
}

/* Does @dir hold nothing of a sweep's but what one interrupted (a signal,
 * a full disk) before its plan was in place leaves: the lock, an empty
 * runs/, the plan's temporary? Such a directory starts afresh, so an
 * interruption at any moment leaves one that --resume or a rerun takes. */
static bool dir_unplanned(const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	bool empty = true;
	for (const char *n; empty && d && (n = g_dir_read_name(d));) {
		char *path = g_build_filename(dir, n, NULL);
		GDir *sub = g_str_equal(n, "runs") ? g_dir_open(path, 0, NULL) : NULL;
		GStatBuf st;
		bool runs_empty =
		    sub && !g_dir_read_name(sub) && g_lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
		if (sub)
			g_dir_close(sub);
		empty = g_str_equal(n, SWEEP_LOCK) || runs_empty ||
			g_str_has_prefix(n, "sweep.json.tmp.");
		g_free(path);
	}
	if (d)
		g_dir_close(d);
	return empty;
}

bool sweep_dir_prepare(const char *dir, json_t *manifest, bool resume, bool merging, bool mix,
		       GError **err)
{
	char *mpath = g_build_filename(dir, "sweep.json", NULL);
	char *runs = g_build_filename(dir, "runs", NULL);
	bool ok = false;
	json_t *old = sweep_manifest_read(mpath);
	bool empty = dir_unplanned(dir);
	char *rpath = g_build_filename(dir, "result.json", NULL);
	bool owned = output_check_owned(mpath, false, err) && output_check_owned(runs, true, err) &&
		     output_check_owned(rpath, false, err);
	g_free(rpath);
	if (!owned) {
	} else if (old && !sweep_same_plan(old, manifest)) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
			    "%s: holds a different sweep (its sweep.json differs); choose another "
			    "--out",
			    dir);
	} else if (old && !mix && !g_str_equal(identity_of(old), identity_of(manifest))) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
			    "%s: made by model %s, but this %s model %s; runs of two builds do not "
			    "make one result (use the build that made it, or accept the mix with "
			    "--mix-builds)",
			    mpath, identity_of(old), merging ? "merge's shards are of" : "build is",
			    identity_of(manifest));
	} else if (!old && !empty) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
			    "%s: exists and is not a sweep directory", dir);
	} else if (old && !resume && !merging) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT,
			    "%s: already holds this sweep; --resume continues it", dir);
	} else if (g_mkdir_with_parents(runs, 0777) != 0) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_FAILED, "%s: %s", runs, g_strerror(errno));
	} else if (!old) {
		char *text = json_dumps(manifest, JSON_INDENT(2));
		ok = output_file(mpath, text, -1, err);
		free(text);
	} else {
		ok = true;
	}
	json_decref(old);
	g_free(mpath);
	g_free(runs);
	return ok;
}

void sweep_dir_clean(const char *dir)
{
	char *runs = g_build_filename(dir, "runs", NULL);
	output_remove_files(runs, ".json.");
	output_remove_files(dir, "result.json.");
	g_free(runs);
}

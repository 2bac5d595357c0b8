/* SPDX-License-Identifier: GPL-2.0-or-later */
/* output_dir: the directories a command owns while it runs (a sweep's DIR
 * and DIR/runs), held open from when they are ready. A file written
 * directly in one is made and renamed relative to the held descriptor
 * (openat, renameat), so it lands in that directory whatever has taken its
 * name since; and a name that no longer leads to the directory it named
 * (replaced by a symbolic link, moved away) stops the next write with an
 * error naming it. */
#pragma once
#include "mcs_error.h"
#include <glib.h>
#include <stdbool.h>

/* Own directory @path (it exists): hold it open, O_NOFOLLOW. */
bool output_dir_own(const char *path, GError **err);
/* Stop owning every directory (closing them). */
void output_dir_release_all(void);
/* The owned directory @dest is directly in: its descriptor, and @base its
 * name there (g_free it); -1 when none owns it. When its name no longer
 * leads to it: -2, with MCS_ERROR_INPUT "DIR: replaced while memcgsim ran
 * (now a symbolic link): refusing to write in it". */
int output_dir_of(const char *dest, char **base, GError **err);

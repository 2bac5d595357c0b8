// SPDX-License-Identifier: GPL-2.0-or-later
#include "sim_trace.h"
#include "mcs_error.h"
#include "sim_engine.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool sim_trace_enabled;

static struct {
	sim_time_t from, to;
	FILE *f;
	int pid;
	long events, max_events;
	bool truncated;
	GHashTable *tids; /* task (or CPU key) -> tid */
	const char *(*task_name)(const struct sim_task *t);
} T;

bool sim_trace_begin(const char *path, int pid, long max_events, sim_time_t from, sim_time_t to,
		     const char *(*task_name)(const struct sim_task *t))
{
	T.task_name = task_name;
	T.from = from;
	T.to = to;
	/* the empty file the caller made for it: not through a symlink */
	int fd = open(path, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	T.f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (fd >= 0 && !T.f)
		close(fd);
	T.pid = pid;
	T.events = 0;
	T.max_events = MAX(1, MIN(max_events, SIM_TRACE_MAX_EVENTS));
	T.truncated = false;
	T.tids = g_hash_table_new(NULL, NULL);
	sim_trace_enabled = T.f != NULL;
	return T.f != NULL;
}

static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* Microseconds with the picosecond digits: exact. */
static void put_us(const char *key, sim_time_t ps)
{
	fprintf(T.f, ",\"%s\":%lld.%06lld", key, (long long)(ps / 1000000),
		(long long)(ps % 1000000));
}

bool sim_trace_end(void)
{
	bool ok = true;
	if (T.f) {
		if (T.truncated)
			fprintf(T.f,
				"{\"ph\":\"M\",\"pid\":%d,\"name\":\"trace_truncated\",\"args\":"
				"{\"max_events\":%ld}},\n",
				T.pid, T.max_events);
		errno = 0;
		bool bad = ferror(T.f) != 0;
		int e = errno;
		ok = fclose(T.f) == 0 && !bad;
		if (!ok && bad && e) /* the first failure's reason */
			errno = e;
		else if (!ok && !errno)
			errno = EIO;
	}
	T.f = NULL;
	sim_trace_enabled = false;
	g_clear_pointer(&T.tids, g_hash_table_destroy);
	return ok;
}

/* The track of @t: a thread per task, named after its CPU, sorted by CPU. */
static int track(const struct sim_task *t, int cpu)
{
	gconstpointer key = t ? (gconstpointer)t : GINT_TO_POINTER(-1 - cpu);
	gpointer tid = g_hash_table_lookup(T.tids, key);
	if (tid)
		return GPOINTER_TO_INT(tid);
	int id = (int)g_hash_table_size(T.tids) + 1;
	g_hash_table_insert(T.tids, (gpointer)key, GINT_TO_POINTER(id));
	char *name = t ? g_strdup_printf("CPU %d: %s", cpu, T.task_name(t))
		       : g_strdup_printf("CPU %d: idle", cpu);
	fprintf(T.f,
		"{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"thread_name\",\"args\":{\"name\":",
		T.pid, id);
	put_string(T.f, name);
	fprintf(T.f,
		"}},\n{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"thread_sort_index\","
		"\"args\":{\"sort_index\":%d}},\n",
		T.pid, id, cpu * 2 + (t == NULL));
	g_free(name);
	return id;
}

void sim_trace_span_(const struct sim_task *t, int cpu, const char *cat, const char *name,
		     sim_time_t from, sim_time_t to)
{
	bool instant = to == from && strcmp(cat, "lock") == 0;
	if (!T.f || (to <= from && !instant) || to < T.from || from >= T.to)
		return;
	if (T.events >= T.max_events) {
		T.truncated = true;
		return;
	}
	T.events++;
	int tid = track(t, cpu);
	/* A lock held for no simulated time is an instant on its thread, so
	 * that every acquisition shows; other empty spans (no wait, no
	 * interrupts off) are left out. */
	fprintf(T.f, "{\"ph\":\"%s\",\"pid\":%d,\"tid\":%d,\"cat\":\"%s\",\"name\":",
		instant ? "i" : "X", T.pid, tid, cat);
	put_string(T.f, name);
	put_us("ts", from);
	if (instant)
		fputs(",\"s\":\"t\"", T.f);
	else
		put_us("dur", to - from);
	fputs("},\n", T.f);
}

static bool copy_part(sim_trace_put_fn put, void *ctx, const char *part, GError **err)
{
	FILE *in = fopen(part, "r");
	if (!in) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_FAILED, "%s: %s", part, g_strerror(errno));
		return false;
	}
	char buf[65536];
	size_t n;
	bool ok = true;
	while (ok && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		ok = put(ctx, buf, n, err);
	if (ok && ferror(in)) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_FAILED, "%s: cannot read: %s", part,
			    g_strerror(errno));
		ok = false;
	}
	fclose(in);
	return ok;
}

static void put_name(GString *s, const char *name)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	put_string(f, name);
	fclose(f);
	g_string_append_len(s, buf, (gssize)len);
	free(buf);
}

bool sim_trace_join(sim_trace_put_fn put, void *ctx, const char *const *parts,
		    const char *const *names, size_t n, GError **err)
{
	GString *head = g_string_new("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
	for (size_t i = 0; i < n; i++) {
		g_string_append_printf(head,
				       "{\"ph\":\"M\",\"pid\":%d,\"name\":\"process_name\","
				       "\"args\":{\"name\":",
				       (int)i + 1);
		put_name(head, names[i]);
		g_string_append(head, "}},\n");
	}
	bool ok = put(ctx, head->str, head->len, err);
	g_string_free(head, TRUE);
	for (size_t i = 0; ok && i < n; i++)
		ok = copy_part(put, ctx, parts[i], err);
	static const char tail[] = "{\"ph\":\"M\",\"pid\":0,\"name\":\"process_name\",\"args\":{"
				   "\"name\":\"memcgsim\"}}\n]}\n";
	return ok && put(ctx, tail, sizeof(tail) - 1, err);
}

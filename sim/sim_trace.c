// SPDX-License-Identifier: GPL-2.0-or-later
#include "sim_trace.h"
#include "sim_engine.h"
#include "mcs_error.h"
#include <errno.h>
#include <stdio.h>
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
} T = {.from = 0, .to = SIM_MS};

void sim_trace_window(sim_time_t from, sim_time_t to)
{
	T.from = from;
	T.to = to;
}

void sim_trace_begin(const char *path, int pid, long max_events)
{
	T.f = fopen(path, "w");
	T.pid = pid;
	T.events = 0;
	T.max_events = MAX(1, MIN(max_events, SIM_TRACE_MAX_EVENTS));
	T.truncated = false;
	T.tids = g_hash_table_new(NULL, NULL);
	sim_trace_enabled = T.f != NULL;
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

void sim_trace_end(void)
{
	if (T.f) {
		if (T.truncated)
			fprintf(T.f, "{\"ph\":\"M\",\"pid\":%d,\"name\":\"trace_truncated\",\"args\":"
				     "{\"max_events\":%ld}},\n",
				T.pid, T.max_events);
		fclose(T.f);
	}
	T.f = NULL;
	sim_trace_enabled = false;
	g_clear_pointer(&T.tids, g_hash_table_destroy);
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
	char *name = t ? g_strdup_printf("CPU %d: %s", cpu, sim_task_name(t))
		       : g_strdup_printf("CPU %d: idle", cpu);
	fprintf(T.f, "{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"thread_name\",\"args\":{\"name\":",
		T.pid, id);
	put_string(T.f, name);
	fprintf(T.f, "}},\n{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"thread_sort_index\","
		     "\"args\":{\"sort_index\":%d}},\n",
		T.pid, id, cpu * 2 + (t == NULL));
	g_free(name);
	return id;
}

void sim_trace_span_(const struct sim_task *t, int cpu, const char *cat, const char *name,
		     sim_time_t from, sim_time_t to)
{
	if (!T.f || to <= from || to < T.from || from >= T.to)
		return;
	if (T.events >= T.max_events) {
		T.truncated = true;
		return;
	}
	T.events++;
	int tid = track(t, cpu);
	fprintf(T.f, "{\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"cat\":\"%s\",\"name\":", T.pid, tid, cat);
	put_string(T.f, name);
	put_us("ts", from);
	put_us("dur", to - from);
	fputs("},\n", T.f);
}

static bool copy_part(FILE *out, const char *part, GError **err)
{
	FILE *in = fopen(part, "r");
	if (!in) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_FAILED, "%s: %s", part, g_strerror(errno));
		return false;
	}
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, out);
	fclose(in);
	return true;
}

bool sim_trace_join(const char *out, const char *const *parts, const char *const *names, size_t n,
		    GError **err)
{
	char *tmp = g_strdup_printf("%s.tmp.%d", out, (int)getpid());
	FILE *f = fopen(tmp, "w");
	bool ok = f != NULL;
	if (!ok)
		g_set_error(err, MCS_ERROR, MCS_ERROR_FAILED, "%s: %s", out, g_strerror(errno));
	if (ok) {
		fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", f);
		for (size_t i = 0; i < n; i++) {
			fprintf(f, "{\"ph\":\"M\",\"pid\":%d,\"name\":\"process_name\",\"args\":{\"name\":",
				(int)i + 1);
			put_string(f, names[i]);
			fputs("}},\n", f);
		}
		for (size_t i = 0; ok && i < n; i++)
			ok = copy_part(f, parts[i], err);
		fputs("{\"ph\":\"M\",\"pid\":0,\"name\":\"process_name\",\"args\":{\"name\":\"memcgsim\"}}\n]}\n",
		      f);
		ok = (fclose(f) == 0) && ok;
	}
	if (ok && rename(tmp, out) != 0) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_FAILED, "%s: %s", out, g_strerror(errno));
		ok = false;
	}
	if (!ok)
		remove(tmp);
	g_free(tmp);
	return ok;
}

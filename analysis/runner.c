#include "runner.h"
#include "result.h"
#include "workload.h"
#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

/* One simulation: a variant's replica, run in a child process that writes
 * its result to a temporary file. */
struct job {
	json_t *doc;
	uint64_t seed;
	pid_t pid;
	char *path;
	json_t *result;
	bool violation;
};

static void child_main(const struct job *j)
{
	int violation = 0;
	json_t *r = workload_simulate(j->doc, j->seed, &violation);
	if (json_dump_file(r, j->path, JSON_COMPACT) != 0)
		_exit(3);
	_exit(violation ? 1 : 0);
}

static bool job_start(struct job *j, GError **err)
{
	int fd = g_file_open_tmp("memcgsim-run-XXXXXX.json", &j->path, err);
	if (fd < 0)
		return false;
	close(fd);
	fflush(NULL);
	j->pid = fork();
	if (j->pid < 0) {
		g_set_error(err, MCS_ERROR, 0, "fork: %s", g_strerror(errno));
		return false;
	}
	if (j->pid == 0)
		child_main(j);
	return true;
}

static bool job_finish(struct job *j, int status, GError **err)
{
	if (WIFEXITED(status) && WEXITSTATUS(status) <= 1)
		j->result = json_load_file(j->path, 0, NULL);
	g_unlink(j->path);
	g_clear_pointer(&j->path, g_free);
	j->pid = 0;
	j->violation = WIFEXITED(status) && WEXITSTATUS(status) == 1;
	if (!j->result)
		g_set_error(err, MCS_ERROR, 0, "simulation process failed (%s %d)",
			    WIFSIGNALED(status) ? "signal" : "exit status",
			    WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	return j->result != NULL;
}

static struct job *job_by_pid(struct job *jobs, size_t n, pid_t pid)
{
	for (size_t i = 0; i < n; i++)
		if (jobs[i].pid == pid)
			return &jobs[i];
	return NULL;
}

/* Run @n jobs, at most @parallel at a time; false (with @err) when one
 * failed, after waiting for the others. */
static bool run_jobs(struct job *jobs, size_t n, int parallel, GError **err)
{
	size_t next = 0, running = 0;
	bool ok = true;
	while (running || (ok && next < n)) {
		while (ok && next < n && running < (size_t)MAX(parallel, 1)) {
			ok = job_start(&jobs[next++], err);
			running += ok;
		}
		if (!running)
			break;
		int status;
		pid_t pid = waitpid(-1, &status, 0);
		if (pid < 0 && errno == EINTR)
			continue;
		struct job *j = pid > 0 ? job_by_pid(jobs, n, pid) : NULL;
		if (!j)
			continue;
		running--;
		GError *e = NULL;
		if (!job_finish(j, status, ok ? err : &e))
			ok = false;
		g_clear_error(&e);
	}
	return ok;
}

json_t *runner_run_one(json_t *doc, uint64_t seed, bool *violation, GError **err)
{
	struct job j = {.doc = doc, .seed = seed};
	if (!run_jobs(&j, 1, 1, err))
		return NULL;
	*violation = j.violation;
	return j.result;
}

json_t *runner_run(const struct scenario *sc, const char *only, int parallel, bool *violation,
		   GError **err)
{
	GArray *jobs = g_array_new(FALSE, TRUE, sizeof(struct job));
	GArray *owner = g_array_new(FALSE, FALSE, sizeof(guint)); /* variant of each job */
	for (guint i = 0; i < sc->variants->len; i++) {
		const struct scenario_variant *v = sc->variants->pdata[i];
		if (only && !g_str_equal(only, v->name))
			continue;
		for (int r = 0; r < scenario_replicas(v->doc); r++) {
			struct job j = {.doc = v->doc,
					.seed = scenario_replica_seed(scenario_seed(v->doc), r)};
			g_array_append_val(jobs, j);
			g_array_append_val(owner, i);
		}
	}
	struct job *js = (struct job *)(void *)jobs->data;
	bool ok = run_jobs(js, jobs->len, parallel, err);
	json_t *variants = json_array();
	*violation = false;
	for (guint k = 0; ok && k < jobs->len;) {
		guint vi = g_array_index(owner, guint, k);
		const struct scenario_variant *v = sc->variants->pdata[vi];
		json_t *reps = json_array();
		for (; k < jobs->len && g_array_index(owner, guint, k) == vi; k++) {
			*violation |= js[k].violation;
			json_array_append(reps, js[k].result);
		}
		json_array_append_new(variants, result_variant(v->name, v->description, reps));
		json_decref(reps);
	}
	for (guint k = 0; k < jobs->len; k++)
		json_decref(js[k].result);
	g_array_free(jobs, TRUE);
	g_array_free(owner, TRUE);
	if (!ok) {
		json_decref(variants);
		return NULL;
	}
	json_t *base = sc->base;
	return json_pack("{s:s, s:s, s:s, s:I, s:o}", "format", "memcgsim-result-1", "scenario",
			 json_string_value(json_object_get(base, "name")), "description",
			 json_string_value(json_object_get(base, "description")), "seed",
			 json_integer_value(json_object_get(base, "seed")), "variants", variants);
}

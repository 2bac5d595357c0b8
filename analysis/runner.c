#include "runner.h"
#include "result.h"
#include "workload.h"
#include <errno.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static void child_main(int fd, json_t *doc, uint64_t seed)
{
	int violation = 0;
	json_t *r = workload_simulate(doc, seed, &violation);
	char *text = json_dumps(r, JSON_COMPACT);
	size_t len = strlen(text), off = 0;
	while (off < len) {
		ssize_t n = write(fd, text + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			_exit(3);
		off += (size_t)n;
	}
	_exit(violation ? 1 : 0);
}

json_t *runner_run_one(json_t *doc, uint64_t seed, bool *violation, GError **err)
{
	int fds[2];
	if (pipe(fds) < 0) {
		g_set_error(err, MCS_ERROR, 0, "pipe: %s", g_strerror(errno));
		return NULL;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		g_set_error(err, MCS_ERROR, 0, "fork: %s", g_strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return NULL;
	}
	if (pid == 0) {
		close(fds[0]);
		child_main(fds[1], doc, seed);
	}
	close(fds[1]);
	GString *out = g_string_new(NULL);
	char buf[65536];
	for (;;) {
		ssize_t n = read(fds[0], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		g_string_append_len(out, buf, n);
	}
	close(fds[0]);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	json_t *r = NULL;
	if (WIFEXITED(status) && WEXITSTATUS(status) <= 1)
		r = json_loadb(out->str, out->len, 0, NULL);
	if (!r)
		g_set_error(err, MCS_ERROR, 0, "simulation process failed (%s %d)",
			    WIFSIGNALED(status) ? "signal" : "exit status",
			    WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	*violation = WIFEXITED(status) && WEXITSTATUS(status) == 1;
	g_string_free(out, TRUE);
	return r;
}

json_t *runner_run(const struct scenario *sc, const char *only, bool *violation, GError **err)
{
	json_t *variants = json_array();
	*violation = false;
	for (guint i = 0; i < sc->variants->len; i++) {
		const struct scenario_variant *v = sc->variants->pdata[i];
		if (only && !g_str_equal(only, v->name))
			continue;
		uint64_t seed = scenario_seed(v->doc);
		json_t *reps = json_array();
		for (int r = 0; r < scenario_replicas(v->doc); r++) {
			bool bad = false;
			json_t *one = runner_run_one(v->doc, scenario_replica_seed(seed, r), &bad, err);
			if (!one) {
				json_decref(reps);
				json_decref(variants);
				return NULL;
			}
			*violation |= bad;
			json_array_append_new(reps, one);
		}
		json_array_append_new(variants, result_variant(v->name, v->description, reps));
		json_decref(reps);
	}
	json_t *base = sc->base;
	return json_pack("{s:s, s:s, s:s, s:I, s:o}", "format", "memcgsim-result-1", "scenario",
			 json_string_value(json_object_get(base, "name")), "description",
			 json_string_value(json_object_get(base, "description")), "seed",
			 json_integer_value(json_object_get(base, "seed")), "variants", variants);
}

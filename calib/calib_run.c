// SPDX-License-Identifier: GPL-2.0-or-later
/* calib: running the model at a curve's points, each a `memcgsim run` in a
 * child process, at most `jobs` at once, each (point, parameter values)
 * once (calib_run.h). */
#include "calib_run.h"
#include "mcs_error.h"
#include "mcs_file.h"
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* A run in flight: its child, its output files, and where its value goes. */
struct calib_job {
	GPid pid;
	char *out_path, *err_path;
	const struct calib_curve *curve;
	const struct calib_point *point;
	char *key; /* the cache's key */
};

void calib_cache_init(struct calib_cache *k, const char *self, int jobs)
{
	k->self = self;
	k->jobs = jobs > 0 ? jobs : 1;
	k->values = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	k->runs = 0;
}

void calib_cache_fini(struct calib_cache *k)
{
	g_hash_table_destroy(k->values);
}

/* The cache's key for @pt of @c under @values. */
static char *point_key(const struct calib_curve *c, const struct calib_point *pt,
		       const struct calib_param *params, const double *values, int n)
{
	GString *s = g_string_new(c->path);
	g_string_append_printf(s, "|%.17g", pt->x);
	for (int i = 0; i < n; i++)
		g_string_append_printf(s, "|%s=%.17g", params[i].key, values[i]);
	return g_string_free(s, FALSE);
}

static GPtrArray *run_argv(const struct calib_cache *k, const struct calib_curve *c,
			   const struct calib_point *pt, const struct calib_param *params,
			   const double *values, int n)
{
	GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
	const char *fixed[] = {k->self,	   "run",     c->scenario, "--variant",
			       c->variant, "--quiet", "--format",  "json"};
	for (size_t i = 0; i < G_N_ELEMENTS(fixed); i++)
		g_ptr_array_add(a, g_strdup(fixed[i]));
	for (guint i = 0; i < pt->sets->len; i++) {
		g_ptr_array_add(a, g_strdup("--set"));
		g_ptr_array_add(a, g_strdup(pt->sets->pdata[i]));
	}
	for (int i = 0; i < n; i++) {
		g_ptr_array_add(a, g_strdup("--set"));
		g_ptr_array_add(
		    a, g_strdup_printf("machine.costs.%s=%.17g", params[i].key, values[i]));
	}
	g_ptr_array_add(a, NULL);
	return a;
}

static int temp_fd(char **path, GError **err)
{
	return mcs_tmp_file("memcgsim-calibrate-XXXXXX", path, err);
}

static bool job_start(struct calib_cache *k, struct calib_job *j, const struct calib_param *params,
		      const double *values, int n, GError **err)
{
	int out = temp_fd(&j->out_path, err), errfd = out < 0 ? -1 : temp_fd(&j->err_path, err);
	if (errfd < 0) {
		if (out >= 0) {
			close(out);
			unlink(j->out_path);
			g_free(j->out_path);
		}
		return false;
	}
	GPtrArray *argv = run_argv(k, j->curve, j->point, params, values, n);
	bool ok =
	    g_spawn_async_with_fds(NULL, (char **)argv->pdata, NULL, G_SPAWN_DO_NOT_REAP_CHILD,
				   NULL, NULL, &j->pid, -1, out, errfd, err);
	g_ptr_array_free(argv, TRUE);
	close(out);
	close(errfd);
	if (!ok) { /* nothing will read them */
		unlink(j->out_path);
		unlink(j->err_path);
		g_free(j->out_path);
		g_free(j->err_path);
	}
	k->runs += ok;
	return ok;
}

/* The run's metric from its JSON output, as the curve compares it. */
static bool job_value(const struct calib_job *j, double *v, GError **err)
{
	json_error_t je;
	json_t *doc = json_load_file(j->out_path, 0, &je);
	json_t *metrics =
	    json_object_get(json_array_get(json_object_get(doc, "variants"), 0), "metrics");
	json_t *m = json_object_get(metrics, j->curve->metric);
	bool ok = json_is_number(m) && json_number_value(m) > 0;
	if (ok)
		*v = j->curve->period ? 1000 * j->point->threads / json_number_value(m)
				      : json_number_value(m);
	else
		g_set_error(err, MCS_ERROR, MCS_ERROR_FAILED,
			    "%s: x = %g: the run gave no positive metric %s", j->curve->name,
			    j->point->x, j->curve->metric);
	json_decref(doc);
	return ok;
}

/* Wait for @j, and put its value in the cache. */
static bool job_finish(struct calib_cache *k, struct calib_job *j, GError **err)
{
	int status = 0;
	while (waitpid(j->pid, &status, 0) < 0 && errno == EINTR)
		;
	g_spawn_close_pid(j->pid);
	bool ok = true;
	double v = 0;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		char *msg = NULL;
		g_file_get_contents(j->err_path, &msg, NULL, NULL);
		g_set_error(err, MCS_ERROR, MCS_ERROR_FAILED, "%s: x = %g: the run failed: %s",
			    j->curve->name, j->point->x, msg ? g_strstrip(msg) : "");
		g_free(msg);
		ok = false;
	} else {
		ok = job_value(j, &v, err);
	}
	if (ok)
		g_hash_table_insert(k->values, g_strdup(j->key), g_memdup2(&v, sizeof(v)));
	unlink(j->out_path);
	unlink(j->err_path);
	g_free(j->out_path);
	g_free(j->err_path);
	g_free(j->key);
	return ok;
}

/* Finish the oldest run of @q; false (and @err, unless already set) if it
 * failed. */
static bool queue_finish_one(struct calib_cache *k, GQueue *q, bool ok, GError **err)
{
	struct calib_job *j = g_queue_pop_head(q);
	GError *e = NULL;
	bool done = job_finish(k, j, ok ? err : &e);
	g_clear_error(&e);
	g_free(j);
	return done;
}

bool calib_run_all(struct calib_cache *k, const struct calib_spec *s, const double *values,
		   GError **err)
{
	GQueue q = G_QUEUE_INIT;
	bool ok = true;
	for (guint ci = 0; ok && ci < s->curves->len; ci++) {
		const struct calib_curve *c = s->curves->pdata[ci];
		for (guint pi = 0; ok && pi < c->points->len; pi++) {
			const struct calib_point *pt = c->points->pdata[pi];
			char *key = point_key(c, pt, s->params, values, s->nparams);
			if (g_hash_table_contains(k->values, key)) {
				g_free(key);
				continue;
			}
			if ((int)q.length == k->jobs)
				ok = queue_finish_one(k, &q, ok, err);
			struct calib_job *j = g_new0(struct calib_job, 1);
			*j = (struct calib_job){.curve = c, .point = pt, .key = key};
			if (ok && job_start(k, j, s->params, values, s->nparams, err)) {
				g_queue_push_tail(&q, j);
			} else {
				ok = false;
				g_free(key);
				g_free(j);
			}
		}
	}
	while (q.length)
		ok = queue_finish_one(k, &q, ok, err) && ok;
	return ok;
}

double calib_value(const struct calib_cache *k, const struct calib_spec *s,
		   const struct calib_curve *c, const struct calib_point *pt, const double *values)
{
	char *key = point_key(c, pt, s->params, values, s->nparams);
	const double *v = g_hash_table_lookup(k->values, key);
	g_free(key);
	return v ? *v : NAN;
}

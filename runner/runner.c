// SPDX-License-Identifier: GPL-2.0-or-later
#include "runner.h"
#include "identity.h"
#include "live.h"
#include "mcs_file.h"
#include "output.h"
#include "output_dir.h"
#include "result.h"
#include "run.h"
#include "sim_trace.h"
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* A child that cannot write its trace part exits CHILD_TRACE_FAILED + errno,
 * its result CHILD_RESULT_FAILED + errno (errno above 63 as EIO), so the
 * parent can say which file and why. */
#define CHILD_TRACE_FAILED 64
#define CHILD_RESULT_FAILED 128

/* The child's result, written to the temporary the parent made for it, or
 * for a sweep run with the run's identity beside @dest and renamed over it,
 * so a reader sees all of it or nothing. 0, or errno. */
static int write_result(const struct runner_job *j, json_t *r, bool violation)
{
	json_t *doc = r;
	if (j->dest) {
		doc = j->meta ? json_deep_copy(j->meta) : json_object();
		json_object_set_new(doc, "violation", json_boolean(violation));
		json_object_set_new(doc, "result", r);
	}
	char *text = json_dumps(doc, JSON_COMPACT);
	bool ok = false;
	if (j->dest) {
		ok = output_file(j->dest, text, -1, NULL);
	} else {
		int fd = open(j->path, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
		ok = fd >= 0 && output_fd_put(fd, j->path, text, strlen(text), NULL);
		ok = fd >= 0 && close(fd) == 0 && ok;
	}
	int e = ok ? 0 : errno ? errno : EIO;
	free(text);
	json_decref(doc);
	return e;
}

static int child_errno(int e)
{
	return e > 0 && e < 64 ? e : EIO;
}

static void child_main(const struct runner_job *j)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	signal(SIGINT, SIG_DFL); /* the parent's handler is not the child's */
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGALRM, SIG_DFL);
	alarm(0); /* --timeout is the parent's */
	if (getppid() == 1)
		_exit(3); /* the parent died before prctl */
	live_job_child(j);
	bool violation = false;
	if (j->trace && !sim_trace_begin(j->trace, j->trace_pid, j->trace_max, j->trace_from,
					 j->trace_to, sim_task_name))
		_exit(CHILD_TRACE_FAILED + child_errno(errno));
	json_t *r = j->classes
			? run_lock_classes(j->config, j->seed, j->classes_for)
			: run_simulate(j->config, j->seed, j->drawn ? &j->draw : NULL, &violation);
	if (j->trace && !sim_trace_end())
		_exit(CHILD_TRACE_FAILED + child_errno(errno));
	int e = write_result(j, r, violation);
	_exit(e ? CHILD_RESULT_FAILED + child_errno(e) : violation ? 1 : 0);
}

static bool job_start(struct runner_job *j, const struct live *lv, GError **err)
{
	if (!j->dest) {
		int fd = mcs_tmp_file("memcgsim-run-XXXXXX.json", &j->path, err);
		if (fd < 0)
			return false;
		close(fd);
		output_temp_add(j->path, false);
	}
	fflush(NULL);
	j->started = g_get_monotonic_time();
	live_job_prepare(lv, j);
	j->pid = fork();
	if (j->pid < 0) {
		live_job_parent(j);
		live_job_done(j);
		g_set_error(err, MCS_ERROR, MCS_ERROR_FAILED, "fork: %s", g_strerror(errno));
		return false;
	}
	if (j->pid == 0)
		child_main(j);
	live_job_parent(j);
	return true;
}

/* Why the child of @j failed: a file it could not write, or how it ended. */
static void job_failure(const struct runner_job *j, int status, GError **err)
{
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
	const char *file = code >= CHILD_RESULT_FAILED	? (j->dest ? j->dest : j->path)
			   : code >= CHILD_TRACE_FAILED ? j->trace
							: NULL;
	char *base = NULL;
	if (file && output_dir_of(file, &base, err) == -2)
		return; /* its directory replaced: said so */
	g_free(base);
	if (file)
		g_set_error(err, MCS_ERROR, MCS_ERROR_FAILED, "%s: cannot write: %s", file,
			    g_strerror(code % 64 ? code % 64 : EIO));
	else
		g_set_error(err, MCS_ERROR, MCS_ERROR_FAILED, "simulation process failed (%s %d)",
			    WIFSIGNALED(status) ? "signal" : "exit status",
			    WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
}

static bool job_finish(struct runner_job *j, int status, GError **err)
{
	bool exited = WIFEXITED(status) && WEXITSTATUS(status) <= 1;
	if (exited && !j->dest)
		j->result = json_load_file(j->path, 0, NULL);
	bool ok = j->dest ? exited : j->result != NULL;
	if (!ok)
		job_failure(j, status, err);
	if (j->path) {
		g_unlink(j->path);
		output_temp_done(j->path);
	}
	g_clear_pointer(&j->path, g_free);
	live_job_done(j);
	j->pid = 0;
	j->wall_s = (double)(g_get_monotonic_time() - j->started) / 1e6;
	j->violation = WIFEXITED(status) && WEXITSTATUS(status) == 1;
	return ok;
}

static struct runner_job *job_by_pid(struct runner_job *jobs, size_t n, pid_t pid)
{
	for (size_t i = 0; i < n; i++)
		if (jobs[i].pid == pid)
			return &jobs[i];
	return NULL;
}

/* The running children stopped and reaped (their temporaries removed). */
static void jobs_kill(struct runner_job *jobs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (jobs[i].pid > 0)
			kill(jobs[i].pid, SIGKILL);
	for (size_t i = 0; i < n; i++)
		if (jobs[i].pid > 0) {
			int status;
			while (waitpid(jobs[i].pid, &status, 0) < 0 && errno == EINTR)
				;
			job_finish(&jobs[i], status, NULL);
		}
}

/* Refused by the estimate of its wall time (@why): the run fails with it. */
static bool jobs_refused(struct live *lv, struct runner_job *jobs, size_t n, GError *why,
			 GError **err)
{
	live_clear(lv);
	jobs_kill(jobs, n);
	g_clear_error(err);
	g_propagate_error(err, why);
	return false;
}

/* Interrupted: the running children are stopped, and the run fails. */
static bool jobs_interrupted(struct runner_job *jobs, size_t n, GError **err)
{
	jobs_kill(jobs, n);
	g_clear_error(err);
	if (output_interrupted() == SIGALRM)
		g_set_error(err, MCS_ERROR, MCS_ERROR_FAILED,
			    "timed out after %d s (--timeout); nothing was written",
			    output_timeout());
	else
		g_set_error(err, MCS_ERROR, MCS_ERROR_FAILED, "interrupted by signal %d (%s)",
			    output_interrupted(), g_strsignal(output_interrupted()));
	return false;
}

/* A job's estimated work and its place, for runner_start_order. */
struct job_work {
	double work;
	size_t index;
};

static int work_cmp(const void *pa, const void *pb)
{
	const struct job_work *a = pa, *b = pb;
	double wa = a->work < 0 ? INFINITY : a->work, wb = b->work < 0 ? INFINITY : b->work;
	if (wa != wb)
		return wa > wb ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

void runner_start_order(const double *work, size_t n, size_t *order)
{
	struct job_work *w = g_new(struct job_work, MAX(n, 1));
	for (size_t i = 0; i < n; i++)
		w[i] = (struct job_work){work[i], i};
	qsort(w, n, sizeof(*w), work_cmp);
	for (size_t i = 0; i < n; i++)
		order[i] = w[i].index;
	g_free(w);
}

/* runner_jobs, starting jobs[@order[0]], jobs[@order[1]], ... */
static bool jobs_run(struct live *lv, struct runner_job *jobs, size_t n, const size_t *order,
		     int parallel, runner_done_fn done, void *ctx, GError **err)
{
	size_t next = 0, running = 0;
	bool ok = true;
	while (running || (ok && next < n)) {
		while (ok && next < n && running < (size_t)MAX(parallel, 1) &&
		       !output_interrupted()) {
			ok = job_start(&jobs[order[next++]], lv, err);
			running += ok;
		}
		if (!running)
			break;
		int status;
		GError *refused = NULL;
		pid_t pid = live_wait(lv, jobs, n, parallel, &status, &refused);
		if (refused)
			return jobs_refused(lv, jobs, n, refused, err);
		struct runner_job *done_job = pid > 0 ? job_by_pid(jobs, n, pid) : NULL;
		if (done_job && output_interrupted()) { /* reaped: not to be waited for again */
			job_finish(done_job, status, NULL);
			running--;
		}
		if (output_interrupted()) {
			live_clear(lv);
			return jobs_interrupted(jobs, n, err);
		}
		if (pid < 0 && errno == EINTR)
			continue;
		struct runner_job *j = pid > 0 ? job_by_pid(jobs, n, pid) : NULL;
		if (!j)
			continue;
		running--;
		GError *e = NULL;
		if (!job_finish(j, status, ok ? err : &e))
			ok = false;
		else if (done)
			done(j, ctx);
		g_clear_error(&e);
	}
	live_clear(lv);
	return output_interrupted() ? jobs_interrupted(jobs, n, err) : ok;
}

double runner_memory_budget(void)
{
	double phys = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
	return MAX(RUN_MAX_MEMORY_BYTES, phys > 0 ? phys / 2 : 0);
}

/* As many at once as the command's memory budget holds (the sum of the
 * simulations running, each at its estimate: the most of any of @jobs),
 * at least one; a run whose every simulation fits alone is not refused. */
static int memory_parallel(const struct runner_job *jobs, size_t n, int parallel,
			   runner_note_fn note_fn)
{
	double most = 0, budget = runner_memory_budget();
	for (size_t i = 0; i < n; i++)
		most = MAX(most, scenario_memory_bytes(jobs[i].config));
	int fits = most > 0 ? (int)MIN((double)parallel, MAX(1, floor(budget / most))) : parallel;
	if ((size_t)fits < MIN((size_t)parallel, n) && note_fn) { /* fewer at once than would run */
		char *msg =
		    g_strdup_printf("-j %d reduced to %d: a simulation may hold about %.3g GiB "
				    "of model objects, and the simulations running at once at "
				    "most %.3g GiB (half this machine's memory)",
				    parallel, fits, most / (1 << 30), budget / (1 << 30));
		note_fn(msg);
		g_free(msg);
	}
	return fits;
}

bool runner_jobs(struct runner_job *jobs, size_t n, int parallel, const struct runner_opts *o,
		 runner_done_fn done, void *ctx, GError **err)
{
	parallel = memory_parallel(jobs, n, parallel, o ? o->note : NULL);
	double *work = g_new(double, MAX(n, 1));
	size_t *order = g_new(size_t, MAX(n, 1));
	for (size_t i = 0; i < n; i++) {
		double horizon;
		work[i] = run_estimate_cpu_s(jobs[i].config, &horizon);
	}
	runner_start_order(work, n, order);
	struct live lv;
	live_start(&lv, o);
	bool ok = jobs_run(&lv, jobs, n, order, parallel, done, ctx, err);
	g_free(order);
	g_free(work);
	return ok;
}

json_t *runner_run_one(const struct run_config *config, uint64_t seed, bool *violation,
		       GError **err)
{
	struct runner_job j = {.config = config, .seed = seed, .point = -1};
	if (!runner_jobs(&j, 1, 1, NULL, NULL, NULL, err))
		return NULL;
	*violation = j.violation;
	return j.result;
}

json_t *runner_lock_classes(const struct run_config *config, uint64_t seed, sim_time_t run_for,
			    GError **err)
{
	struct runner_job j = {
	    .config = config, .seed = seed, .classes = true, .classes_for = run_for, .point = -1};
	if (!runner_jobs(&j, 1, 1, NULL, NULL, NULL, err))
		return NULL;
	return j.result;
}

struct runner_job runner_draw_job(const struct scenario_variant *v, int d)
{
	return (struct runner_job){.config = v->config,
				   .seed = scenario_draw_seed(v->draw_seed, d),
				   .drawn = true,
				   .draw = {v->draw_seed, d},
				   .variant = v->name,
				   .point = -1};
}

bool runner_check_work(const struct scenario *sc, bool force, const char *where, GError **err)
{
	for (guint i = 0; !force && i < sc->variants->len; i++) {
		const struct scenario_variant *v = sc->variants->pdata[i];
		double horizon = 0, cpu_s = run_estimate_cpu_s(v->config, &horizon);
		if (cpu_s <= RUN_MAX_CPU_S)
			continue;
		g_set_error(
		    err, MCS_ERROR, MCS_ERROR_INPUT,
		    "variant %s%s: a run would simulate at least %.4g CPU-seconds (%.4g s on "
		    "%d CPUs), more than the %.0f memcgsim runs without --force",
		    v->name, where, cpu_s, horizon / 1e9, sim_machine_cpus(&v->config->machine),
		    RUN_MAX_CPU_S);
		return false;
	}
	return true;
}

/* runner_run's jobs: each variant's replicas then its cost draws, variant
 * by variant. */
struct variant_jobs {
	GArray *jobs;	   /* struct runner_job */
	GArray *owner;	   /* the variant of each job */
	GPtrArray *traces; /* the trace of each traced variant's first replica */
	GPtrArray *names;  /* the names of those variants */
};

static bool variant_jobs_init(struct variant_jobs *vj, const struct scenario *sc,
			      const struct runner_trace *trace, GError **err)
{
	bool ok = true;
	vj->jobs = g_array_new(FALSE, TRUE, sizeof(struct runner_job));
	vj->owner = g_array_new(FALSE, FALSE, sizeof(guint));
	vj->traces = g_ptr_array_new_with_free_func(g_free);
	vj->names = g_ptr_array_new();
	for (guint i = 0; i < sc->variants->len; i++) {
		const struct scenario_variant *v = sc->variants->pdata[i];
		for (int r = 0; r < v->replicas; r++) {
			struct runner_job j = {.config = v->config,
					       .seed = scenario_replica_seed(v->seed, r),
					       .label = g_strdup_printf("%s replica %d/%d", v->name,
									r + 1, v->replicas),
					       .variant = v->name,
					       .point = -1};
			if (trace && r == 0 && ok) {
				/* a new file: nothing there is followed or written */
				j.trace = output_temp_beside(trace->path, err);
				j.trace_from = trace->from;
				j.trace_to = trace->to;
				ok = j.trace != NULL;
			}
			if (j.trace) {
				/* the trace's process id: sim_trace_join names it */
				j.trace_pid = (int)vj->traces->len + 1;
				g_ptr_array_add(vj->traces, (gpointer)j.trace);
				g_ptr_array_add(vj->names, v->name);
			}
			g_array_append_val(vj->jobs, j);
			g_array_append_val(vj->owner, i);
		}
		for (int d = 0; d < v->draws; d++) {
			struct runner_job j = runner_draw_job(v, d);
			j.label = g_strdup_printf("%s cost draw %d/%d", v->name, d + 1, v->draws);
			g_array_append_val(vj->jobs, j);
			g_array_append_val(vj->owner, i);
		}
	}
	return ok;
}

/* Each variant's aggregate of its jobs' results; *violation when one of
 * them reported a failure. */
static json_t *variant_results(const struct variant_jobs *vj, const struct scenario *sc,
			       bool *violation)
{
	const struct runner_job *js = (const struct runner_job *)(void *)vj->jobs->data;
	json_t *variants = json_array();
	for (guint k = 0; k < vj->jobs->len;) {
		guint vi = g_array_index(vj->owner, guint, k);
		const struct scenario_variant *v = sc->variants->pdata[vi];
		json_t *reps = json_array(), *draws = json_array();
		for (; k < vj->jobs->len && g_array_index(vj->owner, guint, k) == vi; k++) {
			*violation |= js[k].violation;
			json_array_append(js[k].drawn ? draws : reps, js[k].result);
		}
		json_t *vr = result_variant(v->name, v->description, reps);
		json_object_set_new(vr, "machine", result_machine(&v->config->machine));
		result_variant_draws(vr, draws);
		json_array_append_new(variants, vr);
		json_decref(reps);
		json_decref(draws);
	}
	return variants;
}

/* Free the jobs and their results; remove the trace parts. */
static void variant_jobs_free(struct variant_jobs *vj)
{
	for (guint k = 0; k < vj->jobs->len; k++) {
		json_decref(g_array_index(vj->jobs, struct runner_job, k).result);
		g_free(g_array_index(vj->jobs, struct runner_job, k).label);
	}
	g_array_free(vj->jobs, TRUE);
	g_array_free(vj->owner, TRUE);
	for (guint k = 0; k < vj->traces->len; k++) {
		g_unlink(vj->traces->pdata[k]);
		output_temp_done(vj->traces->pdata[k]);
	}
	g_ptr_array_free(vj->traces, TRUE);
	g_ptr_array_free(vj->names, TRUE);
}

static bool trace_put(void *o, const void *data, size_t len, GError **err)
{
	return output_go_on(err) && output_put(o, data, len, err); /* a signal stops the join */
}

/* The trace @path, joined from the parts, as -o writes a file. */
static bool trace_write(const char *path, const struct variant_jobs *vj, GError **err)
{
	struct output o;
	if (!output_open(&o, path, false, err))
		return false;
	if (!sim_trace_join(trace_put, &o, (const char *const *)vj->traces->pdata,
			    (const char *const *)vj->names->pdata, vj->traces->len, err)) {
		output_abort(&o);
		return false;
	}
	return output_commit(&o, err);
}

json_t *runner_run(const struct scenario *sc, int parallel, const struct runner_trace *trace,
		   const struct runner_opts *o, bool *violation, GError **err)
{
	struct variant_jobs vj;
	bool ok = variant_jobs_init(&vj, sc, trace, err);
	struct runner_job *js = (struct runner_job *)(void *)vj.jobs->data;
	/* the file's cap, shared by its parts; MEMCGSIM_TRACE_MAX_EVENTS may
	 * lower it (the tests do) */
	const char *env = g_getenv("MEMCGSIM_TRACE_MAX_EVENTS");
	long cap = env ? CLAMP(atol(env), 1, SIM_TRACE_MAX_EVENTS) : SIM_TRACE_MAX_EVENTS;
	for (guint k = 0; k < vj.jobs->len; k++)
		js[k].trace_max = cap / (long)MAX(vj.traces->len, 1);
	ok = ok && runner_jobs(js, vj.jobs->len, parallel, o, NULL, NULL, err);
	*violation = false;
	json_t *variants = ok ? variant_results(&vj, sc, violation) : NULL;
	if (ok && trace)
		ok = trace_write(trace->path, &vj, err);
	variant_jobs_free(&vj);
	if (!ok) {
		json_decref(variants);
		return NULL;
	}
	return result_document(sc->base, variants, identity_model());
}

// SPDX-License-Identifier: GPL-2.0-or-later
#include "sweep_result.h"
#include "identity.h"
#include "output.h"
#include "result.h"
#include "result_format.h"
#include "result_keys.h"
#include "runfile.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RESULT_INDENT 1	  /* JSON_INDENT of result.json */
#define POINT_INDENT "  " /* a point's depth in it (the document, "points") */
#define COPY_CHUNK (1 << 20)

/* What reading the run files found. */
struct gather {
	const char *dir;
	json_t *m;
	char *plan; /* the plan's SHA-256 */
	int shard_k, shard_n;
	size_t missing;		 /* runs without a sound file */
	size_t mine;		 /* of them, the shard's own */
	const char *first;	 /* the first of the shard's own */
	bool violation;		 /* a run reported a failure */
	struct identity_set ids; /* the models of the runs read */
};

/* One grid point's runs: per variant, its replicas' and its cost draws'
 * results, in order. */
struct point_runs {
	size_t nv;
	json_t **of, **draws;
};

/* Read the files of the runs of the point of run *@i on, checked as
 * --resume checks them (plan, name, seed, result), into @pr; *@i is then
 * the next point's first run. A run without a sound file is missing, and
 * one of shard K of N's own is counted apart. */
static void point_read(struct gather *g, const GArray *runs, guint *i, struct point_runs *pr)
{
	pr->nv = json_array_size(json_object_get(g->m, RK_variants));
	pr->of = g_new0(json_t *, pr->nv);
	pr->draws = g_new0(json_t *, pr->nv);
	for (size_t v = 0; v < pr->nv; v++) {
		pr->of[v] = json_array();
		pr->draws[v] = json_array();
	}
	guint point = g_array_index(runs, struct runfile_run, *i).point;
	for (; *i < runs->len; (*i)++) {
		const struct runfile_run *r = &g_array_index(runs, struct runfile_run, *i);
		if (r->point != point)
			break;
		char *path = runfile_path(g->dir, r->name);
		char *why = NULL;
		json_t *run = runfile_load(path, r->name, g->plan, (json_int_t)r->seed, &why);
		g_free(why);
		if (run)
			identity_set_add(&g->ids, run, path);
		g_free(path);
		if (!run) {
			g->missing++;
			if ((int)(*i % (guint)g->shard_n) == g->shard_k - 1 && !g->mine++)
				g->first = r->name;
			continue;
		}
		g->violation |= json_is_true(json_object_get(run, "violation"));
		json_t **to = r->drawn ? pr->draws : pr->of; /* runs are in order in each */
		json_array_append(to[r->variant], json_object_get(run, "result"));
		json_decref(run);
	}
}

static void point_runs_free(struct point_runs *pr)
{
	for (size_t v = 0; v < pr->nv; v++) {
		json_decref(pr->of[v]);
		json_decref(pr->draws[v]);
	}
	g_free(pr->of);
	g_free(pr->draws);
}

/* Point @p of the sweep's result: its variants' aggregates. */
static json_t *result_point(json_t *m, const struct point_runs *pr, size_t p, json_t *base)
{
	json_t *variants = json_array();
	for (size_t v = 0; v < pr->nv; v++) {
		json_t *vm = json_array_get(json_object_get(m, RK_variants), v);
		const char *name = json_string_value(json_object_get(vm, "name"));
		const char *description = json_string_value(json_object_get(vm, "description"));
		json_t *vr = result_variant(name, description, pr->of[v]);
		result_variant_draws(vr, pr->draws[v]);
		json_array_append_new(variants, vr);
	}
	return json_pack("{s:I, s:O, s:o, s:o}", "index", (json_int_t)p, "label",
			 json_array_get(json_object_get(m, RK_points), p), "values",
			 sweep_point_values(json_object_get(m, "params"), p), "result",
			 result_document(base, variants, NULL));
}

/* The command that runs the sweep of manifest @m (into any directory). */
static json_t *sweep_command(json_t *m)
{
	GString *cmd = g_string_new("memcgsim sweep");
	output_shell_arg(cmd, json_string_value(json_object_get(m, "scenario_file")));
	size_t i;
	json_t *x;
	json_array_foreach (json_object_get(m, "sets"), i, x) {
		g_string_append(cmd, " --set");
		output_shell_arg(cmd, json_string_value(x));
	}
	if (json_integer_value(json_object_get(m, "replicas")))
		g_string_append_printf(
		    cmd, " --replicas %lld",
		    (long long)json_integer_value(json_object_get(m, "replicas")));
	json_array_foreach (json_object_get(m, "params"), i, x) {
		GString *p = g_string_new(NULL);
		size_t k;
		json_t *path;
		json_array_foreach (json_object_get(x, "paths"), k, path)
			g_string_append_printf(p, "%s%s", k ? "," : "", json_string_value(path));
		g_string_append_printf(p, "=%s", json_string_value(json_object_get(x, "spec")));
		g_string_append(cmd, " --param");
		output_shell_arg(cmd, p->str);
		g_string_free(p, TRUE);
	}
	g_string_append(cmd, " --out DIR");
	json_t *j = json_string(cmd->str);
	g_string_free(cmd, TRUE);
	return j;
}

/* The result's text before its points: the document with "points": [],
 * as json_dumps writes it, up to that array's "[". */
static char *result_head(json_t *m, const struct identity_set *ids)
{
	json_t *doc = json_pack(
	    "{s:s, s:o, s:O, s:O, s:o, s:O, s:O, s:[]}", RK_format, RESULT_FORMAT_SWEEP,
	    IDENTITY_KEY, identity_set_json(ids), "scenario", json_object_get(m, "scenario"),
	    "description", json_object_get(m, "description"), "command", sweep_command(m), "seed",
	    json_object_get(m, "seed"), "params", json_object_get(m, "params"), RK_points);
	char *text = json_dumps(doc, JSON_INDENT(RESULT_INDENT));
	json_decref(doc);
	g_assert(g_str_has_suffix(text, "[]\n}")); /* "points" last, and empty */
	text[strlen(text) - strlen("]\n}")] = '\0';
	return text;
}

/* A file being written: DIR/result.json, or the points' text on their way
 * to it (DIR/result.json.points, never put in place: the result's head,
 * with the models of all the runs, is known only once every one is read). */
struct result_out {
	struct output o;
	bool open;
	size_t points;
	size_t bytes; /* written so far */
	GError *err;  /* the first failure to write */
};

static bool out_put(struct result_out *ro, const char *s, size_t n)
{
	if (!ro->err && !output_put(&ro->o, s, n, &ro->err))
		output_abort(&ro->o);
	ro->bytes += n;
	return !ro->err;
}

/* Point @point's text: as json_dumps writes it at the point's depth in the
 * whole, every line indented by that depth more. */
static bool out_point(struct result_out *ro, json_t *point)
{
	char *text = json_dumps(point, JSON_INDENT(RESULT_INDENT));
	GString *s = g_string_new(ro->points++ ? ",\n" POINT_INDENT : "\n" POINT_INDENT);
	for (const char *c = text; *c; c++) {
		g_string_append_c(s, *c);
		if (*c == '\n') /* strings hold none: every one ends a line */
			g_string_append(s, POINT_INDENT);
	}
	bool ok = out_put(ro, s->str, s->len);
	g_string_free(s, TRUE);
	free(text);
	return ok;
}

/* The points' text, all of it, after the result's head in @to. */
static bool out_copy(struct result_out *to, struct result_out *points)
{
	int fd = open(points->o.tmp, O_RDONLY | O_CLOEXEC);
	char *buf = g_malloc(COPY_CHUNK);
	ssize_t n = 0;
	while (fd >= 0 && !to->err && (n = read(fd, buf, COPY_CHUNK)) > 0)
		out_put(to, buf, (size_t)n);
	if ((fd < 0 || n < 0) && !to->err)
		g_set_error(&to->err, MCS_ERROR, MCS_ERROR_FAILED, "%s: cannot read: %s",
			    points->o.tmp, g_strerror(errno));
	if (fd >= 0)
		close(fd);
	g_free(buf);
	return !to->err;
}

/* Every point's runs read; each point's text written out while no run is
 * missing yet. False when a signal came first. */
static bool gather_all(struct gather *g, const GArray *runs, struct result_out *points,
		       const char *path)
{
	json_t *base =
	    json_pack("{s:O, s:O, s:O}", "name", json_object_get(g->m, "scenario"), "description",
		      json_object_get(g->m, "description"), "seed", json_object_get(g->m, "seed"));
	for (guint i = 0; i < runs->len && !output_interrupted();) {
		guint p = g_array_index(runs, struct runfile_run, i).point;
		struct point_runs pr;
		point_read(g, runs, &i, &pr);
		if (!g->missing && !points->err &&
		    (points->open ||
		     (points->open = output_open(&points->o, path, true, &points->err)))) {
			json_t *point = result_point(g->m, &pr, p, base);
			out_point(points, point);
			json_decref(point);
		}
		point_runs_free(&pr);
	}
	json_decref(base);
	return !output_interrupted();
}

/* DIR/result.json: the head, the points' text, the end; put in place. */
static bool result_commit(const char *path, json_t *m, const struct identity_set *ids,
			  struct result_out *points, struct sweep_outcome *out, GError **err)
{
	struct result_out ro = {0};
	char *head = result_head(m, ids);
	char tail[] = "\n ]\n}";
	ro.open = points->open && !points->err && output_open(&ro.o, path, true, &ro.err);
	bool ok = ro.open && out_put(&ro, head, strlen(head)) && out_copy(&ro, points) &&
		  out_put(&ro, tail, strlen(tail));
	free(head);
	if (!ok) {
		if (ro.open)
			output_abort(&ro.o);
		g_propagate_error(err, ro.err ? ro.err : g_steal_pointer(&points->err));
		return false;
	}
	if (!output_commit(&ro.o, err))
		return false;
	out->result_path = g_strdup(path);
	out->result_bytes = ro.bytes;
	return true;
}

bool sweep_result_write(const char *dir, json_t *m, const GArray *runs, int shard_k, int shard_n,
			bool mix, struct sweep_outcome *out, GError **err)
{
	struct gather g = {.dir = dir,
			   .m = m,
			   .plan = runfile_plan_hash(m),
			   .shard_k = shard_k,
			   .shard_n = shard_n};
	identity_set_init(&g.ids);
	struct result_out points = {0};
	char *path = g_build_filename(dir, "result.json", NULL);
	char *points_path = g_strconcat(path, ".points", NULL);
	bool ok = gather_all(&g, runs, &points, points_path) || output_go_on(err);
	if (ok) {
		out->total = runs->len;
		out->done = runs->len - g.missing;
	}
	if (ok && g.mine) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_FAILED,
			    "%s: %zu of the runs are not in %s/runs after running them (the first: "
			    "%s)",
			    dir, g.mine, dir, g.first);
		ok = false;
	} else if (ok && !g.missing && !identity_set_check(&g.ids, mix, err)) {
		ok = false; /* no result of two builds' runs */
	}
	if (ok && !g.missing) {
		out->violation = g.violation;
		ok = result_commit(path, m, &g.ids, &points, out, err);
	}
	if (points.open)
		output_abort(&points.o); /* never put in place */
	g_clear_error(&points.err);
	identity_set_clear(&g.ids);
	g_free(points_path);
	g_free(path);
	g_free(g.plan);
	return ok;
}

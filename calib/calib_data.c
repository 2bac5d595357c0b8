// SPDX-License-Identifier: GPL-2.0-or-later
/* calib: reading a fit file and its measurement files (calib.h). */
#include "calib.h"
#include "calib_in.h"
#include "jpos.h"
#include "mcs_error.h"
#include "mcs_file.h"
#include <jansson.h>
#include <math.h>
#include <string.h>

static void point_free(gpointer p)
{
	struct calib_point *pt = p;
	g_ptr_array_free(pt->sets, TRUE);
	g_free(pt);
}

static void curve_free(gpointer p)
{
	struct calib_curve *c = p;
	g_free(c->name);
	g_free(c->path);
	g_free(c->source);
	g_free(c->measured_what);
	g_free(c->scenario);
	g_free(c->variant);
	g_free(c->metric);
	g_ptr_array_free(c->points, TRUE);
	g_free(c);
}

/* "key=value" for each member of the object @set, appended to @sets. */
static bool sets_add(GPtrArray *sets, json_t *set, const struct calib_in *in, const char *where,
		     GError **err)
{
	if (set && !json_is_object(set))
		return calib_in_bad(err, in, where, "an object of --set overrides");
	const char *key;
	json_t *v;
	json_object_foreach (set, key, v) {
		char *value = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
		if (json_is_string(v))
			g_ptr_array_add(sets, g_strdup_printf("%s=%s", key, json_string_value(v)));
		else
			g_ptr_array_add(sets, g_strdup_printf("%s=%s", key, value));
		free(value);
	}
	return true;
}

/* Is @x among the numbers of the array @xs (NULL: every x is)? */
static bool x_wanted(json_t *xs, double x)
{
	if (!xs)
		return true;
	size_t i;
	json_t *v;
	json_array_foreach (xs, i, v)
		if (json_number_value(v) == x)
			return true;
	return false;
}

/* The curve's points the model block keeps, converted and with their sets. */
static bool curve_points(struct calib_curve *c, const struct calib_in *in, json_t *doc,
			 json_t *model, GError **err)
{
	const char *xkey = calib_in_string(in, model, "model", "x", err);
	if (!xkey)
		return false;
	double scale = 1;
	if (json_object_get(model, "scale") &&
	    !calib_in_number(in, model, "model", "scale", &scale, err))
		return false;
	json_t *xs = json_object_get(model, "points"), *xset = json_object_get(model, "x_set");
	json_t *pts = json_object_get(doc, "points");
	if (!json_is_array(pts))
		return calib_in_bad(err, in, "points", "an array");
	size_t i;
	json_t *p;
	json_array_foreach (pts, i, p) {
		double x, v;
		char *at = g_strdup_printf("points.%zu", i);
		bool ok = calib_in_number(in, p, at, "x", &x, err) &&
			  calib_in_number(in, p, at, "value", &v, err);
		g_free(at);
		if (!ok)
			return false;
		if (!x_wanted(xs, x))
			continue;
		struct calib_point *pt = g_new0(struct calib_point, 1);
		pt->x = x;
		pt->measured = v * scale;
		pt->sets = g_ptr_array_new_with_free_func(g_free);
		g_ptr_array_add(c->points, pt);
		if (!sets_add(pt->sets, json_object_get(model, "set"), in, "model.set", err))
			return false;
		char *xs_key = g_strdup_printf("%g", x);
		json_t *over = xset ? json_object_get(xset, xs_key) : NULL;
		g_free(xs_key);
		if (over && !sets_add(pt->sets, over, in, "model.x_set", err))
			return false;
		if (!over)
			g_ptr_array_add(pt->sets, g_strdup_printf("%s=%g", xkey, x));
		pt->threads = x;
		json_t *th = over ? json_object_get(over, "workloads.0.cpus") : NULL;
		if (json_is_number(th))
			pt->threads = json_number_value(th);
	}
	if (!c->points->len)
		return calib_in_bad(err, in, "model.points", "at least one of the file's x values");
	return true;
}

/* The measurement file @file, named relative to @dir, with its model block. */
static struct calib_curve *curve_load(const char *dir, const char *file, GError **err)
{
	struct calib_curve *c = g_new0(struct calib_curve, 1);
	c->path = g_path_is_absolute(file) ? g_strdup(file) : g_build_filename(dir, file, NULL);
	c->points = g_ptr_array_new_with_free_func(point_free);
	struct calib_in in = {c->path, NULL, 0};
	json_t *doc = calib_in_load(&in, err);
	json_t *model = doc ? json_object_get(doc, "model") : NULL;
	const char *fmt = doc ? json_string_value(json_object_get(doc, "format")) : NULL;
	bool ok = doc != NULL;
	if (ok && (!fmt || strcmp(fmt, "memcgsim-measurement-1") != 0))
		ok = calib_in_bad(err, &in, "format", "\"memcgsim-measurement-1\"");
	if (ok && !json_is_object(model))
		ok = calib_in_bad(err, &in, "model", "an object: how the model runs this curve");
	const char *name = ok ? calib_in_string(&in, doc, NULL, "name", err) : NULL;
	const char *source = name ? calib_in_string(&in, doc, NULL, "source", err) : NULL;
	const char *scen = source ? calib_in_string(&in, model, "model", "scenario", err) : NULL;
	const char *variant = scen ? calib_in_string(&in, model, "model", "variant", err) : NULL;
	const char *metric = variant ? calib_in_string(&in, model, "model", "metric", err) : NULL;
	const char *as = metric ? json_string_value(json_object_get(model, "as")) : NULL;
	ok = metric != NULL;
	if (ok && as && strcmp(as, "value") != 0 && strcmp(as, "period") != 0)
		ok = calib_in_bad(err, &in, "model.as", "\"value\" or \"period\"");
	if (ok) {
		c->name = g_strdup(name);
		c->source = g_strdup(source);
		json_t *measure = json_object_get(doc, "measure");
		const char *q = json_string_value(json_object_get(measure, "quantity"));
		c->measured_what = g_strdup(q ? q : "value");
		c->scenario =
		    g_path_is_absolute(scen) ? g_strdup(scen) : g_build_filename(dir, scen, NULL);
		c->variant = g_strdup(variant);
		c->metric = g_strdup(metric);
		c->period = as && strcmp(as, "period") == 0;
		ok = curve_points(c, &in, doc, model, err);
	}
	json_decref(doc);
	g_free(in.text);
	if (!ok) {
		curve_free(c);
		return NULL;
	}
	return c;
}

static bool params_load(struct calib_spec *s, const struct calib_in *in, json_t *params,
			GError **err)
{
	if (!json_is_array(params) || !json_array_size(params))
		return calib_in_bad(err, in, "params", "a non-empty array");
	s->nparams = (int)json_array_size(params);
	s->params = g_new0(struct calib_param, (gsize)s->nparams);
	for (int i = 0; i < s->nparams; i++) {
		json_t *p = json_array_get(params, (size_t)i);
		struct calib_param *cp = &s->params[i];
		char *at = g_strdup_printf("params.%d", i);
		const char *key = calib_in_string(in, p, at, "key", err);
		bool ok = key && calib_in_number(in, p, at, "lo", &cp->lo, err) &&
			  calib_in_number(in, p, at, "hi", &cp->hi, err) &&
			  calib_in_number(in, p, at, "step", &cp->step, err);
		if (ok)
			cp->key = g_strdup(key);
		if (ok &&
		    (cp->step <= 0 || cp->hi < cp->lo || (cp->hi - cp->lo) / cp->step > 1000)) {
			char *where = g_strdup_printf("%s.step", at);
			ok = calib_in_bad(err, in, where,
					  "lo <= hi and a step > 0 giving at most 1000 values");
			g_free(where);
		}
		g_free(at);
		if (!ok)
			return false;
		cp->preset = NAN;
	}
	return true;
}

struct calib_spec *calib_spec_load(const char *path, GError **err)
{
	struct calib_in in = {path, NULL, 0};
	json_t *doc = calib_in_load(&in, err);
	if (!doc) {
		g_free(in.text);
		return NULL;
	}
	struct calib_spec *s = g_new0(struct calib_spec, 1);
	s->path = g_strdup(path);
	s->curves = g_ptr_array_new_with_free_func(curve_free);
	const char *fmt = json_string_value(json_object_get(doc, "format"));
	bool ok = true;
	if (!fmt || strcmp(fmt, "memcgsim-fit-1") != 0)
		ok = calib_in_bad(err, &in, "format", "\"memcgsim-fit-1\"");
	const char *preset = ok ? calib_in_string(&in, doc, NULL, "preset", err) : NULL;
	const char *family = preset ? calib_in_string(&in, doc, NULL, "family", err) : NULL;
	ok = family && calib_in_number(&in, doc, NULL, "bound", &s->bound, err) &&
	     params_load(s, &in, json_object_get(doc, "params"), err);
	json_t *curves = json_object_get(doc, "curves");
	if (ok && (!json_is_array(curves) || !json_array_size(curves)))
		ok = calib_in_bad(err, &in, "curves", "a non-empty array of measurement files");
	if (ok) {
		s->preset = g_strdup(preset);
		s->family = g_strdup(family);
		char *dir = g_path_get_dirname(path);
		size_t i;
		json_t *f;
		json_array_foreach (curves, i, f) {
			struct calib_curve *c =
			    json_is_string(f) ? curve_load(dir, json_string_value(f), err) : NULL;
			if (!c) {
				if (!json_is_string(f)) {
					char *where = g_strdup_printf("curves.%zu", i);
					calib_in_bad(err, &in, where, "a measurement file's name");
					g_free(where);
				}
				ok = false;
				break;
			}
			g_ptr_array_add(s->curves, c);
		}
		g_free(dir);
	}
	json_decref(doc);
	g_free(in.text);
	if (!ok) {
		calib_spec_free(s);
		return NULL;
	}
	return s;
}

void calib_spec_free(struct calib_spec *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->nparams; i++)
		g_free(s->params[i].key);
	g_free(s->params);
	g_ptr_array_free(s->curves, TRUE);
	g_free(s->path);
	g_free(s->preset);
	g_free(s->family);
	g_free(s);
}

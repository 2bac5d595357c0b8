// SPDX-License-Identifier: GPL-2.0-or-later
#include "plot.h"
#include "change.h"
#include "metrics.h"
#include "output.h"
#include "report_util.h"
#include "result.h"
#include "result_keys.h"
#include "sim_engine.h"
#include "spec.h"
#include "stats.h"
#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define PLOT_SIZE "800,500"
/* Eight series told apart by colour (ColorBrewer's Dark2, for print and
 * for colour-blind readers) and the next eight by dashes too. */
#define PLOT_LINETYPES                                                                             \
	"set linetype 1 lc rgb '#1b9e77' lw 2 pt 7 dt 1\n"                                         \
	"set linetype 2 lc rgb '#d95f02' lw 2 pt 5 dt 1\n"                                         \
	"set linetype 3 lc rgb '#7570b3' lw 2 pt 9 dt 1\n"                                         \
	"set linetype 4 lc rgb '#e7298a' lw 2 pt 11 dt 1\n"                                        \
	"set linetype 5 lc rgb '#66a61e' lw 2 pt 13 dt 1\n"                                        \
	"set linetype 6 lc rgb '#e6ab02' lw 2 pt 4 dt 1\n"                                         \
	"set linetype 7 lc rgb '#a6761d' lw 2 pt 6 dt 1\n"                                         \
	"set linetype 8 lc rgb '#666666' lw 2 pt 8 dt 1\n"                                         \
	"set linetype 9 lc rgb '#1b9e77' lw 2 pt 7 dt 2\n"                                         \
	"set linetype 10 lc rgb '#d95f02' lw 2 pt 5 dt 2\n"                                        \
	"set linetype 11 lc rgb '#7570b3' lw 2 pt 9 dt 2\n"                                        \
	"set linetype 12 lc rgb '#e7298a' lw 2 pt 11 dt 2\n"                                       \
	"set linetype 13 lc rgb '#66a61e' lw 2 pt 13 dt 2\n"                                       \
	"set linetype 14 lc rgb '#e6ab02' lw 2 pt 4 dt 2\n"                                        \
	"set linetype 15 lc rgb '#a6761d' lw 2 pt 6 dt 2\n"                                        \
	"set linetype 16 lc rgb '#666666' lw 2 pt 8 dt 2\n"                                        \
	"set linetype cycle 16\n"

static void plot_free(gpointer p)
{
	struct plot *x = p;
	g_free(x->name);
	g_free(x->title);
	g_free(x->svg);
	g_free(x);
}

char *plot_quote(const char *s)
{
	GString *q = g_string_new("'");
	for (; *s; s++) {
		if (*s == '\'')
			g_string_append(q, "\u2019"); /* gnuplot 5.4 cannot escape a ' */
		else
			g_string_append_c(q, (unsigned char)*s < 0x20 ? ' ' : *s);
	}
	g_string_append_c(q, '\'');
	return g_string_free(q, FALSE);
}

/* A plot being written: its data and script. */
struct fig {
	char *name, *title;
	GString *data, *script, *plot; /* plot: the plot command, after the settings */
	int blocks;		       /* data blocks (gnuplot "index") so far */
};

static struct fig *fig_new(const char *name, const char *title, const char *xlabel,
			   const char *ylabel)
{
	struct fig *f = g_new0(struct fig, 1);
	f->name = g_strdup(name);
	f->title = g_strdup(title);
	f->data = g_string_new(NULL);
	f->script = g_string_new(NULL);
	f->plot = g_string_new(NULL);
	char *t = plot_quote(title), *x = plot_quote(xlabel), *y = plot_quote(ylabel);
	g_string_append_printf(f->script,
			       "# memcgsim plot: redraw with `gnuplot %s.gp` in this directory\n"
			       "set terminal svg size " PLOT_SIZE
			       " dynamic noenhanced font 'sans,11'\n"
			       "set output '%s.svg'\nset title %s\nset xlabel %s\nset ylabel %s\n"
			       "set grid\nset key outside below horizontal\n%s",
			       name, name, t, x, y, PLOT_LINETYPES);
	g_free(t);
	g_free(x);
	g_free(y);
	return f;
}

/* Start data block @title, plotted with @style ("yerrorlines", ...). */
static void fig_block(struct fig *f, const char *title, const char *using, const char *style)
{
	if (f->blocks)
		g_string_append(f->data, "\n\n");
	char *t = plot_quote(title);
	g_string_append_printf(f->data, "# %d\n", f->blocks);
	g_string_append_printf(f->plot, "%s '%s.dat' index %d using %s with %s title %s",
			       f->blocks ? ", \\\n    " : "plot", f->name, f->blocks, using, style,
			       t);
	f->blocks++;
	g_free(t);
}

static void fig_free(struct fig *f)
{
	g_free(f->name);
	g_free(f->title);
	g_string_free(f->data, TRUE);
	g_string_free(f->script, TRUE);
	g_string_free(f->plot, TRUE);
	g_free(f);
}

/* Did gnuplot write all of the image @path? Its write errors do not show in
 * its exit status: an SVG ends with its closing tag, a PNG with its IEND
 * chunk. */
static bool image_complete(const char *path)
{
	char *data = NULL;
	gsize len = 0;
	bool ok = g_file_get_contents(path, &data, &len, NULL);
	if (ok && g_str_has_suffix(path, ".png"))
		ok = len >= 20 && memcmp(data, "\x89PNG\r\n\x1a\n", 8) == 0 &&
		     memcmp(data + len - 8, "IEND\xae\x42\x60\x82", 8) == 0;
	else if (ok)
		ok = g_str_has_suffix(g_strchomp(data), "</svg>");
	g_free(data);
	return ok;
}

/* Check the images of @name gnuplot made in @work, and move them, the data
 * and the script into @dir (as owned files: nothing there is followed). */
static bool fig_keep(const char *work, const char *dir, const char *name, GError **err)
{
	static const char *const exts[] = {"svg", "png", "dat", "gp"}; /* the images first */
	bool ok = true;
	for (guint pass = 0; pass < 2; pass++) /* check the images, then keep it all */
		for (guint i = 0; ok && i < (pass ? G_N_ELEMENTS(exts) : 2); i++) {
			char *from = g_strdup_printf("%s/%s.%s", work, name, exts[i]);
			char *to = g_strdup_printf("%s/%s.%s", dir, name, exts[i]);
			ok = pass ? output_move(from, to, err) : image_complete(from);
			if (!ok && !pass)
				g_set_error(err, MCS_ERROR, MCS_ERROR_FAILED,
					    "%s: gnuplot could not write all of it (is the disk "
					    "full?); nothing kept",
					    to);
			g_free(from);
			g_free(to);
		}
	return ok;
}

/* Write NAME.dat and NAME.gp into @work (plot_all's directory inside the
 * plots' directory), run gnuplot there, check and keep its images, add the
 * plot. */
static bool fig_finish(struct fig *f, const char *work, GPtrArray *plots, GError **err)
{
	GString *settings = f->script;
	g_string_append_printf(settings,
			       "%s\nset terminal pngcairo size " PLOT_SIZE
			       " noenhanced font 'sans,10'\nset output '%s.png'\nreplot\n",
			       f->plot->str, f->name);
	char *gp = g_strdup_printf("%s/%s.gp", work, f->name);
	char *dat = g_strdup_printf("%s/%s.dat", work, f->name);
	char *dir = g_path_get_dirname(work);
	bool ok =
	    output_file(dat, f->data->str, -1, err) && output_file(gp, settings->str, -1, err);
	char *script = g_strdup_printf("%s.gp", f->name);
	char *argv[] = {"gnuplot", script, NULL};
	char *errout = NULL;
	int status = 0;
	if (ok && !g_spawn_sync(work, argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
				NULL, NULL, NULL, &errout, &status, NULL)) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_FAILED,
			    "gnuplot: cannot run it (scripts/setup/setup.sh installs gnuplot-nox)");
		ok = false;
	} else if (ok && !g_spawn_check_wait_status(status, NULL)) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_FAILED, "gnuplot %s/%s: %s", dir, script,
			    errout);
		ok = false;
	}
	if (ok && (ok = fig_keep(work, dir, f->name, err))) {
		struct plot *p = g_new0(struct plot, 1);
		p->name = g_strdup(f->name);
		p->title = g_strdup(f->title);
		p->svg = g_strdup_printf("%s/%s.svg", dir, f->name);
		g_ptr_array_add(plots, p);
	}
	g_free(errout);
	g_free(script);
	g_free(gp);
	g_free(dat);
	g_free(dir);
	fig_free(f);
	return ok;
}

/* A plot of one metric against the first parameter being made. */
struct metric_plot {
	json_t *points; /* the sweep's */
	const char *metric;
	const struct run_metric *d;
	bool numeric; /* the first parameter's values are numbers: the x axis */
	bool ratio;   /* each variant's mean over the baseline's (the first variant) */
	const struct change_resolution *resolution; /* --resolution: the ratio's band */
	double scale;				    /* ns in the unit of the y axis */
	struct fig *f;
	GString *tics; /* the x axis' labels when the values are not numbers */
};

/* The smallest (at most 0) and largest (at least 0) sample of the metric. */
static void samples_range(const struct metric_plot *mp, double *bottom, double *top)
{
	size_t i, v;
	json_t *p, *var;
	*bottom = *top = 0;
	json_array_foreach (mp->points, i, p)
		json_array_foreach (result_point_variants(p), v, var) {
			size_t ns;
			double *xs = result_samples(var, mp->metric, &ns);
			for (size_t k = 0; k < ns; k++) {
				*top = MAX(*top, xs[k]);
				*bottom = MIN(*bottom, xs[k]);
			}
			g_free(xs);
		}
}

/* The lowest and highest ratio of a variant's mean (less, more, its 95% CI)
 * to the baseline's, over the points, with a tenth of the span's room. */
static void ratio_bounds(const struct metric_plot *mp, double *low, double *high)
{
	size_t i, v;
	json_t *p, *var;
	*low = G_MAXDOUBLE;
	*high = -G_MAXDOUBLE;
	json_array_foreach (mp->points, i, p) {
		json_t *vars = result_point_variants(p);
		size_t nb;
		double *bs = result_samples(json_array_get(vars, 0), mp->metric, &nb);
		struct stats_summary b;
		stats_summarise(bs, nb, !mp->d->higher_is_better, &b);
		double bmean = mp->d->higher_is_better ? b.hmean : b.amean;
		g_free(bs);
		json_array_foreach (vars, v, var) {
			size_t ns;
			double *xs = result_samples(var, mp->metric, &ns);
			struct stats_summary s;
			stats_summarise(xs, ns, !mp->d->higher_is_better, &s);
			double mean = mp->d->higher_is_better ? s.hmean : s.amean;
			double ci = stats_ci95(xs, ns);
			g_free(xs);
			if (!bmean || v == 0)
				continue;
			*low = MIN(*low, (mean - ci) / bmean);
			*high = MAX(*high, (mean + ci) / bmean);
		}
	}
	if (*low > *high)
		*low = *high = 1;
	double pad = (*high - *low) * 0.1; /* room for the error bars' ends */
	*low -= pad;
	*high += pad;
}

/* "elapsed_ns" in s reads "elapsed (s)"; "cpu_time_ns.sys", "CPU time sys (s)" */
static char *metric_label(const char *metric, const char *unit)
{
	char *shown = g_str_has_prefix(metric, "cpu_time_ns.")
			  ? g_strdup_printf("CPU time %s", metric + strlen("cpu_time_ns."))
		      : g_str_has_suffix(metric, "_ns") ? g_strndup(metric, strlen(metric) - 3)
							: g_strdup(metric);
	char *label = *unit ? g_strdup_printf("%s (%s)", shown, unit) : g_strdup(shown);
	g_free(shown);
	return label;
}

/* The figure, NAME metric-@n, its axes: the first parameter @param and the
 * metric in the unit that fits its samples. */
/* A point's x: its first parameter's value (of several paths set
 * together from a zip: list, the first path's). */
static json_t *point_x(json_t *point)
{
	json_t *x = json_array_get(json_object_get(point, "values"), 0);
	return json_is_array(x) ? json_array_get(x, 0) : x;
}

static struct fig *metric_fig(struct metric_plot *mp, json_t *param, int n)
{
	const char *pname = json_string_value(json_array_get(json_object_get(param, "paths"), 0));
	double bottom, top;
	samples_range(mp, &bottom, &top);
	const char *unit = mp->d->unit;
	mp->scale = g_str_equal(unit, "ns") && !mp->ratio ? report_unit(top, &unit) : 1;
	const char *base = json_string_value(json_object_get(
	    json_array_get(result_point_variants(json_array_get(mp->points, 0)), 0), "name"));
	char *name = g_strdup_printf(mp->ratio ? "ratio-%02d" : "metric-%02d", n);
	char *title = mp->ratio
			  ? g_strdup_printf("%s over %s's against %s", mp->metric, base, pname)
			  : g_strdup_printf("%s against %s (mean, 95%% CI)", mp->metric, pname);
	char *ylabel = mp->ratio ? g_strdup_printf("%s / %s", mp->metric, base)
				 : metric_label(mp->metric, unit);
	struct fig *f = fig_new(name, title, pname, ylabel);
	if (json_is_true(json_object_get(param, "log")))
		g_string_append(f->script, "set logscale x 2\n");
	if (mp->ratio) { /* fitted to the ratios, the resolution band around 1 drawn */
		double pct = change_resolution_pct(mp->resolution, mp->metric), r = pct / 100;
		g_string_append_printf(
		    f->script,
		    "set object 1 rectangle from graph 0, first %.4f to graph 1, "
		    "first %.4f behind fillcolor rgb '#e8e8e8' fillstyle solid "
		    "noborder\nset label 1 'resolution +-%g%%' at graph 0.01, first "
		    "%.4f offset 0,0.6 font ',9'\n",
		    1 - r, 1 + r, pct, 1 + r);
		double low, high;
		ratio_bounds(mp, &low, &high);
		g_string_append_printf(f->script, "set yrange [%.6g:%.6g]\n", MIN(low, 1 - 2 * r),
				       MAX(high, 1 + 2 * r));
	} else if (bottom >= 0) { /* no error bar below a value that cannot be negative */
		g_string_append(f->script, "set yrange [0:*]\n");
	}
	g_free(name);
	g_free(title);
	g_free(ylabel);
	return f;
}

/* The values of @point's other parameters than the first, as a key. */
static char *other_values(json_t *point)
{
	json_t *rest = json_deep_copy(json_object_get(point, "values"));
	json_array_remove(rest, 0);
	char *key = json_dumps(rest, JSON_COMPACT | JSON_ENCODE_ANY);
	json_decref(rest);
	return key;
}

/* The mean and 95% CI of variant @v at point @q, the @k-th of its line. */
static void metric_point(struct metric_plot *mp, json_t *q, size_t v, size_t k)
{
	json_t *x = point_x(q);
	size_t ns;
	double *xs = result_samples(json_array_get(result_point_variants(q), v), mp->metric, &ns);
	struct stats_summary s;
	stats_summarise(xs, ns, !mp->d->higher_is_better, &s);
	double mean = mp->d->higher_is_better ? s.hmean : s.amean, ci = stats_ci95(xs, ns);
	if (mp->ratio) { /* the CI of the variant's mean, relative to the baseline's mean */
		size_t nb;
		double *bs =
		    result_samples(json_array_get(result_point_variants(q), 0), mp->metric, &nb);
		struct stats_summary b;
		stats_summarise(bs, nb, !mp->d->higher_is_better, &b);
		double bmean = mp->d->higher_is_better ? b.hmean : b.amean;
		mean = bmean ? mean / bmean : 0;
		ci = bmean ? ci / bmean : 0;
		g_free(bs);
	}
	char line[160];
	if (mp->numeric)
		g_snprintf(line, sizeof(line), "%.15g %.15g %.15g\n", json_number_value(x),
			   mean / mp->scale, ci / mp->scale);
	else
		g_snprintf(line, sizeof(line), "%zu %.15g %.15g\n", k, mean / mp->scale,
			   ci / mp->scale);
	g_string_append(mp->f->data, line);
	g_free(xs);
}

/* The line of variant @var (the @v-th) through the points whose other
 * values are @key, as at point @p; the first line (@first) names the x
 * axis' values when they are not numbers. */
static void metric_line(struct metric_plot *mp, size_t v, json_t *var, json_t *p, const char *key,
			bool first)
{
	/* "per-node cpus_per_node=16": the point's label less its first part */
	const char *rest_label = strstr(json_string_value(json_object_get(p, "label")), ", ");
	char *label = g_strdup_printf("%s%s", json_string_value(json_object_get(var, "name")),
				      rest_label ? rest_label + 1 : "");
	fig_block(mp->f, label, "1:2:3", "yerrorlines");
	g_free(label);
	size_t j, k = 0;
	json_t *q;
	json_array_foreach (mp->points, j, q) {
		char *qk = other_values(q);
		bool same = g_str_equal(qk, key);
		free(qk);
		if (!same)
			continue;
		metric_point(mp, q, v, k);
		if (!mp->numeric && first) {
			char *t = plot_quote(json_string_value(json_object_get(q, "label")));
			g_string_append_printf(mp->tics, "%s%s %zu", mp->tics->len ? ", " : "", t,
					       k);
			g_free(t);
		}
		k++;
	}
}

/* A line per variant and value of the other parameters. */
static void metric_lines(struct metric_plot *mp)
{
	size_t v, i;
	json_t *var, *p;
	json_array_foreach (result_point_variants(json_array_get(mp->points, 0)), v, var) {
		if (mp->ratio && v == 0)
			continue; /* the baseline over itself */
		GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
		json_array_foreach (mp->points, i, p) {
			char *key = other_values(p);
			if (!g_hash_table_contains(seen, key)) {
				g_hash_table_add(seen, g_strdup(key));
				metric_line(mp, v, var, p, key, v == (mp->ratio ? 1 : 0) && i == 0);
			}
			free(key);
		}
		g_hash_table_destroy(seen);
	}
}

/* One metric against the first parameter: a line per variant and value of
 * the other parameters. */
static bool plot_metric(json_t *sweep, const char *metric, int n, bool ratio,
			const struct change_resolution *r, const char *dir, GPtrArray *plots,
			GError **err)
{
	json_t *points = json_object_get(sweep, RK_points);
	struct run_metric info;
	struct metric_plot mp = {
	    .points = points,
	    .metric = metric,
	    .d = metric_info(json_array_get(result_point_variants(json_array_get(points, 0)), 0),
			     metric, &info),
	    .numeric = true,
	    .ratio = ratio,
	    .resolution = r,
	    .tics = g_string_new(NULL)};
	size_t i;
	json_t *p;
	json_array_foreach (mp.points, i, p)
		mp.numeric &= json_is_number(point_x(p));
	mp.f = metric_fig(&mp, json_array_get(json_object_get(sweep, "params"), 0), n);
	metric_lines(&mp);
	if (mp.tics->len)
		g_string_append_printf(mp.f->script, "set xtics (%s)\nset offsets 0.5, 0.5, 0, 0\n",
				       mp.tics->str);
	g_string_free(mp.tics, TRUE);
	return fig_finish(mp.f, dir, plots, err);
}

/* A lock class and the most any variant waited for it. */
struct waited {
	const char *cls;
	double wait_ns;
	guint first; /* where it first came: the order of equal waits */
};

static gint waited_cmp(gconstpointer a, gconstpointer b)
{
	const struct waited *x = a, *y = b;
	if (x->wait_ns != y->wait_ns)
		return x->wait_ns > y->wait_ns ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

/* The classes of @variants' locks that have a wait distribution, most wait
 * (over the variants) first; free with g_ptr_array_free(a, TRUE). */
static GPtrArray *waited_classes(json_t *variants)
{
	GArray *w = g_array_new(FALSE, FALSE, sizeof(struct waited));
	size_t i, j;
	json_t *v, *l;
	json_array_foreach (variants, i, v)
		json_array_foreach (json_object_get(v, RK_locks), j, l) {
			const char *c = json_string_value(json_object_get(l, "class"));
			double total = json_number_value(
			    json_object_get(json_object_get(l, "wait_ns"), "total"));
			if (!json_array_size(json_object_get(l, "wait_cdf")))
				continue;
			guint k = 0;
			while (k < w->len &&
			       !g_str_equal(g_array_index(w, struct waited, k).cls, c))
				k++;
			if (k == w->len)
				g_array_append_val(w, ((struct waited){c, total, k}));
			else if (total > g_array_index(w, struct waited, k).wait_ns)
				g_array_index(w, struct waited, k).wait_ns = total;
		}
	g_array_sort(w, waited_cmp);
	GPtrArray *classes = g_ptr_array_new_with_free_func(g_free);
	for (guint k = 0; k < w->len; k++)
		g_ptr_array_add(classes, g_strdup(g_array_index(w, struct waited, k).cls));
	g_array_free(w, TRUE);
	return classes;
}

/* The wait-time CDF of each contended lock class, a line per variant. */
static bool plot_waits(json_t *result, const char *where, const char *dir, GPtrArray *plots,
		       GError **err)
{
	json_t *variants = json_object_get(result, RK_variants);
	GPtrArray *classes = waited_classes(variants);
	size_t i, j;
	json_t *v, *l;
	bool ok = true;
	for (guint c = 0; ok && c < classes->len; c++) {
		char *name = g_strdup_printf("wait-%02u", c);
		char *title = g_strdup_printf("%s: wait-time distribution%s",
					      (char *)classes->pdata[c], where);
		struct fig *f =
		    fig_new(name, title, "wait (ns)", "fraction of contended waits <= x");
		g_string_append(f->script, "set logscale x 10\nset yrange [0:1]\n");
		json_array_foreach (variants, i, v)
			json_array_foreach (json_object_get(v, RK_locks), j, l) {
				if (!g_str_equal(json_string_value(json_object_get(l, "class")),
						 classes->pdata[c]) ||
				    !json_array_size(json_object_get(l, "wait_cdf")))
					continue;
				fig_block(f, json_string_value(json_object_get(v, "name")), "1:2",
					  "lines");
				size_t k;
				json_t *pt;
				json_array_foreach (json_object_get(l, "wait_cdf"), k, pt)
					g_string_append_printf(
					    f->data, "%.6g %.6g\n",
					    json_number_value(json_array_get(pt, 0)),
					    json_number_value(json_array_get(pt, 1)));
			}
		ok = fig_finish(f, dir, plots, err);
		g_free(name);
		g_free(title);
	}
	g_ptr_array_free(classes, TRUE);
	return ok;
}

/* CPU time by category, stacked, one bar per (point and) variant. */
static bool plot_cpu(json_t *results, json_t *labels, const char *dir, GPtrArray *plots,
		     GError **err)
{
	struct fig *f =
	    fig_new("cpu-time", "CPU time by category (mean of replicas)", "", "CPU time (s)");
	g_string_append(f->script, "set style data histograms\nset style histogram rowstacked\n"
				   "set style fill solid 0.8 border -1\nset boxwidth 0.7\n"
				   "set xtics rotate by -30\nset yrange [0:*]\n");
	GString *tics = g_string_new(NULL);
	int bar = 0;
	size_t i, j;
	json_t *r, *v;
	g_string_append(f->data, "# user sys spin irq idle\n");
	json_array_foreach (results, i, r)
		json_array_foreach (json_object_get(r, RK_variants), j, v) {
			const char *vn = json_string_value(json_object_get(v, "name"));
			char *label =
			    labels ? g_strdup_printf(
					 "%s %s", json_string_value(json_array_get(labels, i)), vn)
				   : g_strdup(vn);
			char *t = plot_quote(label);
			g_string_append_printf(tics, "%s%s %d", bar ? ", " : "", t, bar);
			g_free(t);
			g_free(label);
			json_t *cpu = json_object_get(v, RK_cpu_time_ns);
			for (int c = 0; c < SIM_CAT_N; c++)
				g_string_append_printf(
				    f->data, "%s%.9g", c ? " " : "",
				    json_number_value(json_object_get(cpu, sim_cat_names[c])) /
					1e9);
			g_string_append_c(f->data, '\n');
			bar++;
		}
	g_string_append_printf(f->script, "set xtics (%s)\n", tics->str);
	g_string_free(tics, TRUE);
	/* one data block, one column per category */
	for (int c = 0; c < SIM_CAT_N; c++) {
		char using[16];
		g_snprintf(using, sizeof(using), "%d", c + 1);
		g_string_append_printf(f->plot, "%s 'cpu-time.dat' using %s title '%s'",
				       c ? ", \\\n    " : "plot", using, sim_cat_names[c]);
	}
	return fig_finish(f, dir, plots, err);
}

static GPtrArray *plot_figures(json_t *doc, const struct change_resolution *r, const char *dir,
			       GError **err);

/* gnuplot writes into a directory of the tool's own inside @dir (which
 * fig_finish moves the checked files out of), never at a name in @dir that
 * could be a FIFO or a symlink; it is removed at the end. */
GPtrArray *plot_all(json_t *doc, const struct change_resolution *r, const char *dir, GError **err)
{
	char *work = g_strdup_printf("%s/.memcgsim-plots-XXXXXX", dir);
	if (g_mkdir_with_parents(dir, 0777) != 0 || !g_mkdtemp(work)) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_FAILED, "%s: %s", dir, g_strerror(errno));
		g_free(work);
		return NULL;
	}
	output_temp_add(work, true);
	GPtrArray *plots = plot_figures(doc, r, work, err);
	output_remove_files(work, NULL);
	g_rmdir(work);
	output_temp_done(work);
	g_free(work);
	return plots;
}

static GPtrArray *plot_figures(json_t *doc, const struct change_resolution *r, const char *dir,
			       GError **err)
{
	GPtrArray *plots = g_ptr_array_new_with_free_func(plot_free);
	json_t *points = json_object_get(doc, RK_points);
	bool ok = true;
	if (points) {
		GPtrArray *keys = metric_sweep_keys(points);
		bool several =
		    json_array_size(result_point_variants(json_array_get(points, 0))) > 1;
		for (guint n = 0;
		     ok && n < keys->len && json_array_size(json_object_get(doc, "params")); n++)
			ok = plot_metric(doc, keys->pdata[n], (int)n, false, r, dir, plots, err) &&
			     (!several ||
			      plot_metric(doc, keys->pdata[n], (int)n, true, r, dir, plots, err));
		g_ptr_array_free(keys, TRUE);
		json_t *results = json_array(), *labels = json_array();
		size_t i;
		json_t *p;
		json_array_foreach (points, i, p) {
			json_array_append(results, json_object_get(p, "result"));
			json_array_append(labels, json_object_get(p, "label"));
		}
		json_t *last = json_array_get(points, json_array_size(points) - 1);
		char *where =
		    g_strdup_printf(" at %s", json_string_value(json_object_get(last, "label")));
		ok = ok && plot_waits(json_object_get(last, "result"), where, dir, plots, err) &&
		     plot_cpu(results, labels, dir, plots, err);
		g_free(where);
		json_decref(results);
		json_decref(labels);
	} else {
		json_t *results = json_pack("[O]", doc);
		ok = plot_waits(doc, "", dir, plots, err) &&
		     plot_cpu(results, NULL, dir, plots, err);
		json_decref(results);
	}
	if (!ok)
		g_clear_pointer(&plots, g_ptr_array_unref);
	return plots;
}

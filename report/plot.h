/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plot: gnuplot figures of a result or a sweep, as SVG and PNG. Each plot
 * keeps its data (NAME.dat) and script (NAME.gp) beside the images, so a
 * reviewer can redraw it: `cd DIR && gnuplot NAME.gp`.
 *  - a sweep: each metric against the first swept parameter, one line per
 *    variant (and value of the other parameters), error bars the 95%
 *    confidence interval of the mean over replicas;
 *  - the wait-time distribution (CDF) of each contended lock class, one line
 *    per variant (a sweep: at its last point);
 *  - CPU time by category as stacked bars, per variant (a sweep: per point). */
#pragma once
#include <glib.h>
#include <jansson.h>

struct plot {
	char *name;  /* file stem in the plot directory */
	char *title; /* as given: escape it where it goes */
	char *svg;   /* path of the SVG */
};

/* Write the plots of @doc (a result or a sweep result) into @dir and run
 * gnuplot on them, a ratio's band @r's resolution (--resolution; NULL:
 * none); the list of struct plot, or NULL with @err. */
struct change_resolution;
GPtrArray *plot_all(json_t *doc, const struct change_resolution *r, const char *dir, GError **err);
/* @s as a gnuplot single-quoted string (the only kind gnuplot does no
 * backquote command substitution in): a ' becomes a typographic one (there
 * is no escape for it in 5.4), control characters spaces, so a name cannot
 * end the string or the line. */
char *plot_quote(const char *s);

// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading /proc/lock_stat and perf lock contention's output: lockstat.h. */
#include "lockstat.h"
#include "mcs_error.h"
#include "mcs_file.h"
#include <math.h>
#include <string.h>

#define PROC_NUMBERS 12

static void class_free(gpointer p)
{
	struct lockstat_class *c = p;
	g_free(c->name);
	g_free(c);
}

void lockstat_free(struct lockstat *ls)
{
	if (!ls)
		return;
	g_ptr_array_free(ls->classes, TRUE);
	g_free(ls);
}

const char *lockstat_source_name(const struct lockstat *ls)
{
	return ls->source == LOCKSTAT_PROC ? "/proc/lock_stat (version 0.4)"
					   : "perf lock contention";
}

static bool fail(GError **err, const char *path, int line, const char *fmt, ...)
    G_GNUC_PRINTF(4, 5);

static bool fail(GError **err, const char *path, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *why = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT, "%s:%d: %s", path, line, why);
	g_free(why);
	return false;
}

/* A whole token as a finite number without a sign (so not -0). */
static bool number(const char *s, double *v)
{
	char *end;
	*v = g_ascii_strtod(s, &end);
	return end != s && !*end && isfinite(*v) && *v >= 0 && *s != '-';
}

/* The most a machine's measurement holds, once in the reader's units: a
 * count exact in a double, a time of 10^18 ns (31 years). Checked after
 * each unit conversion and sum, so nothing overflows into inf or nan. */
#define LOCKSTAT_MAX_COUNT 9007199254740992.0 /* 2^53 */
#define LOCKSTAT_MAX_NS 1e18
#define LOCKSTAT_RANGE "beyond what a machine measures (counts up to 2^53, times up to 1e18 ns)"

static bool measured(double v, double max)
{
	return isfinite(v) && v >= 0 && v <= max;
}

/* Only @c (and blanks) on the line, at least once. */
static bool rule_of(const char *line, char c)
{
	bool any = false;
	for (const char *p = line; *p; p++) {
		if (*p == c)
			any = true;
		else if (!g_ascii_isspace(*p))
			return false;
	}
	return any;
}

static bool blank(const char *line)
{
	for (const char *p = line; *p; p++)
		if (!g_ascii_isspace(*p))
			return false;
	return true;
}

/* The whitespace-separated words of @line (g_strfreev them). */
static char **words(const char *line, int *n)
{
	char **w = g_strsplit_set(line, " \t\r", -1);
	int k = 0;
	for (int i = 0; w[i]; i++) {
		if (*w[i])
			w[k++] = w[i];
		else
			g_free(w[i]);
	}
	w[k] = NULL;
	*n = k;
	return w;
}

/* What is wrong with a figure of a class line (@time: in us, read in ns;
 * else a count), or NULL. */
static const char *proc_figure_wrong(double v, bool time)
{
	if (!measured(time ? v * 1000 : v, time ? LOCKSTAT_MAX_NS : LOCKSTAT_MAX_COUNT))
		return LOCKSTAT_RANGE;
	return !time && v != floor(v) ? "not a whole number (a count)" : NULL;
}

/* "NAME:  n1 ... n12": the class line of /proc/lock_stat. */
static bool proc_class(struct lockstat *ls, const char *path, int at, const char *line,
		       GError **err)
{
	int n;
	char **w = words(line, &n);
	double v[PROC_NUMBERS];
	bool ok = n > PROC_NUMBERS;
	for (int i = 0; ok && i < PROC_NUMBERS; i++)
		ok = number(w[n - PROC_NUMBERS + i], &v[i]);
	g_strfreev(w);
	/* the name is what comes before the numbers, spaces and all, less ':' */
	const char *end = line + strlen(line);
	for (int k = 0; ok && k < PROC_NUMBERS; k++) {
		while (end > line && g_ascii_isspace(end[-1]))
			end--;
		while (end > line && !g_ascii_isspace(end[-1]))
			end--;
	}
	char *name = ok ? g_strstrip(g_strndup(line, (gsize)(end - line))) : NULL;
	size_t len = name ? strlen(name) : 0;
	ok = len > 1 && name[len - 1] == ':';
	if (!ok) {
		g_free(name);
		return fail(err, path, at,
			    "expected a class (\"NAME:\" and %d numbers), a contention point "
			    "(\"NAME COUNT [<IP>] SYMBOL\") or a separator",
			    PROC_NUMBERS);
	}
	name[len - 1] = '\0';
	g_strchomp(name);
	static const char *const columns[PROC_NUMBERS] = {
	    "con-bounces",    "contentions",  "waittime-min",	"waittime-max",
	    "waittime-total", "waittime-avg", "acq-bounces",	"acquisitions",
	    "holdtime-min",   "holdtime-max", "holdtime-total", "holdtime-avg"};
	for (int i = 0; i < PROC_NUMBERS; i++) {
		const char *why = proc_figure_wrong(v[i], (i >= 2 && i <= 5) || i >= 8);
		if (why) {
			bool ok_ = fail(err, path, at, "%s: %s is %s", name, columns[i], why);
			g_free(name);
			return ok_;
		}
	}
	struct lockstat_class *c = g_new0(struct lockstat_class, 1);
	c->name = name;
	c->con_bounces = v[0];
	c->contentions = v[1];
	c->wait_min = v[2] * 1000;
	c->wait_max = v[3] * 1000;
	c->wait_total = v[4] * 1000;
	c->acq_bounces = v[6];
	c->acquisitions = v[7];
	c->hold_min = v[8] * 1000;
	c->hold_max = v[9] * 1000;
	c->hold_total = v[10] * 1000;
	g_ptr_array_add(ls->classes, c);
	return true;
}

/* A contention point without its address, "NAME COUNT SYMBOL", as
 * memcgsim's own lock_stat section writes it: under 13 words, the last
 * but one a count. */
static bool bare_point(const char *l)
{
	char **w = g_strsplit_set(l, " \t", -1);
	GPtrArray *words = g_ptr_array_new();
	for (char **p = w; *p; p++)
		if (**p)
			g_ptr_array_add(words, *p);
	bool point = words->len >= 3 && words->len <= PROC_NUMBERS;
	const char *count = point ? words->pdata[words->len - 2] : "";
	for (const char *c = count; point && *c; c++)
		point = g_ascii_isdigit(*c);
	point = point && *count;
	g_ptr_array_free(words, TRUE);
	g_strfreev(w);
	return point;
}

/* From @lines[@first], "lock_stat version 0.4" (line @first + 1). */
static bool parse_proc(struct lockstat *ls, const char *path, char **lines, int first, GError **err)
{
	const char *v = g_strstrip(lines[first]) + strlen("lock_stat version");
	while (g_ascii_isspace(*v))
		v++;
	if (!g_str_equal(v, "0.4"))
		return fail(err, path, first + 1,
			    "lock_stat version %s: this reader knows version 0.4", v);
	for (int i = first + 1; lines[i]; i++) {
		const char *l = lines[i];
		if (blank(l) || rule_of(l, '-') || rule_of(l, '.') || strstr(l, "class name"))
			continue;
		if (strstr(l, "[<") || bare_point(l)) /* a contention point: its class line
							  said it all */
			continue;
		if (!proc_class(ls, path, i + 1, l, err))
			return false;
	}
	return true;
}

/* "12.34 ms" at @w[0], @w[1]: ns. perf's units (tools/perf/builtin-lock.c,
 * lock_stat_key_print_time, 6.12): ns, us, ms, s, m (minutes), h (hours). */
static bool perf_time(char **w, double *ns)
{
	static const struct {
		const char *unit;
		double ns;
	} units[] = {{"ns", 1},	 {"us", 1e3},	  {"ms", 1e6},
		     {"s", 1e9}, {"m", 60 * 1e9}, {"h", 3600 * 1e9}};
	if (!number(w[0], ns))
		return false;
	for (size_t i = 0; i < G_N_ELEMENTS(units); i++)
		if (g_str_equal(w[1], units[i].unit)) {
			*ns *= units[i].ns;
			return true;
		}
	return false;
}

static bool perf_header(const char *line)
{
	return strstr(line, "contended") && strstr(line, "total wait") &&
	       strstr(line, "max wait") && strstr(line, "avg wait");
}

/* "COUNT T UNIT T UNIT T UNIT TYPE NAME...": a row, added to its name's. */
static bool perf_row(struct lockstat *ls, GHashTable *by_name, const char *path, int at,
		     const char *line, GError **err)
{
	int n;
	char **w = words(line, &n);
	double count, total, max, avg;
	bool ok = n >= 9 && number(w[0], &count) && count == floor(count) &&
		  perf_time(w + 1, &total) && perf_time(w + 3, &max) && perf_time(w + 5, &avg);
	if (!ok) {
		g_strfreev(w);
		return fail(
		    err, path, at,
		    "expected a row of perf lock contention: a count, three times with "
		    "their units (ns, us, ms, s, m or h), the lock type and the caller or lock");
	}
	GString *name = g_string_new(w[8]);
	for (int i = 9; i < n; i++)
		g_string_append_printf(name, " %s", w[i]);
	char *plus = strstr(name->str, "+0x"); /* a caller's offset in its function */
	if (plus && plus != name->str)
		g_string_truncate(name, (gsize)(plus - name->str));
	g_strfreev(w);
	struct lockstat_class *c = g_hash_table_lookup(by_name, name->str);
	if (!c) {
		c = g_new0(struct lockstat_class, 1);
		c->name = g_strdup(name->str);
		c->wait_min = avg; /* perf gives no minimum: the average stands for it */
		g_ptr_array_add(ls->classes, c);
		g_hash_table_insert(by_name, c->name, c);
	}
	g_string_free(name, TRUE);
	c->contentions += count;
	c->wait_total += total;
	c->wait_max = MAX(c->wait_max, max);
	c->wait_min = MIN(c->wait_min, avg);
	if (!measured(c->contentions, LOCKSTAT_MAX_COUNT) ||
	    !measured(c->wait_total, LOCKSTAT_MAX_NS) || !measured(c->wait_max, LOCKSTAT_MAX_NS))
		return fail(err, path, at, "%s: a figure (or its sum over the rows so far) is %s",
			    c->name, LOCKSTAT_RANGE);
	return true;
}

static bool parse_perf(struct lockstat *ls, const char *path, char **lines, int header,
		       GError **err)
{
	GHashTable *by_name = g_hash_table_new(g_str_hash, g_str_equal);
	bool ok = true;
	for (int i = header + 1; ok && lines[i]; i++)
		if (!blank(lines[i]))
			ok = perf_row(ls, by_name, path, i + 1, lines[i], err);
	g_hash_table_destroy(by_name);
	return ok;
}

struct lockstat *lockstat_parse(const char *path, const char *text, gsize len, GError **err)
{
	if (memchr(text, '\0', len)) {
		g_set_error(err, MCS_ERROR, MCS_ERROR_INPUT, "%s:1: a NUL byte: not a text file",
			    path);
		return NULL;
	}
	char *copy = g_strndup(text, len);
	char **lines = g_strsplit(copy, "\n", -1);
	g_free(copy);
	struct lockstat *ls = g_new0(struct lockstat, 1);
	ls->classes = g_ptr_array_new_with_free_func(class_free);
	int first = 0;
	while (lines[first] && blank(lines[first]))
		first++;
	int header = -1;
	for (int i = first; header < 0 && lines[i]; i++)
		if (perf_header(lines[i]))
			header = i;
	bool ok;
	if (lines[first] && g_str_has_prefix(g_strchug(lines[first]), "lock_stat version")) {
		ls->source = LOCKSTAT_PROC;
		ok = parse_proc(ls, path, lines, first, err);
	} else if (header >= 0) {
		ls->source = LOCKSTAT_PERF;
		ok = parse_perf(ls, path, lines, header, err);
	} else {
		ok = fail(err, path, 1,
			  "expected /proc/lock_stat (its first line \"lock_stat version 0.4\") or "
			  "perf lock contention's output (a header \"contended   total wait   max "
			  "wait   avg wait ...\")");
	}
	g_strfreev(lines);
	if (!ok) {
		lockstat_free(ls);
		return NULL;
	}
	return ls;
}

struct lockstat *lockstat_read(const char *path, GError **err)
{
	gsize len;
	char *text = mcs_file_read_input(path, LOCKSTAT_MAX_BYTES, &len, err);
	if (!text)
		return NULL;
	struct lockstat *ls = lockstat_parse(path, text, len, err);
	g_free(text);
	return ls;
}

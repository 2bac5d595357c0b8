// SPDX-License-Identifier: GPL-2.0-or-later
/* The shape of a result document, declared (result_format.h). */
#include "result_format.h"
#include "result_keys.h"

#define END                                                                                        \
	{                                                                                          \
		NULL, 0, false, NULL, NULL, NULL                                                   \
	}
#define TIME_WHAT "a time in ns: a finite number, 0 or more"

static const struct result_key site_keys[] = {
    {"site", RESULT_STRING, true, NULL, NULL, "the kernel function"},
    END,
};
static const struct result_shape site = {"SITE", site_keys, false};

static const struct result_key convoy_keys[] = {
    {"waiting_for", RESULT_STRING, true, NULL, NULL, "the lock taken inside this one"},
    {"count", RESULT_COUNT, true, NULL, NULL, "waits for it while this one was held"},
    {"wait_total_ns", RESULT_TIME, true, NULL, NULL, "their wait, in all"},
    {"wait_max_ns", RESULT_TIME, true, NULL, NULL, "the longest"},
    END,
};
static const struct result_shape convoy = {"CONVOY", convoy_keys, false};

static const struct result_key lock_keys[] = {
    {"class", RESULT_STRING, true, NULL, NULL, "the lock class, as lock_stat names it"},
    {"type", RESULT_STRING, false, NULL, NULL, "spinlock, rwlock ..."},
    {"lockdep_class", RESULT_STRING, false, NULL, NULL,
     "the class as the variant's kernel names it, which /proc/lock_stat prints (\"\": "
     "lockdep does not track it); absent: the model's name is the kernel's"},
    {"wait_ns", RESULT_OBJECT, true, NULL, NULL, "min, max, total, avg, p50, p99, p999"},
    {"hold_ns", RESULT_OBJECT, true, NULL, NULL, "min, max, total, avg, and its parts"},
    {"wait_cdf", RESULT_ARRAY, false, NULL, NULL, "the waits' distribution"},
    {"contention_points", RESULT_OBJECTS, false, &site, NULL, "where waiters waited"},
    {"contending_points", RESULT_OBJECTS, false, &site, NULL, "where holders held it"},
    {"convoys", RESULT_OBJECTS, false, &convoy, NULL, "waits for locks taken inside it"},
    END,
};
static const struct result_shape lock = {"LOCK", lock_keys, true};

static const struct result_key line_keys[] = {
    {"class", RESULT_STRING, true, NULL, NULL, "the cache line's class"},
    {"ops", RESULT_OBJECT, false, NULL, NULL, "accesses by kind"},
    {"sites", RESULT_OBJECTS, false, &site, NULL, "where it was accessed"},
    END,
};
static const struct result_shape line = {"LINE", line_keys, true};

static const struct result_key metric_keys[] = {
    {"unit", RESULT_STRING, true, NULL, NULL, "\"ns\", \"/us\", \"MB/s\" ...; \"\" for a count"},
    {"higher_is_better", RESULT_BOOLEAN, true, NULL, NULL,
     "a rate (compared by its Hmean) or a cost (by its Amean)"},
    {"meaning", RESULT_STRING, true, NULL, NULL, "what it counts, in a line"},
    END,
};
static const struct result_shape metric = {"METRIC", metric_keys, false};

static const struct result_key replica_keys[] = {
    {RK_sim_time_ns, RESULT_TIME, true, NULL, TIME_WHAT, "simulated elapsed time"},
    {RK_cpu_time_ns, RESULT_TIMES, true, NULL, TIME_WHAT, "CPU time by category"},
    {RK_metrics, RESULT_FIGURES, true, NULL, "a finite number", "the workloads' figures"},
    {RK_metric_info, RESULT_MEMBERS, false, &metric, NULL,
     "each figure's unit, direction and meaning, from the model that made "
     "it (the variant's; a run's before the merge)"},
    {RK_locks, RESULT_OBJECTS, true, &lock, NULL, "lock_stat's classes"},
    {RK_cachelines, RESULT_OBJECTS, false, &line, NULL, "perf c2c's line classes"},
    {RK_batches, RESULT_BATCHES, false, NULL, NULL, "the batch means' figures"},
    END,
};
const struct result_shape result_shape_replica = {"REPLICA", replica_keys, false};

static const struct result_key draw_keys[] = {
    {"", RESULT_INCLUDE, false, &result_shape_replica, NULL, "a replica's members"},
    {"cost_draw", RESULT_FIGURES, true, NULL, "a finite number", "the costs it drew"},
    END,
};
static const struct result_shape draw = {"DRAW", draw_keys, false};

static const struct result_key variant_keys[] = {
    {"name", RESULT_STRING, true, NULL, NULL, "the variant's name"},
    {"description", RESULT_STRING, false, NULL, NULL, "what it is"},
    {"", RESULT_INCLUDE, false, &result_shape_replica, NULL, "a replica's, as means"},
    {RK_per_replica, RESULT_OBJECTS, true, &result_shape_replica, NULL, "each replica's run"},
    {RK_draws, RESULT_OBJECTS, false, &draw, NULL, "each cost draw's run"},
    {RK_per_replica, RESULT_NONEMPTY, false, NULL, "at least one replica", "one at least"},
    {"memcg", RESULT_OBJECT, false, NULL, NULL, "the memcg model's figures"},
    {"lockdep", RESULT_ARRAY, false, NULL, NULL, "lockdep's reports"},
    {RK_fit_role, RESULT_STRING, false, NULL, NULL,
     "memcgsim fit's: \"fitted\" (to its measurement) or \"predicted\" (with the fit)"},
    END,
};
static const struct result_shape variant = {"VARIANT", variant_keys, false};

static const struct result_key result_keys[] = {
    {"scenario", RESULT_STRING, true, NULL, NULL, "the scenario's name"},
    {RK_published, RESULT_OBJECT, false, NULL, NULL, "the published figures it gives"},
    {RK_exercises, RESULT_STRINGS, false, NULL, NULL,
     "the figures the unmodified scenario makes more than 0"},
    {RK_comparisons, RESULT_STRINGS, false, NULL, NULL,
     "the comparisons the scenario exists for, \"A..B\" or \"A..B vs C..D\""},
    {RK_overrides, RESULT_STRINGS, false, NULL, NULL,
     "the run's --set overrides (but replicas): not the unmodified scenario"},
    {RK_fit, RESULT_OBJECT, false, NULL, NULL,
     "memcgsim fit's: the variant fitted to its measurement and how; every other variant "
     "is a prediction with its values"},
    {RK_variants, RESULT_OBJECTS, true, &variant, NULL, "the baseline first"},
    {RK_variants, RESULT_NONEMPTY, false, NULL, "at least one variant", "one at least"},
    END,
};
const struct result_shape result_shape_result = {"RESULT", result_keys, false};

static const struct result_key param_keys[] = {
    {"paths", RESULT_STRINGS, true, NULL, NULL, "the keys it sets"},
    {"spec", RESULT_STRING, true, NULL, NULL, "its values as given"},
    {"values", RESULT_ARRAY, true, NULL, NULL, "its values"},
    END,
};
static const struct result_shape param = {"PARAM", param_keys, false};

static const struct result_key point_keys[] = {
    {"label", RESULT_STRING, true, NULL, NULL, "its parameters' values, as text"},
    {"values", RESULT_ARRAY, true, NULL, NULL, "a value a parameter"},
    {"result", RESULT_SHAPE, true, &result_shape_result, "an object", "its result"},
    END,
};
static const struct result_shape point = {"POINT", point_keys, false};

static const struct result_key sweep_keys[] = {
    {"scenario", RESULT_STRING, true, NULL, NULL, "the scenario's name"},
    {"params", RESULT_OBJECTS, true, &param, NULL, "the swept parameters"},
    {RK_points, RESULT_OBJECTS, true, &point, NULL, "the grid's points"},
    {RK_points, RESULT_NONEMPTY, false, NULL, "at least one point", "one at least"},
    {"", RESULT_LOG_RANGE, false, NULL, NULL, "a log range's values are > 0"},
    END,
};
const struct result_shape result_shape_sweep = {"SWEEP", sweep_keys, false};

const char *result_key_what(const struct result_key *k)
{
	static const char *const words[] = {
	    [RESULT_STRING] = "a string",
	    [RESULT_OBJECT] = "an object",
	    [RESULT_ARRAY] = "an array",
	    [RESULT_COUNT] = "a count (an integer, 0 or more)",
	    [RESULT_TIME] = "a time in ns, 0 or more",
	    [RESULT_TIMES] = TIME_WHAT,
	    [RESULT_FIGURES] = "a finite number",
	    [RESULT_OBJECTS] = "an array",
	    [RESULT_SHAPE] = "an object",
	    [RESULT_STRINGS] = "an array",
	    [RESULT_BOOLEAN] = "true or false",
	    [RESULT_MEMBERS] = "an object",
	};
	return k->what ? k->what : words[k->kind] ? words[k->kind] : "";
}

/* The kind in the docs' words. */
static const char *kind_doc(const struct result_key *k)
{
	switch (k->kind) {
	case RESULT_OBJECTS:
	case RESULT_SHAPE:
		return NULL; /* the shape's name says it */
	case RESULT_TIMES:
		return "an object of times in ns, 0 or more";
	case RESULT_FIGURES:
		return "an object of finite numbers";
	case RESULT_STRINGS:
		return "an array of strings";
	case RESULT_BATCHES:
		return "an object: units, steady, metrics";
	default:
		return result_key_what(k);
	}
}

static void shape_doc(const struct result_shape *s, GPtrArray *done, GString *out)
{
	if (g_ptr_array_find(done, s, NULL))
		return;
	g_ptr_array_add(done, (gpointer)s);
	g_string_append_printf(out, "%s%s:\n", s->name,
			       s->counts_under ? " (every other number in it a count or time)"
					       : "");
	for (const struct result_key *k = s->keys; k->key; k++) {
		if (k->kind == RESULT_INCLUDE)
			g_string_append_printf(out, "  the members of %s\n", k->of->name);
		else if (k->kind == RESULT_NONEMPTY)
			g_string_append_printf(out, "  %s: %s\n", k->key, k->what);
		else if (k->kind == RESULT_LOG_RANGE)
			g_string_append_printf(out, "  %s\n", k->doc);
		else if (k->of)
			g_string_append_printf(
			    out, "  %s%s: %s %s%s; %s\n", k->key, k->required ? "" : " (optional)",
			    k->kind == RESULT_OBJECTS	? "an array of"
			    : k->kind == RESULT_MEMBERS ? "an object of"
							: "a",
			    k->of->name, k->kind == RESULT_MEMBERS ? " by name" : "", k->doc);
		else
			g_string_append_printf(out, "  %s%s: %s; %s\n", k->key,
					       k->required ? "" : " (optional)", kind_doc(k),
					       k->doc);
	}
	for (const struct result_key *k = s->keys; k->key; k++)
		if (k->of)
			shape_doc(k->of, done, out);
}

void result_format_doc(GString *out)
{
	GPtrArray *done = g_ptr_array_new();
	shape_doc(&result_shape_result, done, out);
	shape_doc(&result_shape_sweep, done, out);
	g_ptr_array_free(done, TRUE);
}

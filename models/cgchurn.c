/* cgchurn: cgroup lifecycle events. At `at_ns`, and every `period_ns` for
 * `cycles` cycles, each cgroup instance is removed (rmdir: offline and
 * reparent) and, with `recreate`, made again under the same name; instances
 * are `interval_ns` apart. */
#include "memcg.h"
#include "scenario_memcg.h"
#include "workload.h"
#include <glib.h>

struct cgchurn {
	char *tmpl;
	int count, cycles;
	bool recreate;
	sim_time_t at, interval, period;
	long events;
};

static void cgchurn_loop(struct sim_task *t, void *arg)
{
	struct cgchurn *c = arg;
	sim_time_t next = c->at;
	for (int cycle = 0; cycle < c->cycles; cycle++) {
		for (int i = 0; i < c->count; i++) {
			if (next > sim_task_clock(t))
				sim_task_sleep(t, next - sim_task_clock(t));
			char *name = scenario_cgroup_instance(c->tmpl, i);
			struct mem_cgroup *m = mem_cgroup_lookup(name);
			if (m && m->online) {
				long max = m->memory.max;
				mem_cgroup_css_offline(t, m); /* rmdir */
				if (c->recreate)
					{
					sim_task_flush(t); /* mkdir: at the task's time */
					mem_cgroup_create(name, max);
				}
				c->events++;
			}
			g_free(name);
			next += c->interval;
		}
		next = c->at + (cycle + 1) * c->period;
	}
}

static void *cgchurn_setup(json_t *w, int index)
{
	struct cgchurn *c = g_new0(struct cgchurn, 1);
	c->tmpl = g_strdup(json_string_value(json_object_get(w, "cgroup")));
	c->count = (int)json_integer_value(json_object_get(w, "count"));
	c->cycles = (int)json_integer_value(json_object_get(w, "cycles"));
	c->recreate = json_is_true(json_object_get(w, "recreate"));
	c->at = sim_from_ns(json_number_value(json_object_get(w, "at_ns")));
	c->interval = sim_from_ns(json_number_value(json_object_get(w, "interval_ns")));
	c->period = sim_from_ns(json_number_value(json_object_get(w, "period_ns")));
	char *name = g_strdup_printf("cgchurn.%d", index);
	sim_task_create(name, (int)json_integer_value(json_object_get(w, "cpu")), cgchurn_loop, c);
	g_free(name);
	return c;
}

static void cgchurn_metrics(void *state, json_t *metrics)
{
	struct cgchurn *c = state;
	json_object_set_new(metrics, "rmdir_events", json_integer(c->events));
}

static void cgchurn_destroy(void *state)
{
	struct cgchurn *c = state;
	g_free(c->tmpl);
	g_free(c);
}

const struct workload_ops cgchurn_ops = {"cgchurn", cgchurn_setup, cgchurn_metrics,
					 cgchurn_destroy};

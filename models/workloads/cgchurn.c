// SPDX-License-Identifier: GPL-2.0-or-later
/* cgchurn: cgroup lifecycle events. At `at_ns`, and every `period_ns` for
 * `cycles` cycles, each cgroup instance is removed (rmdir: offline and
 * reparent) and, with `recreate`, made again under the same name; instances
 * are `interval_ns` apart. */
#include "memcg.h"
#include "workload.h"
#include <glib.h>

struct cgchurn_params {
	struct workload_tasks tasks; /* first: workload_tasks_cgroup */
	double at_ns, interval_ns, period_ns;
	long cycles;
	bool recreate;
	long cpu;
};

#define AT(member) SPEC_AT(struct cgchurn_params, member)
static const struct spec_field cgchurn_fields[] = {
    SPEC_TYPE_FIELD("cgchurn"),
    {"cgroup", &workload_cgroup_spec, true, NULL, AT(tasks.cgroup)},
    {"count", &workload_count_spec, false, "1", AT(tasks.count)},
    {"at_ns", &workload_time_spec, false, "0", AT(at_ns)},
    {"interval_ns", &workload_time_spec, false, "0", AT(interval_ns)},
    {"period_ns", &workload_time_spec, false, "0", AT(period_ns)},
    {"cycles",
     &(const struct spec){
	 .kind = SPEC_INTEGER, .doc = "rmdir (+ mkdir) rounds", .min = 1, .max = 1e6},
     false, "1", AT(cycles)},
    {"recreate",
     &(const struct spec){.kind = SPEC_BOOLEAN, .doc = "mkdir each cgroup again after its rmdir"},
     false, "true", AT(recreate)},
    WORKLOAD_CPU_FIELD("CPU running the events", AT(cpu)),
    {NULL},
};
#undef AT

static const struct spec cgchurn_spec = {
    .kind = SPEC_OBJECT,
    .doc = "cgchurn: rmdir (offline + reparent) and mkdir of cgroup instances at given times",
    .fields = cgchurn_fields,
    .size = sizeof(struct cgchurn_params)};

#define MAX_CHURN_EVENTS 100000 /* each recreation is a new memcg */

static bool cgchurn_check(const void *params, const struct run_config *cfg, const char *path,
			  struct spec_check *chk)
{
	const struct cgchurn_params *p = params;
	long events = p->tasks.count * p->cycles;
	if (events > MAX_CHURN_EVENTS)
		return spec_check_fail(
		    chk, path, "cycles",
		    "expected count x cycles <= %d rmdir events (each mkdir makes "
		    "a memcg), got %ld",
		    MAX_CHURN_EVENTS, events);
	return workload_check_cpu(p->cpu, cfg, path, chk);
}

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
			char *name = mem_cgroup_instance_name(c->tmpl, i);
			struct mem_cgroup *m = mem_cgroup_lookup(name);
			if (m && m->online) {
				long max = m->memory.max;
				mem_cgroup_css_offline(t, m); /* rmdir */
				if (c->recreate) {
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

static void *cgchurn_setup(const void *params, int index)
{
	const struct cgchurn_params *p = params;
	struct cgchurn *c = g_new0(struct cgchurn, 1);
	c->tmpl = g_strdup(p->tasks.cgroup);
	c->count = (int)p->tasks.count;
	c->cycles = (int)p->cycles;
	c->recreate = p->recreate;
	c->at = sim_from_ns(p->at_ns);
	c->interval = sim_from_ns(p->interval_ns);
	c->period = sim_from_ns(p->period_ns);
	sim_task_createf((int)p->cpu, cgchurn_loop, c, "cgchurn.%d", index);
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

/* Each recreation is a new memcg, and the removed one is kept. */
static double cgchurn_memory_bytes(const void *params, const struct run_config *cfg)
{
	const struct cgchurn_params *p = params;
	if (!p->recreate)
		return 0;
	return (double)p->tasks.count * (double)p->cycles * mem_cgroup_bytes(cfg->machine.nodes);
}

const struct workload_type cgchurn_workload = {
    .name = "cgchurn",
    .spec = &cgchurn_spec,
    .check = cgchurn_check,
    .cgroup = workload_tasks_cgroup,
    .memory_bytes = cgchurn_memory_bytes,
    .setup = cgchurn_setup,
    .metrics = cgchurn_metrics,
    .metric_info =
	(const struct run_metric[]){
	    {"rmdir_events", true, "", "memcgs created and removed (each removal a reparent)"},
	    {NULL, false, NULL, NULL}},
    .destroy = cgchurn_destroy,
};

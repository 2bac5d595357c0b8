/* memhog: each task writes its size of anonymous memory once (numactl's
 * memhog), faulting pages in and charging them to its cgroup in batches of
 * MEMCG_CHARGE_BATCH pages; over the limit, the charge reclaims. */
#include "memhog.h"
#include "cost.h"
#include "memcg.h"
#include "scenario_memcg.h"
#include <glib.h>

struct memhog_task {
	struct mem_cgroup *memcg;
	long pages;
	sim_time_t start; /* launched this long after the run starts */
};

struct memhog {
	int count;
	struct memhog_task *tasks;
};

static void memhog_loop(struct sim_task *t, void *arg)
{
	struct memhog_task *mt = arg;
	int nid = sim_cpu_node(sim_task_cpu(t));
	if (mt->start)
		sim_task_sleep(t, mt->start);
	for (long done = 0; done < mt->pages;) {
		long n = MIN(MEMCG_CHARGE_BATCH, mt->pages - done);
		sim_task_run(t, SIM_CAT_USER, n * cost(COST_MEMSET_PAGE));
		sim_task_charge(t, SIM_CAT_SYS, n * cost(COST_ANON_FAULT)); /* do_anonymous_page */
		mem_cgroup_charge(t, mt->memcg, n);
		lru_add_pages(t, mt->memcg, nid, n, 0);
		done += n;
	}
}

static void *memhog_setup(json_t *w, int index)
{
	struct memhog *mh = g_new0(struct memhog, 1);
	mh->count = (int)json_integer_value(json_object_get(w, "count"));
	mh->tasks = g_new0(struct memhog_task, mh->count);
	const char *tmpl = json_string_value(json_object_get(w, "cgroup"));
	long pages = (long)(json_number_value(json_object_get(w, "size_mb")) * 256);
	bool spread = g_str_equal(json_string_value(json_object_get(w, "placement")), "spread");
	long long *start = workload_start_times(w, "memhog", index, mh->count);
	for (int i = 0; i < mh->count; i++) {
		mh->tasks[i].start = start[i];
		char *cg = scenario_cgroup_instance(tmpl, i);
		mh->tasks[i].memcg = mem_cgroup_lookup(cg);
		mh->tasks[i].pages = pages;
		g_free(cg);
		char *name = g_strdup_printf("memhog.%d.%d", index, i);
		sim_task_create(name, workload_cpu_for(i, spread), memhog_loop, &mh->tasks[i]);
		g_free(name);
	}
	g_free(start);
	return mh;
}

static void memhog_destroy(void *state)
{
	struct memhog *mh = state;
	g_free(mh->tasks);
	g_free(mh);
}

const struct workload_ops memhog_ops = {"memhog", memhog_setup, NULL, memhog_destroy};

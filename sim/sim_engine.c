// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE /* memfd_create */
#include "sim_engine.h"
#include "sim_balance.h"
#include "sim_batch.h"
#include "sim_irq.h"
#include "sim_sched.h"
#include "sim_smt.h"
#include "sim_trace.h"
#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/semaphore.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xbt/config.h>
#include <xbt/log.h>

const char *const sim_cat_names[SIM_CAT_N] = {"user", "sys", "spin", "irq", "idle", "unexplained"};

struct sim_cpu {
	int id;
	int node;
	int core, llc, socket; /* machine-wide */
	sg_host_t host;
	struct sim_task *curr; /* task owning the CPU, NULL when idle */
	GQueue runq;	       /* runnable tasks waiting for this CPU */
	sim_time_t idle_since;
	sim_time_t acct[SIM_CAT_N];
	GArray *pending;	   /* struct pending_irq: arrived while interrupts were off */
	struct sim_task *irq_task; /* runs handler bodies while the CPU is idle */
	bool irq_task_waiting;	   /* it waits for the CPU to go idle */
	sim_time_t next_balance[SIM_BALANCE_LEVELS]; /* the periodic balance, by domain */
};

struct pending_irq {
	int source;
	sim_time_t at, handler;
};

struct sim_task {
	char *name;
	struct sim_cpu *cpu;
	struct sim_actor actor; /* its SimGrid actor: when it runs again, where it waits */
	sim_time_t clock;	/* the task's own time, >= the engine's */
	sim_time_t slice_used;
	int preempt_count;
	int irqs_off;	 /* local_irq_disable depth */
	bool in_irq;	 /* running an interrupt handler */
	bool delivering; /* in deliver_pending: no nested delivery */
	bool daemon;	 /* never ends: the run does not wait for it */
	/* Nothing charged yet: a first sleep is the delay before the task's
	 * start, and the CPU it was created on stands for fork balancing's
	 * choice (wake_up_new_task), so its wake does not move it. */
	bool fresh;
	bool bound; /* never moved (sim_task_bind) */
	/* Of its coming busy charges, the time it will stall on cache lines
	 * (sim_task_stall_next): charged, but not stretched by SMT. */
	sim_time_t stall_next;
	enum sim_cat irq_cat;	      /* what the handler interrupted */
	sim_time_t preempt_off_until; /* when its last preempt-off section ended */
	void *model;		      /* per-task state of the models (lockdep) */
	int group;		      /* its cgroup, a model's id: sim_task_set_group */
	bool blocked;		      /* blocked while owning its CPU */
	enum sim_cat blocked_cat;
	sim_task_fn fn;
	void *arg;
};

static struct {
	struct sim_machine m;
	sim_time_t stop_at;
	sim_time_t limit;
	sim_time_t end;
	sim_time_t last_exit;			  /* when the last task returned */
	bool aborted;				  /* a model stopped the run (a deadlock) */
	bool limit_hit;				  /* a run to completion reached its limit */
	void (*switch_hook)(int cpu);		  /* a CPU left its task */
	void (*preempt_hook)(struct sim_task *t); /* preemption enabled again */
	uint64_t seed;
	uint64_t skipped; /* flushes that needed no engine call (sim_task_flush) */
	bool lookahead; /* skip them (off: MEMCGSIM_NO_LOOKAHEAD, to check that it changes nothing)
			 */
	bool local_ok;	/* CPU-local acquisitions without a flush (off: MEMCGSIM_NO_LOCAL) */
	uint64_t local, inversions; /* sim_note_local */
	int waiting;		    /* tasks in the CPUs' run queues */
	uint64_t migrations;	    /* tasks moved to another CPU (machine.migration) */
	struct sim_actor ctl, dog;  /* the controller, the watchdog */
	int live;		    /* tasks SimGrid waits for that have not returned */
	int ncpus;
	struct sim_cpu *cpus;
	GPtrArray *tasks;
} W;

const struct sim_machine *sim_machine(void)
{
	return &W.m;
}

int sim_ncpus(void)
{
	return W.ncpus;
}

int sim_cpu_node(int cpu)
{
	return W.cpus[cpu].node;
}

int sim_cpu_core(int cpu)
{
	return W.cpus[cpu].core;
}

int sim_cpu_llc(int cpu)
{
	return W.cpus[cpu].llc;
}

int sim_cpu_socket(int cpu)
{
	return W.cpus[cpu].socket;
}

int sim_nllcs(void)
{
	return sim_machine_llcs(&W.m);
}

int sim_llc_cpu(int llc)
{
	const struct sim_machine *m = &W.m;
	int core = llc * m->cores_per_llc, per_node = sim_machine_cores_per_node(m);
	return core / per_node * m->cpus_per_node + core % per_node;
}

enum sim_hop sim_cpu_hop(int from, int to)
{
	const struct sim_cpu *a = &W.cpus[from], *b = &W.cpus[to];
	if (from == to)
		return SIM_HOP_SELF;
	if (a->core == b->core)
		return SIM_HOP_SMT;
	if (a->llc == b->llc)
		return SIM_HOP_LLC;
	return a->socket == b->socket ? SIM_HOP_SOCKET : SIM_HOP_REMOTE;
}

uint64_t sim_seed(void)
{
	return W.seed;
}

/* The engine's time (sim_sched.h): the running task may go on past flushes
 * that nobody could come between (sim_task_flush). */
sim_time_t sim_now(void)
{
	return sim_sched_now();
}

sim_time_t sim_end(void)
{
	return W.end;
}

sim_time_t sim_stop_at(void)
{
	return W.stop_at;
}

uint64_t sim_engine_calls(void)
{
	return sim_sched_calls();
}

uint64_t sim_engine_flushes_skipped(void)
{
	return W.skipped;
}

bool sim_local_ok(void)
{
	return W.local_ok;
}

void sim_note_local(bool inversion)
{
	if (inversion)
		W.inversions++;
	else
		W.local++;
}

uint64_t sim_engine_local(void)
{
	return W.local;
}

void sim_task_bind(struct sim_task *t)
{
	t->bound = true;
}

uint64_t sim_engine_migrations(void)
{
	return W.migrations;
}

uint64_t sim_engine_inversions(void)
{
	return W.inversions;
}

sim_time_t sim_cpu_time(int cpu, enum sim_cat cat)
{
	return W.cpus[cpu].acct[cat];
}

/* Add [from, to) to a CPU's category, clipped to the run's end. */
static void cpu_account(struct sim_cpu *cpu, enum sim_cat cat, sim_time_t from, sim_time_t to)
{
	if (W.stop_at) {
		if (to > W.stop_at)
			to = W.stop_at;
		if (from > W.stop_at)
			from = W.stop_at;
	}
	if (to > from)
		cpu->acct[cat] += to - from;
}

static char *platform_xml(const struct sim_machine *m)
{
	GString *s = g_string_new("<?xml version='1.0'?>\n"
				  "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
				  "<platform version=\"4.1\">\n"
				  "<zone id=\"machine\" routing=\"Full\">\n");
	for (int n = 0; n < m->nodes; n++) {
		g_string_append_printf(s, " <zone id=\"node%d\" routing=\"None\">\n", n);
		for (int c = 0; c < m->cpus_per_node; c++)
			g_string_append_printf(s,
					       "  <host id=\"cpu%d\" speed=\"%gGf\">"
					       "<prop id=\"node\" value=\"%d\"/></host>\n",
					       n * m->cpus_per_node + c, m->clock_ghz, n);
		g_string_append(s, " </zone>\n");
	}
	g_string_append(s, "</zone>\n</platform>\n");
	return g_string_free(s, FALSE);
}

/* The platform is handed to SimGrid as a file that lives only in memory
 * (memfd), so that a run killed at any moment leaves no file behind. */
static void load_platform(const struct sim_machine *m)
{
	int fd = memfd_create("memcgsim-platform.xml", MFD_CLOEXEC);
	if (fd < 0)
		g_error("cannot create the platform file: %s", g_strerror(errno));
	char *xml = platform_xml(m);
	size_t len = strlen(xml), done = 0;
	while (done < len) {
		ssize_t n = write(fd, xml + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			g_error("cannot write the platform file: %s", g_strerror(errno));
		done += (size_t)n;
	}
	g_free(xml);
	char path[64];
	g_snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	simgrid_load_platform(path);
	close(fd);
}

void sim_engine_irqs(struct sim_irq_source *sources, int n)
{
	sim_irq_fini();
	sim_irq_init(sources, n, W.ncpus, W.seed);
}

static struct {
	int fd;
	gint64 last;	    /* monotonic, us */
	long planned, done; /* sim_work_plan, sim_work_done */
} progress = {-1, 0, 0, 0};

void sim_work_plan(long units)
{
	progress.planned += units;
}

void sim_work_done(long units)
{
	progress.done += units;
	sim_batch_work(progress.done, progress.planned); /* reads, never calls the engine */
}

void sim_work_exit(void)
{
	sim_batch_steady_end();
}

static void engine_progress_tick(uint64_t calls);

/* The figures now: the engine's time and what the CPUs have accounted so
 * far (a task's own charges may run ahead of the engine's time: the
 * increments still add up to the run's totals, which is all the batch
 * means need). An idle span is accounted only when it ends, so idle is
 * taken as the rest, the CPUs' time to now less the busy categories: at
 * the run's end that is the idle time exactly (the categories add up). */
static void batch_figures(sim_time_t *f)
{
	sim_time_t busy = 0;
	f[SIM_BATCH_ELAPSED] = sim_now();
	for (int cat = 0; cat < SIM_CAT_N; cat++) {
		sim_time_t total = 0;
		for (int c = 0; c < sim_ncpus() && cat != SIM_CAT_IDLE; c++)
			total += sim_cpu_time(c, (enum sim_cat)cat);
		f[SIM_BATCH_CPU + cat] = total;
		busy += total;
	}
	f[SIM_BATCH_CPU + SIM_CAT_IDLE] = sim_now() * sim_ncpus() - busy;
	f[SIM_BATCH_SMT] = sim_smt_active() ? sim_smt_stretch_total() : 0;
}

void sim_engine_init(const struct sim_machine *m, sim_time_t stop_at, sim_time_t limit,
		     uint64_t seed)
{
	memset(&W, 0, sizeof(W));
	W.m = *m;
	progress.planned = progress.done = 0; /* this simulation's work (the fd stays) */
	sim_batch_reset(batch_figures);
	if (!W.m.threads_per_core) /* a machine given without its topology */
		sim_machine_flat(&W.m);
	m = &W.m;
	W.stop_at = stop_at;
	W.limit = limit;
	W.seed = seed;
	W.ncpus = sim_machine_cpus(m);
	W.tasks = g_ptr_array_new();
	W.lookahead = !g_getenv("MEMCGSIM_NO_LOOKAHEAD");
	W.local_ok = !g_getenv("MEMCGSIM_NO_LOCAL");
	sim_sched_init(W.ncpus + 2);
	sim_sched_on_call(engine_progress_tick);

	int argc = 1;
	char arg0[] = "memcgsim";
	char *argv[] = {arg0, NULL};
	xbt_log_control_set("root.thresh:critical");
	simgrid_init(&argc, argv);
	sg_cfg_set_int("contexts/stack-size", 64); /* KiB: thousands of CPUs fit */
	load_platform(m);

	W.cpus = g_new0(struct sim_cpu, W.ncpus);
	for (int c = 0; c < W.ncpus; c++) {
		char name[32];
		snprintf(name, sizeof(name), "cpu%d", c);
		W.cpus[c].id = c;
		W.cpus[c].node = sim_machine_cpu_node(m, c);
		W.cpus[c].core = sim_machine_cpu_core(m, c);
		W.cpus[c].llc = sim_machine_cpu_llc(m, c);
		W.cpus[c].socket = sim_machine_cpu_socket(m, c);
		W.cpus[c].host = sg_host_by_name(name);
		W.cpus[c].pending = g_array_new(FALSE, FALSE, sizeof(struct pending_irq));
		g_queue_init(&W.cpus[c].runq);
	}
	sim_irq_init(NULL, 0, W.ncpus, seed);
	sim_smt_init(m, stop_at, sim_now); /* it asks the engine's time */
}

void sim_engine_progress_fd(int fd)
{
	progress.fd = fd;
	progress.last = g_get_monotonic_time();
}

/* Every 1024th engine call: the clock, when the last report is old enough.
 * A full pipe drops the report (the descriptor is non-blocking). */
static void engine_progress_tick(uint64_t calls)
{
	if (progress.fd < 0 || (calls & 1023))
		return;
	gint64 now = g_get_monotonic_time();
	if (now - progress.last < SIM_PROGRESS_US)
		return;
	progress.last = now;
	char line[64];
	int n = progress.planned > 0
		    ? snprintf(line, sizeof(line), "%.0f %.4f\n", sim_to_ns(sim_now()),
			       MIN(1.0, (double)progress.done / (double)progress.planned))
		    : snprintf(line, sizeof(line), "%.0f\n", sim_to_ns(sim_now()));
	if (write(progress.fd, line, (size_t)n) < 0)
		return; /* EAGAIN: the reader is behind; the next report will do */
}

static void engine_block(struct sim_task *t)
{
	sim_sched_block(&t->actor);
}

/* A task spinning on its CPU (sim_task_block) changes nothing others see
 * as it resumes: it runs when it is first due. One that waits off its CPU
 * takes the CPU at once, before its waker goes on, as SimGrid ran it. */
void sim_task_wake(struct sim_task *t)
{
	sim_sched_wake(&t->actor, !t->blocked);
}

/* @cpu idled from @from to @to, taking the interrupts that arrived meanwhile
 * (handler time is irq, the rest idle). Returns when it is free again: @to,
 * or later when a handler runs past it. */
static sim_time_t cpu_idle_span(struct sim_cpu *cpu, sim_time_t from, sim_time_t to)
{
	sim_time_t busy_until = from;
	while (sim_irq_next(cpu->id) < to) {
		sim_time_t at, handler;
		int s = sim_irq_pop(cpu->id, &at, &handler);
		sim_time_t start = MAX(at, busy_until);
		cpu_account(cpu, SIM_CAT_IDLE, busy_until, start);
		busy_until = start + handler;
		cpu_account(cpu, SIM_CAT_IRQ, start, busy_until);
		sim_irq_record(cpu->id, s, start - at);
		sim_trace_span(NULL, cpu->id, "irq", sim_irq_name(s), start, busy_until);
	}
	if (busy_until < to)
		cpu_account(cpu, SIM_CAT_IDLE, busy_until, to);
	return MAX(busy_until, to);
}

/* The task @t starts owning @cpu at the engine's current time. */
static void cpu_take(struct sim_cpu *cpu, struct sim_task *t)
{
	sim_time_t free_at = cpu_idle_span(cpu, cpu->idle_since, sim_now());
	cpu->curr = t;
	sim_smt_busy(cpu->id, true);
	t->clock = free_at; /* after any handler still running */
	t->slice_used = 0;
}

static int cpu_waiting(int c)
{
	return (int)g_queue_get_length(&W.cpus[c].runq);
}

/* Tasks waiting on CPU @c that the balance may move. */
static int cpu_movable(int c)
{
	int n = 0;
	for (GList *l = W.cpus[c].runq.head; l; l = l->next)
		n += !((struct sim_task *)l->data)->bound;
	return n;
}

/* The first task waiting on @cpu that may move, taken off its queue. */
static struct sim_task *runq_take_movable(struct sim_cpu *cpu)
{
	for (GList *l = cpu->runq.head; l; l = l->next) {
		struct sim_task *t = l->data;
		if (!t->bound) {
			g_queue_delete_link(&cpu->runq, l);
			return t;
		}
	}
	return NULL;
}

/* idle_cpu(): nothing but the idle task, whose interrupts do not count. */
static bool cpu_is_idle(int c)
{
	struct sim_cpu *cpu = &W.cpus[c];
	return !cpu->curr || cpu->curr == cpu->irq_task;
}

/* Tasks on CPU @c, running (not its interrupt task) and waiting. */
static int cpu_running(int c)
{
	struct sim_cpu *cpu = &W.cpus[c];
	return (cpu->curr && cpu->curr != cpu->irq_task) + cpu_waiting(c);
}

/* The task moves to @cpu: its lines stay where it used them, and its next
 * accesses to them from @cpu are transfers (the line model's). */
static void task_migrate(struct sim_task *t, struct sim_cpu *cpu)
{
	t->cpu = cpu;
	W.migrations++;
}

/* The fair class's newly idle balance (sim_balance.h): @cpu, with nothing
 * of its own to run, pulls the task that has waited longest on the nearest
 * CPU with tasks waiting (detach_tasks takes the least recently run). */
static struct sim_task *newidle_balance(struct sim_cpu *cpu)
{
	if (!W.m.migration || !W.waiting)
		return NULL;
	int src = sim_balance_busiest(&W.m, cpu->id, cpu_movable);
	if (src < 0)
		return NULL;
	struct sim_task *t = runq_take_movable(&W.cpus[src]);
	W.waiting--;
	task_migrate(t, cpu);
	return t;
}

/* The periodic balance of busy @cpu at a slice end (sim_balance.h): one
 * task waiting on a CPU with two more joins @cpu's queue. */
static void periodic_balance(struct sim_cpu *cpu)
{
	if (!W.m.migration || !W.waiting)
		return;
	int src = sim_balance_periodic(&W.m, cpu->id, sim_now(), cpu->next_balance, cpu_running,
				       cpu_movable);
	if (src < 0)
		return;
	struct sim_task *t = runq_take_movable(&W.cpus[src]);
	g_queue_push_tail(&cpu->runq, t);
	task_migrate(t, cpu);
}

/* A task woken off its CPU runs where select_idle_sibling puts it: its own
 * CPU if idle, else an idle one of that CPU's LLC. */
static void task_select_cpu(struct sim_task *t)
{
	if (!W.m.migration || t->fresh || t->bound || cpu_is_idle(t->cpu->id))
		return;
	int c = sim_balance_idle_sibling(&W.m, t->cpu->id, cpu_is_idle);
	if (c != t->cpu->id)
		task_migrate(t, &W.cpus[c]);
}

/* The current task leaves @cpu at the engine's current time. */
static void cpu_put(struct sim_cpu *cpu)
{
	if (W.switch_hook)
		W.switch_hook(cpu->id); /* a context switch, or going idle */
	struct sim_task *next = g_queue_pop_head(&cpu->runq);
	if (next)
		W.waiting--;
	else
		next = newidle_balance(cpu);
	cpu->curr = next;
	sim_smt_busy(cpu->id, next != NULL);
	if (!next) {
		cpu->idle_since = sim_now();
		if (cpu->irq_task_waiting) { /* interrupts may be due */
			cpu->irq_task_waiting = false;
			sim_task_wake(cpu->irq_task);
		}
		return;
	}
	next->clock = sim_now();
	next->slice_used = 0;
	sim_task_wake(next);
}

static void task_wait_for_cpu(struct sim_task *t)
{
	g_queue_push_tail(&t->cpu->runq, t);
	W.waiting++;
	engine_block(t);       /* cpu_put() made us current before waking us */
	bool fresh = t->fresh; /* the switch is not the task's own work */
	sim_task_charge(t, SIM_CAT_SYS, W.m.context_switch);
	t->fresh = fresh;
}

/* The task's body, then it leaves its CPU. */
static void task_body(struct sim_task *t)
{
	if (t->daemon) { /* an interrupt task: it takes its CPU only when idle */
		t->fn(t, t->arg);
		return;
	}
	if (t->cpu->curr)
		task_wait_for_cpu(t);
	else
		cpu_take(t->cpu, t);
	if (sim_smt_active()) /* the tasks starting now own their CPUs before any runs */
		sim_sched_yield();
	t->fn(t, t->arg);
	if (sim_task_should_stop(t) && g_queue_is_empty(&t->cpu->runq)) {
		/* The run is over: leave without sleeping; the CPU is idle from
		 * the task's clock on, which the accounting clips to the end. */
		t->cpu->curr = NULL;
		sim_smt_busy(t->cpu->id, false);
		t->cpu->idle_since = t->clock;
		return;
	}
	sim_task_flush(t);
	if (sim_now() > W.last_exit && !t->daemon)
		W.last_exit = sim_now();
	cpu_put(t->cpu);
}

/* A run to completion ends with the last task that is no daemon. */
static void task_main(int argc, char **argv)
{
	struct sim_task *t = sg_actor_self_get_data();
	if (W.stop_at || t->daemon) /* runnable meanwhile, from its creation */
		sg_actor_daemonize(sg_actor_self());
	sim_sched_begin(&t->actor, false);
	task_body(t);
	bool last = !W.stop_at && !t->daemon && --W.live == 0;
	sim_sched_end(&t->actor, last);
}

static struct sim_task *task_create(const char *name, int cpu, sim_task_fn fn, void *arg,
				    bool daemon)
{
	g_assert_cmpint(cpu, >=, 0);
	g_assert_cmpint(cpu, <, W.ncpus);
	struct sim_task *t = g_new0(struct sim_task, 1);
	t->name = g_strdup(name);
	t->cpu = &W.cpus[cpu];
	t->fn = fn;
	t->arg = arg;
	t->daemon = daemon;
	t->fresh = true;
	W.live += !daemon;
	g_ptr_array_add(W.tasks, t);
	sim_actor_init(&t->actor);
	sim_sched_spawn(&t->actor, name, t->cpu->host, task_main, t);
	return t;
}

struct sim_task *sim_task_create(const char *name, int cpu, sim_task_fn fn, void *arg)
{
	return task_create(name, cpu, fn, arg, false);
}

struct sim_task *sim_task_createf(int cpu, sim_task_fn fn, void *arg, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *name = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	struct sim_task *t = sim_task_create(name, cpu, fn, arg);
	g_free(name);
	return t;
}

const char *sim_task_name(const struct sim_task *t)
{
	return t->name;
}

int sim_task_cpu(const struct sim_task *t)
{
	return t->cpu->id;
}

sim_time_t sim_task_clock(const struct sim_task *t)
{
	return t->clock;
}

bool sim_task_should_stop(const struct sim_task *t)
{
	return W.stop_at && t->clock >= W.stop_at;
}

static void task_account(struct sim_task *t, enum sim_cat cat, sim_time_t d)
{
	cpu_account(t->cpu, cat, t->clock, t->clock + d);
	t->clock += d;
}

static void task_take_irq(struct sim_task *t, int source, sim_time_t at, sim_time_t handler);

/* Interrupts became possible again: run those that arrived meanwhile, oldest
 * first, including any that arrive during their handlers. */
static void deliver_pending(struct sim_task *t)
{
	GArray *pending = t->cpu->pending;
	if (t->delivering)
		return; /* the outer loop takes them */
	t->delivering = true;
	t->irq_cat = SIM_CAT_SYS; /* they interrupted the kernel */
	while (pending->len && !t->irqs_off) {
		struct pending_irq p = g_array_index(pending, struct pending_irq, 0);
		g_array_remove_index(pending, 0);
		task_take_irq(t, p.source, p.at, p.handler);
	}
	t->delivering = false;
}

/* Run the handler (cost @handler) of interrupt @source, which arrived at
 * @at, now. */
static void task_take_irq(struct sim_task *t, int source, sim_time_t at, sim_time_t handler)
{
	struct sim_irq_source *s = source == SIM_IRQ_IPI ? NULL : sim_irq_source(source);
	sim_irq_record(t->cpu->id, source, t->clock - at);
	sim_time_t start = t->clock;
	t->irqs_off++; /* handlers run with interrupts off */
	bool nested = t->in_irq;
	t->in_irq = true;
	task_account(t, SIM_CAT_IRQ, sim_smt_stretch(t->cpu->id, handler, t->clock));
	if (s && s->action) {
		sim_task_flush(t); /* the body touches shared state: at its time */
		s->action(t, s->action_arg);
	}
	sim_trace_span(t, t->cpu->id, "irq", sim_irq_name(source), start, t->clock);
	t->in_irq = nested;
	if (--t->irqs_off == 0) /* what arrived during the handler, now */
		deliver_pending(t);
}

/* Spend @d of @cat; interrupts that arrive meanwhile are taken where they
 * fall (the work resumes after the handler), or left pending while the task
 * has interrupts off. */
static void task_charge(struct sim_task *t, enum sim_cat cat, sim_time_t d)
{
	if (d < 0)
		d = 0;
	t->fresh &= d == 0;
	sim_time_t end = t->clock + d;
	while (sim_irq_next(t->cpu->id) < end) {
		sim_time_t at, handler;
		int s = sim_irq_pop(t->cpu->id, &at, &handler);
		if (t->irqs_off) {
			struct pending_irq p = {s, at, handler};
			g_array_append_val(t->cpu->pending, p);
			continue;
		}
		if (at > t->clock)
			task_account(t, cat, at - t->clock);
		sim_time_t before = t->clock;
		t->irq_cat = cat;
		task_take_irq(t, s, at, handler);
		end += t->clock - before;
	}
	if (end > t->clock)
		task_account(t, cat, end - t->clock);
}

/* Busy work runs slower while the CPU's SMT siblings are busy (sim_smt.h);
 * spinning and idling take the time they take. */
void sim_task_charge(struct sim_task *t, enum sim_cat cat, sim_time_t d)
{
	sim_task_charge_split(t, cat, d, cat, 0);
}

void sim_task_stall(struct sim_task *t, enum sim_cat cat, sim_time_t d)
{
	task_charge(t, cat, d);
}

void sim_task_stall_next(struct sim_task *t, sim_time_t d)
{
	if (d > 0)
		t->stall_next += d;
}

void sim_task_charge_split(struct sim_task *t, enum sim_cat cat, sim_time_t d,
			   enum sim_cat rest_cat, sim_time_t rest)
{
	sim_time_t total = d + rest;
	if (cat != SIM_CAT_SPIN && cat != SIM_CAT_IDLE) {
		/* the line stalls it includes first, at their own length */
		sim_time_t stall = MIN(MAX(total, 0), t->stall_next);
		t->stall_next -= stall;
		total = stall + sim_smt_stretch(t->cpu->id, total - stall, t->clock);
	}
	sim_time_t first =
	    rest > 0 ? sim_round((double)total * (double)d / (double)(d + rest)) : total;
	task_charge(t, cat, first);
	if (total > first)
		task_charge(t, rest_cat, total - first);
}

bool sim_task_in_irq(const struct sim_task *t)
{
	return t->in_irq;
}

enum sim_cat sim_task_interrupted_cat(const struct sim_task *t)
{
	return t->irq_cat;
}

bool sim_cpu_idle(int cpu)
{
	return W.cpus[cpu].curr == NULL;
}

struct sim_task *sim_cpu_curr(int cpu)
{
	return W.cpus[cpu].curr;
}

sim_time_t sim_cpu_clock(int cpu)
{
	const struct sim_task *t = W.cpus[cpu].curr;
	return t ? t->clock : sim_now();
}

int sim_task_preempt_count(const struct sim_task *t)
{
	return t->preempt_count;
}

sim_time_t sim_task_preempt_off_until(const struct sim_task *t)
{
	return t->preempt_off_until;
}

void sim_engine_on_switch(void (*hook)(int cpu))
{
	W.switch_hook = hook;
}

void sim_engine_on_preempt_enable(void (*hook)(struct sim_task *t))
{
	W.preempt_hook = hook;
}

void sim_task_wait(struct sim_task *t)
{
	g_assert_cmpint(t->preempt_count, ==, 0);
	sim_task_flush(t);
	cpu_put(t->cpu);
	engine_block(t);
	task_select_cpu(t);
	if (t->cpu->curr)
		task_wait_for_cpu(t);
	else
		cpu_take(t->cpu, t);
}

bool sim_task_irqs_enabled(const struct sim_task *t)
{
	return t->irqs_off == 0;
}

void **sim_task_model(struct sim_task *t)
{
	return &t->model;
}

void sim_task_set_group(struct sim_task *t, int group)
{
	t->group = group;
}

int sim_task_group(const struct sim_task *t)
{
	return t->group;
}

void sim_engine_abort(void)
{
	W.aborted = true;
	W.end = sim_now();
	sg_actor_kill_all();
	sg_actor_exit();
}

bool sim_engine_aborted(void)
{
	return W.aborted;
}

void sim_task_irq_disable(struct sim_task *t)
{
	t->irqs_off++;
}

/* local_irq_enable: the interrupts that arrived meanwhile run now. */
void sim_task_irq_enable(struct sim_task *t)
{
	g_assert_cmpint(t->irqs_off, >, 0);
	if (--t->irqs_off)
		return;
	deliver_pending(t);
	sim_task_charge(t, SIM_CAT_SYS, 0); /* any arrival due by now */
}

/* When no other actor can run before the task's clock (sim_wakeq.h), the
 * engine would wake this task next anyway, with nothing in between: its time
 * becomes the engine's without an engine call, and the same things happen in
 * the same order. The comparison is strict: an actor due at the same time
 * goes in SimGrid's order, as before. */
void sim_task_flush(struct sim_task *t)
{
	static uint64_t at_now; /* flushes with nothing to wait for */
	if (t->clock <= sim_now()) {
		/* events that take no simulated time still say how far the run
		 * is, so a run whose time stands still is seen (estimate.c) */
		engine_progress_tick(++at_now);
		return;
	}
	if (W.lookahead && t->clock < sim_wakeq_min()) {
		sim_sched_advance(t->clock);
		W.skipped++;
		return;
	}
	sim_sched_sleep_until(&t->actor, t->clock, true);
}

static void task_yield(struct sim_task *t)
{
	sim_task_flush(t);
	periodic_balance(t->cpu);
	if (g_queue_is_empty(&t->cpu->runq))
		return;
	cpu_put(t->cpu);
	task_wait_for_cpu(t);
}

void sim_task_run(struct sim_task *t, enum sim_cat cat, sim_time_t d)
{
	sim_task_run_split(t, cat, d, cat, 0);
}

void sim_task_run_split(struct sim_task *t, enum sim_cat cat, sim_time_t d, enum sim_cat rest_cat,
			sim_time_t rest)
{
	while (d + rest > 0) {
		sim_time_t room = W.m.sched_slice - t->slice_used;
		sim_time_t chunk = d + rest < room ? d + rest : room;
		sim_time_t first = MIN(d, chunk); /* the chunk's part of @d */
		sim_task_charge_split(t, cat, first, rest_cat, chunk - first);
		t->slice_used += chunk;
		d -= first;
		rest -= chunk - first;
		if (t->slice_used >= W.m.sched_slice) {
			t->slice_used = 0;
			if (t->preempt_count == 0 && !sim_task_should_stop(t))
				task_yield(t);
		}
	}
}

void sim_task_block(struct sim_task *t, enum sim_cat cat)
{
	g_assert_cmpint(t->clock, ==, sim_now());
	t->blocked = true;
	t->blocked_cat = cat;
	engine_block(t);
	t->blocked = false;
	task_charge(t, cat, sim_now() - t->clock); /* the waker set its length */
}

void sim_task_sleep(struct sim_task *t, sim_time_t d)
{
	g_assert_cmpint(t->preempt_count, ==, 0);
	sim_task_flush(t);
	cpu_put(t->cpu);
	sim_sched_sleep_until(&t->actor, sim_now() + d, true);
	task_select_cpu(t);
	if (t->cpu->curr)
		task_wait_for_cpu(t);
	else
		cpu_take(t->cpu, t);
}

void sim_task_preempt_disable(struct sim_task *t)
{
	t->preempt_count++;
}

void sim_task_preempt_enable(struct sim_task *t)
{
	g_assert_cmpint(t->preempt_count, >, 0);
	if (--t->preempt_count)
		return;
	t->preempt_off_until = t->clock; /* may be ahead of the engine */
	if (W.preempt_hook)
		W.preempt_hook(t);
}

/* A timed run: the run ends when the controller does, at its end. */
static void controller_main(int argc, char **argv)
{
	sim_sched_begin(&W.ctl, true);
	sim_sched_sleep_until(&W.ctl, W.stop_at, true);
	sim_sched_end(&W.ctl, true);
}

/* A run to completion that reaches its limit: stop everything. */
static void watchdog_main(int argc, char **argv)
{
	sg_actor_daemonize(sg_actor_self()); /* runnable meanwhile, from its creation */
	sim_sched_begin(&W.dog, true);
	sim_sched_sleep_until(&W.dog, W.limit, false); /* not one of the models' engine calls */
	W.limit_hit = true;
	W.end = W.limit;
	sg_actor_kill_all();
}

/* The CPU's interrupt task: while the CPU is idle it takes the CPU at each
 * arrival and runs the handler, body included, at its time; while a task
 * owns the CPU, that task takes the arrivals. */
static void irq_task_loop(struct sim_task *t, void *arg)
{
	struct sim_cpu *cpu = t->cpu;
	for (;;) {
		sim_time_t next = sim_irq_next(cpu->id);
		if (next == SIM_TIME_MAX)
			engine_block(t);
		else if (next > sim_now())
			sim_sched_sleep_until(&t->actor, next, true);
		/* Let whatever else is due now go first: a run that ends now ends
		 * before this arrival, as an idle span leaves it out too. */
		sim_sched_yield();
		while (cpu->curr) { /* busy: its task takes the arrivals */
			cpu->irq_task_waiting = true;
			engine_block(t);
		}
		cpu_take(cpu, t);
		t->irq_cat = SIM_CAT_IDLE; /* what the handlers interrupt */
		while (sim_irq_next(cpu->id) <= t->clock) {
			sim_time_t at, handler;
			int s = sim_irq_pop(cpu->id, &at, &handler);
			task_take_irq(t, s, at, handler);
		}
		sim_task_flush(t);
		cpu_put(cpu);
	}
}

/* An interrupt task on each CPU that a source with a handler body reaches. */
static void create_irq_tasks(void)
{
	for (int c = 0; c < W.ncpus; c++) {
		bool body = false;
		for (int s = 0; s < sim_irq_nsources(); s++)
			body |= sim_irq_source(s)->action && sim_irq_reaches(sim_irq_source(s), c);
		if (!body)
			continue;
		char name[32];
		g_snprintf(name, sizeof(name), "irq/%d", c);
		W.cpus[c].irq_task = task_create(name, c, irq_task_loop, NULL, true);
	}
}

bool sim_engine_run(void)
{
	bool completed = true;
	create_irq_tasks();
	if (W.stop_at) {
		sim_actor_init(&W.ctl);
		sim_sched_spawn(&W.ctl, "controller", W.cpus[0].host, controller_main, NULL);
		simgrid_run();
		sim_sched_finish(&W.ctl);
		W.end = W.aborted ? W.end : W.stop_at;
	} else {
		sim_actor_init(&W.dog);
		sim_sched_spawn(&W.dog, "watchdog", W.cpus[0].host, watchdog_main, NULL);
		simgrid_run(); /* until the last task returns; daemons are killed */
		sim_sched_finish(&W.dog);
		completed = !W.limit_hit && !W.aborted;
		if (completed)
			W.end = W.last_exit;
	}
	for (int c = 0; c < W.ncpus && !W.aborted; c++) {
		struct sim_cpu *cpu = &W.cpus[c];
		if (!cpu->curr)
			cpu_idle_span(cpu, cpu->idle_since, W.end);
		else if (cpu->curr->blocked) /* still spinning when the run ended */
			task_charge(cpu->curr, cpu->curr->blocked_cat, W.end - cpu->curr->clock);
	}
	return completed;
}

void sim_engine_fini(void)
{
	for (guint i = 0; i < W.tasks->len; i++) {
		struct sim_task *t = W.tasks->pdata[i];
		sim_actor_destroy(&t->actor);
		g_free(t->name);
		g_free(t->model);
		g_free(t);
	}
	g_ptr_array_free(W.tasks, TRUE);
	for (int c = 0; c < W.ncpus; c++) {
		g_queue_clear(&W.cpus[c].runq);
		g_array_free(W.cpus[c].pending, TRUE);
	}
	sim_irq_fini();
	sim_smt_fini();
	sim_actor_destroy(&W.ctl);
	sim_actor_destroy(&W.dog);
	sim_sched_fini();
	g_free(W.cpus);
	memset(&W, 0, sizeof(W));
}

// SPDX-License-Identifier: GPL-2.0-or-later
#include "sim_irq.h"
#include "sim_rng.h"
#include <glib.h>
#include <string.h>

struct irq_stream {
	sim_time_t next; /* SIM_TIME_MAX: this source does not reach the CPU */
	struct sim_rng *rng;
};

struct posted_irq {
	sim_time_t at, handler;
};

struct irq_cpu {
	struct irq_stream *streams; /* per source */
	GArray *posted;		    /* struct posted_irq, by time */
	uint64_t count;
	sim_time_t latency_total, latency_max;
	struct sim_hist latency;
};

static struct {
	struct sim_irq_source *src;
	int nsrc;
	int ncpus;
	struct irq_cpu *cpu;
} I;

bool sim_irq_reaches(const struct sim_irq_source *s, int cpu)
{
	return s->cpu_mask[cpu / 64] & (1ULL << (cpu % 64));
}

static sim_time_t gap(struct sim_irq_source *s, struct irq_stream *st)
{
	if (s->kind == SIM_IRQ_PERIODIC)
		return s->interval;
	struct sim_dist d = {SIM_DIST_EXP, (double)s->interval, 1};
	sim_time_t g = sim_rng_sample(st->rng, &d);
	return g > 0 ? g : 1;
}

void sim_irq_init(struct sim_irq_source *sources, int nsources, int ncpus, uint64_t seed)
{
	I.src = sources;
	I.nsrc = nsources;
	I.ncpus = ncpus;
	I.cpu = g_new0(struct irq_cpu, ncpus);
	for (int c = 0; c < ncpus; c++) {
		I.cpu[c].posted = g_array_new(FALSE, FALSE, sizeof(struct posted_irq));
		I.cpu[c].streams = g_new0(struct irq_stream, nsources);
		for (int s = 0; s < nsources; s++) {
			struct sim_irq_source *src = &sources[s];
			struct irq_stream *st = &I.cpu[c].streams[s];
			st->next = SIM_TIME_MAX;
			if (!sim_irq_reaches(src, c))
				continue;
			char *name = g_strdup_printf("irq.%s.cpu%d", src->name, c);
			st->rng = sim_rng_new(seed, name);
			g_free(name);
			if (src->kind == SIM_IRQ_PERIODIC)
				st->next = src->skew ? (sim_time_t)(sim_rng_uniform01(st->rng) *
								    (double)src->interval)
						     : src->interval;
			else
				st->next = gap(src, st);
		}
	}
}

void sim_irq_fini(void)
{
	for (int c = 0; c < I.ncpus; c++) {
		for (int s = 0; s < I.nsrc; s++)
			sim_rng_free(I.cpu[c].streams[s].rng);
		g_free(I.cpu[c].streams);
		g_array_free(I.cpu[c].posted, TRUE);
		sim_hist_free(&I.cpu[c].latency);
	}
	g_free(I.cpu);
	memset(&I, 0, sizeof(I));
}

int sim_irq_nsources(void)
{
	return I.nsrc;
}

struct sim_irq_source *sim_irq_source(int i)
{
	return &I.src[i];
}

static int earliest(int cpu)
{
	int best = -1;
	for (int s = 0; s < I.nsrc; s++)
		if (best < 0 || I.cpu[cpu].streams[s].next < I.cpu[cpu].streams[best].next)
			best = s;
	return best;
}

static sim_time_t posted_next(int cpu)
{
	GArray *p = I.cpu[cpu].posted;
	return p->len ? g_array_index(p, struct posted_irq, 0).at : SIM_TIME_MAX;
}

sim_time_t sim_irq_next(int cpu)
{
	int s = earliest(cpu);
	sim_time_t stream = s < 0 ? SIM_TIME_MAX : I.cpu[cpu].streams[s].next;
	return MIN(stream, posted_next(cpu));
}

int sim_irq_pop(int cpu, sim_time_t *at, sim_time_t *handler)
{
	int s = earliest(cpu);
	if (s < 0 || posted_next(cpu) < I.cpu[cpu].streams[s].next) {
		struct posted_irq p = g_array_index(I.cpu[cpu].posted, struct posted_irq, 0);
		g_array_remove_index(I.cpu[cpu].posted, 0);
		*at = p.at;
		*handler = p.handler;
		return SIM_IRQ_IPI;
	}
	struct irq_stream *st = &I.cpu[cpu].streams[s];
	*at = st->next;
	*handler = I.src[s].handler;
	st->next += gap(&I.src[s], st);
	return s;
}

void sim_irq_post(int cpu, sim_time_t at, sim_time_t handler)
{
	GArray *p = I.cpu[cpu].posted;
	guint i = p->len;
	while (i > 0 && g_array_index(p, struct posted_irq, i - 1).at > at)
		i--;
	struct posted_irq x = {at, handler};
	g_array_insert_val(p, i, x);
}

void sim_irq_record(int cpu, int source, sim_time_t latency)
{
	I.cpu[cpu].count++;
	I.cpu[cpu].latency_total += latency;
	I.cpu[cpu].latency_max = MAX(I.cpu[cpu].latency_max, latency);
	sim_hist_record(&I.cpu[cpu].latency, latency);
	if (source == SIM_IRQ_IPI) /* IPIs: counted per CPU only */
		return;
	struct sim_irq_source *s = &I.src[source];
	s->count++;
	s->latency_total += latency;
	s->latency_max = MAX(s->latency_max, latency);
	s->handler_total += s->handler;
	sim_hist_record(&s->latency, latency);
}

void sim_irq_cpu_stats(int cpu, uint64_t *count, sim_time_t *total, sim_time_t *max,
		       sim_time_t *p99)
{
	*count = I.cpu[cpu].count;
	*total = I.cpu[cpu].latency_total;
	*max = I.cpu[cpu].latency_max;
	*p99 = sim_hist_quantile(&I.cpu[cpu].latency, 0.99);
}

const char *sim_irq_name(int source)
{
	return source == SIM_IRQ_IPI ? "IPI" : sim_irq_source(source)->name;
}

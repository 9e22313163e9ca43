/* SPDX-License-Identifier: BSD-2-Clause */
/* client_runset.c: the runs of a --repeat and their statistics per side. */
#include "client_runset.h"

#include <stdlib.h>
#include <string.h>

#include "xfer_params.h"

static const char *const fig_key[RS_NFIG] = {
	"real_mbit", "cpu_mbit", "real_s", "cpu_s", "real_calls_s",
	"loss_pct", "jitter_ms", "jain", "link_ratio",
	"latency_idle_p50_ms", "latency_loaded_p50_ms", "rpm",
};
static const char *const fig_label[RS_NFIG] = {
	"Real-MBit/s", "CPU-MBit/s", "Real s", "CPU s", "Calls/s",
	"loss %", "jitter ms", "Jain", "Real/eta*C",
	"idle p50 ms", "load p50 ms", "RPM",
};

const char *
runset_fig_key(int fig)
{
	return fig >= 0 && fig < RS_NFIG ? fig_key[fig] : "?";
}

const char *
runset_fig_label(int fig)
{
	return fig >= 0 && fig < RS_NFIG ? fig_label[fig] : "?";
}

void
runset_init(struct runset *rs, double level, double target_pct)
{
	memset(rs, 0, sizeof *rs);
	rs->level = level;
	rs->target_pct = target_pct;
}

int
runset_add(struct runset *rs, struct run_model *m, int complete)
{
	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? rs->cap * 2 : 8;
		struct run_model *p = realloc(rs->run, cap * sizeof *p);

		if (p == NULL)
			return -1;
		rs->run = p;
		rs->cap = cap;
	}
	rs->run[rs->n++] = *m;
	if (complete && rs->ncomplete == rs->n - 1)
		rs->ncomplete++;
	memset(m, 0, sizeof *m);
	return 0;
}

static void
free_stats(struct runset *rs)
{
	int i;

	for (i = 0; i < 2; i++) {
		free(rs->side[i].st);
		rs->side[i].st = NULL;
		rs->side[i].nst = 0;
	}
}

void
runset_free(struct runset *rs)
{
	size_t i;

	for (i = 0; i < rs->n; i++)
		model_free(&rs->run[i]);
	free(rs->run);
	free_stats(rs);
	memset(rs, 0, sizeof *rs);
}

/* The model's figure f into *v; 1, or 0 when it has no value. */
static int
fig_value(const struct fig *f, double *v)
{
	*v = f->v;
	return f->ok;
}

/* A UDP receiver's figures. */
static int
udp_value(const struct side *s, int fig, double *v)
{
	if (s->proto != PROTO_UDP || s->role != ROLE_RECV)
		return 0;
	if (fig == RS_LOSS_PCT) {
		*v = s->fig.loss_pct.v;
		return s->fig.loss_pct.ok;
	}
	if (!s->have_udp || !(s->udp.flags & UDPS_TIMED))
		return 0;
	*v = (double)s->udp.jitter_ns / 1e6;
	return 1;
}

/* --latency's figures: the local side's (it sent the probes). */
static int
lat_value(const struct run_model *m, int i, int fig, double *v)
{
	const struct lat_result *l = &m->lat;
	const struct lat_phase *ph = fig == RS_LAT_IDLE ? &l->idle : &l->loaded;

	if (!l->have || i != 0 || ph->answered == 0)
		return 0;
	*v = fig == RS_LAT_RPM ? latstat_rpm(ph->tmean_ns) :
	    (double)ph->p50_ns / 1e6;
	return 1;
}

int
runset_value(const struct run_model *m, int i, int fig, double *v)
{
	const struct side *s;
	int ok = 1;

	if (i < 0 || i > 1 || !m->side[i].have_result)
		return 0;
	s = &m->side[i];
	switch (fig) {
	case RS_REAL_MBIT: return fig_value(&s->fig.real_mbit, v);
	case RS_CPU_MBIT:  return fig_value(&s->fig.cpu_mbit, v);
	case RS_REAL_S:    *v = (double)s->r.real_ns / 1e9; break;
	case RS_CPU_S:     *v = (double)s->r.cpu_ns / 1e9; break;
	case RS_CALLS_S:   return fig_value(&s->fig.real_cps, v);
	case RS_LOSS_PCT:
	case RS_JITTER_MS:
		return udp_value(s, fig, v);
	case RS_JAIN:
		if (!m->have_fair || model_recv_side(m) != i)
			return 0;
		*v = m->fair;
		break;
	case RS_LINK_RATIO: return fig_value(&s->fig.link_ratio, v);
	case RS_LAT_IDLE:
	case RS_LAT_LOADED:
	case RS_LAT_RPM:
		return lat_value(m, i, fig, v);
	default:
		return 0;
	}
	return ok;
}

int
runset_stream_value(const struct run_model *m, int i, uint32_t k, int sfig,
                    double *v)
{
	const struct side *s, *t;
	int ok = 1;

	if (i < 0 || i > 1 || m->streams < 2)
		return 0;
	s = &m->side[i];
	if (!s->have_result || k >= s->nst || !s->st[k].have_result)
		return 0;
	t = &s->st[k];
	if (sfig == RS_ST_FCT)
		*v = (double)t->end_ns / 1e9;
	else if (sfig == RS_ST_REAL_MBIT)
		return fig_value(&t->fig.real_mbit, v);
	else
		return 0;
	return ok;
}

/* The statistics of figure fig of side i (or, with k > 0, figure fig of
 * its stream k) over the complete runs into st; x has room for a value per
 * run. */
static int
stat_of(const struct runset *rs, double *x, int i, int fig, uint32_t k,
        struct runset_stat *st)
{
	size_t r, n = 0;

	memset(st, 0, sizeof *st);
	for (r = 0; r < rs->ncomplete; r++)
		n += k == 0 ? runset_value(&rs->run[r], i, fig, &x[n]) :
		    runset_stream_value(&rs->run[r], i, k - 1, fig, &x[n]);
	if (n == 0)
		return 0;
	if (stats_summarize(x, n, rs->level, &st->s) == -1)
		return -1;
	st->have = 1;
	return 0;
}

int
runset_compute(struct runset *rs)
{
	double *x, w;
	int i, f;
	uint32_t k;

	free_stats(rs);
	rs->have_width = rs->met = 0;
	rs->width_pct = 0;
	if (rs->n == 0)
		return 0;
	if ((x = malloc((rs->ncomplete + 1) * sizeof *x)) == NULL)
		return -1;
	for (i = 0; i < 2; i++) {
		struct runset_side *sd = &rs->side[i];

		sd->tag = rs->run[0].side[i].tag;
		sd->role = rs->run[0].side[i].role;
		for (f = 0; f < RS_NFIG; f++)
			if (stat_of(rs, x, i, f, 0, &sd->fig[f]) == -1)
				goto fail;
		if (rs->run[0].streams < 2)
			continue;
		sd->st = calloc(rs->run[0].streams, sizeof *sd->st);
		if (sd->st == NULL)
			goto fail;
		sd->nst = rs->run[0].streams;
		for (k = 0; k < sd->nst; k++)
			for (f = 0; f < RS_ST_NFIG; f++)
				if (stat_of(rs, x, i, f, k + 1, &sd->st[k][f]) == -1)
					goto fail;
	}
	free(x);
	/* the verdict: the receiver's goodput, its CI's whole width */
	i = model_recv_side(&rs->run[0]);
	if (i >= 0 && rs->side[i].fig[RS_REAL_MBIT].have &&
	    (w = stats_width_pct(&rs->side[i].fig[RS_REAL_MBIT].s)) >= 0) {
		rs->have_width = 1;
		rs->width_pct = w;
		rs->met = rs->target_pct > 0 && w <= rs->target_pct;
	}
	return 0;
fail:
	free(x);
	return -1;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/* model.c: the result model's bookkeeping. */
#include "model.h"

#include <stdlib.h>
#include <string.h>

#include "stats.h"

int
model_add_ival(struct side *s, const struct ival *iv)
{
	if (s->niv == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct ival *p = realloc(s->iv, cap * sizeof *p);

		if (p == NULL)
			return -1;
		s->iv = p;
		s->cap = cap;
	}
	s->iv[s->niv++] = *iv;
	return 0;
}

/* Free s's streams and their intervals. */
static void
free_streams(struct side *s)
{
	uint32_t k;

	for (k = 0; k < s->nst; k++)
		free(s->st[k].iv);
	free(s->st);
	s->st = NULL;
	s->nst = 0;
}

void
model_free(struct run_model *m)
{
	size_t i;

	for (i = 0; i < 2; i++) {
		free_streams(&m->side[i]);
		free(m->side[i].iv);
		m->side[i].iv = NULL;
		m->side[i].niv = m->side[i].cap = 0;
	}
}

double
model_service_demand(const struct gput_result *r, int *ok)
{
	*ok = r->bytes != 0;
	return r->bytes == 0 ? 0 : (double)r->cpu_ns * 1000.0 / (double)r->bytes;
}

double
model_mbit(uint64_t bytes, uint64_t ns, int *ok)
{
	*ok = ns != 0;
	return ns == 0 ? 0 : (double)bytes * 8.0 * 1000.0 / (double)ns;
}

double
model_byte_s(uint64_t bytes, uint64_t ns, int *ok)
{
	*ok = ns != 0;
	return ns == 0 ? 0 : (double)bytes * 1e9 / (double)ns;
}

/* n per second over ns (calls/s); no value when ns is 0. */
static struct fig
per_s(uint64_t n, uint64_t ns)
{
	struct fig f = { 0, ns != 0 };

	if (f.ok)
		f.v = (double)n * 1e9 / (double)ns;
	return f;
}

struct fig
model_ratio(struct fig got, double of)
{
	struct fig f = { 0, got.ok && of > 0 };

	if (f.ok)
		f.v = got.v / of;
	return f;
}

void
model_rates(const struct gput_result *r, struct figures *fig)
{
	memset(fig, 0, sizeof *fig);
	fig->real_mbit.v = model_mbit(r->bytes, r->real_ns, &fig->real_mbit.ok);
	fig->cpu_mbit.v = model_mbit(r->bytes, r->cpu_ns, &fig->cpu_mbit.ok);
	fig->real_cps = per_s(r->calls, r->real_ns);
	fig->cpu_cps = per_s(r->calls, r->cpu_ns);
	if (r->calls > 0) {
		fig->dgrams_per_call = (struct fig){ (double)r->dgrams /
		    (double)r->calls, 1 };
		fig->bytes_per_call = (struct fig){ (double)r->bytes /
		    (double)r->calls, 1 };
	}
}

void
model_loss(uint64_t sent, uint64_t unique, struct figures *fig)
{
	fig->have_loss = 1;
	fig->udp_sent = sent;
	fig->udp_lost = udpacct_lost_of(sent, unique);
	fig->loss_pct.ok = sent != 0;
	fig->loss_pct.v = sent ? 100.0 * (double)fig->udp_lost / (double)sent : 0;
}

void
model_fold_stream(struct side *s)
{
	if (s->nst != 1)
		return;
	s->tcp = s->st[0].tcp;
	s->udp = s->st[0].udp;
	s->have_udp = s->st[0].have_udp;
}

/* s's figures (a side or a stream of m). */
static void
side_figures(const struct run_model *m, struct side *s)
{
	const struct link_pred *pr = &m->link_pred;
	struct figures *f = &s->fig;
	double expect, bound;

	model_rates(&s->r, f);
	if (s->proto == PROTO_UDP && s->role == ROLE_RECV)
		model_loss(s->udp_sent, s->r.dgrams, f);
	if (!m->have_pred)
		return;
	expect = pr->expected_bps / 1e6;
	bound = pr->have_path ? pr->path.bound_bps / 1e6 : expect;
	f->link_ratio = model_ratio(f->real_mbit, expect);
	if (bound < expect)
		f->bound_ratio = model_ratio(f->real_mbit, bound);
}

void
model_figures(struct run_model *m)
{
	uint32_t k;
	int i;

	m->link_high.ok = m->link_frames > 2;
	m->link_high.v = m->link_high.ok ? 2 / (m->link_frames - 2) : 0;
	for (i = 0; i < 2; i++) {
		side_figures(m, &m->side[i]);
		for (k = 0; k < m->side[i].nst; k++)
			side_figures(m, &m->side[i].st[k]);
	}
}

void
model_steady(struct side *s)
{
	uint64_t bytes = 0, from = UINT64_MAX, to = 0;
	size_t i;

	for (i = 0; i < s->niv; i++) {
		if (s->iv[i].flags & IVAL_OMITTED)
			continue;
		bytes += s->iv[i].bytes;
		from = s->iv[i].start_ns < from ? s->iv[i].start_ns : from;
		to = s->iv[i].end_ns;
	}
	s->have_steady = from != UINT64_MAX;
	s->steady_bytes = s->have_steady ? bytes : 0;
	s->steady_ns = s->have_steady && to > from ? to - from : 0;
}

/* a + b into *sum; returns -1 when it does not fit. */
static int
add_ok(uint64_t *sum, uint64_t b)
{
	if (*sum > UINT64_MAX - b)
		return -1;
	*sum += b;
	return 0;
}

const char *
model_ivals_invalid(const struct side *s)
{
	uint64_t b = 0, c = 0;
	size_t i;

	if (s->niv == 0)
		return NULL;
	for (i = 0; i < s->niv; i++) {
		if (i > 0 && s->iv[i].start_ns != s->iv[i - 1].end_ns)
			return "intervals with gaps or overlaps";
		if ((s->iv[i].flags & IVAL_LAST) && i != s->niv - 1)
			return "a last interval before others";
		if (add_ok(&b, s->iv[i].bytes) || add_ok(&c, s->iv[i].calls))
			return "intervals whose sums overflow 64 bits";
	}
	if (b != s->r.bytes || c != s->r.calls)
		return "intervals that do not add up to its totals";
	if (!(s->iv[s->niv - 1].flags & IVAL_LAST))
		return "no last interval";
	return NULL;
}

int
model_streams(struct side *s, uint32_t n)
{
	struct side *st = NULL;
	uint32_t k;

	if (n > 0 && (st = calloc(n, sizeof *st)) == NULL)
		return -1;
	free_streams(s);
	for (k = 0; k < n; k++) {
		st[k].tag = s->tag;
		st[k].stream = k + 1;
		st[k].proto = s->proto;
		st[k].role = s->role;
		st[k].len = s->len;
		st[k].count = s->count;
	}
	s->st = st;
	s->nst = n;
	return 0;
}

/* a + b, or UINT64_MAX when that does not fit (model_sum's totals). */
static uint64_t
sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* A UDP receiver's accounting of its streams: counts add up; the largest
 * displacement and delay variation are the largest; jitter and the mean
 * delays are means weighted by each stream's unique datagrams (a side's
 * figure per datagram); timed and sequenced only when every stream is. */
static void
sum_udp(struct side *s)
{
	struct udp_stats *u = &s->udp;
	double w = 0, jit = 0, var = 0, owd = 0;
	uint32_t k;
	int i;

	memset(u, 0, sizeof *u);
	u->flags = UDPS_ALL;
	u->owd_min_ns = INT64_MAX;
	s->have_udp = s->nst > 0;
	for (k = 0; k < s->nst; k++) {
		const struct side *t = &s->st[k];
		const struct udp_stats *v = &t->udp;

		s->udp_sent = sat_add(s->udp_sent, t->udp_sent);
		s->have_udp &= t->have_udp != 0;
		if (!t->have_udp)
			continue;
		u->received = sat_add(u->received, v->received);
		u->unique = sat_add(u->unique, v->unique);
		u->duplicates = sat_add(u->duplicates, v->duplicates);
		u->reordered = sat_add(u->reordered, v->reordered);
		u->late = sat_add(u->late, v->late);
		u->too_old = sat_add(u->too_old, v->too_old);
		u->other = sat_add(u->other, v->other);
		for (i = 0; i < 4; i++)
			u->ecn[i] = sat_add(u->ecn[i], v->ecn[i]);
		if (v->max_displacement > u->max_displacement)
			u->max_displacement = v->max_displacement;
		if (v->delay_var_max_ns > u->delay_var_max_ns)
			u->delay_var_max_ns = v->delay_var_max_ns;
		if (v->owd_min_ns < u->owd_min_ns)
			u->owd_min_ns = v->owd_min_ns;
		u->flags &= v->flags;
		w += (double)v->unique;
		jit += (double)v->unique * (double)v->jitter_ns;
		var += (double)v->unique * (double)v->delay_var_ns;
		owd += (double)v->unique * (double)v->owd_mean_ns;
	}
	if (!s->have_udp) {
		memset(u, 0, sizeof *u);
		return;
	}
	if (w > 0) {
		u->jitter_ns = (uint64_t)(jit / w + 0.5);
		u->delay_var_ns = (uint64_t)(var / w + 0.5);
		u->owd_mean_ns = (int64_t)(owd / w);
	}
}

/* The flags and queue counts of a side from its streams' results. */
static void
sum_flags(struct gput_result *r, const struct gput_result *t, int first)
{
	/* an end marker reached the side only when it reached every stream */
	if (first)
		r->flags = t->flags & RES_MARKER;
	else if (!(t->flags & RES_MARKER))
		r->flags &= ~RES_MARKER;
	r->flags |= t->flags & (RES_IDLE | RES_VERIFIED | RES_QUEUE | RES_DROPS |
	                        RES_STOPPED | RES_STEPPED);
	if ((t->flags & RES_BUFS) && !(r->flags & RES_BUFS)) {
		r->flags |= RES_BUFS;
		r->sndbuf = t->sndbuf;
		r->rcvbuf = t->rcvbuf;
	}
	/* each offset is in its own stream: the side's is the smallest */
	if (t->verify_bad && (r->verify_bad == 0 || t->verify_first < r->verify_first))
		r->verify_first = t->verify_first;
	r->verify_bad = sat_add(r->verify_bad, t->verify_bad);
	r->unsent = sat_add(r->unsent, t->unsent);
	r->unacked = sat_add(r->unacked, t->unacked);
	r->sock_drops = sat_add(r->sock_drops, t->sock_drops);
}

void
model_sum(struct side *s)
{
	struct gput_result *r = &s->r;
	uint64_t cpu = r->cpu_ns, from = UINT64_MAX, to = 0, sent = 0;
	int known = 1, first = 1;
	uint32_t k;

	if (s->nst == 0)
		return;                 /* its totals are its own */
	memset(r, 0, sizeof *r);
	r->cpu_ns = cpu;
	s->end_ns = 0;
	for (k = 0; k < s->nst; k++) {
		const struct side *t = &s->st[k];

		if (!t->have_result)
			continue;
		r->bytes = sat_add(r->bytes, t->r.bytes);
		r->calls = sat_add(r->calls, t->r.calls);
		r->dgrams = sat_add(r->dgrams, t->r.dgrams);
		sent = sat_add(sent, t->r.dgrams_sent);
		known &= t->r.dgrams_sent != 0;         /* 0: unknown */
		sum_flags(r, &t->r, first);
		first = 0;
		if (t->start_ns < from)
			from = t->start_ns;
		if (sat_add(t->start_ns, t->r.real_ns) > to)
			to = sat_add(t->start_ns, t->r.real_ns);
		if (t->end_ns > s->end_ns)
			s->end_ns = t->end_ns;
	}
	r->dgrams_sent = known ? sent : 0;
	s->start_ns = from == UINT64_MAX ? 0 : from;
	r->real_ns = to > s->start_ns ? to - s->start_ns : 0;
	if (s->proto == PROTO_UDP && s->role == ROLE_RECV) {
		s->udp_sent = 0;
		sum_udp(s);
	}
}

const char *
model_sum_invalid(const struct side *s, const struct gput_result *r)
{
	uint64_t bytes = 0, calls = 0, dgrams = 0;
	uint32_t k;

	for (k = 0; k < s->nst; k++) {
		const struct gput_result *t = &s->st[k].r;

		if (!s->st[k].have_result)
			continue;
		if (add_ok(&bytes, t->bytes) || add_ok(&calls, t->calls) ||
		    add_ok(&dgrams, t->dgrams))
			return "streams whose counts overflow 64 bits";
	}
	if (s->nst == 0)
		return NULL;
	if (r->bytes != bytes)
		return "Bytes that are not the sum of its streams'";
	if (r->calls != calls)
		return "Calls that are not the sum of its streams'";
	if (r->dgrams != dgrams)
		return "datagrams that are not the sum of its streams'";
	return NULL;
}

/* Has stream t ended: its result is in, or its last interval came? */
static int
stream_ended(const struct side *t)
{
	return t->have_result ||
	    (t->niv > 0 && (t->iv[t->niv - 1].flags & IVAL_LAST));
}

/* Add interval a into the sum iv (the first one when n is 0). */
static void
ival_add(struct ival *iv, const struct ival *a, size_t n)
{
	if (n == 0 || a->start_ns < iv->start_ns)
		iv->start_ns = a->start_ns;
	if (n == 0 || a->end_ns > iv->end_ns)
		iv->end_ns = a->end_ns;
	iv->bytes = sat_add(iv->bytes, a->bytes);
	iv->calls = sat_add(iv->calls, a->calls);
	iv->dgrams = sat_add(iv->dgrams, a->dgrams);
	iv->retrans = iv->retrans > UINT32_MAX - a->retrans ? UINT32_MAX :
	    iv->retrans + a->retrans;
	iv->cwnd = iv->cwnd > UINT32_MAX - a->cwnd ? UINT32_MAX : iv->cwnd + a->cwnd;
	iv->dups = iv->dups > UINT32_MAX - a->dups ? UINT32_MAX : iv->dups + a->dups;
	iv->reordered = iv->reordered > UINT32_MAX - a->reordered ? UINT32_MAX :
	    iv->reordered + a->reordered;
	/* it starts as early as its earliest part: before --omit if any is */
	iv->flags |= a->flags & IVAL_OMITTED;
	if (n == 0)
		iv->flags |= a->flags & (IVAL_TCP | IVAL_UDP);
	else
		iv->flags &= a->flags | ~(uint32_t)(IVAL_TCP | IVAL_UDP);
}

int
model_ival_sum(const struct side *s, size_t k, struct ival *iv)
{
	uint64_t rtt = 0;
	size_t n = 0;
	int last = 1, whole = 1;
	uint32_t j;

	memset(iv, 0, sizeof *iv);
	for (j = 0; j < s->nst; j++) {
		const struct side *t = &s->st[j];

		if (k >= t->niv) {
			whole &= stream_ended(t);
			last &= stream_ended(t);
			continue;
		}
		ival_add(iv, &t->iv[k], n++);
		rtt += t->iv[k].srtt_us;
		last &= k == t->niv - 1 && stream_ended(t);
	}
	if (n == 0)
		return 0;               /* past every stream's end, or none began */
	iv->srtt_us = (uint32_t)(rtt / n);      /* the streams' mean */
	if (last)
		iv->flags |= IVAL_LAST;
	return whole;
}

int
model_sum_ivals(struct side *s)
{
	struct ival iv;
	size_t k;

	s->niv = 0;
	for (k = 0; model_ival_sum(s, k, &iv); k++)
		if (model_add_ival(s, &iv) == -1)
			return -1;
	return 0;
}

double
model_jain(const double *x, size_t n)
{
	return stats_jain(x, n);
}

int
model_recv_side(const struct run_model *m)
{
	if (m->side[0].role == ROLE_RECV)
		return 0;
	return m->side[1].role == ROLE_RECV ? 1 : -1;
}

/* Jain's index of the goodputs of s's streams into *out: over their whole
 * windows (and then their shares too), or with steady set over their
 * steady states. Returns 0 or -1 (no memory). */
static int
jain_of(struct side *s, int steady, double *out)
{
	double *g, sum = 0;
	uint32_t k;
	int ok;

	if ((g = calloc(s->nst, sizeof *g)) == NULL)
		return -1;
	for (k = 0; k < s->nst; k++) {
		const struct side *t = &s->st[k];

		g[k] = steady ? model_mbit(t->steady_bytes, t->steady_ns, &ok) :
		    model_mbit(t->r.bytes, t->r.real_ns, &ok);
		sum += g[k];
	}
	for (k = 0; k < s->nst && !steady; k++)
		s->st[k].share = sum > 0 ? g[k] / sum : 0;
	*out = model_jain(g, s->nst);
	free(g);
	return 0;
}

void
model_fairness(struct run_model *m)
{
	int i = model_recv_side(m);
	struct side *s;
	uint32_t k;
	int steady = 1;

	m->have_fair = m->have_fair_steady = 0;
	m->fair = m->fair_steady = 0;
	if (m->streams <= 1 || i < 0)
		return;
	s = &m->side[i];
	if (!s->have_result || s->nst != m->streams)
		return;
	if (jain_of(s, 0, &m->fair) == -1)
		return;
	m->have_fair = 1;
	for (k = 0; k < s->nst; k++)
		steady &= s->st[k].have_steady != 0;
	if (steady && jain_of(s, 1, &m->fair_steady) == 0)
		m->have_fair_steady = 1;
}

void
model_win_sum(struct side *s)
{
	struct win_stats *w = &s->win;
	uint64_t srtt = 0, n = 0;
	uint32_t k;

	if (s->nst == 0)
		return;
	memset(w, 0, sizeof *w);
	s->have_win = 1;
	for (k = 0; k < s->nst; k++) {
		const struct win_stats *v = &s->st[k].win;

		s->have_win &= s->st[k].have_win != 0;
		if (k == 0) {
			w->window = v->window;
			w->retries = v->retries;
			w->rto_fixed_ns = v->rto_fixed_ns;
			w->gbn = v->gbn;
		}
		w->firsts = sat_add(w->firsts, v->firsts);
		w->resends = sat_add(w->resends, v->resends);
		w->timeouts = sat_add(w->timeouts, v->timeouts);
		w->acks = sat_add(w->acks, v->acks);
		w->acks_new = sat_add(w->acks_new, v->acks_new);
		w->acks_bad = sat_add(w->acks_bad, v->acks_bad);
		w->acks_sent = sat_add(w->acks_sent, v->acks_sent);
		w->rtt_samples = sat_add(w->rtt_samples, v->rtt_samples);
		if (v->rto_ns > w->rto_ns)
			w->rto_ns = v->rto_ns;
		if (v->srtt_ns != 0) {
			srtt += v->srtt_ns;
			n++;
		}
		w->failed |= v->failed;
	}
	w->srtt_ns = n ? srtt / n : 0;
	if (!s->have_win)
		memset(w, 0, sizeof *w);
}

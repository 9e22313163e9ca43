/* SPDX-License-Identifier: BSD-2-Clause */
/* report_csv.c: the result model as CSV. */
#include "report_csv.h"

#include "json.h"
#include "verdict.h"

#define CSV_COLUMNS "side,role,bytes,calls,real_s,cpu_s,real_mbit,cpu_mbit," \
                    "real_calls_s,cpu_calls_s"
/* The columns of -P: start_s, fct_s and share (a receiver's stream's, when
 * the model has fairness; else empty). */
#define CSV_STREAM_COLUMNS ",start_s,fct_s,share"
/* Last, the verdict of a receiver's row (verdict.h): its limit and the
 * ratio of goodput to the bound it names (empty without one); empty on a
 * sender's rows. */
#define CSV_LIMIT_COLUMNS ",limit,limit_ratio"
/* The columns of --sliding-window: a sender's fill the first six, a
 * receiver's the last five; the others are empty. */
#define CSV_WIN_COLUMNS ",window,first_sends,retransmissions,timeouts," \
                        "acks_received,srtt_ms,acks_sent,unique,duplicates," \
                        "misordered,missing"

/* ",v" with v a double in the C locale; just "," when ok is 0. */
static void
field(FILE *f, double v, int ok)
{
	char buf[JSON_DOUBLE_LEN];

	fputc(',', f);
	if (ok && json_fmt_double(buf, sizeof buf, v) == 0)
		fputs(buf, f);
}

/* The verdict's columns of s (a side or a stream). */
static void
limit(FILE *f, const struct run_model *m, const struct side *s)
{
	struct verdict v;

	if (s->role != ROLE_RECV) {
		fputs(",,", f);
		return;
	}
	if (s->stream > 0)
		verdict_stream(m, s->stream - 1, &v);
	else
		verdict_run(m, &v);
	fprintf(f, ",%s", verdict_name(v.limit));
	field(f, v.ratio, v.have_ratio);
}

/* ",v" for a count, or just "," when ok is 0. */
static void
count(FILE *f, uint64_t v, int ok)
{
	if (ok)
		fprintf(f, ",%llu", (unsigned long long)v);
	else
		fputc(',', f);
}

/* --sliding-window's fields of s. */
static void
win_fields(FILE *f, const struct side *s)
{
	const struct win_stats *w = &s->win;
	int snd = s->have_win && s->role == ROLE_SEND;
	int rcv = s->have_win && s->role == ROLE_RECV && s->have_udp;

	count(f, w->window, snd);
	count(f, w->firsts, snd);
	count(f, w->resends, snd);
	count(f, w->timeouts, snd);
	count(f, w->acks, snd);
	field(f, (double)w->srtt_ns / 1e6, snd && w->srtt_ns != 0);
	count(f, w->acks_sent, rcv);
	count(f, s->udp.unique, rcv);
	count(f, s->udp.duplicates, rcv);
	count(f, s->udp.reordered, rcv);
	count(f, s->fig.udp_lost, rcv);
}

/* The row of side s, or of stream s of a side (tagged "l.K"); with streams
 * set, the columns of -P after the others. */
static void
row(FILE *f, const struct run_model *m, const struct side *s, int streams)
{
	const struct gput_result *r = &s->r;
	const struct figures *g = &s->fig;

	fputc(s->tag, f);
	if (s->stream > 0)
		fprintf(f, ".%u", s->stream);
	fprintf(f, ",%s,%llu,%llu", s->role == ROLE_RECV ? "recv" : "send",
	        (unsigned long long)r->bytes, (unsigned long long)r->calls);
	field(f, (double)r->real_ns / 1e9, 1);
	field(f, (double)r->cpu_ns / 1e9, 1);
	field(f, g->real_mbit.v, g->real_mbit.ok);
	field(f, g->cpu_mbit.v, g->cpu_mbit.ok);
	field(f, g->real_cps.v, g->real_cps.ok);
	field(f, g->cpu_cps.v, g->cpu_cps.ok);
	if (streams) {
		field(f, (double)s->start_ns / 1e9, 1);
		field(f, (double)s->end_ns / 1e9, 1);
		field(f, s->share, s->stream > 0 && s->role == ROLE_RECV &&
		      m->have_fair);
	}
	limit(f, m, s);
	if (m->swin)
		win_fields(f, s);
	fputc('\n', f);
}

void
report_csv(FILE *f, const struct run_model *m)
{
	int streams = m->streams > 1;
	const struct side *s;
	size_t i, k;

	fputs(streams ? CSV_COLUMNS CSV_STREAM_COLUMNS CSV_LIMIT_COLUMNS :
	      CSV_COLUMNS CSV_LIMIT_COLUMNS, f);
	fputs(m->swin ? CSV_WIN_COLUMNS "\n" : "\n", f);
	for (i = 0; i < 2; i++) {
		s = &m->side[i];
		if (!s->have_result)
			continue;
		row(f, m, s, streams);
		for (k = 0; streams && k < s->nst; k++)
			if (s->st[k].have_result)
				row(f, m, &s->st[k], streams);
	}
}

/* SPDX-License-Identifier: BSD-2-Clause */
/* report_table.c: one run's table and the lines under it. */
#include "report_table.h"

#include "report.h"
#include "report_ival.h"
#include "report_lat.h"
#include "report_link.h"
#include "report_streams.h"
#include "report_verdict.h"
#include "report_win.h"

/* The lines under the sides' lines that an interrupted run prints too. */
static void
under_lines(FILE *f, const struct run_model *m, const struct table_opts *o,
            const struct report_row *rows, int nrows)
{
	int recv_side = m->role == ROLE_RECV ? 0 : 1, i;
	const struct side *rs = &m->side[recv_side];

	if (m->proto == PROTO_UDP && m->side[1].have_result && !m->interrupted)
		report_udp_arrivals(f, rows[recv_side].tag, rows[recv_side].r,
		    &rs->fig, (int)m->udp_idle_ms,
		    rs->have_udp ? &rs->udp : NULL, o->same_clock);
	if (m->swin > 0)                        /* --sliding-window */
		report_win_text(f, m);
	for (i = 0; i < nrows && m->proto == PROTO_UDP; i++)
		report_udp_batch(f, rows[i].tag, rows[i].r, rows[i].fig,
		    m->side[i].batch, m->side[i].gso);
	for (i = 0; i < nrows; i++) {
		report_verify(f, rows[i].tag, rows[i].r);
		if (i == 1 - recv_side && o->verbose)
			report_tcp_queue(f, rows[i].tag, rows[i].r);
		if (o->verbose)
			report_service_demand(f, rows[i].tag, rows[i].r);
	}
	for (i = 0; i < 2 && o->verbose; i++)
		if (m->side[i].have_host_udp)
			fprintf(f, "%c: the receiving host's UDP%s counters over the "
			        "run (all its sockets): RcvbufErrors %llu, InErrors "
			        "%llu\n", m->side[i].tag, m->side[i].host_udp_v6 ? "6" :
			        "", (unsigned long long)m->side[i].host_rcvbuf_errors,
			        (unsigned long long)m->side[i].host_in_errors);
	if (m->side[1].have_result && o->verbose &&
	    (m->side[1].r.flags & RES_BUFS))
		fprintf(f, "%c: data socket buffers: send %u, receive %u bytes "
		        "(as the partner's kernel set them)\n", m->side[1].tag,
		        m->side[1].r.sndbuf, m->side[1].r.rcvbuf);
}

/* -v: each side's TCP_INFO (a line per stream with -P), and with --ecn
 * its ECN figures. */
static void
verbose_lines(FILE *f, const struct run_model *m, const struct report_row *rows,
              int nrows)
{
	int i;

	for (i = 0; i < nrows; i++) {
		const struct side *sd = &m->side[i];
		uint32_t k;

		if (m->streams == 1 && sd->tcp.valid)
			report_tcp_stats(f, rows[i].tag, &sd->tcp);
		for (k = 0; m->streams > 1 && k < sd->nst; k++)
			if (sd->st[k].tcp.valid)
				report_tcp_stats(f, rows[i].tag, &sd->st[k].tcp);
		if (!m->ecn)
			continue;
		if (m->streams == 1)
			report_ecn_tcp(f, rows[i].tag, &sd->tcp);
		for (k = 0; m->streams > 1 && k < sd->nst; k++)
			report_ecn_tcp(f, rows[i].tag, &sd->st[k].tcp);
		if (sd->have_udp)
			report_ecn_udp(f, rows[i].tag, &sd->udp);
	}
}

void
report_table(FILE *f, const struct run_model *m, const struct table_opts *o)
{
	const struct report_row rows[2] = {
		{ m->side[0].tag, m->side[0].len, m->side[0].count, &m->side[0].r,
		  &m->side[0].fig },
		{ m->side[1].tag, m->side[1].len, m->side[1].count, &m->side[1].r,
		  &m->side[1].fig },
	};
	int nrows = m->side[1].have_result ? 2 : 1, i;

	if (m->streams > 1) {                   /* a line per stream, then the sum */
		report_streams_table(f, m, o->loc_format, o->rem_format, o->verbose);
	} else {
		report_line(f, o->loc_format, &rows[0]);
		if (m->side[1].have_result)
			report_line(f, o->rem_format, &rows[1]);
	}
	under_lines(f, m, o, rows, nrows);
	if (m->interrupted) {
		fprintf(f, "interrupted: the lines above count what was moved "
		        "until the stop%s\n", m->side[1].have_result ? "" :
		        "; the partner sent no results in time");
		return;
	}
	for (i = 0; i < nrows; i++)
		if (m->side[i].have_steady)
			report_steady_line(f, &m->side[i], m->omit_ms);
	if (m->have_fair)
		report_fairness(f, m);
	if (o->verbose)
		verbose_lines(f, m, rows, nrows);
	if (m->lat.have)                        /* --latency */
		report_lat_text(f, &m->lat, o->verbose);
	if (m->have_pred)
		report_link(f, m, rows, 2, m->role == ROLE_RECV ? 0 : 1);
	if (o->verbose || m->have_pred)         /* nttcp's plain table stays */
		report_verdict_text(f, m);
}

/* SPDX-License-Identifier: BSD-2-Clause */
/* report_win.c: --sliding-window's lines under the table. */
#include "report_win.h"

static void
sender_line(FILE *f, const struct side *s)
{
	const struct win_stats *w = &s->win;

	fprintf(f, "%c: window %u (%s): %llu datagrams sent first, "
	        "%llu retransmitted (%llu timeouts); %llu ACKs received (%llu new)",
	        s->tag, w->window, w->gbn ? "go-back-N" : "selective repeat",
	        (unsigned long long)w->firsts,
	        (unsigned long long)w->resends, (unsigned long long)w->timeouts,
	        (unsigned long long)w->acks, (unsigned long long)w->acks_new);
	if (w->acks_bad)
		fprintf(f, ", %llu for datagrams never sent (ignored)",
		        (unsigned long long)w->acks_bad);
	if (w->rto_fixed_ns)
		fprintf(f, "; RTO %.1f ms (--rto)", (double)w->rto_fixed_ns / 1e6);
	else
		fprintf(f, "; RTO %.1f ms at the end (RFC 6298)",
		        (double)w->rto_ns / 1e6);
	if (w->srtt_ns)
		fprintf(f, ", SRTT %.3f ms over %llu round trips",
		        (double)w->srtt_ns / 1e6, (unsigned long long)w->rtt_samples);
	fputc('\n', f);
}

static void
receiver_line(FILE *f, const struct side *rcv)
{
	const struct udp_stats *u = &rcv->udp;

	fprintf(f, "%c: %llu ACKs sent (one per datagram received); %llu unique, "
	        "%llu duplicate, %llu misordered, %llu missing\n", rcv->tag,
	        (unsigned long long)rcv->win.acks_sent,
	        (unsigned long long)u->unique, (unsigned long long)u->duplicates,
	        (unsigned long long)u->reordered,
	        (unsigned long long)rcv->fig.udp_lost);
}

void
report_win_text(FILE *f, const struct run_model *m)
{
	int rs = m->role == ROLE_RECV ? 0 : 1;
	const struct side *snd = &m->side[1 - rs], *rcv = &m->side[rs];

	if (m->swin == 0)
		return;
	if (snd->have_result && snd->have_win)
		sender_line(f, snd);
	if (rcv->have_result && rcv->have_win && rcv->have_udp)
		receiver_line(f, rcv);
}

/* SPDX-License-Identifier: BSD-2-Clause */
/* report_ival.c: interval lines, the steady state and the TCP_INFO line. */
#include "report_ival.h"

#include <string.h>


/* Column widths of an interval line. */
#define W_START 6       /* after the side tag */
#define W_END   5       /* after the '-' */
#define W_BYTES 12
#define W_CALLS 9
#define W_RATE  10

/* val right-aligned in width; one space first if it fills the width, so it
 * never touches what came before. */
static void
col(FILE *f, int width, const char *val)
{
	if ((int)strlen(val) >= width)
		fputc(' ', f);
	fprintf(f, "%*s", width, val);
}

/* MBit/s of bytes over ns with 4 decimals, or "-" when ns is 0. */
static void
fmt_mbit(char *buf, size_t len, uint64_t bytes, uint64_t ns)
{
	int ok;
	double v = model_mbit(bytes, ns, &ok);

	if (ok)
		snprintf(buf, len, "%.4f", v);
	else
		snprintf(buf, len, "-");
}

void
report_ival_title(FILE *f)
{
	fprintf(f, "%-*s%*s%*s%*s\n", 1 + W_START + 1 + W_END + 2, "  Interval",
	        W_BYTES, "Bytes", 6 + W_CALLS, "Calls", 6 + W_RATE, "Real-MBit/s");
}

void
report_ival_line(FILE *f, const struct side *s, const struct ival *iv)
{
	uint64_t span = iv->end_ns > iv->start_ns ? iv->end_ns - iv->start_ns : 0;
	char buf[400];          /* %.4f of any double fits */

	fputc(s->tag, f);
	snprintf(buf, sizeof buf, "%.2f", (double)iv->start_ns / 1e9);
	col(f, W_START, buf);
	fprintf(f, "-%*.2f s", W_END, (double)iv->end_ns / 1e9);
	snprintf(buf, sizeof buf, "%llu", (unsigned long long)iv->bytes);
	col(f, W_BYTES, buf);
	fputs(" bytes", f);
	snprintf(buf, sizeof buf, "%llu", (unsigned long long)iv->calls);
	col(f, W_CALLS, buf);
	fputs(" calls", f);
	fmt_mbit(buf, sizeof buf, iv->bytes, span);
	col(f, W_RATE, buf);
	fputs(" MBit/s", f);
	if (s->stream > 0)
		fprintf(f, "  stream %u", s->stream);
	else if (s->nst > 1)
		fputs("  sum", f);
	if (iv->flags & IVAL_TCP)
		fprintf(f, "  retr %u  cwnd %u  rtt %.2f ms", iv->retrans, iv->cwnd,
		        iv->srtt_us / 1e3);
	if (s->proto == PROTO_UDP && s->role == ROLE_RECV)
		fprintf(f, "  %llu datagrams", (unsigned long long)iv->dgrams);
	if (iv->flags & IVAL_UDP)
		fprintf(f, "  dup %u  reordered %u", iv->dups, iv->reordered);
	if (iv->flags & IVAL_LAT)
		fprintf(f, "  probes p50 %.2f ms", (double)iv->lat_p50_ns / 1e6);
	if (iv->flags & IVAL_OMITTED)
		fputs(" (omitted)", f);
	if (iv->flags & IVAL_LAST)
		fputs(" (last)", f);
	fputc('\n', f);
}

void
report_steady_line(FILE *f, const struct side *s, uint32_t omit_ms)
{
	char rate[400];

	if (!s->have_steady)
		return;
	fmt_mbit(rate, sizeof rate, s->steady_bytes, s->steady_ns);
	fprintf(f, "%c steady state after %.2f s: %llu bytes in %.3f s, %s MBit/s\n",
	        s->tag, omit_ms / 1e3, (unsigned long long)s->steady_bytes,
	        (double)s->steady_ns / 1e9, rate);
}

void
report_cc_name(char *cc, const struct tcp_stats *t)
{
	size_t i;

	for (i = 0; i < sizeof t->cc - 1 && t->cc[i] != '\0'; i++)
		cc[i] = t->cc[i] > 0x20 && t->cc[i] < 0x7f ? t->cc[i] : '?';
	if (i == 0)
		cc[i++] = '?';
	cc[i] = '\0';
}

void
report_tcp_stats(FILE *f, char tag, const struct tcp_stats *t)
{
	char cc[sizeof t->cc];

	if (!t->valid)
		return;
	report_cc_name(cc, t);
	fprintf(f, "%c: tcp %s, %llu retransmitted segment%s, rtt %.2f ms "
	        "(min %.2f), cwnd %u, delivery %.2f MBit/s, busy %.2f s, "
	        "limited by rwnd %.2f s, by sndbuf %.2f s\n",
	        tag, cc, (unsigned long long)t->retrans,
	        t->retrans == 1 ? "" : "s", t->rtt_us / 1e3, t->min_rtt_us / 1e3,
	        t->cwnd, (double)t->delivery_rate * 8 / 1e6, (double)t->busy_us / 1e6,
	        (double)t->rwnd_limited_us / 1e6, (double)t->sndbuf_limited_us / 1e6);
}

void
report_ecn_tcp(FILE *f, char tag, const struct tcp_stats *t)
{
	if (!t->valid)
		return;
	if (!(t->ecn & TCPS_ECN)) {
		fprintf(f, "%c: ecn not negotiated\n", tag);
		return;
	}
	fprintf(f, "%c: ecn negotiated, %u segment%s acknowledged with ECE, ", tag,
	        t->delivered_ce, t->delivered_ce == 1 ? "" : "s");
	if (t->ecn & TCPS_ECN_RECEIVED)
		fprintf(f, "%u CE-marked segment%s received (%u bytes)\n",
		        t->received_ce, t->received_ce == 1 ? "" : "s",
		        t->received_ce_bytes);
	else
		fprintf(f, "received CE not counted by this kernel\n");
}

void
report_ecn_udp(FILE *f, char tag, const struct udp_stats *u)
{
	if (!(u->flags & UDPS_ECN))
		return;
	fprintf(f, "%c: ecn: %llu data datagrams ECT(0), %llu CE, %llu ECT(1), "
	        "%llu not-ECT\n", tag, (unsigned long long)u->ecn[2],
	        (unsigned long long)u->ecn[3], (unsigned long long)u->ecn[1],
	        (unsigned long long)u->ecn[0]);
}

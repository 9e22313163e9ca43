/* SPDX-License-Identifier: BSD-2-Clause */
/* report_verdict.c: the verdict's lines and its JSON object. */
#include "report_verdict.h"

#include <math.h>
#include <string.h>

#include "model_psum.h"

static void what_differs(FILE *f, const struct verdict *sv, uint32_t n);

/* v's evidence name, or 0. */
static double
e(const struct verdict *v, const char *name)
{
	int ok;

	return verdict_ev(v, name, &ok);
}

static int
has(const struct verdict *v, const char *name)
{
	int ok;

	(void)verdict_ev(v, name, &ok);
	return ok;
}

/* The limit's words and the evidence that decided it. */
static void
cause(FILE *f, const struct verdict *v)
{
	switch (v->limit) {
	case VL_LINK:
		fputs("limited by the link", f);
		if (has(v, "queue_ms"))
			fprintf(f, ": a standing queue of %.1f ms at its bottleneck",
			        e(v, "queue_ms"));
		break;
	case VL_RECEIVE_WINDOW:
		fputs("limited by the receive window", f);
		if (has(v, "window_bytes"))
			fprintf(f, ": %.0f bytes (whole segments) per RTT, %.4f "
			        "MBit/s", e(v, "window_bytes"), e(v, "window_mbit"));
		if (has(v, "rwnd_limited_s"))
			fprintf(f, "%s%.3f s of %.3f s busy limited by it",
			        has(v, "window_bytes") ? "; " : ": ",
			        e(v, "rwnd_limited_s"), e(v, "busy_s"));
		break;
	case VL_SEND_BUFFER:
		fputs("limited by the send buffer", f);
		if (has(v, "sndbuf_bytes"))
			fprintf(f, ": %.0f bytes per RTT at most, %.4f MBit/s;",
			        e(v, "sndbuf_bytes"), e(v, "sndbuf_mbit"));
		else
			fputc(':', f);
		fprintf(f, " %.3f s of %.3f s busy limited by it",
		        e(v, "sndbuf_limited_s"), e(v, "busy_s"));
		break;
	case VL_CONGESTION:
		fprintf(f, "limited by congestion: %.0f segment%s retransmitted "
		        "(%.2f%%)", e(v, "retrans"), e(v, "retrans") == 1 ? "" : "s",
		        e(v, "retrans_pct"));
		break;
	case VL_SLOW_START:
		fprintf(f, "limited by slow start: the run (%.3f s) was too short "
		        "for its RTT: slow start takes %.3f s, a run of %.1f s would "
		        "read within 5%%", e(v, "real_s"), e(v, "slow_start_s"),
		        e(v, "needs_s"));
		break;
	case VL_PACING:
		fprintf(f, "limited by pacing: the sender's own schedule of %.4f "
		        "MBit/s (--rate, -g)", e(v, "pace_mbit"));
		break;
	case VL_SENDER_CPU:
	case VL_RECEIVER_CPU:
		fprintf(f, "limited by the %s's CPU: CPU s %.2f of Real s %.2f",
		        v->limit == VL_SENDER_CPU ? "sender" : "receiver",
		        e(v, "cpu_s"), e(v, "real_s"));
		break;
	case VL_SENDER:
		fprintf(f, "limited by the sender: it sent %.4f MBit/s",
		        e(v, "sender_mbit"));
		if (has(v, "pace_mbit"))
			fprintf(f, " of a schedule of %.4f", e(v, "pace_mbit"));
		else
			fputs(" and the path lost nothing", f);
		break;
	case VL_SLIDING_WINDOW:
		fprintf(f, "limited by the sliding window: %.0f datagrams per "
		        "round trip of %.2f ms, %.4f MBit/s", e(v, "window"),
		        e(v, "srtt_ms"), e(v, "window_mbit"));
		break;
	case VL_NETWORK_LOSS:
		if (has(v, "timeouts") && !has(v, "lost")) {
			fprintf(f, "limited by loss in the network: %.0f timeouts "
			        "held the sliding window of %.0f (%.0f datagrams "
			        "sent)", e(v, "timeouts"), e(v, "window"),
			        e(v, "first_sends"));
			break;
		}
		/* FALLTHROUGH */
	case VL_RECEIVER_SOCKET_BUFFER:
		fprintf(f, "limited by %s: %.0f of %.0f datagrams lost (%.2f%%)",
		        v->limit == VL_NETWORK_LOSS ? "loss in the network" :
		        "the receiver's socket buffer", e(v, "lost"), e(v, "sent"),
		        e(v, "loss_pct"));
		if (has(v, "socket_drops"))
			fprintf(f, ", %.0f dropped by the receiving socket",
			        e(v, "socket_drops"));
		else if (has(v, "host_rcvbuf_errors"))
			fprintf(f, ", %.0f receive buffer overflows on the "
			        "receiving host (all its UDP sockets)",
			        e(v, "host_rcvbuf_errors"));
		break;
	default:
		fputs("limit unknown: no rule held", f);
		break;
	}
}

void
report_verdict_line(FILE *f, const char *label, const struct verdict *v)
{
	size_t i;

	fprintf(f, "%s: %.4f MBit/s", label, v->goodput_bps / 1e6);
	if (v->have_ratio)
		fprintf(f, ", %.4f of %s", v->ratio, v->bound);
	fputs(": ", f);
	cause(f, v);
	if (has(v, "retrans") && v->limit != VL_CONGESTION)
		fprintf(f, ", %.0f segment%s retransmitted", e(v, "retrans"),
		        e(v, "retrans") == 1 ? "" : "s");
	if (has(v, "cwnd"))
		fprintf(f, ", cwnd %.0f, srtt %.2f ms against %.2f min",
		        e(v, "cwnd"), e(v, "srtt_ms"), e(v, "min_rtt_ms"));
	if (has(v, "share"))
		fprintf(f, ", share %.3f", e(v, "share"));
	if (v->cc[0] != '\0')
		fprintf(f, " (%s)", v->cc);
	fputc('\n', f);
	/* a short run's bias has its own, longer line in the --link report
	 * just above (report_link.c), which every run with eta*C prints: said
	 * once there, it stays in JSON's warnings */
	for (i = 0; i < v->nwarn; i++)
		if (v->wcode[i] != VW_SHORT_RUN)
			fprintf(f, "%s: warning: %s\n", label, v->warn[i]);
}

/* A figure that differs between the flows' verdicts as printed (prec
 * decimals): its name and each flow's value, after "; " unless it is the
 * first (*nput). */
static void
differs(FILE *f, const struct verdict *sv, uint32_t n, const char *name,
        int prec, int *nput)
{
	uint32_t k;
	double lo = INFINITY, hi = -INFINITY;

	for (k = 0; k < n; k++) {               /* as printed */
		double x = round(e(&sv[k], name) * pow(10, prec));

		lo = fmin(lo, x);
		hi = fmax(hi, x);
	}
	if (hi <= lo)
		return;
	fprintf(f, "%s%s", (*nput)++ ? "; " : " ", name);
	for (k = 0; k < n; k++) {
		fputc(k ? '/' : ' ', f);
		fprintf(f, "%.*f", prec, e(&sv[k], name));
	}
}

/* " srtt_ms 24.1/80.3; retrans 0/29; cwnd ...; cc bbr/cubic; limit
 * link/congestion": the figures of the flows' verdicts sv[0..n) that
 * differ between them, in the flows' order; " nothing" when none does. */
static void
what_differs(FILE *f, const struct verdict *sv, uint32_t n)
{
	uint32_t k;
	int nput = 0;

	differs(f, sv, n, "srtt_ms", 1, &nput);
	differs(f, sv, n, "retrans", 0, &nput);
	differs(f, sv, n, "cwnd", 0, &nput);
	for (k = 1; k < n && strcmp(sv[k].cc, sv[0].cc) == 0; k++)
		;
	if (k < n) {
		fprintf(f, "%scc", nput++ ? "; " : " ");
		for (k = 0; k < n; k++)
			fprintf(f, "%c%s", k ? '/' : ' ', sv[k].cc[0] ? sv[k].cc : "-");
	}
	for (k = 1; k < n && sv[k].limit == sv[0].limit; k++)
		;
	if (k < n) {
		fprintf(f, "%slimit", nput++ ? "; " : " ");
		for (k = 0; k < n; k++)
			fprintf(f, "%c%s", k ? '/' : ' ', verdict_name(sv[k].limit));
	}
	if (nput == 0)
		fputs(" nothing", f);
}

void
report_verdict_partners(FILE *f, const struct run_model *const *rm,
                        unsigned n)
{
	struct verdict sv[PSUM_MAX];
	const struct run_model *m;
	unsigned k, got = 0;
	int r;

	for (k = 0; k < n && got < PSUM_MAX; k++) {
		m = rm[k];
		if (m == NULL || m->error != NULL ||
		    (r = model_recv_side(m)) < 0 || !m->side[r].have_result)
			continue;
		verdict_run(m, &sv[got++]);
	}
	if (got < 2)
		return;
	fputs("+ r: what differs between the partners' receivers:", f);
	what_differs(f, sv, got);
	fputs(" (in partner order)\n", f);
}

/* -P: each receiving stream's verdict, and with unequal shares what
 * differs between the streams. */
static void
streams(FILE *f, const struct run_model *m, int r)
{
	const struct side *rs = &m->side[r];
	struct verdict sv[16];
	char label[24];
	uint32_t k, n = rs->nst < 16 ? rs->nst : 16;

	for (k = 0; k < rs->nst; k++) {
		struct verdict v;

		verdict_stream(m, k, &v);
		if (k < n)
			sv[k] = v;
		snprintf(label, sizeof label, "%c.%u", rs->tag, k + 1);
		report_verdict_line(f, label, &v);
	}
	if (!m->have_fair || m->fair >= 0.99)
		return;
	fprintf(f, "%c: unequal shares, Jain's index %.4f:", rs->tag, m->fair);
	for (k = 0; k < n; k++)
		fprintf(f, "%s %.3f", k ? "," : "", rs->st[k].share);
	fputs("; what differs:", f);
	what_differs(f, sv, n);
	fputc('\n', f);
}

void
report_verdict_text(FILE *f, const struct run_model *m)
{
	int r = model_recv_side(m);
	struct verdict v;
	char label[2];

	if (r < 0 || !m->side[r].have_result)
		return;
	label[0] = m->side[r].tag;
	label[1] = '\0';
	verdict_run(m, &v);
	report_verdict_line(f, label, &v);
	if (m->streams > 1 && m->side[r].nst > 1 && m->side[1 - r].nst > 1)
		streams(f, m, r);
}

void
report_verdict_json(struct json *j, const struct verdict *v)
{
	size_t i;

	json_begin_object(j);
	json_kv_string(j, "limit", verdict_name(v->limit));
	if (v->have_ratio) {
		json_kv_double(j, "ratio", v->ratio);
		json_kv_string(j, "bound", v->bound);
	} else {
		json_kv_null(j, "ratio");
		json_kv_null(j, "bound");
	}
	json_key(j, "evidence");
	json_begin_object(j);
	for (i = 0; i < v->nev; i++)
		json_kv_double(j, v->ev[i].name, v->ev[i].value);
	json_end_object(j);
	json_key(j, "warnings");
	json_begin_array(j);
	for (i = 0; i < v->nwarn; i++)
		json_string(j, v->warn[i]);
	json_end_array(j);
	json_kv_string(j, "cc", v->cc[0] ? v->cc : NULL);
	json_end_object(j);
}

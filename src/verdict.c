/* SPDX-License-Identifier: BSD-2-Clause */
/* verdict.c: the limit that set a run's goodput, by the rules of
 * verdict.h (gput(1), WHY A RUN FELL SHORT). Pure arithmetic. */
#include "verdict.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "linkpred.h"
#include "overhead.h"

static const char *const names[VL_COUNT] = {
	[VL_UNKNOWN] = "unknown", [VL_LINK] = "link",
	[VL_RECEIVE_WINDOW] = "receive_window", [VL_SEND_BUFFER] = "send_buffer",
	[VL_CONGESTION] = "congestion", [VL_SLOW_START] = "slow_start",
	[VL_PACING] = "pacing", [VL_SENDER_CPU] = "sender_cpu",
	[VL_RECEIVER_CPU] = "receiver_cpu", [VL_SENDER] = "sender",
	[VL_RECEIVER_SOCKET_BUFFER] = "receiver_socket_buffer",
	[VL_NETWORK_LOSS] = "network_loss",
	[VL_SLIDING_WINDOW] = "sliding_window",
};

const char *
verdict_name(enum verdict_limit l)
{
	return (unsigned)l < VL_COUNT ? names[l] : "unknown";
}

/* What the rules read, gathered once from the model (a run's sides or a
 * stream of each). */
struct vin {
	const struct run_model *m;
	const struct side *snd, *rcv;     /* NULL: that side has no result */
	const struct side *csnd, *crcv;   /* the sides whose CPU s they had */
	struct tcp_stats tcp;             /* the sender's (summed over -P) */
	double goodput, snd_bps;          /* bit/s: receiver's, sender's */
	double expected;                  /* eta*C for this flow, 0: none */
	uint64_t lost, sent, drops;       /* UDP receiver */
	int    drops_host;                /* drops are the host's RcvbufErrors
	                                     (no SO_MEMINFO count) */
	int    stream;                    /* a stream's verdict */
};

static void
ev(struct verdict *v, const char *name, double value)
{
	if (v->nev < VERDICT_EVID_MAX)
		v->ev[v->nev++] = (struct verdict_ev){ name, value };
}

double
verdict_ev(const struct verdict *v, const char *name, int *ok)
{
	size_t i;

	for (i = 0; i < v->nev; i++)
		if (strcmp(v->ev[i].name, name) == 0) {
			*ok = 1;
			return v->ev[i].value;
		}
	*ok = 0;
	return 0;
}

void
verdict_warn(struct verdict *v, enum verdict_warning w, const char *fmt, ...)
{
	va_list ap;

	if (v->nwarn >= VERDICT_WARN_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(v->warn[v->nwarn], VERDICT_WARN_LEN, fmt, ap);
	va_end(ap);
	v->wcode[v->nwarn++] = w;
}

/* A side's or stream's Real MBit/s (model_figures) in bit/s; 0 without
 * a value. */
static double
rate(const struct side *s)
{
	return s->fig.real_mbit.ok ? s->fig.real_mbit.v * 1e6 : 0;
}

static double
busy(const struct side *s)
{
	return s && s->r.real_ns ? (double)s->r.cpu_ns / (double)s->r.real_ns : 0;
}

/* A side's sender TCP_INFO: its own, or with streams their sums (the
 * retransmissions, busy and limited times, cwnd), the least min RTT, the
 * mean srtt, the least MSS and the first stream's congestion control. */
static void
sum_tcp(const struct side *s, struct tcp_stats *t)
{
	uint32_t k, n = 0;
	uint64_t rtt = 0;

	memset(t, 0, sizeof *t);
	if (s->nst <= 1 || s->stream > 0) {
		*t = s->nst == 1 && !s->tcp.valid ? s->st[0].tcp : s->tcp;
		return;
	}
	for (k = 0; k < s->nst; k++) {
		const struct tcp_stats *x = &s->st[k].tcp;

		if (!x->valid)
			continue;
		if (n++ == 0) {
			memcpy(t->cc, x->cc, sizeof t->cc);
			t->min_rtt_us = x->min_rtt_us;
			t->mss = x->mss;
		}
		t->retrans += x->retrans;
		t->busy_us += x->busy_us;
		t->rwnd_limited_us += x->rwnd_limited_us;
		t->sndbuf_limited_us += x->sndbuf_limited_us;
		t->cwnd += x->cwnd;
		t->delivery_rate += x->delivery_rate;
		rtt += x->rtt_us;
		if (x->min_rtt_us && x->min_rtt_us < t->min_rtt_us)
			t->min_rtt_us = x->min_rtt_us;
		if (x->mss && x->mss < t->mss)
			t->mss = x->mss;
	}
	t->valid = n > 0;
	t->rtt_us = n ? (uint32_t)(rtt / n) : 0;
}

/* The sender's segments retransmitted over those sent (0: unknown). */
static double
retrans_share(const struct vin *in)
{
	double segs;

	if (!in->tcp.valid || in->tcp.mss == 0 || in->snd == NULL)
		return 0;
	segs = ceil((double)in->snd->r.bytes / in->tcp.mss);
	return segs > 0 ? (double)in->tcp.retrans / segs : 0;
}

static double
limited(const struct vin *in, uint64_t us)
{
	return in->tcp.valid && in->tcp.busy_us ? (double)us / in->tcp.busy_us : 0;
}

/* The window bound -w / RTT (--rtt) in bit/s, as the model's path has it
 * (pathlim.h: whole segments of the MSS the sender's kernel chose);
 * *held: the window's bytes it counts. 0 when there is no window bound. */
static double
window_bps(const struct vin *in, uint64_t *held)
{
	const struct plim *p = &in->m->path;

	if (!in->m->have_path || !p->have_window || p->rtt_s <= 0)
		return 0;
	*held = p->window_held > 0 ? p->window_held : p->window;
	return p->window_bps;
}

static void
set_ratio(struct verdict *v, double bound, const char *name)
{
	if (bound <= 0)
		return;
	v->have_ratio = 1;
	v->bound_bps = bound;
	v->bound = name;
	v->ratio = v->goodput_bps / bound;
}

/* Rule 2: the link, known (--link) or inferred from a standing queue. */
static int
r_link(const struct vin *in, struct verdict *v)
{
	(void)v;        /* its ratio, of eta*C, is every verdict's default */
	if (in->expected > 0 && in->goodput >= VERDICT_LINK_MARGIN * in->expected)
		return 1;
	return 0;
}

/* Rule 2b: a UDP sliding window (--sliding-window N) holds at most N
 * datagrams of -l bytes per round trip: N x -l x 8 / SRTT, below eta*C;
 * kept, it is the limit; not kept for timeouts, loss held the window. */
static int
r_swin(const struct vin *in, struct verdict *v)
{
	const struct win_stats *w;
	double srtt, bound;

	if (in->m->proto != PROTO_UDP || in->m->swin == 0 || in->snd == NULL ||
	    !in->snd->have_win || in->snd->win.srtt_ns == 0)
		return 0;
	w = &in->snd->win;
	srtt = (double)w->srtt_ns / 1e9;
	bound = (double)w->window * in->m->data_len * 8 / srtt;
	if (in->expected > 0 && bound >= in->expected)
		return 0;
	ev(v, "window", w->window);
	ev(v, "srtt_ms", srtt * 1e3);
	ev(v, "window_mbit", bound / 1e6);
	ev(v, "timeouts", (double)w->timeouts);
	ev(v, "first_sends", (double)w->firsts);
	if (in->goodput >= VERDICT_KEPT * bound) {
		set_ratio(v, bound, "window/RTT");
		return 1;
	}
	if (w->timeouts == 0)
		return 0;
	set_ratio(v, bound, "window/RTT");
	v->limit = VL_NETWORK_LOSS;
	return 2;
}

/* Rules 3 and 4: UDP datagrams lost, by the receiving socket or on the
 * way. */
static int
r_udp_loss(const struct vin *in, struct verdict *v, int socket)
{
	double share;

	if (in->m->proto != PROTO_UDP || in->sent == 0)
		return 0;
	share = (double)in->lost / (double)in->sent;
	if (share < VERDICT_LOSS_SHARE)
		return 0;
	if (socket != (in->drops * 2 >= in->lost))
		return 0;
	ev(v, "lost", (double)in->lost);
	ev(v, "sent", (double)in->sent);
	/* the model's figure (model_loss), so that the arrivals line above
	 * and this one round alike (63.155 read 63.16 there, 63.15 here) */
	ev(v, "loss_pct", in->rcv->fig.loss_pct.ok ? in->rcv->fig.loss_pct.v :
	    share * 100);
	if (in->rcv->r.flags & RES_DROPS)
		ev(v, "socket_drops", (double)in->drops);
	else if (in->drops_host)
		ev(v, "host_rcvbuf_errors", (double)in->drops);
	ev(v, "sender_mbit", in->snd_bps / 1e6);
	return 1;
}

static int
r_socket(const struct vin *in, struct verdict *v)
{
	return r_udp_loss(in, v, 1);
}

static int
r_netloss(const struct vin *in, struct verdict *v)
{
	return r_udp_loss(in, v, 0);
}

/* Rule 5: the sender's own pacing. */
static int
r_pacing(const struct vin *in, struct verdict *v)
{
	double pace = in->m->pace_bps / (in->stream ? in->m->streams : 1);

	if (pace <= 0 || (in->expected > 0 && pace >= in->expected) ||
	    in->snd_bps < VERDICT_KEPT * pace ||
	    in->goodput < VERDICT_KEPT * pace)
		return 0;
	ev(v, "pace_mbit", pace / 1e6);
	ev(v, "sender_mbit", in->snd_bps / 1e6);
	set_ratio(v, pace, "schedule");
	return 1;
}

/* Rules 6 and 7: a side with no CPU to spare over most of the run: its
 * CPU s close to its Real s, and its Real s at least half the other
 * side's (a sender that put everything into the socket buffers at once is
 * busy over its own short window, and held nothing). */
static int
r_cpu(const struct side *s, const struct side *other, struct verdict *v,
      const char *name)
{
	double b = busy(s);

	if (s == NULL || b < VERDICT_CPU_BUSY || (other != NULL &&
	    (double)s->r.real_ns < VERDICT_CPU_SPAN * (double)other->r.real_ns))
		return 0;
	ev(v, name, b);
	ev(v, "cpu_s", (double)s->r.cpu_ns / 1e9);
	ev(v, "real_s", (double)s->r.real_ns / 1e9);
	return 1;
}

static int
r_sender_cpu(const struct vin *in, struct verdict *v)
{
	return r_cpu(in->csnd, in->crcv, v, "sender_cpu_busy");
}

static int
r_receiver_cpu(const struct vin *in, struct verdict *v)
{
	return r_cpu(in->crcv, in->csnd, v, "receiver_cpu_busy");
}

/* Rule 8: the receive window, as TCP_INFO saw it or as -w / RTT bounds
 * it. */
static int
r_rwnd(const struct vin *in, struct verdict *v)
{
	double f = limited(in, in->tcp.rwnd_limited_us), wb;
	uint64_t held = 0;

	if (in->m->proto != PROTO_TCP)
		return 0;
	wb = window_bps(in, &held);
	if (f < VERDICT_LIMITED && !(wb > 0 && (in->expected <= 0 ||
	    wb < in->expected) && in->goodput >= VERDICT_KEPT * wb))
		return 0;
	if (in->tcp.valid) {
		ev(v, "rwnd_limited_s", in->tcp.rwnd_limited_us / 1e6);
		ev(v, "busy_s", in->tcp.busy_us / 1e6);
	}
	if (wb > 0) {
		ev(v, "window_bytes", (double)held);
		ev(v, "window_mbit", wb / 1e6);
		set_ratio(v, wb, "window/RTT");
	}
	return 1;
}

/* The send buffer's bound: the sender's SO_SNDBUF as its kernel set it
 * (RES_BUFS) per min RTT, in bit/s; 0 when unknown. The kernel charges
 * the buffer more than the payload it holds, so the payload in flight is
 * below it: an upper bound. */
static double
sndbuf_bps(const struct vin *in)
{
	const struct gput_result *r = in->snd ? &in->snd->r : NULL;

	if (r == NULL || !(r->flags & RES_BUFS) || r->sndbuf == 0 ||
	    !in->tcp.valid || in->tcp.min_rtt_us == 0)
		return 0;
	return (double)r->sndbuf * 8e6 / in->tcp.min_rtt_us;
}

/* Rule 9: the sender's own socket buffer, as TCP_INFO saw it or as its
 * size per RTT bounds it. */
static int
r_sndbuf(const struct vin *in, struct verdict *v)
{
	double f = limited(in, in->tcp.sndbuf_limited_us), sb = sndbuf_bps(in);
	int by_size = sb > 0 && (in->expected <= 0 || sb < in->expected) &&
	    in->goodput >= VERDICT_BUF_KEPT * sb;

	if (in->m->proto != PROTO_TCP || (f < VERDICT_LIMITED && !by_size))
		return 0;
	ev(v, "sndbuf_limited_s", in->tcp.sndbuf_limited_us / 1e6);
	ev(v, "busy_s", in->tcp.busy_us / 1e6);
	if (sb > 0) {
		ev(v, "sndbuf_bytes", in->snd->r.sndbuf);
		ev(v, "sndbuf_mbit", sb / 1e6);
	}
	if (by_size)
		set_ratio(v, sb, "sndbuf/RTT");
	return 1;
}

/* Rule 10: loss and retransmissions held the window. */
static int
r_congestion(const struct vin *in, struct verdict *v)
{
	double share = retrans_share(in);

	if (in->m->proto != PROTO_TCP || in->tcp.retrans == 0 ||
	    share < VERDICT_RETRANS)
		return 0;
	ev(v, "retrans", (double)in->tcp.retrans);
	ev(v, "retrans_pct", share * 100);
	return 1;
}

/* Slow start's length to a window of the bandwidth-delay product: min
 * RTT x (1 + log2(BDP in segments / 10)), from the initial window of 10
 * segments (RFC 6928); 0 when it cannot be told. */
static double
slow_start_s(const struct vin *in)
{
	double rtt = in->tcp.min_rtt_us / 1e6, segs;

	if (!in->tcp.valid || rtt <= 0 || in->tcp.mss == 0 || in->expected <= 0)
		return 0;
	segs = in->expected * rtt / 8 / in->tcp.mss;
	return segs > 10 ? rtt * (1 + log2(segs / 10)) : rtt;
}

/* Rule 11: the run was too short for its RTT. The ramp costs about its
 * length less the two RTTs the data it carries would take at the full
 * rate. */
static int
r_slow_start(const struct vin *in, struct verdict *v)
{
	double ss = slow_start_s(in), real, ramp, ratio;

	if (in->m->proto != PROTO_TCP || ss <= 0 || in->rcv == NULL)
		return 0;
	real = in->rcv->r.real_ns / 1e9;
	ramp = ss - 2 * in->tcp.min_rtt_us / 1e6;
	ratio = in->goodput / in->expected;
	if (ramp <= 0 || real <= 0 || ramp / real < (1 - ratio) / 2)
		return 0;
	ev(v, "slow_start_s", ss);
	ev(v, "real_s", real);
	ev(v, "needs_s", ramp / (1 - VERDICT_LINK_MARGIN));
	return 1;
}

/* Rule 12: a UDP sender slower than its schedule or than the path. */
static int
r_sender(const struct vin *in, struct verdict *v)
{
	double pace = in->m->pace_bps / (in->stream ? in->m->streams : 1);

	if (in->m->proto != PROTO_UDP || in->snd == NULL || in->m->swin > 0)
		return 0;       /* a sliding window's sender waits on purpose */
	if (pace > 0 && in->snd_bps < VERDICT_KEPT * pace) {
		ev(v, "pace_mbit", pace / 1e6);
		ev(v, "sender_mbit", in->snd_bps / 1e6);
		return 1;
	}
	if (pace > 0 || in->expected <= 0 || in->lost > 0)
		return 0;
	ev(v, "sender_mbit", in->snd_bps / 1e6);
	return 1;
}

/* The rules in their order (verdict.h); the first that holds decides. */
static const struct rule {
	enum verdict_limit limit;
	int (*holds)(const struct vin *, struct verdict *);
} rules[] = {
	{ VL_LINK, r_link },
	{ VL_SLIDING_WINDOW, r_swin },
	{ VL_RECEIVER_SOCKET_BUFFER, r_socket },
	{ VL_NETWORK_LOSS, r_netloss },
	{ VL_PACING, r_pacing },
	{ VL_SENDER_CPU, r_sender_cpu },
	{ VL_RECEIVER_CPU, r_receiver_cpu },
	{ VL_RECEIVE_WINDOW, r_rwnd },
	{ VL_SEND_BUFFER, r_sndbuf },
	{ VL_CONGESTION, r_congestion },
	{ VL_SLOW_START, r_slow_start },
	{ VL_SENDER, r_sender },
};

/* The rules' inputs for the sender snd and receiver rcv (a side each, or a
 * stream of each), whose CPU is that of the sides csnd and crcv. */
static void
gather(const struct run_model *m, const struct side *snd,
       const struct side *rcv, struct vin *in)
{
	memset(in, 0, sizeof *in);
	in->m = m;
	in->snd = snd && snd->have_result ? snd : NULL;
	in->rcv = rcv && rcv->have_result ? rcv : NULL;
	in->csnd = in->snd;
	in->crcv = in->rcv;
	if (in->snd != NULL && m->proto == PROTO_TCP)
		sum_tcp(in->snd, &in->tcp);
	if (in->snd != NULL)
		in->snd_bps = rate(in->snd);
	if (in->rcv == NULL)
		return;
	in->goodput = rate(in->rcv);
	in->expected = m->have_pred ? m->link_pred.expected_bps : 0;
	if (in->rcv->fig.have_loss) {
		in->sent = in->rcv->fig.udp_sent;
		in->lost = in->rcv->fig.udp_lost;
		in->drops = in->rcv->r.flags & RES_DROPS ? in->rcv->r.sock_drops : 0;
		/* no count of the socket's own: the host's (an upper bound) */
		in->drops_host = !(in->rcv->r.flags & RES_DROPS) &&
		    in->rcv->have_host_udp;
		if (in->drops_host)
			in->drops = in->rcv->host_rcvbuf_errors;
	}
}

/* A standing queue (srtt well above the least RTT: of the sender's, or of
 * any of its streams, which share the bottleneck) says the bottleneck was
 * busy: the link, inferred where --link does not name it, when the
 * kernel's delivery rate (TCP_INFO) was at most QUEUE_RATE x the goodput
 * (the flow ran at a bottleneck's pace, not faster in bursts) and neither
 * side was close to CPU-bound (a busy or starved host delays its ACKs). */
static int
r_queue(const struct vin *in, struct verdict *v)
{
	const struct tcp_stats *t = &in->tcp;
	double queue = 0;
	uint32_t k;

	if (in->m->proto != PROTO_TCP || in->expected > 0 || !t->valid ||
	    busy(in->csnd) >= VERDICT_CPU_WARN || busy(in->crcv) >= VERDICT_CPU_WARN)
		return 0;               /* a busy side may have made the delay */
	if (t->delivery_rate == 0 ||
	    (double)t->delivery_rate * 8 > VERDICT_QUEUE_RATE * in->goodput)
		return 0;               /* the path delivered faster: no bottleneck */
	if (t->min_rtt_us > 0 && t->rtt_us >= VERDICT_QUEUE_RTT *
	    t->min_rtt_us + 1000)
		queue = t->rtt_us - (double)t->min_rtt_us;
	for (k = 0; in->snd->stream == 0 && k < in->snd->nst; k++) {
		t = &in->snd->st[k].tcp;        /* -P: the queue one stream saw */
		if (t->valid && t->min_rtt_us > 0 && t->rtt_us >=
		    VERDICT_QUEUE_RTT * t->min_rtt_us + 1000)
			queue = fmax(queue, t->rtt_us - (double)t->min_rtt_us);
	}
	if (queue <= 0)
		return 0;
	ev(v, "queue_ms", queue / 1e3);
	ev(v, "delivery_mbit", (double)in->tcp.delivery_rate * 8 / 1e6);
	return 1;
}

static void
apply(const struct vin *in, struct verdict *v)
{
	size_t i;

	for (i = 0; i < sizeof rules / sizeof rules[0]; i++) {
		if (rules[i].holds == r_congestion && r_queue(in, v)) {
			v->limit = VL_LINK;
			return;
		}
		switch (rules[i].holds(in, v)) {
		case 0:
			continue;
		case 1:
			v->limit = rules[i].limit;
			return;
		default:        /* the rule named a limit of its own */
			return;
		}
	}
	v->limit = VL_UNKNOWN;
}

/* The figures every verdict carries, where known. */
static void
common(const struct vin *in, struct verdict *v)
{
	const struct tcp_stats *t = &in->tcp;

	ev(v, "goodput_mbit", in->goodput / 1e6);
	if (in->expected > 0)
		ev(v, "eta_c_mbit", in->expected / 1e6);
	if (in->m->have_path && in->m->path.bound_bps > 0 &&
	    in->m->path.bound_bps < in->expected)
		ev(v, "path_bound_mbit", in->m->path.bound_bps / 1e6);
	if (!t->valid)
		return;
	memcpy(v->cc, t->cc, sizeof v->cc);
	v->cc[sizeof v->cc - 1] = '\0';
	int ok;

	(void)verdict_ev(v, "retrans", &ok);
	if (!ok && t->retrans > 0)
		ev(v, "retrans", (double)t->retrans);
	ev(v, "cwnd", t->cwnd);
	ev(v, "srtt_ms", t->rtt_us / 1e3);
	ev(v, "min_rtt_ms", t->min_rtt_us / 1e3);
	if (t->mss > 0)
		ev(v, "mss", t->mss);
}

/* A paced sender behind its schedule: by how much, what held it, and its
 * own lag's part of a UDP receiver's delay variation. */
static void
w_behind(const struct vin *in, struct verdict *v)
{
	const struct run_model *m = in->m;
	double pace = m->pace_bps / (in->stream ? m->streams : 1), lag = 0;
	double b = busy(in->csnd);
	char tail[160] = "";

	if (pace <= 0 || in->snd == NULL || in->snd_bps >= VERDICT_KEPT * pace)
		return;
	/* at its end: its Real s less when its bytes were due on the schedule
	 * (count and time mode alike) */
	lag = in->snd->r.real_ns / 1e9 - (double)in->snd->r.bytes * 8 / pace;
	if (lag > 0 && in->rcv && in->rcv->have_udp &&
	    (in->rcv->udp.flags & UDPS_TIMED))
		snprintf(tail, sizeof tail, "; of the delay variation's %.3f ms max, "
		         "up to %.3f ms is the sender's own lag, the rest the path's",
		         in->rcv->udp.delay_var_max_ns / 1e6, lag * 1e3);
	verdict_warn(v, VW_SENDER_BEHIND, "the sender kept %.1f%% of its "
	             "schedule (%.3f of %.3f MBit/s)%s%.0f ms behind at its end, "
	             "held by %s (CPU s %.2f of Real s %.2f)%s", 100 * in->snd_bps /
	             pace, in->snd_bps / 1e6, pace / 1e6, lag > 0 ? ", " : ": ",
	             lag * 1e3, b >= VERDICT_CPU_BUSY ? "its CPU" :
	             "its own send queue", (double)in->csnd->r.cpu_ns / 1e9,
	             (double)in->csnd->r.real_ns / 1e9, tail);
	if (lag <= 0)   /* "…): 0 ms behind" reads wrong: drop the figure */
		snprintf(v->warn[v->nwarn - 1], VERDICT_WARN_LEN, "the sender kept "
		         "%.1f%% of its schedule (%.3f of %.3f MBit/s), held by %s "
		         "(CPU s %.2f of Real s %.2f)", 100 * in->snd_bps / pace,
		         in->snd_bps / 1e6, pace / 1e6, b >= VERDICT_CPU_BUSY ?
		         "its CPU" : "its own send queue",
		         (double)in->csnd->r.cpu_ns / 1e9,
		         (double)in->csnd->r.real_ns / 1e9);
}

/* The MSS the kernel chose (TCP_INFO) where the window's whole segments
 * fall short of its bytes by more than WHOLE: the bound no longer is the
 * one printed under --link, and the line says so. */
static void
w_mss(const struct vin *in, struct verdict *v)
{
	const struct run_model *m = in->m;
	unsigned assumed = ovh_tcp_mss(&m->link_conn.oc), mss = in->tcp.mss;
	uint64_t held = 0;
	double wb;
	char as[32] = "";

	if (m->proto != PROTO_TCP || !in->tcp.valid || mss == 0)
		return;
	wb = window_bps(in, &held);
	if (wb <= 0 || (double)held >= VERDICT_WHOLE * (double)m->path.window)
		return;
	if (assumed != mss)
		snprintf(as, sizeof as, "; %u assumed", assumed);
	verdict_warn(v, VW_MSS, "the kernel chose MSS %u (TCP_INFO%s): the "
	             "%llu-byte window holds %llu bytes of whole segments, "
	             "window/RTT %.4f MBit/s, not %.4f", mss, as,
	             (unsigned long long)m->path.window, (unsigned long long)held,
	             wb / 1e6, plim_window_bps(m->path.window, m->path.rtt_s) / 1e6);
}

static void
warnings(const struct vin *in, struct verdict *v)
{
	const struct run_model *m = in->m;
	double n = m->link_frames;

	w_behind(in, v);
	w_mss(in, v);
	if (v->limit != VL_RECEIVER_CPU && busy(in->crcv) >= VERDICT_CPU_WARN)
		verdict_warn(v, VW_RECEIVER_CPU, "the receiver's CPU s %.2f is "
		             "close to its Real s %.2f: it had little to spare",
		             in->crcv->r.cpu_ns / 1e9, in->crcv->r.real_ns / 1e9);
	if (v->limit != VL_SENDER_CPU && busy(in->csnd) >= VERDICT_CPU_WARN)
		verdict_warn(v, VW_SENDER_CPU, "the sender's CPU s %.2f is close "
		             "to its Real s %.2f: it had little to spare",
		             in->csnd->r.cpu_ns / 1e9, in->csnd->r.real_ns / 1e9);
	if (!in->stream && in->expected > 0 && n > 2 && n < LINKPRED_SHORT_FRAMES)
		verdict_warn(v, VW_SHORT_RUN, "a run of %.0f frames: its ratio may "
		             "read up to %.2f%% high", n, 200.0 / (n - 2));
	if (v->limit == VL_UNKNOWN && in->expected <= 0 && in->rcv != NULL)
		verdict_warn(v, VW_NO_LINK, "no --link: goodput was not compared "
		             "with the link's");
}

static void
decide(const struct vin *in, struct verdict *v)
{
	memset(v, 0, sizeof *v);
	if (in->rcv == NULL || in->rcv->r.real_ns == 0) {
		v->limit = VL_UNKNOWN;
		return;
	}
	v->goodput_bps = in->goodput;
	apply(in, v);
	if (!v->have_ratio && in->expected > 0)
		set_ratio(v, in->expected, "eta*C");
	common(in, v);
	warnings(in, v);
}

void
verdict_run(const struct run_model *m, struct verdict *v)
{
	int r = model_recv_side(m);
	struct vin in;

	if (r < 0) {
		memset(v, 0, sizeof *v);
		return;
	}
	gather(m, &m->side[1 - r], &m->side[r], &in);
	decide(&in, v);
}

void
verdict_stream(const struct run_model *m, uint32_t k, struct verdict *v)
{
	int r = model_recv_side(m);
	const struct side *rs, *ss;
	struct verdict run;
	struct vin in;

	memset(v, 0, sizeof *v);
	if (r < 0 || k >= m->side[r].nst || k >= m->side[1 - r].nst)
		return;
	rs = &m->side[r];
	ss = &m->side[1 - r];
	verdict_run(m, &run);
	gather(m, &ss->st[k], &rs->st[k], &in);
	in.csnd = ss->have_result ? ss : NULL;  /* a side measures its CPU */
	in.crcv = rs->have_result ? rs : NULL;
	in.stream = 1;
	in.expected = m->streams ? in.expected / m->streams : 0;
	decide(&in, v);
	if (run.limit == VL_LINK && in.rcv != NULL && in.rcv->r.real_ns > 0) {
		v->limit = VL_LINK;       /* the streams shared a full link */
		set_ratio(v, run.bound_bps, "eta*C");
	}
	if (m->have_fair)
		ev(v, "share", rs->st[k].share);
}

void
verdict_count(const struct run_model *runs, size_t n, size_t counts[VL_COUNT])
{
	struct verdict v;
	size_t i;

	memset(counts, 0, VL_COUNT * sizeof counts[0]);
	for (i = 0; i < n; i++) {
		verdict_run(&runs[i], &v);
		counts[v.limit]++;
	}
}

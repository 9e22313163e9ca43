/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_verdict.c: the verdict's rules (verdict.c) as a table of examples,
 * one per cause and one on each side of every margin; its warnings; a
 * stream's verdict and share. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_verdict.h"
#include "verdict.h"
#include "xfer_params.h"

/* One example: a run of one second (both sides' Real s), local side the
 * sender. Rates are bit/s; 0 leaves a figure out. */
struct ex {
	const char *what;
	uint8_t  proto;
	double   eta_c;          /* --link's eta*C (0: no --link) */
	double   pace;           /* -g / --rate */
	double   goodput;        /* the receiver's */
	double   snd;            /* the sender's (0: the goodput) */
	double   scpu, rcpu;     /* CPU s of the one Real s */
	/* TCP_INFO of the sender (mss 0: not valid) */
	unsigned mss;
	uint64_t retrans;
	uint32_t rtt_us, min_rtt_us;
	uint64_t busy_us, rwnd_us, sndbuf_us;
	/* UDP */
	uint64_t sent, lost, drops;
	/* --rtt with -w */
	uint64_t window;
	double   rtt_s;
	enum verdict_limit want;
	const char *ev;          /* evidence that must be there, with value */
	double   ev_value;
};

#define TCP PROTO_TCP
#define UDP PROTO_UDP

static const struct ex examples[] = {
	/* rule 2: link, at and just under the margin */
	{ "link at 0.95 of eta*C", TCP, 10e6, 0, 9.5e6, 0, .1, .1, 1448, 0,
	  1000, 1000, 0, 0, 0, 0, 0, 0, 0, 0, VL_LINK, "eta_c_mbit", 10 },
	{ "0.949 of eta*C, nothing else: unknown", TCP, 10e6, 0, 9.49e6, 0, .1,
	  .1, 1448, 0, 1000, 1000, 0, 0, 0, 0, 0, 0, 0, 0, VL_UNKNOWN,
	  "goodput_mbit", 9.49 },
	/* link inferred from a standing queue, without --link */
	{ "srtt 1.25 x min + 1 ms: queue", TCP, 0, 0, 5e6, 0, .1, .1, 1448, 0,
	  26000, 20000, 0, 0, 0, 0, 0, 0, 0, 0, VL_LINK, "queue_ms", 6 },
	{ "srtt 1 us under it: unknown", TCP, 0, 0, 5e6, 0, .1, .1, 1448, 0,
	  25999, 20000, 0, 0, 0, 0, 0, 0, 0, 0, VL_UNKNOWN, "srtt_ms", 25.999 },
	{ "a queue, the receiver CPU 0.75 busy", TCP, 0, 0, 5e6, 0, .1, .75,
	  1448, 0, 26000, 20000, 0, 0, 0, 0, 0, 0, 0, 0, VL_UNKNOWN, "srtt_ms",
	  26 },
	/* rules 3, 4: UDP loss, by the socket or on the way */
	{ "1% lost, half by the socket", UDP, 0, 0, 5e6, 0, .1, .1, 0, 0, 0, 0,
	  0, 0, 0, 1000, 10, 5, 0, 0, VL_RECEIVER_SOCKET_BUFFER, "socket_drops", 5 },
	{ "1% lost, under half by the socket", UDP, 0, 0, 5e6, 0, .1, .1, 0, 0,
	  0, 0, 0, 0, 0, 1000, 10, 4, 0, 0, VL_NETWORK_LOSS, "loss_pct", 1 },
	{ "0.9% lost: not the loss", UDP, 0, 0, 5e6, 0, .1, .1, 0, 0, 0, 0, 0,
	  0, 0, 1000, 9, 0, 0, 0, VL_UNKNOWN, "goodput_mbit", 5 },
	/* rule 5: pacing kept, at and under the margin */
	{ "paced, kept at 0.95", UDP, 10e6, 5e6, 4.75e6, 4.75e6, .1, .1, 0, 0,
	  0, 0, 0, 0, 0, 1000, 0, 0, 0, 0, VL_PACING, "pace_mbit", 5 },
	{ "paced, 0.949 kept: the sender", UDP, 10e6, 5e6, 4.745e6, 4.745e6,
	  .1, .1, 0, 0, 0, 0, 0, 0, 0, 1000, 0, 0, 0, 0, VL_SENDER,
	  "sender_mbit", 4.745 },
	{ "paced TCP, no --link", TCP, 0, 5e6, 5e6, 5e6, .1, .1, 1448, 0,
	  1000, 1000, 0, 0, 0, 0, 0, 0, 0, 0, VL_PACING, "pace_mbit", 5 },
	{ "paced at eta*C: not pacing", UDP, 10e6, 10e6, 9e6, 9e6, .1, .1, 0,
	  0, 0, 0, 0, 0, 0, 1000, 0, 0, 0, 0, VL_SENDER, "sender_mbit", 9 },
	/* rules 6, 7: CPU */
	{ "sender CPU 0.85 of Real", TCP, 10e6, 0, 5e6, 0, .85, .1, 1448, 0,
	  1000, 1000, 0, 0, 0, 0, 0, 0, 0, 0, VL_SENDER_CPU, "sender_cpu_busy", .85 },
	{ "sender CPU 0.84: unknown", TCP, 10e6, 0, 5e6, 0, .84, .1, 1448, 0,
	  1000, 1000, 0, 0, 0, 0, 0, 0, 0, 0, VL_UNKNOWN, "goodput_mbit", 5 },
	{ "receiver CPU 0.85 of Real", TCP, 10e6, 0, 5e6, 0, .1, .85, 1448, 0,
	  1000, 1000, 1000000, 900000, 0, 0, 0, 0, 0, 0, VL_RECEIVER_CPU,
	  "receiver_cpu_busy", .85 },
	{ "receiver CPU 0.84: its window", TCP, 10e6, 0, 5e6, 0, .1, .84, 1448,
	  0, 1000, 1000, 1000000, 900000, 0, 0, 0, 0, 0, 0, VL_RECEIVE_WINDOW,
	  "rwnd_limited_s", .9 },
	/* rule 8: the receive window, from TCP_INFO or -w / RTT */
	{ "rwnd-limited 0.20 of busy", TCP, 10e6, 0, 5e6, 0, .1, .1, 1448, 0,
	  1000, 1000, 1000000, 200000, 0, 0, 0, 0, 0, 0, VL_RECEIVE_WINDOW,
	  "busy_s", 1 },
	{ "rwnd-limited 0.19: unknown", TCP, 10e6, 0, 5e6, 0, .1, .1, 1448, 0,
	  1000, 1000, 1000000, 190000, 0, 0, 0, 0, 0, 0, VL_UNKNOWN, "mss", 1448 },
	/* (65536 bytes hold 45 segments of 1448: 65160, 5.2128 Mbit/s) */
	{ "-w 64K at 100 ms, 0.95 of it", TCP, 10e6, 0, 0.95 * 5212800, 0, .1,
	  .1, 1448, 0, 100000, 100000, 0, 0, 0, 0, 0, 0, 65536, .1,
	  VL_RECEIVE_WINDOW, "window_bytes", 65160 },
	{ "-w 64K at 100 ms, 0.94 of it", TCP, 10e6, 0, 0.94 * 5212800, 0, .1,
	  .1, 1448, 0, 100000, 100000, 0, 0, 0, 0, 0, 0, 65536, .1,
	  VL_UNKNOWN, "goodput_mbit", 0.94 * 5.2128 },
	/* rule 9: the send buffer */
	{ "sndbuf-limited 0.20 of busy", TCP, 10e6, 0, 5e6, 0, .1, .1, 1448, 0,
	  1000, 1000, 1000000, 0, 200000, 0, 0, 0, 0, 0, VL_SEND_BUFFER,
	  "sndbuf_limited_s", .2 },
	/* rule 10: congestion, 1 in 1000 segments and just under */
	{ "1 of 1000 segments retransmitted", TCP, 20e6, 0, 1448000 * 8.0, 0,
	  .1, .1, 1448, 1, 1000, 1000, 0, 0, 0, 0, 0, 0, 0, 0, VL_CONGESTION,
	  "retrans_pct", .1 },
	{ "1 of 1001: unknown", TCP, 20e6, 0, 1449448 * 8.0, 0, .1, .1, 1448, 1,
	  1000, 1000, 0, 0, 0, 0, 0, 0, 0, 0, VL_UNKNOWN, "retrans", 1 },
	/* rule 11: slow start at 100 ms, 10 Mbit/s: 86.3 segments, ss 0.411 s */
	{ "short run at 100 ms", TCP, 10e6, 0, 7e6, 0, .1, .1, 1448, 0, 100000,
	  100000, 0, 0, 0, 0, 0, 0, 0, 0, VL_SLOW_START, "slow_start_s",
	  0.1 * (1 + 3.1097946) },
	{ "short run at 100 ms: how long", TCP, 10e6, 0, 7e6, 0, .1, .1, 1448,
	  0, 100000, 100000, 0, 0, 0, 0, 0, 0, 0, 0, VL_SLOW_START, "needs_s",
	  (0.1 * (1 + 3.1097946) - 0.2) / 0.05 },
	{ "ramp explains under half: unknown", TCP, 10e6, 0, 5e6, 0, .1, .1,
	  1448, 0, 100000, 100000, 0, 0, 0, 0, 0, 0, 0, 0, VL_UNKNOWN, "cwnd", 0 },
	/* rule 12: an unpaced UDP sender slower than the path */
	{ "unpaced, lost none, 0.9 of eta*C", UDP, 10e6, 0, 9e6, 9e6, .5, .1,
	  0, 0, 0, 0, 0, 0, 0, 1000, 0, 0, 0, 0, VL_SENDER, "sender_mbit", 9 },
	{ "unpaced, no --link: unknown", UDP, 0, 0, 9e6, 9e6, .5, .1, 0, 0, 0,
	  0, 0, 0, 0, 1000, 0, 0, 0, 0, VL_UNKNOWN, "goodput_mbit", 9 },
};

/* The example named what (the table's order may change). */
static const struct ex *
ex_named(const char *what)
{
	size_t i;

	for (i = 0; i < sizeof examples / sizeof examples[0]; i++)
		if (strcmp(examples[i].what, what) == 0)
			return &examples[i];
	fail_msg("no example '%s'", what);
	return NULL;
}

/* The model's path (pathlim.c) of a window at an RTT, with the MSS the
 * sender's kernel chose. */
static void
path(struct run_model *m, uint64_t window, double rtt_s, unsigned mss,
     double eta_c)
{
	struct plim_in in = { .rtt_s = rtt_s, .window = window,
	    .expected_bps = eta_c, .seg_mss = mss, .path_mss = 1448 };
	char err[128];

	m->have_path = 1;
	assert_int_equal(plim_compute(&in, &m->path, err, sizeof err), 0);
}

/* The model of ex: side 0 sends, side 1 receives, for one second. */
static void
build(const struct ex *e, struct run_model *m)
{
	struct side *s = &m->side[0], *r = &m->side[1];
	double snd = e->snd > 0 ? e->snd : e->goodput;

	memset(m, 0, sizeof *m);
	m->proto = e->proto;
	m->role = ROLE_SEND;
	m->streams = 1;
	m->pace_bps = e->pace;
	*s = (struct side){ .tag = 'l', .proto = e->proto, .role = ROLE_SEND,
	    .have_result = 1 };
	*r = (struct side){ .tag = '1', .proto = e->proto, .role = ROLE_RECV,
	    .have_result = 1 };
	s->r.real_ns = r->r.real_ns = 1000000000u;
	s->r.bytes = (uint64_t)llround(snd / 8);
	r->r.bytes = (uint64_t)llround(e->goodput / 8);
	s->r.cpu_ns = (uint64_t)llround(e->scpu * 1e9);
	r->r.cpu_ns = (uint64_t)llround(e->rcpu * 1e9);
	if (e->eta_c > 0) {
		m->have_pred = 1;
		m->link_bps = e->eta_c / 0.95;
		m->link_pred.expected_bps = e->eta_c;
		m->link_conn.oc = (struct ovh_conf){ .proto = OVH_TCP, .mtu = 1500,
		    .tcp_opts = 12 };
	}
	if (e->mss > 0)
		s->tcp = (struct tcp_stats){ .cc = "cubic", .retrans = e->retrans,
		    .rtt_us = e->rtt_us, .min_rtt_us = e->min_rtt_us, .mss = e->mss,
		    .busy_us = e->busy_us, .rwnd_limited_us = e->rwnd_us,
		    .sndbuf_limited_us = e->sndbuf_us, .valid = 1,
		    .delivery_rate = (uint64_t)(e->goodput / 8) };
	if (e->proto == PROTO_UDP) {
		r->udp_sent = e->sent;
		r->r.dgrams = e->sent - e->lost;
		r->r.sock_drops = e->drops;
		r->r.flags |= RES_DROPS;
	}
	if (e->window > 0)
		path(m, e->window, e->rtt_s, e->mss, e->eta_c);
	model_figures(m);
}

/* Rule 3 without the socket's own drops (no SO_MEMINFO): the receiving
 * host's RcvbufErrors decide, named as such; without them, the loss is the
 * network's. */
static void
test_host_drops(void **state)
{
	const struct ex e = { "host drops", UDP, 0, 0, 5e6, 0, .1, .1, 0, 0, 0,
	    0, 0, 0, 0, 1000, 10, 0, 0, 0, VL_RECEIVER_SOCKET_BUFFER, NULL, 0 };
	struct run_model m;
	struct verdict v;
	int ok;

	(void)state;
	build(&e, &m);
	m.side[1].r.flags &= ~RES_DROPS;
	m.side[1].have_host_udp = 1;
	m.side[1].host_rcvbuf_errors = 5;       /* half the lost */
	m.side[1].host_in_errors = 6;
	verdict_run(&m, &v);
	assert_int_equal(v.limit, VL_RECEIVER_SOCKET_BUFFER);
	assert_true(verdict_ev(&v, "host_rcvbuf_errors", &ok) == 5 && ok);
	(void)verdict_ev(&v, "socket_drops", &ok);
	assert_false(ok);
	m.side[1].host_rcvbuf_errors = 4;       /* under half */
	verdict_run(&m, &v);
	assert_int_equal(v.limit, VL_NETWORK_LOSS);
	assert_true(verdict_ev(&v, "host_rcvbuf_errors", &ok) == 4 && ok);
	m.side[1].have_host_udp = 0;            /* nothing known */
	m.side[1].host_rcvbuf_errors = 10;
	verdict_run(&m, &v);
	assert_int_equal(v.limit, VL_NETWORK_LOSS);
	(void)verdict_ev(&v, "host_rcvbuf_errors", &ok);
	assert_false(ok);
	/* the socket's own count, where there is one, is the one used */
	m.side[1].have_host_udp = 1;
	m.side[1].r.flags |= RES_DROPS;
	m.side[1].r.sock_drops = 0;
	verdict_run(&m, &v);
	assert_int_equal(v.limit, VL_NETWORK_LOSS);
	assert_true(verdict_ev(&v, "socket_drops", &ok) == 0 && ok);
	(void)verdict_ev(&v, "host_rcvbuf_errors", &ok);
	assert_false(ok);
}

static void
test_examples(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof examples / sizeof examples[0]; i++) {
		const struct ex *e = &examples[i];
		struct run_model m;
		struct verdict v;
		double got;
		int ok;

		build(e, &m);
		verdict_run(&m, &v);
		if (v.limit != e->want)
			fail_msg("%s: %s, not %s", e->what, verdict_name(v.limit),
			         verdict_name(e->want));
		got = verdict_ev(&v, e->ev, &ok);
		if (!ok || fabs(got - e->ev_value) > 1e-6 * fmax(1, fabs(e->ev_value)))
			fail_msg("%s: evidence %s %s %.9g, not %.9g", e->what, e->ev,
			         ok ? "is" : "missing,", got, e->ev_value);
		if (e->mss > 0 && strcmp(v.cc, "cubic") != 0)
			fail_msg("%s: cc '%s'", e->what, v.cc);
	}
}

/* The loss share is the model's figure to the last bit, so the arrivals
 * line and the verdict's round alike: 12631 of 20000 is 63.155%, which
 * lost / sent x 100 makes 63.154999...: "63.16%" above, "63.15%" beside. */
static void
test_loss_pct_is_the_models(void **state)
{
	const struct ex e = { "12631 of 20000 lost, by the socket", UDP, 0, 0,
	    5e6, 0, .1, .1, 0, 0, 0, 0, 0, 0, 0, 20000, 12631, 12631, 0, 0,
	    VL_RECEIVER_SOCKET_BUFFER, "loss_pct", 63.155 };
	struct run_model m;
	struct verdict v;
	char a[16], b[16];
	int ok;

	(void)state;
	build(&e, &m);
	verdict_run(&m, &v);
	assert_int_equal(v.limit, VL_RECEIVER_SOCKET_BUFFER);
	snprintf(a, sizeof a, "%.2f", verdict_ev(&v, "loss_pct", &ok));
	assert_true(ok);
	snprintf(b, sizeof b, "%.2f", m.side[1].fig.loss_pct.v);
	assert_string_equal(a, b);
	assert_string_equal(a, "63.16");
}

/* The ratio names its bound: eta*C by default, the schedule for pacing,
 * window/RTT for a window. */
static void
test_ratio(void **state)
{
	struct run_model m;
	struct verdict v;

	(void)state;
	build(&examples[0], &m);
	verdict_run(&m, &v);
	assert_int_equal(v.have_ratio, 1);
	assert_string_equal(v.bound, "eta*C");
	assert_true(fabs(v.ratio - 0.95) < 1e-9);
	build(ex_named("paced, kept at 0.95"), &m);
	verdict_run(&m, &v);
	assert_string_equal(v.bound, "schedule");
	assert_true(fabs(v.ratio - 0.95) < 1e-9);
	build(ex_named("srtt 1.25 x min + 1 ms: queue"), &m);
	verdict_run(&m, &v);
	assert_int_equal(v.have_ratio, 0);
}

static int
has_warning(const struct verdict *v, enum verdict_warning w, const char *text)
{
	size_t i;

	for (i = 0; i < v->nwarn; i++)
		if (v->wcode[i] == w && (text == NULL || strstr(v->warn[i], text)))
			return 1;
	for (i = 0; i < v->nwarn; i++)
		print_message("warning %d: %s\n", v->wcode[i], v->warn[i]);
	return 0;
}

/* -w 1 and an MSS of 576: the window holds one segment; the bound is
 * 576 * 8 / RTT, and the warning says so. */
static void
test_mss(void **state)
{
	struct ex e = { "-w 1, MSS 576", TCP, 10e6, 0, 110000, 0, .1, .1, 576,
	    0, 40000, 40000, 0, 0, 0, 0, 0, 0, 1024, .04, 0, NULL, 0 };
	struct run_model m;
	struct verdict v;

	(void)state;
	build(&e, &m);
	verdict_run(&m, &v);
	assert_int_equal(v.limit, VL_RECEIVE_WINDOW);
	assert_string_equal(v.bound, "window/RTT");
	assert_true(fabs(v.bound_bps - 115200) < 1e-6);
	assert_true(has_warning(&v, VW_MSS, "the kernel chose MSS 576 (TCP_INFO;"
	    " 1448 assumed): the 1024-byte window holds 576 bytes of whole "
	    "segments, window/RTT 0.1152 MBit/s, not 0.2048"));
	m.link_conn.oc.mss = 576;               /* --link's model knew it */
	verdict_run(&m, &v);
	assert_true(has_warning(&v, VW_MSS, "the kernel chose MSS 576 (TCP_INFO):"
	    " the 1024-byte window holds 576 bytes"));
	assert_true(fabs(v.bound_bps - 115200) < 1e-6);
	path(&m, 65536, 0.04, 576, 10e6);       /* 113 x 576 = 65088: no word */
	verdict_run(&m, &v);
	assert_false(has_warning(&v, VW_MSS, NULL));
}

/* A standing queue names the link only where the kernel's delivery rate
 * was at most twice the goodput (5 Mbit/s: 625000 bytes/s, twice that
 * 1250000). */
static void
test_queue_rate(void **state)
{
	struct run_model m;
	struct verdict v;
	int ok;

	(void)state;
	build(ex_named("srtt 1.25 x min + 1 ms: queue"), &m);
	m.side[0].tcp.delivery_rate = 625000;
	verdict_run(&m, &v);
	assert_int_equal(v.limit, VL_LINK);
	m.side[0].tcp.delivery_rate = 1250000;
	verdict_run(&m, &v);
	assert_int_equal(v.limit, VL_LINK);
	assert_true(verdict_ev(&v, "delivery_mbit", &ok) == 10 && ok);
	m.side[0].tcp.delivery_rate = 1250001;
	verdict_run(&m, &v);
	assert_int_equal(v.limit, VL_UNKNOWN);
	m.side[0].tcp.delivery_rate = 0;        /* not known: no inference */
	verdict_run(&m, &v);
	assert_int_equal(v.limit, VL_UNKNOWN);
}

/* A side busy over its own window only: a sender that wrote everything
 * into the buffers in 0.49 of the receiver's Real s held nothing; over
 * 0.50 of it, it did. */
static void
test_cpu_span(void **state)
{
	struct run_model m;
	struct verdict v;

	(void)state;
	build(ex_named("sender CPU 0.85 of Real"), &m);
	m.side[0].r.real_ns = 490000000;
	m.side[0].r.cpu_ns = 490000000;
	model_figures(&m);
	verdict_run(&m, &v);
	assert_int_not_equal(v.limit, VL_SENDER_CPU);
	m.side[0].r.real_ns = m.side[0].r.cpu_ns = 500000000;
	model_figures(&m);
	verdict_run(&m, &v);
	assert_int_equal(v.limit, VL_SENDER_CPU);
	build(ex_named("receiver CPU 0.85 of Real"), &m);
	m.side[0].r.real_ns = 2100000000;       /* the sender's twice as long */
	model_figures(&m);
	verdict_run(&m, &v);
	assert_int_not_equal(v.limit, VL_RECEIVER_CPU);
}

/* A send buffer of 32768 bytes at 40 ms bounds the sender at 6.5536
 * Mbit/s: 0.90 of it is send_buffer, 0.89 not; unknown buffers never. */
static void
test_sndbuf(void **state)
{
	struct ex e = { "local -w 16", TCP, 10e6, 0, 0.9 * 6553600, 0, .1, .1,
	    1448, 0, 40000, 40000, 1000000, 0, 100000, 0, 0, 0, 0, 0, 0, NULL,
	    0 };
	struct run_model m;
	struct verdict v;
	int ok;

	(void)state;
	build(&e, &m);
	m.side[0].r.sndbuf = 32768;
	m.side[0].r.flags |= RES_BUFS;
	verdict_run(&m, &v);
	assert_int_equal(v.limit, VL_SEND_BUFFER);
	assert_string_equal(v.bound, "sndbuf/RTT");
	assert_true(fabs(verdict_ev(&v, "sndbuf_mbit", &ok) - 6.5536) < 1e-9 && ok);
	e.goodput = 0.89 * 6553600;
	build(&e, &m);
	m.side[0].r.sndbuf = 32768;
	m.side[0].r.flags |= RES_BUFS;
	verdict_run(&m, &v);
	assert_int_equal(v.limit, VL_UNKNOWN);
	e.goodput = 0.9 * 6553600;
	build(&e, &m);
	m.side[0].r.sndbuf = 32768;             /* not RES_BUFS: not known */
	verdict_run(&m, &v);
	assert_int_equal(v.limit, VL_UNKNOWN);
}

/* A UDP sender at 10% of its --rate across a link it filled: the link,
 * with the sender's lag, what held it, and its part of the delay
 * variation; CPU close to Real s; a short run. */
static void
test_warnings(void **state)
{
	struct ex e = { "100M over 10M", UDP, 10e6, 100e6, 9.6e6, 10e6, .1,
	    .8, 0, 0, 0, 0, 0, 0, 0, 1000, 0, 0, 0, 0, 0, NULL, 0 };
	struct run_model m;
	struct verdict v;

	(void)state;
	build(&e, &m);                          /* 1250000 bytes: 0.1 s due */
	m.side[1].have_udp = 1;
	m.side[1].udp.flags = UDPS_SEQ | UDPS_TIMED;
	m.side[1].udp.delay_var_max_ns = 950000000;
	m.link_frames = 1000;
	verdict_run(&m, &v);
	assert_int_equal(v.limit, VL_LINK);
	assert_true(has_warning(&v, VW_SENDER_BEHIND, "the sender kept 10.0% of "
	    "its schedule (10.000 of 100.000 MBit/s), 900 ms behind at its end, "
	    "held by its own send queue (CPU s 0.10 of Real s 1.00); of the delay "
	    "variation's 950.000 ms max, up to 900.000 ms is the sender's own lag"));
	assert_true(has_warning(&v, VW_RECEIVER_CPU, "CPU s 0.80"));
	assert_false(has_warning(&v, VW_SENDER_CPU, NULL));
	assert_true(has_warning(&v, VW_SHORT_RUN, "a run of 1000 frames: its "
	    "ratio may read up to 0.20% high"));
	build(&examples[1], &m);                /* unknown without one */
	m.have_pred = 0;
	m.link_bps = 0;
	model_figures(&m);
	verdict_run(&m, &v);
	assert_true(has_warning(&v, VW_NO_LINK, NULL));
}

/* A receiver without a result or without time: unknown, nothing else. */
static void
test_no_result(void **state)
{
	struct run_model m;
	struct verdict v;

	(void)state;
	build(&examples[0], &m);
	m.side[1].have_result = 0;
	verdict_run(&m, &v);
	assert_int_equal(v.limit, VL_UNKNOWN);
	assert_int_equal(v.nev, 0);
	build(&examples[0], &m);
	m.side[1].r.real_ns = 0;
	model_figures(&m);
	verdict_run(&m, &v);
	assert_int_equal(v.limit, VL_UNKNOWN);
	assert_int_equal(v.have_ratio, 0);
}

/* Two streams sharing a full link: each says link, with its share; a
 * stream's own retransmissions are its evidence. */
static void
test_streams(void **state)
{
	struct run_model m;
	struct side st[2][2];
	struct verdict v;
	int ok, i;

	(void)state;
	build(&examples[0], &m);
	m.streams = 2;
	m.have_fair = 1;
	for (i = 0; i < 2; i++) {
		st[0][i] = m.side[0];
		st[1][i] = m.side[1];
		st[0][i].stream = st[1][i].stream = (uint32_t)i + 1;
		st[0][i].r.bytes /= 2;
		st[1][i].r.bytes = i == 0 ? m.side[1].r.bytes * 9 / 10 :
		    m.side[1].r.bytes / 10;
		st[1][i].share = i == 0 ? 0.9 : 0.1;
	}
	st[0][1].tcp.retrans = 50;
	m.side[0].st = st[0];
	m.side[1].st = st[1];
	m.side[0].nst = m.side[1].nst = 2;
	model_figures(&m);
	verdict_stream(&m, 1, &v);
	assert_int_equal(v.limit, VL_LINK);
	assert_true(fabs(verdict_ev(&v, "share", &ok) - 0.1) < 1e-12 && ok);
	assert_true(verdict_ev(&v, "retrans", &ok) == 50 && ok);
	assert_true(fabs(v.ratio - 0.095) < 1e-9);
	verdict_run(&m, &v);                    /* the sums: their retrans */
	assert_int_equal(v.limit, VL_LINK);
	assert_true(verdict_ev(&v, "retrans", &ok) == 50 && ok);
	verdict_stream(&m, 2, &v);              /* no such stream */
	assert_int_equal(v.limit, VL_UNKNOWN);
	assert_int_equal(v.nev, 0);
	/* no --link: one stream's standing queue is the run's, and the
	 * other stream shares its link */
	build(ex_named("srtt 1 us under it: unknown"), &m);
	m.streams = 2;
	for (i = 0; i < 2; i++) {
		st[0][i] = m.side[0];
		st[1][i] = m.side[1];
		st[0][i].stream = st[1][i].stream = (uint32_t)i + 1;
	}
	st[0][0].tcp.rtt_us = 20000;            /* their mean 25000: no queue */
	st[0][1].tcp.rtt_us = 30000;
	m.side[0].st = st[0];
	m.side[1].st = st[1];
	m.side[0].nst = m.side[1].nst = 2;
	m.side[0].tcp.valid = 0;                /* the sums come from the streams */
	model_figures(&m);
	verdict_run(&m, &v);
	assert_int_equal(v.limit, VL_LINK);
	assert_true(fabs(verdict_ev(&v, "queue_ms", &ok) - 10) < 1e-9 && ok);
	verdict_stream(&m, 0, &v);
	assert_int_equal(v.limit, VL_LINK);
}

/* What a renderer wrote, as a string (free it). */
static char *
render_line(const char *label, const struct verdict *v)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	report_verdict_line(f, label, v);
	fclose(f);
	return buf;
}

/* The line in words: the goodput, the ratio and its bound, the cause with
 * its figures, the TCP figures and the congestion control; a line per
 * warning under it. */
static void
test_line(void **state)
{
	struct run_model m;
	struct verdict v;
	char *out;

	(void)state;
	build(ex_named("1 of 1000 segments retransmitted"), &m);
	m.side[0].tcp.cwnd = 31;
	m.side[0].tcp.rtt_us = 24100;
	m.side[0].tcp.min_rtt_us = 20100;
	verdict_run(&m, &v);
	assert_int_equal(v.limit, VL_CONGESTION);
	out = render_line("1", &v);
	assert_string_equal(out, "1: 11.5840 MBit/s, 0.5792 of eta*C: limited by "
	    "congestion: 1 segment retransmitted (0.10%), cwnd 31, srtt 24.10 "
	    "ms against 20.10 min (cubic)\n");
	free(out);
	build(ex_named("paced, 0.949 kept: the sender"), &m);
	verdict_run(&m, &v);
	out = render_line("1", &v);
	assert_string_equal(out, "1: 4.7450 MBit/s, 0.4745 of eta*C: limited by "
	    "the sender: it sent 4.7450 MBit/s of a schedule of 5.0000\n"
	    "1: warning: the sender kept 94.9% of its schedule (4.745 of 5.000 "
	    "MBit/s), 51 ms behind at its end, held by its own send queue (CPU s "
	    "0.10 of Real s 1.00)\n");
	free(out);
	memset(&v, 0, sizeof v);                /* no result */
	out = render_line("1.2", &v);
	assert_string_equal(out, "1.2: 0.0000 MBit/s: limit unknown: no rule "
	    "held\n");
	free(out);
}

/* -P 2 with unequal shares: a line per stream, then the shares, Jain's
 * index and what differs; several partners: what differs between them. */
static void
test_text_flows(void **state)
{
	struct run_model m, m2;
	const struct run_model *rm[3];
	struct side st[2][2];
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int i;

	(void)state;
	build(&examples[0], &m);
	m.streams = 2;
	m.have_fair = 1;
	m.fair = 0.6098;
	for (i = 0; i < 2; i++) {
		st[0][i] = m.side[0];
		st[1][i] = m.side[1];
		st[0][i].stream = st[1][i].stream = (uint32_t)i + 1;
		st[1][i].r.bytes = i == 0 ? m.side[1].r.bytes * 9 / 10 :
		    m.side[1].r.bytes / 10;
		st[1][i].share = i == 0 ? 0.9 : 0.1;
	}
	st[0][1].tcp.retrans = 50;
	st[0][1].tcp.rtt_us = 80300;
	m.side[0].st = st[0];
	m.side[1].st = st[1];
	m.side[0].nst = m.side[1].nst = 2;
	model_figures(&m);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	report_verdict_text(f, &m);
	fclose(f);
	assert_non_null(strstr(buf, "\n1.1: 8.5500 MBit/s, 0.8550 of eta*C: "
	    "limited by the link, cwnd 0, srtt 1.00 ms against 1.00 min, share "
	    "0.900 (cubic)\n"));
	assert_non_null(strstr(buf, "\n1: unequal shares, Jain's index 0.6098: "
	    "0.900, 0.100; what differs: srtt_ms 1.0/80.3; retrans 0/50\n"));
	free(buf);
	build(&examples[0], &m);                /* two partners */
	build(ex_named("1 of 1000 segments retransmitted"), &m2);
	m2.side[0].tcp.retrans = 7;
	strcpy(m2.side[0].tcp.cc, "bbr");
	rm[0] = &m;
	rm[1] = NULL;                           /* a partner without a run */
	rm[2] = &m2;
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	report_verdict_partners(f, rm, 3);
	fclose(f);
	assert_string_equal(buf, "+ r: what differs between the partners' "
	    "receivers: retrans 0/7; cc cubic/bbr; limit link/congestion (in "
	    "partner order)\n");
	free(buf);
}

/* Rule 2b: --sliding-window N's bound N x -l x 8 / SRTT: kept (0.95 of it)
 * it is the limit; under it with timeouts, loss held the window; a bound
 * at or above eta*C leaves the rule out, and the unpaced window's sender
 * is never "the sender". */
static void
test_swin(void **state)
{
	static const struct {
		double goodput, eta_c;
		uint64_t timeouts;
		enum verdict_limit want;
	} t[] = {
		{ 0.95 * 960000, 0, 0, VL_SLIDING_WINDOW },
		{ 0.949 * 960000, 0, 0, VL_UNKNOWN },
		{ 0.949 * 960000, 0, 3, VL_NETWORK_LOSS },
		{ 0.95 * 960000, 10e6, 0, VL_SLIDING_WINDOW },
		{ 0.5e6, 0.9e6, 0, VL_UNKNOWN },        /* bound above eta*C */
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct ex e = { "swin", UDP, t[i].eta_c, 0, t[i].goodput, 0, .1,
		    .1, 0, 0, 0, 0, 0, 0, 0, 1000, 0, 0, 0, 0, VL_UNKNOWN, NULL, 0 };
		struct run_model m;
		struct verdict v;
		int ok;

		build(&e, &m);
		/* 5 datagrams of 1440 bytes per 60 ms: 0.96 MBit/s */
		m.swin = 5;
		m.data_len = 1440;
		m.side[0].have_win = 1;
		m.side[0].win = (struct win_stats){ .window = 5, .firsts = 1000,
		    .srtt_ns = 60000000, .timeouts = t[i].timeouts,
		    .resends = t[i].timeouts };
		model_figures(&m);
		verdict_run(&m, &v);
		if (v.limit != t[i].want)
			fail_msg("case %zu: %s, not %s", i, verdict_name(v.limit),
			         verdict_name(t[i].want));
		if (t[i].want == VL_UNKNOWN)
			continue;
		assert_string_equal(v.bound, "window/RTT");
		assert_true(fabs(v.ratio - t[i].goodput / 960000) < 1e-9);
		assert_true(fabs(verdict_ev(&v, "window_mbit", &ok) - 0.96) < 1e-9);
		assert_true(ok);
	}
}

static void
test_names(void **state)
{
	(void)state;
	assert_string_equal(verdict_name(VL_LINK), "link");
	assert_string_equal(verdict_name(VL_RECEIVER_SOCKET_BUFFER),
	                    "receiver_socket_buffer");
	assert_string_equal(verdict_name(VL_NETWORK_LOSS), "network_loss");
	assert_string_equal(verdict_name(VL_SLIDING_WINDOW), "sliding_window");
	assert_string_equal(verdict_name(VL_COUNT), "unknown");
	assert_string_equal(verdict_name((enum verdict_limit)-1), "unknown");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_examples),
		cmocka_unit_test(test_loss_pct_is_the_models),
		cmocka_unit_test(test_host_drops),
		cmocka_unit_test(test_ratio),
		cmocka_unit_test(test_mss),
		cmocka_unit_test(test_sndbuf),
		cmocka_unit_test(test_cpu_span),
		cmocka_unit_test(test_queue_rate),
		cmocka_unit_test(test_warnings),
		cmocka_unit_test(test_no_result),
		cmocka_unit_test(test_streams),
		cmocka_unit_test(test_line),
		cmocka_unit_test(test_text_flows),
		cmocka_unit_test(test_swin),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

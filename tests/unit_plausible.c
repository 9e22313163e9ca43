/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_plausible.c: what a lying partner may say, as tables of bad values
 * against one honest message each (which passes), with the exact error
 * that names the field; and the bounds on INTERVALs (count, contiguity,
 * sums without wrap-around). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "client_plausible.h"
#include "hostudp.h"
#include "udpacct.h"
#include "params.h"

#define MS 1000000ULL
/* An interval from a to b ns of n bytes in c calls, the rest zero. */
#define IV(a, b, n, c) { .start_ns = (a), .end_ns = (b), .bytes = (n), \
	.calls = (c) }

/* The partner's half of a test: count mode, 10 buffers of 1000 bytes (the
 * fixture, params.h). */
#define params(proto, role) test_params((proto), (role), 1000, 10000)

/* A run 50 ms old: the window with its slack is 50 ms + 50 us + 1 ms. */
static struct plaus_run
run(const struct xfer_params *p)
{
	struct plaus_run r = { .p = p, .window_ns = 50 * MS, .threads = 3 };

	return r;
}
#define WIN 51050000ULL

static void
test_window(void **state)
{
	struct xfer_params p = params(PROTO_TCP, ROLE_RECV);
	struct plaus_run r = run(&p);

	(void)state;
	assert_int_equal(plaus_window(&r), WIN);
	r.window_ns = UINT64_MAX;
	assert_true(plaus_window(&r) == UINT64_MAX);    /* saturates */
	r.window_ns = 0;
	assert_int_equal(plaus_window(&r), 1 * MS);
}

static void
test_result(void **state)
{
	static const struct {
		const char *name;
		struct gput_result r;
		uint64_t start, end;
		const char *want;
	} bad[] = {
		{ "cpu 2^64-1 in 1 ns", { .bytes = 10000, .calls = 10, .real_ns = 1,
		  .cpu_ns = UINT64_MAX }, 0, 1,
		  "RESULT cpu_ns 18446744073709551615 is more than 3 threads can use "
		  "in its window of 1 ns (at most 60000003)" },
		{ "cpu just over", { .bytes = 10000, .calls = 10, .real_ns = 10 * MS,
		  .cpu_ns = 3 * (10 * MS + 100000 + 20 * MS) + 1 }, 0, 10 * MS,
		  "RESULT cpu_ns 90300001 is more than 3 threads can use in its "
		  "window of 10000000 ns (at most 90300000)" },
		{ "cpu over end_ns, real shorter", { .bytes = 10000, .calls = 10,
		  .real_ns = 1 * MS, .cpu_ns = 3 * (10 * MS + 100000 + 20 * MS) +
		  1 }, 0, 10 * MS,
		  "RESULT cpu_ns 90300001 is more than 3 threads can use in its "
		  "window of 10000000 ns (at most 90300000)" },
		{ "real beyond the window", { .bytes = 10000, .calls = 10,
		  .real_ns = WIN + 1 }, 0, 1,
		  "RESULT real_ns 51050001 is longer than the run so far (at most "
		  "51050000 ns)" },
		{ "end beyond the window", { .bytes = 10000, .calls = 10,
		  .real_ns = 1 }, 0, WIN + 1,
		  "RESULT end_ns 51050001 is longer than the run so far (at most "
		  "51050000 ns)" },
		{ "start + real beyond, wrapping", { .bytes = 10000, .calls = 10,
		  .real_ns = UINT64_MAX - 5 }, 10, 20,
		  "RESULT real_ns 18446744073709551610 is longer than the run so far "
		  "(at most 51050000 ns)" },
		{ "start + real beyond", { .bytes = 10000, .calls = 10,
		  .real_ns = 30 * MS }, 30 * MS, 30 * MS,
		  "RESULT start_ns + real_ns 60000000 is longer than the run so far "
		  "(at most 51050000 ns)" },
		{ "start after end", { .bytes = 10000, .calls = 10, .real_ns = 1 },
		  20, 10, "RESULT start_ns 20 is after its end_ns 10" },
		{ "bytes", { .bytes = 10001, .calls = 10, .real_ns = 1 }, 0, 1,
		  "RESULT bytes 10001 is more than the test moves (10000)" },
		{ "queue wraps", { .bytes = 10000, .calls = 10, .real_ns = 1,
		  .unsent = UINT64_MAX, .unacked = 2 }, 0, 1,
		  "RESULT unsent + unacked 18446744073709551615 is more than the test "
		  "moves (10000)" },
	};
	struct xfer_params p = params(PROTO_TCP, ROLE_RECV);
	struct plaus_run r = run(&p);
	struct gput_result ok = { .bytes = 10000, .calls = 10, .real_ns = 40 * MS,
	    .cpu_ns = 120 * MS };
	char err[256];
	size_t i;

	(void)state;
	assert_int_equal(plaus_result(&r, &ok, 1, 0, 40 * MS, err, sizeof err), 0);
	/* a UDP receiver: its real time the datagrams' span (1 ms), its CPU
	 * window up to its end (40 ms, the idle timeout after them) */
	ok.real_ns = 1 * MS;
	assert_int_equal(plaus_result(&r, &ok, 1, 0, 40 * MS, err, sizeof err), 0);
	ok.real_ns = 40 * MS;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		print_message("%s\n", bad[i].name);
		err[0] = '\0';
		assert_int_equal(plaus_result(&r, &bad[i].r, 1, bad[i].start,
		                 bad[i].end, err, sizeof err), -1);
		assert_string_equal(err, bad[i].want);
	}
	/* the side's result of 4 streams sums them: 4 x the bytes */
	ok.bytes = 40000;
	ok.calls = 40;
	assert_int_equal(plaus_result(&r, &ok, 4, 0, 1, err, sizeof err), 0);
	assert_int_equal(plaus_result(&r, &ok, 1, 0, 1, err, sizeof err), -1);
	assert_string_equal(err, "RESULT bytes 40000 is more than the test moves "
	                    "(10000)");
	/* UDP: datagrams no more than the sender sends */
	p = params(PROTO_UDP, ROLE_RECV);
	/* a UDP receiver's widened span, read late: start + real may pass the
	 * window (3 datagrams 20 ms apart read 30 ms after START: real 30 ms,
	 * start 30 ms, the run 51 ms), each alone may not */
	ok.dgrams = 3;
	ok.real_ns = 30 * MS;
	ok.cpu_ns = 1 * MS;
	ok.bytes = 3000;
	err[0] = '\0';
	if (plaus_result(&r, &ok, 1, 30 * MS, 50 * MS, err, sizeof err) != 0)
		fail_msg("a UDP receiver's widened span refused: %s", err);
	ok.real_ns = WIN + 1;
	assert_int_equal(plaus_result(&r, &ok, 1, 0, 50 * MS, err, sizeof err), -1);
	assert_string_equal(err, "RESULT real_ns 51050001 is longer than the run "
	                    "so far (at most 51050000 ns)");
	ok.real_ns = 40 * MS;
	ok.cpu_ns = 120 * MS;
	ok.bytes = 10000;
	ok.dgrams = 11;
	assert_int_equal(plaus_result(&r, &ok, 1, 0, 1, err, sizeof err), -1);
	assert_string_equal(err, "RESULT dgrams 11 is more than the sender sends "
	                    "(10)");
	ok.dgrams = 10;
	ok.dgrams_sent = UINT64_MAX;
	assert_int_equal(plaus_result(&r, &ok, 1, 0, 1, err, sizeof err), -1);
	assert_string_equal(err, "RESULT dgrams_sent 18446744073709551615 is more "
	                    "than the sender sends (10)");
}

static void
test_udpstats(void **state)
{
	struct bad {
		const char *name;
		struct udp_stats u;
		int same_clock;
		const char *want;
	} bad[] = {
		{ "jitter 1.8e13 ms", { .received = 10, .unique = 10,
		  .jitter_ns = 18000000000000000ULL }, 0,
		  "UDPSTATS jitter_ns 18000000000000000 is more than twice the run so "
		  "far (102100000)" },
		{ "delay variation max", { .received = 10, .unique = 10,
		  .delay_var_max_ns = 2 * WIN + 1 }, 0,
		  "UDPSTATS delay_var_max_ns 102100001 is more than twice the run so "
		  "far (102100000)" },
		{ "mean delay variation above its max", { .received = 10,
		  .unique = 10, .delay_var_ns = 5, .delay_var_max_ns = 4 }, 0,
		  "UDPSTATS delay_var_ns 5 is more than its delay_var_max_ns (4)" },
		{ "owd -9.2e12 ms", { .received = 10, .unique = 10,
		  .owd_min_ns = -9200000000000000LL, .flags = UDPS_SEQ | UDPS_TIMED },
		  1, "UDPSTATS owd_min_ns -9200000000000000 is beyond the run so far "
		  "either way (at most 51050000 ns, same clock)" },
		{ "owd INT64_MIN", { .received = 10, .unique = 10,
		  .owd_mean_ns = INT64_MIN, .flags = UDPS_SEQ | UDPS_TIMED }, 1,
		  "UDPSTATS owd_mean_ns -9223372036854775808 is beyond the run so far "
		  "either way (at most 51050000 ns, same clock)" },
		{ "counts that do not add up", { .received = 10, .unique = 9 }, 0,
		  "UDPSTATS received 10 is not unique 9 + duplicates 0 + too_old 0" },
		{ "counts that add up modulo 2^64", { .received = 5, .unique = 6,
		  .duplicates = UINT64_MAX }, 0,
		  "UDPSTATS received 5 is not unique 6 + duplicates "
		  "18446744073709551615 + too_old 0" },
		{ "more unique than sent", { .received = 11, .unique = 11 }, 0,
		  "UDPSTATS unique 11 is more than the sender sends (10)" },
		{ "reordered", { .received = 10, .unique = 10, .reordered = 11 }, 0,
		  "UDPSTATS reordered 11 is more than its unique datagrams (10)" },
		{ "late", { .received = 10, .unique = 10, .late = 11 }, 0,
		  "UDPSTATS late 11 is more than its datagrams received (10)" },
		{ "displacement", { .received = 10, .unique = 10,
		  .max_displacement = UDPACCT_WINDOW }, 0,
		  "UDPSTATS max_displacement 65536 is more than its window of "
		  "sequence numbers (65535)" },
	};
	struct xfer_params p = params(PROTO_UDP, ROLE_RECV);
	struct plaus_run r = run(&p);
	struct udp_stats ok = { .received = 12, .unique = 10, .duplicates = 2,
	    .jitter_ns = 2 * WIN, .delay_var_ns = 1, .delay_var_max_ns = 2 * WIN,
	    .owd_min_ns = -(int64_t)WIN, .owd_mean_ns = (int64_t)WIN,
	    .flags = UDPS_SEQ | UDPS_TIMED };
	char err[256];
	size_t i;

	(void)state;
	r.same_clock = 1;
	assert_int_equal(plaus_udpstats(&r, &ok, err, sizeof err), 0);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		print_message("%s\n", bad[i].name);
		r.same_clock = bad[i].same_clock;
		assert_int_equal(plaus_udpstats(&r, &bad[i].u, err, sizeof err), -1);
		assert_string_equal(err, bad[i].want);
	}
	/* two clocks: a one-way delay holds their offset, anything goes */
	r.same_clock = 0;
	ok.owd_min_ns = ok.owd_mean_ns = INT64_MIN;
	assert_int_equal(plaus_udpstats(&r, &ok, err, sizeof err), 0);
}

static void
test_tcpinfo(void **state)
{
	static const struct {
		const char *name;
		struct tcp_stats t;
		const char *want;
	} bad[] = {
		{ "retrans 2^64-1", { .retrans = UINT64_MAX, .mss = 1448 },
		  "TCPINFO retrans 18446744073709551615 is more than the test's bytes "
		  "can make (640128)" },
		{ "rtt", { .rtt_us = 51052, .mss = 1448 },
		  "TCPINFO rtt_us 51052 is more than the run so far (us) (51051)" },
		{ "min rtt", { .min_rtt_us = UINT32_MAX - 1, .mss = 1448 },
		  "TCPINFO min_rtt_us 4294967294 is more than the run so far (us) "
		  "(51051)" },
		{ "busy", { .busy_us = 61052, .mss = 1448 },
		  "TCPINFO busy_us 61052 is more than the run so far and a jiffy (us) "
		  "(61051)" },
		{ "limited beyond busy", { .busy_us = 10, .rwnd_limited_us = 10,
		  .sndbuf_limited_us = 3, .mss = 1448 },
		  "TCPINFO rwnd_limited_us + sndbuf_limited_us 13 is more than its "
		  "busy_us (12)" },
		{ "mss", { .mss = 65536 },
		  "TCPINFO mss 65536 is more than an IP packet holds (65535)" },
		{ "delivery rate 10 Tbit/s + 1 byte/s", { .mss = 1448,
		  .delivery_rate = PLAUS_MAX_BYTES_PER_S + 1 },
		  "TCPINFO delivery_rate 1250000000001 is more than 10 Tbit/s "
		  "(bytes/s) (1250000000000)" },
		{ "delivery rate 2^64-1 (147573952589676 Mbit/s)", { .mss = 1448,
		  .delivery_rate = UINT64_MAX },
		  "TCPINFO delivery_rate 18446744073709551615 is more than 10 Tbit/s "
		  "(bytes/s) (1250000000000)" },
		{ "CE bytes beyond the test and its proof, 65 times", { .mss = 1448,
		  .received_ce_bytes = 651171 },
		  "TCPINFO received_ce_bytes 651171 is more than the test's bytes and "
		  "proof can carry, each sent 65 times (651170)" },
		{ "CE bytes 2^32-1", { .mss = 1448, .received_ce_bytes = UINT32_MAX },
		  "TCPINFO received_ce_bytes 4294967295 is more than the test's bytes "
		  "and proof can carry, each sent 65 times (651170)" },
	};
	struct xfer_params p = params(PROTO_TCP, ROLE_SEND);
	struct plaus_run r = run(&p);
	struct tcp_stats ok = { .retrans = 640128, .rtt_us = 51050,
	    .min_rtt_us = 1, .busy_us = 61051, .rwnd_limited_us = 61051,
	    .mss = 65535, .delivery_rate = PLAUS_MAX_BYTES_PER_S,
	    .received_ce_bytes = 651170 };
	char err[256];
	size_t i;

	(void)state;
	assert_int_equal(plaus_tcpinfo(&r, &ok, err, sizeof err), 0);
	ok.min_rtt_us = UINT32_MAX;     /* Linux's "no sample yet" */
	assert_int_equal(plaus_tcpinfo(&r, &ok, err, sizeof err), 0);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		print_message("%s\n", bad[i].name);
		assert_int_equal(plaus_tcpinfo(&r, &bad[i].t, err, sizeof err), -1);
		assert_string_equal(err, bad[i].want);
	}
	assert_true(plaus_retrans_max(UINT64_MAX) == UINT64_MAX);
}

/* Stream-level checks at the end: against what moved here. */
static void
test_stream(void **state)
{
	struct xfer_params p = params(PROTO_UDP, ROLE_RECV);
	struct side ps, ls;
	char err[256];

	(void)state;
	memset(&ps, 0, sizeof ps);
	memset(&ls, 0, sizeof ls);
	ls.r.dgrams = 8;
	ls.r.bytes = 8000;
	ps.r.dgrams = 8;
	ps.r.bytes = 8000;
	ps.r.calls = 8;
	ps.have_udp = 1;
	ps.udp.received = 8;
	assert_int_equal(plaus_stream(&p, &ps, &ls, err, sizeof err), 0);
	ps.r.dgrams = 9;
	assert_int_equal(plaus_stream(&p, &ps, &ls, err, sizeof err), -1);
	assert_string_equal(err, "RESULT dgrams 9 is more than were sent from here "
	                    "(8)");
	ps.r.dgrams = 8;
	ps.udp.received = 9;
	assert_int_equal(plaus_stream(&p, &ps, &ls, err, sizeof err), -1);
	assert_string_equal(err, "UDPSTATS received 9 is more than its RESULT "
	                    "calls can read (8)");
	/* a UDP sender there sent at least what arrived here */
	p = params(PROTO_UDP, ROLE_SEND);
	ps.r.dgrams = 7;
	assert_int_equal(plaus_stream(&p, &ps, &ls, err, sizeof err), -1);
	assert_string_equal(err, "RESULT dgrams 7 is fewer than arrived here (8)");
	/* TCP: retransmissions fit the bytes it reports */
	p = params(PROTO_TCP, ROLE_SEND);
	ps.r.bytes = 100;
	ps.tcp.valid = 1;
	ps.tcp.retrans = 102 * PLAUS_RETRANS_PER_BYTE;
	assert_int_equal(plaus_stream(&p, &ps, &ls, err, sizeof err), 0);
	ps.tcp.retrans++;
	assert_int_equal(plaus_stream(&p, &ps, &ls, err, sizeof err), -1);
	assert_string_equal(err, "TCPINFO retrans 6529 is more than its RESULT bytes "
	                    "can make (6528)");
	ps.tcp.retrans = 0;                     /* CE bytes: its bytes, the proof */
	ps.tcp.received_ce_bytes = 118 * 65;
	assert_int_equal(plaus_stream(&p, &ps, &ls, err, sizeof err), 0);
	ps.tcp.received_ce_bytes++;
	assert_int_equal(plaus_stream(&p, &ps, &ls, err, sizeof err), -1);
	assert_string_equal(err, "TCPINFO received_ce_bytes 7671 is more than its "
	                    "RESULT bytes and the proof can carry, each sent 65 "
	                    "times (7670)");
	/* a UDP receiver's call reads a copy of a datagram at least */
	p = params(PROTO_UDP, ROLE_RECV);
	memset(&ps, 0, sizeof ps);
	ps.r.dgrams = 8;
	ps.r.bytes = 8000;
	ps.r.calls = 10;
	ps.have_udp = 1;
	ps.udp.received = 10;
	assert_int_equal(plaus_stream(&p, &ps, &ls, err, sizeof err), 0);
	ps.r.calls = 11;
	assert_int_equal(plaus_stream(&p, &ps, &ls, err, sizeof err), -1);
	assert_string_equal(err, "RESULT calls 11 is more than its datagrams "
	                    "received (10)");
	ps.have_udp = 0;                        /* no header: every copy counts */
	ps.r.calls = 8;
	assert_int_equal(plaus_stream(&p, &ps, &ls, err, sizeof err), 0);
	ps.r.calls = 9;
	assert_int_equal(plaus_stream(&p, &ps, &ls, err, sizeof err), -1);
	assert_string_equal(err, "RESULT calls 9 is more than its datagrams "
	                    "received (8)");
}

/* One RESULT against its bound: at the bound accepted, one over refused
 * with err want. */
static void
edge(const struct plaus_run *r, struct gput_result *g, uint32_t streams,
     uint64_t *field, uint64_t at, const char *want)
{
	char err[256] = "";

	*field = at;
	if (plaus_result(r, g, streams, 0, g->real_ns, err, sizeof err) != 0)
		fail_msg("at the bound %llu refused: %s", (unsigned long long)at, err);
	*field = at + 1;
	assert_int_equal(plaus_result(r, g, streams, 0, g->real_ns, err,
	                 sizeof err), -1);
	assert_string_equal(err, want);
	*field = at;
}

/* Calls by physics, socket buffers, the rate: each at its edge. */
static void
test_result_bounds(void **state)
{
	struct xfer_params p = params(PROTO_TCP, ROLE_RECV);
	struct plaus_run r = run(&p);
	struct gput_result g = { .bytes = 10000, .calls = 10, .real_ns = 40 * MS };
	char err[256];

	(void)state;
	/* TCP: a call moves a byte at least, -l at most */
	edge(&r, &g, 1, &g.calls, 10000, "RESULT calls 10001 is more than its "
	     "bytes (a TCP call moves one at least) (10000)");
	g.calls = 9;
	assert_int_equal(plaus_result(&r, &g, 1, 0, 40 * MS, err, sizeof err), -1);
	assert_string_equal(err, "RESULT calls 9 are fewer than its bytes need "
	                    "(10 calls of at most 1000)");
	g.calls = 18446744073709551615ull;      /* the review's */
	assert_int_equal(plaus_result(&r, &g, 1, 0, 40 * MS, err, sizeof err), -1);
	assert_string_equal(err, "RESULT calls 18446744073709551615 is more than "
	                    "its bytes (a TCP call moves one at least) (10000)");
	g.calls = 10;
	/* the kernel's socket buffers are ints */
	g.flags = RES_BUFS;
	g.sndbuf = 2147483647u;
	g.rcvbuf = 2147483647u;
	assert_int_equal(plaus_result(&r, &g, 1, 0, 40 * MS, err, sizeof err), 0);
	g.sndbuf = 2147483648u;
	assert_int_equal(plaus_result(&r, &g, 1, 0, 40 * MS, err, sizeof err), -1);
	assert_string_equal(err, "RESULT sndbuf 2147483648 is more than a socket "
	                    "buffer holds (2147483647)");
	g.sndbuf = 2147483647u;
	g.rcvbuf = 2147483648u;
	assert_int_equal(plaus_result(&r, &g, 1, 0, 40 * MS, err, sizeof err), -1);
	assert_string_equal(err, "RESULT rcvbuf 2147483648 is more than a socket "
	                    "buffer holds (2147483647)");
	g.rcvbuf = 0;
	/* 10 Tbit/s: 1250 bytes a ns beyond one call (-l) */
	g.real_ns = 7;
	edge(&r, &g, 1, &g.bytes, 9750, "RESULT real_ns 7 is too short for its "
	     "9751 bytes (at most 9750 at 10 Tbit/s)");
	g.real_ns = 1;                          /* the review's 1 ns */
	g.bytes = 10000;
	assert_int_equal(plaus_result(&r, &g, 1, 0, 1, err, sizeof err), -1);
	assert_string_equal(err, "RESULT real_ns 1 is too short for its 10000 "
	                    "bytes (at most 2250 at 10 Tbit/s)");
	g.real_ns = 0;                          /* one read: its time is not */
	g.bytes = 1000;                         /*   in the window */
	g.calls = 1;
	assert_int_equal(plaus_result(&r, &g, 1, 0, 0, err, sizeof err), 0);
	/* UDP sender: its datagrams and the three end markers */
	p = params(PROTO_UDP, ROLE_SEND);
	g = (struct gput_result){ .bytes = 10000, .dgrams = 10, .real_ns = 40 * MS };
	edge(&r, &g, 1, &g.calls, 13, "RESULT calls 14 is more than its datagrams "
	     "and end markers (13)");
	edge(&r, &g, 4, &g.calls, 22, "RESULT calls 23 is more than its datagrams "
	     "and end markers (22)");
	/* UDP receiver: copies (duplicates too), as fast as 10 Tbit/s allows
	 * in the run so far, 51.05 ms: 63812500000 bytes, and one call */
	p = params(PROTO_UDP, ROLE_RECV);
	g = (struct gput_result){ .bytes = 10000, .dgrams = 10, .real_ns = 40 * MS };
	assert_true(plaus_calls_max(&r, 1) == 63812501ull);
	edge(&r, &g, 1, &g.calls, 63812501ull, "RESULT calls 63812502 is more than "
	     "datagrams can arrive in the run so far (63812501)");
	p.batch = 8;                            /* a call: 8 datagrams */
	assert_true(plaus_calls_max(&r, 1) == 63812508ull);
	p.batch = 0;
	/* TCP: the test's bytes, or the rate's */
	p = params(PROTO_TCP, ROLE_SEND);
	assert_true(plaus_calls_max(&r, 1) == 10000);
	assert_true(plaus_calls_max(&r, 2) == 20000);
	p.data_bytes = XFER_TIME_BYTES;         /* --time: the rate's */
	assert_true(plaus_calls_max(&r, 1) == 63812501000ull);
	p = params(PROTO_UDP, ROLE_SEND);
	assert_true(plaus_calls_max(&r, 1) == 13);
}

static void
test_udpstats_rate(void **state)
{
	struct xfer_params p = params(PROTO_UDP, ROLE_RECV);
	struct plaus_run r = run(&p);
	struct udp_stats u = { .received = 63812501ull, .unique = 10,
	    .duplicates = 63812491ull };
	char err[256];

	(void)state;
	assert_int_equal(plaus_udpstats(&r, &u, err, sizeof err), 0);
	u.received++;
	u.duplicates++;
	assert_int_equal(plaus_udpstats(&r, &u, err, sizeof err), -1);
	assert_string_equal(err, "UDPSTATS received 63812502 is more than "
	                    "datagrams can arrive in the run so far (63812501)");
	/* the review's 2^62 duplicates of a 100-datagram test */
	u.duplicates = 4611686018427387904ull;
	u.received = u.duplicates + 10;
	assert_int_equal(plaus_udpstats(&r, &u, err, sizeof err), -1);
	assert_string_equal(err, "UDPSTATS received 4611686018427387914 is more "
	                    "than datagrams can arrive in the run so far "
	                    "(63812501)");
}

static void
test_echo(void **state)
{
	struct xfer_params p = params(PROTO_TCP, ROLE_RECV);
	struct plaus_run r = run(&p);
	struct echo_stats e = { .received = 260, .echoed = 250, .strangers = 4,
	    .malformed = 3, .over_rate = 2, .failed = 1 };
	char err[256];

	(void)state;
	assert_int_equal(plaus_echo(&r, &e, 250, err, sizeof err), -1);
	assert_string_equal(err, "ECHOSTATS came in a test without --latency");
	p.xflags |= CTL_XF_LATENCY;
	assert_int_equal(plaus_echo(&r, &e, 250, err, sizeof err), 0);
	assert_int_equal(plaus_echo(&r, &e, 251, err, sizeof err), -1);
	assert_string_equal(err, "ECHOSTATS echoed 250 is fewer than the probes "
	                    "echoed here before the data path opened (251)");
	e.echoed = 0;                           /* the review's */
	e.received = 10;
	assert_int_equal(plaus_echo(&r, &e, 250, err, sizeof err), -1);
	assert_string_equal(err, "ECHOSTATS echoed 0 is fewer than the probes "
	                    "echoed here before the data path opened (250)");
	e.received = 11;
	assert_int_equal(plaus_echo(&r, &e, 0, err, sizeof err), -1);
	assert_string_equal(err, "ECHOSTATS received 11 is not echoed 0 + "
	                    "strangers 4 + malformed 3 + over_rate 2 + failed 1");
	e.received = 2;                         /* a sum that wraps */
	e.echoed = UINT64_MAX - 7;
	assert_int_equal(plaus_echo(&r, &e, 0, err, sizeof err), -1);
}

/* HOSTUDP: asked for only of a UDP receiver; each count at most what the
 * window with its slack (WIN) and a second allow at 150 million a second. */
static void
test_hostudp(void **state)
{
	struct xfer_params p = params(PROTO_UDP, ROLE_RECV);
	struct plaus_run r = run(&p);
	const uint64_t most = (WIN / 1000000u + 1000u) * 150000u;
	struct hostudp h = { .rcvbuf_errors = most, .in_errors = most };
	char err[256];

	(void)state;
	assert_int_equal(plaus_hostudp(&r, &h, err, sizeof err), -1);
	assert_string_equal(err, "HOSTUDP came in a test that did not ask for it "
	                    "(the partner does not receive UDP)");
	p.xflags |= CTL_XF_HOSTUDP;
	assert_int_equal(plaus_hostudp(&r, &h, err, sizeof err), 0);
	h.in_errors = most + 1;
	assert_int_equal(plaus_hostudp(&r, &h, err, sizeof err), -1);
	assert_string_equal(err, "HOSTUDP InErrors 157650001 is more than "
	                    "157650000, what 0.051 s allows at 150000000 "
	                    "datagrams/s");
	h.in_errors = 0;
	h.rcvbuf_errors = HOSTUDP_MAX;
	assert_int_equal(plaus_hostudp(&r, &h, err, sizeof err), -1);
	assert_string_equal(err, "HOSTUDP RcvbufErrors 4294967296 is more than "
	                    "157650000, what 0.051 s allows at 150000000 "
	                    "datagrams/s");
	r.window_ns = 3600ull * 1000000000u;    /* an hour: 2^32 at most */
	assert_int_equal(plaus_hostudp(&r, &h, err, sizeof err), 0);
}

/* --sliding-window: a receiving partner's counts against the sends made
 * here (8 first sends, 2 again; 8 acknowledged). */
static void
test_window_recv(void **state)
{
	struct xfer_params p = params(PROTO_UDP, ROLE_RECV);
	struct side ps, ls;
	char err[256];

	(void)state;
	memset(&ps, 0, sizeof ps);
	memset(&ls, 0, sizeof ls);
	p.xflags = CTL_XF_WINDOW | CTL_XF_COOKIE;
	ls.r.dgrams = ls.win.firsts = 8;
	ls.r.bytes = 8000;
	ls.win.resends = 2;
	ls.win.acks_new = 8;
	ls.have_win = 1;
	ps.r.dgrams = 8;
	ps.r.bytes = 8000;
	ps.r.calls = 10;                /* a datagram a call */
	ps.have_udp = 1;
	ps.udp = (struct udp_stats){ .received = 10, .unique = 8, .duplicates = 2 };
	assert_int_equal(plaus_stream(&p, &ps, &ls, err, sizeof err), 0);
	/* duplicates: the 2 retransmissions and a copy of each of 10 sends */
	ps.udp.duplicates = 12;
	ps.udp.received = ps.r.calls = 20;
	assert_int_equal(plaus_stream(&p, &ps, &ls, err, sizeof err), 0);
	ps.udp.duplicates = 13;
	ps.udp.received = ps.r.calls = 21;
	assert_int_equal(plaus_stream(&p, &ps, &ls, err, sizeof err), -1);
	assert_string_equal(err, "UDPSTATS duplicates 13 is more than "
	                    "retransmissions and a copy of each send (12)");
	/* fewer unique than it acknowledged: 1 missing that was answered */
	ps.udp = (struct udp_stats){ .received = 7, .unique = 7 };
	assert_int_equal(plaus_window_recv(&ls.win, &ps.udp, err, sizeof err), -1);
	assert_string_equal(err, "UDPSTATS unique 7 is fewer than the datagrams "
	                    "it acknowledged (8)");
	/* more unique than sent here */
	ps.udp = (struct udp_stats){ .received = 9, .unique = 9 };
	assert_int_equal(plaus_window_recv(&ls.win, &ps.udp, err, sizeof err), -1);
	assert_string_equal(err, "UDPSTATS unique 9 is more than were sent from "
	                    "here (8)");
	/* received beyond every send and its copy */
	ps.udp = (struct udp_stats){ .received = 21, .unique = 8, .too_old = 13 };
	assert_int_equal(plaus_window_recv(&ls.win, &ps.udp, err, sizeof err), -1);
	assert_string_equal(err, "UDPSTATS received 21 is more than the sends from "
	                    "here and a copy of each (20)");
	/* without the window the counts are not asked about */
	p.xflags = 0;
	ps.r.calls = 8;
	ps.udp = (struct udp_stats){ .received = 8, .unique = 7, .duplicates = 1 };
	assert_int_equal(plaus_stream(&p, &ps, &ls, err, sizeof err), 0);
}

static void
test_ival_count(void **state)
{
	struct xfer_params p = params(PROTO_TCP, ROLE_SEND);
	struct plaus_run r = run(&p);

	(void)state;
	assert_int_equal(plaus_max_ivals(&r), 1);      /* no sampling: the last */
	p.omit_ms = 1000;
	assert_int_equal(plaus_max_ivals(&r), 3);
	p.interval_ms = 100;
	assert_int_equal(plaus_max_ivals(&r), 2);      /* 51 ms: none passed */
	r.window_ns = 1000 * MS;                       /* 1.002 s: 10 passed */
	assert_int_equal(plaus_max_ivals(&r), 12);
	r.window_ns = UINT64_MAX;
	assert_true(plaus_max_ivals(&r) < UINT64_MAX / 100000);
}

/* One interval of a table: what came before is the honest intervals
 * [0, 10 ms), [10 ms, 20 ms) of 1000 bytes each. */
static void
test_ival(void **state)
{
	static const struct {
		const char *name;
		uint32_t index;
		struct ival iv;
		const char *want;
	} bad[] = {
		{ "index skipped", 3, IV(20 * MS, 30 * MS, 1, 1),
		  "INTERVAL index 3 out of order (expected 2)" },
		{ "index again", 1, IV(20 * MS, 30 * MS, 1, 1),
		  "INTERVAL index 1 out of order (expected 2)" },
		{ "overlap", 2, IV(15 * MS, 30 * MS, 1, 1),
		  "INTERVAL 2 start_ns 15000000 overlaps or leaves a gap (the previous "
		  "one ended at 20000000, this one ends at 30000000)" },
		{ "gap", 2, IV(25 * MS, 30 * MS, 1, 1),
		  "INTERVAL 2 start_ns 25000000 overlaps or leaves a gap (the previous "
		  "one ended at 20000000, this one ends at 30000000)" },
		{ "backwards", 2, IV(20 * MS, 19 * MS, 1, 1),
		  "INTERVAL 2 start_ns 20000000 overlaps or leaves a gap (the previous "
		  "one ended at 20000000, this one ends at 19000000)" },
		{ "from the future", 2, IV(20 * MS, WIN + 1, 1, 1),
		  "INTERVAL end_ns 51050001 is longer than the run so far (at most "
		  "51050000 ns)" },
		{ "bytes 2^64-1000", 2, IV(20 * MS, 30 * MS, UINT64_MAX - 999, 1),
		  "INTERVAL bytes that add up to more than the test moves (2000 + "
		  "18446744073709550616 > 10000)" },
		{ "bytes past the test", 2, IV(20 * MS, 30 * MS, 8001, 1),
		  "INTERVAL bytes that add up to more than the test moves (2000 + "
		  "8001 > 10000)" },
		{ "calls wrap", 2, IV(20 * MS, 30 * MS, 1, UINT64_MAX),
		  "INTERVAL calls that add up to more than the run so far can make "
		  "(2 + 18446744073709551615 > 10000)" },
		{ "calls one past a byte each", 2, IV(20 * MS, 30 * MS, 1, 9999),
		  "INTERVAL calls that add up to more than the run so far can make "
		  "(2 + 9999 > 10000)" },
	};
	struct xfer_params p = params(PROTO_TCP, ROLE_SEND);
	struct plaus_run r = run(&p);
	struct plaus_ivals s0 = { 0 }, s;
	struct ival iv = IV(0, 10 * MS, 1000, 1);
	char err[256];
	size_t i;

	(void)state;
	p.interval_ms = 10;
	assert_int_equal(plaus_ival(&r, &s0, 0, &iv, err, sizeof err), 0);
	iv.start_ns = 10 * MS;
	iv.end_ns = 20 * MS;
	assert_int_equal(plaus_ival(&r, &s0, 1, &iv, err, sizeof err), 0);
	assert_int_equal(s0.n, 2);
	assert_int_equal(s0.bytes, 2000);
	s = s0;                 /* a TCP call a byte at least: 10000 calls */
	iv.start_ns = 20 * MS;
	iv.end_ns = 30 * MS;
	iv.calls = 9998;
	assert_int_equal(plaus_ival(&r, &s, 2, &iv, err, sizeof err), 0);
	iv.calls = 1;
	iv.start_ns = 10 * MS;
	iv.end_ns = 20 * MS;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		print_message("%s\n", bad[i].name);
		s = s0;
		assert_int_equal(plaus_ival(&r, &s, bad[i].index, &bad[i].iv, err,
		                 sizeof err), -1);
		assert_string_equal(err, bad[i].want);
		assert_memory_equal(&s, &s0, sizeof s);    /* unchanged */
	}
	/* the last one, then nothing more */
	iv.start_ns = 20 * MS;
	iv.end_ns = 25 * MS;
	iv.flags = IVAL_LAST;
	assert_int_equal(plaus_ival(&r, &s0, 2, &iv, err, sizeof err), 0);
	iv.start_ns = 25 * MS;
	iv.flags = 0;
	assert_int_equal(plaus_ival(&r, &s0, 3, &iv, err, sizeof err), -1);
	assert_string_equal(err, "INTERVAL index 3 out of order (expected 3, "
	                    "after the last one)");
}

/* 3,000,000 zero-length intervals in a run 50 ms old at 100 ms: the third
 * is refused, whatever follows. */
static void
test_ival_flood(void **state)
{
	struct xfer_params p = params(PROTO_TCP, ROLE_SEND);
	struct plaus_run r = run(&p);
	struct plaus_ivals s = { 0 };
	struct ival iv = { 0 };
	char err[256];
	uint32_t k, ok = 0;

	(void)state;
	p.interval_ms = 100;
	for (k = 0; k < 3000000; k++)
		if (plaus_ival(&r, &s, k, &iv, err, sizeof err) == 0)
			ok++;
		else if (k == 2)
			assert_string_equal(err, "INTERVAL index 2: more intervals than "
			                    "the run so far holds (at most 2)");
	assert_int_equal(ok, 2);
	assert_int_equal(s.n, 2);
}

/* UDP and TCP sums: datagrams within what the sender sends, TCP
 * retransmissions within what the bytes can make. */
static void
test_ival_sums(void **state)
{
	struct xfer_params p = params(PROTO_UDP, ROLE_RECV);
	struct plaus_run r = run(&p);
	struct plaus_ivals s = { 0 };
	struct ival iv = { .end_ns = 1, .bytes = 1000, .calls = 1, .dgrams = 11 };
	char err[256];

	(void)state;
	assert_int_equal(plaus_ival(&r, &s, 0, &iv, err, sizeof err), -1);
	assert_string_equal(err, "INTERVAL dgrams that add up to more than the "
	                    "sender sends (0 + 11 > 10)");
	p = params(PROTO_TCP, ROLE_SEND);
	p.interval_ms = 10;
	iv.dgrams = 0;
	iv.flags = IVAL_TCP;
	iv.retrans = 640000;
	assert_int_equal(plaus_ival(&r, &s, 0, &iv, err, sizeof err), 0);
	iv.start_ns = iv.end_ns = 1;
	iv.bytes = 0;
	iv.retrans = 128;
	assert_int_equal(plaus_ival(&r, &s, 1, &iv, err, sizeof err), 0);
	assert_int_equal(s.retrans, 640128);
	iv.retrans = 1;
	assert_int_equal(plaus_ival(&r, &s, 2, &iv, err, sizeof err), -1);
	assert_string_equal(err, "INTERVAL retrans that add up to more than the "
	                    "test's bytes can make (640128 + 1 > 640128)");
	/* without IVAL_TCP its retrans means nothing and is not summed */
	iv.flags = 0;
	iv.retrans = UINT32_MAX;
	assert_int_equal(plaus_ival(&r, &s, 2, &iv, err, sizeof err), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_result),
		cmocka_unit_test(test_result_bounds),
		cmocka_unit_test(test_udpstats_rate),
		cmocka_unit_test(test_echo),
		cmocka_unit_test(test_hostudp),
		cmocka_unit_test(test_udpstats),
		cmocka_unit_test(test_tcpinfo),
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_window_recv),
		cmocka_unit_test(test_ival_count),
		cmocka_unit_test(test_ival),
		cmocka_unit_test(test_ival_flood),
		cmocka_unit_test(test_ival_sums),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

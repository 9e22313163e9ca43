/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_ctl.c: the control connection's I/O (ctl.c): ctl_send, ctl_recv,
 * ctl_recv_type, ctl_recv_until, ctl_recv_any_until, ctl_recv_awaiting and
 * ctl_peer_state over a socketpair, their words and errno; the stop
 * request honoured as passed; net_connect's errno. The messages' bytes
 * are unit_wire_ctl.c's. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ctl.h"
#include "net.h"
#include "stop.h"
#include "streamrun.h"

#define P62 (1ULL << 62)

static int misses;
#define MISS(fmt, ...) (print_error(fmt "\n", __VA_ARGS__), misses++)
#define MISSED() do { int m_ = misses; misses = 0; \
	if (m_ != 0) fail_msg("%d mismatch(es) above", m_); } while (0)

/* A PARAMS message whose every field has a distinct, valid value. */
static struct ctl_msg
params_msg(void)
{
	struct ctl_msg m;
	size_t i;

	memset(&m, 0, sizeof m);
	m.type = CTL_PARAMS;
	m.params.proto = PROTO_UDP;
	m.params.role = ROLE_RECV;
	m.params.nodelay = 1;
	m.params.pattern_spans = 1;
	m.params.len = 0x01020304;
	m.params.count = 0x1112131415161718ULL;
	m.params.window = 0x21222324;
	m.params.gap_us = 10000000;             /* 0x00989680 */
	m.params.data_len = 65507;              /* 0x0000ffe3 */
	m.params.seed = 0xa1a2a3a4u;
	m.params.data_bytes = P62;              /* a timed test: XFER_TIME_BYTES */
	m.params.data_gap_ps = 0x000008123456789aULL;  /* 8.87 s, under 10 s */
	m.params.data_burst = XFER_MAX_BURST;   /* 0x000f4240 */
	m.params.duration_ms = 0x01234567;      /* 5 h 18 min, under a day */
	m.params.interval_ms = 0x00345678;
	m.params.omit_ms = 0x00456789;
	strcpy(m.params.cc, "cubic");
	m.params.streams = 0x73;                /* 115 */
	for (i = 0; i < CTL_MAC_LEN; i++)
		m.mac[i] = (uint8_t)(0xc0 + i);
	return m;
}

static void
assert_params_equal(const struct xfer_params *a, const struct xfer_params *b)
{
	assert_int_equal(a->proto, b->proto);
	assert_int_equal(a->role, b->role);
	assert_int_equal(a->nodelay, b->nodelay);
	assert_int_equal(a->verify, b->verify);
	assert_int_equal(a->pattern_spans, b->pattern_spans);
	assert_int_equal(a->verbose, b->verbose);
	assert_int_equal(a->len, b->len);
	assert_int_equal(a->count, b->count);
	assert_int_equal(a->window, b->window);
	assert_int_equal(a->gap_us, b->gap_us);
	assert_int_equal(a->data_len, b->data_len);
	assert_int_equal(a->seed, b->seed);
	assert_int_equal(a->data_bytes, b->data_bytes);
	assert_int_equal(a->data_gap_ps, b->data_gap_ps);
	assert_int_equal(a->data_burst, b->data_burst);
	assert_int_equal(a->duration_ms, b->duration_ms);
	assert_int_equal(a->interval_ms, b->interval_ms);
	assert_int_equal(a->omit_ms, b->omit_ms);
	assert_memory_equal(a->cc, b->cc, sizeof a->cc);
	assert_int_equal(a->streams, b->streams);
}

static void
assert_result_equal(const struct gput_result *a, const struct gput_result *b)
{
	assert_int_equal(a->bytes, b->bytes);
	assert_int_equal(a->calls, b->calls);
	assert_int_equal(a->real_ns, b->real_ns);
	assert_int_equal(a->cpu_ns, b->cpu_ns);
	assert_int_equal(a->dgrams, b->dgrams);
	assert_int_equal(a->dgrams_sent, b->dgrams_sent);
	assert_int_equal(a->verify_bad, b->verify_bad);
	assert_int_equal(a->verify_first, b->verify_first);
	assert_int_equal(a->unsent, b->unsent);
	assert_int_equal(a->unacked, b->unacked);
	assert_int_equal(a->sock_drops, b->sock_drops);
	assert_int_equal(a->flags, b->flags);
	assert_int_equal(a->sndbuf, b->sndbuf);
	assert_int_equal(a->rcvbuf, b->rcvbuf);
}

/* ---- malformed headers and payloads -------------------------------- */

/* Raw PARAMS bytes with one byte changed. */
struct poke { size_t off; uint8_t val; const char *msg; };

/* ---- congestion control names, INTERVAL, TCPINFO ------------------ */

static void
assert_ival_equal(const struct ival *a, const struct ival *b)
{
	assert_int_equal(a->start_ns, b->start_ns);
	assert_int_equal(a->end_ns, b->end_ns);
	assert_int_equal(a->bytes, b->bytes);
	assert_int_equal(a->calls, b->calls);
	assert_int_equal(a->dgrams, b->dgrams);
	assert_int_equal(a->flags, b->flags);
	assert_int_equal(a->retrans, b->retrans);
	assert_int_equal(a->cwnd, b->cwnd);
	assert_int_equal(a->srtt_us, b->srtt_us);
}

static struct ctl_msg
interval_msg(void)
{
	struct ctl_msg m;

	memset(&m, 0, sizeof m);
	m.type = CTL_INTERVAL;
	m.stream = STREAM_MAX;
	m.ival_index = 0x01020304;
	m.ival = (struct ival){ .flags = IVAL_LAST | IVAL_OMITTED | IVAL_TCP,
	    .start_ns = 0x1112131415161718ULL, .end_ns = 0x2122232425262728ULL,
	    .bytes = 0x3132333435363738ULL, .calls = 0x4142434445464748ULL,
	    .dgrams = 0x5152535455565758ULL, .retrans = 0x61626364u,
	    .cwnd = 0x71727374u, .srtt_us = 0x81828384u };
	return m;
}

static void
assert_tcp_equal(const struct tcp_stats *a, const struct tcp_stats *b)
{
	assert_string_equal(a->cc, b->cc);
	assert_int_equal(a->retrans, b->retrans);
	assert_int_equal(a->rtt_us, b->rtt_us);
	assert_int_equal(a->min_rtt_us, b->min_rtt_us);
	assert_int_equal(a->cwnd, b->cwnd);
	assert_int_equal(a->mss, b->mss);
	assert_int_equal(a->delivery_rate, b->delivery_rate);
	assert_int_equal(a->busy_us, b->busy_us);
	assert_int_equal(a->rwnd_limited_us, b->rwnd_limited_us);
	assert_int_equal(a->sndbuf_limited_us, b->sndbuf_limited_us);
	assert_int_equal(a->ecn, b->ecn);
	assert_int_equal(a->delivered_ce, b->delivered_ce);
	assert_int_equal(a->received_ce, b->received_ce);
	assert_int_equal(a->received_ce_bytes, b->received_ce_bytes);
}

/* ---- UDPSTATS --------------------------------------------------------- */

static void
assert_udp_equal(const struct udp_stats *a, const struct udp_stats *b)
{
	assert_int_equal(a->received, b->received);
	assert_int_equal(a->unique, b->unique);
	assert_int_equal(a->duplicates, b->duplicates);
	assert_int_equal(a->reordered, b->reordered);
	assert_int_equal(a->max_displacement, b->max_displacement);
	assert_int_equal(a->late, b->late);
	assert_int_equal(a->too_old, b->too_old);
	assert_int_equal(a->other, b->other);
	assert_int_equal(a->jitter_ns, b->jitter_ns);
	assert_int_equal(a->delay_var_ns, b->delay_var_ns);
	assert_int_equal(a->delay_var_max_ns, b->delay_var_max_ns);
	assert_true(a->owd_min_ns == b->owd_min_ns);
	assert_true(a->owd_mean_ns == b->owd_mean_ns);
	assert_int_equal(a->flags, b->flags);
	assert_memory_equal(a->ecn, b->ecn, sizeof a->ecn);
}

/* A UDPSTATS whose fields all differ and whose counts add up:
 * received - unique = duplicates + too_old, and received = the four ECN
 * counts. */
static struct ctl_msg
udpstats_msg(void)
{
	struct ctl_msg m;

	memset(&m, 0, sizeof m);
	m.type = CTL_UDPSTATS;
	m.udp = (struct udp_stats){ .received = 0x0102030405060708ULL,
	    .unique = 0x0102030305060703ULL, .duplicates = 0x0000000100000002ULL,
	    .reordered = 0x2122232425262728ULL,
	    .max_displacement = 0x3132333435363738ULL, .late = 0x4142434445464748ULL,
	    .too_old = 3, .other = 0x5152535455565758ULL,
	    .jitter_ns = 0x6162636465666768ULL, .delay_var_ns = 0x7172737475767778ULL,
	    .delay_var_max_ns = 0x8182838485868788ULL, .owd_min_ns = -2,
	    .owd_mean_ns = 0x0910111213141516LL,
	    .ecn = { 0x0102030405060700ULL, 5, 2, 1 },
	    .flags = UDPS_SEQ | UDPS_TIMED | UDPS_ECN };
	m.stream = 0x42;
	return m;
}

/* ---- ctl_send / ctl_recv ------------------------------------------- */

static void
pair(int type, int sv[2])
{
	assert_int_equal(socketpair(AF_UNIX, type, 0, sv), 0);
}

static void
test_send_recv(void **state)
{
	struct ctl_msg msgs[12], got;
	char err[256];
	int sv[2], i, k;

	(void)state;
	memset(msgs, 0, sizeof msgs);
	msgs[4].type = CTL_HELLO;
	msgs[4].hello_flags = CTL_HELLO_KEY;
	memset(msgs[4].challenge, 0x5a, CTL_CHALLENGE_LEN);
	msgs[5].type = CTL_START;
	msgs[6].type = CTL_STOP;
	msgs[0] = params_msg();
	memset(&msgs[1], 0, sizeof msgs[1]);
	msgs[1].type = CTL_READY;
	msgs[1].port[0] = 40000;
	msgs[1].nports = 1;
	memset(&msgs[2], 0, sizeof msgs[2]);
	msgs[2].type = CTL_RESULT;
	msgs[2].result.bytes = UINT64_MAX;
	msgs[2].result.flags = RES_QUEUE;
	msgs[2].stream = 3;
	msgs[2].start_ns = 1000;
	msgs[2].end_ns = 2000;
	ctl_error(&msgs[3], "no such thing");
	msgs[7] = interval_msg();
	msgs[8].type = CTL_TCPINFO;
	strcpy(msgs[8].tcp.cc, "bbr");
	msgs[8].tcp.mss = 1448;
	msgs[8].stream = 2;
	/* the longest message there is: READY with 128 ports */
	msgs[9].type = CTL_READY;
	msgs[9].nports = STREAM_MAX;
	for (k = 0; k < STREAM_MAX; k++)
		msgs[9].port[k] = (uint16_t)(50000 + k);
	memset(msgs[9].nonce, 0x3c, CTL_NONCE_LEN);
	msgs[10] = udpstats_msg();
	msgs[11].type = CTL_RESULT;             /* the side's own, after it */
	msgs[11].result.bytes = 9;
	pair(SOCK_STREAM, sv);
	for (i = 0; i < 12; i++)        /* twelve messages back to back */
		assert_int_equal(ctl_send(sv[0], &msgs[i], err, sizeof err), 0);
	for (i = 0; i < 12; i++) {
		if (ctl_recv(sv[1], &got, 1000, stop_process(), err, sizeof err) != 0)
			fail_msg("message %d: %s", i, err);
		assert_int_equal(got.type, msgs[i].type);
		if (i == 1 || i == 9) {
			assert_int_equal(got.nports, msgs[i].nports);
			assert_memory_equal(got.port, msgs[i].port,
			                    msgs[i].nports * sizeof got.port[0]);
			assert_memory_equal(got.nonce, msgs[i].nonce, CTL_NONCE_LEN);
		}
		if (i == 2 || i == 11) {
			assert_result_equal(&got.result, &msgs[i].result);
			assert_int_equal(got.start_ns, msgs[i].start_ns);
			assert_int_equal(got.end_ns, msgs[i].end_ns);
		}
		if (i == 7)
			assert_ival_equal(&got.ival, &msgs[7].ival);
		if (i == 8)
			assert_tcp_equal(&got.tcp, &msgs[8].tcp);
		if (i == 10)
			assert_udp_equal(&got.udp, &msgs[10].udp);
		if (i == 2 || i == 7 || i == 8 || i == 10 || i == 11)
			assert_int_equal(got.stream, msgs[i].stream);
	}
	close(sv[0]);
	close(sv[1]);
	/* the fields made it (one decode each was checked above; recheck) */
	pair(SOCK_STREAM, sv);
	assert_int_equal(ctl_send(sv[0], &msgs[0], err, sizeof err), 0);
	assert_int_equal(ctl_recv(sv[1], &got, 1000, stop_process(), err, sizeof err), 0);
	assert_params_equal(&got.params, &msgs[0].params);
	assert_memory_equal(got.mac, msgs[0].mac, CTL_MAC_LEN);
	assert_int_equal(ctl_send(sv[1], &msgs[3], err, sizeof err), 0);
	assert_int_equal(ctl_recv(sv[0], &got, 1000, stop_process(), err, sizeof err), 0);
	assert_string_equal(got.text, "no such thing");
	close(sv[0]);
	close(sv[1]);
}

/* Every byte in its own datagram, so each recv returns one byte. */
static void
test_recv_split(void **state)
{
	struct ctl_msg m = params_msg(), got;
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD];
	char err[256];
	size_t n = ctl_encode(&m, buf), i;
	int sv[2];

	(void)state;
	pair(SOCK_DGRAM, sv);
	for (i = 0; i < n; i++)
		assert_int_equal(write(sv[0], buf + i, 1), 1);
	if (ctl_recv(sv[1], &got, 2000, stop_process(), err, sizeof err) != 0)
		fail_msg("split message: %s", err);
	assert_int_equal(got.type, CTL_PARAMS);
	assert_params_equal(&got.params, &m.params);
	assert_memory_equal(got.mac, m.mac, CTL_MAC_LEN);
	close(sv[0]);
	close(sv[1]);
}

static void
test_recv_errors(void **state)
{
	static const struct { const char *name; size_t send; int shut; int timeout_ms;
	    const char *msg; int e; } rows[] = {
		{ "closed before anything", 0, 1, 1000,
		  "connection closed while waiting for a control message", NET_ECLOSED },
		{ "closed mid-header", 5, 1, 1000,
		  "connection closed while waiting for a control message", NET_ECLOSED },
		{ "closed after the header", 8, 1, 1000,
		  "connection closed while waiting for the rest of a control message",
		  NET_ECLOSED },
		{ "closed mid-payload", 8 + 20, 1, 1000,
		  "connection closed while waiting for the rest of a control message",
		  NET_ECLOSED },
		{ "closed one byte short", 8 + 183, 1, 1000,
		  "connection closed while waiting for the rest of a control message",
		  NET_ECLOSED },
		{ "silence", 0, 0, 50, "timed out waiting for a control message",
		  ETIMEDOUT },
		{ "silence mid-header", 7, 0, 50, "timed out waiting for a control message",
		  ETIMEDOUT },
		{ "silence mid-payload", 8 + 183, 0, 50,
		  "timed out waiting for the rest of a control message", ETIMEDOUT },
	};
	struct ctl_msg m = params_msg(), got;
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD];
	char err[256];
	size_t i;

	(void)state;
	ctl_encode(&m, buf);
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		mono_ns t0, dt;
		int sv[2], rc, e;

		pair(SOCK_STREAM, sv);
		if (rows[i].send > 0)
			assert_int_equal(write(sv[0], buf, rows[i].send), (ssize_t)rows[i].send);
		if (rows[i].shut)
			close(sv[0]);
		t0 = mono_now();
		errno = 0;
		rc = ctl_recv(sv[1], &got, rows[i].timeout_ms, stop_process(), err, sizeof err);
		e = errno;
		dt = mono_now() - t0;
		if (rc != -1)
			MISS("%s: succeeded", rows[i].name);
		else if (strcmp(err, rows[i].msg) != 0)
			MISS("%s: '%s', want '%s'", rows[i].name, err, rows[i].msg);
		else if (e != rows[i].e)
			MISS("%s: errno %d (%s), want %d", rows[i].name, e, strerror(e),
			     rows[i].e);
		if (!rows[i].shut && dt < 50000000u)
			MISS("%s: gave up after %llu ns, before the 50 ms deadline",
			     rows[i].name, (unsigned long long)dt);
		if (dt > 900000000u)
			MISS("%s: took %llu ns", rows[i].name, (unsigned long long)dt);
		if (!rows[i].shut)
			close(sv[0]);
		close(sv[1]);
	}
	MISSED();
}

/* A malformed message read off the wire is refused with the decoder's words.
 * Each row: its first bytes (the rest zero), its length, and one byte poked
 * at off (0: none). */
static void
test_recv_malformed(void **state)
{
	static const struct { uint8_t b[CTL_HDR_LEN + CTL_MAX_PAYLOAD]; size_t n;
	    size_t off; uint8_t val; const char *msg; } rows[] = {
		{ "GPUT\x04\x04\x01\x41", 8, 0, 0,
		  "control message too long (321 bytes, at most 320)" },
		{ "GPUX\x04\x02\x00\x34\x13\xad\x00\x01", 12, 0, 0,
		  "not a gput control message (bad magic)" },
		{ "GPUT\x01\x02\x00\x04\x13\xad\x00\x00", 12, 0, 0,
		  "control protocol version 1 not supported (this gput speaks 4)" },
		/* a whole version-2 READY (port 5037, zero) and PARAMS */
		{ "GPUT\x02\x02\x00\x34\x13\xad\x00\x00", 8 + 52, 0, 0,
		  "control protocol version 2 not supported (this gput speaks 4)" },
		{ "GPUT\x02\x01\x00\x70\x00\x01", 8 + 112, 0, 0,
		  "control protocol version 2 not supported (this gput speaks 4)" },
		{ "GPUT\x04\x02\x00\x34", 8 + 52, 0, 0,
		  "bad READY message: 0 ports in 52 bytes" },
		{ "GPUT\x04\x02\x00\x34\x13\xad\x00\x02", 8 + 52, 0, 0,
		  "bad READY message: 2 ports in 52 bytes" },
		{ "GPUT\x04\x02\x00\x36\x13\xad\x00\x02", 8 + 54, 0, 0,
		  "bad READY message: port 0" },
		{ "GPUT\x04\x02\x00\x36\x00\x00\x00\x02", 8 + 54, 8 + 52, 0x13,
		  "bad READY message: port 0" },
		{ "GPUT\x04\x02\x01\x34\x13\xad\x00\x81", 8 + 308, 0, 0,
		  "control message type 2 has 308 bytes, expected 52 to 306" },
		{ "GPUT\x04\x02\x00\x03\x13\xad\x00", 11, 0, 0,
		  "control message type 2 has 3 bytes, expected 52 to 306" },
		{ "GPUT\x04\x05\x00\x28\x00\x00\x00\x02", 8 + 40, 0, 0,
		  "bad HELLO message: reserved bits set" },
		{ "GPUT\x04\x07\x00\x01\x00", 9, 0, 0,
		  "control message type 7 has 1 bytes, expected 0" },
		{ "GPUT\x04\x0b\x00\x00", 8, 0, 0, "unknown control message type 11" },
		{ "GPUT\x04\x0a\x00\x00", 8, 0, 0,
		  "control message type 10 has 0 bytes, expected 144" },
		{ "GPUT\x04\x0a\x00\x70", 8 + 112, 0, 0,
		  "control message type 10 has 112 bytes, expected 144" },
		{ "GPUT\x04\x0a\x00\x90", 8 + 144, 0, 0,
		  "bad UDPSTATS message: stream 0" },
		{ "GPUT\x04\x0a\x00\x90", 8 + 144, 8 + 111, 0x81,
		  "bad UDPSTATS message: stream 129" },
		{ "GPUT\x04\x08\x00\x00", 8, 0, 0,
		  "control message type 8 has 0 bytes, expected 64" },
		{ "GPUT\x04\x08\x00\x40\x00\x00\x00\x00\x00\x00\x00\x10", 8 + 64,
		  8 + 63, 1, "bad INTERVAL message: reserved bits set" },
		{ "GPUT\x04\x08\x00\x40\x00\x00\x00\x00\x00\x00\x00\x01"
		  "\x00\x00\x00\x00\x00\x00\x00\x01", 8 + 64, 8 + 63, 1,
		  "bad INTERVAL message: it ends before it starts" },
		{ "GPUT\x04\x08\x00\x40", 8 + 64, 0, 0, "bad INTERVAL message: stream 0" },
		{ "GPUT\x04\x08\x00\x40", 8 + 64, 8 + 63, 0x81,
		  "bad INTERVAL message: stream 129" },
		{ "GPUT\x04\x09\x00\x60" "BBR", 8 + 96, 8 + 75, 1,
		  "bad TCPINFO message: congestion control name" },
		{ "GPUT\x04\x09\x00\x60" "bbr", 8 + 96, 0, 0,
		  "bad TCPINFO message: stream 0 or reserved bits set" },
		{ "GPUT\x04\x09\x00\x60" "bbr", 8 + 96, 8 + 83, 1,
		  "bad TCPINFO message: stream 0 or reserved bits set" },
		{ "GPUT\x04\x09\x00\x48" "bbr", 8 + 72, 0, 0,
		  "control message type 9 has 72 bytes, expected 96" },
		{ "GPUT\x04\x09\x00\x50" "bbr", 8 + 80, 0, 0,
		  "control message type 9 has 80 bytes, expected 96" },
		{ "GPUT\x04\x03\x00\x78", 8 + 120, 8 + 103, 0x81,
		  "bad RESULT message: stream 129, or it ends before it starts" },
		{ "GPUT\x04\x03\x00\x64", 8 + 100, 0, 0,
		  "control message type 3 has 100 bytes, expected 120" },
		{ "GPUT\x04\x01\x00\x70", 8 + 112, 0, 0,
		  "control message type 1 has 112 bytes, expected 216" },
		{ "GPUT\x04\x01\x00\x50", 8 + 80, 0, 0,
		  "control message type 1 has 80 bytes, expected 216" },
		{ "GPUT\x04\x04\x00\x00", 8, 0, 0, "bad ERROR message: text of 0 bytes" },
		{ "GPUT\x04\x04\x00\x02\x1b[", 10, 0, 0, "bad ERROR message: unprintable text" },
	};
	uint8_t b[CTL_HDR_LEN + CTL_MAX_PAYLOAD];
	struct ctl_msg got;
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		int sv[2];

		memcpy(b, rows[i].b, sizeof b);
		if (rows[i].off != 0)
			b[rows[i].off] = rows[i].val;
		pair(SOCK_STREAM, sv);
		assert_int_equal(write(sv[0], b, rows[i].n), (ssize_t)rows[i].n);
		if (ctl_recv(sv[1], &got, 1000, stop_process(), err, sizeof err) != -1)
			MISS("row %zu: accepted", i);
		else if (strcmp(err, rows[i].msg) != 0)
			MISS("row %zu: '%s', want '%s'", i, err, rows[i].msg);
		close(sv[0]);
		close(sv[1]);
	}
	MISSED();
}

static void
test_send_closed(void **state)
{
	struct ctl_msg m;
	char err[256];
	int sv[2];

	(void)state;
	ctl_error(&m, "bye");
	pair(SOCK_STREAM, sv);
	close(sv[1]);
	assert_int_equal(ctl_send(sv[0], &m, err, sizeof err), -1);
	assert_int_equal(errno, EPIPE);
	assert_string_equal(err, "sending control message: Broken pipe");
	close(sv[0]);
}

/* ctl_recv_type: the type it insists on, the peer's ERROR handed back, and
 * the waits named after the awaited message. */
static void
test_recv_type(void **state)
{
	static const struct { const char *name; uint8_t send; size_t cut; int shut;
	    uint8_t want; int rc; uint8_t got; const char *msg; } rows[] = {
		{ "READY for READY", CTL_READY, 0, 0, CTL_READY, 0, CTL_READY, NULL },
		{ "RESULT for RESULT", CTL_RESULT, 0, 0, CTL_RESULT, 0, CTL_RESULT, NULL },
		{ "PARAMS for PARAMS", CTL_PARAMS, 0, 0, CTL_PARAMS, 0, CTL_PARAMS, NULL },
		{ "RESULT for READY", CTL_RESULT, 0, 0, CTL_READY, -1, CTL_RESULT,
		  "unexpected RESULT message (expected READY)" },
		{ "READY for PARAMS", CTL_READY, 0, 0, CTL_PARAMS, -1, CTL_READY,
		  "unexpected READY message (expected PARAMS)" },
		{ "ERROR for PARAMS", CTL_ERROR, 0, 0, CTL_PARAMS, -1, CTL_ERROR,
		  "ERROR instead of PARAMS: no thanks" },
		{ "ERROR for ERROR", CTL_ERROR, 0, 0, CTL_ERROR, 0, CTL_ERROR, NULL },
		{ "HELLO for HELLO", CTL_HELLO, 0, 0, CTL_HELLO, 0, CTL_HELLO, NULL },
		{ "START for START", CTL_START, 0, 0, CTL_START, 0, CTL_START, NULL },
		{ "STOP for STOP", CTL_STOP, 0, 0, CTL_STOP, 0, CTL_STOP, NULL },
		{ "START for READY", CTL_START, 0, 0, CTL_READY, -1, CTL_START,
		  "unexpected START message (expected READY)" },
		{ "STOP for RESULT", CTL_STOP, 0, 0, CTL_RESULT, -1, CTL_STOP,
		  "unexpected STOP message (expected RESULT)" },
		{ "PARAMS for HELLO", CTL_PARAMS, 0, 0, CTL_HELLO, -1, CTL_PARAMS,
		  "unexpected PARAMS message (expected HELLO)" },
		{ "ERROR for START", CTL_ERROR, 0, 0, CTL_START, -1, CTL_ERROR,
		  "ERROR instead of START: no thanks" },
		{ "closed after a HELLO header", CTL_HELLO, 8, 1, CTL_HELLO, -1, 0,
		  "connection closed while waiting for the rest of the HELLO message" },
		{ "closed before START", 0, 0, 1, CTL_START, -1, 0,
		  "connection closed while waiting for a START message" },
		{ "closed before READY", 0, 0, 1, CTL_READY, -1, 0,
		  "connection closed while waiting for a READY message" },
		{ "closed before ERROR", 0, 0, 1, CTL_ERROR, -1, 0,
		  "connection closed while waiting for an ERROR message" },
		{ "closed mid-header", CTL_READY, 3, 1, CTL_READY, -1, 0,
		  "connection closed while waiting for a READY message" },
		{ "closed after a READY header", CTL_READY, 8, 1, CTL_READY, -1, 0,
		  "connection closed while waiting for the rest of the READY message" },
		{ "closed after a RESULT header", CTL_RESULT, 10, 1, CTL_READY, -1, 0,
		  "connection closed while waiting for the rest of the RESULT message" },
		{ "silence", 0, 0, 0, CTL_RESULT, -1, 0,
		  "timed out waiting for a RESULT message" },
		{ "silence mid-payload", CTL_PARAMS, 20, 0, CTL_PARAMS, -1, 0,
		  "timed out waiting for the rest of the PARAMS message" },
	};
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD];
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct ctl_msg m = params_msg(), got;
		size_t n;
		int sv[2], rc;

		if (rows[i].send == CTL_READY) {
			memset(&m, 0, sizeof m);
			m.type = CTL_READY;
			m.port[0] = 5038;
			m.port[1] = 5039;
			m.nports = 2;
		} else if (rows[i].send == CTL_RESULT) {
			memset(&m, 0, sizeof m);
			m.type = CTL_RESULT;
			m.result.bytes = 42;
		} else if (rows[i].send == CTL_ERROR) {
			ctl_error(&m, "no thanks");
		} else if (rows[i].send != CTL_PARAMS) {
			memset(&m, 0, sizeof m);        /* HELLO, START, STOP */
			m.type = rows[i].send;
		}
		n = ctl_encode(&m, buf);
		if (rows[i].cut != 0)
			n = rows[i].cut;
		pair(SOCK_STREAM, sv);
		if (rows[i].send != 0)
			assert_int_equal(write(sv[0], buf, n), (ssize_t)n);
		if (rows[i].shut)
			close(sv[0]);
		memset(&got, 0x55, sizeof got);
		err[0] = '\0';
		rc = ctl_recv_type(sv[1], rows[i].want, &got, rows[i].shut ? 1000 : 50, stop_process(),
		    err, sizeof err);
		if (rc != rows[i].rc)
			MISS("%s: rc %d, want %d (%s)", rows[i].name, rc, rows[i].rc, err);
		else if (rows[i].msg != NULL && strcmp(err, rows[i].msg) != 0)
			MISS("%s: '%s', want '%s'", rows[i].name, err, rows[i].msg);
		if (got.type != rows[i].got)
			MISS("%s: m->type %u, want %u", rows[i].name, got.type, rows[i].got);
		if (rc == 0 && rows[i].want == CTL_READY && (got.nports != 2 ||
		    got.port[0] != 5038 || got.port[1] != 5039))
			MISS("%s: %u ports, %u and %u", rows[i].name, got.nports,
			     got.port[0], got.port[1]);
		if (rc == 0 && rows[i].want == CTL_RESULT && got.result.bytes != 42)
			MISS("%s: bytes %llu", rows[i].name,
			     (unsigned long long)got.result.bytes);
		if (rows[i].send == CTL_ERROR && strcmp(got.text, "no thanks") != 0)
			MISS("%s: text '%s'", rows[i].name, got.text);
		if (!rows[i].shut)
			close(sv[0]);
		close(sv[1]);
	}
	/* a malformed message is no message: type 0 */
	{
		static const uint8_t bad[CTL_HDR_LEN + CTL_READY_LEN] = "GPUT\x04\x02\x00\x34";
		struct ctl_msg got;
		int sv[2];

		pair(SOCK_STREAM, sv);
		assert_int_equal(write(sv[0], bad, sizeof bad), (ssize_t)sizeof bad);
		assert_int_equal(ctl_recv_type(sv[1], CTL_READY, &got, 1000, stop_process(), err,
		                 sizeof err), -1);
		assert_string_equal(err, "bad READY message: 0 ports in 52 bytes");
		assert_int_equal(got.type, 0);
		close(sv[0]);
		close(sv[1]);
	}
	/* nor is a whole version-2 message: its version is named */
	{
		static const uint8_t v2[CTL_HDR_LEN + CTL_HELLO_LEN] = "GPUT\x02\x05\x00\x28";
		struct ctl_msg got;
		int sv[2];

		pair(SOCK_STREAM, sv);
		assert_int_equal(write(sv[0], v2, sizeof v2), (ssize_t)sizeof v2);
		memset(&got, 0x55, sizeof got);
		assert_int_equal(ctl_recv_type(sv[1], CTL_HELLO, &got, 1000, stop_process(), err,
		                 sizeof err), -1);
		assert_string_equal(err, "control protocol version 2 not supported "
		                    "(this gput speaks 4)");
		assert_int_equal(got.type, 0);
		close(sv[0]);
		close(sv[1]);
	}
	MISSED();
}

/* ctl_recv_until: a deadline already past is a timeout at once, even with a
 * whole message waiting (a handshake's shared deadline is absolute); a stop
 * request ends the wait with "interrupted". */
static void
test_recv_until(void **state)
{
	static const struct { const char *name; int send; mono_ns ago_ns; int stop;
	    const char *msg; } rows[] = {
		{ "passed, nothing sent", 0, 1000000, 0,
		  "timed out waiting for a READY message" },
		{ "passed long ago", 0, 0, 0, "timed out waiting for a READY message" },
		{ "passed, READY waiting", 1, 1, 0,
		  "timed out waiting for a READY message" },
		{ "stop requested", 0, 0, 1, "interrupted waiting for a READY message" },
	};
	struct ctl_msg m, got;
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD];
	char err[256];
	size_t i, n;

	(void)state;
	memset(&m, 0, sizeof m);
	m.type = CTL_READY;
	m.port[0] = 5038;
	m.nports = 1;
	n = ctl_encode(&m, buf);
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		mono_ns now = mono_now(), deadline;
		int sv[2];

		/* "long ago": the clock's origin; a stop: an hour from now */
		deadline = rows[i].stop ? now + 3600000000000ULL :
		    rows[i].ago_ns == 0 ? 0 : now - rows[i].ago_ns;
		pair(SOCK_STREAM, sv);
		if (rows[i].send)
			assert_int_equal(write(sv[0], buf, n), (ssize_t)n);
		if (rows[i].stop)
			stop_request(stop_process());
		memset(&got, 0x55, sizeof got);
		if (ctl_recv_until(sv[1], CTL_READY, &got, deadline, stop_process(), err, sizeof err) != -1)
			MISS("%s: succeeded", rows[i].name);
		else if (strcmp(err, rows[i].msg) != 0)
			MISS("%s: '%s', want '%s'", rows[i].name, err, rows[i].msg);
		if (got.type != 0)
			MISS("%s: m->type %u, want 0", rows[i].name, got.type);
		stop_clear(stop_process());
		close(sv[0]);
		close(sv[1]);
	}
	/* the same queued READY with a deadline ahead is received */
	{
		int sv[2];

		pair(SOCK_STREAM, sv);
		assert_int_equal(write(sv[0], buf, n), (ssize_t)n);
		assert_int_equal(ctl_recv_until(sv[1], CTL_READY, &got,
		                 mono_now() + 1000000000u, stop_process(), err, sizeof err), 0);
		assert_int_equal(got.nports, 1);
		assert_int_equal(got.port[0], 5038);
		close(sv[0]);
		close(sv[1]);
	}
	MISSED();
}

/* ctl_recv_any_until: whatever type comes, whole, before the deadline; the
 * waits named "a control message"; a malformed message refused with the
 * decoder's words. */
static void
test_recv_any_until(void **state)
{
	static const struct { const char *name; uint8_t send; size_t cut; int shut;
	    int wait_ms; int stop; const char *msg; int e; } rows[] = {
		{ "HELLO", CTL_HELLO, 0, 0, 1000, 0, NULL, 0 },
		{ "PARAMS", CTL_PARAMS, 0, 0, 1000, 0, NULL, 0 },
		{ "READY", CTL_READY, 0, 0, 1000, 0, NULL, 0 },
		{ "START", CTL_START, 0, 0, 1000, 0, NULL, 0 },
		{ "STOP", CTL_STOP, 0, 0, 1000, 0, NULL, 0 },
		{ "INTERVAL", CTL_INTERVAL, 0, 0, 1000, 0, NULL, 0 },
		{ "TCPINFO", CTL_TCPINFO, 0, 0, 1000, 0, NULL, 0 },
		{ "RESULT", CTL_RESULT, 0, 0, 1000, 0, NULL, 0 },
		{ "UDPSTATS", CTL_UDPSTATS, 0, 0, 1000, 0, NULL, 0 },
		{ "ERROR", CTL_ERROR, 0, 0, 1000, 0, NULL, 0 },
		{ "INTERVAL, then closed", CTL_INTERVAL, 0, 1, 1000, 0, NULL, 0 },
		{ "silence", 0, 0, 0, 50, 0, "timed out waiting for a control message", ETIMEDOUT },
		{ "silence mid-header", CTL_INTERVAL, 5, 0, 50, 0,
		  "timed out waiting for a control message", ETIMEDOUT },
		{ "silence mid-INTERVAL", CTL_INTERVAL, 8 + 63, 0, 50, 0,
		  "timed out waiting for the rest of a control message", ETIMEDOUT },
		{ "deadline passed, INTERVAL waiting", CTL_INTERVAL, 0, 0, -1, 0,
		  "timed out waiting for a control message", ETIMEDOUT },
		{ "closed before anything", 0, 0, 1, 1000, 0,
		  "connection closed while waiting for a control message", NET_ECLOSED },
		{ "closed mid-header", CTL_TCPINFO, 7, 1, 1000, 0,
		  "connection closed while waiting for a control message", NET_ECLOSED },
		{ "closed mid-TCPINFO", CTL_TCPINFO, 8 + 79, 1, 1000, 0,
		  "connection closed while waiting for the rest of a control message", NET_ECLOSED },
		{ "stop requested", 0, 0, 0, 3600000, 1,
		  "interrupted waiting for a control message", EINTR },
	};
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD];
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct ctl_msg m = params_msg(), got;
		mono_ns t0, dt, deadline;
		size_t n;
		int sv[2], rc, e;

		if (rows[i].send == CTL_INTERVAL) {
			m = interval_msg();
		} else if (rows[i].send == CTL_TCPINFO) {
			memset(&m, 0, sizeof m);
			m.type = CTL_TCPINFO;
			m.stream = 1;
			strcpy(m.tcp.cc, "reno");
			m.tcp.delivery_rate = 125000000;
		} else if (rows[i].send == CTL_ERROR) {
			ctl_error(&m, "no thanks");
		} else if (rows[i].send == CTL_READY) {
			memset(&m, 0, sizeof m);
			m.type = CTL_READY;
			m.nports = 4;
			m.port[0] = 5038;
			m.port[3] = 5041;
			m.port[1] = m.port[2] = 1;
		} else if (rows[i].send == CTL_UDPSTATS) {
			m = udpstats_msg();
		} else if (rows[i].send != CTL_PARAMS) {
			memset(&m, 0, sizeof m);        /* HELLO, START, STOP, RESULT */
			m.type = rows[i].send;
			m.result.bytes = 42;
		}
		n = ctl_encode(&m, buf);
		if (rows[i].cut != 0)
			n = rows[i].cut;
		pair(SOCK_STREAM, sv);
		if (rows[i].send != 0)
			assert_int_equal(write(sv[0], buf, n), (ssize_t)n);
		if (rows[i].shut)
			close(sv[0]);
		if (rows[i].stop)
			stop_request(stop_process());
		t0 = mono_now();
		deadline = rows[i].wait_ms < 0 ? t0 - 1 :
		    t0 + (mono_ns)rows[i].wait_ms * 1000000u;
		memset(&got, 0x55, sizeof got);
		err[0] = '\0';
		errno = 0;
		rc = ctl_recv_any_until(sv[1], &got, deadline, stop_process(), err, sizeof err);
		e = errno;
		dt = mono_now() - t0;
		stop_clear(stop_process());
		if (rc != (rows[i].msg == NULL ? 0 : -1))
			MISS("%s: rc %d (%s)", rows[i].name, rc, err);
		else if (rows[i].msg != NULL && strcmp(err, rows[i].msg) != 0)
			MISS("%s: '%s', want '%s'", rows[i].name, err, rows[i].msg);
		else if (rc == -1 && e != rows[i].e)
			MISS("%s: errno %d (%s), want %d", rows[i].name, e, strerror(e),
			     rows[i].e);
		else if (rc == 0 && got.type != rows[i].send)
			MISS("%s: type %u", rows[i].name, got.type);
		else if (rc == 0 && rows[i].send == CTL_INTERVAL &&
		    (got.ival_index != m.ival_index || got.stream != m.stream ||
		     memcmp(&got.ival, &m.ival, sizeof got.ival) != 0))
			MISS("%s: interval fields differ", rows[i].name);
		else if (rc == 0 && rows[i].send == CTL_TCPINFO &&
		    (strcmp(got.tcp.cc, "reno") != 0 ||
		     got.tcp.delivery_rate != 125000000 || !got.tcp.valid))
			MISS("%s: tcpinfo fields differ", rows[i].name);
		else if (rc == 0 && rows[i].send == CTL_ERROR &&
		    strcmp(got.text, "no thanks") != 0)
			MISS("%s: text '%s'", rows[i].name, got.text);
		else if (rc == 0 && rows[i].send == CTL_RESULT && got.result.bytes != 42)
			MISS("%s: result bytes", rows[i].name);
		else if (rc == 0 && rows[i].send == CTL_READY && (got.nports != 4 ||
		    got.port[0] != 5038 || got.port[3] != 5041))
			MISS("%s: ports", rows[i].name);
		else if (rc == 0 && rows[i].send == CTL_UDPSTATS && (got.stream != 0x42 ||
		    got.udp.received != m.udp.received))
			MISS("%s: udpstats fields differ", rows[i].name);
		if (rows[i].wait_ms == 50 && dt < 50000000u)
			MISS("%s: gave up after %llu ns, before the 50 ms deadline",
			     rows[i].name, (unsigned long long)dt);
		if (dt > 900000000u)
			MISS("%s: took %llu ns", rows[i].name, (unsigned long long)dt);
		if (!rows[i].shut)
			close(sv[0]);
		close(sv[1]);
	}
	/* two messages queued: one each call, in order */
	{
		struct ctl_msg a = interval_msg(), b, got;
		int sv[2];

		memset(&b, 0, sizeof b);
		b.type = CTL_RESULT;
		b.result.bytes = 7;
		pair(SOCK_STREAM, sv);
		assert_int_equal(ctl_send(sv[0], &a, err, sizeof err), 0);
		assert_int_equal(ctl_send(sv[0], &b, err, sizeof err), 0);
		assert_int_equal(ctl_recv_any_until(sv[1], &got, mono_now() + 1000000000u, stop_process(),
		                 err, sizeof err), 0);
		assert_int_equal(got.type, CTL_INTERVAL);
		assert_int_equal(ctl_recv_any_until(sv[1], &got, mono_now() + 1000000000u, stop_process(),
		                 err, sizeof err), 0);
		assert_int_equal(got.type, CTL_RESULT);
		assert_int_equal(got.result.bytes, 7);
		close(sv[0]);
		close(sv[1]);
	}
	MISSED();
}

/* ctl_peer_state: quiet, out-of-turn bytes (left unread), orderly close, and
 * a reset (an AF_UNIX peer closed with our bytes unread, as a TCP peer would). */
static void
test_peer_state(void **state)
{
	char err[128], c = 0;
	int sv[2];

	(void)state;
	pair(SOCK_STREAM, sv);
	strcpy(err, "untouched");
	assert_int_equal(ctl_peer_state(sv[1], err, sizeof err), CTL_PEER_QUIET);
	assert_string_equal(err, "untouched");
	assert_int_equal(write(sv[0], "x", 1), 1);
	assert_int_equal(ctl_peer_state(sv[1], err, sizeof err), CTL_PEER_SPOKE);
	assert_int_equal(errno, EPROTO);
	assert_string_equal(err, "unexpected data on the control connection");
	assert_int_equal(read(sv[1], &c, 1), 1);        /* nothing was consumed */
	assert_int_equal(c, 'x');
	assert_int_equal(ctl_peer_state(sv[1], err, sizeof err), CTL_PEER_QUIET);
	close(sv[0]);
	assert_int_equal(ctl_peer_state(sv[1], err, sizeof err), CTL_PEER_CLOSED);
	assert_int_equal(errno, NET_ECLOSED);
	assert_string_equal(err, "connection closed");
	close(sv[1]);

	pair(SOCK_STREAM, sv);
	assert_int_equal(write(sv[1], "unread", 6), 6);
	close(sv[0]);
	assert_int_equal(ctl_peer_state(sv[1], err, sizeof err), CTL_PEER_FAILED);
	assert_int_equal(errno, ECONNRESET);
	assert_string_equal(err, "Connection reset by peer");
	close(sv[1]);
}

/* ctl_recv_awaiting: a wait for the RESULT names it when nothing of a
 * message came (a timeout, a close, a reset: errno tells them apart), and
 * keeps ctl_recv's words once a message began or for a stop. */
static void
test_recv_awaiting(void **state)
{
	static const struct { const char *name; size_t send; int how; int stop;
	    const char *msg; int e; } rows[] = {
		{ "silence", 0, 0, 0, "timed out waiting for a RESULT message",
		  ETIMEDOUT },
		{ "silence mid-header", 5, 0, 0,
		  "timed out waiting for a RESULT message", ETIMEDOUT },
		{ "silence mid-payload", 8 + 20, 0, 0,
		  "timed out waiting for the rest of a control message", ETIMEDOUT },
		{ "closed", 0, 1, 0,
		  "connection closed while waiting for a RESULT message", NET_ECLOSED },
		{ "reset", 0, 2, 0,
		  "connection closed while waiting for a RESULT message", ECONNRESET },
		{ "closed mid-payload", 8 + 20, 1, 0,
		  "connection closed while waiting for the rest of a control message",
		  NET_ECLOSED },
		{ "stop requested", 0, 0, 1,
		  "interrupted waiting for a control message", EINTR },
	};
	struct stopreq stop = STOPREQ_INIT;
	struct ctl_msg m = params_msg(), got;
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD];
	char err[256];
	size_t i;

	(void)state;
	assert_int_equal(stop_init(&stop, err, sizeof err), 0);
	ctl_encode(&m, buf);
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		int sv[2], rc, e;

		pair(SOCK_STREAM, sv);
		if (rows[i].how == 2)           /* unread bytes: close resets */
			assert_int_equal(write(sv[1], "x", 1), 1);
		if (rows[i].send > 0)
			assert_int_equal(write(sv[0], buf, rows[i].send),
			                 (ssize_t)rows[i].send);
		if (rows[i].how != 0)
			close(sv[0]);
		if (rows[i].stop)
			stop_request(&stop);
		errno = 0;
		rc = ctl_recv_awaiting(sv[1], &got, mono_now() + 50000000u,
		    "a RESULT message", &stop, err, sizeof err);
		e = errno;
		stop_clear(&stop);
		if (rc != -1 || got.type != 0)
			MISS("%s: rc %d, type %u", rows[i].name, rc, got.type);
		else if (strcmp(err, rows[i].msg) != 0)
			MISS("%s: '%s', want '%s'", rows[i].name, err, rows[i].msg);
		else if (e != rows[i].e)
			MISS("%s: errno %d (%s), want %d", rows[i].name, e, strerror(e),
			     rows[i].e);
		if (rows[i].how == 0)
			close(sv[0]);
		close(sv[1]);
	}
	MISSED();
}

/* The waits honour the stop request their caller passes, and no other:
 * the process's own, requested, does not end a wait given another one or
 * none. */
static void
test_stop_passed_down(void **state)
{
	struct stopreq mine = STOPREQ_INIT;
	struct ctl_msg got;
	char err[256];
	uint8_t b;
	int sv[2];

	(void)state;
	assert_int_equal(stop_init(&mine, err, sizeof err), 0);
	assert_int_equal(stop_init(stop_process(), err, sizeof err), 0);
	pair(SOCK_STREAM, sv);
	stop_request(stop_process());
	assert_int_equal(ctl_recv(sv[1], &got, 50, &mine, err, sizeof err), -1);
	assert_int_equal(errno, ETIMEDOUT);
	assert_string_equal(err, "timed out waiting for a control message");
	assert_int_equal(ctl_recv(sv[1], &got, 50, NULL, err, sizeof err), -1);
	assert_int_equal(errno, ETIMEDOUT);
	assert_int_equal(net_wait_readable(sv[1], -1, 50, NULL), 0);
	assert_int_equal(net_read_full(sv[1], &b, 1, -1, mono_now() + 50000000u,
	                 NULL, err, sizeof err), -1);
	assert_int_equal(errno, ETIMEDOUT);
	assert_string_equal(err, "timed out");
	stop_clear(stop_process());
	stop_request(&mine);
	assert_int_equal(ctl_recv(sv[1], &got, 3600000, &mine, err, sizeof err), -1);
	assert_int_equal(errno, EINTR);
	assert_string_equal(err, "interrupted waiting for a control message");
	assert_int_equal(net_read_full(sv[1], &b, 1, -1, mono_now() + 3600000000000ull,
	                 &mine, err, sizeof err), -1);
	assert_int_equal(errno, EINTR);
	assert_string_equal(err, "interrupted");
	close(sv[0]);
	close(sv[1]);
}

/* net_connect says why it failed in errno: a refused connection is
 * ECONNREFUSED (the client's "is gput -i running there?"). */
static void
test_connect_refused(void **state)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
	    .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t sl = sizeof sa;
	char err[256];
	int fd;

	(void)state;
	/* a port bound but never listened on: nothing accepts there */
	fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sa, &sl), 0);
	errno = 0;
	assert_int_equal(net_connect("127.0.0.1", ntohs(sa.sin_port), AF_INET,
	                 1000, NULL, err, sizeof err), -1);
	assert_int_equal(errno, ECONNREFUSED);
	assert_int_equal(strncmp(err, "cannot connect to 127.0.0.1 port ", 33), 0);
	close(fd);
}

/* Each test starts with no mismatches: one that failed on an assertion
 * after a MISS must not fail the next. */
static int
fresh(void **state)
{
	(void)state;
	misses = 0;
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_send_recv, fresh),
		cmocka_unit_test_setup(test_recv_split, fresh),
		cmocka_unit_test_setup(test_recv_errors, fresh),
		cmocka_unit_test_setup(test_recv_malformed, fresh),
		cmocka_unit_test_setup(test_send_closed, fresh),
		cmocka_unit_test_setup(test_recv_type, fresh),
		cmocka_unit_test_setup(test_recv_until, fresh),
		cmocka_unit_test_setup(test_recv_any_until, fresh),
		cmocka_unit_test_setup(test_peer_state, fresh),
		cmocka_unit_test_setup(test_recv_awaiting, fresh),
		cmocka_unit_test_setup(test_stop_passed_down, fresh),
		cmocka_unit_test_setup(test_connect_refused, fresh),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

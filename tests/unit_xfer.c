/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_xfer.c: the data stream's arithmetic (calls, last length, marker
 * and proof lengths), the pattern, the UDP end markers and proof datagram,
 * each data path run for real (TCP over a socketpair and loopback, UDP over
 * a loopback pair), xfer_udp_drain, and the stop request's self-pipe. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <endian.h>
#include <netinet/in.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "model.h"
#include "pattern.h"
#include "udplog.h"
#include "wire_udp.h"
#include "xfer.h"
#include "xfer_markers.h"
#include "xfer_udp.h"
#include "streamrun.h"
#include "sockhelp.h"
#include "params.h"

/* A stream of the fixture (params.h). */
#define stream_of(len, bytes) test_params(PROTO_TCP, ROLE_SEND, (len), (bytes))

#define P62 (1ULL << 62)

static int misses;
#define MISS(fmt, ...) (print_error(fmt "\n", __VA_ARGS__), misses++)
#define MISSED() do { int m_ = misses; misses = 0; \
	if (m_ != 0) fail_msg("%d mismatch(es) above", m_); } while (0)

/* ---- arithmetic ---------------------------------------------------- */

static void
test_calls_last_len(void **state)
{
	static const struct { uint32_t len; uint64_t bytes, calls; uint32_t last; } rows[] = {
		{ 4096, 2048ULL * 4096, 2048, 4096 },
		{ 4096, 4096, 1, 4096 },
		{ 4096, 4097, 2, 1 },
		{ 4096, 10000, 3, 1808 },
		{ 4096, 1, 1, 1 },
		{ 1, 1, 1, 1 },
		{ 1, 100, 100, 1 },
		{ 1000, 999, 1, 999 },
		{ 1000, 49600, 50, 600 },
		{ 65507, 1000000, 16, 17395 },
		{ 64u << 20, P62, 1ULL << 36, 64u << 20 },
		{ 3, P62, 1537228672809129302ULL, 1 },
		{ 1, P62, P62, 1 },
		{ 32, 32 * 10 + 1, 11, 1 },
		{ 33, 33 * 10 + 32, 11, 32 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct xfer_params p = stream_of(rows[i].len, rows[i].bytes);
		uint64_t calls = xfer_data_calls(&p);
		uint32_t last = xfer_last_len(&p);

		if (calls != rows[i].calls || last != rows[i].last)
			MISS("len %u bytes %llu: calls %llu last %u, want %llu and %u",
			     rows[i].len, (unsigned long long)rows[i].bytes,
			     (unsigned long long)calls, last,
			     (unsigned long long)rows[i].calls, rows[i].last);
	}
	MISSED();
}

static void
test_marker_len(void **state)
{
	static const struct { uint32_t len; uint64_t bytes; uint32_t want; } rows[] = {
		{ 4096, 8192, 32 },
		{ 4096, 8192 + 100, 32 },
		{ 1, 5, 32 },
		{ 32, 320, 33 },                /* data_len 32 */
		{ 32, 32, 33 },
		{ 32, 321, 33 },                /* last 1 */
		{ 33, 330, 32 },                /* data_len 33, last 33 */
		{ 33, 362, 34 },                /* data_len 33, last 32 */
		{ 34, 340, 32 },
		{ 34, 372, 33 },                /* data_len 34, last 32 */
		{ 34, 373, 32 },                /* data_len 34, last 33 */
		{ 100, 32, 33 },                /* the only datagram is 32 bytes */
		{ 100, 132, 33 },               /* last 32 */
		{ 100, 133, 32 },               /* last 33 */
		{ 65507, 65507 * 3 + 32, 33 },
	};
	uint32_t len, rem;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct xfer_params p = stream_of(rows[i].len, rows[i].bytes);
		uint32_t m = xfer_marker_len(&p);

		if (m != rows[i].want)
			MISS("len %u bytes %llu: marker %u, want %u", rows[i].len,
			     (unsigned long long)rows[i].bytes, m, rows[i].want);
	}
	/* every short length and remainder: never a data length, never too long */
	for (len = 1; len <= 40; len++) {
		for (rem = 0; rem < len; rem++) {
			struct xfer_params p = stream_of(len, 7ULL * len + rem);
			uint32_t m = xfer_marker_len(&p);

			if (m < MARKER_BASE_LEN || m > MARKER_MAX_LEN || m == len ||
			    m == xfer_last_len(&p))
				MISS("len %u rem %u: marker length %u", len, rem, m);
		}
	}
	MISSED();
}

static void
test_udp_idle_ms(void **state)
{
	/* twice the time from one burst to the next, in whole ms, on top */
	static const struct { uint64_t gap_ps; uint32_t burst; int want; } rows[] = {
		{ 0, 0, 1000 }, { 1, 0, 1000 }, { 499999999, 0, 1000 },
		{ 500000000, 0, 1000 }, { 999999999, 0, 1000 },   /* whole ms */
		{ 1000000000, 0, 1002 },
		{ 1000000000, 1, 1002 }, { 1000000000, 4, 1008 },
		{ 250000000000ULL, 0, 1500 }, { XFER_MAX_GAP_PS, 0, 21000 },
		{ XFER_MAX_GAP_PS, 2, 41000 }, { 0, XFER_MAX_BURST, 1000 },
		{ 1000, XFER_MAX_BURST, 1002 },
		/* the most PARAMS allows: a burst every 10^7 s; the timeout
		 * stops at INT_MAX ms rather than wrap */
		{ XFER_MAX_GAP_PS, XFER_MAX_BURST, INT_MAX },
		{ XFER_MAX_GAP_PS, 107374, 1000 + 2147480000 },
		{ XFER_MAX_GAP_PS, 107375, INT_MAX },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct xfer_params p = stream_of(1000, 1000);

		p.gap_us = 123456;      /* the receiver's own -g does not count */
		p.data_gap_ps = rows[i].gap_ps;
		p.data_burst = rows[i].burst;
		if (xfer_udp_idle_ms(&p) != rows[i].want)
			MISS("data_gap_ps %llu burst %u: %d, want %d",
			     (unsigned long long)rows[i].gap_ps, rows[i].burst,
			     xfer_udp_idle_ms(&p), rows[i].want);
	}
	MISSED();
}

/* The pacing schedule: write i is due at floor(i / burst) * burst gaps,
 * in ns, from i alone (no drift); a 128-bit product, so a long gap times
 * many writes does not overflow. */
static void
test_due_ns(void **state)
{
	static const struct { uint64_t gap_ps; uint32_t burst; uint64_t i, want; } rows[] = {
		/* no burst: 1 us apart (0 and 1 mean the same) */
		{ 1000000, 0, 0, 0 }, { 1000000, 0, 1, 1000 }, { 1000000, 0, 10, 10000 },
		{ 1000000, 1, 1, 1000 }, { 1000000, 1, 7, 7000 },
		/* burst 4: four back to back, then four gaps' wait */
		{ 1000000, 4, 0, 0 }, { 1000000, 4, 3, 0 }, { 1000000, 4, 4, 4000 },
		{ 1000000, 4, 7, 4000 }, { 1000000, 4, 8, 8000 }, { 1000000, 4, 9, 8000 },
		/* picoseconds add up before the ns are cut: 1 ps apart */
		{ 1, 0, 999, 0 }, { 1, 0, 1000, 1 }, { 1, 0, 1999, 1 },
		/* --rate 1G with -l 1472: 11776 ps */
		{ 11776000, 0, 1000, 11776000 }, { 11776000, 0, 3, 35328 },
		/* gap 0: unpaced, everything due at once */
		{ 0, 0, 0, 0 }, { 0, 0, 1000000000, 0 }, { 0, 4, UINT64_MAX, 0 },
		/* huge i: i * gap_ps passes 2^64, the result does not */
		{ XFER_MAX_GAP_PS, 0, 1000000000, 10000000000000000000ULL },
		{ XFER_MAX_GAP_PS, 1000, 1000000999, 10000000000000000000ULL },
		{ 1, 0, UINT64_MAX, 18446744073709551ULL },
		{ 1, 4, UINT64_MAX, 18446744073709551ULL },
		{ 1000, 0, UINT64_MAX, UINT64_MAX },
		{ 1000, XFER_MAX_BURST, UINT64_MAX, 18446744073709000000ULL },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct xfer_params p = stream_of(1000, 1000000);
		uint64_t got;

		p.data_gap_ps = rows[i].gap_ps;
		p.data_burst = rows[i].burst;
		got = xfer_due_ns(&p, rows[i].i);
		if (got != rows[i].want)
			MISS("gap %llu ps burst %u, write %llu: %llu ns, want %llu",
			     (unsigned long long)rows[i].gap_ps, rows[i].burst,
			     (unsigned long long)rows[i].i, (unsigned long long)got,
			     (unsigned long long)rows[i].want);
	}
	MISSED();
}

/* The schedule's length: the last write's due time (a gap after each burst
 * but the last). */
static void
test_schedule_s(void **state)
{
	static const struct { uint32_t len; uint64_t bytes, gap_ps; uint32_t burst;
	    double want; } rows[] = {
		{ 100, 1000, 1000000000, 0, 0.009 },    /* 10 writes, 9 gaps of 1 ms */
		{ 100, 1000, 1000000000, 4, 0.008 },    /* bursts at 0, 4, 8 ms */
		{ 100, 950, 1000000000, 0, 0.009 },     /* -x: 10 writes still */
		{ 100, 100, 1000000000, 0, 0 },         /* one write: no gap */
		{ 100, 1000, 0, 0, 0 },                 /* unpaced */
		{ 100, 1000, 1000000000, 10, 0 },       /* one burst */
		{ 100, 1100, 1000000000, 10, 0.010 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct xfer_params p = stream_of(rows[i].len, rows[i].bytes);
		double got;

		p.data_gap_ps = rows[i].gap_ps;
		p.data_burst = rows[i].burst;
		got = xfer_schedule_s(&p);
		if (got < rows[i].want - 1e-12 || got > rows[i].want + 1e-12)
			MISS("row %zu: %.12f s, want %.12f", i, got, rows[i].want);
	}
	MISSED();
}

/* ---- the UDP data header ------------------------------------------- */

/* Encode: "GPUD", stream 0, sequence and send time big-endian; decode
 * takes only that, at least 24 bytes, and leaves its outputs alone when it
 * refuses. */
static void
test_udp_hdr(void **state)
{
	static const struct { uint64_t seq, send; } trips[] = {
		{ 0, 0 }, { 1, 1 }, { 1ULL << 32, 1700000000123456789ULL },
		{ UINT64_MAX, UINT64_MAX }, { 0x0102030405060708ULL, 0x1112131415161718ULL },
	};
	static const uint8_t wire[WIRE_GPUD_LEN] = { 'G', 'P', 'U', 'D', 0, 0, 0, 0,
	    0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	    0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18 };
	static const struct { const char *name; size_t off; uint8_t val; size_t n; } bad[] = {
		{ "magic GPUE (a marker)", 3, 'E', 24 },
		{ "magic GPUH (a proof)", 3, 'H', 24 },
		{ "magic gpud", 0, 'g', 24 },
		{ "magic GPUT", 3, 'T', 24 },
		{ "stream byte 4", 4, 1, 24 },
		{ "stream byte 5", 5, 0x80, 24 },
		{ "stream byte 6", 6, 1, 24 },
		{ "stream byte 7", 7, 1, 24 },
		{ "stream 0xff", 7, 0xff, 1472 },
		{ "23 bytes", 0, 'G', 23 },
		{ "8 bytes", 0, 'G', 8 },
		{ "0 bytes", 0, 'G', 0 },
	};
	uint8_t buf[1500];
	uint64_t seq, send;
	size_t i, n;

	(void)state;
	memset(buf, 0xee, sizeof buf);
	wire_gpud_encode(buf, 0x0102030405060708ULL, 0x1112131415161718ULL);
	assert_memory_equal(buf, wire, sizeof wire);
	assert_int_equal(buf[WIRE_GPUD_LEN], 0xee);       /* nothing beyond */
	for (i = 0; i < sizeof trips / sizeof trips[0]; i++) {
		for (n = WIRE_GPUD_LEN; n <= 1472; n += 1472 - WIRE_GPUD_LEN) {
			wire_gpud_encode(buf, trips[i].seq, trips[i].send);
			seq = send = 0xaa;
			if (!wire_gpud_data(buf, n, &seq, &send))
				MISS("trip %zu, %zu bytes: refused", i, n);
			else if (seq != trips[i].seq || send != trips[i].send)
				MISS("trip %zu, %zu bytes: seq %llu send %llu", i, n,
				     (unsigned long long)seq, (unsigned long long)send);
		}
	}
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		wire_gpud_encode(buf, 5, 6);
		buf[bad[i].off] = bad[i].val;
		seq = send = 0xaa;
		if (wire_gpud_data(buf, bad[i].n, &seq, &send))
			MISS("%s: accepted", bad[i].name);
		if (seq != 0xaa || send != 0xaa)
			MISS("%s: refused but stored seq/send", bad[i].name);
	}
	MISSED();
}

/* Which streams carry the header: UDP with data_len and the last datagram
 * (shorter under -x) both at least 24 bytes. */
static void
test_udp_header_streams(void **state)
{
	static const struct { const char *name; uint8_t proto; uint32_t len;
	    uint64_t bytes; int want; } rows[] = {
		{ "24-byte datagrams", PROTO_UDP, 24, 240, 1 },
		{ "23-byte datagrams", PROTO_UDP, 23, 230, 0 },
		{ "16-byte datagrams", PROTO_UDP, 16, 160, 0 },
		{ "1000, whole", PROTO_UDP, 1000, 50000, 1 },
		{ "-x, last 623", PROTO_UDP, 1000, 49623, 1 },
		{ "-x, last 24", PROTO_UDP, 1000, 49024, 1 },
		{ "-x, last 23", PROTO_UDP, 1000, 49023, 0 },
		{ "-x, last 1", PROTO_UDP, 24, 241, 0 },
		{ "one short datagram", PROTO_UDP, 1000, 23, 0 },
		{ "one datagram of 24", PROTO_UDP, 1000, 24, 1 },
		{ "the UDP max", PROTO_UDP, XFER_UDP_MAX, XFER_UDP_MAX * 3ULL, 1 },
		{ "TCP", PROTO_TCP, 1000, 50000, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct xfer_params p = stream_of(rows[i].len, rows[i].bytes);

		p.proto = rows[i].proto;
		if (xfer_udp_has_header(&p) != rows[i].want)
			MISS("%s: %d, want %d", rows[i].name, xfer_udp_has_header(&p),
			     rows[i].want);
	}
	MISSED();
}

/* The receiver's window widened by the first datagram's share. */
static void
test_udp_window(void **state)
{
	static const struct { const char *name; uint64_t span, bytes, first, want; } rows[] = {
		{ "3 equal datagrams", 2000, 300, 100, 3000 },
		{ "2 datagrams", 1000, 200, 100, 2000 },
		{ "unequal last (-x)", 2000, 240, 100, 3428 },    /* 3428.57 */
		{ "1 datagram: no span", 0, 100, 100, 0 },
		{ "bytes == first_len", 5000, 100, 100, 0 },
		{ "bytes < first_len", 5000, 50, 100, 0 },
		{ "no bytes", 5000, 0, 0, 0 },
		{ "span 0", 0, 300, 100, 0 },
		{ "1000 datagrams", 999000000, 1472000, 1472, 1000000000 },
		{ "no overflow", 1000000000000000000ULL, 1ULL << 62, 1,
		  1000000000000000000ULL },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		uint64_t got = xfer_udp_window(rows[i].span, rows[i].bytes, rows[i].first);

		if (got != rows[i].want)
			MISS("%s: %llu, want %llu", rows[i].name, (unsigned long long)got,
			     (unsigned long long)rows[i].want);
	}
	MISSED();
}

/* ---- markers ------------------------------------------------------- */

static void
test_marker_round_trip(void **state)
{
	static const struct { uint32_t len; uint64_t bytes, dgrams, sent; } rows[] = {
		{ 1000, 50000, 50, 50000 },
		{ 32, 320, 10, 320 },
		{ 33, 362, 11, 362 },
		{ 34, 372, 0, 0 },
		{ 65507, P62, UINT64_MAX, UINT64_MAX },
	};
	uint8_t buf[MARKER_MAX_LEN + 8];
	size_t i;
	uint8_t idx;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct xfer_params p = stream_of(rows[i].len, rows[i].bytes);
		uint32_t mlen = xfer_marker_len(&p);

		for (idx = 1; idx <= MARKER_COUNT; idx++) {
			uint8_t want[MARKER_MAX_LEN] = { 'G', 'P', 'U', 'E', 1, idx };
			uint64_t be, dg = 0xabcd;
			uint8_t got_idx = 0xee;
			size_t n;

			be = htobe64(rows[i].dgrams);
			memcpy(want + 8, &be, 8);
			be = htobe64(rows[i].sent);
			memcpy(want + 16, &be, 8);
			memset(buf, 0xcc, sizeof buf);
			n = xfer_marker_encode(&p, buf, idx, rows[i].dgrams, rows[i].sent);
			assert_int_equal(n, mlen);
			assert_memory_equal(buf, want, n);      /* zero padded */
			assert_int_equal(buf[n], 0xcc);         /* and no further */
			assert_int_equal(xfer_marker_decode(&p, buf, n, &got_idx, &dg), 1);
			assert_int_equal(got_idx, idx);
			assert_int_equal(dg, rows[i].dgrams);
		}
	}
}

static void
test_marker_rejected(void **state)
{
	static const struct { const char *name; int dlen; size_t off; uint8_t val; } rows[] = {
		{ "one byte short", -1, 0, 0 },
		{ "one byte long", +1, 0, 0 },
		{ "empty", -32, 0, 0 },
		{ "magic G", 0, 0, 'g' },
		{ "magic E", 0, 3, 'T' },
		{ "version 0", 0, 4, 0 },
		{ "version 2", 0, 4, 2 },
		{ "index 0", 0, 5, 0 },
		{ "index 4", 0, 5, 4 },
		{ "index 255", 0, 5, 255 },
	};
	uint8_t buf[MARKER_MAX_LEN + 8];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct xfer_params p = stream_of(1000, 50000);
		size_t n;
		uint64_t dg = 0x1234;
		uint8_t idx = 0x56;

		memset(buf, 0, sizeof buf);
		n = xfer_marker_encode(&p, buf, 2, 50, 50000);
		buf[rows[i].off] = rows[i].dlen == 0 ? rows[i].val : buf[rows[i].off];
		if (xfer_marker_decode(&p, buf, n + rows[i].dlen, &idx, &dg) != 0)
			MISS("%s: accepted", rows[i].name);
		if (dg != 0x1234 || idx != 0x56)
			MISS("%s: rejected but wrote its outputs", rows[i].name);
	}
	/* a marker of another stream's length is not this stream's marker */
	{
		struct xfer_params a = stream_of(1000, 50000), b = stream_of(32, 320);
		uint64_t dg;
		uint8_t idx;
		size_t n = xfer_marker_encode(&a, buf, 1, 50, 50000);

		assert_int_equal(n, 32);
		assert_int_equal(xfer_marker_decode(&b, buf, n, &idx, &dg), 0);
	}
	MISSED();
}

/* ---- the UDP proof datagram --------------------------------------- */

static void
test_proof_len(void **state)
{
	static const struct { uint32_t len; uint64_t bytes; uint32_t want; } rows[] = {
		{ 4096, 8192, 40 },
		{ 1000, 49600, 40 },            /* last 600 */
		{ 1, 5, 40 },
		{ 39, 390, 40 },
		{ 40, 400, 41 },                /* data_len 40 */
		{ 40, 401, 41 },                /* data_len 40, last 1 */
		{ 40, 40, 41 },                 /* one datagram of 40 */
		{ 41, 410, 40 },                /* data_len 41, last 41 */
		{ 41, 410 + 40, 42 },           /* data_len 41, last 40 */
		{ 42, 420, 40 },
		{ 42, 420 + 40, 41 },           /* data_len 42, last 40 */
		{ 42, 420 + 41, 40 },           /* data_len 42, last 41 */
		{ 43, 430 + 40, 41 },           /* last 40 */
		{ 43, 430 + 41, 40 },           /* last 41 */
		{ 100, 40, 41 },                /* the only datagram is 40 bytes */
		{ 100, 141, 40 },               /* last 41 */
		{ 65507, 65507 * 3 + 40, 41 },
	};
	uint32_t len, rem;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct xfer_params p = stream_of(rows[i].len, rows[i].bytes);
		uint32_t n = xfer_proof_len(&p);

		if (n != rows[i].want)
			MISS("len %u bytes %llu: proof %u, want %u", rows[i].len,
			     (unsigned long long)rows[i].bytes, n, rows[i].want);
	}
	/* every data_len 1..100 and every remainder: never a data length, never a
	 * marker's length, never out of its range */
	for (len = 1; len <= 100; len++) {
		for (rem = 0; rem < len; rem++) {
			struct xfer_params p = stream_of(len, 7ULL * len + rem);
			uint32_t n = xfer_proof_len(&p);

			if (n < PROOF_BASE_LEN || n > PROOF_MAX_LEN || n == len ||
			    n == xfer_last_len(&p) || n == xfer_marker_len(&p))
				MISS("len %u rem %u: proof length %u (last %u, marker %u)",
				     len, rem, n, xfer_last_len(&p), xfer_marker_len(&p));
		}
	}
	MISSED();
}

/* The proof's bytes: "GPUH", version 3, a zero, the stream u16 big-endian
 * at 6..7, the nonce, zero padding. */
static void
test_proof_round_trip(void **state)
{
	static const struct { uint32_t len; uint64_t bytes; uint8_t fill;
	    uint16_t stream; } rows[] = {
		{ 1000, 50000, 0x00, 1 },
		{ 40, 400, 0xff, 2 },
		{ 41, 450, 0x5a, 0x0102 },
		{ 42, 461, 0xa5, STREAM_MAX },
		{ 65507, P62, 0x01, 0xffff },
	};
	uint8_t buf[PROOF_MAX_LEN + 8], nonce[PROOF_NONCE_LEN];
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct xfer_params p = stream_of(rows[i].len, rows[i].bytes);
		uint8_t want[PROOF_MAX_LEN] = { 'G', 'P', 'U', 'H', 3, 0,
		    (uint8_t)(rows[i].stream >> 8), (uint8_t)rows[i].stream };
		size_t n;

		for (k = 0; k < PROOF_NONCE_LEN; k++)
			nonce[k] = want[8 + k] = (uint8_t)(rows[i].fill ^ (k * 17));
		memset(buf, 0xcc, sizeof buf);
		n = xfer_proof_encode(&p, nonce, rows[i].stream, buf);
		assert_int_equal(n, xfer_proof_len(&p));
		assert_memory_equal(buf, want, n);      /* zero padded */
		assert_int_equal(buf[n], 0xcc);         /* and no further */
		assert_int_equal(xfer_proof_check(&p, nonce, rows[i].stream, buf, n), 1);
	}
}

/* Any single changed byte, a wrong length, another nonce or another
 * stream's length: not the proof. */
static void
test_proof_rejected(void **state)
{
	static const uint32_t lens[] = { 1000, 40, 41, 42 };
	uint8_t buf[PROOF_MAX_LEN + 8], nonce[PROOF_NONCE_LEN], other[PROOF_NONCE_LEN];
	size_t i, k, n;

	(void)state;
	for (k = 0; k < PROOF_NONCE_LEN; k++) {
		nonce[k] = (uint8_t)(0x30 + k);
		other[k] = nonce[k];
	}
	other[PROOF_NONCE_LEN - 1] ^= 0x80;
	for (i = 0; i < sizeof lens / sizeof lens[0]; i++) {
		struct xfer_params p = stream_of(lens[i], 10ULL * lens[i]);

		memset(buf, 0, sizeof buf);
		n = xfer_proof_encode(&p, nonce, 1, buf);
		for (k = 0; k < n; k++) {
			static const uint8_t flips[] = { 0x01, 0x80, 0xff };
			size_t f;

			for (f = 0; f < sizeof flips; f++) {
				buf[k] ^= flips[f];
				if (xfer_proof_check(&p, nonce, 1, buf, n) != 0)
					MISS("len %u: byte %zu ^ 0x%02x accepted", lens[i], k,
					     flips[f]);
				buf[k] ^= flips[f];
			}
		}
		assert_int_equal(xfer_proof_check(&p, nonce, 1, buf, n), 1);
		if (xfer_proof_check(&p, nonce, 1, buf, n - 1) != 0 ||
		    xfer_proof_check(&p, nonce, 1, buf, n + 1) != 0 ||
		    xfer_proof_check(&p, nonce, 1, buf, 0) != 0)
			MISS("len %u: a wrong length accepted", lens[i]);
		if (xfer_proof_check(&p, other, 1, buf, n) != 0)
			MISS("len %u: another nonce accepted", lens[i]);
	}
	/* a proof of another stream's length is not this stream's proof */
	{
		struct xfer_params a = stream_of(1000, 50000), b = stream_of(40, 400);

		n = xfer_proof_encode(&a, nonce, 1, buf);
		assert_int_equal(n, 40);
		assert_int_equal(xfer_proof_check(&b, nonce, 1, buf, n), 0);
	}
	/* another stream's proof of the same test is not this stream's: stream 2
	 * is refused as stream 1's and the other way round, and each is its own */
	{
		struct xfer_params a = stream_of(1000, 50000);
		static const uint16_t pairs[][2] = { { 2, 1 }, { 1, 2 }, { 1, 0x0101 },
		    { 0x0100, 1 }, { STREAM_MAX, 1 }, { 1, 0 } };

		for (i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
			memset(buf, 0, sizeof buf);
			n = xfer_proof_encode(&a, nonce, pairs[i][0], buf);
			if (xfer_proof_check(&a, nonce, pairs[i][1], buf, n) != 0)
				MISS("stream %u's proof taken as stream %u's", pairs[i][0],
				     pairs[i][1]);
			if (xfer_proof_check(&a, nonce, pairs[i][0], buf, n) != 1)
				MISS("stream %u's proof refused as its own", pairs[i][0]);
		}
	}
	MISSED();
}

/* A marker is not a proof and a proof is not a marker, for every stream
 * shape whose lengths come close. */
static void
test_proof_not_marker(void **state)
{
	uint8_t buf[PROOF_MAX_LEN + MARKER_MAX_LEN], nonce[PROOF_NONCE_LEN] = { 0 };
	uint32_t len, rem;

	(void)state;
	for (len = 1; len <= 100; len++) {
		for (rem = 0; rem < len; rem++) {
			struct xfer_params p = stream_of(len, 5ULL * len + rem);
			uint64_t dg = 0;
			uint8_t idx = 0, i;
			size_t n;

			memset(buf, 0, sizeof buf);
			n = xfer_proof_encode(&p, nonce, 1, buf);
			if (xfer_marker_decode(&p, buf, n, &idx, &dg) != 0)
				MISS("len %u rem %u: a proof taken for a marker", len, rem);
			for (i = 1; i <= MARKER_COUNT; i++) {
				memset(buf, 0, sizeof buf);
				n = xfer_marker_encode(&p, buf, i, 0, 0);
				if (xfer_proof_check(&p, nonce, 1, buf, n) != 0)
					MISS("len %u rem %u: marker %u taken for a proof", len,
					     rem, i);
			}
		}
	}
	MISSED();
}

/* ---- pattern ------------------------------------------------------- */

/* The documented generator: xorshift32 (13, 17, 5), top byte, seed 0 means
 * 0x9e3779b9. Both sides of a test (maybe different builds) must agree. */
static uint8_t
ref_byte(uint32_t seed, size_t i)
{
	uint32_t x = seed ? seed : 0x9e3779b9u;
	size_t k;

	for (k = 0; k <= i; k++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
	}
	return (uint8_t)(x >> 24);
}

static void
test_pattern_layout(void **state)
{
	static const struct { uint32_t len; uint8_t stream; uint32_t seed; size_t maxlen;
	    size_t period; } rows[] = {
		{ 4096, 0, 0, 4096, 4096 },
		{ 1, 0, 1, 10, 1 },
		{ 1000, 0, 0xa1a2a3a4u, 777, 1000 },
		{ 1000, 1, 0, 1000, XFER_STREAM_PERIOD },
		{ 65507, 1, 42, 65507, XFER_STREAM_PERIOD },
	};
	char err[128];
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct xfer_params p = stream_of(rows[i].len, 1000000);
		struct pattern pt;

		p.pattern_spans = rows[i].stream;
		p.seed = rows[i].seed;
		assert_int_equal(pattern_init(&pt, &p, rows[i].maxlen, err, sizeof err), 0);
		assert_int_equal(pt.period, rows[i].period);
		assert_int_equal(pt.size, rows[i].period + rows[i].maxlen);
		for (k = 0; k < 64 && k < pt.period; k++)
			if (pt.buf[k] != ref_byte(rows[i].seed, k))
				MISS("row %zu byte %zu: 0x%02x, want 0x%02x", i, k, pt.buf[k],
				     ref_byte(rows[i].seed, k));
		for (k = pt.period; k < pt.size; k++)
			if (pt.buf[k] != pt.buf[k - pt.period]) {
				MISS("row %zu: byte %zu does not repeat the period", i, k);
				break;
			}
		pattern_free(&pt);
		assert_null(pt.buf);
	}
	MISSED();
}

static void
test_pattern_seeds(void **state)
{
	struct xfer_params p = stream_of(256, 256);
	struct pattern a, b;
	char err[128];

	(void)state;
	/* pinned: the first bytes of the default pattern */
	assert_int_equal(pattern_init(&a, &p, 256, err, sizeof err), 0);
	assert_int_equal(a.buf[0], ref_byte(0, 0));
	/* the same seed twice: the same bytes; another seed: other bytes */
	assert_int_equal(pattern_init(&b, &p, 256, err, sizeof err), 0);
	assert_memory_equal(a.buf, b.buf, 256);
	pattern_free(&b);
	p.seed = pattern_seed("abc");
	assert_int_equal(pattern_init(&b, &p, 256, err, sizeof err), 0);
	assert_memory_not_equal(a.buf, b.buf, 256);
	pattern_free(&b);
	/* the stream pattern's first period starts like the non-stream one */
	p.seed = 0;
	p.pattern_spans = 1;
	assert_int_equal(pattern_init(&b, &p, 256, err, sizeof err), 0);
	assert_memory_equal(a.buf, b.buf, 256);
	pattern_free(&b);
	pattern_free(&a);
}

static void
test_pattern_check(void **state)
{
	static const struct { const char *name; uint8_t stream; uint32_t len;
	    uint64_t off; size_t n; size_t flips[3]; uint64_t bad, first; } rows[] = {
		{ "clean", 0, 100, 0, 100, { 0 }, 0, UINT64_MAX },
		{ "one flip", 0, 100, 0, 100, { 6 }, 1, 5 },
		{ "three flips", 0, 100, 0, 100, { 6, 10, 100 }, 3, 5 },
		{ "offset reported from off", 0, 100, 1000, 100, { 1 }, 1, 1000 },
		{ "wrap inside the data", 0, 100, 97, 50, { 4 }, 1, 100 },
		{ "many periods on", 0, 100, 5 * 100 + 7, 100, { 1 }, 1, 507 },
		{ "stream phase", 1, 100, 65521 + 10, 100, { 2 }, 1, 65521 + 11 },
		{ "stream wrap", 1, 100, 65521 - 30, 100, { 31, 32 }, 2, 65521 },
		{ "stream clean far", 1, 100, 1000ULL * 65521 + 3, 100, { 0 }, 0, UINT64_MAX },
		{ "short data", 0, 100, 0, 1, { 1 }, 1, 0 },
		{ "nothing", 0, 100, 0, 0, { 0 }, 0, UINT64_MAX },
	};
	char err[128];
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct xfer_params p = stream_of(rows[i].len, 100000);
		struct pattern pt;
		uint8_t data[256];
		uint64_t first = UINT64_MAX, bad;

		p.pattern_spans = rows[i].stream;
		assert_int_equal(pattern_init(&pt, &p, 128, err, sizeof err), 0);
		memcpy(data, pt.buf + rows[i].off % pt.period, rows[i].n);
		for (k = 0; k < 3 && rows[i].flips[k] != 0; k++)
			data[rows[i].flips[k] - 1] ^= 0x5a;     /* flips are 1-based */
		bad = pattern_check(&pt, rows[i].off, data, rows[i].n, &first);
		if (bad != rows[i].bad || first != rows[i].first)
			MISS("%s: %llu bad, first %llu; want %llu, %llu", rows[i].name,
			     (unsigned long long)bad, (unsigned long long)first,
			     (unsigned long long)rows[i].bad, (unsigned long long)rows[i].first);
		/* a first offset already known is kept */
		first = 42;
		if (rows[i].bad != 0) {
			pattern_check(&pt, rows[i].off, data, rows[i].n, &first);
			if (first != 42)
				MISS("%s: overwrote a known first offset", rows[i].name);
		}
		pattern_free(&pt);
	}
	MISSED();
}

/* More bytes than the pattern was laid out for: only maxlen are compared. */
static void
test_pattern_check_clamp(void **state)
{
	struct xfer_params p = stream_of(100, 1000);
	struct pattern pt;
	uint8_t data[300];
	uint64_t first = UINT64_MAX;
	char err[128];

	(void)state;
	assert_int_equal(pattern_init(&pt, &p, 150, err, sizeof err), 0);
	memcpy(data, pt.buf, 150);
	memset(data + 150, 0, 150);
	data[149] ^= 1;
	assert_int_equal(pattern_check(&pt, 0, data, sizeof data, &first), 1);
	assert_int_equal(first, 149);
	pattern_free(&pt);
}

/* ---- the data paths ------------------------------------------------ */

struct end {
	int fd;
	struct xfer_params p;
	struct gput_result r;
	int rc;
	char err[256];
};

static void *
tcp_sender(void *arg)
{
	struct end *s = arg;

	memset(&s->r, 0, sizeof s->r);
	s->rc = t_run(xfer_tcp_send, s->fd, &s->p, &s->r, s->err, sizeof s->err);
	return NULL;
}

static void
tcp_pair(int domain, int sv[2])
{
	if (domain == AF_UNIX)
		assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	else
		sock_tcp_pair(sv);
}

static void
test_tcp_transfer(void **state)
{
	static const struct { const char *name; int domain; uint32_t len, rlen;
	    uint64_t bytes; uint8_t stream; uint32_t seed, gap_us; } rows[] = {
		{ "default 8 MiB", AF_UNIX, 4096, 4096, 2048ULL * 4096, 0, 0, 0 },
		{ "-x remainder", AF_UNIX, 1000, 1000, 10500, 0, 0, 0 },
		{ "one byte writes", AF_UNIX, 1, 64, 100, 0, 7, 0 },
		{ "receiver reads less", AF_UNIX, 8192, 777, 100000, 0, 0, 0 },
		{ "-s past a period", AF_UNIX, 1000, 333, 200000, 1, 0x12345678u, 0 },
		{ "-s odd lengths", AF_UNIX, 65507, 4096, 1000000, 1, 0, 0 },
		{ "-g paces 5 writes", AF_UNIX, 100, 100, 500, 0, 0, 2000 },
		{ "loopback TCP", AF_INET, 4096, 4096, 1 << 20, 0, 0, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct end snd, rcv;
		pthread_t th;
		int sv[2];
		uint64_t calls = (rows[i].bytes + rows[i].len - 1) / rows[i].len;

		memset(&snd, 0, sizeof snd);
		tcp_pair(rows[i].domain, sv);
		snd.fd = sv[0];
		snd.p = stream_of(rows[i].len, rows[i].bytes);
		snd.p.pattern_spans = rows[i].stream;
		snd.p.seed = rows[i].seed;
		snd.p.gap_us = rows[i].gap_us;
		snd.p.data_gap_ps = (uint64_t)rows[i].gap_us * 1000000u;
		rcv = snd;
		rcv.fd = sv[1];
		rcv.p.role = ROLE_RECV;
		rcv.p.len = rows[i].rlen;
		rcv.p.verify = 1;
		assert_int_equal(pthread_create(&th, NULL, tcp_sender, &snd), 0);
		rcv.rc = t_run(xfer_tcp_recv, rcv.fd, &rcv.p, &rcv.r, rcv.err, sizeof rcv.err);
		assert_int_equal(pthread_join(th, NULL), 0);
		close(sv[0]);
		close(sv[1]);
		if (snd.rc != 0 || rcv.rc != 0) {
			MISS("%s: send '%s', recv '%s'", rows[i].name, snd.err, rcv.err);
			continue;
		}
		if (snd.r.bytes != rows[i].bytes || snd.r.calls != calls)
			MISS("%s: sender %llu bytes %llu calls, want %llu and %llu",
			     rows[i].name, (unsigned long long)snd.r.bytes,
			     (unsigned long long)snd.r.calls, (unsigned long long)rows[i].bytes,
			     (unsigned long long)calls);
		if (rcv.r.bytes != rows[i].bytes || rcv.r.calls == 0 ||
		    rcv.r.calls < (rows[i].bytes + rows[i].rlen - 1) / rows[i].rlen)
			MISS("%s: receiver %llu bytes in %llu calls", rows[i].name,
			     (unsigned long long)rcv.r.bytes, (unsigned long long)rcv.r.calls);
		if (!(rcv.r.flags & RES_VERIFIED) || rcv.r.verify_bad != 0 ||
		    rcv.r.verify_first != 0)
			MISS("%s: verify flags 0x%x, %llu bad", rows[i].name, rcv.r.flags,
			     (unsigned long long)rcv.r.verify_bad);
		if (snd.r.flags & RES_VERIFIED)
			MISS("%s: the sender claims it verified", rows[i].name);
		if (rows[i].domain == AF_INET && !(snd.r.flags & RES_QUEUE))
			MISS("%s: TCP sender without RES_QUEUE", rows[i].name);
		if (rows[i].gap_us != 0 &&
		    snd.r.real_ns < (calls - 1) * rows[i].gap_us * 1000ULL)
			MISS("%s: %llu writes took %llu ns, under the -g schedule",
			     rows[i].name, (unsigned long long)calls,
			     (unsigned long long)snd.r.real_ns);
	}
	MISSED();
}

/* Damaged bytes are counted and the first one's stream offset is kept. */
static void
test_tcp_verify_damage(void **state)
{
	static const size_t flips[] = { 5000, 5001, 9999, 20000 };
	struct xfer_params p = stream_of(4096, 30000);
	struct gput_result r;
	struct pattern pt;
	uint8_t data[30000];
	char err[256];
	size_t i, off;
	int sv[2];

	(void)state;
	p.role = ROLE_RECV;
	p.len = 1000;
	p.verify = 1;
	assert_int_equal(pattern_init(&pt, &p, 4096, err, sizeof err), 0);
	for (off = 0; off < sizeof data; off += 4096)
		memcpy(data + off, pt.buf, sizeof data - off < 4096 ? sizeof data - off : 4096);
	for (i = 0; i < sizeof flips / sizeof flips[0]; i++)
		data[flips[i]] ^= 0xff;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(write(sv[0], data, sizeof data), (ssize_t)sizeof data);
	close(sv[0]);
	memset(&r, 0, sizeof r);
	assert_int_equal(t_run(xfer_tcp_recv, sv[1], &p, &r, err, sizeof err), 0);
	assert_int_equal(r.bytes, sizeof data);
	assert_int_equal(r.verify_bad, 4);
	assert_int_equal(r.verify_first, 5000);
	assert_true(r.flags & RES_VERIFIED);
	close(sv[1]);
	pattern_free(&pt);
}

static void
test_tcp_errors(void **state)
{
	struct xfer_params p = stream_of(1000, 1000);
	struct gput_result r;
	char err[256], junk[100] = { 0 };
	int sv[2];

	(void)state;
	/* the sender closes early */
	p.role = ROLE_RECV;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(write(sv[0], junk, sizeof junk), (ssize_t)sizeof junk);
	close(sv[0]);
	memset(&r, 0, sizeof r);
	assert_int_equal(t_run(xfer_tcp_recv, sv[1], &p, &r, err, sizeof err), -1);
	assert_string_equal(err, "connection closed after 100 of 1000 bytes");
	assert_int_equal(r.bytes, 100);
	assert_int_equal(r.flags & RES_VERIFIED, 0);
	close(sv[1]);
	/* nothing at all */
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	close(sv[0]);
	memset(&r, 0, sizeof r);
	assert_int_equal(t_run(xfer_tcp_recv, sv[1], &p, &r, err, sizeof err), -1);
	assert_string_equal(err, "connection closed after 0 of 1000 bytes");
	assert_int_equal(r.calls, 0);
	close(sv[1]);
	/* the receiver is gone */
	p.role = ROLE_SEND;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	close(sv[1]);
	memset(&r, 0, sizeof r);
	assert_int_equal(t_run(xfer_tcp_send, sv[0], &p, &r, err, sizeof err), -1);
	assert_string_equal(err, "peer vanished (Broken pipe)");
	assert_int_equal(r.bytes, 0);
	assert_int_equal(r.calls, 0);
	close(sv[0]);
}

/* The words for a failed data call. */
static void
test_io_error(void **state)
{
	static const struct { int e, stop; const char *what, *want; } rows[] = {
		{ EAGAIN, 0, "receiving", "peer stalled: no progress receiving within the idle timeout" },
		{ EWOULDBLOCK, 0, "sending", "peer stalled: no progress sending within the idle timeout" },
		{ EPIPE, 0, "sending", "peer vanished (Broken pipe)" },
		{ ECONNRESET, 0, "receiving", "peer vanished (Connection reset by peer)" },
		{ ECONNREFUSED, 0, "sending", "the receiver's port refused the data (receiver gone)" },
		{ EBADF, 0, "sending", "sending: Bad file descriptor" },
		{ ENOBUFS, 0, "sending", "sending: No buffer space available" },
		{ EPIPE, 1, "sending", "interrupted" },
		{ EBADF, 1, "receiving", "interrupted" },
	};
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		stop_process()->stop = rows[i].stop;
		t_io_error(rows[i].e, rows[i].what, err, sizeof err);
		stop_process()->stop = 0;
		if (strcmp(err, rows[i].want) != 0)
			MISS("errno %d (%s): '%s', want '%s'", rows[i].e, rows[i].what, err,
			     rows[i].want);
	}
	MISSED();
}

/* A receiver that hears nothing within its timeout; a sender told to stop. */
static void
test_tcp_stall_and_stop(void **state)
{
	struct xfer_params p = stream_of(1000, 5000);
	struct timeval tv = { 0, 50000 };
	struct gput_result r;
	char err[256];
	int sv[2];

	(void)state;
	p.role = ROLE_RECV;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(setsockopt(sv[1], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv), 0);
	memset(&r, 0, sizeof r);
	assert_int_equal(t_run(xfer_tcp_recv, sv[1], &p, &r, err, sizeof err), -1);
	assert_string_equal(err, "peer stalled: no progress receiving within the idle timeout");
	assert_int_equal(r.bytes, 0);
	/* stop_process()->stop already set: nothing is sent, and the reason says why */
	p.role = ROLE_SEND;
	stop_process()->stop = 1;
	memset(&r, 0, sizeof r);
	assert_int_equal(t_run(xfer_tcp_send, sv[0], &p, &r, err, sizeof err), -1);
	stop_process()->stop = 0;
	assert_string_equal(err, "interrupted");
	assert_int_equal(r.calls, 0);
	assert_int_equal(r.bytes, 0);
	close(sv[0]);
	close(sv[1]);
}

/* ---- UDP ----------------------------------------------------------- */

/* The sender runs to the end first (the receive buffer holds it all), then
 * the receiver drains the queue. */
static void
test_udp_transfer(void **state)
{
	static const struct { const char *name; uint32_t len; uint64_t bytes;
	    uint8_t stream, verify; } rows[] = {
		{ "50 datagrams", 1000, 50000, 0, 1 },
		{ "-x remainder", 1000, 49600, 0, 1 },
		{ "-s past a period", 1000, 100000, 1, 1 },
		{ "32-byte datagrams", 32, 32 * 50 + 1, 0, 1 },
		{ "no -c", 1472, 1472 * 20, 0, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct end snd, rcv;
		uint64_t n = (rows[i].bytes + rows[i].len - 1) / rows[i].len;
		int sv[2];

		sock_udp_pair(sv, 4 << 20);
		memset(&snd, 0, sizeof snd);
		snd.p = stream_of(rows[i].len, rows[i].bytes);
		snd.p.proto = PROTO_UDP;
		snd.p.pattern_spans = rows[i].stream;
		snd.p.seed = pattern_seed(rows[i].name);
		rcv = snd;
		rcv.p.role = ROLE_RECV;
		rcv.p.verify = rows[i].verify;
		assert_int_equal(xfer_udp_prepare(sv[1], rcv.err, sizeof rcv.err), 0);
		snd.rc = t_run(xfer_udp_send, sv[0], &snd.p, &snd.r, snd.err, sizeof snd.err);
		rcv.rc = t_run(xfer_udp_recv, sv[1], &rcv.p, &rcv.r, rcv.err, sizeof rcv.err);
		close(sv[0]);
		close(sv[1]);
		if (snd.rc != 0 || rcv.rc != 0) {
			MISS("%s: send '%s', recv '%s'", rows[i].name, snd.err, rcv.err);
			continue;
		}
		if (snd.r.dgrams != n || snd.r.calls != n + MARKER_COUNT ||
		    snd.r.bytes != rows[i].bytes)
			MISS("%s: sender %llu dgrams %llu calls %llu bytes", rows[i].name,
			     (unsigned long long)snd.r.dgrams, (unsigned long long)snd.r.calls,
			     (unsigned long long)snd.r.bytes);
		if (rcv.r.dgrams != n || rcv.r.calls != n || rcv.r.bytes != rows[i].bytes)
			MISS("%s: receiver %llu dgrams %llu calls %llu bytes", rows[i].name,
			     (unsigned long long)rcv.r.dgrams, (unsigned long long)rcv.r.calls,
			     (unsigned long long)rcv.r.bytes);
		/* everything arrived: without a header the exact end, before any
		 * marker; with one the receiver reads on for copies and takes the
		 * markers queued behind; the socket dropped nothing */
		if (rcv.r.flags != (RES_DROPS | (rows[i].verify ? RES_VERIFIED : 0u) |
		    (xfer_udp_has_header(&rcv.p) ? RES_MARKER : 0u)) ||
		    rcv.r.sock_drops != 0)
			MISS("%s: receiver flags 0x%x, %llu dropped", rows[i].name,
			     rcv.r.flags, (unsigned long long)rcv.r.sock_drops);
		if (rcv.r.verify_bad != 0 || rcv.r.verify_first != 0)
			MISS("%s: %llu bytes differ", rows[i].name,
			     (unsigned long long)rcv.r.verify_bad);
	}
	MISSED();
}

/* Send datagrams 0..n-1 of p's stream except those in skip, then markers;
 * with the data header (xfer_udp_has_header) as the sender writes it: sequence
 * k, no send time, the pattern after it at its own phase. */
static void
send_stream(int fd, const struct xfer_params *p, uint64_t skip_mask, int markers,
            size_t flip)
{
	uint64_t n = xfer_data_calls(p), k;
	uint8_t mk[MARKER_MAX_LEN], junk[7] = "not-us!";
	struct pattern pt;
	char err[128];

	assert_int_equal(pattern_init(&pt, p, p->data_len, err, sizeof err), 0);
	for (k = 0; k < n; k++) {
		size_t len = k + 1 == n ? xfer_last_len(p) : p->data_len;
		uint8_t buf[2048];

		if (k < 64 && (skip_mask >> k & 1))
			continue;
		memcpy(buf, pt.buf + (p->pattern_spans ? k * p->data_len % pt.period : 0), len);
		if (xfer_udp_has_header(p))
			wire_gpud_encode(buf, k, 0);
		if (flip != 0 && k == flip / p->data_len)
			buf[flip % p->data_len] ^= 0x80;
		assert_int_equal(send(fd, buf, len, 0), (ssize_t)len);
		if (k == 3)             /* a stray datagram is ignored */
			assert_int_equal(send(fd, junk, sizeof junk, 0), (ssize_t)sizeof junk);
	}
	for (k = 1; k <= (uint64_t)markers; k++) {
		size_t m = xfer_marker_encode(p, mk, (uint8_t)k, n, p->data_bytes);
		assert_int_equal(send(fd, mk, m, 0), (ssize_t)m);
	}
	pattern_free(&pt);
}

static void
test_udp_loss(void **state)
{
	static const struct { const char *name; uint64_t skip; int markers;
	    uint32_t flags; uint64_t dgrams, sent; } rows[] = {
		/* lost before the socket: its drop count stays 0 */
		{ "3 lost, markers", (1u << 10) | (1u << 20) | (1u << 30), 3,
		  RES_MARKER | RES_VERIFIED | RES_DROPS, 47, 50 },
		{ "last lost, one marker", 1ULL << 49, 1,
		  RES_MARKER | RES_VERIFIED | RES_DROPS, 49, 50 },
		{ "3 lost, no marker: idle end", (1u << 1) | (1u << 2) | (1u << 3), 0,
		  RES_IDLE | RES_VERIFIED | RES_DROPS, 47, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct xfer_params p = stream_of(1000, 50000);
		struct gput_result r;
		char err[256];
		mono_ns t0, dt;
		int sv[2];

		p.proto = PROTO_UDP;
		p.role = ROLE_RECV;
		p.verify = 1;
		sock_udp_pair(sv, 4 << 20);
		assert_int_equal(xfer_udp_prepare(sv[1], err, sizeof err), 0);
		send_stream(sv[0], &p, rows[i].skip, rows[i].markers, 0);
		memset(&r, 0, sizeof r);
		t0 = mono_now();
		if (t_run(xfer_udp_recv, sv[1], &p, &r, err, sizeof err) != 0)
			MISS("%s: %s", rows[i].name, err);
		dt = mono_now() - t0;
		close(sv[0]);
		close(sv[1]);
		if (r.flags != rows[i].flags || r.dgrams != rows[i].dgrams ||
		    r.dgrams_sent != rows[i].sent || r.bytes != rows[i].dgrams * 1000 ||
		    r.calls != rows[i].dgrams || r.verify_bad != 0 || r.sock_drops != 0)
			MISS("%s: flags 0x%x, %llu dgrams (sender says %llu), %llu bytes, "
			     "%llu calls, %llu bad", rows[i].name, r.flags,
			     (unsigned long long)r.dgrams, (unsigned long long)r.dgrams_sent,
			     (unsigned long long)r.bytes, (unsigned long long)r.calls,
			     (unsigned long long)r.verify_bad);
		if ((rows[i].flags & RES_IDLE) && dt < 900000000u)
			MISS("%s: idle end after only %llu ns", rows[i].name,
			     (unsigned long long)dt);
	}
	MISSED();
}

/* One headed datagram of p's stream, sequence seq, send time
 * 1000 * (seq + 1) ns, the pattern after the header. Returns 0. */
static int
send_one(int fd, const struct xfer_params *p, uint8_t *buf, uint64_t seq)
{
	struct pattern pt;
	char err[128];
	ssize_t n;

	assert_int_equal(pattern_init(&pt, p, p->data_len, err, sizeof err), 0);
	memcpy(buf, pt.buf, p->data_len);
	pattern_free(&pt);
	wire_gpud_encode(buf, seq, 1000 * (seq + 1));
	n = send(fd, buf, p->data_len, 0);
	return n == (ssize_t)p->data_len ? 0 : -1;
}

/* Read the --log records of fd (from its start): n of them at most. */
static size_t
read_log(FILE *f, uint64_t seq[], uint64_t snd[], uint64_t at[], uint32_t len[],
         uint32_t flags[], size_t n)
{
	uint8_t b[UDP_LOG_REC];
	size_t k = 0;
	int j;

	rewind(f);
	while (k < n && fread(b, 1, sizeof b, f) == sizeof b) {
		seq[k] = snd[k] = at[k] = 0;
		len[k] = flags[k] = 0;
		for (j = 7; j >= 0; j--) {
			seq[k] = seq[k] << 8 | b[j];
			snd[k] = snd[k] << 8 | b[8 + j];
			at[k] = at[k] << 8 | b[16 + j];
		}
		for (j = 3; j >= 0; j--) {
			len[k] = len[k] << 8 | b[24 + j];
			flags[k] = flags[k] << 8 | b[28 + j];
		}
		k++;
	}
	return k;
}

/* Headed datagrams 0, 1, 1, 3, 2, 5, end marker 1, 4 (late), markers 2
 * and 3: each sequence number counted once, the copy, the two reordered
 * ones and the late one in udp_stats and the log. The sixth distinct
 * datagram completes the stream: the receiver ends there. */
static void
test_udp_recv_headed(void **state)
{
	static const uint64_t order[] = { 0, 1, 1, 3, 2, 5, UINT64_MAX, 4 };
	static const uint32_t want_flags[] = { 0, 0, UDPLOG_DUP, 0, UDPLOG_REORDER, 0,
	    UDPLOG_REORDER | UDPLOG_LATE };
	struct xfer_params p = stream_of(100, 600);
	struct udp_stats st;
	struct gput_result r;
	uint64_t seq[16], snd[16], at[16];
	uint32_t len[16], flags[16];
	uint8_t buf[100], mk[MARKER_MAX_LEN];
	FILE *log = tmpfile();
	char err[256];
	size_t k, n;
	int sv[2];

	(void)state;
	assert_non_null(log);
	p.proto = PROTO_UDP;
	p.role = ROLE_RECV;
	p.verify = 1;
	assert_true(xfer_udp_has_header(&p));
	sock_udp_pair(sv, 4 << 20);
	assert_int_equal(xfer_udp_prepare(sv[1], err, sizeof err), 0);
	for (k = 0; k < sizeof order / sizeof order[0]; k++) {
		size_t m;

		if (order[k] == UINT64_MAX) {
			m = xfer_marker_encode(&p, mk, 1, 6, 600);
			assert_int_equal(send(sv[0], mk, m, 0), (ssize_t)m);
			continue;
		}
		memset(buf, 0, sizeof buf);
		assert_int_equal(send_one(sv[0], &p, buf, order[k]), 0);
	}
	for (k = 2; k <= MARKER_COUNT; k++) {
		size_t m = xfer_marker_encode(&p, mk, (uint8_t)k, 6, 600);
		assert_int_equal(send(sv[0], mk, m, 0), (ssize_t)m);
	}
	memset(&st, 0xaa, sizeof st);
	memset(&r, 0, sizeof r);
	t_set_out(&st, fileno(log));
	if (t_run(xfer_udp_recv, sv[1], &p, &r, err, sizeof err) != 0)
		fail_msg("receive: %s", err);
	t_set_out(NULL, -1);
	close(sv[0]);
	close(sv[1]);

	assert_int_equal(r.dgrams, 6);                  /* unique */
	assert_int_equal(r.bytes, 6 * 100);
	assert_int_equal(r.calls, 7);                   /* every copy read */
	assert_int_equal(r.dgrams_sent, 6);
	assert_int_equal(r.flags, RES_MARKER | RES_VERIFIED | RES_DROPS);
	assert_int_equal(r.verify_bad, 0);
	assert_true(r.real_ns > 0);
	assert_int_equal(st.received, 7);
	assert_int_equal(st.unique, 6);
	assert_int_equal(st.duplicates, 1);
	assert_int_equal(st.reordered, 2);              /* 2 after 3, 4 after 5 */
	assert_int_equal(st.max_displacement, 1);
	assert_int_equal(st.late, 1);
	assert_int_equal(st.too_old, 0);
	assert_int_equal(st.other, 0);
	assert_int_equal(st.flags, UDPS_SEQ);           /* unpaced: not timed */
	assert_int_equal(st.jitter_ns, 0);

	/* one record per data datagram read (markers are not data) */
	n = read_log(log, seq, snd, at, len, flags, 16);
	fclose(log);
	assert_int_equal(n, 7);
	for (k = 0; k < n; k++) {
		uint64_t s = order[k < 6 ? k : 7];

		if (seq[k] != s || snd[k] != 1000 * (s + 1) || len[k] != 100 ||
		    flags[k] != want_flags[k] || at[k] == 0 ||
		    (k > 0 && at[k] < at[k - 1]))
			MISS("record %zu: seq %llu send %llu at %llu len %u flags 0x%x, "
			     "want seq %llu flags 0x%x", k, (unsigned long long)seq[k],
			     (unsigned long long)snd[k], (unsigned long long)at[k],
			     len[k], flags[k], (unsigned long long)s, want_flags[k]);
	}
	MISSED();
}

/* 16-byte datagrams carry no header: every datagram of the right length
 * counts (a copy too), the first marker ends the receive, and the log
 * numbers the datagrams by arrival. */
static void
test_udp_recv_headless(void **state)
{
	struct xfer_params p = stream_of(16, 16 * 5);
	struct udp_stats st;
	struct gput_result r;
	uint64_t seq[16], snd[16], at[16];
	uint32_t len[16], flags[16];
	uint8_t buf[16] = "0123456789abcdef", mk[MARKER_MAX_LEN];
	FILE *log = tmpfile();
	char err[256];
	size_t k, n, m;
	int sv[2];

	(void)state;
	assert_non_null(log);
	p.proto = PROTO_UDP;
	p.role = ROLE_RECV;
	assert_false(xfer_udp_has_header(&p));
	sock_udp_pair(sv, 4 << 20);
	assert_int_equal(xfer_udp_prepare(sv[1], err, sizeof err), 0);
	for (k = 0; k < 4; k++)         /* the fourth the same as the third */
		assert_int_equal(send(sv[0], buf, sizeof buf, 0), (ssize_t)sizeof buf);
	m = xfer_marker_encode(&p, mk, 1, 5, 80);
	assert_int_equal(send(sv[0], mk, m, 0), (ssize_t)m);
	memset(&st, 0xaa, sizeof st);
	memset(&r, 0, sizeof r);
	t_set_out(&st, fileno(log));
	if (t_run(xfer_udp_recv, sv[1], &p, &r, err, sizeof err) != 0)
		fail_msg("receive: %s", err);
	t_set_out(NULL, -1);
	close(sv[0]);
	close(sv[1]);
	assert_int_equal(r.dgrams, 4);
	assert_int_equal(r.bytes, 64);
	assert_int_equal(r.calls, 4);
	assert_int_equal(r.dgrams_sent, 5);
	assert_int_equal(r.flags, RES_MARKER | RES_DROPS);
	assert_true(r.real_ns > 0);
	assert_int_equal(st.received, 4);
	assert_int_equal(st.unique, 4);
	assert_int_equal(st.duplicates, 0);
	assert_int_equal(st.reordered, 0);
	assert_int_equal(st.late, 0);
	assert_int_equal(st.flags, 0);
	n = read_log(log, seq, snd, at, len, flags, 16);
	fclose(log);
	assert_int_equal(n, 4);
	for (k = 0; k < n; k++)
		if (seq[k] != k || snd[k] != 0 || len[k] != 16 ||
		    flags[k] != UDPLOG_NOSEQ || at[k] == 0)
			MISS("record %zu: seq %llu send %llu len %u flags 0x%x", k,
			     (unsigned long long)seq[k], (unsigned long long)snd[k],
			     len[k], flags[k]);
	MISSED();
}

/* A receive buffer too small for the burst: what the socket dropped is
 * counted (SO_MEMINFO), and is exactly what did not arrive. The markers are
 * dropped too, so the receiver ends on its idle timeout. */
static void
test_udp_socket_drops(void **state)
{
	struct xfer_params p = stream_of(1000, 50000);
	struct gput_result r;
	char err[256];
	uint8_t buf[1000] = { 0 };
	int sv[2], small = 2048, k;

	(void)state;
	p.proto = PROTO_UDP;
	p.role = ROLE_RECV;
	sock_udp_pair(sv, 4 << 20);
	assert_int_equal(setsockopt(sv[1], SOL_SOCKET, SO_RCVBUF, &small,
	                 sizeof small), 0);
	assert_int_equal(xfer_udp_prepare(sv[1], err, sizeof err), 0);
	for (k = 0; k < 50; k++) {
		wire_gpud_encode(buf, (uint64_t)k, 0);
		assert_int_equal(send(sv[0], buf, sizeof buf, 0), (ssize_t)sizeof buf);
	}
	memset(&r, 0, sizeof r);
	if (t_run(xfer_udp_recv, sv[1], &p, &r, err, sizeof err) != 0)
		fail_msg("receive: %s", err);
	close(sv[0]);
	close(sv[1]);
	assert_int_equal(r.flags, RES_IDLE | RES_DROPS);
	assert_true(r.dgrams >= 1 && r.dgrams < 50);
	assert_int_equal(r.sock_drops, 50 - r.dgrams);
}

/* A damaged datagram is counted. gput_result.verify_first is "the stream
 * offset of the first bad byte": byte 30 of datagram 10 (past its 24-byte
 * header) is offset 10030, with -s (the pattern runs on) and without (each
 * datagram starts it afresh). */
static void
test_udp_verify_damage(void **state)
{
	static const uint8_t streams[] = { 1, 0 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof streams; i++) {
		struct xfer_params p = stream_of(1000, 50000);
		struct gput_result r;
		char err[256];
		int sv[2];

		p.proto = PROTO_UDP;
		p.role = ROLE_RECV;
		p.verify = 1;
		p.pattern_spans = streams[i];
		sock_udp_pair(sv, 4 << 20);
		assert_int_equal(xfer_udp_prepare(sv[1], err, sizeof err), 0);
		send_stream(sv[0], &p, 0, 3, 10 * 1000 + 30);   /* past the header */
		memset(&r, 0, sizeof r);
		assert_int_equal(t_run(xfer_udp_recv, sv[1], &p, &r, err, sizeof err), 0);
		close(sv[0]);
		close(sv[1]);
		if (r.dgrams != 50 || r.verify_bad != 1 || !(r.flags & RES_VERIFIED) ||
		    r.verify_first != 10030)
			MISS("stream %u: %llu dgrams, %llu bad, flags 0x%x, first bad at "
			     "%llu, want 50, 1, RES_VERIFIED, 10030", p.pattern_spans,
			     (unsigned long long)r.dgrams, (unsigned long long)r.verify_bad,
			     r.flags, (unsigned long long)r.verify_first);
	}
	MISSED();
}

static void
test_udp_refused(void **state)
{
	struct xfer_params p = stream_of(1000, 200000);
	struct gput_result r;
	char err[256];
	int sv[2];

	(void)state;
	p.proto = PROTO_UDP;
	sock_udp_pair(sv, 4 << 20);
	close(sv[1]);                   /* the receiver is gone */
	memset(&r, 0, sizeof r);
	assert_int_equal(t_run(xfer_udp_send, sv[0], &p, &r, err, sizeof err), -1);
	assert_string_equal(err, "the receiver's port refused the data (receiver gone)");
	assert_true(r.dgrams < 200);
	assert_int_equal(r.calls, r.dgrams);    /* no markers after a failure */
	assert_int_equal(r.bytes, r.dgrams * 1000);
	close(sv[0]);
}

/* ---- xfer_udp_drain ------------------------------------------------ */

static int
queue_empty(int fd)
{
	uint8_t b[1];

	return recv(fd, b, sizeof b, MSG_DONTWAIT) == -1 &&
	    (errno == EAGAIN || errno == EWOULDBLOCK);
}

/* Exactly what is queued is discarded and counted (empty datagrams, big
 * ones), nothing waits, and the socket works on afterwards. */
static void
test_udp_drain(void **state)
{
	static const struct { const char *name; int udp; unsigned count;
	    size_t len; } rows[] = {
		{ "unix: nothing queued", 0, 0, 100 },
		{ "unix: one", 0, 1, 100 },
		{ "unix: empty datagrams", 0, 7, 0 },
		{ "unix: 100 small", 0, 100, 10 },
		{ "unix: 3 big", 0, 3, 60000 },
		{ "udp: nothing queued", 1, 0, 100 },
		{ "udp: one", 1, 1, 1000 },
		{ "udp: 50", 1, 50, 1000 },
		{ "udp: empty datagrams", 1, 5, 0 },
		{ "udp: 2 of the largest", 1, 2, XFER_UDP_MAX },
	};
	static uint8_t payload[XFER_UDP_MAX];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		int sv[2], big = 4 << 20;
		unsigned k;
		uint64_t got;
		uint8_t b[4];

		if (rows[i].udp) {
			sock_udp_pair(sv, 4 << 20);
		} else {
			assert_int_equal(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv), 0);
			(void)setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &big, sizeof big);
			(void)setsockopt(sv[1], SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
		}
		for (k = 0; k < rows[i].count; k++)
			assert_int_equal(send(sv[0], payload, rows[i].len, 0),
			                 (ssize_t)rows[i].len);
		got = xfer_udp_drain(sv[1]);
		if (got != rows[i].count)
			MISS("%s: drained %llu, want %u", rows[i].name,
			     (unsigned long long)got, rows[i].count);
		if (!queue_empty(sv[1]))
			MISS("%s: queue not empty after the drain", rows[i].name);
		if (xfer_udp_drain(sv[1]) != 0)
			MISS("%s: a second drain found more", rows[i].name);
		/* still a working socket: the next datagram arrives whole */
		assert_int_equal(send(sv[0], "next", 4, 0), 4);
		if (recv(sv[1], b, sizeof b, MSG_DONTWAIT) != 4 || memcmp(b, "next", 4) != 0)
			MISS("%s: the datagram after the drain was lost", rows[i].name);
		close(sv[0]);
		close(sv[1]);
	}
	MISSED();
}

/* ---- the stop request ---------------------------------------------- */

static int
readable(int fd)
{
	struct pollfd pfd = { fd, POLLIN, 0 };

	return poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLIN);
}

static void *
sleeper(void *arg)
{
	mono_ns *t = arg;

	xfer_sleep_until(stop_process(), *t);
	return NULL;
}

/* xfer_request_stop sets the flag and makes the pipe readable; clear undoes
 * both; a sleep ends at once on a request, made before it or during it.
 * (This test runs after every other one that sleeps: nothing earlier in this
 * file calls xfer_stop_init.) */
static void
test_stop_pipe(void **state)
{
	char err[128];
	mono_ns t0, t, far;
	pthread_t th;
	int fd;

	(void)state;
	assert_int_equal(stop_fd(stop_process()), -1);                /* before init */
	assert_int_equal(stop_init(stop_process(), err, sizeof err), 0);
	fd = stop_fd(stop_process());
	assert_true(fd >= 0);
	assert_int_equal(stop_init(stop_process(), err, sizeof err), 0); /* once is enough */
	assert_int_equal(stop_fd(stop_process()), fd);
	assert_int_equal(stop_process()->stop, 0);
	assert_false(readable(fd));

	stop_request(stop_process());
	assert_int_equal(stop_process()->stop, 1);
	assert_true(readable(fd));
	stop_request(stop_process());                                  /* twice: still one stop */
	assert_true(readable(fd));
	stop_clear(stop_process());
	assert_int_equal(stop_process()->stop, 0);
	assert_false(readable(fd));                           /* both bytes gone */

	/* a sleep with no stop pending lasts until its time, not less */
	t = mono_now() + 2000000u;
	xfer_sleep_until(stop_process(), t);
	assert_true(mono_now() >= t);
	xfer_sleep_until(stop_process(), mono_now() - 1);                     /* the past: at once */

	/* requested first, then a sleep of a minute: it returns (the bound is
	 * only a deadline for the test; a broken sleep would take 60 s) */
	stop_request(stop_process());
	t0 = mono_now();
	xfer_sleep_until(stop_process(), t0 + 60000000000ULL);
	assert_true(mono_now() - t0 < 30000000000ULL);
	assert_int_equal(stop_process()->stop, 1);                       /* the sleep kept it */
	assert_true(readable(fd));
	stop_clear(stop_process());

	/* from another thread, while (or before) the sleep runs */
	far = mono_now() + 60000000000ULL;
	t0 = mono_now();
	assert_int_equal(pthread_create(&th, NULL, sleeper, &far), 0);
	stop_request(stop_process());
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_true(mono_now() - t0 < 30000000000ULL);
	stop_clear(stop_process());
	assert_int_equal(stop_process()->stop, 0);
	assert_false(readable(fd));
}

/* The one send loop stores the live counters a sampler reads once per
 * call: bytes and calls for every path, datagrams for a datagram path (the
 * plain UDP sender too, not only the batched one); TCP has none. */
static void
test_send_live_counters(void **state)
{
	static const struct { uint8_t proto; uint64_t dgrams; } rows[] = {
		{ PROTO_UDP, 20 }, { PROTO_TCP, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct stream s;
		char buf[4096];
		int sv[2];
		ssize_t got = 0, n;

		if (rows[i].proto == PROTO_UDP)
			sock_udp_pair(sv, 0);
		else
			sock_tcp_pair(sv);
		memset(&s, 0, sizeof s);
		s.id = 1;
		s.fd = sv[0];
		s.stop = stop_process();
		s.p.proto = rows[i].proto;
		s.p.len = s.p.data_len = 100;
		s.p.count = 20;
		s.p.data_bytes = 2000;
		assert_int_equal(xfer_send_loop(&s), 0);
		assert_int_equal(LIVE_GET(&s, bytes), 2000);
		assert_int_equal(LIVE_GET(&s, calls), s.r.calls);
		assert_int_equal(LIVE_GET(&s, dgrams), rows[i].dgrams);
		assert_int_equal(s.r.dgrams, rows[i].dgrams);
		while (got < 2000 && (n = recv(sv[1], buf, sizeof buf,
		    MSG_DONTWAIT)) > 0)
			got += n;
		assert_int_equal(got, 2000);
		close(sv[0]);
		close(sv[1]);
	}
}

/* --time: a run that moved no data fails, never a 0-byte success (issue
 * 28: zero-copy sends refused for good made a timed run of 0 bytes that
 * exited 0): a sender whose time was up before the kernel took anything,
 * a TCP receiver whose sender closed at once. */
static void
test_time_nothing(void **state)
{
	struct xfer_params p = stream_of(1000, XFER_TIME_BYTES);
	struct gput_result r;
	char err[200];
	int sv[2];

	(void)state;
	p.proto = PROTO_TCP;
	p.duration_ms = 1000;
	sock_tcp_pair(sv);
	atomic_store(&stop_process()->end, 1);  /* --time is up at once */
	assert_int_equal(t_run(xfer_tcp_send, sv[0], &p, &r, err, sizeof err), -1);
	atomic_store(&stop_process()->end, 0);
	assert_string_equal(err, "sent nothing in its --time (the kernel took "
	                    "no data)");
	assert_int_equal(r.bytes, 0);
	assert_int_equal(r.calls, 0);
	p.role = ROLE_RECV;                     /* the sender shut down: EOF */
	assert_int_equal(t_run(xfer_tcp_recv, sv[1], &p, &r, err, sizeof err), -1);
	assert_string_equal(err, "received nothing in its --time (the sender "
	                    "closed at once)");
	assert_int_equal(r.bytes, 0);
	close(sv[0]);
	close(sv[1]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_calls_last_len),
		cmocka_unit_test(test_send_live_counters),
		cmocka_unit_test(test_marker_len),
		cmocka_unit_test(test_udp_idle_ms),
		cmocka_unit_test(test_due_ns),
		cmocka_unit_test(test_schedule_s),
		cmocka_unit_test(test_udp_hdr),
		cmocka_unit_test(test_udp_header_streams),
		cmocka_unit_test(test_udp_window),
		cmocka_unit_test(test_marker_round_trip),
		cmocka_unit_test(test_marker_rejected),
		cmocka_unit_test(test_proof_len),
		cmocka_unit_test(test_proof_round_trip),
		cmocka_unit_test(test_proof_rejected),
		cmocka_unit_test(test_proof_not_marker),
		cmocka_unit_test(test_pattern_layout),
		cmocka_unit_test(test_pattern_seeds),
		cmocka_unit_test(test_pattern_check),
		cmocka_unit_test(test_pattern_check_clamp),
		cmocka_unit_test(test_tcp_transfer),
		cmocka_unit_test(test_tcp_verify_damage),
		cmocka_unit_test(test_tcp_errors),
		cmocka_unit_test(test_io_error),
		cmocka_unit_test(test_tcp_stall_and_stop),
		cmocka_unit_test(test_udp_transfer),
		cmocka_unit_test(test_udp_loss),
		cmocka_unit_test(test_udp_recv_headed),
		cmocka_unit_test(test_udp_recv_headless),
		cmocka_unit_test(test_udp_socket_drops),
		cmocka_unit_test(test_udp_verify_damage),
		cmocka_unit_test(test_udp_refused),
		cmocka_unit_test(test_udp_drain),
		cmocka_unit_test(test_time_nothing),
		cmocka_unit_test(test_stop_pipe),             /* last: it makes the pipe */
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

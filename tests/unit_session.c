/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_session.c: session_check_limits, the partner's --max-* limits, as a
 * table of examples: under, at and over each limit, which side's numbers
 * count, and the exact reason a refusal gives. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "partner_limits.h"

#define P62 (1ULL << 62)

static int misses;
#define MISS(fmt, ...) (print_error(fmt "\n", __VA_ARGS__), misses++)
#define MISSED() do { int m_ = misses; misses = 0; \
	if (m_ != 0) fail_msg("%d mismatch(es) above", m_); } while (0)

struct lrow {
	const char *name;
	struct partner_limits l;
	struct xfer_params p;
	const char *msg;        /* NULL: within the limits */
};

#pragma GCC diagnostic ignored "-Woverride-init"
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Winitializer-overrides"
/* The partner's defaults, one limit changed. */
#define LIM(...) { .max_sessions = PARTNER_MAX_SESSIONS, \
	.max_time_s = PARTNER_MAX_TIME_S, .max_buffer = PARTNER_MAX_BUFFER, \
	.max_streams = PARTNER_MAX_STREAMS, \
	.max_peer_timeout_s = PARTNER_MAX_PEER_TIMEOUT_S, __VA_ARGS__ }
/* The partner receives TCP: 2048 x 4096 bytes, unpaced. */
#define TCPR(...) { .proto = PROTO_TCP, .role = ROLE_RECV, .len = 4096, \
	.count = 2048, .data_len = 4096, .data_bytes = 2048 * 4096, __VA_ARGS__ }
#define TCPS(...) TCPR(.role = ROLE_SEND, __VA_ARGS__)
#define UDPR(...) TCPR(.proto = PROTO_UDP, __VA_ARGS__)
#define UDPS(...) TCPR(.proto = PROTO_UDP, .role = ROLE_SEND, __VA_ARGS__)
/* A stream of data_len-byte writes: calls = bytes / data_len (rounded up). */
#define STREAM(dl, bytes) .len = (dl), .data_len = (dl), .data_bytes = (bytes)

#define BYTES(n, max) "the test moves " n " bytes, this partner allows at most " \
	max " (--max-bytes)"
#define BUF(n, max) "a " n "-byte buffer is larger than this partner allows, " \
	max " bytes (--max-buffer)"
#define TIME(s, max) "the test's gaps alone take " s " s, this partner allows " \
	max " s (--max-time)"
#define UNPACED(max) "unpaced UDP: this partner sends UDP at most " max \
	" bit/s (--max-rate); pace it with -g"
#define RATE(r, max) "UDP at " r " bit/s: this partner sends UDP at most " max \
	" bit/s (--max-rate)"

#define BURST(bb, b, l, n, max) "UDP bursts of " bb " bytes (--burst " b ", -l " \
	l ", " n " streams): this partner sends at most " max " bytes at once, " \
	"5 ms at its --max-rate"
#define MEMORY(t, most, st, d, b, i) "memory: the test takes " t " bytes, " \
	"this partner allows " most " (16 x --max-buffer + 32 MiB); a stream: " \
	"stack " st ", data " d ", batch " b ", intervals " i
#define SLOW(r) "the test's schedule moves " r " bytes/s, this partner needs " \
	"at least 1000 bytes/s of every test"
#define STREAMS(n, max) n " streams: this partner allows at most " max \
	" (--max-streams)"
#define MEM(n, b, all) n " streams of " b "-byte buffers: this partner allows " \
	all " bytes of buffers per test (16 times --max-buffer)"

static const struct lrow rows[] = {
	{ "defaults, plain test", LIM(), TCPR(), NULL },
	/* -P: streams, their buffers together, their bytes together */
	{ "128 streams", LIM(), TCPR(.streams = 128), NULL },
	{ "streams at", LIM(.max_streams = 4), TCPR(.streams = 4), NULL },
	{ "streams over", LIM(.max_streams = 4), TCPR(.streams = 5),
	  STREAMS("5", "4") },
	{ "stream buffers at", LIM(.max_buffer = 65536), TCPR(.streams = 16,
	  STREAM(65536, 1 << 20)), NULL },
	{ "stream buffers over", LIM(.max_buffer = 65536), TCPR(.streams = 17,
	  STREAM(65536, 1 << 20)), MEM("17", "65536", "1048576") },
	{ "stream bytes at", LIM(.max_bytes = 4000), TCPR(.streams = 4,
	  .data_bytes = 1000), NULL },
	{ "stream bytes over", LIM(.max_bytes = 3999), TCPR(.streams = 4,
	  .data_bytes = 1000), "the test moves 4 streams of 1000 bytes, this "
	  "partner allows at most 3999 (--max-bytes)" },
	{ "stream rate over", LIM(.max_rate = 2e6), UDPS(.streams = 2,
	  STREAM(1250, 1 << 20), .data_gap_ps = 5000000000ull),
	  RATE("4000000", "2000000") },
	{ "defaults, UDP sender", LIM(), UDPS(), NULL },

	/* --max-peer-timeout: a client's --peer-timeout (CTL_XF_PEERTIME)
	 * up to it; the field counts only with the flag */
	{ "peer timeout at the default bound", LIM(), TCPR(.xflags =
	  CTL_XF_PEERTIME, .peer_timeout_s = 60), NULL },
	{ "peer timeout over the default bound", LIM(), TCPS(.xflags =
	  CTL_XF_PEERTIME, .peer_timeout_s = 61), "--peer-timeout 61 s is "
	  "longer than this partner allows, 60 s (--max-peer-timeout)" },
	{ "peer timeout at", LIM(.max_peer_timeout_s = 240), UDPR(.xflags =
	  CTL_XF_PEERTIME, .peer_timeout_s = 240), NULL },
	{ "peer timeout over", LIM(.max_peer_timeout_s = 10), TCPR(.xflags =
	  CTL_XF_PEERTIME, .peer_timeout_s = 11), "--peer-timeout 11 s is "
	  "longer than this partner allows, 10 s (--max-peer-timeout)" },
	{ "peer timeout without its flag", LIM(.max_peer_timeout_s = 10),
	  TCPR(.peer_timeout_s = 240), NULL },

	/* --max-bytes: data_bytes, the whole stream; 0 = no limit */
	{ "no byte limit, 2^62", LIM(), TCPR(.data_bytes = P62), NULL },
	{ "bytes under", LIM(.max_bytes = 1000000), TCPR(.data_bytes = 999999), NULL },
	{ "bytes at", LIM(.max_bytes = 1000000), TCPR(.data_bytes = 1000000), NULL },
	{ "bytes over", LIM(.max_bytes = 1000000), TCPR(.data_bytes = 1000001),
	  BYTES("1000001", "1000000") },
	{ "bytes over, sender", LIM(.max_bytes = 1), TCPS(.data_bytes = 2),
	  BYTES("2", "1") },
	{ "bytes over, UDP", LIM(.max_bytes = 1ULL << 32), UDPR(.data_bytes = P62),
	  BYTES("4611686018427387904", "4294967296") },
	{ "count does not count", LIM(.max_bytes = 1000), TCPR(.count = UINT64_MAX,
	  .data_bytes = 1000), NULL },

	/* --max-buffer: a sender's len; a receiver's larger of len and data_len
	 * (it reads with len and checks the pattern over data_len) */
	{ "sender len under", LIM(.max_buffer = 65536), TCPS(STREAM(65535, 1 << 20)), NULL },
	{ "sender len at", LIM(.max_buffer = 65536), TCPS(STREAM(65536, 1 << 20)), NULL },
	{ "sender len over", LIM(.max_buffer = 65536), TCPS(STREAM(65537, 1 << 20)),
	  BUF("65537", "65536") },
	{ "sender: its len, not data_len", LIM(.max_buffer = 65536),
	  TCPS(.len = 1000, .data_len = 70000), NULL },
	{ "receiver len and data_len at", LIM(.max_buffer = 65536),
	  TCPR(STREAM(65536, 1 << 20)), NULL },
	{ "receiver len over", LIM(.max_buffer = 65536), TCPR(.len = 65537,
	  .data_len = 1000), BUF("65537", "65536") },
	{ "receiver data_len over", LIM(.max_buffer = 65536), TCPR(.len = 1000,
	  .data_len = 65537), BUF("65537", "65536") },
	{ "receiver: the larger one named", LIM(.max_buffer = 65536),
	  UDPR(.len = 70000, .data_len = 65507), BUF("70000", "65536") },
	{ "receiver both under", LIM(.max_buffer = 65536), UDPR(.len = 65536,
	  .data_len = 1472), NULL },
	{ "default buffer limit at", LIM(), TCPR(STREAM(4u << 20, 8u << 20)), NULL },
	{ "default buffer limit over", LIM(), TCPR(STREAM((4u << 20) + 1, 8u << 20)),
	  BUF("4194305", "4194304") },

	/* --max-time: a gap between each two of the calls, the sender's gap
	 * (data_gap_ps, not gap_us) */
	{ "time under", LIM(.max_time_s = 10), TCPR(STREAM(1000, 100000),
	  .data_gap_ps = 101010 * 1000000ull), NULL },                 /* 99 x 0.10101 s */
	{ "time at", LIM(.max_time_s = 10), TCPR(STREAM(1000, 101000),
	  .data_gap_ps = 100000 * 1000000ull), NULL },                 /* 100 x 0.1 s */
	{ "time over", LIM(.max_time_s = 10), TCPR(STREAM(1000, 100000),
	  .data_gap_ps = 200000 * 1000000ull), TIME("19.8", "10") },
	{ "time over by a call", LIM(.max_time_s = 10), TCPR(STREAM(1000, 101001),
	  .data_gap_ps = 100000 * 1000000ull), TIME("10.1", "10") },
	{ "time: the -x call counts", LIM(.max_time_s = 1), UDPS(STREAM(1000, 3001),
	  .gap_us = 400000, .data_gap_ps = 400000 * 1000000ull), TIME("1.2", "1") },  /* 3 x 0.4 s */
	{ "time: own gap_us ignored", LIM(.max_time_s = 1), TCPR(.gap_us = 10000000),
	  NULL },
	{ "time: no limit", LIM(.max_time_s = 0), TCPR(.count = 1000000,
	  STREAM(10000, 10000000000ull), .data_gap_ps = 10000000 * 1000000ull),
	  NULL },
	{ "time: default limit over", LIM(), TCPR(STREAM(1000, 1000000),
	  .data_gap_ps = 1000000 * 1000000ull), TIME("999.0", "600") },
	/* writes 10 s apart whose schedule (k x 10^10 ns) passes 64 bits: it
	 * saturates (584 years) instead of wrapping; this k, the inverse of
	 * 9765625 mod 2^54, wrapped to 1024 ns and the test was accepted */
	{ "time: a schedule past 64 bits", LIM(), TCPR(STREAM(1,
	  11248060840943434ull), .count = 11248060840943434ull,
	  .data_gap_ps = 10000000000000ull), TIME("18446744073.7", "600") },
	{ "time: 2^62 writes 10 s apart", LIM(), TCPR(STREAM(1, P62),
	  .count = P62, .data_gap_ps = 10000000000000ull),
	  TIME("18446744073.7", "600") },

	/* --max-rate: only the partner's UDP sends, data_len x 8 / gap */
	{ "rate: unpaced UDP sender", LIM(.max_rate = 1e6), UDPS(STREAM(1000, 50000)),
	  UNPACED("1000000") },
	{ "rate: UDP sender under", LIM(.max_rate = 1e6), UDPS(STREAM(1000, 50000),
	  .gap_us = 16000, .data_gap_ps = 16000 * 1000000ull), NULL },
	{ "rate: UDP sender at", LIM(.max_rate = 1e6), UDPS(STREAM(1000, 50000),
	  .gap_us = 8000, .data_gap_ps = 8000 * 1000000ull), NULL },
	{ "rate: UDP sender over", LIM(.max_rate = 1e6), UDPS(STREAM(1000, 50000),
	  .gap_us = 7999, .data_gap_ps = 7999 * 1000000ull), RATE("1000125", "1000000") },
	{ "rate: UDP sender far over", LIM(.max_rate = 1e8), UDPS(STREAM(65507, 655070),
	  .gap_us = 1, .data_gap_ps = 1 * 1000000ull), RATE("524056000000", "100000000") },
	/* ... and its bursts, all streams' together: 5 ms at the limit */
	{ "rate: bursts within 5 ms", LIM(.max_rate = 1e6), UDPS(STREAM(300, 300000),
	  .data_burst = 2, .data_gap_ps = 2400 * 1000000ull), NULL },
	{ "rate: bursts over 5 ms", LIM(.max_rate = 1e6), UDPS(STREAM(300, 300000),
	  .data_burst = 3, .data_gap_ps = 2400 * 1000000ull),
	  BURST("900", "3", "300", "1", "625") },
	{ "rate: two streams' bursts together", LIM(.max_rate = 1e6),
	  UDPS(STREAM(150, 300000), .streams = 2, .data_burst = 2,
	  .data_gap_ps = 2400 * 1000000ull), NULL },
	{ "rate: three streams' bursts together", LIM(.max_rate = 1e6),
	  UDPS(STREAM(100, 300000), .streams = 3, .data_burst = 3,
	  .data_gap_ps = 2400 * 1000000ull), BURST("900", "3", "100", "3", "625") },
	{ "rate: one datagram over 5 ms is allowed", LIM(.max_rate = 1e6),
	  UDPS(STREAM(1000, 100000), .data_gap_ps = 8000 * 1000000ull), NULL },
	{ "rate: --burst 1000000 at the rate", LIM(.max_rate = 1e7),
	  UDPS(STREAM(1472, 1472000000ull), .data_burst = 1000000,
	  .data_gap_ps = 1177600 * 1000ull),
	  BURST("1472000000", "1000000", "1472", "1", "6250") },
	{ "rate: UDP receiver unpaced", LIM(.max_rate = 1e6), UDPR(STREAM(1000, 50000)),
	  NULL },
	{ "rate: UDP receiver fast", LIM(.max_rate = 1e6), UDPR(STREAM(65507, 655070),
	  .gap_us = 1, .data_gap_ps = 1 * 1000000ull), NULL },
	{ "rate: TCP sender unpaced", LIM(.max_rate = 1e6), TCPS(), NULL },
	{ "rate: TCP receiver unpaced", LIM(.max_rate = 1e6), TCPR(), NULL },
	{ "rate: no limit, unpaced UDP", LIM(.max_rate = 0), UDPS(), NULL },

	/* a test must make progress: a paced schedule of 10 s or more moves at
	 * least PARTNER_MIN_RATE bytes a second, all streams together */
	{ "progress: 999 B/s for 10 s", LIM(), UDPR(STREAM(999, 999 * 11),
	  .data_gap_ps = 1000000 * 1000000ull), SLOW("999") },
	{ "progress: 1000 B/s for 10 s", LIM(), UDPR(STREAM(1000, 1000 * 11),
	  .data_gap_ps = 1000000 * 1000000ull), NULL },
	{ "progress: 999 B/s for 9 s", LIM(), TCPR(STREAM(999, 999 * 10),
	  .data_gap_ps = 1000000 * 1000000ull), NULL },
	{ "progress: two streams of 500 B/s", LIM(), UDPR(STREAM(500, 500 * 11),
	  .streams = 2, .data_gap_ps = 1000000 * 1000000ull), NULL },
	{ "progress: one of 1 B/s", LIM(), TCPS(STREAM(1, 11),
	  .data_gap_ps = 1000000 * 1000000ull), SLOW("1") },

	/* one memory budget: 16 x --max-buffer + 32 MiB, all of it counted */
	{ "memory: -P 128 --batch 128 -l 32768 sender", LIM(), UDPS(STREAM(32768,
	  32768 * 1000), .streams = 128, .batch = 128), MEMORY("580993024",
	  "100663296", "262144", "65536", "4194304", "0") },
	{ "memory: -c -P 6 -l 4M receiver", LIM(), TCPR(STREAM(4u << 20, 8u << 20),
	  .streams = 6, .verify = 1), NULL },
	{ "memory: -c -P 8 -l 4M receiver", LIM(), TCPR(STREAM(4u << 20, 8u << 20),
	  .streams = 8, .verify = 1), MEMORY("102973440", "100663296", "262144",
	  "12582912", "0", "0") },

	/* several over: the first check named (bytes, buffer, time, rate) */
	{ "bytes before buffer", LIM(.max_bytes = 10, .max_buffer = 10),
	  TCPR(STREAM(100, 100)), BYTES("100", "10") },
	{ "buffer before time", LIM(.max_buffer = 10, .max_time_s = 1),
	  TCPR(STREAM(100, 1000), .data_gap_ps = 1000000 * 1000000ull), BUF("100", "10") },
	{ "time before rate", LIM(.max_time_s = 1, .max_rate = 100),
	  UDPS(STREAM(100, 1000), .gap_us = 1000000, .data_gap_ps = 1000000 * 1000000ull),
	  TIME("9.0", "1") },
};

static void
test_limits(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const struct lrow *r = &rows[i];
		char why[300] = "untouched";
		int rc = session_check_limits(&r->l, &r->p, why, sizeof why);

		if (r->msg == NULL && rc != 0)
			MISS("%s: refused: %s", r->name, why);
		else if (r->msg == NULL && strcmp(why, "untouched") != 0)
			MISS("%s: accepted but wrote '%s'", r->name, why);
		else if (r->msg != NULL && rc != -1)
			MISS("%s: accepted, want '%s'", r->name, r->msg);
		else if (r->msg != NULL && strcmp(why, r->msg) != 0)
			MISS("%s: '%s', want '%s'", r->name, why, r->msg);
	}
	MISSED();
}

/* A short reason buffer gets a cut, terminated reason. */
static void
test_limits_short_buffer(void **state)
{
	static const struct partner_limits l = LIM(.max_bytes = 1);
	static const struct xfer_params p = TCPR();
	char why[16];

	(void)state;
	memset(why, 'x', sizeof why);
	assert_int_equal(session_check_limits(&l, &p, why, sizeof why), -1);
	assert_string_equal(why, "the test moves ");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_limits_short_buffer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

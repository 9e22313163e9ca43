/* unit_ctl.c: the control protocol (version 3): round trips of every
 * message, the wire bytes at their documented offsets (include/ctl.h), every
 * malformed case with its exact message, versions 2 and 3 refused, and
 * ctl_send/ctl_recv/ctl_recv_type/ctl_recv_any_until/ctl_peer_state over a
 * socketpair. */
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
#include "ecn.h"
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
	m.params.stream = 1;
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

static const uint8_t params_wire[] = {
	'G', 'P', 'U', 'T', 0x04, 0x01, 0x00, 0xd8,
	/*  0 */ 0x01, 0x01, 0x05, 0x00,
	/*  4 */ 0x01, 0x02, 0x03, 0x04,
	/*  8 */ 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18,
	/* 16 */ 0x21, 0x22, 0x23, 0x24,
	/* 20 */ 0x00, 0x98, 0x96, 0x80,
	/* 24 */ 0x00, 0x00, 0xff, 0xe3,
	/* 28 */ 0xa1, 0xa2, 0xa3, 0xa4,
	/* 32 */ 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* 40 */ 0x00, 0x00, 0x08, 0x12, 0x34, 0x56, 0x78, 0x9a,   /* data_gap_ps */
	/* 48 */ 0x01, 0x23, 0x45, 0x67,               /* duration_ms */
	/* 52 */ 0x00, 0x34, 0x56, 0x78,               /* interval_ms */
	/* 56 */ 0x00, 0x45, 0x67, 0x89,               /* omit_ms */
	/* 60 */ 0x00, 0x0f, 0x42, 0x40,               /* data_burst */
	/* 64 */ 'c', 'u', 'b', 'i', 'c', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,   /* cc */
	/* 80 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	/* 96 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	/*112 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	/*128 */ 0x00, 0x73,                           /* streams */
	/*130 */ 0x00, 0x00,                           /* zero */
	/*132 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	/*152 */ 0, 0, 0, 0,                           /* xflags */
	/*156 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,   /* latency */
	/*168 */ 0, 0, 0, 0, 0, 0, 0, 0,               /* affinity */
	/*176 */ 0, 0, 0, 0, 0, 0, 0, 0,               /* hardening */
	/*184 */ 0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7,   /* mac */
	/*192 */ 0xc8, 0xc9, 0xca, 0xcb, 0xcc, 0xcd, 0xce, 0xcf,
	/*200 */ 0xd0, 0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7,
	/*208 */ 0xd8, 0xd9, 0xda, 0xdb, 0xdc, 0xdd, 0xde, 0xdf,
};

static void
assert_bytes(const uint8_t *got, const uint8_t *want, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (got[i] != want[i])
			MISS("byte %zu (payload offset %ld): 0x%02x, want 0x%02x", i,
			     (long)i - CTL_HDR_LEN, got[i], want[i]);
	MISSED();
}

static void
assert_params_equal(const struct xfer_params *a, const struct xfer_params *b)
{
	assert_int_equal(a->proto, b->proto);
	assert_int_equal(a->role, b->role);
	assert_int_equal(a->nodelay, b->nodelay);
	assert_int_equal(a->verify, b->verify);
	assert_int_equal(a->stream, b->stream);
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

/* Decode a whole encoded message; returns the decoder's rc. */
static int
decode(const uint8_t *buf, size_t len, struct ctl_msg *m, char *err, size_t errlen)
{
	uint8_t type;
	uint16_t plen;

	if (ctl_decode_header(buf, &type, &plen, err, errlen) == -1)
		return -1;
	assert_int_equal(plen, len - CTL_HDR_LEN);
	memset(m, 0x77, sizeof *m);
	return ctl_decode_payload(type, buf + CTL_HDR_LEN, plen, m, err, errlen);
}

static void
test_params_wire(void **state)
{
	struct ctl_msg m = params_msg(), d;
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD];
	char err[256];

	(void)state;
	assert_int_equal(sizeof params_wire, CTL_HDR_LEN + CTL_PARAMS_LEN);
	memset(buf, 0xee, sizeof buf);
	assert_int_equal(ctl_encode(&m, buf), sizeof params_wire);
	assert_bytes(buf, params_wire, sizeof params_wire);
	assert_int_equal(buf[sizeof params_wire], 0xee);       /* nothing beyond */
	assert_int_equal(decode(buf, sizeof params_wire, &d, err, sizeof err), 0);
	assert_int_equal(d.type, CTL_PARAMS);
	assert_params_equal(&d.params, &m.params);
	assert_memory_equal(d.mac, m.mac, CTL_MAC_LEN);
}

/* PARAMS variants: params_wire with the bytes that differ. A count-mode
 * test (duration 0, a length of its own), the stream count at 128..129 at
 * its edges, and the congestion control list at 64..127: NUL-padded, an
 * empty one all zero, at most 63 bytes of it sent (the field keeps a NUL),
 * nothing after the first NUL sent. */
#define CC4 "abcdefghijklmno,pqrstuvwxyz0123,456789_-abcdefg,hijklmnopqrstuv"
static void
test_params_variants(void **state)
{
	static const struct { const char *name; uint32_t duration_ms; uint64_t data_bytes;
	    uint16_t streams; const char cc[XFER_CC_LIST]; size_t off; uint8_t b[64];
	    size_t n; } rows[] = {
		{ "count mode", 0, 0x0102030405060708ULL, 0x73, "cubic", 32,
		  { 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0x08, 0x12, 0x34, 0x56, 0x78, 0x9a,
		    0, 0, 0, 0 }, 20 },
		{ "a day", CTL_MAX_MS, P62, 0x73, "cubic", 48, { 0x05, 0x26, 0x5c, 0x00 }, 4 },
		{ "one stream", 0x01234567, P62, 1, "cubic", 128, { 0, 1 }, 2 },
		{ "two streams", 0x01234567, P62, 2, "cubic", 128, { 0, 2 }, 2 },
		{ "128 streams", 0x01234567, P62, STREAM_MAX, "cubic", 128, { 0, 0x80 }, 2 },
		{ "cc bbr", 0x01234567, P62, 0x73, "bbr", 64, "bbr", 64 },
		{ "cc empty", 0x01234567, P62, 0x73, "", 64, { 0 }, 64 },
		{ "cc 15 bytes", 0x01234567, P62, 0x73, "a_b-c0123456789", 64,
		  "a_b-c0123456789", 64 },
		{ "cc list", 0x01234567, P62, 0x73, "cubic,bbr", 64, "cubic,bbr", 64 },
		{ "cc list of 63 bytes", 0x01234567, P62, 0x73, CC4, 64, CC4, 64 },
		{ "cc 64 bytes (no NUL)", 0x01234567, P62, 0x73, CC4 "x", 64, CC4, 64 },
		{ "cc, bytes after its NUL", 0x01234567, P62, 0x73,
		  { 'b', 'b', 'r', 0, 'x', 'y', [15] = 'z', [63] = 'w' }, 64, "bbr", 64 },
	};
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD], want[sizeof params_wire];
	char err[256];
	size_t i;

	(void)state;
	assert_int_equal(strlen(CC4), XFER_CC_LIST - 1);
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct ctl_msg m = params_msg(), d;

		m.params.duration_ms = rows[i].duration_ms;
		m.params.data_bytes = rows[i].data_bytes;
		m.params.streams = rows[i].streams;
		memcpy(m.params.cc, rows[i].cc, sizeof m.params.cc);
		memcpy(want, params_wire, sizeof want);
		memcpy(want + CTL_HDR_LEN + rows[i].off, rows[i].b, rows[i].n);
		memset(buf, 0xee, sizeof buf);
		if (ctl_encode(&m, buf) != sizeof want)
			MISS("%s: length", rows[i].name);
		else if (memcmp(buf, want, sizeof want) != 0)
			MISS("%s: wire bytes differ", rows[i].name);
		else if (decode(buf, sizeof want, &d, err, sizeof err) != 0)
			MISS("%s: rejected: %s", rows[i].name, err);
		else if (d.params.duration_ms != rows[i].duration_ms ||
		    d.params.data_bytes != rows[i].data_bytes ||
		    d.params.streams != rows[i].streams ||
		    memcmp(d.params.cc, want + CTL_HDR_LEN + 64, XFER_CC_LIST) != 0)
			MISS("%s: decoded fields differ", rows[i].name);
	}
	MISSED();
}

/* Each flag on its own sets its own bit at payload offset 2. */
static void
test_params_flags(void **state)
{
	static const struct { uint8_t nodelay, verify, stream, verbose, bits; } rows[] = {
		{ 0, 0, 0, 0, 0x00 }, { 1, 0, 0, 0, 0x01 }, { 0, 1, 0, 0, 0x02 },
		{ 0, 0, 1, 0, 0x04 }, { 0, 0, 0, 1, 0x08 }, { 1, 1, 1, 1, 0x0f },
	};
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD];
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct ctl_msg m = params_msg(), d;

		m.params.nodelay = rows[i].nodelay;
		m.params.verify = rows[i].verify;
		m.params.stream = rows[i].stream;
		m.params.verbose = rows[i].verbose;
		ctl_encode(&m, buf);
		assert_int_equal(buf[CTL_HDR_LEN + 2], rows[i].bits);
		assert_int_equal(decode(buf, CTL_HDR_LEN + CTL_PARAMS_LEN, &d, err,
		                 sizeof err), 0);
		assert_params_equal(&d.params, &m.params);
	}
}

/* READY with one port: the port, the port count 1, the nonce, the MAC;
 * every byte at its offset, 52 bytes. */
static void
test_ready_wire(void **state)
{
	static const uint16_t ports[] = { 1, 5037, 0x8000, 65535 };
	uint8_t want[CTL_HDR_LEN + CTL_READY_LEN] = { 'G', 'P', 'U', 'T', 4, 2, 0, 0x34,
	    0xbe, 0xef, 0, 1 };
	struct ctl_msg m, d;
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD];
	char err[256];
	size_t i;

	(void)state;
	memset(&m, 0, sizeof m);
	m.type = CTL_READY;
	m.port[0] = 0xbeef;
	m.port[1] = 0x1234;             /* beyond nports: not sent */
	m.nports = 1;
	for (i = 0; i < CTL_NONCE_LEN; i++) {
		m.nonce[i] = (uint8_t)(0x40 + i);
		want[CTL_HDR_LEN + 4 + i] = (uint8_t)(0x40 + i);
	}
	for (i = 0; i < CTL_MAC_LEN; i++) {
		m.mac[i] = (uint8_t)(0x80 + i);
		want[CTL_HDR_LEN + 20 + i] = (uint8_t)(0x80 + i);
	}
	memset(buf, 0xee, sizeof buf);
	assert_int_equal(ctl_encode(&m, buf), sizeof want);
	assert_bytes(buf, want, sizeof want);
	assert_int_equal(buf[sizeof want], 0xee);               /* nothing beyond */
	for (i = 0; i < sizeof ports / sizeof ports[0]; i++) {
		m.port[0] = ports[i];
		m.nonce[0] = (uint8_t)i;
		m.mac[CTL_MAC_LEN - 1] = (uint8_t)(0xf0 + i);
		assert_int_equal(ctl_encode(&m, buf), CTL_HDR_LEN + CTL_READY_LEN);
		assert_int_equal(decode(buf, CTL_HDR_LEN + CTL_READY_LEN, &d, err,
		                 sizeof err), 0);
		assert_int_equal(d.type, CTL_READY);
		assert_int_equal(d.nports, 1);
		assert_int_equal(d.port[0], ports[i]);
		assert_memory_equal(d.nonce, m.nonce, CTL_NONCE_LEN);
		assert_memory_equal(d.mac, m.mac, CTL_MAC_LEN);
	}
}

/* READY with n ports: 50 + 2n bytes, the first port at 0, the count at 2,
 * the others from 52 on in stream order; round trips of 1, 2, 3, 127 and
 * 128 ports, every port at its offset. */
static void
test_ready_ports(void **state)
{
	static const uint16_t counts[] = { 1, 2, 3, 127, STREAM_MAX };
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD];
	char err[256];
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof counts / sizeof counts[0]; i++) {
		uint16_t n = counts[i];
		size_t len = CTL_HDR_LEN + 50u + 2u * n;
		struct ctl_msg m, d;

		memset(&m, 0, sizeof m);
		m.type = CTL_READY;
		m.nports = n;
		for (k = 0; k < STREAM_MAX; k++)        /* every port differs */
			m.port[k] = (uint16_t)(0x1001 + 0x0102 * k);
		for (k = 0; k < CTL_NONCE_LEN; k++)
			m.nonce[k] = (uint8_t)(0x40 + k);
		for (k = 0; k < CTL_MAC_LEN; k++)
			m.mac[k] = (uint8_t)(0x80 + k);
		memset(buf, 0xee, sizeof buf);
		if (ctl_encode(&m, buf) != len) {
			MISS("%u ports: length %zu, want %zu", n, ctl_encode(&m, buf), len);
			continue;
		}
		if (buf[len] != 0xee)
			MISS("%u ports: a byte beyond the message", n);
		if (buf[6] != (len - CTL_HDR_LEN) >> 8 ||
		    buf[7] != ((len - CTL_HDR_LEN) & 0xff))
			MISS("%u ports: header length %u", n, buf[6] * 256u + buf[7]);
		if (buf[CTL_HDR_LEN + 0] != 0x10 || buf[CTL_HDR_LEN + 1] != 0x01 ||
		    buf[CTL_HDR_LEN + 2] != n >> 8 || buf[CTL_HDR_LEN + 3] != (n & 0xff))
			MISS("%u ports: first port or count misplaced", n);
		if (memcmp(buf + CTL_HDR_LEN + 4, m.nonce, CTL_NONCE_LEN) != 0 ||
		    memcmp(buf + CTL_HDR_LEN + 20, m.mac, CTL_MAC_LEN) != 0)
			MISS("%u ports: nonce or MAC misplaced", n);
		for (k = 1; k < n; k++) {
			const uint8_t *q = buf + CTL_HDR_LEN + 52 + 2 * (k - 1);

			if (q[0] != m.port[k] >> 8 || q[1] != (m.port[k] & 0xff))
				MISS("%u ports: port %zu at %zu is 0x%02x%02x, want 0x%04x",
				     n, k, 52 + 2 * (k - 1), q[0], q[1], m.port[k]);
		}
		if (decode(buf, len, &d, err, sizeof err) != 0) {
			MISS("%u ports: rejected: %s", n, err);
			continue;
		}
		if (d.type != CTL_READY || d.nports != n ||
		    memcmp(d.port, m.port, n * sizeof m.port[0]) != 0 ||
		    memcmp(d.nonce, m.nonce, CTL_NONCE_LEN) != 0 ||
		    memcmp(d.mac, m.mac, CTL_MAC_LEN) != 0)
			MISS("%u ports: decoded fields differ", n);
	}
	/* more ports than a test may have streams: the encoder sends 128 */
	{
		struct ctl_msg m, d;

		memset(&m, 0, sizeof m);
		m.type = CTL_READY;
		m.nports = 200;
		for (k = 0; k < STREAM_MAX; k++)
			m.port[k] = (uint16_t)(k + 1);
		assert_int_equal(ctl_encode(&m, buf), CTL_HDR_LEN + 50 + 2 * STREAM_MAX);
		assert_int_equal(decode(buf, CTL_HDR_LEN + 50 + 2 * STREAM_MAX, &d, err,
		                 sizeof err), 0);
		assert_int_equal(d.nports, STREAM_MAX);
		assert_int_equal(d.port[STREAM_MAX - 1], STREAM_MAX);
	}
	MISSED();
}

/* Malformed READYs: a count that disagrees with the length, none, too many,
 * port 0 in any place. The payload: port p0 at 0, count at 2, then the
 * ports from 52 on. */
static void
test_ready_invalid(void **state)
{
	static const struct { const char *name; uint16_t count; size_t plen;
	    size_t zero;        /* 1 + which port is 0; 0: none */
	    const char *msg; } rows[] = {
		{ "1 port", 1, 52, 0, NULL },
		{ "2 ports", 2, 54, 0, NULL },
		{ "128 ports", 128, 306, 0, NULL },
		{ "no ports", 0, 52, 0, "bad READY message: 0 ports in 52 bytes" },
		{ "no ports, 54 bytes", 0, 54, 0, "bad READY message: 0 ports in 54 bytes" },
		{ "2 ports in 52 bytes", 2, 52, 0, "bad READY message: 2 ports in 52 bytes" },
		{ "1 port in 54 bytes", 1, 54, 0, "bad READY message: 1 ports in 54 bytes" },
		{ "3 ports in 54 bytes", 3, 54, 0, "bad READY message: 3 ports in 54 bytes" },
		{ "2 ports in 56 bytes", 2, 56, 0, "bad READY message: 2 ports in 56 bytes" },
		{ "2 ports in 53 bytes", 2, 53, 0, "bad READY message: 2 ports in 53 bytes" },
		{ "128 ports in 304 bytes", 128, 304, 0,
		  "bad READY message: 128 ports in 304 bytes" },
		{ "127 ports in 306 bytes", 127, 306, 0,
		  "bad READY message: 127 ports in 306 bytes" },
		{ "129 ports in 306 bytes", 129, 306, 0,
		  "bad READY message: 129 ports in 306 bytes" },
		{ "129 ports in their 308 bytes", 129, 308, 0,
		  "control message type 2 has 308 bytes, expected 52 to 306" },
		{ "65535 ports", 65535, 306, 0, "bad READY message: 65535 ports in 306 bytes" },
		{ "256 ports in 52 bytes (a count's high byte)", 0x100, 52, 0,
		  "bad READY message: 256 ports in 52 bytes" },
		{ "the most the header allows", 129, CTL_MAX_PAYLOAD, 0,
		  "control message type 2 has 320 bytes, expected 52 to 306" },
		{ "51 bytes", 1, 51, 0, "control message type 2 has 51 bytes, expected 52 to 306" },
		{ "first port 0, alone", 1, 52, 1, "bad READY message: port 0" },
		{ "first port 0 of 2", 2, 54, 1, "bad READY message: port 0" },
		{ "second port 0 of 2", 2, 54, 2, "bad READY message: port 0" },
		{ "second port 0 of 3", 3, 56, 2, "bad READY message: port 0" },
		{ "last port 0 of 3", 3, 56, 3, "bad READY message: port 0" },
		{ "first port 0 of 128", 128, 306, 1, "bad READY message: port 0" },
		{ "port 64 0 of 128", 128, 306, 64, "bad READY message: port 0" },
		{ "last port 0 of 128", 128, 306, 128, "bad READY message: port 0" },
		/* the count speaks before the ports */
		{ "port 0, 2 ports in 52 bytes", 2, 52, 1,
		  "bad READY message: 2 ports in 52 bytes" },
	};
	uint8_t p[CTL_MAX_PAYLOAD];
	struct ctl_msg d;
	char err[256];
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		int rc;

		memset(p, 0, sizeof p);
		p[0] = 0x13;                    /* every port 5037.. (nonzero) */
		p[1] = 0xad;
		p[2] = (uint8_t)(rows[i].count >> 8);
		p[3] = (uint8_t)rows[i].count;
		for (k = 4; k < 52; k++)
			p[k] = (uint8_t)k;
		for (k = 52; k + 1 < sizeof p; k += 2) {
			p[k] = 0x13;
			p[k + 1] = (uint8_t)(0xae + k);
		}
		if (rows[i].zero == 1)
			p[0] = p[1] = 0;
		else if (rows[i].zero > 1)
			p[52 + 2 * (rows[i].zero - 2)] = p[53 + 2 * (rows[i].zero - 2)] = 0;
		err[0] = '\0';
		memset(&d, 0x77, sizeof d);
		rc = ctl_decode_payload(CTL_READY, p, rows[i].plen, &d, err, sizeof err);
		if (rc != (rows[i].msg == NULL ? 0 : -1))
			MISS("%s: rc %d (%s)", rows[i].name, rc, err);
		else if (rows[i].msg != NULL && strcmp(err, rows[i].msg) != 0)
			MISS("%s: '%s', want '%s'", rows[i].name, err, rows[i].msg);
		else if (rc == 0 && (d.nports != rows[i].count || d.port[0] != 0x13ad ||
		    d.port[d.nports - 1] == 0 || d.nonce[0] != 4 || d.mac[0] != 20))
			MISS("%s: fields not kept", rows[i].name);
	}
	MISSED();
}

/* HELLO: flags u32, a zero u32, the challenge. Only the key flag is known. */
static void
test_hello_wire(void **state)
{
	static const struct { uint32_t flags; const uint8_t b[8]; const char *msg; } rows[] = {
		{ 0, { 0, 0, 0, 0, 0, 0, 0, 0 }, NULL },
		{ CTL_HELLO_KEY, { 0, 0, 0, 1, 0, 0, 0, 0 }, NULL },
		{ 0, { 0, 0, 0, 2, 0, 0, 0, 0 }, "bad HELLO message: reserved bits set" },
		{ 0, { 0, 0, 0, 3, 0, 0, 0, 0 }, "bad HELLO message: reserved bits set" },
		{ 0, { 0x80, 0, 0, 1, 0, 0, 0, 0 }, "bad HELLO message: reserved bits set" },
		{ 0, { 0, 0, 1, 0, 0, 0, 0, 0 }, "bad HELLO message: reserved bits set" },
		{ 0, { 0, 0, 0, 1, 0, 0, 0, 1 }, "bad HELLO message: reserved bits set" },
		{ 0, { 0, 0, 0, 0, 0x80, 0, 0, 0 }, "bad HELLO message: reserved bits set" },
		{ 0, { 0, 0, 0, 0, 0, 1, 0, 0 }, "bad HELLO message: reserved bits set" },
	};
	uint8_t want[CTL_HDR_LEN + CTL_HELLO_LEN] = { 'G', 'P', 'U', 'T', 4, 5, 0, 0x28,
	    0, 0, 0, 1, 0, 0, 0, 0 };
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD];
	struct ctl_msg m, d;
	char err[256];
	size_t i;

	(void)state;
	memset(&m, 0, sizeof m);
	m.type = CTL_HELLO;
	m.hello_flags = CTL_HELLO_KEY;
	for (i = 0; i < CTL_CHALLENGE_LEN; i++) {
		m.challenge[i] = (uint8_t)(0xa0 + i);
		want[CTL_HDR_LEN + 8 + i] = (uint8_t)(0xa0 + i);
	}
	memset(buf, 0xee, sizeof buf);
	assert_int_equal(ctl_encode(&m, buf), sizeof want);
	assert_bytes(buf, want, sizeof want);
	assert_int_equal(buf[sizeof want], 0xee);
	assert_int_equal(decode(buf, sizeof want, &d, err, sizeof err), 0);
	assert_int_equal(d.type, CTL_HELLO);
	assert_int_equal(d.hello_flags, CTL_HELLO_KEY);
	assert_memory_equal(d.challenge, m.challenge, CTL_CHALLENGE_LEN);
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		memcpy(buf + CTL_HDR_LEN, rows[i].b, 8);
		err[0] = '\0';
		memset(&d, 0x77, sizeof d);
		if (ctl_decode_payload(CTL_HELLO, buf + CTL_HDR_LEN, CTL_HELLO_LEN, &d,
		    err, sizeof err) != (rows[i].msg == NULL ? 0 : -1))
			MISS("hello row %zu: wrong verdict (%s)", i, err);
		else if (rows[i].msg != NULL && strcmp(err, rows[i].msg) != 0)
			MISS("hello row %zu: '%s', want '%s'", i, err, rows[i].msg);
		else if (rows[i].msg == NULL && (d.hello_flags != rows[i].flags ||
		    memcmp(d.challenge, m.challenge, CTL_CHALLENGE_LEN) != 0))
			MISS("hello row %zu: flags 0x%x or challenge lost", i,
			     d.hello_flags);
	}
	MISSED();
}

/* START and STOP: a bare header; any payload at all is refused. */
static void
test_start_stop(void **state)
{
	static const struct { uint8_t type; const char *wire; } kinds[] = {
		{ CTL_START, "GPUT\x04\x06\x00\x00" },
		{ CTL_STOP, "GPUT\x04\x07\x00\x00" },
	};
	static const size_t lens[] = { 1, 4, 40, 52, 54, 64, 72, 80, 100, 112, 120,
	    184, 256, 306, CTL_MAX_PAYLOAD };
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD], payload[CTL_MAX_PAYLOAD] = { 0 };
	struct ctl_msg m, d;
	char err[256], want[128];
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		memset(&m, 0, sizeof m);
		m.type = kinds[i].type;
		memset(buf, 0xee, sizeof buf);
		assert_int_equal(ctl_encode(&m, buf), CTL_HDR_LEN);
		assert_memory_equal(buf, kinds[i].wire, CTL_HDR_LEN);
		assert_int_equal(buf[CTL_HDR_LEN], 0xee);
		assert_int_equal(decode(buf, CTL_HDR_LEN, &d, err, sizeof err), 0);
		assert_int_equal(d.type, kinds[i].type);
		for (k = 0; k < sizeof lens / sizeof lens[0]; k++) {
			snprintf(want, sizeof want, "control message type %u has %zu "
			         "bytes, expected 0", kinds[i].type, lens[k]);
			if (ctl_decode_payload(kinds[i].type, payload, lens[k], &d, err,
			    sizeof err) != -1)
				MISS("type %u, %zu bytes: accepted", kinds[i].type, lens[k]);
			else if (strcmp(err, want) != 0)
				MISS("type %u, %zu bytes: '%s', want '%s'", kinds[i].type,
				     lens[k], err, want);
		}
	}
	MISSED();
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

/* RESULT round trips: the counts, and the stream with its window. */
static void
test_result(void **state)
{
	static const struct gput_result rows[] = {
		{ 0 },
		{ UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX,
		  UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX, RES_ALL,
		  UINT32_MAX, UINT32_MAX },
		{ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, RES_MARKER, 12, 13 },
		{ 8388608, 2048, 1500000000, 250000000, 0, 0, 0, 0, 4096, 65536, 0,
		  RES_QUEUE | RES_BUFS, 2626560, 131072 },
		{ 1000, 50, 1, 0, 47, 50, 3, 17, 0, 0, 0, RES_IDLE | RES_VERIFIED, 0, 0 },
		{ 146000, 146, 400000, 0, 146, 1000, 0, 0, 0, 0, 854,
		  RES_MARKER | RES_DROPS | RES_BUFS, 212992, 2048 },
		{ 40960, 10, 2000000, 1000, 0, 0, 0, 0, 0, 0, 0, RES_STOPPED, 0, 0 },
	};
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD];
	char err[256];
	size_t i;

	(void)state;
	static const struct { uint32_t stream; uint64_t start_ns, end_ns; } win[] = {
		{ 0, 0, 0 },                    /* the side's own */
		{ 1, 0, 1000000000 },
		{ 2, 5, 5 },                    /* an empty window */
		{ 0, 250000000, 10250000000ULL },
		{ 127, 1, 2 },
		{ STREAM_MAX, 0, UINT64_MAX },
		{ 3, UINT64_MAX, UINT64_MAX },
	};
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct ctl_msg m, d;

		memset(&m, 0, sizeof m);
		m.type = CTL_RESULT;
		m.result = rows[i];
		m.stream = win[i].stream;
		m.start_ns = win[i].start_ns;
		m.end_ns = win[i].end_ns;
		assert_int_equal(ctl_encode(&m, buf), CTL_HDR_LEN + CTL_RESULT_LEN);
		assert_int_equal(decode(buf, CTL_HDR_LEN + CTL_RESULT_LEN, &d, err,
		                 sizeof err), 0);
		assert_int_equal(d.type, CTL_RESULT);
		assert_result_equal(&d.result, &rows[i]);
		assert_int_equal(d.stream, win[i].stream);
		assert_int_equal(d.start_ns, win[i].start_ns);
		assert_int_equal(d.end_ns, win[i].end_ns);
	}
}

/* RESULT's stream (0: the side; 1..128) and window (end not before start),
 * on the wire at 100, 104 and 112: each poked on a valid RESULT. */
static void
test_result_streams(void **state)
{
#define RBAD(s) "bad RESULT message: stream " #s ", or it ends before it starts"
	static const struct { const char *name; uint32_t stream; uint64_t start_ns,
	    end_ns; const char *msg; } rows[] = {
		{ "stream 0 (the side)", 0, 0, 0, NULL },
		{ "stream 1", 1, 0, 1, NULL },
		{ "stream 128", STREAM_MAX, 7, 8, NULL },
		{ "stream 129", STREAM_MAX + 1, 0, 1, RBAD(129) },
		{ "stream 256", 256, 0, 1, RBAD(256) },
		{ "stream 2^24", 1u << 24, 0, 1, RBAD(16777216) },
		{ "stream max", UINT32_MAX, 0, 1, RBAD(4294967295) },
		{ "end one ns before start", 1, 1, 0, RBAD(1) },
		{ "end long before start", 2, UINT64_MAX, 0, RBAD(2) },
		{ "the side's end before its start", 0, 1000, 999, RBAD(0) },
		{ "end at start", 3, 1000, 1000, NULL },
		{ "both at their most", 4, UINT64_MAX, UINT64_MAX, NULL },
		{ "stream 129, end before start", 129, 2, 1, RBAD(129) },
	};
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD];
	char err[256];
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct ctl_msg m, d;
		uint8_t *p = buf + CTL_HDR_LEN;
		int rc;

		memset(&m, 0, sizeof m);
		m.type = CTL_RESULT;
		m.result.bytes = 42;
		m.result.flags = RES_STOPPED;
		ctl_encode(&m, buf);
		for (k = 0; k < 4; k++)
			p[100 + k] = (uint8_t)(rows[i].stream >> (24 - 8 * k));
		for (k = 0; k < 8; k++) {
			p[104 + k] = (uint8_t)(rows[i].start_ns >> (56 - 8 * k));
			p[112 + k] = (uint8_t)(rows[i].end_ns >> (56 - 8 * k));
		}
		err[0] = '\0';
		memset(&d, 0x77, sizeof d);
		rc = ctl_decode_payload(CTL_RESULT, p, CTL_RESULT_LEN, &d, err, sizeof err);
		if (rc != (rows[i].msg == NULL ? 0 : -1))
			MISS("%s: rc %d (%s)", rows[i].name, rc, err);
		else if (rows[i].msg != NULL && strcmp(err, rows[i].msg) != 0)
			MISS("%s: '%s', want '%s'", rows[i].name, err, rows[i].msg);
		else if (rc == 0 && (d.stream != rows[i].stream ||
		    d.start_ns != rows[i].start_ns || d.end_ns != rows[i].end_ns ||
		    d.result.bytes != 42 || d.result.flags != RES_STOPPED))
			MISS("%s: fields not kept", rows[i].name);
	}
	/* reserved flags speak before the stream */
	{
		uint8_t res[CTL_RESULT_LEN] = { [90] = 0x80, [103] = 0xff };
		struct ctl_msg d;

		assert_int_equal(ctl_decode_payload(CTL_RESULT, res, sizeof res, &d, err,
		                 sizeof err), -1);
		assert_string_equal(err, "bad RESULT message: reserved bits set");
	}
	MISSED();
#undef RBAD
}

/* RESULT: eleven u64 in declaration order, then flags, sndbuf and rcvbuf
 * u32, then stream u32 at 100, start_ns u64 at 104, end_ns u64 at 112,
 * big-endian: 120 bytes. */
static void
test_result_wire(void **state)
{
	struct ctl_msg m;
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD], want[CTL_HDR_LEN + CTL_RESULT_LEN];
	size_t i, k;

	(void)state;
	memset(&m, 0, sizeof m);
	m.type = CTL_RESULT;
	m.result = (struct gput_result){ 0x0102030405060708ULL, 0x1112131415161718ULL,
	    0x2122232425262728ULL, 0x3132333435363738ULL, 0x4142434445464748ULL,
	    0x5152535455565758ULL, 0x6162636465666768ULL, 0x7172737475767778ULL,
	    0x8182838485868788ULL, 0x9192939495969798ULL, 0xa1a2a3a4a5a6a7a8ULL,
	    0x0000005d, 0xb1b2b3b4u, 0xc1c2c3c4u };
	m.stream = 0x00000080;
	m.start_ns = 0xd1d2d3d4d5d6d7d8ULL;
	m.end_ns = 0xe1e2e3e4e5e6e7e8ULL;
	memcpy(want, "GPUT\x04\x03\x00\x78", 8);
	for (i = 0; i < 11; i++)
		for (k = 0; k < 8; k++)
			want[CTL_HDR_LEN + 8 * i + k] = (uint8_t)(0x10 * i + k + 1);
	memcpy(want + CTL_HDR_LEN + 88, "\x00\x00\x00\x5d", 4);
	memcpy(want + CTL_HDR_LEN + 92, "\xb1\xb2\xb3\xb4", 4);
	memcpy(want + CTL_HDR_LEN + 96, "\xc1\xc2\xc3\xc4", 4);
	memcpy(want + CTL_HDR_LEN + 100, "\x00\x00\x00\x80", 4);
	memcpy(want + CTL_HDR_LEN + 104, "\xd1\xd2\xd3\xd4\xd5\xd6\xd7\xd8", 8);
	memcpy(want + CTL_HDR_LEN + 112, "\xe1\xe2\xe3\xe4\xe5\xe6\xe7\xe8", 8);
	memset(buf, 0xee, sizeof buf);
	assert_int_equal(ctl_encode(&m, buf), sizeof want);
	assert_bytes(buf, want, sizeof want);
	assert_int_equal(buf[sizeof want], 0xee);
	/* and back: the stream and its window read off their offsets */
	{
		struct ctl_msg d;
		char err[256];

		assert_int_equal(decode(buf, sizeof want, &d, err, sizeof err), 0);
		assert_result_equal(&d.result, &m.result);
		assert_int_equal(d.stream, 128);
		assert_int_equal(d.start_ns, 0xd1d2d3d4d5d6d7d8ULL);
		assert_int_equal(d.end_ns, 0xe1e2e3e4e5e6e7e8ULL);
	}
}

static void
test_error_msgs(void **state)
{
	static const struct { const char *in, *want; } rows[] = {
		{ "peer said no", "peer said no" },
		{ "x", "x" },
		{ "", "?" },
		{ "tab\there\nnl", "tab?here?nl" },
		{ "\x7f\x80\xff ~", "??? ~" },
	};
	char big[300], want200[CTL_MAX_TEXT + 1], err[256];
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD];
	struct ctl_msg m, d;
	size_t i, n;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		ctl_error(&m, rows[i].in);
		assert_int_equal(m.type, CTL_ERROR);
		assert_string_equal(m.text, rows[i].want);
		n = ctl_encode(&m, buf);
		assert_int_equal(n, CTL_HDR_LEN + strlen(rows[i].want));
		assert_int_equal(buf[5], CTL_ERROR);
		assert_int_equal(buf[6] * 256 + buf[7], strlen(rows[i].want));
		assert_memory_equal(buf + CTL_HDR_LEN, rows[i].want, strlen(rows[i].want));
		assert_int_equal(decode(buf, n, &d, err, sizeof err), 0);
		assert_int_equal(d.type, CTL_ERROR);
		assert_string_equal(d.text, rows[i].want);
	}
	/* longer than CTL_MAX_TEXT: cut to exactly 200 */
	memset(big, 'e', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	memset(want200, 'e', CTL_MAX_TEXT);
	want200[CTL_MAX_TEXT] = '\0';
	ctl_error(&m, big);
	assert_string_equal(m.text, want200);
	n = ctl_encode(&m, buf);
	assert_int_equal(n, CTL_HDR_LEN + CTL_MAX_TEXT);
	assert_int_equal(decode(buf, n, &d, err, sizeof err), 0);
	assert_string_equal(d.text, want200);
}

/* ---- malformed headers and payloads -------------------------------- */

static void
test_bad_header(void **state)
{
	static const struct { uint8_t h[8]; const char *msg; } rows[] = {
		{ "GPUX\x04\x01\x00\xb8", "not a gput control message (bad magic)" },
		{ "gput\x04\x01\x00\xb8", "not a gput control message (bad magic)" },
		{ { 0, 0, 0, 0, 4, 1, 0, 216 }, "not a gput control message (bad magic)" },
		{ "GPUX\x02\x01\x00\x70", "not a gput control message (bad magic)" },
		{ "GPUT\x00\x01\x00\xb8", "control protocol version 0 not supported (this gput speaks 4)" },
		{ "GPUT\x01\x01\x00\x30", "control protocol version 1 not supported (this gput speaks 4)" },
		{ "GPUT\x01\x05\x00\x28", "control protocol version 1 not supported (this gput speaks 4)" },
		/* version 2: every message of it, at its own length */
		{ "GPUT\x02\x01\x00\x70", "control protocol version 2 not supported (this gput speaks 4)" },
		{ "GPUT\x02\x02\x00\x34", "control protocol version 2 not supported (this gput speaks 4)" },
		{ "GPUT\x02\x03\x00\x64", "control protocol version 2 not supported (this gput speaks 4)" },
		{ "GPUT\x02\x05\x00\x28", "control protocol version 2 not supported (this gput speaks 4)" },
		{ "GPUT\x02\x06\x00\x00", "control protocol version 2 not supported (this gput speaks 4)" },
		{ "GPUT\x02\x09\x00\x48", "control protocol version 2 not supported (this gput speaks 4)" },
		/* version 3: its PARAMS of 184 bytes, a READY */
		{ "GPUT\x03\x01\x00\xb8", "control protocol version 3 not supported (this gput speaks 4)" },
		{ "GPUT\x03\x02\x00\x34", "control protocol version 3 not supported (this gput speaks 4)" },
		/* version 2 with a v3 length: the version speaks first */
		{ "GPUT\x02\x01\x00\xb8", "control protocol version 2 not supported (this gput speaks 4)" },
		{ "GPUT\x02\x0b\x01\x41", "control protocol version 2 not supported (this gput speaks 4)" },
		{ "GPUT\x05\x01\x00\xd8", "control protocol version 5 not supported (this gput speaks 4)" },
		{ "GPUT\xff\x01\x00\xb8", "control protocol version 255 not supported (this gput speaks 4)" },
		{ "GPUT\x04\x00\x00\x04", "unknown control message type 0" },
		{ "GPUT\x04\x30\x00\x00", "unknown control message type 48" },
		{ "GPUT\x04\x30\x00\x70", "unknown control message type 48" },
		{ "GPUT\x04\x30\x00\x04", "unknown control message type 48" },
		{ "GPUT\x04\x31\x00\x04", "unknown control message type 49" },
		{ "GPUT\x04\x80\x00\x48", "unknown control message type 128" },
		{ "GPUT\x04\xff\x00\x04", "unknown control message type 255" },
		{ "GPUT\x04\x04\x01\x41", "control message too long (321 bytes, at most 320)" },
		{ "GPUT\x04\x02\x01\x42", "control message too long (322 bytes, at most 320)" },
		{ "GPUT\x04\x01\x10\x00", "control message too long (4096 bytes, at most 320)" },
		{ "GPUT\x04\x03\xff\xff", "control message too long (65535 bytes, at most 320)" },
	};
	static const struct { uint8_t h[8]; uint8_t type; uint16_t plen; } good[] = {
		{ "GPUT\x04\x01\x00\xd8", CTL_PARAMS, 216 },
		{ "GPUT\x04\x01\x00\x70", CTL_PARAMS, 112 },  /* the payload check refuses */
		{ "GPUT\x04\x02\x00\x34", CTL_READY, 52 },
		{ "GPUT\x04\x02\x00\x36", CTL_READY, 54 },
		{ "GPUT\x04\x02\x01\x32", CTL_READY, 306 },   /* 128 ports */
		{ "GPUT\x04\x03\x00\x78", CTL_RESULT, 120 },
		{ "GPUT\x04\x04\x01\x40", CTL_ERROR, 320 },  /* the header allows 320 */
		{ "GPUT\x04\x04\x00\x00", CTL_ERROR, 0 },    /* the payload check refuses */
		{ "GPUT\x04\x05\x00\x28", CTL_HELLO, 40 },
		{ "GPUT\x04\x06\x00\x00", CTL_START, 0 },
		{ "GPUT\x04\x07\x00\x00", CTL_STOP, 0 },
		{ "GPUT\x04\x06\x00\x04", CTL_START, 4 },    /* the payload check refuses */
		{ "GPUT\x04\x08\x00\x40", CTL_INTERVAL, 64 },
		{ "GPUT\x04\x09\x00\x50", CTL_TCPINFO, 80 },
		{ "GPUT\x04\x09\x00\x48", CTL_TCPINFO, 72 },  /* v2's: the payload check refuses */
		{ "GPUT\x04\x08\x01\x00", CTL_INTERVAL, 256 },
		{ "GPUT\x04\x09\x00\x00", CTL_TCPINFO, 0 },
		{ "GPUT\x04\x0a\x00\x70", CTL_UDPSTATS, 112 },
		{ "GPUT\x04\x0a\x00\x00", CTL_UDPSTATS, 0 }, /* the payload check refuses */
	};
	char err[256];
	uint8_t type;
	uint16_t plen;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		type = 0xaa;
		plen = 0xaaaa;
		if (ctl_decode_header(rows[i].h, &type, &plen, err, sizeof err) != -1)
			MISS("header row %zu: accepted, want '%s'", i, rows[i].msg);
		else if (strcmp(err, rows[i].msg) != 0)
			MISS("header row %zu: '%s', want '%s'", i, err, rows[i].msg);
		if (type != 0xaa || plen != 0xaaaa)
			MISS("header row %zu: rejected but stored type/length", i);
	}
	for (i = 0; i < sizeof good / sizeof good[0]; i++) {
		if (ctl_decode_header(good[i].h, &type, &plen, err, sizeof err) != 0)
			MISS("good header %zu: rejected: %s", i, err);
		else if (type != good[i].type || plen != good[i].plen)
			MISS("good header %zu: type %u length %u", i, type, plen);
	}
	MISSED();
}

static void
test_bad_length(void **state)
{
	static const struct { uint8_t type; size_t plen; const char *msg; } rows[] = {
		{ CTL_PARAMS, 215, "control message type 1 has 215 bytes, expected 216" },
		{ CTL_PARAMS, 217, "control message type 1 has 217 bytes, expected 216" },
		{ CTL_PARAMS, 112, "control message type 1 has 112 bytes, expected 216" },  /* v2 */
		{ CTL_PARAMS, 80, "control message type 1 has 80 bytes, expected 216" },  /* before --time */
		{ CTL_PARAMS, 48, "control message type 1 has 48 bytes, expected 216" },  /* v1 */
		{ CTL_PARAMS, 184, "control message type 1 has 184 bytes, expected 216" },  /* v3 */
		{ CTL_PARAMS, 0, "control message type 1 has 0 bytes, expected 216" },
		{ CTL_PARAMS, 320, "control message type 1 has 320 bytes, expected 216" },
		{ CTL_READY, 4, "control message type 2 has 4 bytes, expected 52 to 306" },      /* v1 */
		{ CTL_READY, 51, "control message type 2 has 51 bytes, expected 52 to 306" },
		{ CTL_READY, 0, "control message type 2 has 0 bytes, expected 52 to 306" },
		{ CTL_READY, 307, "control message type 2 has 307 bytes, expected 52 to 306" },
		{ CTL_READY, 308, "control message type 2 has 308 bytes, expected 52 to 306" },
		{ CTL_READY, 320, "control message type 2 has 320 bytes, expected 52 to 306" },
		/* within 52..306 the count decides ("aa": 24929 ports) */
		{ CTL_READY, 52, "bad READY message: 24929 ports in 52 bytes" },
		{ CTL_READY, 53, "bad READY message: 24929 ports in 53 bytes" },
		{ CTL_READY, 306, "bad READY message: 24929 ports in 306 bytes" },
		{ CTL_RESULT, 92, "control message type 3 has 92 bytes, expected 120" },  /* v1 */
		{ CTL_RESULT, 100, "control message type 3 has 100 bytes, expected 120" }, /* v2 */
		{ CTL_RESULT, 119, "control message type 3 has 119 bytes, expected 120" },
		{ CTL_RESULT, 121, "control message type 3 has 121 bytes, expected 120" },
		{ CTL_HELLO, 0, "control message type 5 has 0 bytes, expected 40" },
		{ CTL_HELLO, 39, "control message type 5 has 39 bytes, expected 40" },
		{ CTL_HELLO, 41, "control message type 5 has 41 bytes, expected 40" },
		{ CTL_START, 1, "control message type 6 has 1 bytes, expected 0" },
		{ CTL_START, 320, "control message type 6 has 320 bytes, expected 0" },
		{ CTL_STOP, 1, "control message type 7 has 1 bytes, expected 0" },
		{ CTL_STOP, 8, "control message type 7 has 8 bytes, expected 0" },
		{ CTL_ERROR, 0, "bad ERROR message: text of 0 bytes" },
		{ CTL_ERROR, 201, "bad ERROR message: text of 201 bytes" },
		{ CTL_ERROR, 256, "bad ERROR message: text of 256 bytes" },
		{ CTL_ERROR, 320, "bad ERROR message: text of 320 bytes" },
		{ CTL_INTERVAL, 0, "control message type 8 has 0 bytes, expected 64" },
		{ CTL_INTERVAL, 63, "control message type 8 has 63 bytes, expected 64" },
		{ CTL_INTERVAL, 65, "control message type 8 has 65 bytes, expected 64" },
		{ CTL_INTERVAL, 72, "control message type 8 has 72 bytes, expected 64" },
		{ CTL_TCPINFO, 0, "control message type 9 has 0 bytes, expected 96" },
		{ CTL_TCPINFO, 64, "control message type 9 has 64 bytes, expected 96" },
		{ CTL_TCPINFO, 72, "control message type 9 has 72 bytes, expected 96" },  /* v2 */
		{ CTL_TCPINFO, 80, "control message type 9 has 80 bytes, expected 96" },  /* v3 */
		{ CTL_TCPINFO, 95, "control message type 9 has 95 bytes, expected 96" },
		{ CTL_TCPINFO, 97, "control message type 9 has 97 bytes, expected 96" },
		{ 0, 4, "unknown control message type 0" },
		{ CTL_UDPSTATS, 0, "control message type 10 has 0 bytes, expected 144" },
		{ CTL_UDPSTATS, 64, "control message type 10 has 64 bytes, expected 144" },
		{ CTL_UDPSTATS, 112, "control message type 10 has 112 bytes, expected 144" },  /* v3 */
		{ CTL_UDPSTATS, 143, "control message type 10 has 143 bytes, expected 144" },
		{ CTL_UDPSTATS, 145, "control message type 10 has 145 bytes, expected 144" },
		{ 48, 0, "unknown control message type 48" },
		{ 48, 112, "unknown control message type 48" },
		{ 255, 4, "unknown control message type 255" },
	};
	uint8_t payload[CTL_MAX_PAYLOAD];
	struct ctl_msg m;
	char err[256];
	size_t i;

	(void)state;
	memset(payload, 'a', sizeof payload);
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		if (ctl_decode_payload(rows[i].type, payload, rows[i].plen, &m, err,
		    sizeof err) != -1)
			MISS("type %u, %zu bytes: accepted, want '%s'", rows[i].type,
			     rows[i].plen, rows[i].msg);
		else if (strcmp(err, rows[i].msg) != 0)
			MISS("type %u, %zu bytes: '%s', want '%s'", rows[i].type,
			     rows[i].plen, err, rows[i].msg);
	}
	/* 200 printable bytes is the longest ERROR */
	assert_int_equal(ctl_decode_payload(CTL_ERROR, payload, 200, &m, err, sizeof err), 0);
	assert_int_equal(strlen(m.text), 200);
	MISSED();
}

/* Raw PARAMS bytes with one byte changed. */
struct poke { size_t off; uint8_t val; const char *msg; };

static void
test_params_reserved(void **state)
{
	static const struct poke rows[] = {
		/* flags 0x10 --gso, 0x20 --discard, byte 3 --batch: known now */
		{ 2, 0x45, "bad PARAMS message: reserved bits set" },   /* flag 0x40 */
		{ 2, 0x85, "bad PARAMS message: reserved bits set" },   /* flag 0x80 */
		{ 2, 0x27, "bad PARAMS message: --discard with -c" },
		{ 3, 0x81, "bad PARAMS message: --batch out of range" },
		{ 3, 0xff, "bad PARAMS message: --batch out of range" },
		/* 40..47 data_gap_ps (0x000008123456789a), 60..63 data_burst
		 * (0x000f4240, the most): no longer reserved; test_params_pacing
		 * has the pokes that stay in range */
		{ 40, 0x01, "bad PARAMS message: gap out of range" },
		{ 40, 0x80, "bad PARAMS message: gap out of range" },
		{ 41, 0x01, "bad PARAMS message: gap out of range" },
		{ 42, 0x10, "bad PARAMS message: gap out of range" },   /* 17.6 s */
		{ 60, 0x01, "bad PARAMS message: gap out of range" },
		{ 60, 0x80, "bad PARAMS message: gap out of range" },
		{ 61, 0x10, "bad PARAMS message: gap out of range" },
		{ 63, 0x41, "bad PARAMS message: gap out of range" },   /* 1000001 */
		{ 63, 0xff, "bad PARAMS message: gap out of range" },
		{ 48, 0x80, "bad PARAMS message: time out of range" },  /* duration */
		{ 52, 0x80, "bad PARAMS message: time out of range" },  /* interval */
		{ 56, 0x80, "bad PARAMS message: time out of range" },  /* omit */
		{ 32, 0x3f, "bad PARAMS message: a timed test with a length" },
		{ 39, 0x01, "bad PARAMS message: transfer size out of range" },  /* 2^62+1 */
		{ 64, 'C', "bad PARAMS message: bad congestion control name" },
		{ 70, 'a', "bad PARAMS message: bad congestion control name" },
		{ 79, 'x', "bad PARAMS message: bad congestion control name" },
		{ 69, ',', "bad PARAMS message: bad congestion control name" },  /* "cubic," */
		{ 80, 'x', "bad PARAMS message: bad congestion control name" },
		{ 127, 'x', "bad PARAMS message: bad congestion control name" },
		{ 127, 0x01, "bad PARAMS message: bad congestion control name" },
		/* 128..129 streams (115): 0 and above 128 refused */
		{ 129, 0x00, "bad PARAMS message: stream count out of range" },
		{ 129, 0x81, "bad PARAMS message: stream count out of range" },
		{ 129, 0xff, "bad PARAMS message: stream count out of range" },
		{ 128, 0x01, "bad PARAMS message: stream count out of range" },
		{ 128, 0x80, "bad PARAMS message: stream count out of range" },
		/* 130 flags u16 (1: multicast, the rest reserved), 132..151
		 * the group: zero without the flag */
		{ 130, 0x01, "bad PARAMS message: reserved bits set" },
		{ 130, 0x80, "bad PARAMS message: reserved bits set" },
		{ 131, 0x01, "bad PARAMS message: multicast group of unknown family" },
		{ 131, 0x02, "bad PARAMS message: reserved bits set" },
		{ 132, 0x01, "bad PARAMS message: reserved bits set" },
		{ 140, 0x10, "bad PARAMS message: reserved bits set" },
		{ 150, 0xff, "bad PARAMS message: reserved bits set" },
		{ 151, 0x01, "bad PARAMS message: reserved bits set" },
		{ 151, 0x80, "bad PARAMS message: reserved bits set" },
		{ 0, 0x02, "bad PARAMS message: unknown protocol" },
		{ 0, 0xff, "bad PARAMS message: unknown protocol" },
		{ 1, 0x02, "bad PARAMS message: unknown role" },
	};
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD];
	struct ctl_msg m = params_msg(), d;
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		ctl_encode(&m, buf);
		buf[CTL_HDR_LEN + rows[i].off] = rows[i].val;
		if (ctl_decode_payload(CTL_PARAMS, buf + CTL_HDR_LEN, CTL_PARAMS_LEN, &d,
		    err, sizeof err) != -1)
			MISS("offset %zu = 0x%02x: accepted", rows[i].off, rows[i].val);
		else if (strcmp(err, rows[i].msg) != 0)
			MISS("offset %zu = 0x%02x: '%s', want '%s'", rows[i].off,
			     rows[i].val, err, rows[i].msg);
	}
	/* every byte 130..183 on its own (the multicast group's and the
	 * extensions', zero without their flags), and with a bad stream count
	 * too */
	for (i = 130; i < CTL_PARAMS_SIGNED; i++) {
		if (i >= CTL_PX_AFFINITY && i < CTL_PX_AFFINITY + 8)
			continue;       /* --affinity: any set (unit_affinity) */
		ctl_encode(&m, buf);
		buf[CTL_HDR_LEN + i] = 0x04;
		/* 155 = 4: xflags CTL_XF_ZEROCOPY, known, and refused for this
		 * UDP test (unit_zerocopy) */
		if (ctl_decode_payload(CTL_PARAMS, buf + CTL_HDR_LEN, CTL_PARAMS_LEN, &d,
		    err, sizeof err) != -1 || strcmp(err, i == CTL_PX_XFLAGS + 3 ?
		    "bad PARAMS message: --zerocopy for UDP" :
		    "bad PARAMS message: reserved bits set") != 0)
			MISS("reserved offset %zu: not refused as reserved (%s)", i, err);
		buf[CTL_HDR_LEN + 129] = 0;
		if (ctl_decode_payload(CTL_PARAMS, buf + CTL_HDR_LEN, CTL_PARAMS_LEN, &d,
		    err, sizeof err) != -1)
			MISS("reserved offset %zu, streams 0: accepted", i);
	}
	/* xflags CTL_XF_ECN (--ecn): known, carried, nothing else with it */
	ctl_encode(&m, buf);
	buf[CTL_HDR_LEN + CTL_PX_XFLAGS + 3] = CTL_XF_ECN;
	assert_int_equal(ctl_decode_payload(CTL_PARAMS, buf + CTL_HDR_LEN,
	                 CTL_PARAMS_LEN, &d, err, sizeof err), 0);
	assert_int_equal(d.params.xflags, CTL_XF_ECN);
	m.params.xflags = CTL_XF_ECN;
	memset(buf, 0, sizeof buf);
	ctl_encode(&m, buf);
	assert_memory_equal(buf + CTL_HDR_LEN + CTL_PX_XFLAGS, "\0\0\0\x01", 4);
	m.params.xflags = 0;
	/* xflags CTL_XF_COOKIE (the client echoes cookies): known for this UDP
	 * test, refused for TCP */
	ctl_encode(&m, buf);
	buf[CTL_HDR_LEN + CTL_PX_XFLAGS + 3] = CTL_XF_COOKIE;
	assert_int_equal(ctl_decode_payload(CTL_PARAMS, buf + CTL_HDR_LEN,
	                 CTL_PARAMS_LEN, &d, err, sizeof err), 0);
	assert_int_equal(d.params.xflags, CTL_XF_COOKIE);
	buf[CTL_HDR_LEN] = PROTO_TCP;
	assert_int_equal(ctl_decode_payload(CTL_PARAMS, buf + CTL_HDR_LEN,
	                 CTL_PARAMS_LEN, &d, err, sizeof err), -1);
	assert_string_equal(err, "bad PARAMS message: cookie echo for TCP");
	/* the MAC at 184..215 is any 32 bytes */
	for (i = CTL_PARAMS_SIGNED; i < CTL_PARAMS_LEN; i++) {
		ctl_encode(&m, buf);
		buf[CTL_HDR_LEN + i] ^= 0xff;
		if (ctl_decode_payload(CTL_PARAMS, buf + CTL_HDR_LEN, CTL_PARAMS_LEN, &d,
		    err, sizeof err) != 0)
			MISS("MAC byte %zu: rejected: %s", i, err);
		else if (d.mac[i - CTL_PARAMS_SIGNED] != buf[CTL_HDR_LEN + i] ||
		    d.mac[i - CTL_PARAMS_SIGNED] == m.mac[i - CTL_PARAMS_SIGNED])
			MISS("MAC byte %zu: not kept", i);
	}
	MISSED();
}

/* PARAMS with CTL_XF_LATENCY: 156 interval_us, 160 idle_ms, 164 zero, each
 * in range; without the flag the 12 bytes are reserved (test_params_reserved). */
static void
test_params_latency(void **state)
{
	static const uint8_t want[16] = { 0, 0, 0, 2, 0, 0, 0x27, 0x10,
	    0, 0, 0x03, 0xe8, 0, 0, 0, 0 };
	static const struct { uint32_t us, ms; const char *msg; } rows[] = {
		{ 1000, 0, NULL }, { 1000000, 60000, NULL }, { 10000, 1000, NULL },
		{ 999, 0, "bad PARAMS message: latency probe interval out of range" },
		{ 0, 0, "bad PARAMS message: latency probe interval out of range" },
		{ 1000001, 0, "bad PARAMS message: latency probe interval out of range" },
		{ 10000, 60001, "bad PARAMS message: latency idle phase out of range" },
		{ 10000, 0xffffffffu, "bad PARAMS message: latency idle phase out of range" },
	};
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD];
	struct ctl_msg m = params_msg(), d;
	char err[256];
	size_t i;

	(void)state;
	m.params.xflags = CTL_XF_LATENCY;
	m.params.lat_interval_us = 10000;
	m.params.lat_idle_ms = 1000;
	assert_int_equal(ctl_encode(&m, buf), CTL_HDR_LEN + CTL_PARAMS_LEN);
	assert_bytes(buf + CTL_HDR_LEN + 152, want, sizeof want);
	assert_int_equal(decode(buf, CTL_HDR_LEN + CTL_PARAMS_LEN, &d, err,
	    sizeof err), 0);
	assert_int_equal(d.params.xflags, CTL_XF_LATENCY);
	assert_int_equal(d.params.lat_interval_us, 10000);
	assert_int_equal(d.params.lat_idle_ms, 1000);
	assert_params_equal(&d.params, &m.params);
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		m.params.lat_interval_us = rows[i].us;
		m.params.lat_idle_ms = rows[i].ms;
		ctl_encode(&m, buf);
		if (ctl_decode_payload(CTL_PARAMS, buf + CTL_HDR_LEN, CTL_PARAMS_LEN,
		    &d, err, sizeof err) != (rows[i].msg ? -1 : 0))
			MISS("interval %u us, idle %u ms: %s", rows[i].us, rows[i].ms,
			     rows[i].msg ? "accepted" : err);
		else if (rows[i].msg && strcmp(err, rows[i].msg) != 0)
			MISS("interval %u us: '%s', want '%s'", rows[i].us, err,
			     rows[i].msg);
	}
	m.params.lat_interval_us = 10000;
	m.params.lat_idle_ms = 1000;
	for (i = 164; i < 168; i++) {           /* the range's last u32: zero */
		ctl_encode(&m, buf);
		buf[CTL_HDR_LEN + i] = 1;
		if (ctl_decode_payload(CTL_PARAMS, buf + CTL_HDR_LEN, CTL_PARAMS_LEN,
		    &d, err, sizeof err) != -1 ||
		    strcmp(err, "bad PARAMS message: reserved bits set") != 0)
			MISS("latency byte %zu: not refused as reserved (%s)", i, err);
	}
	for (i = CTL_PX_HARDEN; i < CTL_PARAMS_SIGNED; i++) {  /* reserved */
		ctl_encode(&m, buf);
		buf[CTL_HDR_LEN + i] = 1;
		if (ctl_decode_payload(CTL_PARAMS, buf + CTL_HDR_LEN, CTL_PARAMS_LEN,
		    &d, err, sizeof err) != -1)
			MISS("byte %zu with latency: accepted", i);
	}
	ctl_encode(&m, buf);
	buf[CTL_HDR_LEN + 131] = 1;             /* multicast: nothing echoes */
	assert_int_equal(ctl_decode_payload(CTL_PARAMS, buf + CTL_HDR_LEN,
	    CTL_PARAMS_LEN, &d, err, sizeof err), -1);
	assert_string_equal(err, "bad PARAMS message: latency probes with multicast");
	m.params.xflags = CTL_XF_LATENCY | 0x10u;  /* an unknown bit */
	ctl_encode(&m, buf);
	assert_int_equal(ctl_decode_payload(CTL_PARAMS, buf + CTL_HDR_LEN,
	    CTL_PARAMS_LEN, &d, err, sizeof err), -1);
	assert_string_equal(err, "bad PARAMS message: reserved bits set");
	MISSED();
}

/* ECHOPORT (13) and ECHOSTATS (14): byte by byte, round trip, and every
 * malformed case; 11, 12, 15 and 16 stay unknown. */
static void
test_echo_msgs(void **state)
{
	static const uint8_t port_wire[] = { 'G', 'P', 'U', 'T', 4, 13, 0, 4,
	    0x9c, 0x41, 0, 0 };
	struct ctl_msg m = { .type = CTL_ECHOPORT, .echo_port = 40001 }, d;
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD], hdr[CTL_HDR_LEN];
	uint8_t type;
	uint16_t plen;
	char err[256];
	size_t i;

	(void)state;
	assert_int_equal(ctl_encode(&m, buf), sizeof port_wire);
	assert_bytes(buf, port_wire, sizeof port_wire);
	assert_int_equal(decode(buf, sizeof port_wire, &d, err, sizeof err), 0);
	assert_int_equal(d.type, CTL_ECHOPORT);
	assert_int_equal(d.echo_port, 40001);
	buf[8] = buf[9] = 0;
	assert_int_equal(decode(buf, sizeof port_wire, &d, err, sizeof err), -1);
	assert_string_equal(err, "bad ECHOPORT message: port 0");
	memcpy(buf, port_wire, sizeof port_wire);
	buf[11] = 1;
	assert_int_equal(decode(buf, sizeof port_wire, &d, err, sizeof err), -1);
	assert_string_equal(err, "bad ECHOPORT message: reserved bits set");
	assert_int_equal(ctl_decode_payload(CTL_ECHOPORT, port_wire + 8, 3, &d,
	    err, sizeof err), -1);
	assert_string_equal(err, "control message type 13 has 3 bytes, expected 4");
	assert_int_equal(ctl_decode_payload(CTL_ECHOPORT, port_wire + 8, 5, &d,
	    err, sizeof err), -1);

	memset(&m, 0, sizeof m);
	m.type = CTL_ECHOSTATS;
	m.echo = (struct echo_stats){ .received = 0x0102030405060708ull + 15,
	    .echoed = 0x0102030405060708ull, .over_rate = 1, .strangers = 2,
	    .malformed = 4, .failed = 8 };
	assert_int_equal(ctl_encode(&m, buf), CTL_HDR_LEN + CTL_ECHOSTATS_LEN);
	assert_int_equal(buf[5], 14);
	assert_int_equal(buf[7], 48);
	assert_int_equal(buf[CTL_HDR_LEN + 7], 0x08 + 15);
	assert_int_equal(buf[CTL_HDR_LEN + 15], 0x08);
	assert_int_equal(buf[CTL_HDR_LEN + 47], 8);
	assert_int_equal(decode(buf, CTL_HDR_LEN + CTL_ECHOSTATS_LEN, &d, err,
	    sizeof err), 0);
	assert_memory_equal(&d.echo, &m.echo, sizeof m.echo);
	for (i = 0; i < 6; i++) {               /* any count off by one */
		ctl_encode(&m, buf);
		buf[CTL_HDR_LEN + 8 * i + 7] ^= 0x10;
		if (decode(buf, CTL_HDR_LEN + CTL_ECHOSTATS_LEN, &d, err,
		    sizeof err) != -1 || strcmp(err, "bad ECHOSTATS message: counts "
		    "that do not add up") != 0)
			MISS("ECHOSTATS count %zu changed: accepted", i);
	}
	m.echo = (struct echo_stats){ .received = 1, .echoed = UINT64_MAX,
	    .over_rate = 2 };                   /* a sum that wraps to 1 */
	ctl_encode(&m, buf);
	assert_int_equal(decode(buf, CTL_HDR_LEN + CTL_ECHOSTATS_LEN, &d, err,
	    sizeof err), -1);
	for (i = 11; i <= 16; i++) {
		memcpy(hdr, "GPUT\x04\x00\x00\x00", CTL_HDR_LEN);
		hdr[5] = (uint8_t)i;
		if ((ctl_decode_header(hdr, &type, &plen, err, sizeof err) == 0) !=
		    (i == 13 || i == 14))
			MISS("type %zu: %s", i, err);
	}
	MISSED();
}

/* The pokes at 40..47 and 60..63 that stay in range: they were reserved
 * (v1's UDP port, zero), and now change the pacing fields, nothing else. */
static void
test_params_pacing(void **state)
{
	static const struct { size_t off; uint8_t val; uint64_t gap_ps;
	    uint32_t burst; } rows[] = {
		{ 40, 0x00, 0x000008123456789aULL, 1000000 },   /* unchanged */
		{ 42, 0x01, 0x000001123456789aULL, 1000000 },
		{ 42, 0x00, 0x000000123456789aULL, 1000000 },
		{ 43, 0x01, 0x000008013456789aULL, 1000000 },
		{ 43, 0xff, 0x000008ff3456789aULL, 1000000 },   /* 9.89 s */
		{ 47, 0x00, 0x0000081234567800ULL, 1000000 },
		{ 47, 0xff, 0x00000812345678ffULL, 1000000 },
		{ 61, 0x01, 0x000008123456789aULL, 0x00014240 },
		{ 61, 0x00, 0x000008123456789aULL, 0x00004240 },
		{ 62, 0x01, 0x000008123456789aULL, 0x000f0140 },
		{ 63, 0x01, 0x000008123456789aULL, 0x000f4201 },
		{ 63, 0x40, 0x000008123456789aULL, 1000000 },
	};
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD];
	struct ctl_msg m = params_msg(), d;
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct xfer_params want = m.params;

		ctl_encode(&m, buf);
		buf[CTL_HDR_LEN + rows[i].off] = rows[i].val;
		want.data_gap_ps = rows[i].gap_ps;
		want.data_burst = rows[i].burst;
		if (ctl_decode_payload(CTL_PARAMS, buf + CTL_HDR_LEN, CTL_PARAMS_LEN, &d,
		    err, sizeof err) != 0) {
			MISS("offset %zu = 0x%02x: rejected: %s", rows[i].off,
			     rows[i].val, err);
			continue;
		}
		if (d.params.data_gap_ps != rows[i].gap_ps ||
		    d.params.data_burst != rows[i].burst)
			MISS("offset %zu = 0x%02x: gap %llu ps burst %u, want %llu, %u",
			     rows[i].off, rows[i].val,
			     (unsigned long long)d.params.data_gap_ps, d.params.data_burst,
			     (unsigned long long)rows[i].gap_ps, rows[i].burst);
		assert_params_equal(&d.params, &want);
	}
	MISSED();
}

/* params_invalid, field by field: a valid base, one field changed. */
struct prow {
	const char *name;
	struct xfer_params x;
	const char *msg;        /* NULL: accepted */
};

#pragma GCC diagnostic ignored "-Woverride-init"
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Winitializer-overrides"
#define TCPR(...) { .proto = PROTO_TCP, .role = ROLE_RECV, .len = 4096, .count = 2048, \
	.data_len = 4096, .data_bytes = 2048 * 4096, .streams = 1, __VA_ARGS__ }
#define TCPS(...) TCPR(.role = ROLE_SEND, __VA_ARGS__)
#define UDPR(...) TCPR(.proto = PROTO_UDP, __VA_ARGS__)
#define BADP(w) "bad PARAMS message: " w

static const struct prow prows[] = {
	{ "tcp receiver", TCPR(), NULL },
	{ "tcp sender", TCPS(), NULL },
	{ "udp receiver", UDPR(), NULL },
	{ "udp sender", UDPR(.role = ROLE_SEND), NULL },
	{ "len max", TCPR(.len = XFER_TCP_MAX), NULL },
	{ "len 0", TCPR(.len = 0), BADP("buffer length out of range") },
	{ "len max+1", TCPR(.len = XFER_TCP_MAX + 1), BADP("buffer length out of range") },
	{ "udp len above a datagram (receiver)", UDPR(.len = 70000), NULL },
	{ "data_len max tcp", TCPR(.data_len = XFER_TCP_MAX), NULL },
	{ "data_len 0", TCPR(.data_len = 0), BADP("sender's buffer length out of range") },
	{ "data_len tcp max+1", TCPR(.data_len = XFER_TCP_MAX + 1),
	  BADP("sender's buffer length out of range") },
	{ "data_len udp max", UDPR(.data_len = XFER_UDP_MAX), NULL },
	{ "data_len udp max+1", UDPR(.data_len = XFER_UDP_MAX + 1),
	  BADP("sender's buffer length out of range") },
	{ "udp sender at the UDP max", UDPR(.role = ROLE_SEND, .len = XFER_UDP_MAX,
	  .data_len = XFER_UDP_MAX), NULL },
	{ "sender len != data_len", TCPS(.len = 4095),
	  BADP("sender's buffer length disagrees with its stream") },
	{ "receiver len != data_len", TCPR(.len = 4095), NULL },
	{ "count 0", TCPR(.count = 0), BADP("transfer size out of range") },
	{ "count max", TCPR(.count = UINT64_MAX), NULL },
	{ "data_bytes 0", TCPR(.data_bytes = 0), BADP("transfer size out of range") },
	{ "data_bytes 2^62", TCPR(.data_bytes = P62), NULL },
	{ "data_bytes 2^62+1", TCPR(.data_bytes = P62 + 1), BADP("transfer size out of range") },
	{ "data_bytes max", TCPR(.data_bytes = UINT64_MAX), BADP("transfer size out of range") },
	{ "window 2^30", TCPR(.window = 1u << 30), NULL },
	{ "window 2^30+1", TCPR(.window = (1u << 30) + 1), BADP("socket buffer size out of range") },
	{ "window max", TCPR(.window = UINT32_MAX), BADP("socket buffer size out of range") },
	{ "gap 10 s", TCPR(.gap_us = 10000000), NULL },
	{ "gap 10 s + 1", TCPR(.gap_us = 10000001), BADP("gap out of range") },
	{ "data gap 1 ps", UDPR(.data_gap_ps = 1), NULL },
	{ "data gap 10 s", TCPR(.data_gap_ps = XFER_MAX_GAP_PS), NULL },
	{ "data gap 10 s + 1 ps", TCPR(.data_gap_ps = XFER_MAX_GAP_PS + 1),
	  BADP("gap out of range") },
	{ "data gap 2^32 us (v1's u32 would wrap)", UDPR(.data_gap_ps =
	  4294967296000000ULL), BADP("gap out of range") },
	{ "data gap max", TCPR(.data_gap_ps = UINT64_MAX), BADP("gap out of range") },
	{ "burst 0", UDPR(.data_gap_ps = 1000000, .data_burst = 0), NULL },
	{ "burst 1", UDPR(.data_gap_ps = 1000000, .data_burst = 1), NULL },
	{ "burst max", UDPR(.data_gap_ps = 1000000, .data_burst = XFER_MAX_BURST), NULL },
	{ "burst max + 1", UDPR(.data_gap_ps = 1000000, .data_burst = XFER_MAX_BURST + 1),
	  BADP("gap out of range") },
	{ "burst u32 max", UDPR(.data_burst = UINT32_MAX), BADP("gap out of range") },
	{ "burst, unpaced", UDPR(.data_burst = 64), NULL },
	{ "gap and burst at their most", UDPR(.data_gap_ps = XFER_MAX_GAP_PS,
	  .data_burst = XFER_MAX_BURST, .gap_us = 10000000), NULL },
	{ "burst max + 1, bad time", UDPR(.data_burst = XFER_MAX_BURST + 1,
	  .duration_ms = CTL_MAX_MS + 1, .data_bytes = P62), BADP("gap out of range") },
	{ "proto 2", TCPR(.proto = 2), BADP("unknown protocol") },
	{ "role 2", TCPR(.role = 2), BADP("unknown role") },
	/* --time, --interval, --omit */
	{ "timed", TCPR(.duration_ms = 10000, .data_bytes = P62), NULL },
	{ "timed sender", TCPS(.duration_ms = 1, .data_bytes = P62), NULL },
	{ "timed udp", UDPR(.duration_ms = 10000, .data_bytes = P62), NULL },
	{ "timed a day", TCPR(.duration_ms = CTL_MAX_MS, .data_bytes = P62), NULL },
	{ "timed a day + 1 ms", TCPR(.duration_ms = CTL_MAX_MS + 1, .data_bytes = P62),
	  BADP("time out of range") },
	{ "timed max", TCPR(.duration_ms = UINT32_MAX, .data_bytes = P62),
	  BADP("time out of range") },
	{ "timed with a length", TCPR(.duration_ms = 10000),
	  BADP("a timed test with a length") },
	{ "timed, 2^62 - 1", TCPR(.duration_ms = 10000, .data_bytes = P62 - 1),
	  BADP("a timed test with a length") },
	{ "timed, data_bytes 1", TCPR(.duration_ms = 10000, .data_bytes = 1),
	  BADP("a timed test with a length") },
	{ "timed, data_bytes 0", TCPR(.duration_ms = 10000, .data_bytes = 0),
	  BADP("transfer size out of range") },
	{ "timed too long with a length", TCPR(.duration_ms = CTL_MAX_MS + 1),
	  BADP("time out of range") },
	{ "count mode, 2^62", TCPR(.data_bytes = P62, .interval_ms = 1000), NULL },
	{ "interval 100 ms", TCPR(.interval_ms = CTL_MIN_INTERVAL_MS), NULL },
	{ "interval 99 ms", TCPR(.interval_ms = CTL_MIN_INTERVAL_MS - 1),
	  BADP("time out of range") },
	{ "interval 1 ms", TCPR(.interval_ms = 1), BADP("time out of range") },
	{ "interval a day", TCPR(.interval_ms = CTL_MAX_MS), NULL },
	{ "interval a day + 1 ms", TCPR(.interval_ms = CTL_MAX_MS + 1),
	  BADP("time out of range") },
	{ "interval max", TCPR(.interval_ms = UINT32_MAX), BADP("time out of range") },
	{ "omit 1 ms", TCPR(.omit_ms = 1), NULL },
	{ "omit a day", TCPR(.omit_ms = CTL_MAX_MS), NULL },
	{ "omit a day + 1 ms", TCPR(.omit_ms = CTL_MAX_MS + 1), BADP("time out of range") },
	{ "omit max", TCPR(.omit_ms = UINT32_MAX), BADP("time out of range") },
	{ "timed, every one", TCPS(.duration_ms = 60000, .data_bytes = P62,
	  .interval_ms = 1000, .omit_ms = 5000, .cc = "bbr"), NULL },
	/* --cc (the whole table of names: test_cc_names) */
	{ "cc cubic", TCPR(.cc = "cubic"), NULL },
	{ "cc 15 bytes", TCPR(.cc = "abcdefghijklmno"), NULL },
	{ "cc upper case", TCPR(.cc = "Cubic"), BADP("bad congestion control name") },
	{ "cc with a dot", TCPR(.cc = "tcp.cubic"), BADP("bad congestion control name") },
	{ "bad cc, bad time", TCPR(.interval_ms = 1, .cc = "X"), BADP("time out of range") },
	/* --cc lists (the wire's own cases: test_cc_lists) */
	{ "cc list", TCPR(.cc = "cubic,bbr"), NULL },
	{ "cc list of three", TCPS(.cc = "cubic,bbr,reno", .streams = 3), NULL },
	{ "cc list, more names than streams", TCPR(.cc = "cubic,bbr,reno"), NULL },
	{ "cc list, an empty first name", TCPR(.cc = ",cubic"), BADP("bad congestion control name") },
	{ "cc list, an empty middle name", TCPR(.cc = "cubic,,bbr"), BADP("bad congestion control name") },
	{ "cc list, two commas at the end", TCPR(.cc = "cubic,,"), BADP("bad congestion control name") },
	{ "cc list, a comma at the end", TCPR(.cc = "cubic,"), BADP("bad congestion control name") },
	{ "cc list, a comma alone", TCPR(.cc = ","), BADP("bad congestion control name") },
	{ "cc list, a 16-byte name", TCPR(.cc = "cubic,abcdefghijklmnop"),
	  BADP("bad congestion control name") },
	{ "cc, a 16-byte name alone", TCPR(.cc = "abcdefghijklmnop"),
	  BADP("bad congestion control name") },
	{ "cc list, upper case", TCPR(.cc = "cubic,BBR"), BADP("bad congestion control name") },
	{ "cc list, a space", TCPR(.cc = "cubic, bbr"), BADP("bad congestion control name") },
	/* -P: streams */
	{ "streams 0", TCPR(.streams = 0), BADP("stream count out of range") },
	{ "streams 1", TCPR(.streams = 1), NULL },
	{ "streams 2", TCPS(.streams = 2), NULL },
	{ "streams 128", TCPR(.streams = STREAM_MAX), NULL },
	{ "streams 128, udp", UDPR(.streams = STREAM_MAX), NULL },
	{ "streams 129", TCPR(.streams = STREAM_MAX + 1), BADP("stream count out of range") },
	{ "streams 256", TCPR(.streams = 256), BADP("stream count out of range") },
	{ "streams max", TCPR(.streams = UINT16_MAX), BADP("stream count out of range") },
	{ "streams 0, bad cc", TCPR(.streams = 0, .cc = ",,"), BADP("bad congestion control name") },
	{ "streams 0, bad time", TCPR(.streams = 0, .omit_ms = UINT32_MAX),
	  BADP("time out of range") },
};

static void
test_params_invalid(void **state)
{
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD];
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof prows / sizeof prows[0]; i++) {
		const struct prow *r = &prows[i];
		struct ctl_msg m, d;
		int rc;

		memset(&m, 0, sizeof m);
		m.type = CTL_PARAMS;
		m.params = r->x;
		ctl_encode(&m, buf);
		err[0] = '\0';
		rc = ctl_decode_payload(CTL_PARAMS, buf + CTL_HDR_LEN, CTL_PARAMS_LEN,
		    &d, err, sizeof err);
		if (r->msg == NULL && rc != 0)
			MISS("%s: rejected: %s", r->name, err);
		else if (r->msg != NULL && rc != -1)
			MISS("%s: accepted, want '%s'", r->name, r->msg);
		else if (r->msg != NULL && strcmp(err, r->msg) != 0)
			MISS("%s: '%s', want '%s'", r->name, err, r->msg);
		if (rc == 0)
			assert_params_equal(&d.params, &r->x);
	}
	MISSED();
}

static void
test_other_payloads_invalid(void **state)
{
	static const struct { uint8_t type; uint8_t p[CTL_RESULT_LEN]; size_t plen;
	    const char *msg; } rows[] = {
		{ CTL_READY, { 0, 0, 0, 0 }, 52, "bad READY message: 0 ports in 52 bytes" },
		{ CTL_READY, { 0, 0, 0, 0, [4] = 1, [51] = 1 }, 52,
		  "bad READY message: 0 ports in 52 bytes" },
		{ CTL_READY, { 0, 0, 0, 1 }, 52, "bad READY message: port 0" },
		{ CTL_READY, { 0x13, 0xad, 0, 2 }, 52, "bad READY message: 2 ports in 52 bytes" },
		{ CTL_READY, { 0x13, 0xad, 0x80, 0 }, 52,
		  "bad READY message: 32768 ports in 52 bytes" },
		{ CTL_READY, { 0x13, 0xad, 0, 2 }, 54, "bad READY message: port 0" },
		{ CTL_READY, { 0, 0, 0, 2, [52] = 0x13 }, 54, "bad READY message: port 0" },
		{ CTL_READY, { 0x13, 0xad, 0, 2, [53] = 0x01 }, 53,
		  "bad READY message: 2 ports in 53 bytes" },
		{ CTL_RESULT, { [90] = 0x80 }, 120, "bad RESULT message: reserved bits set" },
		{ CTL_RESULT, { [90] = 0x02 }, 120, "bad RESULT message: reserved bits set" },
		{ CTL_RESULT, { [88] = 0x80 }, 120, "bad RESULT message: reserved bits set" },
		{ CTL_RESULT, { [90] = 0x01 }, 120, "bad RESULT message: reserved bits set" },
		{ CTL_RESULT, { [89] = 0x01, [91] = 0x7f }, 120,
		  "bad RESULT message: reserved bits set" },
		{ CTL_RESULT, { [103] = 0x81 }, 120,
		  "bad RESULT message: stream 129, or it ends before it starts" },
		{ CTL_RESULT, { [100] = 0x01 }, 120,
		  "bad RESULT message: stream 16777216, or it ends before it starts" },
		{ CTL_RESULT, { [111] = 0x01 }, 120,
		  "bad RESULT message: stream 0, or it ends before it starts" },
		{ CTL_RESULT, { [103] = 0x01, [104] = 0x80, [112] = 0x7f }, 120,
		  "bad RESULT message: stream 1, or it ends before it starts" },
		{ CTL_ERROR, "bad\nline", 8, "bad ERROR message: unprintable text" },
		{ CTL_ERROR, "tab\there", 8, "bad ERROR message: unprintable text" },
		{ CTL_ERROR, "del\x7f", 4, "bad ERROR message: unprintable text" },
		{ CTL_ERROR, "hi\x80", 3, "bad ERROR message: unprintable text" },
		{ CTL_ERROR, "nul\0x", 5, "bad ERROR message: unprintable text" },
	};
	struct ctl_msg m;
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		if (ctl_decode_payload(rows[i].type, rows[i].p, rows[i].plen, &m, err,
		    sizeof err) != -1)
			MISS("row %zu (type %u): accepted", i, rows[i].type);
		else if (strcmp(err, rows[i].msg) != 0)
			MISS("row %zu (type %u): '%s', want '%s'", i, rows[i].type, err,
			     rows[i].msg);
	}
	/* the edges that are fine: every RESULT flag (with the v2 ones,
	 * RES_STOPPED and RES_BUFS, on their own), any buffer size, stream 0
	 * with an empty window, " " and "~" */
	{
		uint8_t res[CTL_RESULT_LEN] = { [91] = RES_ALL, [92] = 0xff, [95] = 0xfe,
		    [96] = 0x80, [99] = 0x01 };
		assert_int_equal(ctl_decode_payload(CTL_RESULT, res, sizeof res, &m, err,
		                 sizeof err), 0);
		assert_int_equal(m.result.flags, RES_ALL);
		assert_int_equal(m.result.sndbuf, 0xff0000feu);
		assert_int_equal(m.result.rcvbuf, 0x80000001u);
		res[91] = RES_STOPPED;
		assert_int_equal(ctl_decode_payload(CTL_RESULT, res, sizeof res, &m, err,
		                 sizeof err), 0);
		assert_int_equal(m.result.flags, RES_STOPPED);
		res[91] = RES_BUFS;
		assert_int_equal(ctl_decode_payload(CTL_RESULT, res, sizeof res, &m, err,
		                 sizeof err), 0);
		assert_int_equal(m.result.flags, RES_BUFS);
		assert_int_equal(ctl_decode_payload(CTL_ERROR, (const uint8_t *)" ~", 2, &m,
		                 err, sizeof err), 0);
		assert_string_equal(m.text, " ~");
	}
	MISSED();
}

/* ---- congestion control names, INTERVAL, TCPINFO ------------------ */

/* The 16-byte congestion control name, as TCPINFO carries it at 0 and a
 * PARAMS list of one name at 64 (the list's other 48 bytes zero):
 * NUL-terminated within the 16 bytes, NUL-padded, [a-z0-9_-]. */
static void
test_cc_names(void **state)
{
	static const struct { const char *name; uint8_t cc[16]; int ok; } rows[] = {
		{ "cubic", "cubic", 1 },
		{ "bbr", "bbr", 1 },
		{ "reno", "reno", 1 },
		{ "empty: the default", "", 1 },
		{ "15 bytes", "abcdefghijklmno", 1 },
		{ "digits, _ and -", "a_b-c0123456789", 1 },
		{ "one byte", "z", 1 },
		{ "16 bytes, no NUL", { 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j',
		  'k', 'l', 'm', 'n', 'o', 'p' }, 0 },
		{ "upper case", "Cubic", 0 },
		{ "all upper case", "BBR", 0 },
		{ "a space", "bb r", 0 },
		{ "a leading space", " bbr", 0 },
		{ "a dot", "tcp.bbr", 0 },
		{ "a slash", "../bbr", 0 },
		{ "a newline", "bbr\n", 0 },
		{ "a high byte", "bbr\xe9", 0 },
		{ "a byte after the NUL", { 'b', 'b', 'r', 0, 'x' }, 0 },
		{ "the last byte after the NUL", { 'b', 'b', 'r', [15] = 'x' }, 0 },
		{ "a NUL first, then a name", { 0, 'b', 'b', 'r' }, 0 },
		{ "15 bytes, then not a NUL", { 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i',
		  'j', 'k', 'l', 'm', 'n', 'o', 0x01 }, 0 },
	};
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD];
	struct ctl_msg d;
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		uint8_t ti[CTL_TCPINFO_LEN] = { 0 };
		int rc;

		/* PARAMS: the valid params_wire with the name at 64 */
		memcpy(buf, params_wire, sizeof params_wire);
		memcpy(buf + CTL_HDR_LEN + 64, rows[i].cc, 16);
		err[0] = '\0';
		memset(&d, 0x77, sizeof d);
		rc = ctl_decode_payload(CTL_PARAMS, buf + CTL_HDR_LEN, CTL_PARAMS_LEN,
		    &d, err, sizeof err);
		if (rc != (rows[i].ok ? 0 : -1))
			MISS("PARAMS, %s: rc %d (%s)", rows[i].name, rc, err);
		else if (!rows[i].ok && strcmp(err, "bad PARAMS message: bad "
		    "congestion control name") != 0)
			MISS("PARAMS, %s: '%s'", rows[i].name, err);
		else if (rows[i].ok && memcmp(d.params.cc, rows[i].cc, 16) != 0)
			MISS("PARAMS, %s: name not kept", rows[i].name);
		/* TCPINFO: the name at 0, stream 1, the rest zero */
		memcpy(ti, rows[i].cc, 16);
		ti[75] = 1;
		err[0] = '\0';
		memset(&d, 0x77, sizeof d);
		rc = ctl_decode_payload(CTL_TCPINFO, ti, sizeof ti, &d, err, sizeof err);
		if (rc != (rows[i].ok ? 0 : -1))
			MISS("TCPINFO, %s: rc %d (%s)", rows[i].name, rc, err);
		else if (!rows[i].ok && strcmp(err, "bad TCPINFO message: congestion "
		    "control name") != 0)
			MISS("TCPINFO, %s: '%s'", rows[i].name, err);
		else if (rows[i].ok && (memcmp(d.tcp.cc, rows[i].cc, 16) != 0 ||
		    d.tcp.valid != 1 || d.tcp.retrans != 0 || d.tcp.mss != 0))
			MISS("TCPINFO, %s: fields not kept", rows[i].name);
	}
	MISSED();
}

/* The 64-byte congestion control list PARAMS carries at 64..127: names as
 * above, 1..15 bytes each, single commas between them, NUL-terminated
 * within the 64 bytes and NUL-padded; or empty. */
static void
test_cc_lists(void **state)
{
	static const struct { const char *name; uint8_t cc[XFER_CC_LIST]; int ok; } rows[] = {
		{ "cubic,bbr", "cubic,bbr", 1 },
		{ "three names", "cubic,bbr,reno", 1 },
		{ "a name twice", "bbr,bbr", 1 },
		{ "one-byte names", "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y,z", 1 },
		{ "two 15-byte names", "abcdefghijklmno,pqrstuvwxyz0123", 1 },
		{ "63 bytes, then the NUL", CC4, 1 },
		{ "empty", "", 1 },
		{ "an empty first name", ",cubic", 0 },
		{ "an empty middle name", "cubic,,bbr", 0 },
		{ "two commas at the end", "cubic,,", 0 },
		{ "a comma at the end", "cubic,", 0 },
		{ "a comma alone", ",", 0 },
		{ "a 16-byte name", "abcdefghijklmnop", 0 },
		{ "a 16-byte name second", "cubic,abcdefghijklmnop", 0 },
		{ "a 16-byte third name",
		  "abcdefghijklmno,pqrstuvwxyz0123,456789_-abcdefgh,ijklmnopqrstu", 0 },
		{ "upper case first", "Cubic,bbr", 0 },
		{ "upper case second", "cubic,BBR", 0 },
		{ "a space after the comma", "cubic, bbr", 0 },
		{ "a semicolon", "cubic;bbr", 0 },
		{ "a dot", "cubic,tcp.bbr", 0 },
		{ "not NUL-padded: a byte after the NUL", { 'b', 'b', 'r', 0, 'x' }, 0 },
		{ "not NUL-padded: a comma after the NUL", { 'b', 'b', 'r', 0, ',' }, 0 },
		{ "not NUL-padded: the last byte", { 'b', 'b', 'r', [63] = 'x' }, 0 },
		{ "not NUL-padded: byte 16 of a list", { 'b', 'b', 'r', [16] = 'x' }, 0 },
		{ "a NUL first, then a list", { 0, 'b', 'b', 'r', ',', 'x' }, 0 },
		{ "no NUL within 64 bytes", CC4 "x", 0 },
		{ "no NUL within 64 bytes, a comma last", CC4 ",", 0 },
		{ "63 bytes, then 0x01", CC4 "\x01", 0 },
	};
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD];
	struct ctl_msg d;
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		int rc;

		memcpy(buf, params_wire, sizeof params_wire);
		memcpy(buf + CTL_HDR_LEN + 64, rows[i].cc, XFER_CC_LIST);
		err[0] = '\0';
		memset(&d, 0x77, sizeof d);
		rc = ctl_decode_payload(CTL_PARAMS, buf + CTL_HDR_LEN, CTL_PARAMS_LEN,
		    &d, err, sizeof err);
		if (rc != (rows[i].ok ? 0 : -1))
			MISS("%s: rc %d (%s)", rows[i].name, rc, err);
		else if (!rows[i].ok && strcmp(err, "bad PARAMS message: bad "
		    "congestion control name") != 0)
			MISS("%s: '%s'", rows[i].name, err);
		else if (rows[i].ok && (memcmp(d.params.cc, rows[i].cc, XFER_CC_LIST) != 0 ||
		    d.params.streams != 0x73))
			MISS("%s: list not kept", rows[i].name);
	}
	MISSED();
}

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

/* INTERVAL: index u32, flags u32, start, end, bytes, calls, dgrams u64,
 * retrans, cwnd, srtt_us u32, stream u32: 64 bytes, every one placed. */
static const uint8_t interval_wire[CTL_HDR_LEN + CTL_INTERVAL_LEN] = {
	'G', 'P', 'U', 'T', 0x04, 0x08, 0x00, 0x40,
	/*  0 */ 0x01, 0x02, 0x03, 0x04,
	/*  4 */ 0x00, 0x00, 0x00, 0x07,
	/*  8 */ 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18,
	/* 16 */ 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28,
	/* 24 */ 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38,
	/* 32 */ 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48,
	/* 40 */ 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58,
	/* 48 */ 0x61, 0x62, 0x63, 0x64,
	/* 52 */ 0x71, 0x72, 0x73, 0x74,
	/* 56 */ 0x81, 0x82, 0x83, 0x84,
	/* 60 */ 0x00, 0x00, 0x00, 0x80,               /* stream 128 */
};

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
test_interval(void **state)
{
	static const struct { uint32_t index; struct ival iv; } rows[] = {
		{ 0, { 0 } },
		{ 0, { .start_ns = 0, .end_ns = 1000000000, .bytes = 125000000,
		  .calls = 30518, .flags = IVAL_TCP, .retrans = 3, .cwnd = 10,
		  .srtt_us = 41 } },
		{ 7, { .start_ns = 7000000000ULL, .end_ns = 7250000000ULL, .bytes = 1,
		  .calls = 1, .flags = IVAL_LAST } },
		{ 1, { .start_ns = 1000000000, .end_ns = 2000000000, .bytes = 1472000,
		  .calls = 1000, .dgrams = 998, .flags = IVAL_OMITTED } },
		{ 3, { .start_ns = 5, .end_ns = 5, .flags = IVAL_LAST | IVAL_OMITTED } },
		{ UINT32_MAX, { UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX,
		  UINT64_MAX, IVAL_LAST | IVAL_OMITTED | IVAL_TCP, UINT32_MAX, UINT32_MAX,
		  UINT32_MAX, 0, 0, 0 } },
		/* a sequenced UDP receiver's: its copies and reordering */
		{ 2, { .start_ns = 1, .end_ns = 2, .bytes = 3, .calls = 4, .dgrams = 3,
		  .flags = IVAL_UDP | IVAL_LAST, .dups = 1, .reordered = UINT32_MAX } },
	};
	struct ctl_msg m = interval_msg(), d;
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD];
	char err[256];
	size_t i;

	(void)state;
	memset(buf, 0xee, sizeof buf);
	assert_int_equal(ctl_encode(&m, buf), sizeof interval_wire);
	assert_bytes(buf, interval_wire, sizeof interval_wire);
	assert_int_equal(buf[sizeof interval_wire], 0xee);
	assert_int_equal(decode(buf, sizeof interval_wire, &d, err, sizeof err), 0);
	assert_int_equal(d.type, CTL_INTERVAL);
	assert_int_equal(d.ival_index, m.ival_index);
	assert_int_equal(d.stream, STREAM_MAX);
	assert_ival_equal(&d.ival, &m.ival);
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		uint32_t stream = (uint32_t)(i * 21 + 1);      /* 1, 22, .., 127 */

		memset(&m, 0x55, sizeof m);     /* what is not sent cannot leak */
		m.type = CTL_INTERVAL;
		m.stream = stream;
		m.ival_index = rows[i].index;
		m.ival = rows[i].iv;
		assert_int_equal(ctl_encode(&m, buf), CTL_HDR_LEN + CTL_INTERVAL_LEN);
		assert_int_equal(buf[CTL_HDR_LEN + 60] | buf[CTL_HDR_LEN + 61] |
		                 buf[CTL_HDR_LEN + 62], 0);
		assert_int_equal(buf[CTL_HDR_LEN + 63], stream);
		assert_int_equal(decode(buf, CTL_HDR_LEN + CTL_INTERVAL_LEN, &d, err,
		                 sizeof err), 0);
		assert_int_equal(d.type, CTL_INTERVAL);
		assert_int_equal(d.ival_index, rows[i].index);
		assert_int_equal(d.stream, stream);
		assert_ival_equal(&d.ival, &rows[i].iv);
	}
}

/* INTERVAL: interval_wire with one byte changed. */
static void
test_interval_invalid(void **state)
{
	static const struct poke rows[] = {
		{ 7, 0x10, "bad INTERVAL message: reserved bits set" },    /* flag 0x10 */
		{ 7, 0xff, "bad INTERVAL message: reserved bits set" },
		{ 6, 0x01, "bad INTERVAL message: reserved bits set" },
		{ 4, 0x80, "bad INTERVAL message: reserved bits set" },
		/* 60..63: the stream (128), 1..128 */
		{ 63, 0x00, "bad INTERVAL message: stream 0" },
		{ 63, 0x81, "bad INTERVAL message: stream 129" },
		{ 63, 0xff, "bad INTERVAL message: stream 255" },
		{ 62, 0x01, "bad INTERVAL message: stream 384" },
		{ 61, 0x01, "bad INTERVAL message: stream 65664" },
		{ 60, 0x01, "bad INTERVAL message: stream 16777344" },
		{ 60, 0x80, "bad INTERVAL message: stream 2147483776" },
		{ 63, 0x01, NULL },     /* stream 1 */
		{ 63, 0x7f, NULL },     /* stream 127 */
		{ 16, 0x10, "bad INTERVAL message: it ends before it starts" },
		{ 16, 0x00, "bad INTERVAL message: it ends before it starts" },
		{ 8, 0x22, "bad INTERVAL message: it ends before it starts" },
		{ 8, 0xff, "bad INTERVAL message: it ends before it starts" },
		{ 7, 0x00, NULL },      /* no flags */
		{ 7, 0x01, NULL },      /* IVAL_LAST alone */
		{ 0, 0xff, NULL },      /* any index */
		{ 8, 0x20, NULL },      /* starts later, still before its end */
		{ 48, 0xff, NULL },     /* any retrans, cwnd, srtt_us */
		{ 59, 0xff, NULL },
	};
	uint8_t p[CTL_INTERVAL_LEN];
	struct ctl_msg d;
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		int rc;

		memcpy(p, interval_wire + CTL_HDR_LEN, sizeof p);
		p[rows[i].off] = rows[i].val;
		err[0] = '\0';
		rc = ctl_decode_payload(CTL_INTERVAL, p, sizeof p, &d, err, sizeof err);
		if (rc != (rows[i].msg == NULL ? 0 : -1))
			MISS("offset %zu = 0x%02x: rc %d (%s)", rows[i].off, rows[i].val,
			     rc, err);
		else if (rows[i].msg != NULL && strcmp(err, rows[i].msg) != 0)
			MISS("offset %zu = 0x%02x: '%s', want '%s'", rows[i].off,
			     rows[i].val, err, rows[i].msg);
	}
	/* reserved bits and an end before the start: the reserved bits speak */
	memcpy(p, interval_wire + CTL_HDR_LEN, sizeof p);
	p[7] = 0x1f;
	p[16] = 0;
	assert_int_equal(ctl_decode_payload(CTL_INTERVAL, p, sizeof p, &d, err,
	                 sizeof err), -1);
	assert_string_equal(err, "bad INTERVAL message: reserved bits set");
	/* reserved bits and stream 0: the reserved bits speak; stream 0 and an
	 * end before the start: the stream speaks */
	p[63] = 0;
	assert_int_equal(ctl_decode_payload(CTL_INTERVAL, p, sizeof p, &d, err,
	                 sizeof err), -1);
	assert_string_equal(err, "bad INTERVAL message: reserved bits set");
	p[7] = 0x07;
	assert_int_equal(ctl_decode_payload(CTL_INTERVAL, p, sizeof p, &d, err,
	                 sizeof err), -1);
	assert_string_equal(err, "bad INTERVAL message: stream 0");
	/* start 1, end 0: one nanosecond backwards (stream 1) */
	memset(p, 0, sizeof p);
	p[63] = 1;
	p[15] = 1;
	assert_int_equal(ctl_decode_payload(CTL_INTERVAL, p, sizeof p, &d, err,
	                 sizeof err), -1);
	assert_string_equal(err, "bad INTERVAL message: it ends before it starts");
	p[23] = 1;
	assert_int_equal(ctl_decode_payload(CTL_INTERVAL, p, sizeof p, &d, err,
	                 sizeof err), 0);
	assert_int_equal(d.ival.start_ns, 1);
	assert_int_equal(d.ival.end_ns, 1);
	MISSED();
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

/* TCPINFO: cc[16], retrans u64, rtt, min_rtt, cwnd, mss u32, delivery_rate,
 * busy, rwnd_limited, sndbuf_limited u64, stream u32, ecn u32, delivered_ce,
 * received_ce, received_ce_bytes u32, a zero u32: 96 bytes. valid is not
 * sent; a decoded TCPINFO is valid. */
static void
test_tcpinfo(void **state)
{
	static const struct tcp_stats rows[] = {
		{ .cc = "" },
		{ .cc = "cubic", .retrans = 12, .rtt_us = 41, .min_rtt_us = 18,
		  .cwnd = 10, .mss = 65483, .delivery_rate = 4000000000ULL,
		  .busy_us = 10000000, .rwnd_limited_us = 1500, .sndbuf_limited_us = 0 },
		{ .cc = "bbr", .mss = 1448, .valid = 1 },
		{ .cc = "abcdefghijklmno", .retrans = UINT64_MAX, .rtt_us = UINT32_MAX,
		  .min_rtt_us = UINT32_MAX, .cwnd = UINT32_MAX, .mss = UINT32_MAX,
		  .delivery_rate = UINT64_MAX, .busy_us = UINT64_MAX,
		  .rwnd_limited_us = UINT64_MAX, .sndbuf_limited_us = UINT64_MAX },
	};
	uint8_t want[CTL_HDR_LEN + CTL_TCPINFO_LEN] = { 'G', 'P', 'U', 'T', 4, 9, 0, 0x60,
	    'r', 'e', 'n', 'o', [CTL_HDR_LEN + 72] = 0, 0, 0, 0x7f, 0, 0, 0, 0x07,
	    0x91, 0x92, 0x93, 0x94, 0xa1, 0xa2, 0xa3, 0xa4, 0xb1, 0xb2, 0xb3, 0xb4,
	    0, 0, 0, 0 };
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD];
	struct ctl_msg m, d;
	char err[256];
	size_t i, k;

	(void)state;
	memset(&m, 0, sizeof m);
	m.type = CTL_TCPINFO;
	m.tcp = (struct tcp_stats){ .cc = "reno", .retrans = 0x0102030405060708ULL,
	    .rtt_us = 0x11121314u, .min_rtt_us = 0x21222324u, .cwnd = 0x31323334u,
	    .mss = 0x41424344u, .delivery_rate = 0x5152535455565758ULL,
	    .busy_us = 0x6162636465666768ULL, .rwnd_limited_us = 0x7172737475767778ULL,
	    .sndbuf_limited_us = 0x8182838485868788ULL, .ecn = TCPS_ECN_ALL,
	    .delivered_ce = 0x91929394u, .received_ce = 0xa1a2a3a4u,
	    .received_ce_bytes = 0xb1b2b3b4u };
	m.stream = 127;
	for (k = 0; k < 8; k++) {
		want[CTL_HDR_LEN + 16 + k] = (uint8_t)(0x01 + k);
		want[CTL_HDR_LEN + 40 + k] = (uint8_t)(0x51 + k);
		want[CTL_HDR_LEN + 48 + k] = (uint8_t)(0x61 + k);
		want[CTL_HDR_LEN + 56 + k] = (uint8_t)(0x71 + k);
		want[CTL_HDR_LEN + 64 + k] = (uint8_t)(0x81 + k);
	}
	for (k = 0; k < 4; k++) {
		want[CTL_HDR_LEN + 24 + k] = (uint8_t)(0x11 + k);
		want[CTL_HDR_LEN + 28 + k] = (uint8_t)(0x21 + k);
		want[CTL_HDR_LEN + 32 + k] = (uint8_t)(0x31 + k);
		want[CTL_HDR_LEN + 36 + k] = (uint8_t)(0x41 + k);
	}
	memset(buf, 0xee, sizeof buf);
	assert_int_equal(ctl_encode(&m, buf), sizeof want);
	assert_bytes(buf, want, sizeof want);
	assert_int_equal(buf[sizeof want], 0xee);
	assert_int_equal(decode(buf, sizeof want, &d, err, sizeof err), 0);
	assert_int_equal(d.type, CTL_TCPINFO);
	assert_tcp_equal(&d.tcp, &m.tcp);
	assert_int_equal(d.tcp.valid, 1);
	assert_int_equal(d.stream, 127);
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		memset(&m, 0, sizeof m);
		m.type = CTL_TCPINFO;
		m.tcp = rows[i];
		m.stream = (uint32_t)(1 + 42 * i);     /* 1, 43, 85, 127 */
		assert_int_equal(ctl_encode(&m, buf), CTL_HDR_LEN + CTL_TCPINFO_LEN);
		assert_memory_equal(buf + CTL_HDR_LEN + 72, "\0\0\0", 3);
		assert_int_equal(buf[CTL_HDR_LEN + 75], m.stream);
		assert_memory_equal(buf + CTL_HDR_LEN + 76, "\0\0\0\0", 4);
		assert_memory_equal(buf + CTL_HDR_LEN + 92, "\0\0\0\0", 4);
		assert_int_equal(decode(buf, CTL_HDR_LEN + CTL_TCPINFO_LEN, &d, err,
		                 sizeof err), 0);
		assert_int_equal(d.type, CTL_TCPINFO);
		assert_tcp_equal(&d.tcp, &rows[i]);
		assert_int_equal(d.tcp.valid, 1);
		assert_int_equal(d.stream, m.stream);
		for (k = strlen(rows[i].cc); k < 16; k++)     /* NUL-padded */
			assert_int_equal(buf[CTL_HDR_LEN + k], 0);
	}
	/* what follows the name's NUL in the struct is not sent */
	memset(&m, 0, sizeof m);
	m.type = CTL_TCPINFO;
	m.stream = 1;
	memcpy(m.tcp.cc, "bbr\0junk", 8);
	ctl_encode(&m, buf);
	assert_memory_equal(buf + CTL_HDR_LEN, "bbr\0\0\0\0\0\0\0\0\0\0\0\0\0", 16);
	assert_int_equal(decode(buf, CTL_HDR_LEN + CTL_TCPINFO_LEN, &d, err,
	                 sizeof err), 0);
	assert_string_equal(d.tcp.cc, "bbr");
}

/* TCPINFO's stream (72..75, 1..128), its ecn flags (76..79, TCPS_ECN_*),
 * the ECN counts (80..91) and the zero u32 at 92, poked on a valid TCPINFO
 * of stream 1 without ECN. */
static void
test_tcpinfo_invalid(void **state)
{
#define TBAD(s) "bad TCPINFO message: stream " #s " or reserved bits set"
	static const struct poke rows[] = {
		{ 75, 0x00, TBAD(0) },
		{ 75, 0x81, TBAD(129) },
		{ 75, 0xff, TBAD(255) },
		{ 74, 0x01, TBAD(257) },
		{ 73, 0x01, TBAD(65537) },
		{ 72, 0x80, TBAD(2147483649) },
		{ 76, 0x01, TBAD(1) },
		{ 76, 0x80, TBAD(1) },
		{ 77, 0x01, TBAD(1) },
		{ 78, 0x01, TBAD(1) },
		{ 79, 0x08, TBAD(1) },
		{ 79, 0xff, TBAD(1) },
		{ 92, 0x01, TBAD(1) },
		{ 95, 0x01, TBAD(1) },
		{ 79, 0x01, NULL },     /* ECN negotiated, no counts */
		{ 79, 0x07, NULL },
		{ 80, 0x01, "bad TCPINFO message: ECN counts without ECN" },
		{ 87, 0x01, "bad TCPINFO message: ECN counts without ECN" },
		{ 88, 0x01, "bad TCPINFO message: ECN counts without ECN" },
		{ 75, 0x02, NULL },
		{ 75, 0x80, NULL },     /* stream 128 */
		{ 0, 'C', "bad TCPINFO message: congestion control name" },
	};
	uint8_t p[CTL_TCPINFO_LEN];
	struct ctl_msg d;
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		int rc;

		memset(p, 0, sizeof p);
		memcpy(p, "cubic", 5);
		p[75] = 1;
		p[rows[i].off] = rows[i].val;
		err[0] = '\0';
		rc = ctl_decode_payload(CTL_TCPINFO, p, sizeof p, &d, err, sizeof err);
		if (rc != (rows[i].msg == NULL ? 0 : -1))
			MISS("offset %zu = 0x%02x: rc %d (%s)", rows[i].off, rows[i].val,
			     rc, err);
		else if (rows[i].msg != NULL && strcmp(err, rows[i].msg) != 0)
			MISS("offset %zu = 0x%02x: '%s', want '%s'", rows[i].off,
			     rows[i].val, err, rows[i].msg);
		else if (rc == 0 && rows[i].off == 75 && d.stream != rows[i].val)
			MISS("offset %zu = 0x%02x: stream %u", rows[i].off, rows[i].val,
			     d.stream);
	}
	/* counts that need a flag: delivered_ce with TCPS_ECN is fine, received
	 * CE needs TCPS_ECN_RECEIVED too */
	memset(p, 0, sizeof p);
	memcpy(p, "cubic", 5);
	p[75] = 1;
	p[79] = TCPS_ECN;
	p[83] = 9;
	assert_int_equal(ctl_decode_payload(CTL_TCPINFO, p, sizeof p, &d, err,
	                 sizeof err), 0);
	assert_int_equal(d.tcp.delivered_ce, 9);
	p[87] = 3;
	assert_int_equal(ctl_decode_payload(CTL_TCPINFO, p, sizeof p, &d, err,
	                 sizeof err), -1);
	assert_string_equal(err, "bad TCPINFO message: ECN counts without ECN");
	p[79] = TCPS_ECN | TCPS_ECN_RECEIVED;
	p[91] = 0x80;
	assert_int_equal(ctl_decode_payload(CTL_TCPINFO, p, sizeof p, &d, err,
	                 sizeof err), 0);
	assert_int_equal(d.tcp.received_ce, 3);
	assert_int_equal(d.tcp.received_ce_bytes, 0x80);
	/* a bad name speaks before a bad stream */
	memset(p, 0, sizeof p);
	memcpy(p, "BBR", 3);
	assert_int_equal(ctl_decode_payload(CTL_TCPINFO, p, sizeof p, &d, err,
	                 sizeof err), -1);
	assert_string_equal(err, "bad TCPINFO message: congestion control name");
	MISSED();
#undef TBAD
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

static const uint8_t udpstats_wire[] = {
	'G', 'P', 'U', 'T', 0x04, 0x0a, 0x00, 0x90,
	/*  0 */ 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,   /* received */
	/*  8 */ 0x01, 0x02, 0x03, 0x03, 0x05, 0x06, 0x07, 0x03,   /* unique */
	/* 16 */ 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02,   /* duplicates */
	/* 24 */ 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28,   /* reordered */
	/* 32 */ 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38,   /* max_displacement */
	/* 40 */ 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48,   /* late */
	/* 48 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03,   /* too_old */
	/* 56 */ 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58,   /* other */
	/* 64 */ 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68,   /* jitter_ns */
	/* 72 */ 0x71, 0x72, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78,   /* delay_var_ns */
	/* 80 */ 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88,   /* delay_var_max_ns */
	/* 88 */ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe,   /* owd_min_ns -2 */
	/* 96 */ 0x09, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16,   /* owd_mean_ns */
	/*104 */ 0x00, 0x00, 0x00, 0x07,                           /* flags */
	/*108 */ 0x00, 0x00, 0x00, 0x42,                           /* stream 66 */
	/*112 */ 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x00,   /* not-ECT */
	/*120 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05,   /* ECT(1) */
	/*128 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02,   /* ECT(0) */
	/*136 */ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,   /* CE */
};

static void
test_udpstats_wire(void **state)
{
	struct ctl_msg m = udpstats_msg(), d;
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD];
	char err[256];

	(void)state;
	assert_int_equal(sizeof udpstats_wire, CTL_HDR_LEN + CTL_UDPSTATS_LEN);
	memset(buf, 0xee, sizeof buf);
	assert_int_equal(ctl_encode(&m, buf), sizeof udpstats_wire);
	assert_bytes(buf, udpstats_wire, sizeof udpstats_wire);
	assert_int_equal(buf[sizeof udpstats_wire], 0xee);     /* nothing beyond */
	assert_int_equal(decode(buf, sizeof udpstats_wire, &d, err, sizeof err), 0);
	assert_int_equal(d.type, CTL_UDPSTATS);
	assert_udp_equal(&d.udp, &m.udp);
	assert_int_equal(d.stream, 0x42);
}

/* Round trips at the edges: all zero, each flag, counts at their most,
 * every kind of copy, negative and extreme one-way delays. */
static void
test_udpstats(void **state)
{
	static const struct udp_stats rows[] = {
		{ 0 },
		{ .received = 1000, .unique = 1000, .flags = UDPS_SEQ },
		{ .received = 1000, .unique = 990, .duplicates = 7, .too_old = 3,
		  .reordered = 12, .max_displacement = 65535, .late = 1, .other = 2,
		  .ecn = { 10, 20, 900, 70 }, .flags = UDPS_ALL },
		{ .received = 1000, .unique = 1000, .ecn = { 0, 0, 0, 1000 },
		  .flags = UDPS_ECN },
		{ .received = UINT64_MAX, .unique = UINT64_MAX,
		  .ecn = { 0, 0, UINT64_MAX - 1, 1 }, .flags = UDPS_ECN },
		{ .received = 5, .unique = 5, .flags = UDPS_TIMED },   /* not checked */
		{ .received = UINT64_MAX, .unique = UINT64_MAX },
		{ .received = UINT64_MAX, .unique = 0, .duplicates = UINT64_MAX },
		{ .received = UINT64_MAX, .unique = 1, .duplicates = UINT64_MAX - 2,
		  .too_old = 1 },
		{ .received = UINT64_MAX, .too_old = UINT64_MAX },
		{ .received = 3, .unique = 1, .duplicates = 1, .too_old = 1,
		  .reordered = UINT64_MAX, .max_displacement = UINT64_MAX,
		  .late = UINT64_MAX, .other = UINT64_MAX, .jitter_ns = UINT64_MAX,
		  .delay_var_ns = UINT64_MAX, .delay_var_max_ns = UINT64_MAX,
		  .owd_min_ns = INT64_MIN, .owd_mean_ns = INT64_MAX,
		  .ecn = { 3, 0, 0, 0 }, .flags = UDPS_ALL },
		{ .received = 2, .unique = 2, .owd_min_ns = -1, .owd_mean_ns = -1,
		  .ecn = { 1, 0, 0, 1 }, .flags = UDPS_ALL },
	};
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD];
	struct ctl_msg m, d;
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		memset(&m, 0, sizeof m);
		m.type = CTL_UDPSTATS;
		m.udp = rows[i];
		m.stream = i % 2 ? STREAM_MAX : (uint32_t)(i + 1);
		memset(buf, 0xee, sizeof buf);
		assert_int_equal(ctl_encode(&m, buf), CTL_HDR_LEN + CTL_UDPSTATS_LEN);
		assert_memory_equal(buf + CTL_HDR_LEN + 108, "\0\0\0", 3);
		assert_int_equal(buf[CTL_HDR_LEN + 111], m.stream);
		if (decode(buf, CTL_HDR_LEN + CTL_UDPSTATS_LEN, &d, err, sizeof err) != 0) {
			MISS("row %zu: rejected: %s", i, err);
			continue;
		}
		assert_int_equal(d.type, CTL_UDPSTATS);
		assert_udp_equal(&d.udp, &rows[i]);
		assert_int_equal(d.stream, m.stream);
	}
	MISSED();
}

/* Every malformed UDPSTATS: udpstats_msg()'s payload with one u64 or u32
 * replaced (off, width 8 or 4, value). */
static void
test_udpstats_invalid(void **state)
{
#define RSV "bad UDPSTATS message: reserved bits set"
#define SUM "bad UDPSTATS message: counts that do not add up"
#define STR(s) "bad UDPSTATS message: stream " #s
#define ECNS "bad UDPSTATS message: ECN counts that do not add up to the " \
	"datagrams received"
	static const struct { const char *name; struct { size_t off, w;
	    uint64_t v; } f[4]; const char *msg; } rows[] = {
		{ "flag 0x08", { { 104, 4, 0x08 } }, RSV },
		{ "flags 0x0f", { { 104, 4, 0x0f } }, RSV },
		/* 112..143: the ECN counts add up to received (the base's:
		 * 0x0102030405060700 + 5 + 2 + 1), and are 0 without UDPS_ECN */
		{ "ecn one short", { { 136, 8, 0 } }, ECNS },
		{ "ecn one over", { { 136, 8, 2 } }, ECNS },
		{ "ecn not-ECT > received", { { 112, 8, UINT64_MAX } }, ECNS },
		{ "ecn wraps to the sum", { { 112, 8, UINT64_MAX }, { 120, 8, 14 } },
		  ECNS },
		{ "ecn counts without UDPS_ECN", { { 104, 4, 0x03 } }, ECNS },
		{ "counts first", { { 8, 8, UINT64_MAX }, { 136, 8, 0 } }, SUM },
		{ "flag 0x80000000", { { 104, 4, 0x80000000u } }, RSV },
		{ "flags all", { { 104, 4, UINT32_MAX } }, RSV },
		/* 108..111: the stream, 1..128 */
		{ "stream 0", { { 108, 4, 0 } }, STR(0) },
		{ "stream 129", { { 108, 4, 129 } }, STR(129) },
		{ "byte 108", { { 108, 4, 0x01000000u } }, STR(16777216) },
		{ "byte 109", { { 108, 4, 0x00010000u } }, STR(65536) },
		{ "byte 110", { { 108, 4, 0x00000100u } }, STR(256) },
		{ "108 all", { { 108, 4, UINT32_MAX } }, STR(4294967295) },
		/* the reserved bits speak before the stream and the counts, the
		 * stream before the counts */
		{ "reserved, bad counts", { { 104, 4, 0x08 }, { 8, 8, UINT64_MAX } }, RSV },
		{ "reserved, stream 0", { { 104, 4, 0x08 }, { 108, 4, 0 } }, RSV },
		{ "stream 0, bad counts", { { 108, 4, 0 }, { 8, 8, UINT64_MAX } }, STR(0) },
		/* received 10: unique 6, duplicates 3, too_old 1 adds up */
		{ "unique > received", { { 0, 8, 10 }, { 8, 8, 11 }, { 16, 8, 0 },
		  { 48, 8, 0 } }, SUM },
		{ "unique max", { { 0, 8, 10 }, { 8, 8, UINT64_MAX }, { 16, 8, 0 },
		  { 48, 8, 0 } }, SUM },
		{ "duplicates > received", { { 0, 8, 10 }, { 8, 8, 0 }, { 16, 8, 11 },
		  { 48, 8, 0 } }, SUM },
		{ "one short", { { 0, 8, 10 }, { 8, 8, 6 }, { 16, 8, 3 },
		  { 48, 8, 0 } }, SUM },
		{ "one over", { { 0, 8, 10 }, { 8, 8, 6 }, { 16, 8, 3 },
		  { 48, 8, 2 } }, SUM },
		{ "received 0, a duplicate", { { 0, 8, 0 }, { 8, 8, 0 }, { 16, 8, 1 },
		  { 48, 8, 0 } }, SUM },
		{ "received 0, too old", { { 0, 8, 0 }, { 8, 8, 0 }, { 16, 8, 0 },
		  { 48, 8, 1 } }, SUM },
		/* duplicates + too_old wraps around 2^64 to received - unique */
		{ "too_old wraps the sum", { { 0, 8, 10 }, { 8, 8, 5 }, { 16, 8, 6 },
		  { 48, 8, UINT64_MAX } }, SUM },
		{ "both halves wrap the sum", { { 0, 8, UINT64_MAX },
		  { 8, 8, UINT64_MAX - 1 }, { 16, 8, (1ULL << 63) + 1 },
		  { 48, 8, 1ULL << 63 } }, SUM },
	};
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD];
	struct ctl_msg m = udpstats_msg(), d;
	char err[256];
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		ctl_encode(&m, buf);
		for (k = 0; k < 4 && rows[i].f[k].w != 0; k++) {
			uint64_t v = rows[i].f[k].v;
			size_t w = rows[i].f[k].w, j;

			for (j = 0; j < w; j++)
				buf[CTL_HDR_LEN + rows[i].f[k].off + j] =
				    (uint8_t)(v >> (8 * (w - 1 - j)));
		}
		if (ctl_decode_payload(CTL_UDPSTATS, buf + CTL_HDR_LEN, CTL_UDPSTATS_LEN,
		    &d, err, sizeof err) != -1)
			MISS("%s: accepted, want '%s'", rows[i].name, rows[i].msg);
		else if (strcmp(err, rows[i].msg) != 0)
			MISS("%s: '%s', want '%s'", rows[i].name, err, rows[i].msg);
	}
	/* the base adds up, and so does the table's own example */
	ctl_encode(&m, buf);
	assert_int_equal(ctl_decode_payload(CTL_UDPSTATS, buf + CTL_HDR_LEN,
	                 CTL_UDPSTATS_LEN, &d, err, sizeof err), 0);
	memcpy(buf + CTL_HDR_LEN, "\0\0\0\0\0\0\0\x0a" "\0\0\0\0\0\0\0\x06"
	       "\0\0\0\0\0\0\0\x03", 24);
	memcpy(buf + CTL_HDR_LEN + 48, "\0\0\0\0\0\0\0\x01", 8);
	memset(buf + CTL_HDR_LEN + 112, 0, 32);                 /* ECN: 10 CE */
	buf[CTL_HDR_LEN + 143] = 10;
	assert_int_equal(ctl_decode_payload(CTL_UDPSTATS, buf + CTL_HDR_LEN,
	                 CTL_UDPSTATS_LEN, &d, err, sizeof err), 0);
	assert_int_equal(d.udp.received, 10);
	assert_int_equal(d.udp.ecn[ECN_CE], 10);
	assert_int_equal(d.udp.unique, 6);
	/* streams 1 and 128 are fine */
	memcpy(buf + CTL_HDR_LEN + 108, "\0\0\0\x01", 4);
	assert_int_equal(ctl_decode_payload(CTL_UDPSTATS, buf + CTL_HDR_LEN,
	                 CTL_UDPSTATS_LEN, &d, err, sizeof err), 0);
	assert_int_equal(d.stream, 1);
	memcpy(buf + CTL_HDR_LEN + 108, "\0\0\0\x80", 4);
	assert_int_equal(ctl_decode_payload(CTL_UDPSTATS, buf + CTL_HDR_LEN,
	                 CTL_UDPSTATS_LEN, &d, err, sizeof err), 0);
	assert_int_equal(d.stream, 128);
	MISSED();
#undef RSV
#undef SUM
#undef STR
#undef ECNS
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

/* The bytes a MAC covers: challenge || PARAMS bytes 0..151 [|| READY bytes
 * 0..19 || READY bytes 52..], exactly, whatever the messages' own MAC
 * fields hold. */
static void
test_signed_bytes(void **state)
{
	uint8_t out[CTL_SIGNED_MAX + 8];
	uint8_t want[sizeof out], challenge[CTL_CHALLENGE_LEN];
	struct ctl_msg p = params_msg(), r;
	const size_t pl = CTL_CHALLENGE_LEN + CTL_PARAMS_SIGNED;       /* 216 */
	const size_t rl = pl + CTL_READY_SIGNED;                        /* 236 */
	size_t i, n;

	(void)state;
	assert_true(sizeof out >= rl + 2 * (STREAM_MAX - 1) + 8);
	for (i = 0; i < CTL_CHALLENGE_LEN; i++)
		challenge[i] = (uint8_t)(0x60 + i);
	memset(&r, 0, sizeof r);
	r.type = CTL_READY;
	r.port[0] = 0xbeef;
	r.nports = 1;
	for (i = 1; i < STREAM_MAX; i++)        /* beyond nports: not covered */
		r.port[i] = (uint16_t)(0xa000 + i);
	for (i = 0; i < CTL_NONCE_LEN; i++)
		r.nonce[i] = (uint8_t)(0x40 + i);
	memset(r.mac, 0x99, CTL_MAC_LEN);
	memset(want, 0, sizeof want);
	memcpy(want, challenge, CTL_CHALLENGE_LEN);
	memcpy(want + 32, params_wire + CTL_HDR_LEN, CTL_PARAMS_SIGNED);
	want[pl] = 0xbe;
	want[pl + 1] = 0xef;
	want[pl + 2] = 0;
	want[pl + 3] = 1;
	for (i = 0; i < CTL_NONCE_LEN; i++)
		want[pl + 4 + i] = (uint8_t)(0x40 + i);
	for (i = 1; i < STREAM_MAX; i++) {      /* the other ports, when sent */
		want[rl + 2 * (i - 1)] = 0xa0;
		want[rl + 2 * (i - 1) + 1] = (uint8_t)i;
	}

	/* PARAMS alone (the client's MAC): 216 bytes, nothing written beyond */
	assert_int_equal(pl, 216);
	memset(out, 0xee, sizeof out);
	n = ctl_signed_bytes(challenge, &p, NULL, out);
	assert_int_equal(n, 216);
	assert_bytes(out, want, 216);
	assert_int_equal(out[216], 0xee);
	/* the run's shape, the congestion control list, the stream count and
	 * the reserved bytes and the extensions are covered; the MAC at 184
	 * is not */
	assert_memory_equal(out + 32 + 40, "\x00\x00\x08\x12\x34\x56\x78\x9a", 8);
	assert_memory_equal(out + 32 + 48, "\x01\x23\x45\x67\x00\x34\x56\x78"
	                    "\x00\x45\x67\x89\x00\x0f\x42\x40", 16);
	assert_memory_equal(out + 32 + 64, "cubic\0\0\0\0\0\0\0\0\0\0\0", 16);
	assert_memory_equal(out + 32 + 128, "\x00\x73", 2);
	for (i = 130; i < CTL_PARAMS_SIGNED; i++)
		assert_int_equal(out[32 + i], 0);
	/* with a READY of one port (the partner's MAC): 236 bytes */
	memset(out, 0xee, sizeof out);
	n = ctl_signed_bytes(challenge, &p, &r, out);
	assert_int_equal(n, 236);
	assert_bytes(out, want, 236);
	assert_int_equal(out[236], 0xee);
	/* the MACs themselves are not covered */
	memset(p.mac, 0, CTL_MAC_LEN);
	memset(r.mac, 0, CTL_MAC_LEN);
	memset(out, 0xee, sizeof out);
	assert_int_equal(ctl_signed_bytes(challenge, &p, &r, out), 236);
	assert_bytes(out, want, 236);
	/* every covered field changes the bytes: the challenge, PARAMS fields
	 * old and new, the port, the nonce */
	challenge[31] ^= 1;
	ctl_signed_bytes(challenge, &p, &r, out);
	assert_int_equal(out[31], want[31] ^ 1);
	challenge[31] ^= 1;
	p.params.data_gap_ps++;
	ctl_signed_bytes(challenge, &p, &r, out);
	assert_int_equal(out[32 + 47], want[32 + 47] + 1);
	p.params.data_gap_ps += 1ULL << 40;     /* its top bytes too */
	ctl_signed_bytes(challenge, &p, &r, out);
	assert_int_equal(out[32 + 42], want[32 + 42] + 1);
	p.params.data_gap_ps -= (1ULL << 40) + 1;
	p.params.data_burst--;
	ctl_signed_bytes(challenge, &p, &r, out);
	assert_int_equal(out[32 + 63], want[32 + 63] - 1);
	p.params.data_burst++;
	p.params.duration_ms++;
	ctl_signed_bytes(challenge, &p, &r, out);
	assert_int_equal(out[32 + 51], want[32 + 51] + 1);
	p.params.duration_ms--;
	p.params.interval_ms++;
	ctl_signed_bytes(challenge, &p, &r, out);
	assert_int_equal(out[32 + 55], want[32 + 55] + 1);
	p.params.interval_ms--;
	p.params.omit_ms++;
	ctl_signed_bytes(challenge, &p, &r, out);
	assert_int_equal(out[32 + 59], want[32 + 59] + 1);
	p.params.omit_ms--;
	strcpy(p.params.cc, "bbr");             /* first and last bytes differ */
	ctl_signed_bytes(challenge, &p, &r, out);
	assert_memory_equal(out + 32 + 64, "bbr\0\0\0\0\0\0\0\0\0\0\0\0\0", 16);
	strcpy(p.params.cc, CC4);               /* 63 bytes: up to PARAMS byte 126 */
	ctl_signed_bytes(challenge, &p, &r, out);
	assert_memory_equal(out + 32 + 64, CC4, 63);
	assert_int_equal(out[32 + 126], 'v');
	assert_int_equal(out[32 + 127], 0);
	assert_memory_equal(out + pl, want + pl, CTL_READY_SIGNED);
	strcpy(p.params.cc, "cubic");
	p.params.streams = 0x0102;              /* both bytes of -P */
	ctl_signed_bytes(challenge, &p, &r, out);
	assert_memory_equal(out + 32 + 128, "\x01\x02", 2);
	p.params.streams = 0x73;
	r.port[0] = 0xbeee;
	r.nonce[15] = 0;
	ctl_signed_bytes(challenge, &p, &r, out);
	assert_memory_equal(out, want, pl);
	assert_int_equal(out[pl + 1], 0xee);
	assert_int_equal(out[pl + 19], 0);
	r.port[0] = 0xbeef;
	r.nonce[15] = 0x4f;

	/* READY with more ports: their count at 2 and every further port
	 * (READY 52..) follow READY 0..19: 236 + 2 (n - 1) bytes */
	{
		static const uint16_t counts[] = { 2, 3, 64, STREAM_MAX };
		size_t c;

		for (c = 0; c < sizeof counts / sizeof counts[0]; c++) {
			size_t len = rl + 2u * (counts[c] - 1u);

			r.nports = counts[c];
			want[pl + 2] = (uint8_t)(counts[c] >> 8);
			want[pl + 3] = (uint8_t)counts[c];
			memset(out, 0xee, sizeof out);
			n = ctl_signed_bytes(challenge, &p, &r, out);
			if (n != len) {
				MISS("%u ports: %zu bytes, want %zu", counts[c], n, len);
				continue;
			}
			if (memcmp(out, want, len) != 0)
				MISS("%u ports: the covered bytes differ", counts[c]);
			if (out[len] != 0xee)
				MISS("%u ports: a byte written beyond", counts[c]);
		}
		assert_int_equal(n, rl + 2 * (STREAM_MAX - 1));        /* 458 */
		assert_true(n <= CTL_SIGNED_MAX);
	}
	/* changing a later port changes the bytes: the second, a middle one,
	 * the last of 128; and the port count itself */
	{
		static const size_t which[] = { 1, 2, 63, STREAM_MAX - 1 };
		uint8_t base[sizeof out];
		size_t w;

		r.nports = STREAM_MAX;
		n = ctl_signed_bytes(challenge, &p, &r, base);
		for (w = 0; w < sizeof which / sizeof which[0]; w++) {
			size_t at = rl + 2 * (which[w] - 1);

			r.port[which[w]] ^= 0x0101;
			if (ctl_signed_bytes(challenge, &p, &r, out) != n)
				MISS("port %zu changed: the length changed", which[w]);
			else if (out[at] != (base[at] ^ 1) || out[at + 1] != (base[at + 1] ^ 1))
				MISS("port %zu changed: bytes %zu..%zu unchanged", which[w], at,
				     at + 1);
			else if (memcmp(out, base, at) != 0 ||
			    memcmp(out + at + 2, base + at + 2, n - at - 2) != 0)
				MISS("port %zu changed: other bytes changed", which[w]);
			r.port[which[w]] ^= 0x0101;
		}
		/* one port fewer: its bytes no longer covered, the count differs */
		r.nports = STREAM_MAX - 1;
		assert_int_equal(ctl_signed_bytes(challenge, &p, &r, out), n - 2);
		assert_int_equal(out[pl + 3], STREAM_MAX - 1);
		assert_memory_equal(out + rl, base + rl, n - 2 - rl);
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

static void
test_type_name(void **state)
{
	(void)state;
	assert_string_equal(ctl_type_name(0), "unknown");
	assert_string_equal(ctl_type_name(CTL_PARAMS), "PARAMS");
	assert_string_equal(ctl_type_name(CTL_READY), "READY");
	assert_string_equal(ctl_type_name(CTL_RESULT), "RESULT");
	assert_string_equal(ctl_type_name(CTL_ERROR), "ERROR");
	assert_string_equal(ctl_type_name(CTL_HELLO), "HELLO");
	assert_string_equal(ctl_type_name(CTL_START), "START");
	assert_string_equal(ctl_type_name(CTL_STOP), "STOP");
	assert_string_equal(ctl_type_name(5), "HELLO");
	assert_string_equal(ctl_type_name(7), "STOP");
	assert_string_equal(ctl_type_name(CTL_INTERVAL), "INTERVAL");
	assert_string_equal(ctl_type_name(CTL_TCPINFO), "TCPINFO");
	assert_string_equal(ctl_type_name(8), "INTERVAL");
	assert_string_equal(ctl_type_name(9), "TCPINFO");
	assert_string_equal(ctl_type_name(CTL_UDPSTATS), "UDPSTATS");
	assert_string_equal(ctl_type_name(10), "UDPSTATS");
	assert_string_equal(ctl_type_name(CTL_UDPSTATS), "UDPSTATS");
	assert_string_equal(ctl_type_name(CTL_ECHOSTATS), "ECHOSTATS");
	assert_string_equal(ctl_type_name(11), "unknown");
	assert_string_equal(ctl_type_name(11), "unknown");
	assert_string_equal(ctl_type_name(128), "unknown");
	assert_string_equal(ctl_type_name(255), "unknown");
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
		cmocka_unit_test_setup(test_params_wire, fresh),
		cmocka_unit_test_setup(test_params_variants, fresh),
		cmocka_unit_test_setup(test_params_flags, fresh),
		cmocka_unit_test_setup(test_ready_wire, fresh),
		cmocka_unit_test_setup(test_ready_ports, fresh),
		cmocka_unit_test_setup(test_ready_invalid, fresh),
		cmocka_unit_test_setup(test_hello_wire, fresh),
		cmocka_unit_test_setup(test_start_stop, fresh),
		cmocka_unit_test_setup(test_result, fresh),
		cmocka_unit_test_setup(test_result_wire, fresh),
		cmocka_unit_test_setup(test_result_streams, fresh),
		cmocka_unit_test_setup(test_error_msgs, fresh),
		cmocka_unit_test_setup(test_bad_header, fresh),
		cmocka_unit_test_setup(test_bad_length, fresh),
		cmocka_unit_test_setup(test_params_reserved, fresh),
		cmocka_unit_test_setup(test_params_latency, fresh),
		cmocka_unit_test_setup(test_echo_msgs, fresh),
		cmocka_unit_test_setup(test_params_pacing, fresh),
		cmocka_unit_test_setup(test_params_invalid, fresh),
		cmocka_unit_test_setup(test_other_payloads_invalid, fresh),
		cmocka_unit_test_setup(test_cc_names, fresh),
		cmocka_unit_test_setup(test_cc_lists, fresh),
		cmocka_unit_test_setup(test_interval, fresh),
		cmocka_unit_test_setup(test_interval_invalid, fresh),
		cmocka_unit_test_setup(test_tcpinfo, fresh),
		cmocka_unit_test_setup(test_tcpinfo_invalid, fresh),
		cmocka_unit_test_setup(test_udpstats_wire, fresh),
		cmocka_unit_test_setup(test_udpstats, fresh),
		cmocka_unit_test_setup(test_udpstats_invalid, fresh),
		cmocka_unit_test_setup(test_send_recv, fresh),
		cmocka_unit_test_setup(test_recv_split, fresh),
		cmocka_unit_test_setup(test_recv_errors, fresh),
		cmocka_unit_test_setup(test_recv_malformed, fresh),
		cmocka_unit_test_setup(test_send_closed, fresh),
		cmocka_unit_test_setup(test_recv_type, fresh),
		cmocka_unit_test_setup(test_signed_bytes, fresh),
		cmocka_unit_test_setup(test_recv_until, fresh),
		cmocka_unit_test_setup(test_recv_any_until, fresh),
		cmocka_unit_test_setup(test_type_name, fresh),
		cmocka_unit_test_setup(test_peer_state, fresh),
		cmocka_unit_test_setup(test_recv_awaiting, fresh),
		cmocka_unit_test_setup(test_stop_passed_down, fresh),
		cmocka_unit_test_setup(test_connect_refused, fresh),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

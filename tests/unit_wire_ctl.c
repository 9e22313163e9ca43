/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_wire_ctl.c: the control protocol's codec (wire_ctl.c). One table of
 * cases (test_wire): bytes in, and what the decoder must answer: a header
 * (ctl_decode_header) or a payload of a type (ctl_decode_payload); refused
 * with its exact words, or accepted with the fields a message the case
 * names (the decoded message encodes back to the very bytes, and so does
 * the expected one). A case's bytes are a message encoded (checked against
 * its documented wire bytes where the case gives them), literal bytes, or
 * a fill; then bytes spliced in and fields poked at their offsets (one
 * poke may walk a range of offsets, each on its own). Then what is not a
 * decode: the signed bytes, ctl_error's text, the type names, and the
 * named offsets against the layout gput(1) documents. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "wire_ctl.h"

#pragma GCC diagnostic ignored "-Woverride-init"
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Winitializer-overrides"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

#define P62 (1ULL << 62)

static int misses;
#define MISS(fmt, ...) (print_error(fmt "\n", __VA_ARGS__), misses++)
#define MISSED() do { int m_ = misses; misses = 0; \
	if (m_ != 0) fail_msg("%d mismatch(es) above", m_); } while (0)

/* ---- the messages the cases start from ------------------------------ */

/* A PARAMS whose every field has a distinct, valid value (params_wire). */
#define MAC_C0 { 0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, \
	0xca, 0xcb, 0xcc, 0xcd, 0xce, 0xcf, 0xd0, 0xd1, 0xd2, 0xd3, 0xd4, 0xd5, \
	0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xdb, 0xdc, 0xdd, 0xde, 0xdf }
#define PX_BASE .proto = PROTO_UDP, .role = ROLE_RECV, .nodelay = 1, \
	.pattern_spans = 1, .len = 0x01020304, .count = 0x1112131415161718ULL, \
	.window = 0x21222324, .gap_us = 10000000 /* 0x00989680 */, \
	.data_len = 65507 /* 0x0000ffe3 */, .seed = 0xa1a2a3a4u, \
	.data_bytes = P62 /* a timed test: XFER_TIME_BYTES */, \
	.data_gap_ps = 0x000008123456789aULL /* 8.87 s, under 10 s */, \
	.data_burst = XFER_MAX_BURST /* 0x000f4240 */, \
	.duration_ms = 0x01234567 /* 5 h 18 min, under a day */, \
	.interval_ms = 0x00345678, .omit_ms = 0x00456789, .cc = "cubic", \
	.streams = 0x73 /* 115 */
/* params_msg with some fields changed. */
#define PMSG(...) (&(const struct ctl_msg){ .type = CTL_PARAMS, \
	.params = { PX_BASE, __VA_ARGS__ }, .mac = MAC_C0 })

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
#define PARAMS_P (params_wire + CTL_HDR_LEN)

/* PARAMS with CTL_XF_LATENCY: 152 xflags, 156 interval_us 10000, 160
 * idle_ms 1000, 164 zero. */
#define LMSG(...) PMSG(.xflags = CTL_XF_LATENCY, .lat_interval_us = 10000, \
	.lat_idle_ms = 1000, __VA_ARGS__)
static const uint8_t latency_wire[CTL_HDR_LEN + CTL_PARAMS_LEN] = {
	'G', 'P', 'U', 'T', 0x04, 0x01, 0x00, 0xd8,
	0x01, 0x01, 0x05, 0x00, 0x01, 0x02, 0x03, 0x04,
	0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x21, 0x22, 0x23, 0x24,
	0x00, 0x98, 0x96, 0x80, 0x00, 0x00, 0xff, 0xe3, 0xa1, 0xa2, 0xa3, 0xa4,
	0x40, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x00, 0x08, 0x12, 0x34, 0x56, 0x78, 0x9a,
	0x01, 0x23, 0x45, 0x67, 0x00, 0x34, 0x56, 0x78, 0x00, 0x45, 0x67, 0x89,
	0x00, 0x0f, 0x42, 0x40, 'c', 'u', 'b', 'i', 'c',
	[CTL_HDR_LEN + 128] = 0x00, 0x73,
	[CTL_HDR_LEN + 152] = 0, 0, 0, 2, 0, 0, 0x27, 0x10, 0, 0, 0x03, 0xe8,
	0, 0, 0, 0,
	[CTL_HDR_LEN + 184] = 0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7,
	0xc8, 0xc9, 0xca, 0xcb, 0xcc, 0xcd, 0xce, 0xcf, 0xd0, 0xd1, 0xd2, 0xd3,
	0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xdb, 0xdc, 0xdd, 0xde, 0xdf,
};

/* params_invalid's rows: a valid base, one field changed. */
#define TCPR(...) { .proto = PROTO_TCP, .role = ROLE_RECV, .len = 4096, \
	.count = 2048, .data_len = 4096, .data_bytes = 2048 * 4096, \
	.streams = 1, __VA_ARGS__ }
#define TCPS(...) TCPR(.role = ROLE_SEND, __VA_ARGS__)
#define UDPR(...) TCPR(.proto = PROTO_UDP, __VA_ARGS__)
#define BADP(w) "bad PARAMS message: " w
#define WINBAD "--sliding-window other than for a UDP receiver of a counted " \
	"stream with data headers and a validated path"
#define CC4 "abcdefghijklmno,pqrstuvwxyz0123,456789_-abcdefg,hijklmnopqrstuv"

/* READY: one port 0xbeef (the second, beyond the count, not sent), the
 * nonce 0x40.., the MAC 0x80... */
#define NONCE40 { 0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, \
	0x49, 0x4a, 0x4b, 0x4c, 0x4d, 0x4e, 0x4f }
#define MAC80 { 0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, \
	0x8a, 0x8b, 0x8c, 0x8d, 0x8e, 0x8f, 0x90, 0x91, 0x92, 0x93, 0x94, 0x95, \
	0x96, 0x97, 0x98, 0x99, 0x9a, 0x9b, 0x9c, 0x9d, 0x9e, 0x9f }
#define RDY(...) (&(const struct ctl_msg){ .type = CTL_READY, .nports = 1, \
	.nonce = NONCE40, .mac = MAC80, __VA_ARGS__ })
static const uint8_t ready_wire[CTL_HDR_LEN + CTL_READY_LEN] = {
	'G', 'P', 'U', 'T', 4, 2, 0, 0x34, 0xbe, 0xef, 0, 1,
	0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x4b,
	0x4c, 0x4d, 0x4e, 0x4f, 0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87,
	0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8d, 0x8e, 0x8f, 0x90, 0x91, 0x92, 0x93,
	0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0x9b, 0x9c, 0x9d, 0x9e, 0x9f,
};

/* HELLO with the key flag and the challenge 0xa0... */
#define CHAL_A0 { 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, \
	0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf, 0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb5, \
	0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xbb, 0xbc, 0xbd, 0xbe, 0xbf }
#define HELLO(f) (&(const struct ctl_msg){ .type = CTL_HELLO, .hello_flags = (f), \
	.challenge = CHAL_A0 })
static const uint8_t hello_wire[CTL_HDR_LEN + CTL_HELLO_LEN] = {
	'G', 'P', 'U', 'T', 4, 5, 0, 0x28, 0, 0, 0, 1, 0, 0, 0, 0,
	0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xab,
	0xac, 0xad, 0xae, 0xaf, 0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7,
	0xb8, 0xb9, 0xba, 0xbb, 0xbc, 0xbd, 0xbe, 0xbf,
};

/* RESULT: a message of a result, a stream and its window. */
#define RES(s, a, b, ...) (&(const struct ctl_msg){ .type = CTL_RESULT, \
	.stream = (s), .start_ns = (a), .end_ns = (b), .result = { __VA_ARGS__ } })
/* RESULT: eleven u64 in declaration order, then flags, sndbuf and rcvbuf
 * u32, stream u32 at 100, start_ns u64 at 104, end_ns u64 at 112. */
static const uint8_t result_wire[CTL_HDR_LEN + CTL_RESULT_LEN] = {
	'G', 'P', 'U', 'T', 0x04, 0x03, 0x00, 0x78,
	0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18,
	0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28,
	0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38,
	0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48,
	0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58,
	0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68,
	0x71, 0x72, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78,
	0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88,
	0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98,
	0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8,
	0x00, 0x00, 0x00, 0x5d, 0xb1, 0xb2, 0xb3, 0xb4, 0xc1, 0xc2, 0xc3, 0xc4,
	0x00, 0x00, 0x00, 0x80,
	0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8,
	0xe1, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8,
};
/* The RESULT test_result_streams pokes: 42 bytes, stopped. */
#define RES42(s, a, b) RES(s, a, b, .bytes = 42, .flags = RES_STOPPED)

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
#define IVAL_P (interval_wire + CTL_HDR_LEN)
/* An INTERVAL of stream s: index i, the interval's fields; what is not
 * sent (lat_p50_ns, and dups/reordered of a TCP one) set, so it cannot
 * leak. */
#define IVL(s, i, ...) (&(const struct ctl_msg){ .type = CTL_INTERVAL, \
	.stream = (s), .ival_index = (i), .ival = { .lat_p50_ns = 0x5555555555555555ULL, \
	__VA_ARGS__ } })
#define IVL_TCP(s, i, ...) IVL(s, i, .dups = 0x55555555u, .reordered = 0x55555555u, \
	__VA_ARGS__)

/* TCPINFO: cc[16], retrans u64, rtt, min_rtt, cwnd, mss u32, delivery_rate,
 * busy, rwnd_limited, sndbuf_limited u64, stream u32, ecn u32, delivered_ce,
 * received_ce, received_ce_bytes u32, a zero u32: 96 bytes. */
#define TCPI(s, ...) (&(const struct ctl_msg){ .type = CTL_TCPINFO, \
	.stream = (s), .tcp = { __VA_ARGS__ } })
static const uint8_t tcpinfo_wire[CTL_HDR_LEN + CTL_TCPINFO_LEN] = {
	'G', 'P', 'U', 'T', 4, 9, 0, 0x60,
	/*  0 */ 'r', 'e', 'n', 'o', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	/* 16 */ 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	/* 24 */ 0x11, 0x12, 0x13, 0x14, 0x21, 0x22, 0x23, 0x24,
	/* 32 */ 0x31, 0x32, 0x33, 0x34, 0x41, 0x42, 0x43, 0x44,
	/* 40 */ 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58,
	/* 48 */ 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68,
	/* 56 */ 0x71, 0x72, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78,
	/* 64 */ 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88,
	/* 72 */ 0, 0, 0, 0x7f, 0, 0, 0, 0x07,
	/* 80 */ 0x91, 0x92, 0x93, 0x94, 0xa1, 0xa2, 0xa3, 0xa4,
	/* 88 */ 0xb1, 0xb2, 0xb3, 0xb4, 0, 0, 0, 0,
};
/* The TCPINFO test_tcpinfo_invalid pokes: "cubic", stream 1, the rest 0. */
static const uint8_t tcpinfo_cubic[CTL_TCPINFO_LEN] = { 'c', 'u', 'b', 'i', 'c',
	[75] = 1 };

/* A UDPSTATS whose fields all differ and whose counts add up:
 * received - unique = duplicates + too_old, and received = the four ECN
 * counts. */
#define UDPSTATS_BASE .received = 0x0102030405060708ULL, \
	.unique = 0x0102030305060703ULL, .duplicates = 0x0000000100000002ULL, \
	.reordered = 0x2122232425262728ULL, \
	.max_displacement = 0x3132333435363738ULL, .late = 0x4142434445464748ULL, \
	.too_old = 3, .other = 0x5152535455565758ULL, \
	.jitter_ns = 0x6162636465666768ULL, .delay_var_ns = 0x7172737475767778ULL, \
	.delay_var_max_ns = 0x8182838485868788ULL, .owd_min_ns = -2, \
	.owd_mean_ns = 0x0910111213141516LL, \
	.ecn = { 0x0102030405060700ULL, 5, 2, 1 }, \
	.flags = UDPS_SEQ | UDPS_TIMED | UDPS_ECN
#define UDPS(s, ...) (&(const struct ctl_msg){ .type = CTL_UDPSTATS, \
	.stream = (s), .udp = { __VA_ARGS__ } })
static const uint8_t udpstats_wire[CTL_HDR_LEN + CTL_UDPSTATS_LEN] = {
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

/* ECHOPORT 40001; ECHOSTATS whose counts add up. */
static const uint8_t echoport_wire[] = { 'G', 'P', 'U', 'T', 4, 13, 0, 4,
	0x9c, 0x41, 0, 0 };
#define ECHOSTATS(...) (&(const struct ctl_msg){ .type = CTL_ECHOSTATS, \
	.echo = { __VA_ARGS__ } })
#define ECHO_BASE .received = 0x0102030405060708ull + 15, \
	.echoed = 0x0102030405060708ull, .over_rate = 1, .strangers = 2, \
	.malformed = 4, .failed = 8

#define PORTS128 { 0x1001, 0x1103, 0x1205, 0x1307, 0x1409, 0x150b, 0x160d, 0x170f, 0x1811, 0x1913, 0x1a15, 0x1b17, 0x1c19, 0x1d1b, 0x1e1d, 0x1f1f, 0x2021, 0x2123, 0x2225, 0x2327, 0x2429, 0x252b, 0x262d, 0x272f, 0x2831, 0x2933, 0x2a35, 0x2b37, 0x2c39, 0x2d3b, 0x2e3d, 0x2f3f, 0x3041, 0x3143, 0x3245, 0x3347, 0x3449, 0x354b, 0x364d, 0x374f, 0x3851, 0x3953, 0x3a55, 0x3b57, 0x3c59, 0x3d5b, 0x3e5d, 0x3f5f, 0x4061, 0x4163, 0x4265, 0x4367, 0x4469, 0x456b, 0x466d, 0x476f, 0x4871, 0x4973, 0x4a75, 0x4b77, 0x4c79, 0x4d7b, 0x4e7d, 0x4f7f, 0x5081, 0x5183, 0x5285, 0x5387, 0x5489, 0x558b, 0x568d, 0x578f, 0x5891, 0x5993, 0x5a95, 0x5b97, 0x5c99, 0x5d9b, 0x5e9d, 0x5f9f, 0x60a1, 0x61a3, 0x62a5, 0x63a7, 0x64a9, 0x65ab, 0x66ad, 0x67af, 0x68b1, 0x69b3, 0x6ab5, 0x6bb7, 0x6cb9, 0x6dbb, 0x6ebd, 0x6fbf, 0x70c1, 0x71c3, 0x72c5, 0x73c7, 0x74c9, 0x75cb, 0x76cd, 0x77cf, 0x78d1, 0x79d3, 0x7ad5, 0x7bd7, 0x7cd9, 0x7ddb, 0x7edd, 0x7fdf, 0x80e1, 0x81e3, 0x82e5, 0x83e7, 0x84e9, 0x85eb, 0x86ed, 0x87ef, 0x88f1, 0x89f3, 0x8af5, 0x8bf7, 0x8cf9, 0x8dfb, 0x8efd, 0x8fff }

static const uint8_t ready1_wire[] = {
	0x47, 0x50, 0x55, 0x54, 0x04, 0x02, 0x00, 0x34, 0x10, 0x01, 0x00, 0x01,
	0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x4b,
	0x4c, 0x4d, 0x4e, 0x4f, 0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87,
	0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8d, 0x8e, 0x8f, 0x90, 0x91, 0x92, 0x93,
	0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0x9b, 0x9c, 0x9d, 0x9e, 0x9f,
};

static const uint8_t ready2_wire[] = {
	0x47, 0x50, 0x55, 0x54, 0x04, 0x02, 0x00, 0x36, 0x10, 0x01, 0x00, 0x02,
	0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x4b,
	0x4c, 0x4d, 0x4e, 0x4f, 0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87,
	0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8d, 0x8e, 0x8f, 0x90, 0x91, 0x92, 0x93,
	0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0x9b, 0x9c, 0x9d, 0x9e, 0x9f,
	0x11, 0x03,
};

static const uint8_t ready3_wire[] = {
	0x47, 0x50, 0x55, 0x54, 0x04, 0x02, 0x00, 0x38, 0x10, 0x01, 0x00, 0x03,
	0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x4b,
	0x4c, 0x4d, 0x4e, 0x4f, 0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87,
	0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8d, 0x8e, 0x8f, 0x90, 0x91, 0x92, 0x93,
	0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0x9b, 0x9c, 0x9d, 0x9e, 0x9f,
	0x11, 0x03, 0x12, 0x05,
};

static const uint8_t ready127_wire[] = {
	0x47, 0x50, 0x55, 0x54, 0x04, 0x02, 0x01, 0x30, 0x10, 0x01, 0x00, 0x7f,
	0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x4b,
	0x4c, 0x4d, 0x4e, 0x4f, 0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87,
	0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8d, 0x8e, 0x8f, 0x90, 0x91, 0x92, 0x93,
	0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0x9b, 0x9c, 0x9d, 0x9e, 0x9f,
	0x11, 0x03, 0x12, 0x05, 0x13, 0x07, 0x14, 0x09, 0x15, 0x0b, 0x16, 0x0d,
	0x17, 0x0f, 0x18, 0x11, 0x19, 0x13, 0x1a, 0x15, 0x1b, 0x17, 0x1c, 0x19,
	0x1d, 0x1b, 0x1e, 0x1d, 0x1f, 0x1f, 0x20, 0x21, 0x21, 0x23, 0x22, 0x25,
	0x23, 0x27, 0x24, 0x29, 0x25, 0x2b, 0x26, 0x2d, 0x27, 0x2f, 0x28, 0x31,
	0x29, 0x33, 0x2a, 0x35, 0x2b, 0x37, 0x2c, 0x39, 0x2d, 0x3b, 0x2e, 0x3d,
	0x2f, 0x3f, 0x30, 0x41, 0x31, 0x43, 0x32, 0x45, 0x33, 0x47, 0x34, 0x49,
	0x35, 0x4b, 0x36, 0x4d, 0x37, 0x4f, 0x38, 0x51, 0x39, 0x53, 0x3a, 0x55,
	0x3b, 0x57, 0x3c, 0x59, 0x3d, 0x5b, 0x3e, 0x5d, 0x3f, 0x5f, 0x40, 0x61,
	0x41, 0x63, 0x42, 0x65, 0x43, 0x67, 0x44, 0x69, 0x45, 0x6b, 0x46, 0x6d,
	0x47, 0x6f, 0x48, 0x71, 0x49, 0x73, 0x4a, 0x75, 0x4b, 0x77, 0x4c, 0x79,
	0x4d, 0x7b, 0x4e, 0x7d, 0x4f, 0x7f, 0x50, 0x81, 0x51, 0x83, 0x52, 0x85,
	0x53, 0x87, 0x54, 0x89, 0x55, 0x8b, 0x56, 0x8d, 0x57, 0x8f, 0x58, 0x91,
	0x59, 0x93, 0x5a, 0x95, 0x5b, 0x97, 0x5c, 0x99, 0x5d, 0x9b, 0x5e, 0x9d,
	0x5f, 0x9f, 0x60, 0xa1, 0x61, 0xa3, 0x62, 0xa5, 0x63, 0xa7, 0x64, 0xa9,
	0x65, 0xab, 0x66, 0xad, 0x67, 0xaf, 0x68, 0xb1, 0x69, 0xb3, 0x6a, 0xb5,
	0x6b, 0xb7, 0x6c, 0xb9, 0x6d, 0xbb, 0x6e, 0xbd, 0x6f, 0xbf, 0x70, 0xc1,
	0x71, 0xc3, 0x72, 0xc5, 0x73, 0xc7, 0x74, 0xc9, 0x75, 0xcb, 0x76, 0xcd,
	0x77, 0xcf, 0x78, 0xd1, 0x79, 0xd3, 0x7a, 0xd5, 0x7b, 0xd7, 0x7c, 0xd9,
	0x7d, 0xdb, 0x7e, 0xdd, 0x7f, 0xdf, 0x80, 0xe1, 0x81, 0xe3, 0x82, 0xe5,
	0x83, 0xe7, 0x84, 0xe9, 0x85, 0xeb, 0x86, 0xed, 0x87, 0xef, 0x88, 0xf1,
	0x89, 0xf3, 0x8a, 0xf5, 0x8b, 0xf7, 0x8c, 0xf9, 0x8d, 0xfb, 0x8e, 0xfd,
};

static const uint8_t ready128_wire[] = {
	0x47, 0x50, 0x55, 0x54, 0x04, 0x02, 0x01, 0x32, 0x10, 0x01, 0x00, 0x80,
	0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x4b,
	0x4c, 0x4d, 0x4e, 0x4f, 0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87,
	0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8d, 0x8e, 0x8f, 0x90, 0x91, 0x92, 0x93,
	0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0x9b, 0x9c, 0x9d, 0x9e, 0x9f,
	0x11, 0x03, 0x12, 0x05, 0x13, 0x07, 0x14, 0x09, 0x15, 0x0b, 0x16, 0x0d,
	0x17, 0x0f, 0x18, 0x11, 0x19, 0x13, 0x1a, 0x15, 0x1b, 0x17, 0x1c, 0x19,
	0x1d, 0x1b, 0x1e, 0x1d, 0x1f, 0x1f, 0x20, 0x21, 0x21, 0x23, 0x22, 0x25,
	0x23, 0x27, 0x24, 0x29, 0x25, 0x2b, 0x26, 0x2d, 0x27, 0x2f, 0x28, 0x31,
	0x29, 0x33, 0x2a, 0x35, 0x2b, 0x37, 0x2c, 0x39, 0x2d, 0x3b, 0x2e, 0x3d,
	0x2f, 0x3f, 0x30, 0x41, 0x31, 0x43, 0x32, 0x45, 0x33, 0x47, 0x34, 0x49,
	0x35, 0x4b, 0x36, 0x4d, 0x37, 0x4f, 0x38, 0x51, 0x39, 0x53, 0x3a, 0x55,
	0x3b, 0x57, 0x3c, 0x59, 0x3d, 0x5b, 0x3e, 0x5d, 0x3f, 0x5f, 0x40, 0x61,
	0x41, 0x63, 0x42, 0x65, 0x43, 0x67, 0x44, 0x69, 0x45, 0x6b, 0x46, 0x6d,
	0x47, 0x6f, 0x48, 0x71, 0x49, 0x73, 0x4a, 0x75, 0x4b, 0x77, 0x4c, 0x79,
	0x4d, 0x7b, 0x4e, 0x7d, 0x4f, 0x7f, 0x50, 0x81, 0x51, 0x83, 0x52, 0x85,
	0x53, 0x87, 0x54, 0x89, 0x55, 0x8b, 0x56, 0x8d, 0x57, 0x8f, 0x58, 0x91,
	0x59, 0x93, 0x5a, 0x95, 0x5b, 0x97, 0x5c, 0x99, 0x5d, 0x9b, 0x5e, 0x9d,
	0x5f, 0x9f, 0x60, 0xa1, 0x61, 0xa3, 0x62, 0xa5, 0x63, 0xa7, 0x64, 0xa9,
	0x65, 0xab, 0x66, 0xad, 0x67, 0xaf, 0x68, 0xb1, 0x69, 0xb3, 0x6a, 0xb5,
	0x6b, 0xb7, 0x6c, 0xb9, 0x6d, 0xbb, 0x6e, 0xbd, 0x6f, 0xbf, 0x70, 0xc1,
	0x71, 0xc3, 0x72, 0xc5, 0x73, 0xc7, 0x74, 0xc9, 0x75, 0xcb, 0x76, 0xcd,
	0x77, 0xcf, 0x78, 0xd1, 0x79, 0xd3, 0x7a, 0xd5, 0x7b, 0xd7, 0x7c, 0xd9,
	0x7d, 0xdb, 0x7e, 0xdd, 0x7f, 0xdf, 0x80, 0xe1, 0x81, 0xe3, 0x82, 0xe5,
	0x83, 0xe7, 0x84, 0xe9, 0x85, 0xeb, 0x86, 0xed, 0x87, 0xef, 0x88, 0xf1,
	0x89, 0xf3, 0x8a, 0xf5, 0x8b, 0xf7, 0x8c, 0xf9, 0x8d, 0xfb, 0x8e, 0xfd,
	0x8f, 0xff,
};

static const uint8_t ready_raw[] = {
	0x13, 0xad, 0x00, 0x00, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
	0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
	0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f,
	0x30, 0x31, 0x32, 0x33, 0x13, 0xe2, 0x13, 0xe4, 0x13, 0xe6, 0x13, 0xe8, 0x13, 0xea, 0x13, 0xec,
	0x13, 0xee, 0x13, 0xf0, 0x13, 0xf2, 0x13, 0xf4, 0x13, 0xf6, 0x13, 0xf8, 0x13, 0xfa, 0x13, 0xfc,
	0x13, 0xfe, 0x13, 0x00, 0x13, 0x02, 0x13, 0x04, 0x13, 0x06, 0x13, 0x08, 0x13, 0x0a, 0x13, 0x0c,
	0x13, 0x0e, 0x13, 0x10, 0x13, 0x12, 0x13, 0x14, 0x13, 0x16, 0x13, 0x18, 0x13, 0x1a, 0x13, 0x1c,
	0x13, 0x1e, 0x13, 0x20, 0x13, 0x22, 0x13, 0x24, 0x13, 0x26, 0x13, 0x28, 0x13, 0x2a, 0x13, 0x2c,
	0x13, 0x2e, 0x13, 0x30, 0x13, 0x32, 0x13, 0x34, 0x13, 0x36, 0x13, 0x38, 0x13, 0x3a, 0x13, 0x3c,
	0x13, 0x3e, 0x13, 0x40, 0x13, 0x42, 0x13, 0x44, 0x13, 0x46, 0x13, 0x48, 0x13, 0x4a, 0x13, 0x4c,
	0x13, 0x4e, 0x13, 0x50, 0x13, 0x52, 0x13, 0x54, 0x13, 0x56, 0x13, 0x58, 0x13, 0x5a, 0x13, 0x5c,
	0x13, 0x5e, 0x13, 0x60, 0x13, 0x62, 0x13, 0x64, 0x13, 0x66, 0x13, 0x68, 0x13, 0x6a, 0x13, 0x6c,
	0x13, 0x6e, 0x13, 0x70, 0x13, 0x72, 0x13, 0x74, 0x13, 0x76, 0x13, 0x78, 0x13, 0x7a, 0x13, 0x7c,
	0x13, 0x7e, 0x13, 0x80, 0x13, 0x82, 0x13, 0x84, 0x13, 0x86, 0x13, 0x88, 0x13, 0x8a, 0x13, 0x8c,
	0x13, 0x8e, 0x13, 0x90, 0x13, 0x92, 0x13, 0x94, 0x13, 0x96, 0x13, 0x98, 0x13, 0x9a, 0x13, 0x9c,
	0x13, 0x9e, 0x13, 0xa0, 0x13, 0xa2, 0x13, 0xa4, 0x13, 0xa6, 0x13, 0xa8, 0x13, 0xaa, 0x13, 0xac,
	0x13, 0xae, 0x13, 0xb0, 0x13, 0xb2, 0x13, 0xb4, 0x13, 0xb6, 0x13, 0xb8, 0x13, 0xba, 0x13, 0xbc,
	0x13, 0xbe, 0x13, 0xc0, 0x13, 0xc2, 0x13, 0xc4, 0x13, 0xc6, 0x13, 0xc8, 0x13, 0xca, 0x13, 0xcc,
	0x13, 0xce, 0x13, 0xd0, 0x13, 0xd2, 0x13, 0xd4, 0x13, 0xd6, 0x13, 0xd8, 0x13, 0xda, 0x13, 0xdc,
	0x13, 0xde, 0x13, 0xe0, 0x13, 0xe2, 0x13, 0xe4, 0x13, 0xe6, 0x13, 0xe8, 0x13, 0xea, 0x13, 0xec,
};

static const uint8_t echostats_wire[] = {
	0x47, 0x50, 0x55, 0x54, 0x04, 0x0e, 0x00, 0x30, 0x01, 0x02, 0x03, 0x04,
	0x05, 0x06, 0x07, 0x17, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x08,
};

/* HOSTUDP: 2^32 RcvbufErrors, 0x0102030405 would be over; InErrors
 * 0x01020304, IPv6. */
#define HOSTUDP(...) (&(const struct ctl_msg){ .type = CTL_HOSTUDP, \
	.hostudp = { __VA_ARGS__ } })
#define HU_BASE .rcvbuf_errors = 1ull << 32, .in_errors = 0x01020304, \
	.flags = HOSTUDP_V6
static const uint8_t hostudp_wire[] = { 'G', 'P', 'U', 'T', 4, 17, 0, 24,
	0, 0, 0, 1, 0, 0, 0, 0,
	0, 0, 0, 0, 1, 2, 3, 4,
	0, 0, 0, 1,
	0, 0, 0, 0,
};

/* The TCPINFO test_cc_names puts a name into: stream 1, the rest 0. */
static const uint8_t tcpinfo_one[CTL_TCPINFO_LEN] = { [75] = 1 };

#define E10 "eeeeeeeeee"
#define E200 E10 E10 E10 E10 E10 E10 E10 E10 E10 E10 E10 E10 E10 E10 E10 E10 \
	E10 E10 E10 E10

/* ---- the case ------------------------------------------------------- */

/* A big-endian field of w bytes (1..8) set to v at payload offset off. */
struct poke { uint16_t off; uint8_t w; uint64_t v; };
#define B(o, v) { (o), 1, (v) }
#define U16(o, v) { (o), 2, (v) }
#define U32(o, v) { (o), 4, (v) }
#define U64(o, v) { (o), 8, (v) }

struct wcase {
	const char *name;
	uint8_t type;               /* the payload decoded as this type */
	uint8_t hdr;                /* 1: raw is a header for ctl_decode_header */
	const struct ctl_msg *msg;  /* the bytes: this message encoded, */
	const uint8_t *raw;         /* or these, */
	uint8_t fill;               /* or len bytes of this */
	uint16_t len;               /* bytes given (0: the message's own) */
	const void *splice;         /* copied in at splice_at, splice_n bytes */
	uint16_t splice_at, splice_n;
	struct poke poke[4];        /* then these (w 0: none) */
	uint16_t each_end;          /* > 0: poke[0] at every offset from its
	                               own up to here, each on its own */
	const char *err;            /* NULL: accepted */
	const struct ctl_msg *want; /* accepted: what it decodes to (NULL: msg
	                               when nothing is spliced or poked) */
	const uint8_t *wire;        /* msg encodes to exactly these */
	uint16_t wire_len;
	uint8_t htype;              /* an accepted header's type and length */
	uint16_t hplen;
};

/* A header; a payload of a type from bytes, from a fill, from a message. */
#define HDR(n, h, e) { .name = n, .hdr = 1, .raw = (const uint8_t *)(h), .err = e }
#define HDR_OK(n, h, t, l) { .name = n, .hdr = 1, .raw = (const uint8_t *)(h), \
	.htype = (t), .hplen = (l) }
#define FILL(n, t, c, l, e) { .name = n, .type = (t), .fill = (c), .len = (l), .err = e }
#define RAW(n, t, r, l, e) { .name = n, .type = (t), .raw = (const uint8_t *)(r), \
	.len = (l), .err = e }
#define MSG(n, t, m, e) { .name = n, .type = (t), .msg = (m), .err = e }
/* PARAMS: params_msg with one byte poked; a whole xfer_params. */
#define PB(n, o, v, e) { .name = n, .type = CTL_PARAMS, .msg = PMSG(), \
	.poke = { B(o, v) }, .err = e }
#define PRM(n, x, e) { .name = n, .type = CTL_PARAMS, \
	.msg = &(const struct ctl_msg){ .type = CTL_PARAMS, .params = x }, .err = e }
/* READY from ready_raw: its count at 2 and len bytes, port z (1..) zero. */
#define RDZ(z) U16((z) == 1 ? 0 : 52 + 2 * ((z) - 2), (z) ? 0 : 0x13ad)
#define RDRAW(n, count, l, z, e) { .name = n, .type = CTL_READY, .raw = ready_raw, \
	.len = (l), .poke = { U16(2, count), RDZ(z) }, .err = e }

/* The case's payload into p (and the whole message into whole when it is
 * encoded from msg). Returns its length. */
static size_t
case_bytes(const struct wcase *c, uint8_t *whole, size_t wholelen)
{
	uint8_t *p = whole + CTL_HDR_LEN;
	size_t n, k;

	memset(whole, 0xee, wholelen);
	if (c->msg != NULL) {
		n = ctl_encode(c->msg, whole);
		if (whole[n] != 0xee)
			MISS("%s: a byte beyond the message", c->name);
		if (c->wire != NULL && (n != c->wire_len ||
		    memcmp(whole, c->wire, n) != 0))
			MISS("%s: not the documented wire bytes", c->name);
		n -= CTL_HDR_LEN;
		if (c->len != 0)
			n = c->len;
	} else if (c->raw != NULL) {
		memcpy(p, c->raw, n = c->len);
	} else {
		memset(p, c->fill, n = c->len);
	}
	if (c->splice != NULL)
		memcpy(p + c->splice_at, c->splice, c->splice_n);
	for (k = 0; k < 4 && c->poke[k].w != 0; k++) {
		size_t j;

		if (k == 0 && c->each_end != 0)
			continue;               /* walked by the caller */
		for (j = 0; j < c->poke[k].w; j++)
			p[c->poke[k].off + j] = (uint8_t)(c->poke[k].v >>
			    (8 * (c->poke[k].w - 1 - j)));
	}
	return n;
}

/* An accepted payload: the decoded message encodes back to the very
 * bytes, and so does the expected one (its fields are the decoded ones). */
static void
case_fields(const struct wcase *c, const uint8_t *p, size_t n,
            const struct ctl_msg *d, int touched)
{
	const struct ctl_msg *want = c->want != NULL ? c->want :
	    touched ? NULL : c->msg;
	uint8_t b[CTL_HDR_LEN + CTL_MAX_PAYLOAD];

	if (d->type != c->type)
		MISS("%s: decoded as type %u", c->name, d->type);
	if (ctl_encode(d, b) != CTL_HDR_LEN + n ||
	    memcmp(b + CTL_HDR_LEN, p, n) != 0)
		MISS("%s: the decoded message encodes to other bytes", c->name);
	if (want != NULL && (ctl_encode(want, b) != CTL_HDR_LEN + n ||
	    memcmp(b + CTL_HDR_LEN, p, n) != 0))
		MISS("%s: the fields are not the expected ones", c->name);
	if (c->type == CTL_TCPINFO && d->tcp.valid != 1)
		MISS("%s: a decoded TCPINFO is not valid", c->name);
}

static void
case_header(const struct wcase *c)
{
	char err[256] = "";
	uint8_t type = 0xaa;
	uint16_t plen = 0xaaaa;
	int rc = ctl_decode_header(c->raw, &type, &plen, err, sizeof err);

	if (rc != (c->err == NULL ? 0 : -1))
		MISS("%s: rc %d (%s)", c->name, rc, err);
	else if (c->err != NULL && strcmp(err, c->err) != 0)
		MISS("%s: '%s', want '%s'", c->name, err, c->err);
	else if (c->err != NULL && (type != 0xaa || plen != 0xaaaa))
		MISS("%s: refused but stored type/length", c->name);
	else if (c->err == NULL && (type != c->htype || plen != c->hplen))
		MISS("%s: type %u length %u", c->name, type, plen);
}

static void
run_case(const struct wcase *c)
{
	uint8_t whole[CTL_HDR_LEN + CTL_MAX_PAYLOAD + 1];
	uint8_t *p = whole + CTL_HDR_LEN;
	size_t n, off, end;

	if (c->hdr) {
		case_header(c);
		return;
	}
	n = case_bytes(c, whole, sizeof whole);
	off = c->each_end != 0 ? c->poke[0].off : 0;
	end = c->each_end != 0 ? c->each_end : 1;
	for (; off < end; off++) {
		uint8_t q[CTL_MAX_PAYLOAD + 1];
		struct ctl_msg d;
		char err[256] = "";
		int rc;

		memcpy(q, p, n);
		if (c->each_end != 0)
			q[off] = (uint8_t)c->poke[0].v;
		memset(&d, 0x77, sizeof d);
		rc = ctl_decode_payload(c->type, q, n, &d, err, sizeof err);
		if (rc != (c->err == NULL ? 0 : -1))
			MISS("%s (offset %zu): rc %d (%s)", c->name, off, rc, err);
		else if (c->err != NULL && strcmp(err, c->err) != 0)
			MISS("%s (offset %zu): '%s', want '%s'", c->name, off, err,
			     c->err);
		else if (rc == 0)
			case_fields(c, q, n, &d, c->splice != NULL ||
			    c->poke[0].w != 0);
	}
}

static const struct wcase cases[] = {
	/* ---- headers ---- */
	HDR("header GPUX\\x04\\x01\\x00\\xb8", "GPUX\x04\x01\x00\xb8",
	    "not a gput control message (bad magic)"),
	HDR("header gput\\x04\\x01\\x00\\xb8", "gput\x04\x01\x00\xb8",
	    "not a gput control message (bad magic)"),
	HDR("header 0 0 0 0 4 1 0 216", ((const uint8_t[]){ 0, 0, 0, 0, 4, 1, 0, 216 }),
	    "not a gput control message (bad magic)"),
	HDR("header GPUX\\x02\\x01\\x00\\x70", "GPUX\x02\x01\x00\x70",
	    "not a gput control message (bad magic)"),
	HDR("header GPUT\\x00\\x01\\x00\\xb8", "GPUT\x00\x01\x00\xb8",
	    "control protocol version 0 not supported (this gput speaks 4)"),
	HDR("header GPUT\\x01\\x01\\x00\\x30", "GPUT\x01\x01\x00\x30",
	    "control protocol version 1 not supported (this gput speaks 4)"),
	HDR("header GPUT\\x01\\x05\\x00\\x28", "GPUT\x01\x05\x00\x28",
	    "control protocol version 1 not supported (this gput speaks 4)"),
	/* version 2: every message of it, at its own length */
	HDR("header GPUT\\x02\\x01\\x00\\x70", "GPUT\x02\x01\x00\x70",
	    "control protocol version 2 not supported (this gput speaks 4)"),
	HDR("header GPUT\\x02\\x02\\x00\\x34", "GPUT\x02\x02\x00\x34",
	    "control protocol version 2 not supported (this gput speaks 4)"),
	HDR("header GPUT\\x02\\x03\\x00\\x64", "GPUT\x02\x03\x00\x64",
	    "control protocol version 2 not supported (this gput speaks 4)"),
	HDR("header GPUT\\x02\\x05\\x00\\x28", "GPUT\x02\x05\x00\x28",
	    "control protocol version 2 not supported (this gput speaks 4)"),
	HDR("header GPUT\\x02\\x06\\x00\\x00", "GPUT\x02\x06\x00\x00",
	    "control protocol version 2 not supported (this gput speaks 4)"),
	HDR("header GPUT\\x02\\x09\\x00\\x48", "GPUT\x02\x09\x00\x48",
	    "control protocol version 2 not supported (this gput speaks 4)"),
	/* version 3: its PARAMS of 184 bytes, a READY */
	HDR("header GPUT\\x03\\x01\\x00\\xb8", "GPUT\x03\x01\x00\xb8",
	    "control protocol version 3 not supported (this gput speaks 4)"),
	HDR("header GPUT\\x03\\x02\\x00\\x34", "GPUT\x03\x02\x00\x34",
	    "control protocol version 3 not supported (this gput speaks 4)"),
	/* version 2 with a v3 length: the version speaks first */
	HDR("header GPUT\\x02\\x01\\x00\\xb8", "GPUT\x02\x01\x00\xb8",
	    "control protocol version 2 not supported (this gput speaks 4)"),
	HDR("header GPUT\\x02\\x0b\\x01\\x41", "GPUT\x02\x0b\x01\x41",
	    "control protocol version 2 not supported (this gput speaks 4)"),
	HDR("header GPUT\\x05\\x01\\x00\\xd8", "GPUT\x05\x01\x00\xd8",
	    "control protocol version 5 not supported (this gput speaks 4)"),
	HDR("header GPUT\\xff\\x01\\x00\\xb8", "GPUT\xff\x01\x00\xb8",
	    "control protocol version 255 not supported (this gput speaks 4)"),
	HDR("header GPUT\\x04\\x00\\x00\\x04", "GPUT\x04\x00\x00\x04",
	    "unknown control message type 0"),
	HDR("header GPUT\\x04\\x30\\x00\\x00", "GPUT\x04\x30\x00\x00",
	    "unknown control message type 48"),
	HDR("header GPUT\\x04\\x30\\x00\\x70", "GPUT\x04\x30\x00\x70",
	    "unknown control message type 48"),
	HDR("header GPUT\\x04\\x30\\x00\\x04", "GPUT\x04\x30\x00\x04",
	    "unknown control message type 48"),
	HDR("header GPUT\\x04\\x31\\x00\\x04", "GPUT\x04\x31\x00\x04",
	    "unknown control message type 49"),
	HDR("header GPUT\\x04\\x80\\x00\\x48", "GPUT\x04\x80\x00\x48",
	    "unknown control message type 128"),
	HDR("header GPUT\\x04\\xff\\x00\\x04", "GPUT\x04\xff\x00\x04",
	    "unknown control message type 255"),
	HDR("header GPUT\\x04\\x04\\x01\\x41", "GPUT\x04\x04\x01\x41",
	    "control message too long (321 bytes, at most 320)"),
	HDR("header GPUT\\x04\\x02\\x01\\x42", "GPUT\x04\x02\x01\x42",
	    "control message too long (322 bytes, at most 320)"),
	HDR("header GPUT\\x04\\x01\\x10\\x00", "GPUT\x04\x01\x10\x00",
	    "control message too long (4096 bytes, at most 320)"),
	HDR("header GPUT\\x04\\x03\\xff\\xff", "GPUT\x04\x03\xff\xff",
	    "control message too long (65535 bytes, at most 320)"),
	HDR_OK("header GPUT\\x04\\x01\\x00\\xd8", "GPUT\x04\x01\x00\xd8", CTL_PARAMS, 216),
	HDR_OK("header GPUT\\x04\\x01\\x00\\x70", "GPUT\x04\x01\x00\x70", CTL_PARAMS, 112), /* the payload check refuses */
	HDR_OK("header GPUT\\x04\\x02\\x00\\x34", "GPUT\x04\x02\x00\x34", CTL_READY, 52),
	HDR_OK("header GPUT\\x04\\x02\\x00\\x36", "GPUT\x04\x02\x00\x36", CTL_READY, 54),
	HDR_OK("header GPUT\\x04\\x02\\x01\\x32", "GPUT\x04\x02\x01\x32", CTL_READY, 306), /* 128 ports */
	HDR_OK("header GPUT\\x04\\x03\\x00\\x78", "GPUT\x04\x03\x00\x78", CTL_RESULT, 120),
	HDR_OK("header GPUT\\x04\\x04\\x01\\x40", "GPUT\x04\x04\x01\x40", CTL_ERROR, 320), /* the header allows 320 */
	HDR_OK("header GPUT\\x04\\x04\\x00\\x00", "GPUT\x04\x04\x00\x00", CTL_ERROR, 0), /* the payload check refuses */
	HDR_OK("header GPUT\\x04\\x05\\x00\\x28", "GPUT\x04\x05\x00\x28", CTL_HELLO, 40),
	HDR_OK("header GPUT\\x04\\x06\\x00\\x00", "GPUT\x04\x06\x00\x00", CTL_START, 0),
	HDR_OK("header GPUT\\x04\\x07\\x00\\x00", "GPUT\x04\x07\x00\x00", CTL_STOP, 0),
	HDR_OK("header GPUT\\x04\\x06\\x00\\x04", "GPUT\x04\x06\x00\x04", CTL_START, 4), /* the payload check refuses */
	HDR_OK("header GPUT\\x04\\x08\\x00\\x40", "GPUT\x04\x08\x00\x40", CTL_INTERVAL, 64),
	HDR_OK("header GPUT\\x04\\x09\\x00\\x50", "GPUT\x04\x09\x00\x50", CTL_TCPINFO, 80),
	HDR_OK("header GPUT\\x04\\x09\\x00\\x48", "GPUT\x04\x09\x00\x48", CTL_TCPINFO, 72), /* v2's: the payload check refuses */
	HDR_OK("header GPUT\\x04\\x08\\x01\\x00", "GPUT\x04\x08\x01\x00", CTL_INTERVAL, 256),
	HDR_OK("header GPUT\\x04\\x09\\x00\\x00", "GPUT\x04\x09\x00\x00", CTL_TCPINFO, 0),
	HDR_OK("header GPUT\\x04\\x0a\\x00\\x70", "GPUT\x04\x0a\x00\x70", CTL_UDPSTATS, 112),
	HDR_OK("header GPUT\\x04\\x0a\\x00\\x00", "GPUT\x04\x0a\x00\x00", CTL_UDPSTATS, 0), /* the payload check refuses */
	/* ---- a payload of the wrong length for its type ---- */
	FILL("type CTL_PARAMS, 215 bytes", CTL_PARAMS, 'a', 215,
	    "control message type 1 has 215 bytes, expected 216"),
	FILL("type CTL_PARAMS, 217 bytes", CTL_PARAMS, 'a', 217,
	    "control message type 1 has 217 bytes, expected 216"),
	FILL("type CTL_PARAMS, 112 bytes", CTL_PARAMS, 'a', 112,
	    "control message type 1 has 112 bytes, expected 216"), /* v2 */
	FILL("type CTL_PARAMS, 80 bytes", CTL_PARAMS, 'a', 80,
	    "control message type 1 has 80 bytes, expected 216"), /* before --time */
	FILL("type CTL_PARAMS, 48 bytes", CTL_PARAMS, 'a', 48,
	    "control message type 1 has 48 bytes, expected 216"), /* v1 */
	FILL("type CTL_PARAMS, 184 bytes", CTL_PARAMS, 'a', 184,
	    "control message type 1 has 184 bytes, expected 216"), /* v3 */
	FILL("type CTL_PARAMS, 0 bytes", CTL_PARAMS, 'a', 0,
	    "control message type 1 has 0 bytes, expected 216"),
	FILL("type CTL_PARAMS, 320 bytes", CTL_PARAMS, 'a', 320,
	    "control message type 1 has 320 bytes, expected 216"),
	FILL("type CTL_READY, 4 bytes", CTL_READY, 'a', 4,
	    "control message type 2 has 4 bytes, expected 52 to 306"), /* v1 */
	FILL("type CTL_READY, 51 bytes", CTL_READY, 'a', 51,
	    "control message type 2 has 51 bytes, expected 52 to 306"),
	FILL("type CTL_READY, 0 bytes", CTL_READY, 'a', 0,
	    "control message type 2 has 0 bytes, expected 52 to 306"),
	FILL("type CTL_READY, 307 bytes", CTL_READY, 'a', 307,
	    "control message type 2 has 307 bytes, expected 52 to 306"),
	FILL("type CTL_READY, 308 bytes", CTL_READY, 'a', 308,
	    "control message type 2 has 308 bytes, expected 52 to 306"),
	FILL("type CTL_READY, 320 bytes", CTL_READY, 'a', 320,
	    "control message type 2 has 320 bytes, expected 52 to 306"),
	/* within 52..306 the count decides ("aa": 24929 ports) */
	FILL("type CTL_READY, 52 bytes", CTL_READY, 'a', 52,
	    "bad READY message: 24929 ports in 52 bytes"),
	FILL("type CTL_READY, 53 bytes", CTL_READY, 'a', 53,
	    "bad READY message: 24929 ports in 53 bytes"),
	FILL("type CTL_READY, 306 bytes", CTL_READY, 'a', 306,
	    "bad READY message: 24929 ports in 306 bytes"),
	FILL("type CTL_RESULT, 92 bytes", CTL_RESULT, 'a', 92,
	    "control message type 3 has 92 bytes, expected 120"), /* v1 */
	FILL("type CTL_RESULT, 100 bytes", CTL_RESULT, 'a', 100,
	    "control message type 3 has 100 bytes, expected 120"), /* v2 */
	FILL("type CTL_RESULT, 119 bytes", CTL_RESULT, 'a', 119,
	    "control message type 3 has 119 bytes, expected 120"),
	FILL("type CTL_RESULT, 121 bytes", CTL_RESULT, 'a', 121,
	    "control message type 3 has 121 bytes, expected 120"),
	FILL("type CTL_HELLO, 0 bytes", CTL_HELLO, 'a', 0,
	    "control message type 5 has 0 bytes, expected 40"),
	FILL("type CTL_HELLO, 39 bytes", CTL_HELLO, 'a', 39,
	    "control message type 5 has 39 bytes, expected 40"),
	FILL("type CTL_HELLO, 41 bytes", CTL_HELLO, 'a', 41,
	    "control message type 5 has 41 bytes, expected 40"),
	FILL("type CTL_START, 1 bytes", CTL_START, 'a', 1,
	    "control message type 6 has 1 bytes, expected 0"),
	FILL("type CTL_START, 320 bytes", CTL_START, 'a', 320,
	    "control message type 6 has 320 bytes, expected 0"),
	FILL("type CTL_STOP, 1 bytes", CTL_STOP, 'a', 1,
	    "control message type 7 has 1 bytes, expected 0"),
	FILL("type CTL_STOP, 8 bytes", CTL_STOP, 'a', 8,
	    "control message type 7 has 8 bytes, expected 0"),
	FILL("type CTL_ERROR, 0 bytes", CTL_ERROR, 'a', 0,
	    "bad ERROR message: text of 0 bytes"),
	FILL("type CTL_ERROR, 201 bytes", CTL_ERROR, 'a', 201,
	    "bad ERROR message: text of 201 bytes"),
	FILL("type CTL_ERROR, 256 bytes", CTL_ERROR, 'a', 256,
	    "bad ERROR message: text of 256 bytes"),
	FILL("type CTL_ERROR, 320 bytes", CTL_ERROR, 'a', 320,
	    "bad ERROR message: text of 320 bytes"),
	FILL("type CTL_INTERVAL, 0 bytes", CTL_INTERVAL, 'a', 0,
	    "control message type 8 has 0 bytes, expected 64"),
	FILL("type CTL_INTERVAL, 63 bytes", CTL_INTERVAL, 'a', 63,
	    "control message type 8 has 63 bytes, expected 64"),
	FILL("type CTL_INTERVAL, 65 bytes", CTL_INTERVAL, 'a', 65,
	    "control message type 8 has 65 bytes, expected 64"),
	FILL("type CTL_INTERVAL, 72 bytes", CTL_INTERVAL, 'a', 72,
	    "control message type 8 has 72 bytes, expected 64"),
	FILL("type CTL_TCPINFO, 0 bytes", CTL_TCPINFO, 'a', 0,
	    "control message type 9 has 0 bytes, expected 96"),
	FILL("type CTL_TCPINFO, 64 bytes", CTL_TCPINFO, 'a', 64,
	    "control message type 9 has 64 bytes, expected 96"),
	FILL("type CTL_TCPINFO, 72 bytes", CTL_TCPINFO, 'a', 72,
	    "control message type 9 has 72 bytes, expected 96"), /* v2 */
	FILL("type CTL_TCPINFO, 80 bytes", CTL_TCPINFO, 'a', 80,
	    "control message type 9 has 80 bytes, expected 96"), /* v3 */
	FILL("type CTL_TCPINFO, 95 bytes", CTL_TCPINFO, 'a', 95,
	    "control message type 9 has 95 bytes, expected 96"),
	FILL("type CTL_TCPINFO, 97 bytes", CTL_TCPINFO, 'a', 97,
	    "control message type 9 has 97 bytes, expected 96"),
	FILL("type 0, 4 bytes", 0, 'a', 4,
	    "unknown control message type 0"),
	FILL("type CTL_UDPSTATS, 0 bytes", CTL_UDPSTATS, 'a', 0,
	    "control message type 10 has 0 bytes, expected 144"),
	FILL("type CTL_UDPSTATS, 64 bytes", CTL_UDPSTATS, 'a', 64,
	    "control message type 10 has 64 bytes, expected 144"),
	FILL("type CTL_UDPSTATS, 112 bytes", CTL_UDPSTATS, 'a', 112,
	    "control message type 10 has 112 bytes, expected 144"), /* v3 */
	FILL("type CTL_UDPSTATS, 143 bytes", CTL_UDPSTATS, 'a', 143,
	    "control message type 10 has 143 bytes, expected 144"),
	FILL("type CTL_UDPSTATS, 145 bytes", CTL_UDPSTATS, 'a', 145,
	    "control message type 10 has 145 bytes, expected 144"),
	FILL("type 48, 0 bytes", 48, 'a', 0,
	    "unknown control message type 48"),
	FILL("type 48, 112 bytes", 48, 'a', 112,
	    "unknown control message type 48"),
	FILL("type 255, 4 bytes", 255, 'a', 4,
	    "unknown control message type 255"),
	/* ---- PARAMS: every byte at its offset, and back ---- */
	{ .name = "PARAMS", .type = CTL_PARAMS, .msg = PMSG(), .wire = params_wire,
	  .wire_len = sizeof params_wire },
	/* variants, with the bytes that differ: a count-mode test, the
	 * stream count at 128..129 at its edges, the congestion control list
	 * at 64..127 (NUL-padded, an empty one all zero, at most 63 bytes of
	 * it sent, nothing after the first NUL sent) */
	{ .name = "PARAMS, count mode", .type = CTL_PARAMS,
	  .msg = PMSG(.duration_ms = 0, .data_bytes = 0x0102030405060708ULL),
	  .splice = (const uint8_t[]){ 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0x08, 0x12,
	  0x34, 0x56, 0x78, 0x9a, 0, 0, 0, 0 }, .splice_at = 32, .splice_n = 20,
	  .want = PMSG(.duration_ms = 0, .data_bytes = 0x0102030405060708ULL) },
	{ .name = "PARAMS, a day", .type = CTL_PARAMS, .msg = PMSG(.duration_ms =
	  CTL_MAX_MS), .poke = { U32(48, 0x05265c00) } ,
	  .want = PMSG(.duration_ms = CTL_MAX_MS) },
	{ .name = "PARAMS, one stream", .type = CTL_PARAMS, .msg = PMSG(.streams = 1),
	  .poke = { U16(128, 1) }, .want = PMSG(.streams = 1) },
	{ .name = "PARAMS, two streams", .type = CTL_PARAMS, .msg = PMSG(.streams = 2),
	  .poke = { U16(128, 2) }, .want = PMSG(.streams = 2) },
	{ .name = "PARAMS, 128 streams", .type = CTL_PARAMS,
	  .msg = PMSG(.streams = STREAM_MAX), .poke = { U16(128, 0x80) },
	  .want = PMSG(.streams = STREAM_MAX) },
	{ .name = "PARAMS, cc bbr", .type = CTL_PARAMS, .msg = PMSG(.cc = "bbr"),
	  .splice = (const char[64]){ "bbr" }, .splice_at = 64, .splice_n = 64,
	  .want = PMSG(.cc = "bbr") },
	{ .name = "PARAMS, cc empty", .type = CTL_PARAMS, .msg = PMSG(.cc = ""),
	  .splice = (const char[64]){ "" }, .splice_at = 64, .splice_n = 64,
	  .want = PMSG(.cc = "") },
	{ .name = "PARAMS, cc 15 bytes", .type = CTL_PARAMS,
	  .msg = PMSG(.cc = "a_b-c0123456789"), .splice = (const char[64]){
	  "a_b-c0123456789" }, .splice_at = 64, .splice_n = 64,
	  .want = PMSG(.cc = "a_b-c0123456789") },
	{ .name = "PARAMS, cc list", .type = CTL_PARAMS, .msg = PMSG(.cc = "cubic,bbr"),
	  .splice = (const char[64]){ "cubic,bbr" }, .splice_at = 64,
	  .splice_n = 64, .want = PMSG(.cc = "cubic,bbr") },
	{ .name = "PARAMS, cc list of 63 bytes", .type = CTL_PARAMS,
	  .msg = PMSG(.cc = CC4), .splice = (const char[64]){ CC4 }, .splice_at = 64,
	  .splice_n = 64, .want = PMSG(.cc = CC4) },
	{ .name = "PARAMS, cc 64 bytes (no NUL): 63 sent", .type = CTL_PARAMS,
	  .msg = PMSG(.cc = CC4 "x"), .splice = (const char[64]){ CC4 },
	  .splice_at = 64, .splice_n = 64, .want = PMSG(.cc = CC4) },
	{ .name = "PARAMS, cc, bytes after its NUL not sent", .type = CTL_PARAMS,
	  .msg = PMSG(.cc = { 'b', 'b', 'r', 0, 'x', 'y', [15] = 'z', [63] = 'w' }),
	  .splice = (const char[64]){ "bbr" }, .splice_at = 64, .splice_n = 64,
	  .want = PMSG(.cc = "bbr") },
	/* each flag on its own sets its own bit at 2 */
	{ .name = "PARAMS, no flags", .type = CTL_PARAMS,
	  .msg = PMSG(.nodelay = 0, .pattern_spans = 0), .poke = { B(2, 0x00) },
	  .want = PMSG(.nodelay = 0, .pattern_spans = 0) },
	{ .name = "PARAMS, nodelay", .type = CTL_PARAMS,
	  .msg = PMSG(.nodelay = 1, .pattern_spans = 0), .poke = { B(2, 0x01) },
	  .want = PMSG(.nodelay = 1, .pattern_spans = 0) },
	{ .name = "PARAMS, verify", .type = CTL_PARAMS,
	  .msg = PMSG(.nodelay = 0, .pattern_spans = 0, .verify = 1), .poke = { B(2, 0x02) },
	  .want = PMSG(.nodelay = 0, .pattern_spans = 0, .verify = 1) },
	{ .name = "PARAMS, stream", .type = CTL_PARAMS,
	  .msg = PMSG(.nodelay = 0, .pattern_spans = 1), .poke = { B(2, 0x04) },
	  .want = PMSG(.nodelay = 0, .pattern_spans = 1) },
	{ .name = "PARAMS, verbose", .type = CTL_PARAMS,
	  .msg = PMSG(.nodelay = 0, .pattern_spans = 0, .verbose = 1), .poke = { B(2, 0x08) },
	  .want = PMSG(.nodelay = 0, .pattern_spans = 0, .verbose = 1) },
	{ .name = "PARAMS, four flags", .type = CTL_PARAMS,
	  .msg = PMSG(.verify = 1, .verbose = 1), .poke = { B(2, 0x0f) },
	  .want = PMSG(.verify = 1, .verbose = 1) },
	/* ---- PARAMS: one byte changed ---- */
	/* flags 0x10 --gso, 0x20 --discard, byte 3 --batch: known now */
	PB("PARAMS flag 0x40", 2, 0x45, "bad PARAMS message: reserved bits set"),
	PB("PARAMS flag 0x80", 2, 0x85, "bad PARAMS message: reserved bits set"),
	PB("PARAMS --discard with -c", 2, 0x27, "bad PARAMS message: --discard with -c"),
	PB("PARAMS batch 129", 3, 0x81, "bad PARAMS message: --batch out of range"),
	PB("PARAMS batch 255", 3, 0xff, "bad PARAMS message: --batch out of range"),
	/* 40..47 data_gap_ps (0x000008123456789a), 60..63 data_burst
	 * (0x000f4240, the most): the pokes that leave them in range are
	 * accepted (below) */
	PB("PARAMS gap 40", 40, 0x01, "bad PARAMS message: gap out of range"),
	PB("PARAMS gap 40 high", 40, 0x80, "bad PARAMS message: gap out of range"),
	PB("PARAMS gap 41", 41, 0x01, "bad PARAMS message: gap out of range"),
	PB("PARAMS gap 17.6 s", 42, 0x10, "bad PARAMS message: gap out of range"),
	PB("PARAMS burst 60", 60, 0x01, "bad PARAMS message: gap out of range"),
	PB("PARAMS burst 60 high", 60, 0x80, "bad PARAMS message: gap out of range"),
	PB("PARAMS burst 61", 61, 0x10, "bad PARAMS message: gap out of range"),
	PB("PARAMS burst 1000001", 63, 0x41, "bad PARAMS message: gap out of range"),
	PB("PARAMS burst 63", 63, 0xff, "bad PARAMS message: gap out of range"),
	PB("PARAMS duration", 48, 0x80, "bad PARAMS message: time out of range"),
	PB("PARAMS interval", 52, 0x80, "bad PARAMS message: time out of range"),
	PB("PARAMS omit", 56, 0x80, "bad PARAMS message: time out of range"),
	PB("PARAMS timed with a length", 32, 0x3f,
	   "bad PARAMS message: a timed test with a length"),
	PB("PARAMS 2^62+1 bytes", 39, 0x01,
	   "bad PARAMS message: transfer size out of range"),
	PB("PARAMS cc 64", 64, 'C', "bad PARAMS message: bad congestion control name"),
	PB("PARAMS cc 70", 70, 'a', "bad PARAMS message: bad congestion control name"),
	PB("PARAMS cc 79", 79, 'x', "bad PARAMS message: bad congestion control name"),
	PB("PARAMS cc \"cubic,\"", 69, ',',
	   "bad PARAMS message: bad congestion control name"),
	PB("PARAMS cc 80", 80, 'x', "bad PARAMS message: bad congestion control name"),
	PB("PARAMS cc 127", 127, 'x', "bad PARAMS message: bad congestion control name"),
	PB("PARAMS cc 127 = 1", 127, 0x01,
	   "bad PARAMS message: bad congestion control name"),
	/* 128..129 streams (115): 0 and above 128 refused */
	PB("PARAMS streams 0", 129, 0x00, "bad PARAMS message: stream count out of range"),
	PB("PARAMS streams 129", 129, 0x81,
	   "bad PARAMS message: stream count out of range"),
	PB("PARAMS streams 255", 129, 0xff,
	   "bad PARAMS message: stream count out of range"),
	PB("PARAMS streams 0x0173", 128, 0x01,
	   "bad PARAMS message: stream count out of range"),
	PB("PARAMS streams 0x8073", 128, 0x80,
	   "bad PARAMS message: stream count out of range"),
	/* 130 flags u16 (1: multicast, the rest reserved), 132..151 the
	 * group: zero without the flag */
	PB("PARAMS mflags 0x0100", 130, 0x01, "bad PARAMS message: reserved bits set"),
	PB("PARAMS mflags 0x8000", 130, 0x80, "bad PARAMS message: reserved bits set"),
	PB("PARAMS multicast, no group", 131, 0x01,
	   "bad PARAMS message: multicast group of unknown family"),
	PB("PARAMS mflags 0x0002", 131, 0x02, "bad PARAMS message: reserved bits set"),
	PB("PARAMS group 132", 132, 0x01, "bad PARAMS message: reserved bits set"),
	PB("PARAMS group 140", 140, 0x10, "bad PARAMS message: reserved bits set"),
	PB("PARAMS group 150", 150, 0xff, "bad PARAMS message: reserved bits set"),
	PB("PARAMS group 151", 151, 0x01, "bad PARAMS message: reserved bits set"),
	PB("PARAMS group 151 high", 151, 0x80, "bad PARAMS message: reserved bits set"),
	PB("PARAMS proto 2", 0, 0x02, "bad PARAMS message: unknown protocol"),
	PB("PARAMS proto 255", 0, 0xff, "bad PARAMS message: unknown protocol"),
	PB("PARAMS role 2", 1, 0x02, "bad PARAMS message: unknown role"),
	/* every byte 130..183 on its own (the multicast group's and the
	 * extensions', zero without their flags; 168..175 --affinity takes
	 * any set: unit_affinity), and with a bad stream count too; 155 = 4
	 * is xflags CTL_XF_ZEROCOPY, known, and refused for this UDP test */
	{ .name = "PARAMS reserved 130..154", .type = CTL_PARAMS, .msg = PMSG(),
	  .poke = { B(130, 0x04) }, .each_end = 155,
	  .err = "bad PARAMS message: reserved bits set" },
	PB("PARAMS zerocopy for UDP", 155, 0x04, "bad PARAMS message: --zerocopy for UDP"),
	{ .name = "PARAMS reserved 156..167", .type = CTL_PARAMS, .msg = PMSG(),
	  .poke = { B(156, 0x04) }, .each_end = 168,
	  .err = "bad PARAMS message: reserved bits set" },
	{ .name = "PARAMS reserved 176..183", .type = CTL_PARAMS, .msg = PMSG(),
	  .poke = { B(176, 0x04) }, .each_end = 184,
	  .err = "bad PARAMS message: reserved bits set" },
	/* (the group's bytes are checked after the fields, the extensions'
	 * before) */
	{ .name = "PARAMS reserved 130..151, streams 0", .type = CTL_PARAMS,
	  .msg = PMSG(), .poke = { B(130, 0x04), B(129, 0) }, .each_end = 152,
	  .err = "bad PARAMS message: stream count out of range" },
	{ .name = "PARAMS reserved 152..154, streams 0", .type = CTL_PARAMS,
	  .msg = PMSG(), .poke = { B(152, 0x04), B(129, 0) }, .each_end = 155,
	  .err = "bad PARAMS message: reserved bits set" },
	{ .name = "PARAMS zerocopy for UDP, streams 0", .type = CTL_PARAMS,
	  .msg = PMSG(), .poke = { B(155, 0x04), B(129, 0) },
	  .err = "bad PARAMS message: stream count out of range" },
	{ .name = "PARAMS reserved 156..167, streams 0", .type = CTL_PARAMS,
	  .msg = PMSG(), .poke = { B(156, 0x04), B(129, 0) }, .each_end = 168,
	  .err = "bad PARAMS message: reserved bits set" },
	{ .name = "PARAMS reserved 176..183, streams 0", .type = CTL_PARAMS,
	  .msg = PMSG(), .poke = { B(176, 0x04), B(129, 0) }, .each_end = 184,
	  .err = "bad PARAMS message: reserved bits set" },
	/* xflags CTL_XF_ECN (--ecn): known, carried, at 152..155 */
	{ .name = "PARAMS --ecn", .type = CTL_PARAMS, .msg = PMSG(), .poke = {
	  B(155, CTL_XF_ECN) }, .want = PMSG(.xflags = CTL_XF_ECN) },
	/* xflags CTL_XF_COOKIE (the client echoes cookies): known for this
	 * UDP test, refused for TCP */
	{ .name = "PARAMS cookie echo", .type = CTL_PARAMS, .msg = PMSG(), .poke = {
	  B(155, CTL_XF_COOKIE) }, .want = PMSG(.xflags = CTL_XF_COOKIE) },
	{ .name = "PARAMS cookie echo for TCP", .type = CTL_PARAMS, .msg = PMSG(),
	  .poke = { B(155, CTL_XF_COOKIE), B(0, PROTO_TCP) },
	  .err = "bad PARAMS message: cookie echo for TCP" },
	/* the MAC at 184..215 is any 32 bytes, and kept */
	{ .name = "PARAMS, any MAC", .type = CTL_PARAMS, .msg = PMSG(), .poke = {
	  B(184, 0x3f) }, .each_end = 216 },
	/* the pokes at 40..47 and 60..63 that stay in range (once v1's UDP
	 * port and zero) change the pacing fields, nothing else */
	{ .name = "PARAMS pacing unchanged", .type = CTL_PARAMS, .msg = PMSG(),
	  .poke = { B(40, 0x00) }, .want = PMSG() },
	{ .name = "PARAMS pacing 42 = 1", .type = CTL_PARAMS, .msg = PMSG(),
	  .poke = { B(42, 0x01) }, .want = PMSG(.data_gap_ps = 0x000001123456789aULL) },
	{ .name = "PARAMS pacing 42 = 0", .type = CTL_PARAMS, .msg = PMSG(),
	  .poke = { B(42, 0x00) }, .want = PMSG(.data_gap_ps = 0x000000123456789aULL) },
	{ .name = "PARAMS pacing 43 = 1", .type = CTL_PARAMS, .msg = PMSG(),
	  .poke = { B(43, 0x01) }, .want = PMSG(.data_gap_ps = 0x000008013456789aULL) },
	{ .name = "PARAMS pacing 9.89 s", .type = CTL_PARAMS, .msg = PMSG(),
	  .poke = { B(43, 0xff) }, .want = PMSG(.data_gap_ps = 0x000008ff3456789aULL) },
	{ .name = "PARAMS pacing 47 = 0", .type = CTL_PARAMS, .msg = PMSG(),
	  .poke = { B(47, 0x00) }, .want = PMSG(.data_gap_ps = 0x0000081234567800ULL) },
	{ .name = "PARAMS pacing 47 = 255", .type = CTL_PARAMS, .msg = PMSG(),
	  .poke = { B(47, 0xff) }, .want = PMSG(.data_gap_ps = 0x00000812345678ffULL) },
	{ .name = "PARAMS burst 61 = 1", .type = CTL_PARAMS, .msg = PMSG(),
	  .poke = { B(61, 0x01) }, .want = PMSG(.data_burst = 0x00014240) },
	{ .name = "PARAMS burst 61 = 0", .type = CTL_PARAMS, .msg = PMSG(),
	  .poke = { B(61, 0x00) }, .want = PMSG(.data_burst = 0x00004240) },
	{ .name = "PARAMS burst 62 = 1", .type = CTL_PARAMS, .msg = PMSG(),
	  .poke = { B(62, 0x01) }, .want = PMSG(.data_burst = 0x000f0140) },
	{ .name = "PARAMS burst 63 = 1", .type = CTL_PARAMS, .msg = PMSG(),
	  .poke = { B(63, 0x01) }, .want = PMSG(.data_burst = 0x000f4201) },
	{ .name = "PARAMS burst 63 = 0x40", .type = CTL_PARAMS, .msg = PMSG(),
	  .poke = { B(63, 0x40) }, .want = PMSG(.data_burst = 1000000) },
	/* ---- PARAMS with CTL_XF_LATENCY: 156 interval_us, 160 idle_ms,
	 * 164 zero, each in range ---- */
	{ .name = "PARAMS latency", .type = CTL_PARAMS, .msg = LMSG(),
	  .wire = latency_wire, .wire_len = sizeof latency_wire },
	MSG("PARAMS latency 1 ms", CTL_PARAMS, LMSG(.lat_interval_us = 1000,
	    .lat_idle_ms = 0), NULL),
	MSG("PARAMS latency 1 s, a minute", CTL_PARAMS, LMSG(.lat_interval_us =
	    1000000, .lat_idle_ms = 60000), NULL),
	MSG("PARAMS latency 10 ms, 1 s", CTL_PARAMS, LMSG(.lat_interval_us = 10000,
	    .lat_idle_ms = 1000), NULL),
	MSG("PARAMS latency 999 us", CTL_PARAMS, LMSG(.lat_interval_us = 999,
	    .lat_idle_ms = 0), BADP("latency probe interval out of range")),
	MSG("PARAMS latency 0 us", CTL_PARAMS, LMSG(.lat_interval_us = 0,
	    .lat_idle_ms = 0), BADP("latency probe interval out of range")),
	MSG("PARAMS latency 1000001 us", CTL_PARAMS, LMSG(.lat_interval_us =
	    1000001, .lat_idle_ms = 0), BADP("latency probe interval out of range")),
	MSG("PARAMS latency idle 60001 ms", CTL_PARAMS, LMSG(.lat_idle_ms = 60001),
	    BADP("latency idle phase out of range")),
	MSG("PARAMS latency idle max", CTL_PARAMS, LMSG(.lat_idle_ms = 0xffffffffu),
	    BADP("latency idle phase out of range")),
	{ .name = "PARAMS latency, 164..167 reserved", .type = CTL_PARAMS,
	  .msg = LMSG(), .poke = { B(164, 1) }, .each_end = 168,
	  .err = "bad PARAMS message: reserved bits set" },
	{ .name = "PARAMS latency, 176..183 reserved", .type = CTL_PARAMS,
	  .msg = LMSG(), .poke = { B(176, 1) }, .each_end = 184,
	  .err = "bad PARAMS message: reserved bits set" },
	{ .name = "PARAMS latency with multicast: nothing echoes",
	  .type = CTL_PARAMS, .msg = LMSG(), .poke = { B(131, 1) },
	  .err = "bad PARAMS message: latency probes with multicast" },
	MSG("PARAMS the echo's cookie without latency probes", CTL_PARAMS,
	    LMSG(.xflags = CTL_XF_ECHOCOOKIE),
	    BADP("the echo's cookie without latency probes")),
	MSG("PARAMS latency, an unknown xflag", CTL_PARAMS,
	    LMSG(.xflags = CTL_XF_LATENCY | 0x200u), BADP("reserved bits set")),
	MSG("PARAMS latency, every unknown xflag", CTL_PARAMS,
	    LMSG(.xflags = CTL_XF_LATENCY | ~CTL_XF_KNOWN), BADP("reserved bits set")),
	/* ---- PARAMS with CTL_XF_PEERTIME (--peer-timeout): 176 the dead-peer
	 * deadline, s, 10 to 240; zero without the flag (the reserved
	 * 176..183 cases above), 180..183 zero with it ---- */
	{ .name = "PARAMS peer timeout 60 s on the wire", .type = CTL_PARAMS,
	  .msg = PMSG(), .poke = { B(154, 0x01), B(179, 60) },
	  .want = PMSG(.xflags = CTL_XF_PEERTIME, .peer_timeout_s = 60) },
	{ .name = "PARAMS peer timeout 0x010000f0 s", .type = CTL_PARAMS,
	  .msg = PMSG(), .poke = { B(154, 0x01), B(176, 0x01), B(179, 0xf0) },
	  .err = "bad PARAMS message: peer timeout out of range" },
	MSG("PARAMS peer timeout 10 s", CTL_PARAMS, PMSG(.xflags =
	    CTL_XF_PEERTIME, .peer_timeout_s = 10), NULL),
	MSG("PARAMS peer timeout 240 s", CTL_PARAMS, PMSG(.xflags =
	    CTL_XF_PEERTIME, .peer_timeout_s = 240), NULL),
	MSG("PARAMS peer timeout 9 s", CTL_PARAMS, PMSG(.xflags =
	    CTL_XF_PEERTIME, .peer_timeout_s = 9),
	    BADP("peer timeout out of range")),
	MSG("PARAMS peer timeout 241 s", CTL_PARAMS, PMSG(.xflags =
	    CTL_XF_PEERTIME, .peer_timeout_s = 241),
	    BADP("peer timeout out of range")),
	MSG("PARAMS peer timeout flag, 0 s", CTL_PARAMS, PMSG(.xflags =
	    CTL_XF_PEERTIME), BADP("peer timeout out of range")),
	MSG("PARAMS peer timeout max", CTL_PARAMS, PMSG(.xflags =
	    CTL_XF_PEERTIME, .peer_timeout_s = 0xffffffffu),
	    BADP("peer timeout out of range")),
	{ .name = "PARAMS peer timeout, 180..183 reserved", .type = CTL_PARAMS,
	  .msg = PMSG(.xflags = CTL_XF_PEERTIME, .peer_timeout_s = 60),
	  .poke = { B(180, 1) }, .each_end = 184,
	  .err = "bad PARAMS message: reserved bits set" },
	MSG("PARAMS peer timeout with latency probes", CTL_PARAMS,
	    LMSG(.xflags = CTL_XF_LATENCY | CTL_XF_ECHOCOOKIE |
	    CTL_XF_PEERTIME, .peer_timeout_s = 30), NULL),
	/* host UDP counters: a UDP receiver's only */
	PRM("hostudp: a UDP receiver", UDPR(.xflags = CTL_XF_HOSTUDP), NULL),
	PRM("hostudp: a UDP sender", UDPR(.role = ROLE_SEND, .xflags =
	    CTL_XF_HOSTUDP | CTL_XF_COOKIE), BADP("host UDP counters of a side "
	    "that does not receive UDP")),
	PRM("hostudp: a TCP receiver", TCPR(.xflags = CTL_XF_HOSTUDP),
	    BADP("host UDP counters of a side that does not receive UDP")),
	/* ---- PARAMS: params_invalid, field by field ---- */
	PRM("tcp receiver", TCPR(),
	    NULL),
	PRM("tcp sender", TCPS(),
	    NULL),
	PRM("udp receiver", UDPR(),
	    NULL),
	PRM("udp sender", UDPR(.role = ROLE_SEND),
	    NULL),
	/* --sliding-window: a UDP receiver's acknowledgements, its path
	 * validated (the cookie asked), every datagram with the header */
	PRM("window: udp receiver", UDPR(.xflags = CTL_XF_WINDOW | CTL_XF_COOKIE),
	    NULL),
	PRM("window: -l 24, -x with a last of 24", UDPR(.xflags = CTL_XF_WINDOW |
	    CTL_XF_COOKIE, .len = 24, .data_len = 24, .data_bytes = 48 + 24),
	    NULL),
	PRM("window: without the cookie", UDPR(.xflags = CTL_XF_WINDOW),
	    BADP(WINBAD)),
	PRM("window: a sender", UDPR(.role = ROLE_SEND, .xflags = CTL_XF_WINDOW |
	    CTL_XF_COOKIE), BADP(WINBAD)),
	PRM("window: TCP", TCPR(.xflags = CTL_XF_WINDOW | CTL_XF_COOKIE),
	    BADP("cookie echo for TCP")),
	PRM("window: -l 23", UDPR(.xflags = CTL_XF_WINDOW | CTL_XF_COOKIE,
	    .len = 23, .data_len = 23, .data_bytes = 23 * 10), BADP(WINBAD)),
	PRM("window: a last of 23", UDPR(.xflags = CTL_XF_WINDOW | CTL_XF_COOKIE,
	    .len = 100, .data_len = 100, .data_bytes = 100 + 23), BADP(WINBAD)),
	PRM("window: timed", UDPR(.xflags = CTL_XF_WINDOW | CTL_XF_COOKIE,
	    .duration_ms = 1000, .data_bytes = XFER_TIME_BYTES), BADP(WINBAD)),
	PRM("len max", TCPR(.len = XFER_TCP_MAX),
	    NULL),
	PRM("len 0", TCPR(.len = 0),
	    BADP("buffer length out of range")),
	PRM("len max+1", TCPR(.len = XFER_TCP_MAX + 1),
	    BADP("buffer length out of range")),
	PRM("udp len above a datagram (receiver)", UDPR(.len = 70000),
	    NULL),
	PRM("data_len max tcp", TCPR(.data_len = XFER_TCP_MAX),
	    NULL),
	PRM("data_len 0", TCPR(.data_len = 0),
	    BADP("sender's buffer length out of range")),
	PRM("data_len tcp max+1", TCPR(.data_len = XFER_TCP_MAX + 1),
	    BADP("sender's buffer length out of range")),
	PRM("data_len udp max", UDPR(.data_len = XFER_UDP_MAX),
	    NULL),
	PRM("data_len udp max+1", UDPR(.data_len = XFER_UDP_MAX + 1),
	    BADP("sender's buffer length out of range")),
	PRM("udp sender at the UDP max", UDPR(.role = ROLE_SEND, .len = XFER_UDP_MAX, .data_len = XFER_UDP_MAX),
	    NULL),
	PRM("sender len != data_len", TCPS(.len = 4095),
	    BADP("sender's buffer length disagrees with its stream")),
	PRM("receiver len != data_len", TCPR(.len = 4095),
	    NULL),
	PRM("count 0", TCPR(.count = 0),
	    BADP("transfer size out of range")),
	PRM("count max", TCPR(.count = UINT64_MAX),
	    NULL),
	PRM("data_bytes 0", TCPR(.data_bytes = 0),
	    BADP("transfer size out of range")),
	PRM("data_bytes 2^62", TCPR(.data_bytes = P62),
	    NULL),
	PRM("data_bytes 2^62+1", TCPR(.data_bytes = P62 + 1),
	    BADP("transfer size out of range")),
	PRM("data_bytes max", TCPR(.data_bytes = UINT64_MAX),
	    BADP("transfer size out of range")),
	PRM("window 2^30", TCPR(.window = 1u << 30),
	    NULL),
	PRM("window 2^30+1", TCPR(.window = (1u << 30) + 1),
	    BADP("socket buffer size out of range")),
	PRM("window max", TCPR(.window = UINT32_MAX),
	    BADP("socket buffer size out of range")),
	PRM("gap 10 s", TCPR(.gap_us = 10000000),
	    NULL),
	PRM("gap 10 s + 1", TCPR(.gap_us = 10000001),
	    BADP("gap out of range")),
	PRM("data gap 1 ps", UDPR(.data_gap_ps = 1),
	    NULL),
	PRM("data gap 10 s", TCPR(.data_gap_ps = XFER_MAX_GAP_PS),
	    NULL),
	PRM("data gap 10 s + 1 ps", TCPR(.data_gap_ps = XFER_MAX_GAP_PS + 1),
	    BADP("gap out of range")),
	PRM("data gap 2^32 us (v1's u32 would wrap)", UDPR(.data_gap_ps = 4294967296000000ULL),
	    BADP("gap out of range")),
	PRM("data gap max", TCPR(.data_gap_ps = UINT64_MAX),
	    BADP("gap out of range")),
	PRM("burst 0", UDPR(.data_gap_ps = 1000000, .data_burst = 0),
	    NULL),
	PRM("burst 1", UDPR(.data_gap_ps = 1000000, .data_burst = 1),
	    NULL),
	PRM("burst max", UDPR(.data_gap_ps = 1000000, .data_burst = XFER_MAX_BURST),
	    NULL),
	PRM("burst max + 1", UDPR(.data_gap_ps = 1000000, .data_burst = XFER_MAX_BURST + 1),
	    BADP("gap out of range")),
	PRM("burst u32 max", UDPR(.data_burst = UINT32_MAX),
	    BADP("gap out of range")),
	PRM("burst, unpaced", UDPR(.data_burst = 64),
	    NULL),
	PRM("gap and burst at their most", UDPR(.data_gap_ps = XFER_MAX_GAP_PS, .data_burst = XFER_MAX_BURST, .gap_us = 10000000),
	    NULL),
	PRM("burst max + 1, bad time", UDPR(.data_burst = XFER_MAX_BURST + 1, .duration_ms = CTL_MAX_MS + 1, .data_bytes = P62),
	    BADP("gap out of range")),
	PRM("proto 2", TCPR(.proto = 2),
	    BADP("unknown protocol")),
	PRM("role 2", TCPR(.role = 2),
	    BADP("unknown role")),
	/* --time, --interval, --omit */
	PRM("timed", TCPR(.duration_ms = 10000, .data_bytes = P62),
	    NULL),
	PRM("timed sender", TCPS(.duration_ms = 1, .data_bytes = P62),
	    NULL),
	PRM("timed udp", UDPR(.duration_ms = 10000, .data_bytes = P62),
	    NULL),
	PRM("timed a day", TCPR(.duration_ms = CTL_MAX_MS, .data_bytes = P62),
	    NULL),
	PRM("timed a day + 1 ms", TCPR(.duration_ms = CTL_MAX_MS + 1, .data_bytes = P62),
	    BADP("time out of range")),
	PRM("timed max", TCPR(.duration_ms = UINT32_MAX, .data_bytes = P62),
	    BADP("time out of range")),
	PRM("timed with a length", TCPR(.duration_ms = 10000),
	    BADP("a timed test with a length")),
	PRM("timed, 2^62 - 1", TCPR(.duration_ms = 10000, .data_bytes = P62 - 1),
	    BADP("a timed test with a length")),
	PRM("timed, data_bytes 1", TCPR(.duration_ms = 10000, .data_bytes = 1),
	    BADP("a timed test with a length")),
	PRM("timed, data_bytes 0", TCPR(.duration_ms = 10000, .data_bytes = 0),
	    BADP("transfer size out of range")),
	PRM("timed too long with a length", TCPR(.duration_ms = CTL_MAX_MS + 1),
	    BADP("time out of range")),
	PRM("count mode, 2^62", TCPR(.data_bytes = P62, .interval_ms = 1000),
	    NULL),
	PRM("interval 100 ms", TCPR(.interval_ms = CTL_MIN_INTERVAL_MS),
	    NULL),
	PRM("interval 99 ms", TCPR(.interval_ms = CTL_MIN_INTERVAL_MS - 1),
	    BADP("time out of range")),
	PRM("interval 1 ms", TCPR(.interval_ms = 1),
	    BADP("time out of range")),
	PRM("interval a day", TCPR(.interval_ms = CTL_MAX_MS),
	    NULL),
	PRM("interval a day + 1 ms", TCPR(.interval_ms = CTL_MAX_MS + 1),
	    BADP("time out of range")),
	PRM("interval max", TCPR(.interval_ms = UINT32_MAX),
	    BADP("time out of range")),
	PRM("omit 1 ms", TCPR(.omit_ms = 1),
	    NULL),
	PRM("omit a day", TCPR(.omit_ms = CTL_MAX_MS),
	    NULL),
	PRM("omit a day + 1 ms", TCPR(.omit_ms = CTL_MAX_MS + 1),
	    BADP("time out of range")),
	PRM("omit max", TCPR(.omit_ms = UINT32_MAX),
	    BADP("time out of range")),
	PRM("timed, every one", TCPS(.duration_ms = 60000, .data_bytes = P62, .interval_ms = 1000, .omit_ms = 5000, .cc = "bbr"),
	    NULL),
	/* --cc (the whole table of names: test_cc_names) */
	PRM("cc cubic", TCPR(.cc = "cubic"),
	    NULL),
	PRM("cc 15 bytes", TCPR(.cc = "abcdefghijklmno"),
	    NULL),
	PRM("cc upper case", TCPR(.cc = "Cubic"),
	    BADP("bad congestion control name")),
	PRM("cc with a dot", TCPR(.cc = "tcp.cubic"),
	    BADP("bad congestion control name")),
	PRM("bad cc, bad time", TCPR(.interval_ms = 1, .cc = "X"),
	    BADP("time out of range")),
	/* --cc lists (the wire's own cases: test_cc_lists) */
	PRM("cc list", TCPR(.cc = "cubic,bbr"),
	    NULL),
	PRM("cc list of three", TCPS(.cc = "cubic,bbr,reno", .streams = 3),
	    NULL),
	PRM("cc list, more names than streams", TCPR(.cc = "cubic,bbr,reno"),
	    NULL),
	PRM("cc list, an empty first name", TCPR(.cc = ",cubic"),
	    BADP("bad congestion control name")),
	PRM("cc list, an empty middle name", TCPR(.cc = "cubic,,bbr"),
	    BADP("bad congestion control name")),
	PRM("cc list, two commas at the end", TCPR(.cc = "cubic,,"),
	    BADP("bad congestion control name")),
	PRM("cc list, a comma at the end", TCPR(.cc = "cubic,"),
	    BADP("bad congestion control name")),
	PRM("cc list, a comma alone", TCPR(.cc = ","),
	    BADP("bad congestion control name")),
	PRM("cc list, a 16-byte name", TCPR(.cc = "cubic,abcdefghijklmnop"),
	    BADP("bad congestion control name")),
	PRM("cc, a 16-byte name alone", TCPR(.cc = "abcdefghijklmnop"),
	    BADP("bad congestion control name")),
	PRM("cc list, upper case", TCPR(.cc = "cubic,BBR"),
	    BADP("bad congestion control name")),
	PRM("cc list, a space", TCPR(.cc = "cubic, bbr"),
	    BADP("bad congestion control name")),
	/* -P: streams */
	PRM("streams 0", TCPR(.streams = 0),
	    BADP("stream count out of range")),
	PRM("streams 1", TCPR(.streams = 1),
	    NULL),
	PRM("streams 2", TCPS(.streams = 2),
	    NULL),
	PRM("streams 128", TCPR(.streams = STREAM_MAX),
	    NULL),
	PRM("streams 128, udp", UDPR(.streams = STREAM_MAX),
	    NULL),
	PRM("streams 129", TCPR(.streams = STREAM_MAX + 1),
	    BADP("stream count out of range")),
	PRM("streams 256", TCPR(.streams = 256),
	    BADP("stream count out of range")),
	PRM("streams max", TCPR(.streams = UINT16_MAX),
	    BADP("stream count out of range")),
	PRM("streams 0, bad cc", TCPR(.streams = 0, .cc = ",,"),
	    BADP("bad congestion control name")),
	PRM("streams 0, bad time", TCPR(.streams = 0, .omit_ms = UINT32_MAX),
	    BADP("time out of range")),
	{ .name = "PARAMS cc list: " "cubic,bbr", .type = CTL_PARAMS,
	  .raw = PARAMS_P, .len = CTL_PARAMS_LEN, .splice = (const char[XFER_CC_LIST]){ "cubic,bbr" },
	  .splice_at = 64, .splice_n = XFER_CC_LIST, .err = NULL },
	{ .name = "PARAMS cc list: " "three names", .type = CTL_PARAMS,
	  .raw = PARAMS_P, .len = CTL_PARAMS_LEN, .splice = (const char[XFER_CC_LIST]){ "cubic,bbr,reno" },
	  .splice_at = 64, .splice_n = XFER_CC_LIST, .err = NULL },
	{ .name = "PARAMS cc list: " "a name twice", .type = CTL_PARAMS,
	  .raw = PARAMS_P, .len = CTL_PARAMS_LEN, .splice = (const char[XFER_CC_LIST]){ "bbr,bbr" },
	  .splice_at = 64, .splice_n = XFER_CC_LIST, .err = NULL },
	{ .name = "PARAMS cc list: " "one-byte names", .type = CTL_PARAMS,
	  .raw = PARAMS_P, .len = CTL_PARAMS_LEN, .splice = (const char[XFER_CC_LIST]){ "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y,z" },
	  .splice_at = 64, .splice_n = XFER_CC_LIST, .err = NULL },
	{ .name = "PARAMS cc list: " "two 15-byte names", .type = CTL_PARAMS,
	  .raw = PARAMS_P, .len = CTL_PARAMS_LEN, .splice = (const char[XFER_CC_LIST]){ "abcdefghijklmno,pqrstuvwxyz0123" },
	  .splice_at = 64, .splice_n = XFER_CC_LIST, .err = NULL },
	{ .name = "PARAMS cc list: " "63 bytes, then the NUL", .type = CTL_PARAMS,
	  .raw = PARAMS_P, .len = CTL_PARAMS_LEN, .splice = (const char[XFER_CC_LIST]){ CC4 },
	  .splice_at = 64, .splice_n = XFER_CC_LIST, .err = NULL },
	{ .name = "PARAMS cc list: " "empty", .type = CTL_PARAMS,
	  .raw = PARAMS_P, .len = CTL_PARAMS_LEN, .splice = (const char[XFER_CC_LIST]){ "" },
	  .splice_at = 64, .splice_n = XFER_CC_LIST, .err = NULL },
	{ .name = "PARAMS cc list: " "an empty first name", .type = CTL_PARAMS,
	  .raw = PARAMS_P, .len = CTL_PARAMS_LEN, .splice = (const char[XFER_CC_LIST]){ ",cubic" },
	  .splice_at = 64, .splice_n = XFER_CC_LIST, .err = BADP("bad congestion control name") },
	{ .name = "PARAMS cc list: " "an empty middle name", .type = CTL_PARAMS,
	  .raw = PARAMS_P, .len = CTL_PARAMS_LEN, .splice = (const char[XFER_CC_LIST]){ "cubic,,bbr" },
	  .splice_at = 64, .splice_n = XFER_CC_LIST, .err = BADP("bad congestion control name") },
	{ .name = "PARAMS cc list: " "two commas at the end", .type = CTL_PARAMS,
	  .raw = PARAMS_P, .len = CTL_PARAMS_LEN, .splice = (const char[XFER_CC_LIST]){ "cubic,," },
	  .splice_at = 64, .splice_n = XFER_CC_LIST, .err = BADP("bad congestion control name") },
	{ .name = "PARAMS cc list: " "a comma at the end", .type = CTL_PARAMS,
	  .raw = PARAMS_P, .len = CTL_PARAMS_LEN, .splice = (const char[XFER_CC_LIST]){ "cubic," },
	  .splice_at = 64, .splice_n = XFER_CC_LIST, .err = BADP("bad congestion control name") },
	{ .name = "PARAMS cc list: " "a comma alone", .type = CTL_PARAMS,
	  .raw = PARAMS_P, .len = CTL_PARAMS_LEN, .splice = (const char[XFER_CC_LIST]){ "," },
	  .splice_at = 64, .splice_n = XFER_CC_LIST, .err = BADP("bad congestion control name") },
	{ .name = "PARAMS cc list: " "a 16-byte name", .type = CTL_PARAMS,
	  .raw = PARAMS_P, .len = CTL_PARAMS_LEN, .splice = (const char[XFER_CC_LIST]){ "abcdefghijklmnop" },
	  .splice_at = 64, .splice_n = XFER_CC_LIST, .err = BADP("bad congestion control name") },
	{ .name = "PARAMS cc list: " "a 16-byte name second", .type = CTL_PARAMS,
	  .raw = PARAMS_P, .len = CTL_PARAMS_LEN, .splice = (const char[XFER_CC_LIST]){ "cubic,abcdefghijklmnop" },
	  .splice_at = 64, .splice_n = XFER_CC_LIST, .err = BADP("bad congestion control name") },
	{ .name = "PARAMS cc list: " "a 16-byte third name", .type = CTL_PARAMS,
	  .raw = PARAMS_P, .len = CTL_PARAMS_LEN, .splice = (const char[XFER_CC_LIST]){ "abcdefghijklmno,pqrstuvwxyz0123,456789_-abcdefgh,ijklmnopqrstu" },
	  .splice_at = 64, .splice_n = XFER_CC_LIST, .err = BADP("bad congestion control name") },
	{ .name = "PARAMS cc list: " "upper case first", .type = CTL_PARAMS,
	  .raw = PARAMS_P, .len = CTL_PARAMS_LEN, .splice = (const char[XFER_CC_LIST]){ "Cubic,bbr" },
	  .splice_at = 64, .splice_n = XFER_CC_LIST, .err = BADP("bad congestion control name") },
	{ .name = "PARAMS cc list: " "upper case second", .type = CTL_PARAMS,
	  .raw = PARAMS_P, .len = CTL_PARAMS_LEN, .splice = (const char[XFER_CC_LIST]){ "cubic,BBR" },
	  .splice_at = 64, .splice_n = XFER_CC_LIST, .err = BADP("bad congestion control name") },
	{ .name = "PARAMS cc list: " "a space after the comma", .type = CTL_PARAMS,
	  .raw = PARAMS_P, .len = CTL_PARAMS_LEN, .splice = (const char[XFER_CC_LIST]){ "cubic, bbr" },
	  .splice_at = 64, .splice_n = XFER_CC_LIST, .err = BADP("bad congestion control name") },
	{ .name = "PARAMS cc list: " "a semicolon", .type = CTL_PARAMS,
	  .raw = PARAMS_P, .len = CTL_PARAMS_LEN, .splice = (const char[XFER_CC_LIST]){ "cubic;bbr" },
	  .splice_at = 64, .splice_n = XFER_CC_LIST, .err = BADP("bad congestion control name") },
	{ .name = "PARAMS cc list: " "a dot", .type = CTL_PARAMS,
	  .raw = PARAMS_P, .len = CTL_PARAMS_LEN, .splice = (const char[XFER_CC_LIST]){ "cubic,tcp.bbr" },
	  .splice_at = 64, .splice_n = XFER_CC_LIST, .err = BADP("bad congestion control name") },
	{ .name = "PARAMS cc list: " "not NUL-padded: a byte after the NUL", .type = CTL_PARAMS,
	  .raw = PARAMS_P, .len = CTL_PARAMS_LEN, .splice = (const uint8_t[XFER_CC_LIST]){ 'b', 'b', 'r', 0, 'x' },
	  .splice_at = 64, .splice_n = XFER_CC_LIST, .err = BADP("bad congestion control name") },
	{ .name = "PARAMS cc list: " "not NUL-padded: a comma after the NUL", .type = CTL_PARAMS,
	  .raw = PARAMS_P, .len = CTL_PARAMS_LEN, .splice = (const uint8_t[XFER_CC_LIST]){ 'b', 'b', 'r', 0, ',' },
	  .splice_at = 64, .splice_n = XFER_CC_LIST, .err = BADP("bad congestion control name") },
	{ .name = "PARAMS cc list: " "not NUL-padded: the last byte", .type = CTL_PARAMS,
	  .raw = PARAMS_P, .len = CTL_PARAMS_LEN, .splice = (const uint8_t[XFER_CC_LIST]){ 'b', 'b', 'r', [63] = 'x' },
	  .splice_at = 64, .splice_n = XFER_CC_LIST, .err = BADP("bad congestion control name") },
	{ .name = "PARAMS cc list: " "not NUL-padded: byte 16 of a list", .type = CTL_PARAMS,
	  .raw = PARAMS_P, .len = CTL_PARAMS_LEN, .splice = (const uint8_t[XFER_CC_LIST]){ 'b', 'b', 'r', [16] = 'x' },
	  .splice_at = 64, .splice_n = XFER_CC_LIST, .err = BADP("bad congestion control name") },
	{ .name = "PARAMS cc list: " "a NUL first, then a list", .type = CTL_PARAMS,
	  .raw = PARAMS_P, .len = CTL_PARAMS_LEN, .splice = (const uint8_t[XFER_CC_LIST]){ 0, 'b', 'b', 'r', ',', 'x' },
	  .splice_at = 64, .splice_n = XFER_CC_LIST, .err = BADP("bad congestion control name") },
	{ .name = "PARAMS cc list: " "no NUL within 64 bytes", .type = CTL_PARAMS,
	  .raw = PARAMS_P, .len = CTL_PARAMS_LEN, .splice = (const char[XFER_CC_LIST]){ CC4 "x" },
	  .splice_at = 64, .splice_n = XFER_CC_LIST, .err = BADP("bad congestion control name") },
	{ .name = "PARAMS cc list: " "no NUL within 64 bytes, a comma last", .type = CTL_PARAMS,
	  .raw = PARAMS_P, .len = CTL_PARAMS_LEN, .splice = (const char[XFER_CC_LIST]){ CC4 "," },
	  .splice_at = 64, .splice_n = XFER_CC_LIST, .err = BADP("bad congestion control name") },
	{ .name = "PARAMS cc list: " "63 bytes, then 0x01", .type = CTL_PARAMS,
	  .raw = PARAMS_P, .len = CTL_PARAMS_LEN, .splice = (const char[XFER_CC_LIST]){ CC4 "\x01" },
	  .splice_at = 64, .splice_n = XFER_CC_LIST, .err = BADP("bad congestion control name") },
	/* ---- READY: the port, the count, the nonce, the MAC; the others
	 * from 52 on; 50 + 2 * ports bytes ---- */
	{ .name = "READY, one port", .type = CTL_READY, .msg = RDY(.port = { 0xbeef,
	  0x1234 /* beyond the count: not sent */ }), .wire = ready_wire,
	  .wire_len = sizeof ready_wire, .want = RDY(.port = { 0xbeef }) },
	MSG("READY, port 1", CTL_READY, RDY(.port = { 1 }, .nonce = { 0 },
	    .mac = { [31] = 0xf0 }), NULL),
	MSG("READY, port 5037", CTL_READY, RDY(.port = { 5037 }, .nonce = { 1 },
	    .mac = { [31] = 0xf1 }), NULL),
	MSG("READY, port 0x8000", CTL_READY, RDY(.port = { 0x8000 }, .nonce = { 2 },
	    .mac = { [31] = 0xf2 }), NULL),
	MSG("READY, port 65535", CTL_READY, RDY(.port = { 65535 }, .nonce = { 3 },
	    .mac = { [31] = 0xf3 }), NULL),
	{ .name = "READY, 1 of 128 ports", .type = CTL_READY, .msg = RDY(.nports = 1,
	  .port = PORTS128), .wire = ready1_wire, .wire_len = sizeof ready1_wire,
	  .want = RDY(.nports = 1, .port = { 0x1001 }) },
	{ .name = "READY, 2 ports", .type = CTL_READY, .msg = RDY(.nports = 2,
	  .port = PORTS128), .wire = ready2_wire, .wire_len = sizeof ready2_wire,
	  .want = RDY(.nports = 2, .port = { 0x1001, 0x1103 }) },
	{ .name = "READY, 3 ports", .type = CTL_READY, .msg = RDY(.nports = 3,
	  .port = PORTS128), .wire = ready3_wire, .wire_len = sizeof ready3_wire,
	  .want = RDY(.nports = 3, .port = { 0x1001, 0x1103, 0x1205 }) },
	{ .name = "READY, 127 ports", .type = CTL_READY, .msg = RDY(.nports = 127,
	  .port = PORTS128), .wire = ready127_wire, .wire_len = sizeof ready127_wire },
	{ .name = "READY, 128 ports", .type = CTL_READY, .msg = RDY(.nports = 128,
	  .port = PORTS128), .wire = ready128_wire, .wire_len = sizeof ready128_wire },
	/* more ports than a test may have streams: the encoder sends 128 */
	{ .name = "READY, 200 ports asked", .type = CTL_READY, .msg = RDY(.nports = 200,
	  .port = PORTS128), .wire = ready128_wire, .wire_len = sizeof ready128_wire,
	  .want = RDY(.nports = 128, .port = PORTS128) },
	/* a count that disagrees with the length, none, too many, port 0 in
	 * any place: ready_raw (port 0x13ad at 0, the count at 2, then the
	 * ports from 52 on, none 0) */
	RDRAW("READY raw, 1 port", 1, 52, 0, NULL),
	RDRAW("READY raw, 2 ports", 2, 54, 0, NULL),
	RDRAW("READY raw, 128 ports", 128, 306, 0, NULL),
	RDRAW("READY raw, no ports", 0, 52, 0, "bad READY message: 0 ports in 52 bytes"),
	RDRAW("READY raw, no ports, 54 bytes", 0, 54, 0,
	      "bad READY message: 0 ports in 54 bytes"),
	RDRAW("READY raw, 2 ports in 52 bytes", 2, 52, 0,
	      "bad READY message: 2 ports in 52 bytes"),
	RDRAW("READY raw, 1 port in 54 bytes", 1, 54, 0,
	      "bad READY message: 1 ports in 54 bytes"),
	RDRAW("READY raw, 3 ports in 54 bytes", 3, 54, 0,
	      "bad READY message: 3 ports in 54 bytes"),
	RDRAW("READY raw, 2 ports in 56 bytes", 2, 56, 0,
	      "bad READY message: 2 ports in 56 bytes"),
	RDRAW("READY raw, 2 ports in 53 bytes", 2, 53, 0,
	      "bad READY message: 2 ports in 53 bytes"),
	RDRAW("READY raw, 128 ports in 304 bytes", 128, 304, 0,
	      "bad READY message: 128 ports in 304 bytes"),
	RDRAW("READY raw, 127 ports in 306 bytes", 127, 306, 0,
	      "bad READY message: 127 ports in 306 bytes"),
	RDRAW("READY raw, 129 ports in 306 bytes", 129, 306, 0,
	      "bad READY message: 129 ports in 306 bytes"),
	RDRAW("READY raw, 129 ports in their 308 bytes", 129, 308, 0,
	      "control message type 2 has 308 bytes, expected 52 to 306"),
	RDRAW("READY raw, 65535 ports", 65535, 306, 0,
	      "bad READY message: 65535 ports in 306 bytes"),
	RDRAW("READY raw, 256 ports in 52 bytes (a count's high byte)", 0x100, 52, 0,
	      "bad READY message: 256 ports in 52 bytes"),
	RDRAW("READY raw, the most the header allows", 129, CTL_MAX_PAYLOAD, 0,
	      "control message type 2 has 320 bytes, expected 52 to 306"),
	RDRAW("READY raw, 51 bytes", 1, 51, 0,
	      "control message type 2 has 51 bytes, expected 52 to 306"),
	RDRAW("READY raw, first port 0, alone", 1, 52, 1, "bad READY message: port 0"),
	RDRAW("READY raw, first port 0 of 2", 2, 54, 1, "bad READY message: port 0"),
	RDRAW("READY raw, second port 0 of 2", 2, 54, 2, "bad READY message: port 0"),
	RDRAW("READY raw, second port 0 of 3", 3, 56, 2, "bad READY message: port 0"),
	RDRAW("READY raw, last port 0 of 3", 3, 56, 3, "bad READY message: port 0"),
	RDRAW("READY raw, first port 0 of 128", 128, 306, 1, "bad READY message: port 0"),
	RDRAW("READY raw, port 64 0 of 128", 128, 306, 64, "bad READY message: port 0"),
	RDRAW("READY raw, last port 0 of 128", 128, 306, 128, "bad READY message: port 0"),
	/* the count speaks before the ports */
	RDRAW("READY raw, port 0, 2 ports in 52 bytes", 2, 52, 1,
	      "bad READY message: 2 ports in 52 bytes"),
	/* ---- HELLO: flags u32, a zero u32, the challenge; only the key
	 * flag is known ---- */
	{ .name = "HELLO", .type = CTL_HELLO, .msg = HELLO(CTL_HELLO_KEY),
	  .wire = hello_wire, .wire_len = sizeof hello_wire },
	{ .name = "HELLO, no flags", .type = CTL_HELLO, .msg = HELLO(CTL_HELLO_KEY),
	  .poke = { U64(0, 0) }, .want = HELLO(0) },
	{ .name = "HELLO, the key", .type = CTL_HELLO, .msg = HELLO(0),
	  .poke = { U64(0, 0x0000000100000000ULL) }, .want = HELLO(CTL_HELLO_KEY) },
	{ .name = "HELLO flag 2", .type = CTL_HELLO, .msg = HELLO(0),
	  .poke = { U64(0, 0x0000000200000000ULL) },
	  .err = "bad HELLO message: reserved bits set" },
	{ .name = "HELLO flags 3", .type = CTL_HELLO, .msg = HELLO(0),
	  .poke = { U64(0, 0x0000000300000000ULL) },
	  .err = "bad HELLO message: reserved bits set" },
	{ .name = "HELLO flag 0x80000000", .type = CTL_HELLO, .msg = HELLO(0),
	  .poke = { U64(0, 0x8000000100000000ULL) },
	  .err = "bad HELLO message: reserved bits set" },
	{ .name = "HELLO flag 0x100", .type = CTL_HELLO, .msg = HELLO(0),
	  .poke = { U64(0, 0x0000010000000000ULL) },
	  .err = "bad HELLO message: reserved bits set" },
	{ .name = "HELLO, the zero u32 is 1", .type = CTL_HELLO, .msg = HELLO(0),
	  .poke = { U64(0, 0x0000000100000001ULL) },
	  .err = "bad HELLO message: reserved bits set" },
	{ .name = "HELLO, the zero u32 high", .type = CTL_HELLO, .msg = HELLO(0),
	  .poke = { U64(0, 0x0000000080000000ULL) },
	  .err = "bad HELLO message: reserved bits set" },
	{ .name = "HELLO, the zero u32 byte 5", .type = CTL_HELLO, .msg = HELLO(0),
	  .poke = { U64(0, 0x0000000000010000ULL) },
	  .err = "bad HELLO message: reserved bits set" },
	/* ---- START and STOP: a bare header; any payload is refused ---- */
	{ .name = "START", .type = CTL_START, .msg = &(const struct ctl_msg){
	  .type = CTL_START }, .wire = (const uint8_t *)"GPUT\x04\x06\x00\x00",
	  .wire_len = CTL_HDR_LEN },
	{ .name = "STOP", .type = CTL_STOP, .msg = &(const struct ctl_msg){
	  .type = CTL_STOP }, .wire = (const uint8_t *)"GPUT\x04\x07\x00\x00",
	  .wire_len = CTL_HDR_LEN },
#define SS(t, l) FILL(#t ", " #l " bytes", t, 0, l, \
	"control message type " ST_##t " has " #l " bytes, expected 0")
#define ST_CTL_START "6"
#define ST_CTL_STOP "7"
	SS(CTL_START, 1), SS(CTL_START, 4), SS(CTL_START, 40), SS(CTL_START, 52),
	SS(CTL_START, 54), SS(CTL_START, 64), SS(CTL_START, 72), SS(CTL_START, 80),
	SS(CTL_START, 100), SS(CTL_START, 112), SS(CTL_START, 120),
	SS(CTL_START, 184), SS(CTL_START, 256), SS(CTL_START, 306),
	SS(CTL_START, 320),
	SS(CTL_STOP, 1), SS(CTL_STOP, 4), SS(CTL_STOP, 40), SS(CTL_STOP, 52),
	SS(CTL_STOP, 54), SS(CTL_STOP, 64), SS(CTL_STOP, 72), SS(CTL_STOP, 80),
	SS(CTL_STOP, 100), SS(CTL_STOP, 112), SS(CTL_STOP, 120),
	SS(CTL_STOP, 184), SS(CTL_STOP, 256), SS(CTL_STOP, 306),
	SS(CTL_STOP, 320),
	/* ---- RESULT: the counts, and the stream with its window ---- */
	{ .name = "RESULT", .type = CTL_RESULT, .msg = RES(0x80,
	  0xd1d2d3d4d5d6d7d8ULL, 0xe1e2e3e4e5e6e7e8ULL, 0x0102030405060708ULL,
	  0x1112131415161718ULL, 0x2122232425262728ULL, 0x3132333435363738ULL,
	  0x4142434445464748ULL, 0x5152535455565758ULL, 0x6162636465666768ULL,
	  0x7172737475767778ULL, 0x8182838485868788ULL, 0x9192939495969798ULL,
	  0xa1a2a3a4a5a6a7a8ULL, 0x0000005d, 0xb1b2b3b4u, 0xc1c2c3c4u),
	  .wire = result_wire, .wire_len = sizeof result_wire },
	MSG("RESULT, zero: the side's own", CTL_RESULT, RES(0, 0, 0, 0), NULL),
	MSG("RESULT, every count at its most", CTL_RESULT, RES(1, 0, 1000000000,
	    UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX,
	    UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX, RES_ALL,
	    UINT32_MAX, UINT32_MAX), NULL),
	MSG("RESULT, an empty window", CTL_RESULT, RES(2, 5, 5, 1, 2, 3, 4, 5, 6, 7,
	    8, 9, 10, 11, RES_MARKER, 12, 13), NULL),
	MSG("RESULT, TCP sender", CTL_RESULT, RES(0, 250000000, 10250000000ULL,
	    8388608, 2048, 1500000000, 250000000, 0, 0, 0, 0, 4096, 65536, 0,
	    RES_QUEUE | RES_BUFS, 2626560, 131072), NULL),
	MSG("RESULT, verified receiver", CTL_RESULT, RES(127, 1, 2, 1000, 50, 1, 0,
	    47, 50, 3, 17, 0, 0, 0, RES_IDLE | RES_VERIFIED, 0, 0), NULL),
	MSG("RESULT, UDP receiver", CTL_RESULT, RES(STREAM_MAX, 0, UINT64_MAX,
	    146000, 146, 400000, 0, 146, 1000, 0, 0, 0, 0, 854,
	    RES_MARKER | RES_DROPS | RES_BUFS, 212992, 2048), NULL),
	MSG("RESULT, stopped", CTL_RESULT, RES(3, UINT64_MAX, UINT64_MAX, 40960, 10,
	    2000000, 1000, 0, 0, 0, 0, 0, 0, 0, RES_STOPPED, 0, 0), NULL),
	/* its stream (0: the side; 1..128) and window (end not before
	 * start) at 100, 104 and 112, poked on a valid RESULT */
#define RBAD(s) "bad RESULT message: stream " #s ", or it ends before it starts"
#define RSW(n, s, a, b, e) { .name = "RESULT, " n, .type = CTL_RESULT, \
	.msg = RES42(0, 0, 0), .poke = { U32(100, s), U64(104, a), U64(112, b) }, \
	.err = e }
#define RSW_OK(n, s, a, b) { .name = "RESULT, " n, .type = CTL_RESULT, \
	.msg = RES42(0, 0, 0), .poke = { U32(100, s), U64(104, a), U64(112, b) }, \
	.want = RES42(s, a, b) }
	RSW_OK("stream 0 (the side)", 0, 0, 0),
	RSW_OK("stream 1", 1, 0, 1),
	RSW_OK("stream 128", STREAM_MAX, 7, 8),
	RSW("stream 129", STREAM_MAX + 1, 0, 1, RBAD(129)),
	RSW("stream 256", 256, 0, 1, RBAD(256)),
	RSW("stream 2^24", 1u << 24, 0, 1, RBAD(16777216)),
	RSW("stream max", UINT32_MAX, 0, 1, RBAD(4294967295)),
	RSW("end one ns before start", 1, 1, 0, RBAD(1)),
	RSW("end long before start", 2, UINT64_MAX, 0, RBAD(2)),
	RSW("the side's end before its start", 0, 1000, 999, RBAD(0)),
	RSW_OK("end at start", 3, 1000, 1000),
	RSW_OK("both at their most", 4, UINT64_MAX, UINT64_MAX),
	RSW("stream 129, end before start", 129, 2, 1, RBAD(129)),
	/* reserved flags speak before the stream */
	RAW("RESULT, reserved flag and stream 255", CTL_RESULT,
	    ((const uint8_t[CTL_RESULT_LEN]){ [90] = 0x80, [103] = 0xff }),
	    CTL_RESULT_LEN, "bad RESULT message: reserved bits set"),
	RAW("RESULT, flag 0x800000", CTL_RESULT,
	    ((const uint8_t[CTL_RESULT_LEN]){ [90] = 0x80 }), CTL_RESULT_LEN,
	    "bad RESULT message: reserved bits set"),
	RAW("RESULT, flag 0x20000", CTL_RESULT,
	    ((const uint8_t[CTL_RESULT_LEN]){ [90] = 0x02 }), CTL_RESULT_LEN,
	    "bad RESULT message: reserved bits set"),
	RAW("RESULT, flag 0x80000000", CTL_RESULT,
	    ((const uint8_t[CTL_RESULT_LEN]){ [88] = 0x80 }), CTL_RESULT_LEN,
	    "bad RESULT message: reserved bits set"),
	RAW("RESULT, flag 0x10000", CTL_RESULT,
	    ((const uint8_t[CTL_RESULT_LEN]){ [90] = 0x01 }), CTL_RESULT_LEN,
	    "bad RESULT message: reserved bits set"),
	RAW("RESULT, flags 0x0100007f", CTL_RESULT,
	    ((const uint8_t[CTL_RESULT_LEN]){ [89] = 0x01, [91] = 0x7f }),
	    CTL_RESULT_LEN, "bad RESULT message: reserved bits set"),
	RAW("RESULT, stream 129", CTL_RESULT,
	    ((const uint8_t[CTL_RESULT_LEN]){ [103] = 0x81 }), CTL_RESULT_LEN,
	    RBAD(129)),
	RAW("RESULT, stream 2^24", CTL_RESULT,
	    ((const uint8_t[CTL_RESULT_LEN]){ [100] = 0x01 }), CTL_RESULT_LEN,
	    RBAD(16777216)),
	RAW("RESULT, start 1, end 0", CTL_RESULT,
	    ((const uint8_t[CTL_RESULT_LEN]){ [111] = 0x01 }), CTL_RESULT_LEN,
	    RBAD(0)),
	RAW("RESULT, stream 1, end before start", CTL_RESULT,
	    ((const uint8_t[CTL_RESULT_LEN]){ [103] = 0x01, [104] = 0x80,
	    [112] = 0x7f }), CTL_RESULT_LEN, RBAD(1)),
	/* the edges that are fine: every flag (the v2 ones, RES_STOPPED and
	 * RES_BUFS, on their own too), any buffer size, stream 0 with an
	 * empty window */
	{ .name = "RESULT, every flag, any buffers", .type = CTL_RESULT,
	  .raw = (const uint8_t[CTL_RESULT_LEN]){ [91] = RES_ALL, [92] = 0xff,
	  [95] = 0xfe, [96] = 0x80, [99] = 0x01 }, .len = CTL_RESULT_LEN,
	  .want = RES(0, 0, 0, .flags = RES_ALL, .sndbuf = 0xff0000feu,
	  .rcvbuf = 0x80000001u) },
	{ .name = "RESULT, stopped alone", .type = CTL_RESULT,
	  .raw = (const uint8_t[CTL_RESULT_LEN]){ [91] = RES_STOPPED },
	  .len = CTL_RESULT_LEN, .want = RES(0, 0, 0, .flags = RES_STOPPED) },
	{ .name = "RESULT, bufs alone", .type = CTL_RESULT,
	  .raw = (const uint8_t[CTL_RESULT_LEN]){ [91] = RES_BUFS },
	  .len = CTL_RESULT_LEN, .want = RES(0, 0, 0, .flags = RES_BUFS) },
	/* ---- ERROR: 1..200 printable bytes ---- */
#define ERR(t) (&(const struct ctl_msg){ .type = CTL_ERROR, .text = t })
	{ .name = "ERROR", .type = CTL_ERROR, .msg = ERR("peer said no"),
	  .wire = (const uint8_t *)"GPUT\x04\x04\x00\x0cpeer said no", .wire_len = 20 },
	MSG("ERROR of one byte", CTL_ERROR, ERR("x"), NULL),
	MSG("ERROR '?'", CTL_ERROR, ERR("?"), NULL),
	MSG("ERROR \" ~\"", CTL_ERROR, ERR(" ~"), NULL),
	MSG("ERROR 'tab?here?nl'", CTL_ERROR, ERR("tab?here?nl"), NULL),
	MSG("ERROR '??? ~'", CTL_ERROR, ERR("??? ~"), NULL),
	MSG("ERROR of 200 bytes", CTL_ERROR, ERR(E200), NULL),
	FILL("ERROR of 200 a", CTL_ERROR, 'a', 200, NULL),
	RAW("ERROR with a newline", CTL_ERROR, "bad\nline", 8,
	    "bad ERROR message: unprintable text"),
	RAW("ERROR with a tab", CTL_ERROR, "tab\there", 8,
	    "bad ERROR message: unprintable text"),
	RAW("ERROR with DEL", CTL_ERROR, "del\x7f", 4,
	    "bad ERROR message: unprintable text"),
	RAW("ERROR with a high byte", CTL_ERROR, "hi\x80", 3,
	    "bad ERROR message: unprintable text"),
	RAW("ERROR with a NUL", CTL_ERROR, "nul\0x", 5,
	    "bad ERROR message: unprintable text"),
	/* ---- INTERVAL ---- */
	{ .name = "INTERVAL", .type = CTL_INTERVAL, .msg = IVL_TCP(STREAM_MAX,
	  0x01020304, .flags = IVAL_LAST | IVAL_OMITTED | IVAL_TCP,
	  .start_ns = 0x1112131415161718ULL, .end_ns = 0x2122232425262728ULL,
	  .bytes = 0x3132333435363738ULL, .calls = 0x4142434445464748ULL,
	  .dgrams = 0x5152535455565758ULL, .retrans = 0x61626364u,
	  .cwnd = 0x71727374u, .srtt_us = 0x81828384u), .wire = interval_wire,
	  .wire_len = sizeof interval_wire, .want = IVL(STREAM_MAX, 0x01020304,
	  .flags = IVAL_LAST | IVAL_OMITTED | IVAL_TCP,
	  .start_ns = 0x1112131415161718ULL, .end_ns = 0x2122232425262728ULL,
	  .bytes = 0x3132333435363738ULL, .calls = 0x4142434445464748ULL,
	  .dgrams = 0x5152535455565758ULL, .retrans = 0x61626364u,
	  .cwnd = 0x71727374u, .srtt_us = 0x81828384u) },
	MSG("INTERVAL, zero", CTL_INTERVAL, IVL_TCP(1, 0, .flags = 0), NULL),
	MSG("INTERVAL, a TCP second", CTL_INTERVAL, IVL_TCP(22, 0, .start_ns = 0,
	    .end_ns = 1000000000, .bytes = 125000000, .calls = 30518,
	    .flags = IVAL_TCP, .retrans = 3, .cwnd = 10, .srtt_us = 41), NULL),
	MSG("INTERVAL, the last", CTL_INTERVAL, IVL_TCP(43, 7,
	    .start_ns = 7000000000ULL, .end_ns = 7250000000ULL, .bytes = 1,
	    .calls = 1, .flags = IVAL_LAST), NULL),
	MSG("INTERVAL, omitted", CTL_INTERVAL, IVL_TCP(64, 1,
	    .start_ns = 1000000000, .end_ns = 2000000000, .bytes = 1472000,
	    .calls = 1000, .dgrams = 998, .flags = IVAL_OMITTED), NULL),
	MSG("INTERVAL, empty", CTL_INTERVAL, IVL_TCP(85, 3, .start_ns = 5,
	    .end_ns = 5, .flags = IVAL_LAST | IVAL_OMITTED), NULL),
	MSG("INTERVAL, at their most", CTL_INTERVAL, IVL_TCP(106, UINT32_MAX,
	    .start_ns = UINT64_MAX, .end_ns = UINT64_MAX, .bytes = UINT64_MAX,
	    .calls = UINT64_MAX, .dgrams = UINT64_MAX,
	    .flags = IVAL_LAST | IVAL_OMITTED | IVAL_TCP, .retrans = UINT32_MAX,
	    .cwnd = UINT32_MAX, .srtt_us = UINT32_MAX), NULL),
	/* a sequenced UDP receiver's: its copies and reordering */
	MSG("INTERVAL, UDP", CTL_INTERVAL, IVL(127, 2, .start_ns = 1, .end_ns = 2,
	    .bytes = 3, .calls = 4, .dgrams = 3, .flags = IVAL_UDP | IVAL_LAST,
	    .dups = 1, .reordered = UINT32_MAX), NULL),
	/* interval_wire with one byte changed */
#define IB(n, o, v, e) { .name = "INTERVAL " n, .type = CTL_INTERVAL, \
	.raw = IVAL_P, .len = CTL_INTERVAL_LEN, .poke = { B(o, v) }, .err = e }
	IB("flag 0x10", 7, 0x10, "bad INTERVAL message: reserved bits set"),
	IB("flags 0xff", 7, 0xff, "bad INTERVAL message: reserved bits set"),
	IB("flag 0x100", 6, 0x01, "bad INTERVAL message: reserved bits set"),
	IB("flag 0x80000000", 4, 0x80, "bad INTERVAL message: reserved bits set"),
	/* 60..63: the stream (128), 1..128 */
	IB("stream 0", 63, 0x00, "bad INTERVAL message: stream 0"),
	IB("stream 129", 63, 0x81, "bad INTERVAL message: stream 129"),
	IB("stream 255", 63, 0xff, "bad INTERVAL message: stream 255"),
	IB("stream 384", 62, 0x01, "bad INTERVAL message: stream 384"),
	IB("stream 65664", 61, 0x01, "bad INTERVAL message: stream 65664"),
	IB("stream 16777344", 60, 0x01, "bad INTERVAL message: stream 16777344"),
	IB("stream 2147483776", 60, 0x80, "bad INTERVAL message: stream 2147483776"),
	IB("stream 1", 63, 0x01, NULL),
	IB("stream 127", 63, 0x7f, NULL),
	IB("end 0x10..", 16, 0x10, "bad INTERVAL message: it ends before it starts"),
	IB("end 0x00..", 16, 0x00, "bad INTERVAL message: it ends before it starts"),
	IB("start 0x22..", 8, 0x22, "bad INTERVAL message: it ends before it starts"),
	IB("start 0xff..", 8, 0xff, "bad INTERVAL message: it ends before it starts"),
	IB("no flags", 7, 0x00, NULL),
	IB("IVAL_LAST alone", 7, 0x01, NULL),
	IB("any index", 0, 0xff, NULL),
	IB("starts later, still before its end", 8, 0x20, NULL),
	IB("any retrans", 48, 0xff, NULL),
	IB("any srtt", 59, 0xff, NULL),
	/* reserved bits and an end before the start: the reserved bits
	 * speak; reserved bits and stream 0 too; stream 0 and an end before
	 * the start: the stream speaks */
	{ .name = "INTERVAL reserved, end before start", .type = CTL_INTERVAL,
	  .raw = IVAL_P, .len = CTL_INTERVAL_LEN, .poke = { B(7, 0x1f), B(16, 0) },
	  .err = "bad INTERVAL message: reserved bits set" },
	{ .name = "INTERVAL reserved, end before start, stream 0",
	  .type = CTL_INTERVAL, .raw = IVAL_P, .len = CTL_INTERVAL_LEN,
	  .poke = { B(7, 0x1f), B(16, 0), B(63, 0) },
	  .err = "bad INTERVAL message: reserved bits set" },
	{ .name = "INTERVAL end before start, stream 0", .type = CTL_INTERVAL,
	  .raw = IVAL_P, .len = CTL_INTERVAL_LEN, .poke = { B(7, 0x07), B(16, 0),
	  B(63, 0) }, .err = "bad INTERVAL message: stream 0" },
	/* start 1, end 0: one nanosecond backwards (stream 1); end 1 too */
	{ .name = "INTERVAL one ns backwards", .type = CTL_INTERVAL, .fill = 0,
	  .len = CTL_INTERVAL_LEN, .poke = { B(63, 1), B(15, 1) },
	  .err = "bad INTERVAL message: it ends before it starts" },
	{ .name = "INTERVAL start at its end", .type = CTL_INTERVAL, .fill = 0,
	  .len = CTL_INTERVAL_LEN, .poke = { B(63, 1), B(15, 1), B(23, 1) },
	  .want = IVL(1, 0, .start_ns = 1, .end_ns = 1) },
	/* ---- TCPINFO: valid is not sent; a decoded TCPINFO is ---- */
	{ .name = "TCPINFO", .type = CTL_TCPINFO, .msg = TCPI(127, .cc = "reno",
	  .retrans = 0x0102030405060708ULL, .rtt_us = 0x11121314u,
	  .min_rtt_us = 0x21222324u, .cwnd = 0x31323334u, .mss = 0x41424344u,
	  .delivery_rate = 0x5152535455565758ULL, .busy_us = 0x6162636465666768ULL,
	  .rwnd_limited_us = 0x7172737475767778ULL,
	  .sndbuf_limited_us = 0x8182838485868788ULL, .ecn = TCPS_ECN_ALL,
	  .delivered_ce = 0x91929394u, .received_ce = 0xa1a2a3a4u,
	  .received_ce_bytes = 0xb1b2b3b4u), .wire = tcpinfo_wire,
	  .wire_len = sizeof tcpinfo_wire },
	MSG("TCPINFO, empty", CTL_TCPINFO, TCPI(1, .cc = ""), NULL),
	MSG("TCPINFO, cubic", CTL_TCPINFO, TCPI(43, .cc = "cubic", .retrans = 12,
	    .rtt_us = 41, .min_rtt_us = 18, .cwnd = 10, .mss = 65483,
	    .delivery_rate = 4000000000ULL, .busy_us = 10000000,
	    .rwnd_limited_us = 1500, .sndbuf_limited_us = 0), NULL),
	MSG("TCPINFO, bbr", CTL_TCPINFO, TCPI(85, .cc = "bbr", .mss = 1448,
	    .valid = 1), NULL),
	MSG("TCPINFO, at their most", CTL_TCPINFO, TCPI(127,
	    .cc = "abcdefghijklmno", .retrans = UINT64_MAX, .rtt_us = UINT32_MAX,
	    .min_rtt_us = UINT32_MAX, .cwnd = UINT32_MAX, .mss = UINT32_MAX,
	    .delivery_rate = UINT64_MAX, .busy_us = UINT64_MAX,
	    .rwnd_limited_us = UINT64_MAX, .sndbuf_limited_us = UINT64_MAX), NULL),
	/* what follows the name's NUL in the struct is not sent */
	{ .name = "TCPINFO, bytes after the name's NUL", .type = CTL_TCPINFO,
	  .msg = TCPI(1, .cc = { 'b', 'b', 'r', 0, 'j', 'u', 'n', 'k' }),
	  .splice = (const char[16]){ "bbr" }, .splice_at = 0, .splice_n = 16,
	  .want = TCPI(1, .cc = "bbr") },
	/* its stream (72..75, 1..128), its ecn flags (76..79, TCPS_ECN_*),
	 * the ECN counts (80..91) and the zero u32 at 92, poked on a valid
	 * TCPINFO of stream 1 without ECN */
#define TBAD(s) "bad TCPINFO message: stream " #s " or reserved bits set"
#define TB(n, o, v, e) { .name = "TCPINFO " n, .type = CTL_TCPINFO, \
	.raw = tcpinfo_cubic, .len = CTL_TCPINFO_LEN, .poke = { B(o, v) }, .err = e }
	TB("stream 0", 75, 0x00, TBAD(0)),
	TB("stream 129", 75, 0x81, TBAD(129)),
	TB("stream 255", 75, 0xff, TBAD(255)),
	TB("stream 257", 74, 0x01, TBAD(257)),
	TB("stream 65537", 73, 0x01, TBAD(65537)),
	TB("stream 2147483649", 72, 0x80, TBAD(2147483649)),
	TB("ecn 0x01000000", 76, 0x01, TBAD(1)),
	TB("ecn 0x80000000", 76, 0x80, TBAD(1)),
	TB("ecn 0x010000", 77, 0x01, TBAD(1)),
	TB("ecn 0x0100", 78, 0x01, TBAD(1)),
	TB("ecn 0x08", 79, 0x08, TBAD(1)),
	TB("ecn 0xff", 79, 0xff, TBAD(1)),
	TB("zero u32 at 92", 92, 0x01, TBAD(1)),
	TB("zero u32 at 95", 95, 0x01, TBAD(1)),
	TB("ECN negotiated, no counts", 79, 0x01, NULL),
	TB("every ECN flag", 79, 0x07, NULL),
	TB("delivered CE without ECN", 80, 0x01,
	   "bad TCPINFO message: ECN counts without ECN"),
	TB("received CE without ECN", 87, 0x01,
	   "bad TCPINFO message: ECN counts without ECN"),
	TB("received CE bytes without ECN", 88, 0x01,
	   "bad TCPINFO message: ECN counts without ECN"),
	{ .name = "TCPINFO stream 2", .type = CTL_TCPINFO, .raw = tcpinfo_cubic,
	  .len = CTL_TCPINFO_LEN, .poke = { B(75, 2) },
	  .want = TCPI(2, .cc = "cubic") },
	{ .name = "TCPINFO stream 128", .type = CTL_TCPINFO, .raw = tcpinfo_cubic,
	  .len = CTL_TCPINFO_LEN, .poke = { B(75, 0x80) },
	  .want = TCPI(128, .cc = "cubic") },
	TB("upper case name", 0, 'C', "bad TCPINFO message: congestion control name"),
	/* counts that need a flag: delivered_ce with TCPS_ECN is fine,
	 * received CE needs TCPS_ECN_RECEIVED too */
	{ .name = "TCPINFO delivered CE with ECN", .type = CTL_TCPINFO,
	  .raw = tcpinfo_cubic, .len = CTL_TCPINFO_LEN, .poke = { B(79, TCPS_ECN),
	  B(83, 9) }, .want = TCPI(1, .cc = "cubic", .ecn = TCPS_ECN,
	  .delivered_ce = 9) },
	{ .name = "TCPINFO received CE without the counters", .type = CTL_TCPINFO,
	  .raw = tcpinfo_cubic, .len = CTL_TCPINFO_LEN, .poke = { B(79, TCPS_ECN),
	  B(83, 9), B(87, 3) }, .err = "bad TCPINFO message: ECN counts without ECN" },
	{ .name = "TCPINFO received CE with the counters", .type = CTL_TCPINFO,
	  .raw = tcpinfo_cubic, .len = CTL_TCPINFO_LEN, .poke = { B(79, TCPS_ECN |
	  TCPS_ECN_RECEIVED), B(83, 9), B(87, 3), B(91, 0x80) },
	  .want = TCPI(1, .cc = "cubic", .ecn = TCPS_ECN | TCPS_ECN_RECEIVED,
	  .delivered_ce = 9, .received_ce = 3, .received_ce_bytes = 0x80) },
	/* a bad name speaks before a bad stream */
	RAW("TCPINFO BBR, stream 0", CTL_TCPINFO,
	    ((const uint8_t[CTL_TCPINFO_LEN]){ 'B', 'B', 'R' }), CTL_TCPINFO_LEN,
	    "bad TCPINFO message: congestion control name"),
	/* ---- the 16-byte congestion control name, as TCPINFO carries it at
	 * 0 and a PARAMS list of one name at 64 (the list's other 48 bytes
	 * zero): NUL-terminated within the 16 bytes, NUL-padded,
	 * [a-z0-9_-] ---- */
	{ .name = "PARAMS cc name: " "cubic", .type = CTL_PARAMS, .raw = PARAMS_P,
	  .len = CTL_PARAMS_LEN, .splice = (const char[16]){ "cubic" },
	  .splice_at = 64, .splice_n = 16, .err = NULL },
	{ .name = "TCPINFO cc name: " "cubic", .type = CTL_TCPINFO,
	  .raw = tcpinfo_one, .len = CTL_TCPINFO_LEN, .splice = (const char[16]){ "cubic" },
	  .splice_at = 0, .splice_n = 16, .err = NULL },
	{ .name = "PARAMS cc name: " "bbr", .type = CTL_PARAMS, .raw = PARAMS_P,
	  .len = CTL_PARAMS_LEN, .splice = (const char[16]){ "bbr" },
	  .splice_at = 64, .splice_n = 16, .err = NULL },
	{ .name = "TCPINFO cc name: " "bbr", .type = CTL_TCPINFO,
	  .raw = tcpinfo_one, .len = CTL_TCPINFO_LEN, .splice = (const char[16]){ "bbr" },
	  .splice_at = 0, .splice_n = 16, .err = NULL },
	{ .name = "PARAMS cc name: " "reno", .type = CTL_PARAMS, .raw = PARAMS_P,
	  .len = CTL_PARAMS_LEN, .splice = (const char[16]){ "reno" },
	  .splice_at = 64, .splice_n = 16, .err = NULL },
	{ .name = "TCPINFO cc name: " "reno", .type = CTL_TCPINFO,
	  .raw = tcpinfo_one, .len = CTL_TCPINFO_LEN, .splice = (const char[16]){ "reno" },
	  .splice_at = 0, .splice_n = 16, .err = NULL },
	{ .name = "PARAMS cc name: " "empty: the default", .type = CTL_PARAMS, .raw = PARAMS_P,
	  .len = CTL_PARAMS_LEN, .splice = (const char[16]){ "" },
	  .splice_at = 64, .splice_n = 16, .err = NULL },
	{ .name = "TCPINFO cc name: " "empty: the default", .type = CTL_TCPINFO,
	  .raw = tcpinfo_one, .len = CTL_TCPINFO_LEN, .splice = (const char[16]){ "" },
	  .splice_at = 0, .splice_n = 16, .err = NULL },
	{ .name = "PARAMS cc name: " "15 bytes", .type = CTL_PARAMS, .raw = PARAMS_P,
	  .len = CTL_PARAMS_LEN, .splice = (const char[16]){ "abcdefghijklmno" },
	  .splice_at = 64, .splice_n = 16, .err = NULL },
	{ .name = "TCPINFO cc name: " "15 bytes", .type = CTL_TCPINFO,
	  .raw = tcpinfo_one, .len = CTL_TCPINFO_LEN, .splice = (const char[16]){ "abcdefghijklmno" },
	  .splice_at = 0, .splice_n = 16, .err = NULL },
	{ .name = "PARAMS cc name: " "digits, _ and -", .type = CTL_PARAMS, .raw = PARAMS_P,
	  .len = CTL_PARAMS_LEN, .splice = (const char[16]){ "a_b-c0123456789" },
	  .splice_at = 64, .splice_n = 16, .err = NULL },
	{ .name = "TCPINFO cc name: " "digits, _ and -", .type = CTL_TCPINFO,
	  .raw = tcpinfo_one, .len = CTL_TCPINFO_LEN, .splice = (const char[16]){ "a_b-c0123456789" },
	  .splice_at = 0, .splice_n = 16, .err = NULL },
	{ .name = "PARAMS cc name: " "one byte", .type = CTL_PARAMS, .raw = PARAMS_P,
	  .len = CTL_PARAMS_LEN, .splice = (const char[16]){ "z" },
	  .splice_at = 64, .splice_n = 16, .err = NULL },
	{ .name = "TCPINFO cc name: " "one byte", .type = CTL_TCPINFO,
	  .raw = tcpinfo_one, .len = CTL_TCPINFO_LEN, .splice = (const char[16]){ "z" },
	  .splice_at = 0, .splice_n = 16, .err = NULL },
	{ .name = "PARAMS cc name: " "16 bytes, no NUL", .type = CTL_PARAMS, .raw = PARAMS_P,
	  .len = CTL_PARAMS_LEN, .splice = (const uint8_t[16]){ 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p' },
	  .splice_at = 64, .splice_n = 16, .err = BADP("bad congestion control name") },
	{ .name = "TCPINFO cc name: " "16 bytes, no NUL", .type = CTL_TCPINFO,
	  .raw = tcpinfo_one, .len = CTL_TCPINFO_LEN, .splice = (const uint8_t[16]){ 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p' },
	  .splice_at = 0, .splice_n = 16, .err = "bad TCPINFO message: congestion control name" },
	{ .name = "PARAMS cc name: " "upper case", .type = CTL_PARAMS, .raw = PARAMS_P,
	  .len = CTL_PARAMS_LEN, .splice = (const char[16]){ "Cubic" },
	  .splice_at = 64, .splice_n = 16, .err = BADP("bad congestion control name") },
	{ .name = "TCPINFO cc name: " "upper case", .type = CTL_TCPINFO,
	  .raw = tcpinfo_one, .len = CTL_TCPINFO_LEN, .splice = (const char[16]){ "Cubic" },
	  .splice_at = 0, .splice_n = 16, .err = "bad TCPINFO message: congestion control name" },
	{ .name = "PARAMS cc name: " "all upper case", .type = CTL_PARAMS, .raw = PARAMS_P,
	  .len = CTL_PARAMS_LEN, .splice = (const char[16]){ "BBR" },
	  .splice_at = 64, .splice_n = 16, .err = BADP("bad congestion control name") },
	{ .name = "TCPINFO cc name: " "all upper case", .type = CTL_TCPINFO,
	  .raw = tcpinfo_one, .len = CTL_TCPINFO_LEN, .splice = (const char[16]){ "BBR" },
	  .splice_at = 0, .splice_n = 16, .err = "bad TCPINFO message: congestion control name" },
	{ .name = "PARAMS cc name: " "a space", .type = CTL_PARAMS, .raw = PARAMS_P,
	  .len = CTL_PARAMS_LEN, .splice = (const char[16]){ "bb r" },
	  .splice_at = 64, .splice_n = 16, .err = BADP("bad congestion control name") },
	{ .name = "TCPINFO cc name: " "a space", .type = CTL_TCPINFO,
	  .raw = tcpinfo_one, .len = CTL_TCPINFO_LEN, .splice = (const char[16]){ "bb r" },
	  .splice_at = 0, .splice_n = 16, .err = "bad TCPINFO message: congestion control name" },
	{ .name = "PARAMS cc name: " "a leading space", .type = CTL_PARAMS, .raw = PARAMS_P,
	  .len = CTL_PARAMS_LEN, .splice = (const char[16]){ " bbr" },
	  .splice_at = 64, .splice_n = 16, .err = BADP("bad congestion control name") },
	{ .name = "TCPINFO cc name: " "a leading space", .type = CTL_TCPINFO,
	  .raw = tcpinfo_one, .len = CTL_TCPINFO_LEN, .splice = (const char[16]){ " bbr" },
	  .splice_at = 0, .splice_n = 16, .err = "bad TCPINFO message: congestion control name" },
	{ .name = "PARAMS cc name: " "a dot", .type = CTL_PARAMS, .raw = PARAMS_P,
	  .len = CTL_PARAMS_LEN, .splice = (const char[16]){ "tcp.bbr" },
	  .splice_at = 64, .splice_n = 16, .err = BADP("bad congestion control name") },
	{ .name = "TCPINFO cc name: " "a dot", .type = CTL_TCPINFO,
	  .raw = tcpinfo_one, .len = CTL_TCPINFO_LEN, .splice = (const char[16]){ "tcp.bbr" },
	  .splice_at = 0, .splice_n = 16, .err = "bad TCPINFO message: congestion control name" },
	{ .name = "PARAMS cc name: " "a slash", .type = CTL_PARAMS, .raw = PARAMS_P,
	  .len = CTL_PARAMS_LEN, .splice = (const char[16]){ "../bbr" },
	  .splice_at = 64, .splice_n = 16, .err = BADP("bad congestion control name") },
	{ .name = "TCPINFO cc name: " "a slash", .type = CTL_TCPINFO,
	  .raw = tcpinfo_one, .len = CTL_TCPINFO_LEN, .splice = (const char[16]){ "../bbr" },
	  .splice_at = 0, .splice_n = 16, .err = "bad TCPINFO message: congestion control name" },
	{ .name = "PARAMS cc name: " "a newline", .type = CTL_PARAMS, .raw = PARAMS_P,
	  .len = CTL_PARAMS_LEN, .splice = (const char[16]){ "bbr\n" },
	  .splice_at = 64, .splice_n = 16, .err = BADP("bad congestion control name") },
	{ .name = "TCPINFO cc name: " "a newline", .type = CTL_TCPINFO,
	  .raw = tcpinfo_one, .len = CTL_TCPINFO_LEN, .splice = (const char[16]){ "bbr\n" },
	  .splice_at = 0, .splice_n = 16, .err = "bad TCPINFO message: congestion control name" },
	{ .name = "PARAMS cc name: " "a high byte", .type = CTL_PARAMS, .raw = PARAMS_P,
	  .len = CTL_PARAMS_LEN, .splice = (const char[16]){ "bbr\xe9" },
	  .splice_at = 64, .splice_n = 16, .err = BADP("bad congestion control name") },
	{ .name = "TCPINFO cc name: " "a high byte", .type = CTL_TCPINFO,
	  .raw = tcpinfo_one, .len = CTL_TCPINFO_LEN, .splice = (const char[16]){ "bbr\xe9" },
	  .splice_at = 0, .splice_n = 16, .err = "bad TCPINFO message: congestion control name" },
	{ .name = "PARAMS cc name: " "a byte after the NUL", .type = CTL_PARAMS, .raw = PARAMS_P,
	  .len = CTL_PARAMS_LEN, .splice = (const uint8_t[16]){ 'b', 'b', 'r', 0, 'x' },
	  .splice_at = 64, .splice_n = 16, .err = BADP("bad congestion control name") },
	{ .name = "TCPINFO cc name: " "a byte after the NUL", .type = CTL_TCPINFO,
	  .raw = tcpinfo_one, .len = CTL_TCPINFO_LEN, .splice = (const uint8_t[16]){ 'b', 'b', 'r', 0, 'x' },
	  .splice_at = 0, .splice_n = 16, .err = "bad TCPINFO message: congestion control name" },
	{ .name = "PARAMS cc name: " "the last byte after the NUL", .type = CTL_PARAMS, .raw = PARAMS_P,
	  .len = CTL_PARAMS_LEN, .splice = (const uint8_t[16]){ 'b', 'b', 'r', [15] = 'x' },
	  .splice_at = 64, .splice_n = 16, .err = BADP("bad congestion control name") },
	{ .name = "TCPINFO cc name: " "the last byte after the NUL", .type = CTL_TCPINFO,
	  .raw = tcpinfo_one, .len = CTL_TCPINFO_LEN, .splice = (const uint8_t[16]){ 'b', 'b', 'r', [15] = 'x' },
	  .splice_at = 0, .splice_n = 16, .err = "bad TCPINFO message: congestion control name" },
	{ .name = "PARAMS cc name: " "a NUL first, then a name", .type = CTL_PARAMS, .raw = PARAMS_P,
	  .len = CTL_PARAMS_LEN, .splice = (const uint8_t[16]){ 0, 'b', 'b', 'r' },
	  .splice_at = 64, .splice_n = 16, .err = BADP("bad congestion control name") },
	{ .name = "TCPINFO cc name: " "a NUL first, then a name", .type = CTL_TCPINFO,
	  .raw = tcpinfo_one, .len = CTL_TCPINFO_LEN, .splice = (const uint8_t[16]){ 0, 'b', 'b', 'r' },
	  .splice_at = 0, .splice_n = 16, .err = "bad TCPINFO message: congestion control name" },
	{ .name = "PARAMS cc name: " "15 bytes, then not a NUL", .type = CTL_PARAMS, .raw = PARAMS_P,
	  .len = CTL_PARAMS_LEN, .splice = (const uint8_t[16]){ 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 0x01 },
	  .splice_at = 64, .splice_n = 16, .err = BADP("bad congestion control name") },
	{ .name = "TCPINFO cc name: " "15 bytes, then not a NUL", .type = CTL_TCPINFO,
	  .raw = tcpinfo_one, .len = CTL_TCPINFO_LEN, .splice = (const uint8_t[16]){ 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 0x01 },
	  .splice_at = 0, .splice_n = 16, .err = "bad TCPINFO message: congestion control name" },
	/* ---- UDPSTATS ---- */
	{ .name = "UDPSTATS", .type = CTL_UDPSTATS, .msg = UDPS(0x42, UDPSTATS_BASE),
	  .wire = udpstats_wire, .wire_len = sizeof udpstats_wire },
	/* round trips at the edges: all zero, each flag, counts at their
	 * most, every kind of copy, negative and extreme one-way delays */
	MSG("UDPSTATS, zero", CTL_UDPSTATS, UDPS(1, .received = 0), NULL),
	MSG("UDPSTATS, sequenced", CTL_UDPSTATS, UDPS(STREAM_MAX, .received = 1000,
	    .unique = 1000, .flags = UDPS_SEQ), NULL),
	MSG("UDPSTATS, every kind", CTL_UDPSTATS, UDPS(3, .received = 1000,
	    .unique = 990, .duplicates = 7, .too_old = 3, .reordered = 12,
	    .max_displacement = 65535, .late = 1, .other = 2,
	    .ecn = { 10, 20, 900, 70 }, .flags = UDPS_ALL), NULL),
	MSG("UDPSTATS, every one CE", CTL_UDPSTATS, UDPS(STREAM_MAX,
	    .received = 1000, .unique = 1000, .ecn = { 0, 0, 0, 1000 },
	    .flags = UDPS_ECN), NULL),
	MSG("UDPSTATS, ECN at its most", CTL_UDPSTATS, UDPS(5,
	    .received = UINT64_MAX, .unique = UINT64_MAX,
	    .ecn = { 0, 0, UINT64_MAX - 1, 1 }, .flags = UDPS_ECN), NULL),
	MSG("UDPSTATS, timed", CTL_UDPSTATS, UDPS(STREAM_MAX, .received = 5,
	    .unique = 5, .flags = UDPS_TIMED), NULL),
	MSG("UDPSTATS, unique at its most", CTL_UDPSTATS, UDPS(7,
	    .received = UINT64_MAX, .unique = UINT64_MAX), NULL),
	MSG("UDPSTATS, duplicates at their most", CTL_UDPSTATS, UDPS(STREAM_MAX,
	    .received = UINT64_MAX, .unique = 0, .duplicates = UINT64_MAX), NULL),
	MSG("UDPSTATS, one of each", CTL_UDPSTATS, UDPS(9, .received = UINT64_MAX,
	    .unique = 1, .duplicates = UINT64_MAX - 2, .too_old = 1), NULL),
	MSG("UDPSTATS, too old at its most", CTL_UDPSTATS, UDPS(STREAM_MAX,
	    .received = UINT64_MAX, .too_old = UINT64_MAX), NULL),
	MSG("UDPSTATS, extremes", CTL_UDPSTATS, UDPS(11, .received = 3,
	    .unique = 1, .duplicates = 1, .too_old = 1, .reordered = UINT64_MAX,
	    .max_displacement = UINT64_MAX, .late = UINT64_MAX, .other = UINT64_MAX,
	    .jitter_ns = UINT64_MAX, .delay_var_ns = UINT64_MAX,
	    .delay_var_max_ns = UINT64_MAX, .owd_min_ns = INT64_MIN,
	    .owd_mean_ns = INT64_MAX, .ecn = { 3, 0, 0, 0 }, .flags = UDPS_ALL), NULL),
	MSG("UDPSTATS, negative delays", CTL_UDPSTATS, UDPS(STREAM_MAX,
	    .received = 2, .unique = 2, .owd_min_ns = -1, .owd_mean_ns = -1,
	    .ecn = { 1, 0, 0, 1 }, .flags = UDPS_ALL), NULL),
	/* every malformed one: the base with a u64 or a u32 replaced */
#define RSV "bad UDPSTATS message: reserved bits set"
#define SUM "bad UDPSTATS message: counts that do not add up"
#define STR(s) "bad UDPSTATS message: stream " #s
#define ECNS "bad UDPSTATS message: ECN counts that do not add up to the " \
	"datagrams received"
#define UB(n, e, ...) { .name = "UDPSTATS " n, .type = CTL_UDPSTATS, \
	.msg = UDPS(0x42, UDPSTATS_BASE), .poke = { __VA_ARGS__ }, .err = e }
	UB("flag 0x08", RSV, U32(104, 0x08)),
	UB("flags 0x0f", RSV, U32(104, 0x0f)),
	/* 112..143: the ECN counts add up to received (the base's:
	 * 0x0102030405060700 + 5 + 2 + 1), and are 0 without UDPS_ECN */
	UB("ecn one short", ECNS, U64(136, 0)),
	UB("ecn one over", ECNS, U64(136, 2)),
	UB("ecn not-ECT > received", ECNS, U64(112, UINT64_MAX)),
	UB("ecn wraps to the sum", ECNS, U64(112, UINT64_MAX), U64(120, 14)),
	UB("ecn counts without UDPS_ECN", ECNS, U32(104, 0x03)),
	UB("counts first", SUM, U64(8, UINT64_MAX), U64(136, 0)),
	UB("flag 0x80000000", RSV, U32(104, 0x80000000u)),
	UB("flags all", RSV, U32(104, UINT32_MAX)),
	/* 108..111: the stream, 1..128 */
	UB("stream 0", STR(0), U32(108, 0)),
	UB("stream 129", STR(129), U32(108, 129)),
	UB("byte 108", STR(16777216), U32(108, 0x01000000u)),
	UB("byte 109", STR(65536), U32(108, 0x00010000u)),
	UB("byte 110", STR(256), U32(108, 0x00000100u)),
	UB("108 all", STR(4294967295), U32(108, UINT32_MAX)),
	/* the reserved bits speak before the stream and the counts, the
	 * stream before the counts */
	UB("reserved, bad counts", RSV, U32(104, 0x08), U64(8, UINT64_MAX)),
	UB("reserved, stream 0", RSV, U32(104, 0x08), U32(108, 0)),
	UB("stream 0, bad counts", STR(0), U32(108, 0), U64(8, UINT64_MAX)),
	/* received 10: unique 6, duplicates 3, too_old 1 adds up */
	UB("unique > received", SUM, U64(0, 10), U64(8, 11), U64(16, 0), U64(48, 0)),
	UB("unique max", SUM, U64(0, 10), U64(8, UINT64_MAX), U64(16, 0), U64(48, 0)),
	UB("duplicates > received", SUM, U64(0, 10), U64(8, 0), U64(16, 11),
	   U64(48, 0)),
	UB("one short", SUM, U64(0, 10), U64(8, 6), U64(16, 3), U64(48, 0)),
	UB("one over", SUM, U64(0, 10), U64(8, 6), U64(16, 3), U64(48, 2)),
	UB("received 0, a duplicate", SUM, U64(0, 0), U64(8, 0), U64(16, 1),
	   U64(48, 0)),
	UB("received 0, too old", SUM, U64(0, 0), U64(8, 0), U64(16, 0), U64(48, 1)),
	/* duplicates + too_old wraps around 2^64 to received - unique */
	UB("too_old wraps the sum", SUM, U64(0, 10), U64(8, 5), U64(16, 6),
	   U64(48, UINT64_MAX)),
	UB("both halves wrap the sum", SUM, U64(0, UINT64_MAX),
	   U64(8, UINT64_MAX - 1), U64(16, (1ULL << 63) + 1), U64(48, 1ULL << 63)),
	/* the table's own example adds up (10 CE), streams 1 and 128 too */
	{ .name = "UDPSTATS, 10 received, all CE", .type = CTL_UDPSTATS,
	  .msg = UDPS(0x42, UDPSTATS_BASE), .splice = (const uint8_t[32]){
	  [31] = 10 }, .splice_at = 112, .splice_n = 32,
	  .poke = { U64(0, 10), U64(8, 6), U64(16, 3), U64(48, 1) },
	  .want = UDPS(0x42, UDPSTATS_BASE, .received = 10, .unique = 6,
	  .duplicates = 3, .too_old = 1, .ecn = { 0, 0, 0, 10 }) },
	{ .name = "UDPSTATS, 10 received, stream 1", .type = CTL_UDPSTATS,
	  .msg = UDPS(1, UDPSTATS_BASE), .splice = (const uint8_t[32]){
	  [31] = 10 }, .splice_at = 112, .splice_n = 32,
	  .poke = { U64(0, 10), U64(8, 6), U64(16, 3), U64(48, 1) },
	  .want = UDPS(1, UDPSTATS_BASE, .received = 10, .unique = 6,
	  .duplicates = 3, .too_old = 1, .ecn = { 0, 0, 0, 10 }) },
	{ .name = "UDPSTATS, 10 received, stream 128", .type = CTL_UDPSTATS,
	  .msg = UDPS(STREAM_MAX, UDPSTATS_BASE), .splice = (const uint8_t[32]){
	  [31] = 10 }, .splice_at = 112, .splice_n = 32,
	  .poke = { U64(0, 10), U64(8, 6), U64(16, 3), U64(48, 1) },
	  .want = UDPS(STREAM_MAX, UDPSTATS_BASE, .received = 10, .unique = 6,
	  .duplicates = 3, .too_old = 1, .ecn = { 0, 0, 0, 10 }) },
	/* ---- ECHOPORT (13) and ECHOSTATS (14); 11, 12, 15, 16 unknown ---- */
	{ .name = "ECHOPORT", .type = CTL_ECHOPORT, .msg = &(const struct ctl_msg){
	  .type = CTL_ECHOPORT, .echo_port = 40001 }, .wire = echoport_wire,
	  .wire_len = sizeof echoport_wire },
	RAW("ECHOPORT port 0", CTL_ECHOPORT, "\0\0\0\0", 4,
	    "bad ECHOPORT message: port 0"),
	RAW("ECHOPORT reserved", CTL_ECHOPORT, "\x9c\x41\0\x01", 4,
	    "bad ECHOPORT message: reserved bits set"),
	RAW("ECHOPORT of 3 bytes", CTL_ECHOPORT, "\x9c\x41\0", 3,
	    "control message type 13 has 3 bytes, expected 4"),
	RAW("ECHOPORT of 5 bytes", CTL_ECHOPORT, "\x9c\x41\0\0\0", 5,
	    "control message type 13 has 5 bytes, expected 4"),
	{ .name = "ECHOSTATS", .type = CTL_ECHOSTATS, .msg = ECHOSTATS(ECHO_BASE),
	  .wire = echostats_wire, .wire_len = sizeof echostats_wire },
	/* any count off by one (bit 4 of its last byte) */
#define EB(n, o, v) { .name = "ECHOSTATS " n " changed", .type = CTL_ECHOSTATS, \
	.msg = ECHOSTATS(ECHO_BASE), .poke = { B(o, v) }, \
	.err = "bad ECHOSTATS message: counts that do not add up" }
	EB("received", 7, 0x17 ^ 0x10), EB("echoed", 15, 0x08 ^ 0x10),
	EB("over the rate", 23, 0x01 ^ 0x10), EB("strangers", 31, 0x02 ^ 0x10),
	EB("malformed", 39, 0x04 ^ 0x10), EB("failed", 47, 0x08 ^ 0x10),
	MSG("ECHOSTATS, a sum that wraps to 1", CTL_ECHOSTATS, ECHOSTATS(
	    .received = 1, .echoed = UINT64_MAX, .over_rate = 2),
	    "bad ECHOSTATS message: counts that do not add up"),
	/* ---- HOSTUDP (17) ---- */
	{ .name = "HOSTUDP", .type = CTL_HOSTUDP, .msg = HOSTUDP(HU_BASE),
	  .wire = hostudp_wire, .wire_len = sizeof hostudp_wire },
	MSG("HOSTUDP, zeros, IPv4", CTL_HOSTUDP, HOSTUDP(.in_errors = 0), NULL),
	MSG("HOSTUDP RcvbufErrors 2^32 + 1", CTL_HOSTUDP, HOSTUDP(HU_BASE,
	    .rcvbuf_errors = (1ull << 32) + 1), "bad HOSTUDP message: a count "
	    "over 2^32"),
	MSG("HOSTUDP InErrors 2^64 - 1", CTL_HOSTUDP, HOSTUDP(HU_BASE,
	    .in_errors = UINT64_MAX), "bad HOSTUDP message: a count over 2^32"),
	{ .name = "HOSTUDP RcvbufErrors, each high byte", .type = CTL_HOSTUDP,
	  .msg = HOSTUDP(.flags = 0), .poke = { B(0, 1) }, .each_end = 3,
	  .err = "bad HOSTUDP message: a count over 2^32" },
	{ .name = "HOSTUDP InErrors, each high byte", .type = CTL_HOSTUDP,
	  .msg = HOSTUDP(.flags = 0), .poke = { B(8, 1) }, .each_end = 11,
	  .err = "bad HOSTUDP message: a count over 2^32" },
	{ .name = "HOSTUDP flags 2", .type = CTL_HOSTUDP,
	  .msg = HOSTUDP(.flags = 0), .poke = { U32(16, 2) },
	  .err = "bad HOSTUDP message: reserved bits set" },
	{ .name = "HOSTUDP flags, each high byte", .type = CTL_HOSTUDP,
	  .msg = HOSTUDP(.flags = 0), .poke = { B(16, 1) }, .each_end = 19,
	  .err = "bad HOSTUDP message: reserved bits set" },
	{ .name = "HOSTUDP RcvbufErrors 2^33", .type = CTL_HOSTUDP,
	  .msg = HOSTUDP(.flags = 0), .poke = { B(3, 2) },
	  .err = "bad HOSTUDP message: a count over 2^32" },
	{ .name = "HOSTUDP flags 0x80000000", .type = CTL_HOSTUDP,
	  .msg = HOSTUDP(.flags = 0), .poke = { U32(16, 0x80000000u) },
	  .err = "bad HOSTUDP message: reserved bits set" },
	{ .name = "HOSTUDP reserved, each byte", .type = CTL_HOSTUDP,
	  .msg = HOSTUDP(.flags = 0), .poke = { B(20, 1) }, .each_end = 24,
	  .err = "bad HOSTUDP message: reserved bits set" },
	FILL("HOSTUDP of 23 bytes", CTL_HOSTUDP, 0, 23,
	    "control message type 17 has 23 bytes, expected 24"),
	FILL("HOSTUDP of 25 bytes", CTL_HOSTUDP, 0, 25,
	    "control message type 17 has 25 bytes, expected 24"),
	RAW("HOSTUDP of 1 byte", CTL_HOSTUDP, "", 1,
	    "control message type 17 has 1 bytes, expected 24"),
	HDR_OK("header type 17", "GPUT\x04\x11\x00\x18", CTL_HOSTUDP, 24),
	HDR("header type 18", "GPUT\x04\x12\x00\x00", "unknown control message type 18"),
	HDR("header type 11", "GPUT\x04\x0b\x00\x00", "unknown control message type 11"),
	HDR("header type 12", "GPUT\x04\x0c\x00\x00", "unknown control message type 12"),
	HDR_OK("header type 13", "GPUT\x04\x0d\x00\x00", CTL_ECHOPORT, 0),
	HDR_OK("header type 14", "GPUT\x04\x0e\x00\x00", CTL_ECHOSTATS, 0),
	HDR("header type 15", "GPUT\x04\x0f\x00\x00", "unknown control message type 15"),
	HDR("header type 16", "GPUT\x04\x10\x00\x00", "unknown control message type 16"),
	/* ---- READY payloads given whole ---- */
	RAW("READY, all zero", CTL_READY, ((const uint8_t[CTL_RESULT_LEN]){ 0 }), 52,
	    "bad READY message: 0 ports in 52 bytes"),
	RAW("READY, no ports, a nonce", CTL_READY, ((const uint8_t[CTL_RESULT_LEN]){
	    [4] = 1, [51] = 1 }), 52, "bad READY message: 0 ports in 52 bytes"),
	RAW("READY, one port 0", CTL_READY, ((const uint8_t[CTL_RESULT_LEN]){ 0, 0,
	    0, 1 }), 52, "bad READY message: port 0"),
	RAW("READY, 2 ports in 52", CTL_READY, ((const uint8_t[CTL_RESULT_LEN]){
	    0x13, 0xad, 0, 2 }), 52, "bad READY message: 2 ports in 52 bytes"),
	RAW("READY, 32768 ports", CTL_READY, ((const uint8_t[CTL_RESULT_LEN]){
	    0x13, 0xad, 0x80, 0 }), 52, "bad READY message: 32768 ports in 52 bytes"),
	RAW("READY, second port 0", CTL_READY, ((const uint8_t[CTL_RESULT_LEN]){
	    0x13, 0xad, 0, 2 }), 54, "bad READY message: port 0"),
	RAW("READY, first port 0 of 2", CTL_READY, ((const uint8_t[CTL_RESULT_LEN]){
	    0, 0, 0, 2, [52] = 0x13 }), 54, "bad READY message: port 0"),
	RAW("READY, 2 ports in 53", CTL_READY, ((const uint8_t[CTL_RESULT_LEN]){
	    0x13, 0xad, 0, 2, [53] = 0x01 }), 53,
	    "bad READY message: 2 ports in 53 bytes"),
};

static void
assert_bytes(const uint8_t *got, const uint8_t *want, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (got[i] != want[i])
			MISS("byte %zu: 0x%02x, want 0x%02x", i, got[i], want[i]);
	MISSED();
}

/* One table, every case. */
static void
test_wire(void **state)
{
	size_t i;

	(void)state;
	assert_int_equal(sizeof params_wire, CTL_HDR_LEN + CTL_PARAMS_LEN);
	assert_int_equal(sizeof udpstats_wire, CTL_HDR_LEN + CTL_UDPSTATS_LEN);
	assert_int_equal(strlen(CC4), XFER_CC_LIST - 1);
	assert_int_equal(strlen(E200), CTL_MAX_TEXT);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		run_case(&cases[i]);
	print_message("%zu cases\n", sizeof cases / sizeof cases[0]);
	MISSED();
}

/* ctl_error: the text made printable, never empty, at most 200 bytes. */
static void
test_error_text(void **state)
{
	static const struct { const char *in, *want; } rows[] = {
		{ "peer said no", "peer said no" },
		{ "x", "x" },
		{ "", "?" },
		{ "tab\there\nnl", "tab?here?nl" },
		{ "\x7f\x80\xff ~", "??? ~" },
		{ E200 "eeeeeeeeee", E200 },     /* longer: cut to exactly 200 */
	};
	struct ctl_msg m;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		ctl_error(&m, rows[i].in);
		assert_int_equal(m.type, CTL_ERROR);
		assert_string_equal(m.text, rows[i].want);
	}
}

/* The named offsets are the layout gput(1) and wire_ctl.h document. */
static void
test_offsets(void **state)
{
	static const struct { const char *name; unsigned got, want; } rows[] = {
#define O(c, v) { #c, c, v }
		O(CTL_HDR_MAGIC, 0), O(CTL_HDR_VERSION, 4), O(CTL_HDR_TYPE, 5),
		O(CTL_HDR_PLEN, 6), O(CTL_HELLO_FLAGS, 0), O(CTL_HELLO_RSVD, 4),
		O(CTL_HELLO_CHALLENGE, 8), O(CTL_PX_PROTO, 0), O(CTL_PX_ROLE, 1),
		O(CTL_PX_FLAGS, 2), O(CTL_PX_BATCH, 3), O(CTL_PX_LEN, 4),
		O(CTL_PX_COUNT, 8), O(CTL_PX_WINDOW, 16), O(CTL_PX_GAP_US, 20),
		O(CTL_PX_DATA_LEN, 24), O(CTL_PX_SEED, 28), O(CTL_PX_DATA_BYTES, 32),
		O(CTL_PX_DATA_GAP_PS, 40), O(CTL_PX_DURATION_MS, 48),
		O(CTL_PX_INTERVAL_MS, 52), O(CTL_PX_OMIT_MS, 56),
		O(CTL_PX_DATA_BURST, 60), O(CTL_PX_CC, 64), O(CTL_PX_STREAMS, 128),
		O(CTL_PX_MFLAGS, 130), O(CTL_PX_MFAMILY, 132), O(CTL_PX_MTTL, 133),
		O(CTL_PX_MPORT, 134), O(CTL_PX_MGROUP, 136), O(CTL_PX_XFLAGS, 152),
		O(CTL_PX_LATENCY, 156), O(CTL_PX_LAT_INTERVAL_US, 156),
		O(CTL_PX_LAT_IDLE_MS, 160), O(CTL_PX_LAT_RSVD, 164),
		O(CTL_PX_AFFINITY, 168), O(CTL_PX_PEER_TIMEOUT, 176),
		O(CTL_PX_HARDEN, 180), O(CTL_PX_MAC, 184),
		O(CTL_RDY_PORT, 0), O(CTL_RDY_NPORTS, 2), O(CTL_RDY_NONCE, 4),
		O(CTL_RDY_MAC, 20), O(CTL_RDY_PORTS, 52), O(CTL_RES_COUNTS, 0),
		O(CTL_RES_FLAGS, 88), O(CTL_RES_SNDBUF, 92), O(CTL_RES_RCVBUF, 96),
		O(CTL_RES_STREAM, 100), O(CTL_RES_START_NS, 104),
		O(CTL_RES_END_NS, 112), O(CTL_IVL_INDEX, 0), O(CTL_IVL_FLAGS, 4),
		O(CTL_IVL_START_NS, 8), O(CTL_IVL_END_NS, 16), O(CTL_IVL_BYTES, 24),
		O(CTL_IVL_CALLS, 32), O(CTL_IVL_DGRAMS, 40), O(CTL_IVL_RETRANS, 48),
		O(CTL_IVL_CWND, 52), O(CTL_IVL_SRTT_US, 56), O(CTL_IVL_STREAM, 60),
		O(CTL_TCPI_CC, 0), O(CTL_TCPI_RETRANS, 16), O(CTL_TCPI_RTT_US, 24),
		O(CTL_TCPI_MIN_RTT_US, 28), O(CTL_TCPI_CWND, 32), O(CTL_TCPI_MSS, 36),
		O(CTL_TCPI_DELIVERY_RATE, 40), O(CTL_TCPI_BUSY_US, 48),
		O(CTL_TCPI_RWND_LIMITED_US, 56), O(CTL_TCPI_SNDBUF_LIMITED_US, 64),
		O(CTL_TCPI_STREAM, 72), O(CTL_TCPI_ECN, 76),
		O(CTL_TCPI_DELIVERED_CE, 80), O(CTL_TCPI_RECEIVED_CE, 84),
		O(CTL_TCPI_RECEIVED_CE_BYTES, 88), O(CTL_TCPI_RSVD, 92),
		O(CTL_UDPS_COUNTS, 0), O(CTL_UDPS_OWD_MIN, 88),
		O(CTL_UDPS_OWD_MEAN, 96), O(CTL_UDPS_FLAGS, 104),
		O(CTL_UDPS_STREAM, 108), O(CTL_UDPS_ECN, 112), O(CTL_EPORT_PORT, 0),
		O(CTL_EPORT_RSVD, 2), O(CTL_ESTATS_COUNTS, 0),
		O(CTL_PF_NODELAY, 0x01), O(CTL_PF_VERIFY, 0x02),
		O(CTL_PF_STREAM, 0x04), O(CTL_PF_VERBOSE, 0x08), O(CTL_PF_GSO, 0x10),
		O(CTL_PF_DISCARD, 0x20), O(CTL_PF_ALL, 0x3f),
#undef O
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++)
		if (rows[i].got != rows[i].want)
			MISS("%s is %u, documented %u", rows[i].name, rows[i].got,
			     rows[i].want);
	MISSED();
}

static void
test_signed_bytes(void **state)
{
	uint8_t out[CTL_SIGNED_MAX + 8];
	uint8_t want[sizeof out], challenge[CTL_CHALLENGE_LEN];
	struct ctl_msg p = *PMSG(), r;
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
	assert_string_equal(ctl_type_name(CTL_HOSTUDP), "HOSTUDP");
	assert_string_equal(ctl_type_name(11), "unknown");
	assert_string_equal(ctl_type_name(11), "unknown");
	assert_string_equal(ctl_type_name(128), "unknown");
	assert_string_equal(ctl_type_name(255), "unknown");
}

static int
fresh(void **state)
{
	(void)state;
	misses = 0;
	return 0;
}

/* The header of a TCP data connection: its length and a stream number in
 * range, nothing else (the nonce is random). */
static void
test_data_hello(void **state)
{
	static const struct { size_t n; uint8_t hi, lo; uint32_t want; } rows[] = {
		{ CTL_DATA_HELLO_LEN, 0, 1, 1 },
		{ CTL_DATA_HELLO_LEN, 0, 128, 128 },
		{ CTL_DATA_HELLO_LEN, 0, 0, 0 },        /* no stream 0 */
		{ CTL_DATA_HELLO_LEN, 0, 129, 0 },      /* over STREAM_MAX */
		{ CTL_DATA_HELLO_LEN, 1, 1, 0 },        /* 257 */
		{ CTL_DATA_HELLO_LEN - 1, 0, 1, 0 },    /* a byte short */
		{ CTL_DATA_HELLO_LEN + 1, 0, 1, 0 },    /* a byte long */
	};
	uint8_t b[CTL_DATA_HELLO_LEN + 1];
	size_t i;

	(void)state;
	assert_int_equal(CTL_DATA_HELLO_LEN, 18);
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		memset(b, 0xa5, sizeof b);
		b[CTL_NONCE_LEN] = rows[i].hi;
		b[CTL_NONCE_LEN + 1] = rows[i].lo;
		assert_int_equal(ctl_data_hello_stream(b, rows[i].n), rows[i].want);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_wire, fresh),
		cmocka_unit_test_setup(test_error_text, fresh),
		cmocka_unit_test_setup(test_offsets, fresh),
		cmocka_unit_test_setup(test_signed_bytes, fresh),
		cmocka_unit_test_setup(test_type_name, fresh),
		cmocka_unit_test(test_data_hello),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_overhead.c: the overhead model against the worked numbers of
 * GOODPUT.md, and the --predict breakdown byte for byte. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "overhead.h"
#include "report_link.h"

/* Configurations of the tables; an mtu left 0 means 1500 (see conf()). */
#define TCP_TS(...) { .proto = OVH_TCP, .tcp_opts = 12, __VA_ARGS__ }
#define TCP_NO(...) { .proto = OVH_TCP, __VA_ARGS__ }
#define UDP(...)    { .proto = OVH_UDP, __VA_ARGS__ }

static struct ovh_conf
conf(const struct ovh_conf *c)
{
	struct ovh_conf r = *c;

	if (r.mtu == 0)
		r.mtu = 1500;
	return r;
}

struct row {
	const char     *name;
	struct ovh_conf c;
	uint64_t        msg;
	uint64_t        frames, payload, l4, l3, l2, l1, pad, wire;
	double          eta;      /* to 4 decimals */
	double          mbit_10m; /* eta * 10 Mb/s to 4 decimals, 0 = not checked */
};

static const struct row rows[] = {
	/* GOODPUT.md: S = 1448, eta = 1448/1538 = 0.9415, 9.41 Mb/s on 10M */
	{ "tcp ts bulk full", TCP_TS(), 1448, 1, 1448, 32, 20, 18, 20, 0, 1538, 0.9415, 9.4148 },
	{ "tcp ts bulk 4096", TCP_TS(), 4096, 1, 1448, 32, 20, 18, 20, 0, 1538, 0.9415, 9.4148 },
	{ "tcp ts bulk 100 (re-segmented)", TCP_TS(), 100, 1, 1448, 32, 20, 18, 20, 0, 1538, 0.9415, 9.4148 },
	/* GOODPUT.md: MSS 1460, eta = 1460/1538 = 0.949 */
	{ "tcp no options", TCP_NO(), 8192, 1, 1460, 20, 20, 18, 20, 0, 1538, 0.9493, 9.4928 },
	/* GOODPUT.md: 1472/1538 = 0.957, 9.57 Mb/s */
	{ "udp 1472", UDP(), 1472, 1, 1472, 8, 20, 18, 20, 0, 1538, 0.9571, 9.5709 },
	{ "ipv6 tcp ts", TCP_TS(.ipv6 = 1), 1428, 1, 1428, 32, 40, 18, 20, 0, 1538, 0.9285, 9.2848 },
	{ "ipv6 udp 1452", UDP(.ipv6 = 1), 1452, 1, 1452, 8, 40, 18, 20, 0, 1538, 0.9441, 9.4408 },
	{ "802.1q tcp ts", TCP_TS(.vlan_tags = 1), 1448, 1, 1448, 32, 20, 22, 20, 0, 1542, 0.9390, 9.3904 },
	{ "802.1q udp 1472", UDP(.vlan_tags = 1), 1472, 1, 1472, 8, 20, 22, 20, 0, 1542, 0.9546, 9.5460 },
	{ "qinq udp 1472", UDP(.vlan_tags = 2), 1472, 1, 1472, 8, 20, 26, 20, 0, 1546, 0.9521, 9.5213 },
	/* GOODPUT.md: PPPoE MTU 1492: S = 1440 (TCP+ts), 1464 (UDP) */
	{ "pppoe tcp ts", TCP_TS(.mtu = 1492, .pppoe = 1), 1440, 1, 1440, 32, 20, 26, 20, 0, 1538, 0.9363, 9.3628 },
	{ "pppoe udp 1464", UDP(.mtu = 1492, .pppoe = 1), 1464, 1, 1464, 8, 20, 26, 20, 0, 1538, 0.9519, 9.5189 },
	/* 1480 bytes of UDP data > 1472 allowed: fragments of 1472 + 8 bytes;
	 * the second frame is 14+8+20+8 = 50 bytes, padded by 10 */
	{ "pppoe udp 1472 fragments", UDP(.mtu = 1492, .pppoe = 1), 1472, 2, 1472, 8, 40, 52, 40, 10, 1622, 0.9075, 9.0752 },
	/* 2008 bytes of UDP data = fragments of 1480 + 528 */
	{ "udp 2000 fragments", UDP(), 2000, 2, 2000, 8, 40, 36, 40, 0, 2124, 0.9416, 9.4162 },
	/* 8200 = 5 x 1480 + 800 */
	{ "udp 8192 fragments", UDP(), 8192, 6, 8192, 8, 120, 108, 120, 0, 8548, 0.9584, 9.5835 },
	/* IPv6: 8-byte Fragment header in each, 1448 + 560 */
	{ "ipv6 udp 2000 fragments", UDP(.ipv6 = 1), 2000, 2, 2000, 8, 96, 36, 40, 0, 2180, 0.9174, 9.1743 },
	/* largest IPv4 datagram: 65515 = 44 x 1480 + 395 */
	{ "udp 65507 fragments", UDP(), 65507, 45, 65507, 8, 900, 810, 900, 0, 68125, 0.9616, 9.6157 },
	/* GOODPUT.md: a 4-byte datagram costs 64 + 20 bytes */
	{ "udp 4 padded", UDP(), 4, 1, 4, 8, 20, 18, 20, 14, 84, 0.0476, 0.4762 },
	{ "udp 10 padded", UDP(), 10, 1, 10, 8, 20, 18, 20, 8, 84, 0.1190, 1.1905 },
	{ "udp 18 exactly 64", UDP(), 18, 1, 18, 8, 20, 18, 20, 0, 84, 0.2143, 2.1429 },
	/* -D: every message in its own segment(s) */
	{ "tcp ts -D 100", TCP_TS(.per_message = 1), 100, 1, 100, 32, 20, 18, 20, 0, 190, 0.5263, 5.2632 },
	{ "tcp ts -D 1000", TCP_TS(.per_message = 1), 1000, 1, 1000, 32, 20, 18, 20, 0, 1090, 0.9174, 9.1743 },
	{ "tcp ts -D 4096", TCP_TS(.per_message = 1), 4096, 3, 4096, 96, 60, 54, 60, 0, 4366, 0.9382, 9.3816 },
	{ "tcp -D 1 padded", TCP_NO(.per_message = 1), 1, 1, 1, 20, 20, 18, 20, 5, 84, 0.0119, 0.1190 },
	{ "tcp ts -D 1448", TCP_TS(.per_message = 1), 1448, 1, 1448, 32, 20, 18, 20, 0, 1538, 0.9415, 9.4148 },
	{ "tcp ts explicit mss 1400", TCP_TS(.mss = 1400), 1400, 1, 1400, 32, 20, 18, 20, 0, 1490, 0.9396, 9.3960 },
	{ "tcp ts ipv4 options 4", TCP_TS(.ip_opts = 4), 1444, 1, 1444, 32, 24, 18, 20, 0, 1538, 0.9389, 9.3888 },
	{ "tcp ts jumbo 9000", TCP_TS(.mtu = 9000), 8948, 1, 8948, 32, 20, 18, 20, 0, 9038, 0.9900, 9.9004 },
	/* loopback MTU 65536: IPv4 Total Length caps the packet at 65535 */
	{ "tcp ts loopback 65536", TCP_TS(.mtu = 65536), 65483, 1, 65483, 32, 20, 18, 20, 0, 65573, 0.9986, 9.9863 },
};

static void
test_rows(void **state)
{
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct ovh_conf c = conf(&r->c);
		struct ovh_msg m;
		uint64_t sum;

		print_message("%s\n", r->name);
		err[0] = '\0';
		assert_int_equal(ovh_message(&c, r->msg, &m, err, sizeof(err)), 0);
		assert_string_equal(err, "");
		assert_int_equal(m.frames, r->frames);
		assert_int_equal(m.bytes.payload, r->payload);
		assert_int_equal(m.bytes.l4, r->l4);
		assert_int_equal(m.bytes.l3, r->l3);
		assert_int_equal(m.bytes.l2, r->l2);
		assert_int_equal(m.bytes.l1, r->l1);
		assert_int_equal(m.bytes.pad, r->pad);
		assert_int_equal(m.wire, r->wire);
		sum = m.bytes.payload + m.bytes.l4 + m.bytes.l3 + m.bytes.l2 +
		      m.bytes.l1 + m.bytes.pad;
		assert_int_equal(sum, m.wire);
		assert_true(fabs(m.eta - r->eta) < 0.00005);
		assert_true(fabs(ovh_expected_bps(&m, 10e6) / 1e6 - r->mbit_10m) < 0.00005);
		assert_int_equal(m.bulk, r->c.proto == OVH_TCP && !r->c.per_message);
	}
}

struct bad {
	const char     *name;
	struct ovh_conf c;
	uint64_t        msg;
	const char     *err;
};

static const struct bad bads[] = {
	{ "empty message", UDP(), 0, "message size must be at least 1 byte" },
	{ "udp too big", UDP(), 65508,
	  "UDP payload of 65508 bytes exceeds the largest datagram (65507 bytes)" },
	{ "udp ipv6 too big", UDP(.ipv6 = 1), 65528,
	  "UDP payload of 65528 bytes exceeds the largest datagram (65527 bytes)" },
	{ "mtu too small tcp", TCP_TS(.mtu = 52), 100,
	  "MTU 52 leaves no room for payload after 52 bytes of IP and TCP headers" },
	{ "mtu too small udp", UDP(.mtu = 28), 1,
	  "MTU 28 leaves no room for payload after 28 bytes of IP and UDP headers" },
	{ "mtu too small to fragment", UDP(.mtu = 30), 100,
	  "MTU 30 is too small to fragment a UDP datagram after 20 bytes of IP headers" },
	{ "mss too big", TCP_NO(.mss = 1461), 100,
	  "MSS 1461 plus 40 bytes of IP and TCP headers exceeds the largest IP packet (1500 bytes)" },
	{ "tcp options odd", TCP_NO(.tcp_opts = 10), 100,
	  "TCP options of 10 bytes: must be a multiple of 4, at most 40" },
	{ "ipv4 options odd", UDP(.ip_opts = 6), 100,
	  "IPv4 options of 6 bytes: must be a multiple of 4, at most 40" },
	{ "ipv6 ext odd", UDP(.ipv6 = 1, .ip_opts = 4), 100,
	  "IPv6 extension headers of 4 bytes: must be a multiple of 8" },
	{ "too many tags", UDP(.vlan_tags = 9), 100, "9 802.1Q tags: at most 8" },
};

static void
test_errors(void **state)
{
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		struct ovh_conf c = conf(&bads[i].c);
		struct ovh_msg m;

		print_message("%s\n", bads[i].name);
		assert_int_equal(ovh_message(&c, bads[i].msg, &m, err,
		                             sizeof(err)), -1);
		assert_string_equal(err, bads[i].err);
		assert_int_equal(m.wire, 0);
	}
}

/* A TCP stream from the kernel's counts (gput --link): bytes in segs data
 * segments, as even as the counts allow. */
struct srow {
	const char     *name;
	struct ovh_conf c;
	uint64_t        bytes, segs;
	uint64_t        payload, l4, pad, wire;
	double          eta;
};

static const struct srow srows[] = {
	/* 10000 full segments: the bulk model's 1448/1538 */
	{ "full", TCP_TS(), 14480000, 10000, 14480000, 320000, 0, 15380000, 0.9415 },
	/* -D -l 100 that stayed 100-byte segments: 100/190 */
	{ "100 each", TCP_TS(), 2000000, 20000, 2000000, 640000, 0, 3800000, 0.5263 },
	/* 1000 bytes in 3 segments: 334 + 333 + 333 */
	{ "uneven", TCP_TS(), 1000, 3, 1000, 96, 0, 1270, 0.7874 },
	/* 10 one-byte segments without options: each padded by 5 (1+20+20+14 = 55) */
	{ "padded", TCP_NO(), 10, 10, 10, 200, 50, 840, 0.0119 },
	/* 1 + 2 bytes: the 1-byte segment pads by 5, the 2-byte one by 4 */
	{ "padded uneven", TCP_NO(), 3, 2, 3, 40, 9, 168, 0.0179 },
};

static void
test_tcp_stream(void **state)
{
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(srows) / sizeof(srows[0]); i++) {
		const struct srow *r = &srows[i];
		struct ovh_conf c = conf(&r->c);
		struct ovh_msg m;

		print_message("%s\n", r->name);
		assert_int_equal(ovh_tcp_stream(&c, r->bytes, r->segs, &m, err,
		                 sizeof(err)), 0);
		assert_int_equal(m.frames, r->segs);
		assert_int_equal(m.bytes.payload, r->payload);
		assert_int_equal(m.bytes.l4, r->l4);
		assert_int_equal(m.bytes.l3, 20 * r->segs);
		assert_int_equal(m.bytes.l2, 18 * r->segs);
		assert_int_equal(m.bytes.l1, 20 * r->segs);
		assert_int_equal(m.bytes.pad, r->pad);
		assert_int_equal(m.wire, r->wire);
		assert_int_equal(m.bulk, 0);
		assert_true(fabs(m.eta - r->eta) < 0.00005);
	}
}

static void
test_tcp_stream_errors(void **state)
{
	struct ovh_conf tcp = conf(&(struct ovh_conf)TCP_TS());
	struct ovh_conf udp = conf(&(struct ovh_conf)UDP());
	struct ovh_msg m;
	char err[256];

	(void)state;
	assert_int_equal(ovh_tcp_stream(&tcp, 100, 0, &m, err, sizeof(err)), -1);
	assert_string_equal(err, "100 bytes cannot fill 0 data segments");
	assert_int_equal(ovh_tcp_stream(&tcp, 2, 3, &m, err, sizeof(err)), -1);
	assert_string_equal(err, "2 bytes cannot fill 3 data segments");
	/* 1449 bytes in one segment: more than the MSS (a wrapped counter) */
	assert_int_equal(ovh_tcp_stream(&tcp, 1449, 1, &m, err, sizeof(err)), -1);
	assert_string_equal(err, "1449 bytes in 1 segments exceed the MSS of 1448");
	assert_int_equal(ovh_tcp_stream(&tcp, 2897, 2, &m, err, sizeof(err)), -1);
	assert_int_equal(ovh_tcp_stream(&tcp, 2896, 2, &m, err, sizeof(err)), 0);
	assert_int_equal(ovh_tcp_stream(&udp, 100, 1, &m, err, sizeof(err)), -1);
	assert_string_equal(err, "a segment count describes TCP only");
	assert_int_equal(m.wire, 0);
}

static void
test_eth_wire(void **state)
{
	uint64_t pad;

	(void)state;
	assert_int_equal(ovh_eth_wire(1514, &pad), 1538);
	assert_int_equal(pad, 0);
	assert_int_equal(ovh_eth_wire(60, &pad), 84);
	assert_int_equal(pad, 0);
	assert_int_equal(ovh_eth_wire(54, &pad), 84);
	assert_int_equal(pad, 6);
	assert_int_equal(ovh_eth_wire(66, NULL), 90); /* bare ACK with timestamps */
}

/* Render into a string through a memory stream. */
static char *
render(const struct ovh_conf *c, uint64_t msg, double link_bps)
{
	struct ovh_msg m;
	char err[256], *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(ovh_message(c, msg, &m, err, sizeof(err)), 0);
	report_link_breakdown(f, c, msg, &m,
	    link_bps > 0 ? ovh_expected_bps(&m, link_bps) : 0);
	fclose(f);
	return buf;
}

static void
expect_render(const struct ovh_conf *c, uint64_t msg, double link_bps,
              const char *want)
{
	char *got = render(c, msg, link_bps);

	assert_string_equal(got, want);
	free(got);
}

static void
test_breakdown_udp(void **state)
{
	struct ovh_conf c = UDP(.mtu = 1500);

	(void)state;
	expect_render(&c, 1472, 10e6,
	    "UDP over IPv4, MTU 1500, Ethernet\n"
	    "a 1472-byte message is 1 frame; bytes per message:\n"
	    "payload                            1472\n"
	    "L4 UDP header                         8\n"
	    "L3 IPv4 header                       20\n"
	    "L2 MAC header + FCS                  18\n"
	    "L2 padding to 64 bytes                0\n"
	    "L1 preamble, SFD, gap                20\n"
	    "wire                               1538\n"
	    "eta 0.9571\n"
	    "expected 9.5709 MBit/s\n");
	expect_render(&c, 8192, 0,
	    "UDP over IPv4, MTU 1500, Ethernet\n"
	    "a 8192-byte message is 6 IP fragments; bytes per message:\n"
	    "payload                            8192\n"
	    "L4 UDP header                         8\n"
	    "L3 IPv4 header                      120\n"
	    "L2 MAC header + FCS                 108\n"
	    "L2 padding to 64 bytes                0\n"
	    "L1 preamble, SFD, gap               120\n"
	    "wire                               8548\n"
	    "eta 0.9584\n");
}

static void
test_breakdown_tcp(void **state)
{
	struct ovh_conf bulk = TCP_TS(.mtu = 1500);
	struct ovh_conf d = TCP_TS(.mtu = 1500, .per_message = 1, .vlan_tags = 1);

	(void)state;
	expect_render(&bulk, 4096, 10e6,
	    "TCP over IPv4, MTU 1500, MSS 1448, TCP options 12, Ethernet\n"
	    "bulk stream cut into full 1448-byte segments: a 4096-byte message "
	    "is 2.83 segments; bytes per segment:\n"
	    "payload                            1448\n"
	    "L4 TCP header + options              32\n"
	    "L3 IPv4 header                       20\n"
	    "L2 MAC header + FCS                  18\n"
	    "L2 padding to 64 bytes                0\n"
	    "L1 preamble, SFD, gap                20\n"
	    "wire                               1538\n"
	    "eta 0.9415\n"
	    "expected 9.4148 MBit/s\n");
	expect_render(&d, 100, 1e9,
	    "TCP over IPv4, MTU 1500, MSS 1448, TCP options 12, Ethernet with 1 802.1Q tag\n"
	    "a 100-byte message is 1 segment; bytes per message:\n"
	    "payload                             100\n"
	    "L4 TCP header + options              32\n"
	    "L3 IPv4 header                       20\n"
	    "L2 MAC + tags/PPPoE + FCS            22\n"
	    "L2 padding to 64 bytes                0\n"
	    "L1 preamble, SFD, gap                20\n"
	    "wire                                194\n"
	    "eta 0.5155\n"
	    "expected 515.4639 MBit/s\n");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_tcp_stream),
		cmocka_unit_test(test_tcp_stream_errors),
		cmocka_unit_test(test_eth_wire),
		cmocka_unit_test(test_breakdown_udp),
		cmocka_unit_test(test_breakdown_tcp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_pcapedge.c: gput-pcap on odd but legal captures, and on what the
 * fuzzer found: pcapng timestamp units, standard input, TCP sequence
 * wrap-around and reused ports, IPv6 extension headers and fragments,
 * IPv4 fragment trains, the link types without an Ethernet header, and
 * JSON with strings that need escaping. Every number is checked exactly. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <math.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capbuild.h"
#include "pcap_report.h"
#include "pcap_scan.h"

#define MS 1000000LL  /* ns */

static char dir[256];

static int
setup(void **state)
{
	(void)state;
	return cb_tmpdir(dir, sizeof(dir), "unit_pcapedge");
}

static int
teardown(void **state)
{
	(void)state;
	return cb_rmdir(dir);
}

static void
scan(struct pscan *s, const char *name)
{
	cb_scan(s, dir, name, NULL);
}

/* The error after "DIR/NAME: " of a capture that must be refused. */
static void
scan_fails(const char *name, const char *want)
{
	char path[512], full[1024], err[512] = "";
	struct pscan s;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(full, sizeof(full), "%s: %s", path, want);
	assert_int_equal(pscan_file(&s, path, NULL, 1500, err, sizeof(err)),
	                 PSCAN_EBAD);
	assert_string_equal(err, full);
	pscan_free(&s);
}

static void
assert_near(double got, double want)
{
	if (fabs(got - want) > 1e-9 * (fabs(want) > 1 ? fabs(want) : 1))
		fail_msg("got %.12g, want %.12g", got, want);
}

/* ---- timestamps ---- */

/* Fuzzer: a pcapng timestamp in units of seconds (if_tsresol 0) past the
 * year 2262 overflowed the ns arithmetic (signed overflow, then absurd
 * durations). Such a capture is refused with one line. */
static void
test_ts_range(void **state)
{
	struct cap *c = cb_new();
	struct spec d = cb_tcp4(DLT_EN10MB, 1, 100, 0);
	struct pscan s;
	char err[256];
	size_t n;

	(void)state;
	cb_open_ng(c, dir, "ts_range.pcapng", DLT_EN10MB, 65535, 0);
	n = cb_build(c->buf, &d);
	cb_put_units(c, c->buf, (uint32_t)n, (uint32_t)n, (uint64_t)1 << 40);
	cb_close(c);
	free(c);
	scan_fails("ts_range.pcapng", "packet 1: timestamp "
	           "1099511627776.000000000 s is out of range (1970 to 2262)");

	/* pscan_packet() itself refuses a negative time */
	pscan_init(&s, 1500, DLT_EN10MB);
	assert_int_equal(pscan_packet(&s, -1, 20, 20, (const uint8_t *)"x",
	                              err, sizeof(err)), PSCAN_EBAD);
	assert_string_equal(err, "packet 1: timestamp before 1970");
	pscan_free(&s);
}

/* A pcap record holds its seconds and fraction as signed 32-bit fields:
 * seconds -1 and fraction -1000 ns is -1.000001 s, which was printed as
 * "-1.-00001000". Every sign combination and the extremes as one number. */
static void
test_ts_negative(void **state)
{
	static const struct { long long sec, frac; const char *want; } t[] = {
		{ -1, -1000, "-1.000001000" },
		{ 0, -5, "-0.000000005" },
		{ -3, 0, "-3.000000000" },
		{ 1, -5, "0.999999995" },
		{ -1, 999999999, "-0.000000001" },
		{ 12, 345, "12.000000345" },
		{ 0, 0, "0.000000000" },
		{ -9223372036854775807LL - 1, -999999999,
		  "-9223372036854775808.999999999" },
		{ 9223372036854775807LL, 999999999,
		  "9223372036854775807.999999999" },
	};
	struct cap *c = cb_new();
	struct spec d = cb_tcp4(DLT_EN10MB, 1, 100, 0);
	char buf[48];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		pscan_ts_text(t[i].sec, t[i].frac, buf, sizeof(buf));
		assert_string_equal(buf, t[i].want);
	}
	cb_open(c, dir, "ts_neg.pcap", DLT_EN10MB, 65535);
	cb_put(c, &d, -1000001000LL);   /* seconds -1, fraction -1000 */
	cb_close(c);
	free(c);
	scan_fails("ts_neg.pcap", "packet 1: timestamp -1.000001000 s is out "
	           "of range (1970 to 2262)");
}

/* A datagram is whole when its fragments cover every byte, not when their
 * bytes add up: id 1 has its second fragment twice and its third never,
 * so its bytes add up to the datagram's; it is lost (its four fragments
 * orphans), as the receiver could not reassemble it. Id 2 comes in any
 * order, whole: it counts in the flow. */
static void
test_frag_coverage(void **state)
{
	static const struct { uint16_t id; unsigned off8, bytes, mf; } fr[] = {
		{ 1, 0, 1480, 1 }, { 1, 185, 1480, 1 }, { 1, 185, 1480, 1 },
		{ 1, 555, 100, 0 },
		{ 2, 370, 1480, 1 }, { 2, 555, 100, 0 }, { 2, 0, 1480, 1 },
		{ 2, 185, 1480, 1 },
	};
	struct spec u = { .dlt = DLT_EN10MB, .proto = 17, .src = "10.0.0.1",
	                  .dst = "10.0.0.2", .sport = 40001, .dport = 5038,
	                  .frag = 1, .udp_len = 4540 };
	struct cap *c = cb_new();
	struct pscan s;
	size_t i;

	(void)state;
	cb_open(c, dir, "frag_cover.pcap", DLT_EN10MB, 65535);
	for (i = 0; i < sizeof(fr) / sizeof(fr[0]); i++) {
		u.id = fr[i].id, u.frag_off8 = fr[i].off8;
		u.frag_bytes = fr[i].bytes, u.mf = fr[i].mf;
		cb_put(c, &u, T0 + (int64_t)(i + 1) * MS);
	}
	cb_close(c);
	free(c);
	scan(&s, "frag_cover.pcap");
	assert_int_equal(s.nflows, 1);
	assert_int_equal(s.flows[0].data->packets, 4);
	assert_int_equal(s.flows[0].data->payload, 4532);
	assert_int_equal(s.orphans.packets, 4);
	assert_int_equal(s.orphans.fragments, 4);
	pscan_free(&s);
}

/* Five 1448-byte TCP segments 1 ms apart, 123 ns after the millisecond,
 * as pcap (ns), pcapng with ns and with us resolution: the ns files keep
 * the 123 ns, the us file loses them; payload, eta, goodput agree. */
static void
test_pcapng_resolution(void **state)
{
	static const struct { const char *name; int ng, tsresol; int64_t off; }
	files[] = {
		{ "res.pcap", 0, 9, 123 },
		{ "res_ns.pcapng", 1, 9, 123 },
		{ "res_us.pcapng", 1, 6, 0 },
	};
	struct spec d = cb_tcp4(DLT_EN10MB, 0, 1448, 12);
	struct pscan s;
	size_t i;
	int k;

	(void)state;
	for (i = 0; i < 3; i++) {
		struct cap *c = cb_new();

		if (files[i].ng)
			cb_open_ng(c, dir, files[i].name, DLT_EN10MB, 65535,
			           files[i].tsresol);
		else
			cb_open(c, dir, files[i].name, DLT_EN10MB, 65535);
		for (k = 0; k < 5; k++) {
			d.seq = 1000 + (uint32_t)k * 1448;
			cb_put(c, &d, T0 + k * MS + 123);
		}
		cb_close(c);
		free(c);
	}
	for (i = 0; i < 3; i++) {
		print_message("%s\n", files[i].name);
		scan(&s, files[i].name);
		assert_int_equal(s.nflows, 1);
		assert_int_equal(s.flows[0].data->payload, 5 * 1448);
		assert_int_equal(s.flows[0].data->first_ns, T0 + files[i].off);
		assert_int_equal(s.flows[0].data->last_ns,
		                 T0 + 4 * MS + files[i].off);
		assert_near(s.flows[0].eta, 1448.0 / 1538);
		assert_near(s.flows[0].duration_s, 0.004);
		assert_near(s.flows[0].goodput_bps, 4 * 1448 * 8 / 0.004);
		assert_int_equal(s.nwarnings, 0);
		pscan_free(&s);
	}
}

/* '-' reads standard input; an empty one is named as such. */
static void
test_stdin(void **state)
{
	struct spec u = { .dlt = DLT_EN10MB, .proto = 17, .src = "10.0.0.1",
	                  .dst = "10.0.0.2", .sport = 40001, .dport = 5038,
	                  .payload = 1472 };
	struct cap *c = cb_new();
	char path[512], err[256];
	struct pscan s;
	int saved, fd, i, rc;

	(void)state;
	cb_open(c, dir, "stdin.pcap", DLT_EN10MB, 65535);
	for (i = 0; i < 3; i++)
		cb_put(c, &u, T0 + i * FT_10M(1538));
	cb_close(c);
	free(c);
	snprintf(path, sizeof(path), "%s/stdin.pcap", dir);
	assert_true((saved = dup(0)) >= 0);
	assert_true((fd = open(path, O_RDONLY)) >= 0);
	assert_int_equal(dup2(fd, 0), 0);
	close(fd);
	clearerr(stdin);
	rc = pscan_file(&s, "-", NULL, 1500, err, sizeof(err));
	assert_true((fd = open("/dev/null", O_RDONLY)) >= 0);
	assert_int_equal(dup2(fd, 0), 0);
	close(fd);
	assert_int_equal(rc, 0);
	assert_int_equal(s.packets, 3);
	assert_int_equal(s.flows[0].data->payload, 3 * 1472);
	assert_near(s.flows[0].goodput_bps, 1472 * 8 / (1538 * 800e-9));
	pscan_free(&s);
	clearerr(stdin);
	assert_int_equal(pscan_file(&s, "-", NULL, 1500, err, sizeof(err)),
	                 PSCAN_EBAD);
	assert_string_equal(err, "-: standard input is empty, not a capture");
	pscan_free(&s);
	assert_int_equal(dup2(saved, 0), 0);
	close(saved);
	clearerr(stdin);
}

/* ---- TCP sequence space ---- */

/* The sequence numbers wrap from 2^32 - 1 to 0 inside segment 2, which is
 * sent twice; segment 4 never appears. No options: every data frame is
 * 14 + 20 + 20 + 1448 + 24 = 1526 bytes on the wire, the SYN 54 padded to
 * 60, 84. */
static void
test_seq_wrap(void **state)
{
	static const unsigned order[] = { 0, 1, 2, 2, 3, 5 };
	static const struct cb_dwant w = {
		7, 5, 1, 0, 5 * 1448, 1448, 7 * 20, 7 * 20, 7 * 18, 6, 7 * 20,
		84 + 6 * 1526, 5 * 1526 };
	struct spec d = cb_tcp4(DLT_EN10MB, 0xffffffffu - 3000, 0, 0);
	struct cap *c = cb_new();
	struct pscan s;
	size_t i;

	(void)state;
	cb_open(c, dir, "seq_wrap.pcap", DLT_EN10MB, 65535);
	d.flags = PDEC_TCP_SYN;
	cb_put(c, &d, T0);
	d.flags = 0, d.payload = 1448;
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		d.seq = 0xffffffffu - 3000 + 1 + order[i] * 1448;
		cb_put(c, &d, T0 + (int64_t)(i + 1) * MS);
	}
	cb_close(c);
	free(c);
	scan(&s, "seq_wrap.pcap");
	assert_int_equal(s.nflows, 1);
	cb_check_dir(s.flows[0].data, &w);
	assert_int_equal(s.flows[0].missing, 1448);
	assert_int_equal(s.nwarnings, 1);
	assert_string_equal(s.warnings[0], "flow 1 (TCP 10.0.0.1:40000 -> "
	                    "10.0.0.2:5038): 1448 bytes of the TCP sequence space "
	                    "never appear in the capture (dropped by the capture, "
	                    "or lost before the capture point): goodput is "
	                    "understated");
	pscan_free(&s);
}

/* A gput TCP data connection: the SYN, the 18-byte header (nonce, stream 1)
 * at connect, then 1448-byte data segments from 20 ms on. The header is
 * control, not payload, and the window opens at the first data segment;
 * an 18-byte segment anywhere else, or one that names no stream, is
 * data. */
static void
test_tcp_stream_header(void **state)
{
	static const struct { const char *name; uint8_t lo; uint32_t at; int hdr; } rows[] = {
		{ "hdr.pcap", 1, 0, 1 },         /* right after the SYN */
		{ "hdr0.pcap", 0, 0, 0 },        /* stream 0: not gput's */
		{ "hdrmid.pcap", 1, 1448, 0 },   /* not the first bytes */
	};
	uint8_t head[18];
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct spec d = cb_tcp4(DLT_EN10MB, 1000, 0, 0);
		struct cap *c = cb_new();
		struct pscan s;
		uint32_t seq = 1001;

		memset(head, 0x5a, sizeof head);
		head[16] = 0, head[17] = rows[i].lo;
		cb_open(c, dir, rows[i].name, DLT_EN10MB, 65535);
		d.flags = PDEC_TCP_SYN;
		cb_put(c, &d, T0);
		d.flags = 0;
		if (rows[i].at) {               /* a data segment first */
			d.seq = seq, d.payload = 1448;
			cb_put(c, &d, T0 + MS);
			seq += 1448;
		}
		d.seq = seq, d.payload = 18, d.head = head, d.head_len = 18;
		cb_put(c, &d, T0 + 2 * MS);
		seq += 18;
		d.head = NULL, d.head_len = 0, d.payload = 1448;
		for (k = 0; k < 3; k++, seq += 1448) {
			d.seq = seq;
			cb_put(c, &d, T0 + (int64_t)(20 + k) * MS);
		}
		cb_close(c);
		free(c);
		scan(&s, rows[i].name);
		assert_int_equal(s.nflows, 1);
		if (rows[i].hdr) {
			assert_int_equal(s.flows[0].data->payload, 3 * 1448);
			assert_int_equal(s.flows[0].data->markers, 1);
			assert_int_equal(s.flows[0].data->marker_bytes, 18);
			assert_int_equal(s.flows[0].data->data_packets, 3);
			/* the window: 20 ms to 22 ms, not from the header's 2 ms */
			assert_int_equal(s.flows[0].data->first_ns, T0 + 20 * MS);
		} else {
			assert_int_equal(s.flows[0].data->payload,
			    (rows[i].at ? 4 : 3) * 1448 + 18);
			assert_int_equal(s.flows[0].data->markers, 0);
		}
		pscan_free(&s);
	}
}

/* Three connections on the same ports, each a SYN and three 1000-byte
 * segments: the second's ISN is below the first's, the third's 2^31
 * above; the second's SYN is sent twice. Before, the second's data counted
 * as retransmitted and the third left 2^31 bytes "missing". */
static void
test_port_reuse(void **state)
{
	static const uint32_t isn[] = { 1000, 500, 0x80000000u + 5000 };
	static const struct cb_dwant w = {
		13, 9, 0, 0, 9000, 0, 13 * 20, 13 * 20, 13 * 18, 4 * 6, 13 * 20,
		9 * 1078 + 4 * 84, 9 * 1078 };
	struct spec d = cb_tcp4(DLT_EN10MB, 0, 0, 0);
	struct cap *c = cb_new();
	struct pscan s;
	int64_t t = T0;
	int i, k;

	(void)state;
	cb_open(c, dir, "reuse.pcap", DLT_EN10MB, 65535);
	for (i = 0; i < 3; i++) {
		d.flags = PDEC_TCP_SYN, d.payload = 0, d.seq = isn[i];
		cb_put(c, &d, t += MS);
		if (i == 1)
			cb_put(c, &d, t += MS);
		d.flags = 0, d.payload = 1000;
		for (k = 0; k < 3; k++) {
			d.seq = isn[i] + 1 + (uint32_t)k * 1000;
			cb_put(c, &d, t += MS);
		}
	}
	cb_close(c);
	free(c);
	scan(&s, "reuse.pcap");
	assert_int_equal(s.nflows, 1);
	cb_check_dir(s.flows[0].data, &w);
	assert_int_equal(s.flows[0].missing, 0);
	assert_int_equal(s.flows[0].data->connections, 3);
	assert_int_equal(s.nwarnings, 1);
	assert_string_equal(s.warnings[0], "flow 1 (TCP 10.0.0.1:40000 -> "
	                    "10.0.0.2:5038) holds 3 TCP connections that reused "
	                    "the same ports (a new SYN), counted as one flow: its "
	                    "goodput spans the time between them");
	pscan_free(&s);
}

/* ---- IPv6 extension headers and fragments ---- */

/* TCP over IPv6 behind Hop-by-Hop (8 bytes) and Destination Options (16):
 * L3 is 40 + 24 per frame, every frame 14 + 64 + 20 + 1000 + 24 = 1122. */
static void
test_ipv6_ext(void **state)
{
	static const struct cb_dwant w = {
		4, 4, 0, 0, 4000, 0, 4 * 20, 4 * 64, 4 * 18, 0, 4 * 20,
		4 * 1122, 4 * 1122 };
	struct spec d = cb_tcp4(DLT_EN10MB, 0, 1000, 0);
	struct cap *c = cb_new();
	struct pscan s;
	int k;

	(void)state;
	d.v6 = 1, d.src = "fd00::1", d.dst = "fd00::2", d.hbh = 8;
	d.dst_opts = 16;
	cb_open(c, dir, "ipv6_ext.pcap", DLT_EN10MB, 65535);
	for (k = 0; k < 4; k++) {
		d.seq = 1 + (uint32_t)k * 1000;
		cb_put(c, &d, T0 + k * MS);
	}
	cb_close(c);
	free(c);
	scan(&s, "ipv6_ext.pcap");
	assert_int_equal(s.nflows, 1);
	assert_int_equal(s.flows[0].f->ipv, 6);
	cb_check_dir(s.flows[0].data, &w);
	assert_near(s.flows[0].eta, 4000.0 / 4488);
	assert_near(s.flows[0].goodput_bps, 8e6);
	pscan_free(&s);
}

/* A fragment of the UDP datagram of 3000 bytes whose Destination Options
 * header (8 bytes) is in the fragmentable part, so that every Fragment
 * header names it, not UDP (RFC 8200 4.5): fragment data 1448 (options 8,
 * UDP header 8, payload 1432), 1448, 120 bytes. */
static void
put_frag6(struct cap *c, uint16_t id, int part, int64_t ts)
{
	struct spec u = { .dlt = DLT_EN10MB, .v6 = 1, .proto = 17,
	                  .src = "fd00::1", .dst = "fd00::2", .sport = 40001,
	                  .dport = 5038, .frag = 1, .udp_len = 3008, .id = id,
	                  .dst_opts = 8 };
	static const unsigned off8[] = { 0, 181, 362 }, bytes[] = { 1440, 1448,
	                                                             120 };

	u.frag_off8 = off8[part];
	u.frag_bytes = bytes[part];
	u.mf = part < 2;
	cb_put(c, &u, ts);
}

/* Datagram 7 with its last fragment first; datagram 8 without its first
 * fragment. Before, the later fragments' data was walked as extension
 * headers: the capture was refused ("IPv6 packet length 168 is shorter
 * than its 1016-byte header"). Frames: 14 + 40 + 8 + 8 + 8 + 1432 + 24 =
 * 1534, 14 + 48 + 1448 + 24 = 1534, 14 + 48 + 120 + 24 = 206. */
static void
test_ipv6_frag(void **state)
{
	static const struct cb_dwant w = {
		3, 3, 0, 3, 3000, 0, 8, 56 + 48 + 48, 3 * 18, 0, 3 * 20,
		1534 + 1534 + 206, 1534 + 1534 + 206 };
	struct cap *c = cb_new();
	struct pscan s;

	(void)state;
	cb_open(c, dir, "ipv6_frag.pcap", DLT_EN10MB, 65535);
	put_frag6(c, 7, 2, T0 + 1 * MS);
	put_frag6(c, 7, 0, T0 + 2 * MS);
	put_frag6(c, 7, 1, T0 + 3 * MS);
	put_frag6(c, 8, 1, T0 + 4 * MS);
	put_frag6(c, 8, 2, T0 + 5 * MS);
	cb_close(c);
	free(c);
	scan(&s, "ipv6_frag.pcap");
	assert_int_equal(s.packets, 5);
	assert_int_equal(s.other, 0);
	assert_int_equal(s.nflows, 1);
	assert_int_equal(s.flows[0].sport, 40001);
	cb_check_dir(s.flows[0].data, &w);
	assert_int_equal(s.flows[0].data->first_payload, 120);
	assert_near(s.flows[0].goodput_bps, (3000 - 120) * 8 / 0.002);
	assert_int_equal(s.orphans.packets, 2);
	assert_int_equal(s.orphans.payload, 1448 + 120);
	assert_int_equal(s.nwarnings, 1);
	assert_string_equal(s.warnings[0], "IP fragments of datagrams that are "
	                    "not complete in the capture (a fragment is missing: "
	                    "the receiver cannot reassemble them), not counted in "
	                    "any flow: 2 (1568 payload bytes)");
	pscan_free(&s);
}

/* IPv4, datagrams of 2952 bytes of payload in 2 fragments (1472 + 1480)
 * unless said: 1 with its first fragment last; 2, a train of 3 fragments
 * without its first; 3 in order; 4 of 3 fragments without its middle one
 * (1472 + 100 bytes seen); 5 whose identification comes again before it
 * is complete: a lone first fragment, then a whole datagram. Only 1, 3
 * and the second 5 reach the receiver, every fragment of them 1500 bytes
 * of IP, 1538 on the wire; 6 fragments (6104 payload bytes) are lost.
 * Before, every fragment after a first one counted, so 4 and the lone
 * first fragment of 5 were payload. */
static void
test_ipv4_frag_train(void **state)
{
	static const struct { uint16_t id; unsigned off8, bytes, mf; } fr[] = {
		{ 1, 185, 1480, 0 }, { 1, 0, 1480, 1 },
		{ 2, 185, 1480, 1 }, { 2, 370, 1480, 1 }, { 2, 555, 100, 0 },
		{ 3, 0, 1480, 1 }, { 3, 185, 1480, 0 },
		{ 4, 0, 1480, 1 }, { 4, 370, 100, 0 },
		{ 5, 0, 1480, 1 }, { 5, 0, 1480, 1 }, { 5, 185, 1480, 0 },
	};
	static const struct cb_dwant w = {
		6, 6, 0, 6, 3 * 2952, 0, 3 * 8, 6 * 20, 6 * 18, 0, 6 * 20,
		6 * 1538, 6 * 1538 };
	struct spec u = { .dlt = DLT_EN10MB, .proto = 17, .src = "10.0.0.1",
	                  .dst = "10.0.0.2", .sport = 40001, .dport = 5038,
	                  .frag = 1, .udp_len = 2960 };
	struct cap *c = cb_new();
	struct pscan s;
	size_t i;

	(void)state;
	cb_open(c, dir, "ipv4_frag.pcap", DLT_EN10MB, 65535);
	for (i = 0; i < sizeof(fr) / sizeof(fr[0]); i++) {
		u.id = fr[i].id, u.frag_off8 = fr[i].off8;
		u.frag_bytes = fr[i].bytes, u.mf = fr[i].mf;
		cb_put(c, &u, T0 + (int64_t)(i + 1) * MS);
	}
	cb_close(c);
	free(c);
	scan(&s, "ipv4_frag.pcap");
	assert_int_equal(s.nflows, 1);
	cb_check_dir(s.flows[0].data, &w);
	assert_int_equal(s.flows[0].data->first_ns, T0 + 1 * MS);
	assert_int_equal(s.flows[0].data->first_payload, 1480);
	assert_int_equal(s.flows[0].data->last_ns, T0 + 12 * MS);
	assert_near(s.flows[0].goodput_bps, (3 * 2952 - 1480) * 8 / 0.011);
	assert_int_equal(s.orphans.packets, 6);
	assert_int_equal(s.orphans.fragments, 6);
	assert_int_equal(s.orphans.payload, 3060 + 1572 + 1472);
	assert_int_equal(s.packets, 12);
	assert_int_equal(s.nwarnings, 1);
	assert_string_equal(s.warnings[0], "IP fragments of datagrams that are "
	                    "not complete in the capture (a fragment is missing: "
	                    "the receiver cannot reassemble them), not counted in "
	                    "any flow: 6 (6104 payload bytes)");
	pscan_free(&s);
}

/* A TCP segment in IPv4 fragments whose first carries only 8 bytes of the
 * TCP header, then the other 1012 bytes (header and 1000 of payload): it
 * was refused ("TCP header of 20 bytes in an IP payload of 8"); no ports,
 * no flow, so both fragments stay out of every flow. */
static void
test_tiny_fragment(void **state)
{
	struct spec d = cb_tcp4(DLT_EN10MB, 1, 0, 0);
	struct cap *c = cb_new();
	struct pscan s;

	(void)state;
	d.frag = 1, d.id = 9, d.mf = 1, d.frag_bytes = 8;
	cb_open(c, dir, "tiny_frag.pcap", DLT_EN10MB, 65535);
	cb_put(c, &d, T0);
	d.mf = 0, d.frag_off8 = 1, d.frag_bytes = 1012;
	cb_put(c, &d, T0 + MS);
	cb_close(c);
	free(c);
	scan(&s, "tiny_frag.pcap");
	assert_int_equal(s.packets, 2);
	assert_int_equal(s.nflows, 0);
	assert_int_equal(s.orphans.packets, 2);
	assert_int_equal(s.orphans.fragments, 2);
	assert_int_equal(s.orphans.payload, 8 + 1012);
	assert_int_equal(s.nwarnings, 2);
	pscan_free(&s);
}

/* ---- link types ---- */

/* Two 1000-byte TCP segments per capture on each link type, IPv4 frames
 * 1040 bytes of IP, IPv6 1060. Link types without an Ethernet header count
 * as untagged Ethernet (14 + FCS 4). */
static void
test_link_types(void **state)
{
	static const struct {
		const char *name, *linkname;
		int dlt, build_dlt, v6, proto;
		unsigned tags, pppoe, s_tag;  /* s_tag: the outer tag's TPID */
		uint64_t l2, wire;            /* per frame */
	} cases[] = {
		{ "ipv4.pcap", "IPV4", DLT_IPV4, DLT_RAW, 0, 6, 0, 0, 0, 18, 1078 },
		{ "ipv6.pcap", "IPV6", DLT_IPV6, DLT_RAW, 1, 6, 0, 0, 0, 18, 1098 },
		/* NULL written big-endian, as from a big-endian host */
		{ "null_be.pcap", "NULL", DLT_NULL, DLT_LOOP, 0, 6, 0, 0, 0, 18,
		  1078 },
		{ "null6.pcap", "NULL", DLT_NULL, DLT_NULL, 1, 6, 0, 0, 0, 18, 1098 },
		{ "loop4.pcap", "LOOP", DLT_LOOP, DLT_LOOP, 0, 6, 0, 0, 0, 18, 1078 },
		{ "sll6.pcap", "LINUX_SLL", DLT_LINUX_SLL, DLT_LINUX_SLL, 1, 6, 0,
		  0, 0, 18, 1098 },
		{ "sll2_4.pcap", "LINUX_SLL2", DLT_LINUX_SLL2, DLT_LINUX_SLL2, 0,
		  6, 0, 0, 0, 18, 1078 },
		/* pre-standard 0x9100 S-tag over an 802.1Q C-tag */
		{ "qinq9100.pcap", "EN10MB", DLT_EN10MB, DLT_EN10MB, 0, 6, 1, 0,
		  0x9100, 26, 1086 },
		{ "pppoe6.pcap", "EN10MB", DLT_EN10MB, DLT_EN10MB, 1, 6, 0, 1, 0,
		  26, 1106 },
	};
	uint8_t *buf = malloc(2048);
	struct pscan s;
	size_t i, n;
	int k;

	(void)state;
	assert_non_null(buf);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct spec d = cb_tcp4(cases[i].build_dlt, 0, 1000, 0);
		struct cap *c = cb_new();

		print_message("%s\n", cases[i].name);
		d.tags = (int)cases[i].tags, d.pppoe = (int)cases[i].pppoe;
		d.qinq = cases[i].s_tag != 0;
		if (cases[i].v6)
			d.v6 = 1, d.src = "fd00::1", d.dst = "fd00::2";
		cb_open(c, dir, cases[i].name, cases[i].dlt, 65535);
		for (k = 0; k < 2; k++) {
			d.seq = 1 + (uint32_t)k * 1000;
			n = cb_build(buf, &d);
			if (cases[i].s_tag != 0)
				cb_put16(buf + 12, (uint16_t)cases[i].s_tag);
			cb_put_raw(c, buf, (uint32_t)n, (uint32_t)n,
			           T0 + k * MS);
		}
		cb_close(c);
		free(c);
		scan(&s, cases[i].name);
		assert_string_equal(s.linkname, cases[i].linkname);
		assert_int_equal(s.other, 0);
		assert_int_equal(s.nflows, 1);
		assert_int_equal(s.flows[0].f->ipv, cases[i].v6 ? 6 : 4);
		assert_int_equal(s.flows[0].data->payload, 2000);
		assert_int_equal(s.flows[0].data->l2, 2 * cases[i].l2);
		assert_int_equal(s.flows[0].data->wire, 2 * cases[i].wire);
		assert_near(s.flows[0].eta, 1000.0 / (double)cases[i].wire);
		pscan_free(&s);
	}
	free(buf);
}

/* An ARP frame (IEEE 802.3 type 0x0806) of 60 bytes cut to a snaplen of
 * 54, and a bare TCP ACK of 54 bytes, uncut: the warning about frames cut
 * short counted the ARP frame, whose size nothing is taken from. */
static void
test_cut_other(void **state)
{
	struct spec a = cb_tcp4(DLT_EN10MB, 1, 0, 0);
	uint8_t arp[60] = { 0 };
	struct cap *c = cb_new();
	struct pscan s;

	(void)state;
	cb_put16(arp + 12, 0x0806);
	cb_open(c, dir, "cut_other.pcap", DLT_EN10MB, 54);
	cb_put_raw(c, arp, sizeof(arp), sizeof(arp), T0);
	cb_put(c, &a, T0 + MS);
	cb_close(c);
	free(c);
	scan(&s, "cut_other.pcap");
	assert_int_equal(s.packets, 2);
	assert_int_equal(s.other, 1);
	assert_int_equal(s.cut, 0);
	assert_int_equal(s.nflows, 1);
	assert_int_equal(s.nwarnings, 0);
	pscan_free(&s);
}

/* ---- output ---- */

/* The whole of what fn writes for s. */
static char *
render(void (*fn)(FILE *, const struct pscan *, const char *, double),
       const struct pscan *s, const char *file)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, s, file, 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* No flow, a file name with a quote, a backslash, control characters,
 * UTF-8 and a byte that is not UTF-8, a warning with quotes: valid JSON
 * (RFC 8259), the invalid byte as U+FFFD. */
static void
test_json_strings(void **state)
{
	uint8_t arp[60] = { 0 };
	struct cap *c = cb_new();
	struct pscan s;
	char *out, **w;

	(void)state;
	cb_put16(arp + 12, 0x0806);
	cb_open(c, dir, "arp.pcap", DLT_EN10MB, 65535);
	cb_put_raw(c, arp, sizeof(arp), sizeof(arp), T0);
	cb_put_raw(c, arp, sizeof(arp), sizeof(arp), T0 + MS);
	cb_close(c);
	free(c);
	scan(&s, "arp.pcap");
	assert_int_equal(s.nflows, 0);
	assert_non_null(w = realloc(s.warnings, 2 * sizeof(*w)));
	s.warnings = w;
	assert_non_null(w[s.nwarnings++] = strdup("say \"hi\" \\ there"));
	out = render(preport_json, &s, "a\"b\\c\n\x01\xc3\xa9\xff\xe2\x82.pcap");
	assert_string_equal(out,
	    "{\n"
	    "  \"file\": \"a\\\"b\\\\c\\u000a\\u0001\xc3\xa9\\ufffd\\ufffd\\ufffd"
	    ".pcap\",\n"
	    "  \"link_type\": \"EN10MB\", \"mtu\": 1500, \"packets\": 2, "
	    "\"other_packets\": 2,\n"
	    "  \"link_mbit\": null,\n"
	    "  \"flows\": [],\n"
	    "  \"warnings\": [\n"
	    "    \"no TCP or UDP flow in the capture (other packets: 2, cut "
	    "before their headers: 0)\",\n"
	    "    \"say \\\"hi\\\" \\\\ there\"\n"
	    "  ]\n"
	    "}\n");
	free(out);
	out = render(preport_table, &s, "arp.pcap");
	assert_string_equal(out, "capture arp.pcap: 2 packets (2 not TCP/UDP), "
	                    "link type EN10MB, MTU 1500\n");
	free(out);
	pscan_free(&s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ts_range),
		cmocka_unit_test(test_ts_negative),
		cmocka_unit_test(test_frag_coverage),
		cmocka_unit_test(test_pcapng_resolution),
		cmocka_unit_test(test_stdin),
		cmocka_unit_test(test_seq_wrap),
		cmocka_unit_test(test_tcp_stream_header),
		cmocka_unit_test(test_port_reuse),
		cmocka_unit_test(test_ipv6_ext),
		cmocka_unit_test(test_ipv6_frag),
		cmocka_unit_test(test_ipv4_frag_train),
		cmocka_unit_test(test_tiny_fragment),
		cmocka_unit_test(test_link_types),
		cmocka_unit_test(test_cut_other),
		cmocka_unit_test(test_json_strings),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}

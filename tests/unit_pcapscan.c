/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_pcapscan.c: captures built frame by frame and written with
 * pcap_dump, read back through pscan_file(), every number checked.
 * `unit_pcapscan --captures DIR` only writes the captures (for the golden
 * test and tests/golden/regen.sh). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <math.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capbuild.h"
#include "pcap_scan.h"


/* ---- captures ---- */

/* A TCP transfer: handshake, n full segments of mss bytes back to back at
 * 10 Mb/s (one frame time apart), an ACK every second segment, FIN. */
static void
write_tcp(const char *dir, const char *name, struct spec d, unsigned n,
          int snaplen)
{
	struct cap *c = cb_new();
	struct spec syn = d, a = cb_ack_of(&d);
	uint64_t wire = d.payload + 20 + d.tcp_opts + (d.v6 ? 40 : 20) + 38 +
	                4u * (unsigned)d.tags + (d.pppoe ? 8 : 0);
	int64_t t = T0;
	unsigned i;

	cb_open(c, dir, name, d.dlt, snaplen);
	syn.seq = 999, syn.payload = 0, syn.flags = PDEC_TCP_SYN;
	cb_put(c, &syn, t);
	a.flags = PDEC_TCP_SYN;
	cb_put(c, &a, t += 100000);
	syn.flags = 0, syn.seq = 1000;
	cb_put(c, &syn, t += 100000);
	a.flags = 0;
	for (i = 0; i < n; i++) {
		d.seq = 1000 + i * d.payload;
		cb_put(c, &d, t += FT_10M(wire));
		if (i % 2 == 1)
			cb_put(c, &a, t + 1000);
	}
	syn.seq = 1000 + n * d.payload, syn.flags = PDEC_TCP_FIN;
	cb_put(c, &syn, t += 100000);
	cb_close(c);
	free(c);
}

/* n UDP datagrams of the given size back to back at 10 Mb/s. */
static void
write_udp(const char *dir, const char *name, struct spec d, unsigned n,
          uint64_t wire)
{
	struct cap *c = cb_new();
	unsigned i;

	cb_open(c, dir, name, d.dlt, 65535);
	for (i = 0; i < n; i++)
		cb_put(c, &d, T0 + (int64_t)i * FT_10M(wire));
	cb_close(c);
	free(c);
}

/* UDP datagrams of 8192 bytes in 6 IPv4 fragments each (1480 * 5 + 800
 * bytes of UDP data); datagram 3 arrives with its last fragment first,
 * and one fragment of a datagram whose first fragment is missing. */
static void
write_frag(const char *dir)
{
	struct cap *c = cb_new();
	struct spec f = { .dlt = DLT_EN10MB, .proto = 17, .src = "10.0.0.1",
	                  .dst = "10.0.0.2", .sport = 40001, .dport = 5038,
	                  .frag = 1, .udp_len = 8200 };
	int64_t t = T0;
	unsigned dg, k;

	cb_open(c, dir, "udp_frag.pcap", DLT_EN10MB, 65535);
	for (dg = 0; dg < 10; dg++) {
		f.id = (uint16_t)(100 + dg);
		for (k = 0; k < 6; k++) {
			unsigned j = dg == 3 ? (k + 5) % 6 : k;

			f.frag_off8 = j * 185;
			f.frag_bytes = j < 5 ? 1480 : 800;
			f.mf = j < 5;
			t += FT_10M(j < 5 ? 1538 : 858);  /* stamped at the end */
			cb_put(c, &f, t);
		}
	}
	f.id = 999, f.frag_off8 = 185, f.frag_bytes = 1480, f.mf = 1;
	cb_put(c, &f, t);
	cb_close(c);
	free(c);
}

/* Frames that are not what crossed the wire: a 65483-byte TSO "segment"
 * and snaplen-cut frames (96 bytes), one cut before its TCP header. */
static void
write_untrusted(const char *dir)
{
	struct cap *c = cb_new();
	struct spec d = cb_tcp4(DLT_EN10MB, 1000, 65483, 12);

	cb_open(c, dir, "tso.pcap", DLT_EN10MB, 262144);
	cb_put(c, &d, T0);
	d.seq += 65483;
	cb_put(c, &d, T0 + 1000000);
	cb_close(c);
	cb_open(c, dir, "snaplen.pcap", DLT_EN10MB, 96);
	d.payload = 1448;
	for (d.seq = 1000; d.seq < 1000 + 4 * 1448; d.seq += 1448)
		cb_put(c, &d, T0 + d.seq * 1000LL);
	cb_close(c);
	cb_open(c, dir, "snaplen40.pcap", DLT_EN10MB, 40);
	cb_put(c, &d, T0);
	cb_close(c);
	free(c);
}

/* A retransmitted segment, a segment missing from the capture, and data
 * both ways on a second flow. */
static void
write_tcp_odd(const char *dir)
{
	struct cap *c = cb_new();
	struct spec d = cb_tcp4(DLT_EN10MB, 0, 1448, 12), r;
	static const unsigned order[] = { 0, 1, 2, 1, 3, 5, 6 };  /* 4 lost */
	int64_t t = T0;
	unsigned i;

	cb_open(c, dir, "tcp_odd.pcap", DLT_EN10MB, 65535);
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		d.seq = 5000 + order[i] * 1448;
		cb_put(c, &d, t += 1000000);
	}
	d.sport = 40002, d.dport = 80;
	r = cb_ack_of(&d);
	r.payload = 1000;
	for (i = 0; i < 12; i++) {
		d.seq = 1 + i * 1448, r.seq = 1 + i * 1000;
		cb_put(c, &d, t += 1000000);
		cb_put(c, &r, t += 1000000);
	}
	cb_close(c);
	free(c);
}

/* Small datagrams: 4 bytes over Ethernet with the receiver's padding
 * trailer, 10 bytes over SLL without; IPv4 options; RAW, NULL, LOOP. */
static void
write_small(const char *dir)
{
	struct cap *c = cb_new();
	struct spec u = { .dlt = DLT_EN10MB, .proto = 17, .src = "192.168.1.1",
	                  .dst = "192.168.1.2", .sport = 9, .dport = 9,
	                  .payload = 4, .pad_to = 60 };
	struct spec t = cb_tcp4(DLT_RAW, 1, 1000, 0);
	int i;

	cb_open(c, dir, "udp_small.pcap", DLT_EN10MB, 65535);
	for (i = 0; i < 10; i++)
		cb_put(c, &u, T0 + i * FT_10M(84));
	cb_close(c);
	cb_open(c, dir, "sll_small.pcap", DLT_LINUX_SLL, 65535);
	u.dlt = DLT_LINUX_SLL, u.payload = 10, u.pad_to = 0;
	for (i = 0; i < 10; i++)
		cb_put(c, &u, T0 + i * FT_10M(84));
	cb_close(c);
	cb_open(c, dir, "raw_ipopts.pcap", DLT_RAW, 65535);
	t.ip_opts = 8;
	for (i = 0; i < 4; i++, t.seq += 1000)
		cb_put(c, &t, T0 + i * 1000000LL);
	cb_close(c);
	cb_open(c, dir, "null.pcap", DLT_NULL, 65535);
	t.dlt = DLT_NULL, t.ip_opts = 0;
	cb_put(c, &t, T0);
	cb_close(c);
	cb_open(c, dir, "loop6.pcap", DLT_LOOP, 65535);
	u.dlt = DLT_LOOP, u.v6 = 1, u.src = "2001:db8::1", u.dst = "2001:db8::2";
	cb_put(c, &u, T0);
	cb_close(c);
	free(c);
}

/* A gput UDP run of 10 datagrams of 1000 bytes, back to back at 10 Mb/s,
 * then its 3 end markers 2 ms apart. After datagram 4 come a 32-byte
 * datagram that is not a marker ("GPUX") and a marker with 4 bytes of IPv4
 * options. Written twice: udp_markers.pcap with a snaplen of 48, which keeps
 * exactly the 6 bytes of a marker that identify it (14 + 20 + 8 + 6) but
 * cuts the one with IP options before its magic, so that one counts as
 * data; and udp_markers_full.pcap, uncut, where it is a marker. */
static void
write_markers(const char *dir)
{
	struct cap *c = cb_new();
	struct spec d = { .dlt = DLT_EN10MB, .proto = 17, .src = "10.0.0.1",
	                  .dst = "10.0.0.2", .sport = 40003, .dport = 5038,
	                  .payload = 1000 };
	struct spec m = d, x = d, o = d;
	uint8_t mk[32], bad[32], cut[32];
	static const char *const names[] = { "udp_markers.pcap",
	                                     "udp_markers_full.pcap" };
	static const int snaplens[] = { 48, 65535 };
	int64_t t;
	unsigned i, k;

	m.payload = x.payload = o.payload = 32;
	m.head = mk, m.head_len = sizeof(mk);
	cb_marker(bad, "GPUX", 1, 1, 10, 10000);
	x.head = bad, x.head_len = sizeof(bad);
	cb_marker(cut, "GPUE", 1, 1, 10, 10000);
	o.head = cut, o.head_len = sizeof(cut), o.ip_opts = 4;
	for (k = 0; k < 2; k++) {
		cb_open(c, dir, names[k], DLT_EN10MB, snaplens[k]);
		t = T0;
		for (i = 0; i < 10; i++) {
			cb_put(c, &d, t += FT_10M(1066));
			if (i == 4) {
				cb_put(c, &x, t += FT_10M(98));
				cb_put(c, &o, t += FT_10M(102));
			}
		}
		for (i = 1; i <= 3; i++) {
			cb_marker(mk, "GPUE", 1, (uint8_t)i, 10, 10000);
			cb_put(c, &m, t += 2000000);
		}
		cb_close(c);
	}
	free(c);
}

/* Captures that must be refused, each with its own error. */
static void
write_bad(const char *dir)
{
	struct cap *c = cb_new();
	struct spec d = cb_tcp4(DLT_EN10MB, 1, 100, 0);
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/bad_text.pcap", dir);
	assert_non_null(f = fopen(path, "w"));
	fputs("this is not a capture\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/bad_empty.pcap", dir);
	assert_non_null(f = fopen(path, "w"));
	fclose(f);
	/* the first bytes of a capture and no more: the file header cut */
	snprintf(path, sizeof(path), "%s/bad_head.pcap", dir);
	assert_non_null(f = fopen(path, "w"));
	fwrite("\xd4\xc3\xb2\xa1\x02\x00\x04\x00\0\0", 1, 10, f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/bad_head.pcapng", dir);
	assert_non_null(f = fopen(path, "w"));
	fwrite("\x0a\x0d\x0d\x0a\x1c\0\0\0\x4d\x3c\x2b\x1a", 1, 12, f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/bad_two.pcap", dir);
	assert_non_null(f = fopen(path, "w"));
	fputs("a\n", f);
	fclose(f);
	/* a whole pcap file header of a version libpcap does not read: its
	 * own words follow the path */
	snprintf(path, sizeof(path), "%s/bad_version.pcap", dir);
	assert_non_null(f = fopen(path, "w"));
	fwrite("\xd4\xc3\xb2\xa1\x09\x00\x04\x00\0\0\0\0\0\0\0\0"
	       "\xff\xff\0\0\x01\0\0\0", 1, 24, f);
	fclose(f);
	cb_open(c, dir, "bad_nopackets.pcap", DLT_EN10MB, 65535);
	cb_close(c);
	cb_open(c, dir, "bad_linktype.pcap", DLT_IEEE802_11, 65535);
	cb_close(c);
	cb_open(c, dir, "bad_truncated.pcap", DLT_EN10MB, 65535);
	cb_put(c, &d, T0);
	cb_put(c, &d, T0 + 1000);
	cb_close(c);
	snprintf(path, sizeof(path), "%s/bad_truncated.pcap", dir);
	assert_int_equal(truncate(path, 24 + 2 * 16 + 154 + 50), 0);
	d.bad_ihl = 1, d.payload = 0, d.bad_total = 40;
	cb_open(c, dir, "bad_ihl.pcap", DLT_EN10MB, 65535);
	cb_put(c, &d, T0);
	cb_close(c);
	d.bad_ihl = 0, d.bad_total = 0, d.bad_doff = 1;
	cb_open(c, dir, "bad_doff.pcap", DLT_EN10MB, 65535);
	cb_put(c, &d, T0);
	cb_close(c);
	d.bad_doff = 0, d.bad_total = 1500;
	cb_open(c, dir, "bad_iplen.pcap", DLT_EN10MB, 65535);
	cb_put(c, &d, T0);
	cb_close(c);
	d.cut_to = 10;
	cb_open(c, dir, "bad_short.pcap", DLT_EN10MB, 65535);
	cb_put(c, &d, T0);
	cb_close(c);
	/* a malformed frame between two good ones: they still count */
	d = cb_tcp4(DLT_EN10MB, 1, 100, 0);
	cb_open(c, dir, "bad_middle.pcap", DLT_EN10MB, 65535);
	cb_put(c, &d, T0);
	d.bad_doff = 1, d.payload = 0, d.seq = 101;
	cb_put(c, &d, T0 + 1000);
	d.bad_doff = 0, d.payload = 100;
	cb_put(c, &d, T0 + 2000);
	cb_close(c);
	free(c);
}

/* Holes in the TCP sequence space (pcap_flow.c keeps them in an array that
 * grows 8, 16, ... up to 1024). holes_split.pcap: 9 segments of 100 bytes
 * 200 apart leave 8 holes of 100, an array exactly full at its allocated
 * size; a 20-byte segment inside the first hole splits it in two (the
 * split once wrote past the array), a 40-byte one then fills the upper
 * part. holes_max.pcap: 1026 segments of 10 bytes 20 apart leave 1025
 * holes (once more than the 1024 kept, the first forgotten); a 2-byte
 * segment inside the second hole splits it. holes_many.pcap: 3000 segments
 * of 10 bytes 20 apart leave 2999 holes, which segments then fill, the
 * last first, and one of them comes a second time (a true retransmission):
 * with 1024 holes kept, the fills of the 1975 forgotten holes counted as
 * retransmitted bytes. */
static void
write_holes(const char *dir)
{
	struct cap *c = cb_new();
	struct spec d = cb_tcp4(DLT_EN10MB, 0, 100, 0);
	int64_t t = T0;
	unsigned i;

	cb_open(c, dir, "holes_split.pcap", DLT_EN10MB, 65535);
	for (i = 0; i < 9; i++) {
		d.seq = 1000 + i * 200;
		cb_put(c, &d, t += 1000000);
	}
	d.seq = 1140, d.payload = 20;
	cb_put(c, &d, t += 1000000);
	d.seq = 1160, d.payload = 40;
	cb_put(c, &d, t += 1000000);
	cb_close(c);
	cb_open(c, dir, "holes_max.pcap", DLT_EN10MB, 65535);
	d.payload = 10;
	for (i = 0; i < 1026; i++) {
		d.seq = 1000 + i * 20;
		cb_put(c, &d, t += 1000000);
	}
	d.seq = 1032, d.payload = 2;
	cb_put(c, &d, t += 1000000);
	cb_close(c);
	cb_open(c, dir, "holes_many.pcap", DLT_EN10MB, 65535);
	d.payload = 10;
	for (i = 0; i < 3000; i++) {
		d.seq = 1000 + i * 20;
		cb_put(c, &d, t += 1000);
	}
	for (i = 2999; i-- > 0;) {
		d.seq = 1010 + i * 20;
		cb_put(c, &d, t += 1000);
	}
	d.seq = 1010 + 1500 * 20;
	cb_put(c, &d, t += 1000);
	cb_close(c);
	free(c);
}

/* Every capture the tests and tests/golden/cases use. */
static void
write_captures(const char *dir)
{
	struct spec d = cb_tcp4(DLT_EN10MB, 0, 1448, 12);
	struct spec u = { .dlt = DLT_EN10MB, .proto = 17, .src = "10.0.0.1",
	                  .dst = "10.0.0.2", .sport = 40001, .dport = 5038,
	                  .payload = 1472 };

	write_tcp(dir, "tcp_ts.pcap", d, 100, 65535);
	d.tcp_opts = 0, d.payload = 1460;
	write_tcp(dir, "tcp_nots.pcap", d, 100, 65535);
	d.tcp_opts = 12, d.payload = 1448, d.tags = 1;
	write_tcp(dir, "tcp_vlan.pcap", d, 100, 65535);
	d.tags = 0, d.pppoe = 1, d.payload = 1440;
	write_tcp(dir, "tcp_pppoe.pcap", d, 100, 65535);
	d.pppoe = 0, d.dlt = DLT_LINUX_SLL2, d.v6 = 1, d.payload = 1428;
	d.src = "fd00::1", d.dst = "fd00::2";
	write_tcp(dir, "tcp6_sll2.pcap", d, 100, 65535);
	write_udp(dir, "udp1472.pcap", u, 100, 1538);
	u.qinq = 1, u.tags = 1;
	write_udp(dir, "udp_qinq.pcap", u, 100, 1546);
	write_frag(dir);
	write_untrusted(dir);
	write_tcp_odd(dir);
	write_small(dir);
	write_markers(dir);
	write_holes(dir);
	write_bad(dir);
}

/* ---- tests ---- */

static char dir[256];

static int
setup(void **state)
{
	(void)state;
	if (cb_tmpdir(dir, sizeof(dir), "unit_pcapscan") == -1)
		return -1;
	write_captures(dir);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	return cb_rmdir(dir);
}

static void
scan(struct pscan *s, const char *name, const char *filter)
{
	cb_scan(s, dir, name, filter);
}

/* Expected figures of a flow's data direction. */
struct want {
	const char *name;
	size_t   flow;
	uint64_t packets, data_packets, retrans_packets, fragments;
	uint64_t payload, retrans, l4, l3, l2, pad, l1, wire, data_wire;
	double   eta, goodput_mbit;   /* 4 decimals; goodput < 0: none */
	uint64_t rev_packets, rev_payload, rev_wire;
	size_t   nwarnings;
	uint64_t markers, marker_bytes;
};

static void
check_flow(const struct want *w)
{
	struct pscan s;
	const struct pscan_flow *r;
	const struct pflow_dir *d;

	print_message("%s\n", w->name);
	scan(&s, w->name, NULL);
	assert_true(s.nflows > w->flow);
	r = &s.flows[w->flow];
	d = r->data;
	cb_check_dir(d, &(struct cb_dwant){ w->packets, w->data_packets,
	    w->retrans_packets, w->fragments, w->payload, w->retrans, w->l4,
	    w->l3, w->l2, w->pad, w->l1, w->wire, w->data_wire });
	assert_int_equal(d->markers, w->markers);
	assert_int_equal(d->marker_bytes, w->marker_bytes);
	assert_true(r->has_eta);
	assert_true(fabs(r->eta - w->eta) < 0.00005);
	if (w->goodput_mbit < 0)
		assert_false(r->has_goodput);
	else
		assert_true(fabs(r->goodput_bps / 1e6 - w->goodput_mbit) < 0.00005);
	assert_int_equal(r->rev->packets, w->rev_packets);
	assert_int_equal(r->rev->payload, w->rev_payload);
	assert_int_equal(r->rev->wire, w->rev_wire);
	assert_int_equal(s.nwarnings, w->nwarnings);
	pscan_free(&s);
}

static const struct want wants[] = {
	/* 100 x 1448 + SYN (74 -> 98 wire) + ACK + FIN (66 -> 90);
	 * L4 32 per segment, 40 on the SYN (options as built: none) */
	{ "tcp_ts.pcap", 0, 103, 100, 0, 0, 144800, 0,
	  3200 + 3 * 32, 103 * 20, 103 * 18, 0, 103 * 20, 153800 + 3 * 90,
	  153800, 0.9415, 9.4148, 51, 0, 51 * 90, 0, 0, 0 },
	{ "tcp_nots.pcap", 0, 103, 100, 0, 0, 146000, 0,
	  2000 + 60, 103 * 20, 103 * 18, 3 * 6, 103 * 20,
	  153800 + 3 * 84, 153800, 0.9493, 9.4928, 51, 0, 51 * 84, 0, 0, 0 },
	{ "tcp_vlan.pcap", 0, 103, 100, 0, 0, 144800, 0,
	  3296, 2060, 103 * 22, 0, 2060, 154200 + 3 * 94, 154200,
	  0.9390, 9.3904, 51, 0, 51 * 94, 0, 0, 0 },
	{ "tcp_pppoe.pcap", 0, 103, 100, 0, 0, 144000, 0,
	  3296, 2060, 103 * 26, 0, 2060, 153800 + 3 * 98, 153800,
	  0.9363, 9.3628, 51, 0, 51 * 98, 0, 0, 0 },
	{ "tcp6_sll2.pcap", 0, 103, 100, 0, 0, 142800, 0,
	  3296, 103 * 40, 103 * 18, 0, 2060, 153800 + 3 * 110, 153800,
	  0.9285, 9.2848, 51, 0, 51 * 110, 0, 0, 0 },
	{ "udp1472.pcap", 0, 100, 100, 0, 0, 147200, 0, 800, 2000, 1800, 0,
	  2000, 153800, 153800, 0.9571, 9.5709, 0, 0, 0, 0, 0, 0 },
	{ "udp_qinq.pcap", 0, 100, 100, 0, 0, 147200, 0, 800, 2000, 2600, 0,
	  2000, 154600, 154600, 0.9521, 9.5213, 0, 0, 0, 0, 0, 0 },
	/* 10 datagrams of 6 fragments; 1 orphan fragment warned about.
	 * Datagram 3's last fragment came first, so the first data frame is
	 * still datagram 0's first fragment (1472 bytes) */
	{ "udp_frag.pcap", 0, 60, 60, 0, 60, 81920, 0, 80, 1200, 1080, 0,
	  1200, 85480, 85480, 0.9584, 9.5838, 0, 0, 0, 1, 0, 0 },
	{ "udp_small.pcap", 0, 10, 10, 0, 0, 40, 0, 80, 200, 180, 140, 200,
	  840, 840, 0.0476, 0.4762, 0, 0, 0, 0, 0, 0 },
	{ "sll_small.pcap", 0, 10, 10, 0, 0, 100, 0, 80, 200, 180, 80, 200,
	  840, 840, 0.1190, 1.1905, 0, 0, 0, 0, 0, 0 },
	/* IPv4 options 8 bytes, no TCP options, 1000-byte segments */
	{ "raw_ipopts.pcap", 0, 4, 4, 0, 0, 4000, 0, 80, 112, 72, 0, 80,
	  4344, 4344, 0.9208, 8.0000, 0, 0, 0, 0, 0, 0 },
	/* 4 segments: 0 1 2 1(again) 3 5 6: 1 retransmitted, 4 never seen */
	{ "tcp_odd.pcap", 1, 7, 6, 1, 0, 6 * 1448, 1448, 224, 140, 126, 0,
	  140, 7 * 1538, 6 * 1538, 0.9415, 9.6533, 0, 0, 0, 2, 0, 0 },
	/* 10 x 1000 (1066 wire) + "GPUX" 32 (98) + the marker with IP options
	 * (102, cut before its magic: data) + 3 markers (98 each). Payload
	 * 10000 + 32 + 32; the data frames span 9 x 1066 + 98 + 102 = 9794
	 * byte times after the first, whose 1000 bytes are left out: goodput
	 * 9064 / 9794 x 10 Mb/s; the markers (2 ms later) are not in it.
	 * Warning: 15 frames cut by the snaplen */
	{ "udp_markers.pcap", 0, 15, 12, 0, 0, 10064, 0, 15 * 8,
	  14 * 20 + 24, 15 * 18, 0, 15 * 20, 10660 + 98 + 102 + 3 * 98,
	  10660 + 98 + 102, 0.9267, 9.2546, 0, 0, 0, 1, 3, 96 },
	/* the same uncut: the marker with IP options is a marker, 4 in all */
	{ "udp_markers_full.pcap", 0, 15, 11, 0, 0, 10032, 0, 15 * 8,
	  14 * 20 + 24, 15 * 18, 0, 15 * 20, 10660 + 98 + 102 + 3 * 98,
	  10660 + 98, 0.9325, 9.2220, 0, 0, 0, 0, 4, 128 },
};

static void
test_flows(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(wants) / sizeof(wants[0]); i++)
		check_flow(&wants[i]);
}

/* Captures that cannot be trusted: still read, with warnings. */
static void
test_untrusted(void **state)
{
	struct pscan s;

	(void)state;
	scan(&s, "tso.pcap", NULL);
	assert_int_equal(s.oversized, 2);
	assert_int_equal(s.max_ip, 65535);
	assert_int_equal(s.nflows, 1);
	assert_int_equal(s.flows[0].data->payload, 2 * 65483);
	assert_int_equal(s.nwarnings, 1);
	assert_true(strncmp(s.warnings[0], "frames longer than the 1500-byte "
	                    "MTU: 2 of 2 (largest IP packet: 65535 bytes); "
	                    "TSO/GSO/GRO was on", 85) == 0);
	assert_non_null(strstr(s.warnings[0],
	                       "ethtool -K IF tso off gso off gro off"));
	pscan_free(&s);

	scan(&s, "snaplen.pcap", NULL);
	assert_int_equal(s.cut, 4);
	assert_int_equal(s.cut_skipped, 0);
	assert_int_equal(s.flows[0].data->payload, 4 * 1448);
	assert_int_equal(s.flows[0].data->wire, 4 * 1538);
	assert_int_equal(s.nwarnings, 1);
	assert_string_equal(s.warnings[0], "packets cut short by the capture's "
	                    "snaplen (96 bytes): 4; their sizes are taken from "
	                    "the IP headers");
	pscan_free(&s);

	scan(&s, "snaplen40.pcap", NULL);
	assert_int_equal(s.cut_skipped, 1);
	assert_int_equal(s.nflows, 0);
	assert_int_equal(s.nwarnings, 2);
	assert_string_equal(s.warnings[0], "packets cut by the snaplen (40 "
	                    "bytes) before their TCP/UDP header, not counted: 1; "
	                    "capture with tcpdump -s 0");
	pscan_free(&s);

	scan(&s, "tcp_odd.pcap", NULL);
	assert_int_equal(s.nflows, 2);
	assert_int_equal(s.flows[0].sport, 40002);
	assert_int_equal(s.flows[0].rev->payload, 12000);
	assert_int_equal(s.flows[1].missing, 1448);
	assert_string_equal(s.warnings[0], "flow 1 (TCP 10.0.0.1:40002 -> "
	                    "10.0.0.2:80) carries data in both directions (17376 "
	                    "and 12000 payload bytes): the larger is reported as "
	                    "data, the other as reverse traffic; for the other "
	                    "direction's figures, add the filter 'src host "
	                    "10.0.0.2 and src port 80'");
	pscan_free(&s);
}

/* The holes of d that are not filled (filled ones may wait in place). */
static size_t
live_holes(const struct pflow_dir *d)
{
	size_t i, n = 0;

	for (i = 0; i < d->nholes; i++)
		n += d->holes[i].from != d->holes[i].to;
	return n;
}

/* The sequence holes of write_holes(): every byte is new, retransmitted or
 * missing exactly once, however many holes there are, and the hole array
 * never holds more than its allocated size. */
static void
test_holes(void **state)
{
	const uint64_t base = (uint64_t)1 << 32;  /* the first 32-bit seq's */
	struct pscan s;
	const struct pflow_dir *d;
	size_t i;

	(void)state;
	scan(&s, "holes_split.pcap", NULL);
	assert_int_equal(s.nflows, 1);
	d = s.flows[0].data;
	assert_int_equal(d->packets, 11);
	assert_int_equal(d->payload, 900 + 20 + 40);
	assert_int_equal(d->retrans, 0);
	assert_int_equal(live_holes(d), 8);
	assert_true(d->nholes <= d->capholes);
	assert_int_equal(d->holes_dropped, 0);
	assert_int_equal(s.flows[0].missing, 800 - 20 - 40);
	pscan_free(&s);

	scan(&s, "holes_max.pcap", NULL);
	d = s.flows[0].data;
	assert_int_equal(d->packets, 1027);
	assert_int_equal(d->payload, 1026 * 10 + 2);
	assert_int_equal(d->retrans, 0);
	assert_int_equal(live_holes(d), 1026);
	assert_true(d->nholes <= d->capholes);
	assert_int_equal(d->holes_dropped, 0);
	assert_int_equal(d->holes[0].from, base + 1010);
	assert_int_equal(d->holes[0].to, base + 1020);
	assert_int_equal(d->holes[1].from, base + 1030);
	assert_int_equal(d->holes[1].to, base + 1032);
	assert_int_equal(d->holes[2].from, base + 1034);
	assert_int_equal(d->holes[2].to, base + 1040);
	for (i = 1; i < d->nholes; i++)
		assert_true(d->holes[i - 1].to <= d->holes[i].from);
	assert_int_equal(s.flows[0].missing, 1025 * 10 - 2);
	pscan_free(&s);

	scan(&s, "holes_many.pcap", NULL);
	d = s.flows[0].data;
	assert_int_equal(d->packets, 3000 + 2999 + 1);
	assert_int_equal(d->payload, 5999 * 10);
	assert_int_equal(d->retrans, 10);
	assert_int_equal(d->retrans_packets, 1);
	assert_int_equal(live_holes(d), 0);
	assert_int_equal(s.flows[0].missing, 0);
	assert_int_equal(d->holes_dropped, 0);
	pscan_free(&s);
}

/* Which datagrams the decoder takes for gput end markers. */
static void
test_marker_decode(void **state)
{
	static const struct {
		const char *what;
		unsigned payload;
		const char *magic;
		uint8_t  ver, idx;
		unsigned captured;  /* bytes of UDP payload captured; 0: all */
		int      v6, frag, tcp;
		int      marker;
	} cases[] = {
		{ "32 bytes, index 1", 32, "GPUE", 1, 1, 0, 0, 0, 0, 1 },
		{ "33 bytes, index 2", 33, "GPUE", 1, 2, 0, 0, 0, 0, 1 },
		{ "34 bytes, index 3", 34, "GPUE", 1, 3, 0, 0, 0, 0, 1 },
		{ "31 bytes", 31, "GPUE", 1, 1, 0, 0, 0, 0, 0 },
		{ "35 bytes", 35, "GPUE", 1, 1, 0, 0, 0, 0, 0 },
		{ "index 0", 32, "GPUE", 1, 0, 0, 0, 0, 0, 0 },
		{ "index 4", 32, "GPUE", 1, 4, 0, 0, 0, 0, 0 },
		{ "version 2", 32, "GPUE", 2, 1, 0, 0, 0, 0, 0 },
		{ "magic GPUX", 32, "GPUX", 1, 1, 0, 0, 0, 0, 0 },
		{ "6 bytes captured", 32, "GPUE", 1, 1, 6, 0, 0, 0, 1 },
		{ "5 bytes captured", 32, "GPUE", 1, 1, 5, 0, 0, 0, 0 },
		{ "IPv6", 32, "GPUE", 1, 1, 0, 1, 0, 0, 1 },
		{ "first IP fragment", 32, "GPUE", 1, 1, 0, 0, 1, 0, 0 },
		{ "TCP", 32, "GPUE", 1, 1, 0, 0, 0, 1, 0 },
	};
	uint8_t buf[256], mk[32];
	struct pdec_frame fr;
	char why[160];
	size_t i, n, hdr;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct spec u = { .dlt = DLT_EN10MB, .proto = 17,
		                  .src = "10.0.0.1", .dst = "10.0.0.2",
		                  .sport = 40003, .dport = 5038, .head = mk,
		                  .head_len = sizeof(mk) };

		print_message("%s\n", cases[i].what);
		cb_marker(mk, cases[i].magic, cases[i].ver, cases[i].idx, 10,
		           10000);
		u.payload = cases[i].payload;
		if (cases[i].v6)
			u.v6 = 1, u.src = "fd00::1", u.dst = "fd00::2";
		if (cases[i].frag)
			u.frag = 1, u.mf = 1, u.udp_len = 1000,
			u.frag_bytes = 8 + cases[i].payload;
		if (cases[i].tcp)
			u.proto = 6;
		n = cb_build(buf, &u);
		hdr = 14 + (u.v6 ? 40 : 20) + (u.proto == 6 ? 20 : 8);
		assert_int_equal(pdec_frame(DLT_EN10MB, buf, cases[i].captured ?
		                 (uint32_t)(hdr + cases[i].captured) :
		                 (uint32_t)n, (uint32_t)n, &fr, why,
		                 sizeof(why)), PDEC_OK);
		assert_int_equal(fr.payload, cases[i].payload);
		assert_int_equal(fr.marker, cases[i].marker);
	}
}

/* The snaplen of udp_markers.pcap cuts every frame; markers are still
 * known by their first 6 bytes. */
static void
test_markers(void **state)
{
	struct pscan s;

	(void)state;
	scan(&s, "udp_markers.pcap", NULL);
	assert_int_equal(s.packets, 15);
	assert_int_equal(s.cut, 15);
	assert_int_equal(s.cut_skipped, 0);
	assert_int_equal(s.nflows, 1);
	assert_int_equal(s.flows[0].data->first_ns, T0 + FT_10M(1066));
	assert_int_equal(s.flows[0].data->last_ns,
	                 T0 + FT_10M(10 * 1066 + 98 + 102));
	assert_int_equal(s.flows[0].data->first_payload, 1000);
	assert_true(fabs(s.flows[0].duration_s - 9794 * 800e-9) < 1e-12);
	assert_int_equal(s.nwarnings, 1);
	assert_string_equal(s.warnings[0], "packets cut short by the capture's "
	                    "snaplen (48 bytes): 15; their sizes are taken from "
	                    "the IP headers");
	pscan_free(&s);
}

static void
test_link_types(void **state)
{
	struct pscan s;

	(void)state;
	scan(&s, "null.pcap", NULL);
	assert_string_equal(s.linkname, "NULL");
	assert_int_equal(s.flows[0].data->payload, 1000);
	assert_int_equal(s.flows[0].data->wire, 1078);
	assert_false(s.flows[0].has_goodput);
	pscan_free(&s);
	scan(&s, "loop6.pcap", NULL);
	assert_string_equal(s.linkname, "LOOP");
	assert_int_equal(s.flows[0].f->ipv, 6);
	assert_int_equal(s.flows[0].data->payload, 10);
	assert_int_equal(s.flows[0].data->wire, 96);
	pscan_free(&s);
}

static void
test_filter(void **state)
{
	struct pscan s;
	char path[512], err[512];

	(void)state;
	scan(&s, "tcp_odd.pcap", "port 5038");
	assert_int_equal(s.packets, 7);
	assert_int_equal(s.nflows, 1);
	assert_int_equal(s.flows[0].data->retrans, 1448);
	pscan_free(&s);
	snprintf(path, sizeof(path), "%s/tcp_odd.pcap", dir);
	assert_int_equal(pscan_file(&s, path, "port", 1500, err, sizeof(err)),
	                 PSCAN_EUSAGE);
	assert_string_equal(err, "bad filter 'port': can't parse filter "
	                    "expression: syntax error");
	pscan_free(&s);
	assert_int_equal(pscan_file(&s, path, "udp", 1500, err, sizeof(err)),
	                 PSCAN_EBAD);
	assert_non_null(strstr(err, "tcp_odd.pcap: no packet matches the "
	                            "filter 'udp'"));
	pscan_free(&s);
}

/* Bad input: the exact error after "DIR/NAME: ". */
static const struct { const char *name, *err; } bads[] = {
	{ "bad_text.pcap", "not a pcap or pcapng capture" },
	{ "bad_empty.pcap", "the file is empty, not a capture" },
	{ "bad_head.pcap", "the capture's file header is cut off (10 of 24 "
	  "bytes)" },
	{ "bad_head.pcapng", "the capture's file header is cut off (12 of 28 "
	  "bytes)" },
	{ "bad_two.pcap", "not a pcap or pcapng capture" },
	{ "bad_version.pcap", "unsupported pcap savefile version 9.4" },
	{ "no_such.pcap", "No such file or directory" },
	{ "bad_nopackets.pcap", "the capture holds no packets" },
	{ "bad_linktype.pcap", "unsupported link type IEEE802_11 (105); "
	  "gput-pcap reads EN10MB, LINUX_SLL, LINUX_SLL2, RAW, IPV4, IPV6, NULL "
	  "and LOOP" },
	{ "bad_truncated.pcap", "packet 2 is cut off: truncated dump file; "
	  "tried to read 154 captured bytes, only got 50" },
};

/* Malformed frames are counted and skipped, as tcpdump does: one bad
 * frame does not end the scan of the others. */
static const struct { const char *name, *why; } malformed[] = {
	{ "bad_ihl.pcap", "packet 1: IPv4 total length 40 is shorter than its "
	  "60-byte header" },
	{ "bad_doff.pcap", "packet 1: TCP header length 60 does not fit a "
	  "20-byte IP payload" },
	{ "bad_iplen.pcap", "packet 1: IPv4 total length 1500 runs past the "
	  "end of the frame (40 bytes after the link header)" },
	{ "bad_short.pcap", "packet 1: link-layer header of 14 bytes at offset "
	  "0 runs past the 10 captured bytes" },
	{ "bad_middle.pcap", "packet 2: TCP header length 60 does not fit a "
	  "20-byte IP payload" },
};

static void
test_malformed(void **state)
{
	char want[512];
	struct pscan s;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(malformed) / sizeof(malformed[0]); i++) {
		print_message("%s\n", malformed[i].name);
		scan(&s, malformed[i].name, NULL);
		assert_int_equal(s.malformed, 1);
		snprintf(want, sizeof(want), "malformed frames, skipped and not "
		         "counted: 1 (the first, %s)", malformed[i].why);
		assert_true(s.nwarnings >= 1);
		assert_string_equal(s.warnings[0], want);
		if (strcmp(malformed[i].name, "bad_middle.pcap") == 0) {
			assert_int_equal(s.packets, 3);
			assert_int_equal(s.nflows, 1);
			assert_int_equal(s.flows[0].data->packets, 2);
			assert_int_equal(s.flows[0].data->payload, 200);
			assert_int_equal(s.flows[0].missing, 0);
		} else {
			assert_int_equal(s.nflows, 0);
		}
		pscan_free(&s);
	}
}

static void
test_bad(void **state)
{
	char path[512], want[1024], err[512];
	struct pscan s;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		print_message("%s\n", bads[i].name);
		snprintf(path, sizeof(path), "%s/%s", dir, bads[i].name);
		snprintf(want, sizeof(want), "%s: %s", path, bads[i].err);
		err[0] = '\0';
		assert_int_equal(pscan_file(&s, path, NULL, 1500, err,
		                            sizeof(err)), PSCAN_EBAD);
		assert_string_equal(err, want);
		pscan_free(&s);
	}
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flows),
		cmocka_unit_test(test_untrusted),
		cmocka_unit_test(test_holes),
		cmocka_unit_test(test_marker_decode),
		cmocka_unit_test(test_markers),
		cmocka_unit_test(test_link_types),
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_malformed),
	};

	if (argc == 3 && strcmp(argv[1], "--captures") == 0) {
		write_captures(argv[2]);
		return 0;
	}
	return cmocka_run_group_tests(tests, setup, teardown);
}

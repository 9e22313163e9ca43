/* SPDX-License-Identifier: BSD-2-Clause */
/* unit_pcapudp.c: gput-pcap on gput's UDP: data headers decoded frame by
 * frame, and captures of gput UDP runs (in order, loss, duplicates,
 * reordering, data after the end marker, headers cut by the snaplen, IP
 * fragments, a capture missing most datagrams) read back through
 * pscan_file(), every count checked exactly. `unit_pcapudp --captures DIR`
 * only writes the captures (for the golden test, tests/golden/regen.sh and
 * the fuzzers' seeds). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capbuild.h"
#include "pcap_scan.h"
#include "wire_udp.h"

#define US    1000LL          /* ns */
#define MS    1000000LL
#define S0    5000000000ULL   /* the sender's clock at datagram 0, ns */
#define WIRE  1066            /* a 1000-byte datagram's frame on the wire */

/* ---- captures ---- */

/* Datagram seq of 1000 bytes at ts; send time S0 + seq ms when paced. */
static void
put_data(struct cap *c, uint64_t seq, int paced, int64_t ts)
{
	uint8_t h[CB_GPUD_LEN] = { 0 };
	struct spec d = cb_gput4(DLT_EN10MB, 1000, h);

	cb_gpud(h, 0, seq, paced ? S0 + seq * (uint64_t)MS : 0);
	cb_put(c, &d, ts);
}

/* End marker idx saying dgrams datagrams (of 1000 bytes) were sent. */
static void
put_marker(struct cap *c, uint8_t idx, uint64_t dgrams, int64_t ts)
{
	uint8_t mk[32] = { 0 };
	struct spec m = cb_gput4(DLT_EN10MB, 32, mk);

	m.head_len = sizeof(mk);
	cb_marker(mk, "GPUE", 1, idx, dgrams, dgrams * 1000);
	cb_put(c, &m, ts);
}

static void
put_markers(struct cap *c, uint64_t dgrams, int64_t ts)
{
	uint8_t i;

	for (i = 1; i <= 3; i++)
		put_marker(c, i, dgrams, ts + (i - 1) * 2 * MS);
}

/* The datagrams in order[] (n), the i-th captured at T0 + i ms + 100 us
 * (datagram 5: + 300 us); datagram k was sent at S0 + k ms, so in order
 * each arrives 100 us after it was sent, 5 after 300 us. Then the markers
 * saying sent. */
static void
write_run(const char *dir, const char *name, const uint64_t *order,
          size_t n, uint64_t sent)
{
	struct cap *c = cb_new();
	size_t i;

	cb_open(c, dir, name, DLT_EN10MB, 65535);
	for (i = 0; i < n; i++)
		put_data(c, order[i], 1, T0 + (int64_t)i * MS +
		         (order[i] == 5 ? 300 : 100) * US);
	put_markers(c, sent, T0 + 20 * MS);
	cb_close(c);
	free(c);
}

/* 0..7, the first marker, 8 and 9, the other two markers; not paced. */
static void
write_late(const char *dir)
{
	struct cap *c = cb_new();
	uint64_t i;

	cb_open(c, dir, "gpud_late.pcap", DLT_EN10MB, 65535);
	for (i = 0; i < 8; i++)
		put_data(c, i, 0, T0 + (int64_t)i * MS);
	put_marker(c, 1, 10, T0 + 8 * MS);
	put_data(c, 8, 0, T0 + 9 * MS);
	put_data(c, 9, 0, T0 + 10 * MS);
	put_marker(c, 2, 10, T0 + 11 * MS);
	put_marker(c, 3, 10, T0 + 12 * MS);
	cb_close(c);
	free(c);
}

/* 10 datagrams, some captured short (snaplen 65535, caplen per frame):
 * 3 and 6 with 18 bytes of UDP payload (magic, stream id, part of the
 * sequence number), 8 with the 4 magic bytes only: not decodable; 9 with
 * 3 bytes, which cannot be told from other data. Markers say 10. */
static void
write_cut(const char *dir)
{
	struct cap *c = cb_new();
	uint8_t h[CB_GPUD_LEN] = { 0 };
	struct spec d = cb_gput4(DLT_EN10MB, 1000, h);
	uint64_t i;
	size_t n;

	cb_open(c, dir, "gpud_cut.pcap", DLT_EN10MB, 65535);
	for (i = 0; i < 10; i++) {
		uint32_t cap = i == 3 || i == 6 ? 42 + 18 : i == 8 ? 42 + 4 :
		               i == 9 ? 42 + 3 : 0;

		cb_gpud(h, 0, i, S0 + i * (uint64_t)MS);
		n = cb_build(c->buf, &d);
		cb_put_raw(c, c->buf, cap ? cap : (uint32_t)n, (uint32_t)n,
		           T0 + (int64_t)i * MS);
	}
	put_markers(c, 10, T0 + 20 * MS);
	cb_close(c);
	free(c);
}

/* Datagrams of 3000 bytes of payload in 3 IPv4 fragments (UDP data 1480,
 * 1480, 48), the header in the first: 0 in order, 1 with its first
 * fragment last, 2 twice (IP ids 102 and 112: a duplicate), 3 without its
 * middle fragment (never reaches the receiver). Markers say 4. */
static void
write_frag(const char *dir)
{
	static const struct { uint64_t seq; uint16_t id; int order[3]; } dg[] = {
		{ 0, 100, { 0, 1, 2 } }, { 1, 101, { 1, 2, 0 } },
		{ 2, 102, { 0, 1, 2 } }, { 2, 112, { 0, 1, 2 } },
		{ 3, 103, { 0, 2, -1 } },
	};
	struct cap *c = cb_new();
	uint8_t h[CB_GPUD_LEN] = { 0 };
	struct spec f = cb_gput4(DLT_EN10MB, 0, h);
	int64_t t = T0;
	size_t i, k;

	f.frag = 1, f.udp_len = 3008;
	cb_open(c, dir, "gpud_frag.pcap", DLT_EN10MB, 65535);
	for (i = 0; i < sizeof(dg) / sizeof(dg[0]); i++) {
		cb_gpud(h, 0, dg[i].seq, S0 + dg[i].seq * (uint64_t)MS);
		f.id = dg[i].id;
		for (k = 0; k < 3 && dg[i].order[k] >= 0; k++) {
			unsigned j = (unsigned)dg[i].order[k];

			f.frag_off8 = j * 185;
			f.frag_bytes = j < 2 ? 1480 : 48;
			f.mf = j < 2;
			cb_put(c, &f, t += MS);
		}
	}
	put_markers(c, 4, t + 10 * MS);
	cb_close(c);
	free(c);
}

/* The sender (not paced) sent 2000, the capture holds 0..99 and
 * 1900..1937, back to back at 10 Mb/s: the goodput looks like the link's. */
static void
write_missing(const char *dir)
{
	struct cap *c = cb_new();
	int64_t t = T0;
	uint64_t i;

	cb_open(c, dir, "gpud_missing.pcap", DLT_EN10MB, 65535);
	for (i = 0; i < 2000; i++)
		if (i < 100 || (i >= 1900 && i < 1938))
			put_data(c, i, 0, t += FT_10M(WIRE));
	put_markers(c, 2000, t + 10 * MS);
	cb_close(c);
	free(c);
}

static const uint64_t in_order[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };
static const uint64_t lossy[] = { 0, 1, 2, 4, 5, 6, 8, 9 };
static const uint64_t dups[] = { 0, 1, 2, 2, 3, 4, 4, 4 };
static const uint64_t reordered[] = { 0, 1, 4, 2, 3, 5, 9, 6, 7, 8 };

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* A setup datagram (wire_udp.h) of len bytes at ts: the proof ("GPUH"),
 * the partner's cookie ("GPUC") or the client's echo ("GPUK"). */
static void
put_setup(struct cap *c, const char *kind, size_t len, int64_t ts)
{
	static const uint8_t nonce[PROOF_NONCE_LEN] = { 1, 2, 3 };
	struct wire_cookie k = { .stream = 1, .cookie = { 9, 8, 7 } };
	uint8_t b[CECHO_MAX_LEN] = { 0 };
	struct spec m = cb_gput4(DLT_EN10MB, (unsigned)len, b);

	m.head_len = len;
	if (strcmp(kind, "GPUH") == 0)
		wire_gpuh_encode(b, len, nonce, 1);
	else if (strcmp(kind, "GPUC") == 0)
		wire_gpuc_encode(b, len, &k);
	else
		wire_gpuk_encode(b, len, &k);
	cb_put(c, &m, ts);
}

/* A partner that sends: the client's proof, the partner's cookie, the
 * client's echo, the cookie again (sent before the echo came), then the 10
 * datagrams in order and the markers. All in one direction, so that one
 * flow direction holds them: the setup is control, none of it payload. */
static void
write_setup(const char *dir)
{
	struct cap *c = cb_new();
	uint64_t i;

	cb_open(c, dir, "gpud_setup.pcap", DLT_EN10MB, 65535);
	put_setup(c, "GPUH", PROOF_BASE_LEN, T0 - 4 * MS);
	put_setup(c, "GPUC", COOKIE_BASE_LEN, T0 - 3 * MS);
	put_setup(c, "GPUK", CECHO_MAX_LEN, T0 - 2 * MS);
	put_setup(c, "GPUC", COOKIE_MAX_LEN, T0 - 1 * MS);
	for (i = 0; i < 10; i++)
		put_data(c, i, 1, T0 + (int64_t)i * MS + 100 * US);
	put_markers(c, 10, T0 + 20 * MS);
	cb_close(c);
	free(c);
}

/* Every capture of this test, the golden cases' among them. */
static void
write_captures(const char *dir)
{
	write_run(dir, "gpud_order.pcap", in_order, N(in_order), 10);
	write_run(dir, "gpud_loss.pcap", lossy, N(lossy), 10);
	write_run(dir, "gpud_dup.pcap", dups, N(dups), 5);
	write_run(dir, "gpud_reorder.pcap", reordered, N(reordered), 10);
	write_late(dir);
	write_cut(dir);
	write_frag(dir);
	write_missing(dir);
	write_setup(dir);
}

/* ---- tests ---- */

static char dir[256];

static int
setup(void **state)
{
	(void)state;
	if (cb_tmpdir(dir, sizeof(dir), "unit_pcapudp") == -1)
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
scan(struct pscan *s, const char *name)
{
	cb_scan(s, dir, name, NULL);
}

static void
assert_near(double got, double want)
{
	if (fabs(got - want) > 1e-9 * (fabs(want) > 1 ? fabs(want) : 1))
		fail_msg("got %.12g, want %.12g", got, want);
}

/* What a capture's one flow must show. */
struct gwant {
	const char *name;
	uint64_t sent, received, unique, lost, duplicates, reordered, maxd;
	uint64_t late, cut;
	uint64_t payload, retrans, data_packets, retrans_packets;
	size_t   nwarnings;
};

static const struct gwant gwants[] = {
	{ "gpud_order.pcap", 10, 10, 10, 0, 0, 0, 0, 0, 0,
	  10000, 0, 10, 0, 0 },
	/* 3 and 7 lost */
	{ "gpud_loss.pcap", 10, 8, 8, 2, 0, 0, 0, 0, 0, 8000, 0, 8, 0, 1 },
	/* 2 twice, 4 three times: 3 duplicates, not payload */
	{ "gpud_dup.pcap", 5, 8, 5, 0, 3, 0, 0, 0, 0, 5000, 3000, 5, 3, 0 },
	/* 0 1 4 2 3 5 9 6 7 8: 2 (2 behind 4), 3 (1), 6 (3), 7 (2), 8 (1) */
	{ "gpud_reorder.pcap", 10, 10, 10, 0, 0, 5, 3, 0, 0,
	  10000, 0, 10, 0, 0 },
	{ "gpud_late.pcap", 10, 10, 10, 0, 0, 0, 0, 2, 0, 10000, 0, 10, 0, 0 },
	/* 3, 6 and 8 not decodable (lost to the counts); 9 is data */
	{ "gpud_cut.pcap", 10, 6, 6, 4, 0, 0, 0, 0, 3, 10000, 0, 10, 0, 2 },
	/* 0, 1, 2, 2 again; 3 incomplete (and an orphan warning) */
	{ "gpud_frag.pcap", 4, 4, 3, 1, 1, 0, 0, 0, 0, 9000, 3000, 9, 3, 2 },
	{ "gpud_missing.pcap", 2000, 138, 138, 1862, 0, 0, 0, 0, 0,
	  138000, 0, 138, 0, 1 },
};

static void
check_gput(const struct gwant *w)
{
	struct pscan s;
	const struct pscan_flow *r;
	const struct pscan_gput *u;

	print_message("%s\n", w->name);
	scan(&s, w->name);
	assert_int_equal(s.nflows, 1);
	r = &s.flows[0];
	u = &r->gput;
	assert_true(r->has_gput);
	assert_true(u->sent_known);
	assert_int_equal(u->sent, w->sent);
	assert_int_equal(u->u.received, w->received);
	assert_int_equal(u->u.unique, w->unique);
	assert_int_equal(u->lost, w->lost);
	assert_int_equal(u->u.duplicates, w->duplicates);
	assert_int_equal(u->u.reordered, w->reordered);
	assert_int_equal(u->u.max_displacement, w->maxd);
	assert_int_equal(u->u.late, w->late);
	assert_int_equal(u->u.too_old, 0);
	assert_int_equal(u->cut, w->cut);
	assert_int_equal(r->data->payload, w->payload);
	assert_int_equal(r->data->retrans, w->retrans);
	assert_int_equal(r->data->data_packets, w->data_packets);
	assert_int_equal(r->data->retrans_packets, w->retrans_packets);
	assert_int_equal(r->data->markers, 3);
	assert_int_equal(r->data->payload + r->data->retrans +
	                 r->data->marker_bytes + r->data->l4 + r->data->l3 +
	                 r->data->l2 + r->data->pad + r->data->l1,
	                 r->data->wire);
	assert_int_equal(s.nwarnings, w->nwarnings);
	pscan_free(&s);
}

static void
test_counts(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < N(gwants); i++)
		check_gput(&gwants[i]);
}

/* Transit 100 us, but 300 for datagram 5: D is 0 but +200 us into 5 and
 * -200 out of it, so J = 200/16 at 5, J += (200 - J)/16 at 6, then J *= 15/16
 * at 7, 8, 9 (RFC 3550 6.4.1). Delay variation: max 200 us, mean 200/10. */
static void
test_timing(void **state)
{
	double j = 200.0 / 16;
	struct pscan s;
	const struct pscan_gput *u;

	(void)state;
	j += (200 - j) / 16;
	j = j * 15 / 16 * 15 / 16 * 15 / 16;
	scan(&s, "gpud_order.pcap");
	u = &s.flows[0].gput;
	assert_true(u->has_timing);
	assert_near(u->jitter_ms, j / 1000);
	assert_near(u->delay_var_max_ms, 0.2);
	assert_near(u->delay_var_ms, 0.02);
	/* 9 datagrams of 1000 bytes after the first, over 9 ms */
	assert_near(s.flows[0].goodput_bps, 9000 * 8 / 0.009);
	assert_int_equal(s.flows[0].data->first_ns, T0 + 100 * US);
	pscan_free(&s);

	/* 0 1 2 2 3 4 4 4: duplicates are not data frames, so the span ends
	 * at 4's first copy, the 6th frame; 4 new datagrams after the first */
	scan(&s, "gpud_dup.pcap");
	assert_int_equal(s.flows[0].data->last_ns, T0 + 5 * MS + 100 * US);
	assert_near(s.flows[0].goodput_bps, 4000 * 8 / 0.005);
	pscan_free(&s);

	scan(&s, "gpud_late.pcap");
	u = &s.flows[0].gput;
	assert_false(u->has_timing);
	assert_near(u->jitter_ms, 0);
	pscan_free(&s);
}

/* The warnings, word for word. */
static void
test_warnings(void **state)
{
	struct pscan s;

	(void)state;
	scan(&s, "gpud_missing.pcap");
	assert_int_equal(s.nwarnings, 1);
	assert_string_equal(s.warnings[0], "flow 1 (UDP 10.0.0.1:40004 -> "
	    "10.0.0.2:5038): the sender sent 2000 datagrams, the capture holds "
	    "138 of them: 1862 were lost before the capture point or dropped "
	    "by the capture (tcpdump: \"packets dropped by kernel\"); payload, "
	    "eta and goodput are those of the datagrams captured, not of the "
	    "transfer");
	/* back to back: the goodput alone looks like the link's */
	assert_near(s.flows[0].goodput_bps, 137000 * 8 / (137 * WIRE * 800e-9));
	pscan_free(&s);

	scan(&s, "gpud_cut.pcap");
	assert_int_equal(s.nwarnings, 2);
	assert_string_equal(s.warnings[0], "packets cut short by the capture's "
	    "snaplen (65535 bytes): 4; their sizes are taken from the IP "
	    "headers");
	assert_string_equal(s.warnings[1], "flow 1 (UDP 10.0.0.1:40004 -> "
	    "10.0.0.2:5038): 3 datagrams whose gput header the snaplen (65535 "
	    "bytes) cut: not decodable, so counted as lost and left out of the "
	    "duplicate and reordering counts; capture with tcpdump -s 0");
	pscan_free(&s);

	scan(&s, "gpud_frag.pcap");
	assert_int_equal(s.nwarnings, 2);
	assert_non_null(strstr(s.warnings[0], "IP fragments of datagrams that "
	                       "are not complete"));
	assert_non_null(strstr(s.warnings[1], "the sender sent 4 datagrams, "
	                       "the capture holds 3 of them: 1 were lost"));
	pscan_free(&s);
}

/* Fragments: the datagram counts when its last piece arrives, whatever
 * the order, with the header of its first fragment. */
static void
test_frag(void **state)
{
	struct pscan s;
	const struct pflow_dir *d;

	(void)state;
	scan(&s, "gpud_frag.pcap");
	d = s.flows[0].data;
	assert_int_equal(d->fragments, 12);
	assert_int_equal(d->packets, 12 + 3);
	assert_int_equal(d->datagrams, 4);
	assert_int_equal(s.orphans.packets, 2);
	assert_int_equal(s.flows[0].held, 3);
	/* datagram 1 completes with its first fragment, the 6th frame */
	assert_int_equal(d->gput->acct.transit_n, 3);
	assert_int_equal(d->gput->acct.n.reordered, 0);
	assert_int_equal(d->first_ns, T0 + 1 * MS);
	assert_int_equal(d->last_ns, T0 + 9 * MS);
	pscan_free(&s);
}

/* Which frames the decoder takes for gput data, and what it reads. */
static void
test_decode(void **state)
{
	static const struct {
		const char *what;
		unsigned payload;
		const char *magic;
		unsigned captured;  /* bytes of UDP payload captured; 0: all */
		int      v6, frag;
		int      gpud;
	} cases[] = {
		{ "24 bytes", 24, "GPUD", 0, 0, 0, PDEC_GPUD_DATA },
		{ "1472 bytes", 1472, "GPUD", 0, 0, 0, PDEC_GPUD_DATA },
		{ "23 bytes", 23, "GPUD", 0, 0, 0, PDEC_GPUD_NONE },
		{ "magic GPUX", 100, "GPUX", 0, 0, 0, PDEC_GPUD_NONE },
		{ "magic GPUE", 100, "GPUE", 0, 0, 0, PDEC_GPUD_NONE },
		{ "24 captured", 100, "GPUD", 24, 0, 0, PDEC_GPUD_DATA },
		{ "23 captured", 100, "GPUD", 23, 0, 0, PDEC_GPUD_CUT },
		{ "4 captured", 100, "GPUD", 4, 0, 0, PDEC_GPUD_CUT },
		{ "3 captured", 100, "GPUD", 3, 0, 0, PDEC_GPUD_NONE },
		{ "IPv6", 100, "GPUD", 0, 1, 0, PDEC_GPUD_DATA },
		{ "first fragment", 100, "GPUD", 0, 0, 1, PDEC_GPUD_DATA },
		{ "IPv6 first fragment", 100, "GPUD", 0, 1, 1, PDEC_GPUD_DATA },
		{ "first fragment of 16", 16, "GPUD", 0, 0, 1, PDEC_GPUD_NONE },
	};
	uint8_t buf[2048], h[CB_GPUD_LEN] = { 0 };
	struct pdec_frame fr;
	char why[160];
	size_t i, n, hdr;

	(void)state;
	for (i = 0; i < N(cases); i++) {
		struct spec u = cb_gput4(DLT_EN10MB, cases[i].payload, h);

		print_message("%s\n", cases[i].what);
		cb_gpud(h, 7, 0x0102030405060708ULL, 0x1122334455667788ULL);
		memcpy(h, cases[i].magic, 4);
		if (cases[i].v6)
			u.v6 = 1, u.src = "fd00::1", u.dst = "fd00::2";
		if (cases[i].frag)
			u.frag = 1, u.mf = 1, u.udp_len = 3000,
			u.frag_bytes = 8 + cases[i].payload;
		n = cb_build(buf, &u);
		hdr = 14 + (u.v6 ? 40 + (u.frag ? 8 : 0) : 20) + 8;
		assert_int_equal(pdec_frame(DLT_EN10MB, buf, cases[i].captured ?
		                 (uint32_t)(hdr + cases[i].captured) :
		                 (uint32_t)n, (uint32_t)n, &fr, why,
		                 sizeof(why)), PDEC_OK);
		assert_int_equal(fr.gpud, cases[i].gpud);
		assert_int_equal(fr.marker, 0);
		if (cases[i].gpud != PDEC_GPUD_DATA)
			continue;
		assert_int_equal(fr.gpud_stream, 7);
		assert_int_equal(fr.gpud_seq, 0x0102030405060708ULL);
		assert_int_equal(fr.gpud_send_ns, 0x1122334455667788ULL);
	}
}

/* The proof, the cookie and its echo, an acknowledgement: control frames
 * in their own lengths (a cut one by its first 8 bytes), never data nor
 * end markers. */
static void
test_setup_decode(void **state)
{
	static const struct {
		const char *kind;
		unsigned len, captured;     /* captured: 0 all */
		int      marker;
	} cases[] = {
		{ "GPUH", PROOF_BASE_LEN, 0, 1 }, { "GPUH", PROOF_MAX_LEN, 0, 1 },
		{ "GPUC", COOKIE_BASE_LEN, 0, 1 }, { "GPUC", COOKIE_MAX_LEN, 0, 1 },
		{ "GPUC", COOKIE_BASE_LEN, 8, 1 }, { "GPUC", COOKIE_BASE_LEN, 7, 0 },
		{ "GPUC", CECHO_BASE_LEN, 0, 0 },  /* a cookie of an echo's length */
		{ "GPUK", CECHO_BASE_LEN, 0, 1 }, { "GPUK", CECHO_MAX_LEN, 0, 1 },
		{ "GPUK", CECHO_MAX_LEN, 8, 1 }, { "GPUK", COOKIE_MAX_LEN, 0, 0 },
		{ "GPUK", CECHO_MAX_LEN + 1, 0, 0 },
		/* --sliding-window's acknowledgement: 24 bytes only */
		{ "GPUA", WIRE_GPUA_LEN, 0, 1 }, { "GPUA", WIRE_GPUA_LEN, 8, 1 },
		{ "GPUA", WIRE_GPUA_LEN, 7, 0 }, { "GPUA", WIRE_GPUA_LEN + 1, 0, 0 },
	};
	struct wire_cookie k = { .stream = 3 };
	uint8_t buf[256], b[64] = { 0 };
	struct pdec_frame fr;
	char why[160];
	size_t i, n;

	(void)state;
	for (i = 0; i < N(cases); i++) {
		struct spec u = cb_gput4(DLT_EN10MB, cases[i].len, b);
		size_t hdr = 14 + 20 + 8;

		print_message("%s %u captured %u\n", cases[i].kind, cases[i].len,
		              cases[i].captured);
		u.head_len = cases[i].len;
		if (strcmp(cases[i].kind, "GPUH") == 0)
			wire_gpuh_encode(b, cases[i].len, k.cookie, 1);
		else if (strcmp(cases[i].kind, "GPUC") == 0)
			wire_gpuc_encode(b, cases[i].len, &k);
		else if (strcmp(cases[i].kind, "GPUA") == 0)
			wire_gpua_encode(b, &(struct wire_gpua){ 3, 7, 9 });
		else
			wire_gpuk_encode(b, cases[i].len, &k);
		n = cb_build(buf, &u);
		assert_int_equal(pdec_frame(DLT_EN10MB, buf, cases[i].captured ?
		                 (uint32_t)(hdr + cases[i].captured) : (uint32_t)n,
		                 (uint32_t)n, &fr, why, sizeof(why)), PDEC_OK);
		assert_int_equal(fr.marker, cases[i].marker);
		assert_int_equal(fr.end_marker, 0);
		assert_int_equal(fr.gpud, PDEC_GPUD_NONE);
	}
	/* padding that is not zero: not a cookie */
	{
		struct spec u = cb_gput4(DLT_EN10MB, COOKIE_BASE_LEN, b);

		u.head_len = COOKIE_BASE_LEN;
		wire_gpuc_encode(b, COOKIE_BASE_LEN, &k);
		b[COOKIE_BASE_LEN - 1] = 1;
		n = cb_build(buf, &u);
		assert_int_equal(pdec_frame(DLT_EN10MB, buf, (uint32_t)n, (uint32_t)n,
		                 &fr, why, sizeof(why)), PDEC_OK);
		assert_int_equal(fr.marker, 0);
	}
}

/* A run with its setup in the capture: the payload is the data's alone,
 * the setup frames are counted with the markers. */
static void
test_setup_counts(void **state)
{
	struct pscan s;
	const struct pscan_flow *r;

	(void)state;
	scan(&s, "gpud_setup.pcap");
	assert_int_equal(s.nflows, 1);
	r = &s.flows[0];
	assert_true(r->has_gput);
	assert_int_equal(r->gput.sent, 10);
	assert_int_equal(r->gput.u.received, 10);
	assert_int_equal(r->gput.lost, 0);
	assert_int_equal(r->data->payload, 10000);
	assert_int_equal(r->data->data_packets, 10);
	assert_int_equal(r->data->markers, 3 + 4);
	assert_int_equal(r->data->marker_bytes, 3 * 32 + PROOF_BASE_LEN +
	                 COOKIE_BASE_LEN + CECHO_MAX_LEN + COOKIE_MAX_LEN);
	assert_int_equal(r->data->payload + r->data->retrans +
	                 r->data->marker_bytes + r->data->l4 + r->data->l3 +
	                 r->data->l2 + r->data->pad + r->data->l1,
	                 r->data->wire);
	pscan_free(&s);
}

/* An end marker's count, when captured (8 bytes at offset 8). */
static void
test_marker_count(void **state)
{
	static const struct { unsigned captured; int has; } cases[] = {
		{ 0, 1 }, { 16, 1 }, { 15, 0 }, { 6, 0 },
	};
	uint8_t buf[256], mk[32] = { 0 };
	struct spec m = cb_gput4(DLT_EN10MB, 32, mk);
	struct pdec_frame fr;
	char why[160];
	size_t i, n;

	(void)state;
	m.head_len = sizeof(mk);
	cb_marker(mk, "GPUE", 1, 2, 0x100000002ULL, 5);
	n = cb_build(buf, &m);
	for (i = 0; i < N(cases); i++) {
		assert_int_equal(pdec_frame(DLT_EN10MB, buf, cases[i].captured ?
		                 (uint32_t)(42 + cases[i].captured) :
		                 (uint32_t)n, (uint32_t)n, &fr, why,
		                 sizeof(why)), PDEC_OK);
		assert_int_equal(fr.marker, 1);
		assert_int_equal(fr.end_marker, 1);
		assert_int_equal(fr.end_has_count, cases[i].has);
		if (cases[i].has)
			assert_int_equal(fr.end_dgrams, 0x100000002ULL);
		assert_int_equal(fr.gpud, PDEC_GPUD_NONE);
	}
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode),
		cmocka_unit_test(test_marker_count),
		cmocka_unit_test(test_setup_decode),
		cmocka_unit_test(test_setup_counts),
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_timing),
		cmocka_unit_test(test_warnings),
		cmocka_unit_test(test_frag),
	};

	if (argc == 3 && strcmp(argv[1], "--captures") == 0) {
		write_captures(argv[2]);
		return 0;
	}
	return cmocka_run_group_tests(tests, setup, teardown);
}

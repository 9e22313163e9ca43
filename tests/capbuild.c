/* SPDX-License-Identifier: BSD-2-Clause */
/* capbuild.c: frames built field by field, written as pcap or pcapng. */
#include "capbuild.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>

#include "pcap_scan.h"

void
cb_put16(uint8_t *b, uint16_t v)
{
	b[0] = (uint8_t)(v >> 8);
	b[1] = (uint8_t)v;
}

void
cb_put32(uint8_t *b, uint32_t v)
{
	cb_put16(b, (uint16_t)(v >> 16));
	cb_put16(b + 2, (uint16_t)v);
}

void
cb_put64(uint8_t *b, uint64_t v)
{
	cb_put32(b, (uint32_t)(v >> 32));
	cb_put32(b + 4, (uint32_t)v);
}

/* The link header for s; returns its length. */
static size_t
put_link(uint8_t *b, const struct spec *s)
{
	uint16_t type = s->v6 ? 0x86dd : 0x0800;
	size_t n = 0;
	int i;

	switch (s->dlt) {
	case DLT_EN10MB:
		memset(b, 0, 12);
		b[5] = 1, b[11] = 2;
		n = 12;
		if (s->qinq)
			cb_put16(b + n, 0x88a8), cb_put16(b + n + 2, 100), n += 4;
		for (i = 0; i < s->tags; i++)
			cb_put16(b + n, 0x8100), cb_put16(b + n + 2, 10), n += 4;
		if (s->pppoe) {
			cb_put16(b + n, 0x8864);
			b[n + 2] = 0x11, b[n + 3] = 0;
			cb_put16(b + n + 4, 7);
			cb_put16(b + n + 8, s->v6 ? 0x0057 : 0x0021);
			return n + 10;
		}
		cb_put16(b + n, type);
		return n + 2;
	case DLT_LINUX_SLL:
		memset(b, 0, 16);
		cb_put16(b + 2, 1);
		cb_put16(b + 14, type);
		return 16;
	case DLT_LINUX_SLL2:
		memset(b, 0, 20);
		cb_put16(b, type);
		cb_put16(b + 8, 1);
		return 20;
	case DLT_NULL:  /* host byte order (little-endian here) */
		memset(b, 0, 4);
		b[0] = s->v6 ? 30 : 2;
		return 4;
	case DLT_LOOP:
		cb_put32(b, s->v6 ? 24 : 2);
		return 4;
	default:
		return 0;
	}
}

static void
put_addr(uint8_t *b, int v6, const char *a)
{
	assert_int_equal(inet_pton(v6 ? AF_INET6 : AF_INET, a, b), 1);
}

/* IPv6 extension headers of s (see struct spec) at b, the first of which
 * the IPv6 header names; returns their length, *first the first one's
 * protocol number. */
static size_t
put_ext6(uint8_t *b, const struct spec *s, uint8_t *first)
{
	int later = s->frag && s->frag_off8 > 0;
	uint8_t dst = s->dst_opts > 0 && !later ? 60 : (uint8_t)s->proto;
	uint8_t frag = s->frag ? 44 : dst;
	size_t n = 0;

	*first = frag;
	if (s->hbh > 0) {
		*first = 0;
		memset(b, 0, s->hbh);  /* Pad1 options */
		b[0] = frag, b[1] = (uint8_t)(s->hbh / 8 - 1);
		n += s->hbh;
	}
	if (s->frag) {
		b[n] = s->dst_opts > 0 ? 60 : (uint8_t)s->proto, b[n + 1] = 0;
		cb_put16(b + n + 2, (uint16_t)(s->frag_off8 << 3 | (s->mf ? 1 : 0)));
		cb_put32(b + n + 4, 0x10000u + s->id);
		n += 8;
	}
	if (s->dst_opts > 0 && !later) {
		memset(b + n, 0, s->dst_opts);
		b[n] = (uint8_t)s->proto, b[n + 1] = (uint8_t)(s->dst_opts / 8 - 1);
		n += s->dst_opts;
	}
	return n;
}

static size_t
put_ip(uint8_t *b, const struct spec *s, unsigned l4len)
{
	unsigned hl = s->v6 ? 40 : 20 + s->ip_opts;
	size_t ext;

	memset(b, 0, hl);
	if (s->v6) {
		b[0] = 0x60;
		ext = put_ext6(b + 40, s, &b[6]);
		cb_put16(b + 4, (uint16_t)(ext + l4len));
		b[7] = 64;
		put_addr(b + 8, 1, s->src);
		put_addr(b + 24, 1, s->dst);
		return 40 + ext;
	}
	b[0] = (uint8_t)(0x40 | (s->bad_ihl ? 15 : hl / 4));
	cb_put16(b + 2, (uint16_t)(s->bad_total ? s->bad_total : hl + l4len));
	cb_put16(b + 4, s->id);
	cb_put16(b + 6, (uint16_t)(s->frag ? (s->mf ? 0x2000 : 0) | s->frag_off8
	                                   : 0x4000));
	b[8] = 64;
	b[9] = (uint8_t)s->proto;
	put_addr(b + 12, 0, s->src);
	put_addr(b + 16, 0, s->dst);
	if (s->ip_opts > 0)
		memset(b + 20, 1, s->ip_opts);  /* NOPs */
	return hl;
}

size_t
cb_build(uint8_t *b, const struct spec *s)
{
	size_t n = put_link(b, s);
	unsigned l4 = s->proto == 6 ? 20 + s->tcp_opts : 8;
	unsigned l4len = s->frag ? s->frag_bytes : l4 + s->payload;
	uint8_t *t;

	n += put_ip(b + n, s, l4len);
	t = b + n;
	memset(t, 'x', l4len);
	if (s->frag && s->frag_off8 > 0)
		return n + l4len;
	cb_put16(t, s->sport);
	cb_put16(t + 2, s->dport);
	if (s->proto == 6) {
		cb_put32(t + 4, s->seq);
		cb_put32(t + 8, 1);
		t[12] = (uint8_t)((s->bad_doff ? 15 : l4 / 4) << 4);
		t[13] = (uint8_t)(0x10 | s->flags);
		if (s->tcp_opts == 12)  /* NOP NOP timestamps, RFC 7323 */
			memcpy(t + 20, "\x01\x01\x08\x0a\0\0\0\1\0\0\0\2", 12);
	} else {
		cb_put16(t + 4, (uint16_t)(s->frag ? s->udp_len : l4len));
		cb_put16(t + 6, 0);
	}
	if (s->head != NULL)
		memcpy(t + l4, s->head, s->head_len < l4len - l4 ? s->head_len :
		       l4len - l4);
	n += l4len;
	if (s->pad_to > n) {
		memset(b + n, 0, s->pad_to - n);
		n = s->pad_to;
	}
	return s->cut_to > 0 && s->cut_to < n ? s->cut_to : n;
}

struct spec
cb_tcp4(int dlt, uint32_t seq, unsigned payload, unsigned opts)
{
	struct spec s = { .dlt = dlt, .proto = 6, .src = "10.0.0.1",
	                  .dst = "10.0.0.2", .sport = 40000, .dport = 5038,
	                  .seq = seq, .tcp_opts = opts, .payload = payload };
	return s;
}

struct spec
cb_ack_of(const struct spec *d)
{
	struct spec a = *d;

	a.src = d->dst, a.dst = d->src;
	a.sport = d->dport, a.dport = d->sport;
	a.seq = 1, a.payload = 0, a.flags = 0;
	return a;
}

void
cb_marker(uint8_t *b, const char *magic, uint8_t ver, uint8_t idx,
          uint64_t dgrams, uint64_t bytes)
{
	memset(b, 0, 32);
	memcpy(b, magic, 4);
	b[4] = ver;
	b[5] = idx;
	cb_put64(b + 8, dgrams);
	cb_put64(b + 16, bytes);
}

void
cb_gpud(uint8_t *b, uint32_t stream, uint64_t seq, uint64_t send_ns)
{
	memcpy(b, "GPUD", 4);
	cb_put32(b + 4, stream);
	cb_put64(b + 8, seq);
	cb_put64(b + 16, send_ns);
}

struct spec
cb_gput4(int dlt, unsigned payload, const uint8_t *hdr)
{
	struct spec s = { .dlt = dlt, .proto = 17, .src = "10.0.0.1",
	                  .dst = "10.0.0.2", .sport = 40004, .dport = 5038,
	                  .payload = payload, .head = hdr,
	                  .head_len = CB_GPUD_LEN };
	return s;
}

struct cap *
cb_new(void)
{
	struct cap *c = calloc(1, sizeof(*c));

	assert_non_null(c);
	return c;
}

void
cb_open(struct cap *c, const char *dir, const char *name, int dlt,
        int snaplen)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	c->snaplen = snaplen;
	c->ng = NULL;
	c->p = pcap_open_dead_with_tstamp_precision(dlt, snaplen,
	                                            PCAP_TSTAMP_PRECISION_NANO);
	assert_non_null(c->p);
	c->d = pcap_dump_open(c->p, path);
	assert_non_null(c->d);
}

/* One pcapng block (pcapng 4.1: type 4, total length 4, body padded to 32
 * bits, total length 4), in host byte order as the Section Header Block's
 * byte-order magic tells a reader. */
static void
ng_block(FILE *f, uint32_t type, const uint8_t *body, size_t len)
{
	uint32_t total = (uint32_t)(12 + (len + 3) / 4 * 4);
	static const uint8_t zero[4];

	assert_int_equal(fwrite(&type, 4, 1, f), 1);
	assert_int_equal(fwrite(&total, 4, 1, f), 1);
	assert_int_equal(fwrite(body, 1, len, f), len);
	assert_int_equal(fwrite(zero, 1, (4 - len % 4) % 4, f), (4 - len % 4) % 4);
	assert_int_equal(fwrite(&total, 4, 1, f), 1);
}

void
cb_open_ng(struct cap *c, const char *dir, const char *name, int dlt,
           int snaplen, int tsresol)
{
	/* Section Header (4.1): byte-order magic, version 1.0, section
	 * length -1 (unknown) */
	static const uint8_t shb[16] = { 0x4d, 0x3c, 0x2b, 0x1a, 1, 0, 0, 0,
	                                 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	                                 0xff, 0xff };
	uint8_t idb[20] = { 0 };  /* Interface Description (4.2) */
	uint16_t lt = (uint16_t)dlt, opt;
	uint32_t snap = (uint32_t)snaplen;
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	c->p = NULL, c->d = NULL;
	c->snaplen = snaplen;
	c->tsresol = tsresol;
	assert_non_null(c->ng = fopen(path, "wb"));
	memcpy(idb, &lt, 2);
	memcpy(idb + 4, &snap, 4);
	opt = 9;  /* if_tsresol, 1 byte: 10^-tsresol s, then padding */
	memcpy(idb + 8, &opt, 2);
	opt = 1;
	memcpy(idb + 10, &opt, 2);
	idb[12] = (uint8_t)tsresol;  /* idb[16..19]: opt_endofopt */
	ng_block(c->ng, 0x0a0d0d0a, shb, sizeof(shb));
	ng_block(c->ng, 1, idb, sizeof(idb));
}

void
cb_put_units(struct cap *c, const uint8_t *b, uint32_t caplen, uint32_t len,
             uint64_t units)
{
	uint8_t *epb = malloc(20 + (size_t)caplen);  /* Enhanced Packet (4.3) */
	uint32_t v[5] = { 0, (uint32_t)(units >> 32), (uint32_t)units, caplen,
	                  len };

	assert_non_null(c->ng);
	assert_non_null(epb);
	memcpy(epb, v, sizeof(v));
	memcpy(epb + 20, b, caplen);
	ng_block(c->ng, 6, epb, 20 + (size_t)caplen);
	free(epb);
}

void
cb_put_raw(struct cap *c, const uint8_t *b, uint32_t caplen, uint32_t len,
           int64_t ts)
{
	struct pcap_pkthdr h;
	int64_t div = 1;
	int i;

	if (caplen > (uint32_t)c->snaplen)
		caplen = (uint32_t)c->snaplen;
	if (c->ng != NULL) {
		for (i = c->tsresol; i < 9; i++)
			div *= 10;
		cb_put_units(c, b, caplen, len, (uint64_t)(ts / div));
		return;
	}
	h.ts.tv_sec = ts / 1000000000;
	h.ts.tv_usec = ts % 1000000000;  /* nanoseconds in a NANO dumper */
	h.len = len;
	h.caplen = caplen;
	pcap_dump((u_char *)c->d, &h, b);
}

void
cb_put(struct cap *c, const struct spec *s, int64_t ts)
{
	size_t n = cb_build(c->buf, s);

	cb_put_raw(c, c->buf, (uint32_t)n, (uint32_t)n, ts);
}

void
cb_close(struct cap *c)
{
	if (c->ng != NULL) {
		assert_int_equal(fclose(c->ng), 0);
		c->ng = NULL;
		return;
	}
	pcap_dump_close(c->d);
	pcap_close(c->p);
}

int
cb_tmpdir(char *dir, size_t len, const char *name)
{
	const char *t = getenv("TMPDIR");

	snprintf(dir, len, "%s/%s.XXXXXX", t ? t : "/tmp", name);
	return mkdtemp(dir) == NULL ? -1 : 0;
}

static int
rm_one(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb;
	(void)type;
	(void)ftw;
	return remove(path);
}

int
cb_rmdir(const char *dir)
{
	/* depth first, without following links out of the tree */
	return nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

void
cb_check_dir(const struct pflow_dir *d, const struct cb_dwant *w)
{
	assert_int_equal(d->packets, w->packets);
	assert_int_equal(d->data_packets, w->data_packets);
	assert_int_equal(d->retrans_packets, w->retrans_packets);
	assert_int_equal(d->fragments, w->fragments);
	assert_int_equal(d->payload, w->payload);
	assert_int_equal(d->retrans, w->retrans);
	assert_int_equal(d->l4, w->l4);
	assert_int_equal(d->l3, w->l3);
	assert_int_equal(d->l2, w->l2);
	assert_int_equal(d->pad, w->pad);
	assert_int_equal(d->l1, w->l1);
	assert_int_equal(d->wire, w->wire);
	assert_int_equal(d->data_wire, w->data_wire);
	assert_int_equal(d->payload + d->retrans + d->marker_bytes + d->l4 +
	                 d->l3 + d->l2 + d->pad + d->l1, d->wire);
}

void
cb_scan(struct pscan *s, const char *dir, const char *name, const char *filter)
{
	char path[512], err[512] = "";

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (pscan_file(s, path, filter, 1500, err, sizeof(err)) != 0)
		fail_msg("%s: %s", name, err);
}

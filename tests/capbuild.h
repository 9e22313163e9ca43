/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_TESTS_CAPBUILD_H
#define GPUT_TESTS_CAPBUILD_H

/* capbuild: frames built field by field and written as pcap (pcap_dump) or
 * pcapng, for the unit tests of gput-pcap. Failures are cmocka assertions. */
#include <pcap/pcap.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pcap_flow.h"

#define T0     1700000000000000000LL  /* first timestamp, ns */
#define FT_10M(wire) ((int64_t)(wire) * 800)  /* ns a frame takes on 10 Mb/s */

/* What to put in one frame. */
struct spec {
	int      dlt;
	int      tags, qinq, pppoe;
	int      v6;
	int      proto;         /* 6 or 17 */
	const char *src, *dst;
	uint16_t sport, dport;
	uint32_t seq;
	uint8_t  flags;         /* TCP flags; ACK is always set */
	unsigned tcp_opts;
	unsigned ip_opts;       /* IPv4 option bytes (NOPs) */
	unsigned payload;       /* application bytes */
	/* IPv4 fragments: l4 bytes (UDP header + data) this fragment carries,
	 * the offset in 8-byte units, more-fragments; udp_len the datagram's.
	 * With v6 they go into a Fragment header (RFC 8200 4.5). */
	int      frag;
	unsigned frag_bytes, frag_off8, mf, udp_len;
	uint16_t id;
	/* IPv6 extension headers before the upper layer, in this order:
	 * Hop-by-Hop of hbh bytes, then (if frag) the Fragment header, then
	 * Destination Options of dst_opts bytes (multiples of 8; 0: none).
	 * Later fragments carry only the Fragment header. */
	unsigned hbh, dst_opts;
	int      bad_ihl, bad_doff;  /* malformed on purpose */
	unsigned bad_total;
	unsigned pad_to;        /* pad the captured frame with a trailer */
	unsigned cut_to;        /* a frame that really was this short */
	const uint8_t *head;    /* the first payload bytes (the rest is 'x') */
	size_t   head_len;
};

void cb_put16(uint8_t *b, uint16_t v);
void cb_put32(uint8_t *b, uint32_t v);

void cb_put64(uint8_t *b, uint64_t v);

/* Build the frame for s into b (70000 bytes are enough for any); returns
 * the frame's length. */
size_t cb_build(uint8_t *b, const struct spec *s);

/* TCP over IPv4 from 10.0.0.1:40000 to 10.0.0.2:5038 on dlt, and the bare
 * ACK that answers d. */
struct spec cb_tcp4(int dlt, uint32_t seq, unsigned payload, unsigned opts);
struct spec cb_ack_of(const struct spec *d);

/* A gput UDP end marker (gput(1), UDP end markers): magic, version, index,
 * two zero bytes, datagrams and bytes sent (big-endian), zeros to 32. */
void cb_marker(uint8_t *b, const char *magic, uint8_t ver, uint8_t idx,
               uint64_t dgrams, uint64_t bytes);

/* gput's UDP data header (gput(1), "UDP data header"), 24 bytes at b:
 * "GPUD", stream id u32, sequence number u64, send time u64 (ns, 0: not
 * paced), big-endian. */
#define CB_GPUD_LEN 24
void cb_gpud(uint8_t *b, uint32_t stream, uint64_t seq, uint64_t send_ns);

/* A gput UDP data datagram over IPv4 from 10.0.0.1:40004 to
 * 10.0.0.2:5038 on dlt with payload bytes, which start with the header in
 * hdr (CB_GPUD_LEN bytes, kept by the spec: fill it with cb_gpud() before
 * each cb_put()). */
struct spec cb_gput4(int dlt, unsigned payload, const uint8_t *hdr);

/* A capture being written: pcap with nanosecond timestamps through
 * pcap_dump, or (cb_open_ng) pcapng with timestamps in units of
 * 10^-tsresol s (RFC-draft pcapng, if_tsresol). */
struct cap {
	pcap_t        *p;
	pcap_dumper_t *d;
	FILE          *ng;
	int            tsresol;
	int            snaplen;
	uint8_t        buf[70000];
};

void cb_open(struct cap *c, const char *dir, const char *name, int dlt,
             int snaplen);
void cb_open_ng(struct cap *c, const char *dir, const char *name, int dlt,
                int snaplen, int tsresol);
/* Add the frame for s at ts ns (pcapng: ts / 10^(9 - tsresol) units;
 * tsresol 0 to 9). */
void cb_put(struct cap *c, const struct spec *s, int64_t ts);
/* Add raw bytes, caplen captured of len on the wire, at ts ns. */
void cb_put_raw(struct cap *c, const uint8_t *b, uint32_t caplen,
                uint32_t len, int64_t ts);
/* pcapng only: add raw bytes with a timestamp of units as the file has
 * them (an Enhanced Packet Block's 64 bits). */
void cb_put_units(struct cap *c, const uint8_t *b, uint32_t caplen,
                  uint32_t len, uint64_t units);
void cb_close(struct cap *c);

/* A fresh heap struct cap, asserted. */
struct cap *cb_new(void);

/* Expected sums of one direction of a flow. */
struct cb_dwant {
	uint64_t packets, data_packets, retrans_packets, fragments;
	uint64_t payload, retrans, l4, l3, l2, pad, l1, wire, data_wire;
};

/* Assert d's sums equal w's, and its layers add up to its wire bytes. */
void cb_check_dir(const struct pflow_dir *d, const struct cb_dwant *w);

/* A new directory TMPDIR/name.XXXXXX (TMPDIR defaults to /tmp) into dir
 * (len bytes) for a test's captures. Returns 0, or -1. */
int cb_tmpdir(char *dir, size_t len, const char *name);
/* Remove dir and everything below it. Returns 0, or -1. */
int cb_rmdir(const char *dir);

struct pscan;
/* Scan dir/name with filter (NULL: none) at MTU 1500 into s, as gput-pcap
 * does; a capture it refuses fails the test with its error. */
void cb_scan(struct pscan *s, const char *dir, const char *name,
             const char *filter);

#endif

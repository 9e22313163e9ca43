/* SPDX-License-Identifier: BSD-2-Clause */
/* overhead.c: header sizes per layer, frames per message, eta and eta*C. */
#include "overhead.h"

#include <stdio.h>
#include <string.h>

/* Per-frame constants derived from a configuration. */
struct framing {
	unsigned l2;      /* MAC header + tags + PPPoE + FCS */
	unsigned l3;      /* IP header with options / extension headers */
	unsigned l4;      /* transport header with options */
	unsigned max_ip;  /* largest IP packet: the MTU, capped by the IP length field */
};

static unsigned
ip_header(const struct ovh_conf *c)
{
	return (c->ipv6 ? OVH_IPV6_HDR : OVH_IPV4_HDR) + c->ip_opts;
}

/* IPv4 Total Length counts the header (RFC 791); IPv6 Payload Length does not
 * (RFC 8200), so an IPv6 packet without jumbograms can be 65535 + 40 bytes. */
static unsigned
max_packet(const struct ovh_conf *c)
{
	unsigned cap = c->ipv6 ? OVH_IPV4_MAX + OVH_IPV6_HDR : OVH_IPV4_MAX;

	return c->mtu < cap ? c->mtu : cap;
}

unsigned
ovh_tcp_mss(const struct ovh_conf *c)
{
	unsigned hdr = ip_header(c) + OVH_TCP_HDR + c->tcp_opts;

	if (c->mss != 0)
		return c->mss;
	return max_packet(c) > hdr ? max_packet(c) - hdr : 0;
}

uint64_t
ovh_eth_wire(uint64_t l2_len, uint64_t *pad)
{
	uint64_t min = OVH_ETH_MIN_FRAME - OVH_ETH_FCS;
	uint64_t p = l2_len < min ? min - l2_len : 0;

	if (pad != NULL)
		*pad = p;
	return l2_len + p + OVH_ETH_FCS + OVH_ETH_L1;
}

double
ovh_expected_bps(const struct ovh_msg *m, double link_bps)
{
	return m->eta * link_bps;
}

static int
check_conf(const struct ovh_conf *c, char *err, size_t errlen)
{
	if (c->proto != OVH_TCP && c->proto != OVH_UDP) {
		snprintf(err, errlen, "unknown transport protocol %d", (int)c->proto);
		return -1;
	}
	if (!c->ipv6 && (c->ip_opts % 4 != 0 || c->ip_opts > 40)) {
		snprintf(err, errlen, "IPv4 options of %u bytes: must be a multiple "
		         "of 4, at most 40", c->ip_opts);
		return -1;
	}
	if (c->ipv6 && c->ip_opts % 8 != 0) {
		snprintf(err, errlen, "IPv6 extension headers of %u bytes: must be "
		         "a multiple of 8", c->ip_opts);
		return -1;
	}
	if (c->tcp_opts % 4 != 0 || c->tcp_opts > 40) {
		snprintf(err, errlen, "TCP options of %u bytes: must be a multiple "
		         "of 4, at most 40", c->tcp_opts);
		return -1;
	}
	if (c->vlan_tags > 8) {
		snprintf(err, errlen, "%u 802.1Q tags: at most 8", c->vlan_tags);
		return -1;
	}
	return 0;
}

/* Add n frames that each carry payload, l4 and l3 bytes. */
static void
add_frames(struct ovh_msg *m, const struct framing *f, uint64_t n,
           uint64_t payload, uint64_t l4, uint64_t l3)
{
	uint64_t pad, wire;

	if (n == 0)
		return;
	/* the FCS is part of f->l2 but not of the length the padding is for */
	wire = ovh_eth_wire(f->l2 - OVH_ETH_FCS + l3 + l4 + payload, &pad);
	m->frames += n;
	m->bytes.payload += n * payload;
	m->bytes.l4 += n * l4;
	m->bytes.l3 += n * l3;
	m->bytes.l2 += n * f->l2;
	m->bytes.pad += n * pad;
	m->bytes.l1 += n * OVH_ETH_L1;
	m->wire += n * wire;
}

/* TCP: full segments of mss bytes and one shorter last segment. In bulk mode
 * only one full segment is described (see overhead.h). */
static int
tcp_message(const struct ovh_conf *c, const struct framing *f, uint64_t msg,
            struct ovh_msg *m, char *err, size_t errlen)
{
	unsigned mss = ovh_tcp_mss(c);

	if (mss == 0) {
		snprintf(err, errlen, "MTU %u leaves no room for TCP payload after "
		         "%u bytes of IP and TCP headers", c->mtu, f->l3 + f->l4);
		return -1;
	}
	if ((uint64_t)mss + f->l3 + f->l4 > f->max_ip) {
		snprintf(err, errlen, "MSS %u plus %u bytes of IP and TCP headers "
		         "exceeds the largest IP packet (%u bytes)", mss,
		         f->l3 + f->l4, f->max_ip);
		return -1;
	}
	m->full_payload = mss;
	m->msg_frames = (double)msg / mss;
	if (!c->per_message) {
		m->bulk = 1;
		add_frames(m, f, 1, mss, f->l4, f->l3);
		return 0;
	}
	add_frames(m, f, msg / mss, mss, f->l4, f->l3);
	add_frames(m, f, msg % mss != 0, msg % mss, f->l4, f->l3);
	m->msg_frames = (double)m->frames;
	return 0;
}

/* UDP: one datagram, or IP fragments whose data (UDP header + payload) is cut
 * into pieces of a multiple of 8 bytes (RFC 791 3.2 Fragment Offset, RFC 8200
 * 4.5). Every fragment repeats the IP header (IPv4 options are assumed to be
 * copied, IPv6 extension headers to be in the unfragmentable part) and IPv6
 * adds a Fragment header to each. */
static int
udp_message(const struct ovh_conf *c, const struct framing *f, uint64_t msg,
            struct ovh_msg *m, char *err, size_t errlen)
{
	uint64_t limit = OVH_IPV4_MAX - OVH_UDP_HDR - (c->ipv6 ? c->ip_opts : f->l3);
	uint64_t data = msg + OVH_UDP_HDR, chunk, n, last;
	unsigned l3 = f->l3 + (c->ipv6 ? OVH_IPV6_FRAG : 0);

	if (msg > limit) {
		snprintf(err, errlen, "UDP payload of %llu bytes exceeds the "
		         "largest datagram (%llu bytes)", (unsigned long long)msg,
		         (unsigned long long)limit);
		return -1;
	}
	if (f->l3 + data <= f->max_ip) {
		m->full_payload = (unsigned)msg;
		add_frames(m, f, 1, msg, OVH_UDP_HDR, f->l3);
		m->msg_frames = 1;
		return 0;
	}
	chunk = f->max_ip > l3 ? (f->max_ip - l3) / 8 * 8 : 0;
	if (chunk < 2 * OVH_UDP_HDR) {
		snprintf(err, errlen, "MTU %u is too small to fragment a UDP "
		         "datagram after %u bytes of IP headers", c->mtu, l3);
		return -1;
	}
	n = (data + chunk - 1) / chunk;
	last = data - (n - 1) * chunk;
	m->full_payload = (unsigned)(chunk - OVH_UDP_HDR);
	add_frames(m, f, 1, chunk - OVH_UDP_HDR, OVH_UDP_HDR, l3);
	add_frames(m, f, n - 2, chunk, 0, l3);
	add_frames(m, f, 1, last, 0, l3);
	m->msg_frames = (double)m->frames;
	return 0;
}

/* The per-frame constants of c, checked. Returns 0, or -1 with err filled. */
static int
framing_init(const struct ovh_conf *c, struct framing *f, char *err,
             size_t errlen)
{
	if (check_conf(c, err, errlen) == -1)
		return -1;
	f->l2 = OVH_ETH_HDR + OVH_ETH_FCS + c->vlan_tags * OVH_VLAN_TAG +
	        (c->pppoe ? OVH_PPPOE_HDR : 0);
	f->l3 = ip_header(c);
	f->l4 = c->proto == OVH_TCP ? OVH_TCP_HDR + c->tcp_opts : OVH_UDP_HDR;
	f->max_ip = max_packet(c);
	if (f->max_ip <= f->l3 + f->l4) {
		snprintf(err, errlen, "MTU %u leaves no room for payload after %u "
		         "bytes of IP and %s headers", c->mtu, f->l3 + f->l4,
		         c->proto == OVH_TCP ? "TCP" : "UDP");
		return -1;
	}
	return 0;
}

int
ovh_message(const struct ovh_conf *c, uint64_t msg_bytes, struct ovh_msg *out,
            char *err, size_t errlen)
{
	struct framing f;
	int rc;

	memset(out, 0, sizeof(*out));
	if (framing_init(c, &f, err, errlen) == -1)
		return -1;
	if (msg_bytes == 0) {
		snprintf(err, errlen, "message size must be at least 1 byte");
		return -1;
	}
	if (c->proto == OVH_TCP)
		rc = tcp_message(c, &f, msg_bytes, out, err, errlen);
	else
		rc = udp_message(c, &f, msg_bytes, out, err, errlen);
	if (rc == -1) {
		memset(out, 0, sizeof(*out));
		return -1;
	}
	out->eta = (double)out->bytes.payload / (double)out->wire;
	return 0;
}

int
ovh_tcp_stream(const struct ovh_conf *c, uint64_t bytes, uint64_t segs,
               struct ovh_msg *out, char *err, size_t errlen)
{
	struct framing f;
	uint64_t q, r;
	unsigned mss;

	memset(out, 0, sizeof(*out));
	if (c->proto != OVH_TCP) {
		snprintf(err, errlen, "a segment count describes TCP only");
		return -1;
	}
	if (framing_init(c, &f, err, errlen) == -1)
		return -1;
	if (segs == 0 || bytes < segs) {
		snprintf(err, errlen, "%llu bytes cannot fill %llu data segments",
		         (unsigned long long)bytes, (unsigned long long)segs);
		return -1;
	}
	mss = ovh_tcp_mss(c);
	q = bytes / segs;
	r = bytes % segs;
	if (q + (r != 0) > mss) {
		snprintf(err, errlen, "%llu bytes in %llu segments exceed the MSS "
		         "of %u", (unsigned long long)bytes,
		         (unsigned long long)segs, mss);
		return -1;
	}
	/* as even as the counts allow: r segments one byte longer */
	add_frames(out, &f, segs - r, q, f.l4, f.l3);
	add_frames(out, &f, r, q + 1, f.l4, f.l3);
	out->full_payload = mss;
	out->msg_frames = (double)segs;
	out->eta = (double)out->bytes.payload / (double)out->wire;
	return 0;
}

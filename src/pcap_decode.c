/* SPDX-License-Identifier: BSD-2-Clause */
/* pcap_decode.c: one captured frame to sizes per layer. Every read goes
 * through the byte codec's bounds-checked cursor (bytes.h); nothing is read
 * past caplen. */
#include "pcap_decode.h"

#include <netinet/in.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <string.h>

#include "bytes.h"
#include "overhead.h"
#include "wire_ctl.h"
#include "wire_udp.h"

/* The captured bytes of one frame, read through a cursor (bytes.h): a
 * header's fields are read, then its one check of the cursor's sticky
 * error says whether they were all captured. */
struct pkt {
	struct bytes   c;       /* the caplen bytes captured */
	uint32_t       caplen;  /* bytes captured */
	uint32_t       len;     /* bytes the frame had */
};

/* A header of n bytes at off is missing: cut by the snaplen if the frame
 * was longer than what was captured, malformed otherwise. */
static enum pdec_result
missing(struct pkt *k, size_t off, size_t n, const char *what,
        char *why, size_t whylen)
{
	if (off + n <= k->len && k->caplen < k->len)
		return PDEC_CUT;
	snprintf(why, whylen, "%s of %zu bytes at offset %zu runs past the %u "
	         "captured bytes", what, n, off, k->caplen);
	return PDEC_BAD;
}

#define ETHERTYPE_IPV4   0x0800
#define ETHERTYPE_IPV6   0x86dd
#define ETHERTYPE_VLAN   0x8100  /* IEEE 802.1Q C-tag */
#define ETHERTYPE_QINQ   0x88a8  /* IEEE 802.1ad S-tag */
#define ETHERTYPE_QINQ9  0x9100  /* pre-standard S-tag */
#define ETHERTYPE_PPPOES 0x8864  /* RFC 2516 session stage */
#define PPP_IPV4         0x0021  /* RFC 1332 */
#define PPP_IPV6         0x0057  /* RFC 5072 */
#define MAX_TAGS         8

/* The EtherType at type_off (in a MAC header, or the SLL/SLL2 protocol
 * field), then from body_off: 802.1Q/802.1ad tags (4 bytes: TCI 2 + next
 * type 2; IEEE 802.1Q 9.6) and a PPPoE session header (RFC 2516 4: ver/type
 * 1, code 1, session 2, length 2, then the PPP protocol field 2, RFC 1661 2).
 * Sets *ipv to 4, 6 or 0 and *off to the IP header. */
static enum pdec_result
ethertype(struct pkt *k, size_t type_off, size_t body_off, size_t *off,
          struct pdec_frame *fr, int *ipv, char *why, size_t whylen)
{
	uint16_t type;

	*ipv = 0;
	*off = body_off;
	type = bytes_be16(&k->c, type_off);
	if (bytes_bad(&k->c) || body_off > k->caplen)
		return missing(k, 0, body_off, "link-layer header", why, whylen);
	while (type == ETHERTYPE_VLAN || type == ETHERTYPE_QINQ ||
	       type == ETHERTYPE_QINQ9) {
		if (++fr->vlan_tags > MAX_TAGS)
			return PDEC_OTHER;
		type = bytes_be16(&k->c, *off + 2);
		if (bytes_bad(&k->c))
			return missing(k, *off, 4, "802.1Q tag", why, whylen);
		*off += 4;
	}
	if (type == ETHERTYPE_PPPOES) {
		type = bytes_be16(&k->c, *off + 6);
		if (bytes_bad(&k->c))
			return missing(k, *off, 8, "PPPoE header", why, whylen);
		fr->pppoe = 1;
		*off += 8;
		type = type == PPP_IPV4 ? ETHERTYPE_IPV4 :
		       type == PPP_IPV6 ? ETHERTYPE_IPV6 : 0;
	}
	if (type == ETHERTYPE_IPV4)
		*ipv = 4;
	else if (type == ETHERTYPE_IPV6)
		*ipv = 6;
	return PDEC_OK;
}

/* NULL and LOOP: a 4-byte address family, in the capturing host's byte order
 * (NULL) or big-endian (LOOP); 2 is IPv4, 24, 28 and 30 are IPv6 on the BSDs
 * and macOS (pcap-linktype(7)). Both byte orders are accepted: af is the
 * field read big-endian, sw little-endian. */
static int
af_to_ipv(uint32_t af, uint32_t sw)
{
	if (af == 2 || sw == 2)
		return 4;
	if (af == 24 || af == 28 || af == 30 || sw == 24 || sw == 28 || sw == 30)
		return 6;
	return 0;
}

/* Link layer: sets *off to the IP header and *ipv to 4 or 6 (0: not IP). */
static enum pdec_result
link_layer(int dlt, struct pkt *k, size_t *off, struct pdec_frame *fr,
           int *ipv, char *why, size_t whylen)
{
	uint8_t v;
	uint32_t af;

	*off = 0;
	fr->l2_hdr = OVH_ETH_HDR;
	switch (dlt) {
	case DLT_EN10MB:     /* IEEE 802.3 3.1.1: dst 6, src 6, type 2 */
		return ethertype(k, 12, 14, off, fr, ipv, why, whylen);
	case DLT_LINUX_SLL:  /* pcap-linktype(7): 16 bytes, protocol at 14 */
		return ethertype(k, 14, 16, off, fr, ipv, why, whylen);
	case DLT_LINUX_SLL2: /* 20 bytes, protocol at 0 */
		return ethertype(k, 0, 20, off, fr, ipv, why, whylen);
	case DLT_NULL:
	case DLT_LOOP:
		af = bytes_be32(&k->c, 0);
		if (bytes_bad(&k->c))
			return missing(k, 0, 4, "loopback header", why, whylen);
		*off = 4;
		*ipv = af_to_ipv(af, bytes_le32(&k->c, 0));
		return PDEC_OK;
	default:  /* DLT_RAW, DLT_IPV4, DLT_IPV6: the IP header comes first */
		v = bytes_u8(&k->c, 0);
		if (bytes_bad(&k->c))
			return missing(k, 0, 1, "IP header", why, whylen);
		*ipv = v >> 4 == 4 ? 4 : v >> 4 == 6 ? 6 : 0;
		return PDEC_OK;
	}
}

int
pdec_supported(int dlt)
{
	switch (dlt) {
	case DLT_EN10MB: case DLT_LINUX_SLL: case DLT_LINUX_SLL2: case DLT_RAW:
	case DLT_IPV4: case DLT_IPV6: case DLT_NULL: case DLT_LOOP:
		return 1;
	default:
		return 0;
	}
}

/* The IP packet must fit in the frame as it was on the wire. */
static enum pdec_result
check_ip_len(struct pkt *k, size_t off, const struct pdec_frame *fr,
             const char *ip, char *why, size_t whylen)
{
	if (fr->ip_len < fr->l3_hdr) {
		snprintf(why, whylen, "%s length %u is shorter than its %u-byte "
		         "header", ip, fr->ip_len, fr->l3_hdr);
		return PDEC_BAD;
	}
	if (off + fr->ip_len > k->len) {
		snprintf(why, whylen, "%s length %u runs past the end of the "
		         "frame (%u bytes after the link header)", ip, fr->ip_len,
		         k->len - (uint32_t)off);
		return PDEC_BAD;
	}
	return PDEC_OK;
}

/* IPv4, RFC 791 3.1: version/IHL 1, TOS 1, total length 2, id 2,
 * flags/fragment offset 2, TTL 1, protocol 1, checksum 2, src 4, dst 4,
 * options to IHL * 4. */
static enum pdec_result
ipv4(struct pkt *k, size_t off, struct pdec_frame *fr, char *why,
     size_t whylen)
{
	struct bytes *c = &k->c;
	uint8_t vihl = bytes_u8(c, off);
	uint16_t total = bytes_be16(c, off + 2), id = bytes_be16(c, off + 4),
	    frag = bytes_be16(c, off + 6);

	fr->proto = bytes_u8(c, off + 9);
	bytes_get(c, off + 12, fr->src, 4);
	bytes_get(c, off + 16, fr->dst, 4);
	if (bytes_bad(c))
		return missing(k, off, 20, "IPv4 header", why, whylen);
	if (vihl >> 4 != 4) {
		snprintf(why, whylen, "IPv4 header with version %u", vihl >> 4);
		return PDEC_BAD;
	}
	fr->ipv = 4;
	fr->l3_hdr = (vihl & 0x0f) * 4u;
	/* Total length 0: a TSO/BIG TCP super-packet; take the frame's length */
	fr->ip_len = total != 0 ? total : k->len - (uint32_t)off;
	if (fr->l3_hdr < OVH_IPV4_HDR) {
		snprintf(why, whylen, "IPv4 header length %u is below 20",
		         fr->l3_hdr);
		return PDEC_BAD;
	}
	if (check_ip_len(k, off, fr, "IPv4 total", why, whylen) != PDEC_OK)
		return PDEC_BAD;
	fr->frag_id = id;
	fr->frag_off = (frag & 0x1fffu) * 8;  /* in 8-byte units */
	fr->frag_more = (frag & 0x2000) != 0;  /* MF */
	fr->frag_len = fr->ip_len - fr->l3_hdr;
	if (fr->frag_off != 0)
		fr->frag = 2;
	else if (fr->frag_more)
		fr->frag = 1;
	return PDEC_OK;
}

#define IP6_HOPOPTS  0
#define IP6_ROUTING 43
#define IP6_FRAGMENT 44
#define IP6_AH      51
#define IP6_DSTOPTS 60

static int
ip6_is_ext(uint8_t nh)
{
	return nh == IP6_HOPOPTS || nh == IP6_ROUTING || nh == IP6_FRAGMENT ||
	       nh == IP6_AH || nh == IP6_DSTOPTS;
}

/* IPv6 extension headers, RFC 8200 4: Hop-by-Hop, Routing and Destination
 * Options are (Hdr Ext Len + 1) * 8 bytes (4.3, 4.4, 4.6: next 1, length 1,
 * ...); Fragment is 8 (4.5: next 1, reserved 1, offset/M 2, identification
 * 4); AH is (Payload Len + 2) * 4 (RFC 4302 2.2). Leaves fr->l3_hdr past
 * them and fr->proto at the upper layer. In a later fragment (offset not 0)
 * the bytes after the Fragment header are the middle of the original
 * packet, not headers: the walk stops there, and fr->proto is the Fragment
 * header's next header, which may be an extension header (4.5). */
static enum pdec_result
ipv6_ext(struct pkt *k, size_t off, struct pdec_frame *fr, char *why,
         size_t whylen)
{
	uint8_t nh = fr->proto, hl;
	uint16_t offm;
	size_t cur = off + OVH_IPV6_HDR, n;
	int i;

	for (i = 0; i < 16 && fr->frag != 2; i++) {
		if (!ip6_is_ext(nh))
			break;
		if (cur + 8 > off + fr->ip_len) {
			snprintf(why, whylen, "IPv6 extension header runs past "
			         "the %u-byte packet", fr->ip_len);
			return PDEC_BAD;
		}
		hl = bytes_u8(&k->c, cur + 1);
		offm = bytes_be16(&k->c, cur + 2);
		if (bytes_bad(&k->c))
			return missing(k, cur, 8, "IPv6 extension header", why,
			               whylen);
		if (nh == IP6_FRAGMENT) {
			n = 8;
			fr->frag_id = bytes_be32(&k->c, cur + 4);
			if (bytes_bad(&k->c))
				return missing(k, cur, 8, "IPv6 Fragment header",
				               why, whylen);
			fr->frag_off = offm & 0xfff8u;
			fr->frag_more = offm & 1;
			fr->frag = fr->frag_off != 0 ? 2 : fr->frag_more ? 1 : 0;
			/* its data starts after this header, which the
			 * check above keeps inside the packet */
			fr->frag_len = (unsigned)(off + fr->ip_len - (cur + 8));
		} else {
			n = nh == IP6_AH ? (hl + 2u) * 4 : (hl + 1u) * 8;
		}
		nh = bytes_u8(&k->c, cur);
		if (bytes_bad(&k->c))
			return missing(k, cur, 1, "IPv6 extension header", why,
			               whylen);
		cur += n;
	}
	fr->proto = nh;
	fr->l3_hdr = (unsigned)(cur - off);
	return check_ip_len(k, off, fr, "IPv6 packet", why, whylen);
}

/* IPv6, RFC 8200 3: version/class/label 4, payload length 2, next header 1,
 * hop limit 1, src 16, dst 16. */
static enum pdec_result
ipv6(struct pkt *k, size_t off, struct pdec_frame *fr, char *why,
     size_t whylen)
{
	struct bytes *c = &k->c;
	uint8_t v = bytes_u8(c, off);
	uint16_t plen = bytes_be16(c, off + 4);

	fr->proto = bytes_u8(c, off + 6);
	bytes_get(c, off + 8, fr->src, 16);
	bytes_get(c, off + 24, fr->dst, 16);
	if (bytes_bad(c))
		return missing(k, off, 40, "IPv6 header", why, whylen);
	if (v >> 4 != 6) {
		snprintf(why, whylen, "IPv6 header with version %u", v >> 4);
		return PDEC_BAD;
	}
	fr->ipv = 6;
	/* Payload length 0: a jumbogram or BIG TCP packet; take the frame's */
	fr->ip_len = plen != 0 ? OVH_IPV6_HDR + plen : k->len - (uint32_t)off;
	fr->l3_hdr = OVH_IPV6_HDR;
	if (check_ip_len(k, off, fr, "IPv6 packet", why, whylen) != PDEC_OK)
		return PDEC_BAD;
	return ipv6_ext(k, off, fr, why, whylen);
}

/* The bytes of the packet's UDP payload at off that were captured: at
 * most payload, fewer when the snaplen cut them. */
static size_t
captured(struct pkt *k, size_t off, unsigned payload)
{
	size_t n = off < k->caplen ? k->caplen - off : 0;

	return n < payload ? n : payload;
}

/* gput's UDP end-of-transfer marker (wire_udp.h, gput(1) "UDP end
 * markers"): a datagram of MARKER_BASE_LEN to MARKER_MAX_LEN bytes (longer
 * than 32 only when data datagrams have that length) that starts as one.
 * Only its first 6 bytes are needed to know it: a datagram whose snaplen
 * cut them off counts as data, since nothing then tells it from a short
 * data datagram; the count is taken when it was captured. off is the UDP
 * payload. */
static int
gput_marker(struct pkt *k, size_t off, unsigned payload,
            struct pdec_frame *fr)
{
	struct wire_gpue m;

	if (payload < MARKER_BASE_LEN || payload > MARKER_MAX_LEN ||
	    wire_gpue_decode(k->c.p + off, captured(k, off, payload), &m) ==
	    WIRE_NONE)
		return 0;
	fr->end_marker = 1;
	fr->end_has_count = m.have_dgrams;
	fr->end_dgrams = m.dgrams;
	return 1;
}

/* gput's UDP data header (wire_udp.h) at off, the UDP payload of a whole
 * datagram or of a first fragment, of which payload bytes are in this
 * packet. A header that a first fragment does not hold whole is not looked
 * for: the header is in the first fragment. A header cut by the snaplen
 * is known by its 4 magic bytes; with fewer captured, nothing tells it from
 * other data (an end marker starts "GPUE"), and it counts as data. */
static void
gput_data(struct pkt *k, size_t off, unsigned payload,
          struct pdec_frame *fr)
{
	struct wire_gpud d;

	if (payload < WIRE_GPUD_LEN)
		return;
	switch (wire_gpud_decode(k->c.p + off, captured(k, off, payload), &d)) {
	case WIRE_NONE:
		return;
	case WIRE_CUT:
		fr->gpud = PDEC_GPUD_CUT;
		return;
	case WIRE_OK:
		break;
	}
	fr->gpud = PDEC_GPUD_DATA;
	fr->gpud_stream = d.stream;
	fr->gpud_seq = d.seq;
	fr->gpud_send_ns = d.send_ns;
}

/* gput's UDP datagrams of the data path's setup (wire_udp.h), each in its
 * own lengths and starting as one: the proof (GPUH, the client's data
 * socket to the partner's), the partner's cookie (GPUC) and the client's
 * echo of it (GPUK, the return path validated before the partner sends);
 * and --sliding-window's acknowledgements (GPUA, 24 bytes, the receiver's
 * answer to each data datagram). Control, not payload, so they are
 * counted with the end markers. */
static int
gput_setup(struct pkt *k, size_t off, unsigned payload)
{
	struct wire_cookie c;
	struct wire_gpua a;
	size_t n = captured(k, off, payload);

	if (payload >= PROOF_BASE_LEN && payload <= PROOF_MAX_LEN)
		return wire_gpuh_is(k->c.p + off, n);
	if (payload == WIRE_GPUA_LEN)
		return wire_gpua_decode(k->c.p + off, n, payload, &a) != WIRE_NONE;
	return wire_gpuc_decode(k->c.p + off, n, payload, &c) != WIRE_NONE ||
	    wire_gpuk_decode(k->c.p + off, n, payload, &c) != WIRE_NONE;
}

/* TCP (RFC 9293 3.1: ports 4, seq 4, ack 4, data offset/flags 2, ...) or UDP
 * (RFC 768: ports 4, length 2, checksum 2) at off, avail bytes of IP payload. */
static enum pdec_result
transport(struct pkt *k, size_t off, unsigned avail,
          struct pdec_frame *fr, char *why, size_t whylen)
{
	struct bytes *c = &k->c;
	uint8_t doff = 0;
	uint16_t ulen = 0;
	unsigned need = fr->proto == IPPROTO_TCP ? OVH_TCP_HDR : OVH_UDP_HDR;
	const char *name = fr->proto == IPPROTO_TCP ? "TCP" : "UDP";

	if (avail < need) {
		snprintf(why, whylen, "%s header of %u bytes in an IP payload of "
		         "%u", name, need, avail);
		return PDEC_BAD;
	}
	fr->sport = bytes_be16(c, off);
	fr->dport = bytes_be16(c, off + 2);
	if (fr->proto == IPPROTO_TCP) {
		fr->seq = bytes_be32(c, off + 4);
		doff = bytes_u8(c, off + 12);
		fr->tcp_flags = bytes_u8(c, off + 13);
	} else {
		ulen = bytes_be16(c, off + 4);
	}
	if (bytes_bad(c))
		return missing(k, off, need, fr->proto == IPPROTO_TCP ?
		               "TCP header" : "UDP header", why, whylen);
	fr->l4_hdr = need;
	if (fr->proto == IPPROTO_TCP) {
		fr->l4_hdr = (doff >> 4) * 4u;
		if (fr->l4_hdr < OVH_TCP_HDR || fr->l4_hdr > avail) {
			snprintf(why, whylen, "TCP header length %u does not fit "
			         "a %u-byte IP payload", fr->l4_hdr, avail);
			return PDEC_BAD;
		}
	} else if (fr->frag == 0 && ulen != 0 && (ulen < 8 || ulen > avail)) {
		snprintf(why, whylen, "UDP length %u does not fit a %u-byte IP "
		         "payload", ulen, avail);
		return PDEC_BAD;
	} else if (fr->frag == 0 && ulen != 0) {
		avail = ulen;  /* bytes past the UDP length are not payload */
	}
	fr->payload = avail - fr->l4_hdr;
	if (fr->proto == IPPROTO_UDP && fr->frag == 0)
		fr->marker = gput_marker(k, off + fr->l4_hdr, fr->payload, fr) ||
		    gput_setup(k, off + fr->l4_hdr, fr->payload);
	if (fr->proto == IPPROTO_UDP && !fr->marker)
		gput_data(k, off + fr->l4_hdr, fr->payload, fr);
	if (fr->proto == IPPROTO_TCP && fr->payload == CTL_DATA_HELLO_LEN &&
	    captured(k, off + fr->l4_hdr, fr->payload) == CTL_DATA_HELLO_LEN)
		fr->tcp_hello = ctl_data_hello_stream(k->c.p + off + fr->l4_hdr,
		    CTL_DATA_HELLO_LEN);
	return PDEC_OK;
}

enum pdec_result
pdec_frame(int dlt, const uint8_t *bytes, uint32_t caplen, uint32_t len,
           struct pdec_frame *fr, char *why, size_t whylen)
{
	struct pkt k = { bytes_reader(bytes, caplen), caplen,
	    len < caplen ? caplen : len };
	enum pdec_result r;
	size_t off;
	int ipv;

	memset(fr, 0, sizeof(*fr));
	r = link_layer(dlt, &k, &off, fr, &ipv, why, whylen);
	if (r != PDEC_OK || ipv == 0)
		return r != PDEC_OK ? r : PDEC_OTHER;
	if (dlt == DLT_EN10MB)
		fr->l2_hdr = (unsigned)off;
	else
		fr->l2_hdr = OVH_ETH_HDR + fr->vlan_tags * OVH_VLAN_TAG +
		             (fr->pppoe ? OVH_PPPOE_HDR : 0);
	r = ipv == 4 ? ipv4(&k, off, fr, why, whylen) :
	    ipv6(&k, off, fr, why, whylen);
	if (r != PDEC_OK)
		return r;
	/* A later fragment has no transport header; an IPv6 one may name an
	 * extension header that its first fragment carries before TCP/UDP.
	 * Its flow is the one its first fragment names (pcap_flow.c). */
	if (fr->frag == 2 && (fr->proto == IPPROTO_TCP ||
	    fr->proto == IPPROTO_UDP || (ipv == 6 && ip6_is_ext(fr->proto)))) {
		fr->payload = fr->ip_len - fr->l3_hdr;
		return PDEC_OK;
	}
	if (fr->proto != IPPROTO_TCP && fr->proto != IPPROTO_UDP)
		return PDEC_OTHER;
	/* A first fragment too short for the TCP/UDP header (legal, if
	 * suspect: RFC 1858 3.1) names no ports, so no flow: counted like a
	 * later fragment, its datagram can never be complete. */
	if (fr->frag == 1 && fr->ip_len - fr->l3_hdr <
	    (fr->proto == IPPROTO_TCP ? OVH_TCP_HDR : OVH_UDP_HDR)) {
		fr->frag = 2;
		fr->payload = fr->ip_len - fr->l3_hdr;
		return PDEC_OK;
	}
	return transport(&k, off + fr->l3_hdr, fr->ip_len - fr->l3_hdr, fr, why,
	                 whylen);
}

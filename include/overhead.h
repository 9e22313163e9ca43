/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_OVERHEAD_H
#define GPUT_OVERHEAD_H

#include <stddef.h>
#include <stdint.h>

/*
 * The overhead model: how many frames an application message becomes on an
 * Ethernet link, the bytes each layer adds, the bytes on the wire, and the
 * efficiency eta = payload / wire. Pure arithmetic, no I/O.
 *
 * Ethernet framing (IEEE 802.3-2018). A frame on the wire is
 *   preamble 7 + SFD 1 (clause 3.1.1, 3.2.1, 3.2.2)
 *   MAC header: destination 6, source 6, length/type 2 (clause 3.1.1)
 *   [802.1Q tags, 4 bytes each: TPID 2 + TCI 2 (IEEE 802.1Q-2018, 9.6)]
 *   [PPPoE session header 6 (RFC 2516, section 4) + PPP protocol 2 (RFC 1661, 2)]
 *   IP packet, padded so that MAC header .. FCS is at least 64 bytes
 *     (minFrameSize = 512 bits, clause 4.4.2; pad, clause 3.2.8)
 *   FCS 4 (clause 3.2.9)
 *   inter-packet gap 12 (96 bit times, clause 4.4.2)
 * Captures hold neither preamble, SFD, FCS nor gap, which is why 38 bytes of
 * Ethernet overhead per frame (14 + 4 + 8 + 12) are more than a capture shows.
 */
#define OVH_ETH_PREAMBLE   8u  /* preamble + SFD */
#define OVH_ETH_IFG       12u  /* inter-packet gap */
#define OVH_ETH_L1        (OVH_ETH_PREAMBLE + OVH_ETH_IFG)
#define OVH_ETH_HDR       14u  /* MAC header, untagged */
#define OVH_ETH_FCS        4u
#define OVH_ETH_MIN_FRAME 64u  /* MAC header to FCS inclusive */
#define OVH_VLAN_TAG       4u
#define OVH_PPPOE_HDR      8u  /* PPPoE session header + PPP protocol field */
#define OVH_IPV4_HDR      20u  /* RFC 791, 3.1, without options */
#define OVH_IPV4_MAX   65535u  /* RFC 791: Total Length is 16 bits */
#define OVH_IPV6_HDR      40u  /* RFC 8200, 3 */
#define OVH_IPV6_FRAG      8u  /* RFC 8200, 4.5: Fragment header */
#define OVH_TCP_HDR       20u  /* RFC 9293, 3.1, without options */
#define OVH_TCP_TS_OPT    12u  /* RFC 7323, 3.2: 10-byte option + 2 NOPs */
#define OVH_UDP_HDR        8u  /* RFC 768 */

enum ovh_proto { OVH_TCP, OVH_UDP };

struct ovh_conf {
	enum ovh_proto proto;
	int      ipv6;        /* 0: IPv4 (20-byte header), 1: IPv6 (40) */
	unsigned mtu;         /* IP MTU in bytes, e.g. 1500, 1492, 9000 */
	unsigned ip_opts;     /* IPv4 option bytes (multiple of 4, at most 40) or
	                         IPv6 extension header bytes (multiple of 8),
	                         repeated in every frame and fragment */
	unsigned tcp_opts;    /* TCP option bytes in every segment: 12 with
	                         timestamps, 0 without (multiple of 4, <= 40) */
	unsigned mss;         /* TCP payload of a full segment;
	                         0 = mtu - ip - 20 - tcp_opts */
	unsigned vlan_tags;   /* 802.1Q tags, 4 bytes each (at most 8) */
	int      pppoe;       /* PPPoE session + PPP header (6 + 2 bytes) in every
	                         frame; mtu is then typically 1492 */
	int      per_message; /* TCP only: 1 = every application message leaves
	                         in its own segment(s) (TCP_NODELAY, -D, small
	                         messages); 0 = bulk stream cut into full-MSS
	                         segments */
};

/* Bytes, summed over the frames described (see struct ovh_msg). l2 = MAC
 * header + tags + PPPoE + FCS; l1 = preamble + SFD + gap (20 per frame);
 * pad = Ethernet padding up to the 64-byte minimum frame. */
struct ovh_layers { uint64_t payload, l4, l3, l2, l1, pad; };

/*
 * What one application message costs.
 *
 * UDP, and TCP with per_message = 1: the figures cover all frames of one
 * message (TCP segments, or the IP fragments of one datagram: fragment data
 * a multiple of 8 bytes, every fragment with its own IP header and Ethernet
 * framing, only the first with the UDP header; RFC 791 3.2, RFC 8200 4.5).
 *
 * TCP bulk (per_message = 0): the stream is re-segmented, so message
 * boundaries do not survive and eta is that of full-MSS segments whatever the
 * message size. `frames`, `bytes` and `wire` then describe ONE full segment
 * (bulk = 1, frames = 1, bytes.payload = MSS); msg_frames says how many
 * segments a message amounts to on average.
 */
struct ovh_msg {
	uint64_t frames;          /* frames (TCP segments or IP fragments) */
	struct ovh_layers bytes;
	uint64_t wire;            /* all bytes on the wire = sum of the layers */
	double   eta;             /* payload / wire */
	int      bulk;            /* 1: figures are per full-MSS segment */
	unsigned full_payload;    /* payload of a full frame: MSS for TCP; for
	                             UDP the payload of a whole datagram or of
	                             its first fragment */
	double   msg_frames;      /* frames per message (bulk: msg / MSS) */
};

/* Fill out for a message of msg_bytes application bytes. Returns 0, or -1
 * with err filled (MTU too small for the headers, MSS larger than the MTU
 * allows, option sizes not multiples of 4/8, message 0 bytes or, for UDP,
 * larger than an IP datagram can carry: 65507 over IPv4). */
int ovh_message(const struct ovh_conf *c, uint64_t msg_bytes,
                struct ovh_msg *out, char *err, size_t errlen);

/* A TCP stream as it really went: bytes of payload in segs data segments,
 * taken to be as even in size as the counts allow (bytes % segs of them one
 * byte longer), so that padding of small segments is counted right. Fills
 * out for the whole stream (frames = segs; bulk = 0). Returns 0, or -1 with
 * err filled (a bad c, no segments, fewer bytes than segments, or segments
 * larger than the MSS: counts that cannot come from one connection). */
int ovh_tcp_stream(const struct ovh_conf *c, uint64_t bytes, uint64_t segs,
                   struct ovh_msg *out, char *err, size_t errlen);

/* The TCP payload of a full segment under c: c->mss if set, otherwise what
 * the MTU leaves after IP and TCP headers (0 if nothing is left). */
unsigned ovh_tcp_mss(const struct ovh_conf *c);

/* Bytes on the wire of one Ethernet frame whose MAC header, tags and IP
 * packet (no FCS) are l2_len bytes long: padding to the minimum frame, FCS,
 * preamble, SFD and gap added. *pad (if not NULL) gets the padding. This is
 * max(l2_len, 60) + 4 + 20. */
uint64_t ovh_eth_wire(uint64_t l2_len, uint64_t *pad);

/* Expected goodput eta * C in bit/s for a link of link_bps bit/s. */
double ovh_expected_bps(const struct ovh_msg *m, double link_bps);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_PCAP_DECODE_H
#define GPUT_PCAP_DECODE_H

#include <stddef.h>
#include <stdint.h>

/* What one captured frame holds, as far as goodput is concerned. Sizes come
 * from the IP and TCP/UDP headers, never from the captured length. */
struct pdec_frame {
	unsigned l2_hdr;    /* link header bytes on the wire: Ethernet MAC header
	                       + tags + PPPoE; 14 assumed for link types without
	                       an Ethernet header (SLL, SLL2, RAW, NULL, LOOP) */
	unsigned vlan_tags;
	int      pppoe;
	int      ipv;       /* 4 or 6 */
	uint8_t  src[16], dst[16]; /* IPv4 addresses in the first 4 bytes */
	unsigned ip_len;    /* the IP packet's length from its header */
	unsigned l3_hdr;    /* IP header + options / extension headers */
	uint8_t  proto;     /* 6 TCP, 17 UDP; in a later IPv6 fragment, the
	                       Fragment header's next header (RFC 8200 4.5) */
	int      frag;      /* 0: not a fragment, 1: first fragment, 2: one
	                       without a transport header (a later one, or a
	                       first one too short to hold it) */
	uint32_t frag_id;   /* IPv4 Identification or IPv6 Fragment header id */
	unsigned frag_off;  /* of a fragment: where its data goes in the
	                       datagram, bytes */
	int      frag_more; /* more fragments follow (MF, M) */
	unsigned frag_len;  /* bytes of fragment data this packet carries */
	unsigned l4_hdr;    /* TCP/UDP header bytes (0 in later fragments) */
	unsigned payload;   /* bytes after the TCP/UDP header in this packet */
	uint16_t sport, dport;
	uint32_t seq;       /* TCP sequence number */
	uint8_t  tcp_flags; /* RFC 9293 3.1: FIN 0x01, SYN 0x02, RST 0x04 ... */
	int      marker;    /* 1: a gput UDP end-of-transfer marker, proof,
	                       cookie or echo datagram, not data (gput(1), UDP
	                       end markers, SECURITY) */
	int      end_marker;     /* 1: an end marker ("GPUE"; marker is 1 too) */
	int      end_has_count;  /* its datagram count was captured */
	uint64_t end_dgrams;     /* the data datagrams the sender says it sent */
	int      gpud;      /* gput UDP data header: PDEC_GPUD_NONE, _DATA or
	                       _CUT (in a whole datagram or a first fragment) */
	uint32_t gpud_stream;    /* of a PDEC_GPUD_DATA header: stream id, */
	uint64_t gpud_seq;       /* sequence number, */
	uint64_t gpud_send_ns;   /* send time, ns (0: the sender was not paced) */
	uint32_t tcp_hello;      /* TCP: the stream number when the payload is,
	                            by its length and number, gput's header of a
	                            data connection (wire_ctl.h,
	                            CTL_DATA_HELLO_LEN); 0 otherwise */
};

/* gput's UDP data header (wire_udp.h: GPUD, WIRE_GPUD_LEN bytes). */
enum pdec_gpud {
	PDEC_GPUD_NONE,  /* no gput data header */
	PDEC_GPUD_DATA,  /* a header, decoded */
	PDEC_GPUD_CUT    /* "GPUD" captured, but the snaplen cut the rest of
	                    the header: not decodable */
};

#define PDEC_TCP_FIN 0x01
#define PDEC_TCP_SYN 0x02
#define PDEC_TCP_RST 0x04

enum pdec_result {
	PDEC_OK,     /* fr filled */
	PDEC_OTHER,  /* not IPv4/IPv6, or neither TCP nor UDP: not counted */
	PDEC_CUT,    /* the capture's snaplen cut the frame before the headers
	                that are needed: skipped */
	PDEC_BAD     /* malformed: a header says more than the frame holds;
	                why is filled */
};

/* Decode one frame of link type dlt (a DLT_ value) with caplen captured bytes
 * out of len on the wire. Never reads past caplen. */
enum pdec_result pdec_frame(int dlt, const uint8_t *pkt, uint32_t caplen,
                            uint32_t len, struct pdec_frame *fr, char *why,
                            size_t whylen);

/* 1 if gput-pcap can decode link type dlt. */
int pdec_supported(int dlt);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_PCAP_FLOW_H
#define GPUT_PCAP_FLOW_H

#include <stddef.h>
#include <stdint.h>

#include "pcap_decode.h"
#include "udpacct.h"

/* A hole in a direction's TCP sequence space: bytes not seen yet below the
 * highest byte seen (lost before the capture point, or reordered). A
 * direction keeps every hole, however many (memory permitting, see
 * --max-memory), sorted and disjoint; a filled one stays in place, empty
 * (from == to), until the array is compacted. */
struct pflow_hole { uint64_t from, to; };

/* Pending IP fragments are given up after this long without completing
 * their datagram (capture time), as the receiver's IP does: Linux's
 * net.ipv4.ipfrag_time and net.ipv6.ip6frag_time default to 30 s. */
#define PFLOW_FRAG_TIMEOUT_NS (30LL * 1000000000)
/* A flow is closed when it ended (a RST, or a FIN each way) and has been
 * quiet for PFLOW_END_NS (Linux's TIME_WAIT, 60 s), or has been quiet for
 * PFLOW_IDLE_NS whatever its state: its holes and gput window are freed
 * (the holes' bytes stay counted as missing) and later packets with its
 * addresses and ports begin a new flow. */
#define PFLOW_END_NS   (60LL * 1000000000)
#define PFLOW_IDLE_NS  (600LL * 1000000000)
/* --max-memory's default: gput-pcap stops with a message beyond it. */
#define PFLOW_MAX_MEMORY_DEFAULT ((uint64_t)1 << 30)

/* What a direction's gput UDP data headers and end markers say (gput(1),
 * "UDP data header"): the receiver's accounting over the datagrams as the
 * capture holds them, in capture order, arrival times the capture's. */
struct pflow_gput {
	struct udpacct acct;       /* every datagram with a decoded header */
	uint64_t cut;              /* datagrams whose header the snaplen cut:
	                              not decodable, not in acct */
	uint64_t timed;            /* decoded headers with a send time (not 0) */
	int      sent_known;       /* an end marker's count was captured */
	uint64_t sent;             /* the largest count an end marker gave */
};

/* One direction of a flow. Every frame adds to packets, the layer sums and
 * wire, so that
 *   payload + retrans + marker_bytes + l4 + l3 + l2 + pad + l1 == wire. */
struct pflow_dir {
	uint64_t packets;          /* frames */
	uint64_t data_packets;     /* frames that carried new payload */
	uint64_t retrans_packets;  /* frames that carried payload seen before:
	                              TCP retransmissions, gput UDP duplicates */
	uint64_t fragments;        /* IP fragments (first and later ones) */
	uint64_t markers;          /* gput UDP end markers: control, not data */
	uint64_t payload;          /* new payload bytes (goodput) */
	uint64_t retrans;          /* payload bytes seen before: TCP's, and
	                              those of gput UDP duplicates */
	uint64_t marker_bytes;     /* UDP payload bytes of the markers */
	uint64_t l4, l3, l2, pad, l1;  /* header bytes per layer, l2 with FCS */
	uint64_t wire;             /* bytes on the wire, every frame */
	uint64_t data_wire;        /* bytes on the wire of the data frames */
	int64_t  first_ns, last_ns;  /* timestamps of the first / last data frame */
	uint64_t first_payload;    /* new payload of the first data frame */
	/* TCP sequence space, in 64-bit positions (RFC 9293 3.4, modulo 2^32) */
	int      seq_init;
	int      syn_seen;         /* a SYN was seen, with sequence number syn_seq */
	uint32_t syn_seq;
	uint64_t seq_max;          /* one past the highest byte seen */
	struct pflow_hole *holes;
	size_t   nholes, capholes;
	size_t   holes_empty;      /* of nholes, filled ones left in place */
	uint64_t holes_dropped;    /* bytes of holes forgotten (an earlier
	                              connection on these ports, or the flow
	                              was closed): still missing */
	int      fin;              /* a FIN was seen */
	uint64_t connections;      /* SYNs seen with distinct sequence numbers */
	uint64_t datagrams;        /* UDP datagrams that reached the flow whole,
	                              markers, proofs, cookies and echoes left out
	                              (every copy) */
	struct pflow_gput *gput;   /* NULL until a gput data header (decoded or
	                              cut) or end marker is seen; flow
	                              directions only, freed by pflow_free() */
};

/* A TCP or UDP flow: both directions between two endpoints; a is the
 * endpoint that sent the first packet seen. */
struct pflow_key { uint8_t k[40]; };

struct pflow {
	struct pflow_key key;   /* first: the hash table compares it */
	uint8_t  proto;    /* 6 or 17 */
	int      ipv;      /* 4 or 6 */
	uint8_t  a[16], b[16];
	uint16_t aport, bport;
	struct pflow_dir dir[2];  /* [0]: a to b, [1]: b to a */
	/* Open flows, in a list by their last packet (index + 1; 0: none) */
	int64_t  last_ts;
	uint32_t prev, next;
	int      ended;    /* a RST, or a FIN each way */
	int      closed;   /* no longer in the table: later packets begin a
	                      new flow */
};

/* A fragmented datagram being put together: its fragments are summed in
 * pending and go to the flow that the first fragment names once they cover
 * every byte of the datagram (by range, not by count: a duplicate the size
 * of a missing fragment does not complete it; any overlap gives the
 * datagram up). A datagram that misses a fragment is lost
 * to the receiver (RFC 791 3.2, RFC 8200 4.5): its fragments count in no
 * flow. */
struct pflow_frag {
	struct pflow_key  key;    /* first, as in struct pflow */
	struct pdec_frame first;  /* the first fragment, once seen */
	int               has_first;
	uint64_t          have;   /* bytes of fragment data seen */
	uint32_t          total;  /* the datagram's, once its last fragment
	                             is seen; 0 before */
	int64_t           born;   /* capture time of its first fragment seen */
	struct pflow_hole *cov;   /* the byte ranges its fragments cover,
	                             sorted, adjacent ones merged */
	size_t            ncov, capcov;
	struct pflow_dir  pending;
};

struct pflow_table {
	struct pflow      *flows;   /* in order of first appearance */
	size_t             nflows, capflows;
	uint32_t          *fslot;   /* open addressing: flow index + 1, 0 empty */
	size_t             fslots;
	struct pflow_frag *frags;
	size_t             nfrags, capfrags;
	uint32_t          *gslot;   /* the same for frags */
	size_t             gslots;
	struct pflow_dir   lost;    /* fragments of datagrams given up (their
	                               identification was used again before
	                               they were complete, or they timed out) */
	uint64_t           frags_expired;  /* datagrams given up at the
	                                      reassembly timeout */
	uint64_t           flows_closed;
	uint64_t           seed[2];  /* the hash's key, random per run */
	uint64_t           lookups, probes;  /* table lookups, and the slots
	                                        they looked at */
	int                seeded;
	/* Memory: what the table holds (its arrays, holes, gput windows, the
	 * report's row per flow), and the bound (0: none) */
	uint64_t           mem, mem_max, mem_peak;
	int                mem_full;  /* an allocation was refused for it */
	size_t             row_bytes; /* the report's per flow (pscan_finish),
	                                 counted when a flow is created */
	uint32_t           open_head, open_tail;  /* flows by last packet */
	uint32_t           end_head, end_tail;    /* ended flows, the same */
	uint32_t           last_flow;  /* the last frame's (index + 1; 0: none) */
	int64_t            now;       /* the latest timestamp seen */
	int64_t            frag_sweep;  /* the next look for old fragments */
};

/* Account one decoded frame seen at ts_ns. Returns 0, or -1 with err filled
 * when memory runs out or mem_max is reached (mem_full set). */
int pflow_add(struct pflow_table *t, const struct pdec_frame *fr,
              int64_t ts_ns, char *err, size_t errlen);

/* The fragments of datagrams that are not complete in the capture, summed
 * (a fragment, the first or another, is missing). */
void pflow_orphans(const struct pflow_table *t, struct pflow_dir *sum);

/* Flows that began on the addresses and ports of a flow closed before
 * them (each reported on its own). Returns the count, or -1 (memory). */
long pflow_reopened(const struct pflow_table *t);

/* Bytes of sequence space still missing in a TCP direction. */
uint64_t pflow_missing(const struct pflow_dir *d);

void pflow_free(struct pflow_table *t);

#endif

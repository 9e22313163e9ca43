/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_PCAP_SCAN_H
#define GPUT_PCAP_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "pcap_flow.h"
#include "udpacct.h"

/* A gput UDP data direction as reported (gput(1), "UDP data header"):
 * the receiver's figures (udpacct.h) over the datagrams the capture holds,
 * and what a capture adds to them. */
struct pscan_gput {
	int      sent_known;   /* an end marker's count was captured */
	uint64_t sent;         /* data datagrams the sender sent (markers) */
	uint64_t lost;         /* sent - unique; 0 when sent is not known */
	uint64_t cut;          /* headers cut by the snaplen: not decodable */
	struct udp_stats u;    /* the counts (received, unique, duplicates,
	                          reordered, max_displacement, late, too_old),
	                          flags UDPS_SEQ; no timing: below */
	int      has_timing;   /* some header had a send time (the sender was
	                          paced): jitter and delay variation mean
	                          something */
	/* The timing as the accounting computed it, not rounded to the whole
	 * ns of u: gput-pcap prints it to 0.1 us and 1 ns, where a second
	 * rounding would move the last digit. */
	double   jitter_ms;    /* RFC 3550 6.4.1 */
	double   delay_var_ms, delay_var_max_ms;  /* mean, max of transit
	                                            - least transit */
};

/* A flow as reported: its data direction (the one that carried more payload)
 * chosen, and what follows from it. */
struct pscan_flow {
	const struct pflow     *f;
	const uint8_t          *src, *dst;   /* of the data direction */
	uint16_t                sport, dport;
	const struct pflow_dir *data, *rev;
	int      has_eta;      /* 0 when no frame carried new payload */
	double   eta;          /* payload / data_wire */
	int      has_goodput;  /* 0 with fewer than two data frames or no time */
	double   duration_s;   /* last data frame - first data frame */
	double   goodput_bps;  /* (payload - first data frame's) * 8 / duration */
	uint64_t missing;      /* TCP sequence bytes never seen in the capture */
	int      has_gput;     /* a UDP flow whose data direction holds gput
	                          data headers (decoded or cut) */
	struct pscan_gput gput;  /* sent and sent_known also without them */
	uint64_t held;         /* datagrams of the sender the capture holds:
	                          every whole one but the known duplicates */
};

/* What a capture holds. Fill with pscan_file(), or pscan_init(),
 * pscan_packet() for each frame and pscan_finish(); then pscan_free(). */
struct pscan {
	unsigned mtu;          /* frames with a longer IP packet are oversized */
	int      dlt;
	char     linkname[32];
	uint32_t snaplen;
	uint64_t packets;      /* records read (that passed the filter) */
	uint64_t other;        /* not TCP or UDP over IPv4/IPv6 */
	uint64_t cut;          /* TCP/UDP frames captured shorter than they were
	                          on the wire (others are not looked at) */
	uint64_t cut_skipped;  /* of those, cut before their TCP/UDP header */
	uint64_t oversized;    /* IP packet longer than mtu */
	uint64_t malformed;    /* frames whose headers contradict each other or
	                          the frame (as tcpdump, skipped and counted) */
	uint64_t malformed_first;  /* the first one's packet number, */
	char     malformed_why[160];  /* and what was wrong with it */
	unsigned max_ip;       /* longest IP packet */
	struct pflow_table table;
	struct pflow_dir   orphans;   /* fragments of datagrams that are not
	                                 complete in the capture */
	struct pscan_flow *flows;     /* after pscan_finish: most payload first */
	size_t             nflows;
	char             **warnings;
	size_t             nwarnings;
};

#define PSCAN_EBAD   (-1)  /* cannot read the capture (or not all of it) */
#define PSCAN_EUSAGE (-2)  /* the filter expression is wrong */

void pscan_init(struct pscan *s, unsigned mtu, int dlt);

/* Account one frame: ts_ns its timestamp (ns since 1970, not negative),
 * caplen bytes captured out of len. A malformed frame is counted in
 * malformed and skipped. Returns 0, or PSCAN_EBAD with err filled
 * (negative timestamp, no memory, --max-memory). */
int pscan_packet(struct pscan *s, int64_t ts_ns, uint32_t caplen,
                 uint32_t len, const uint8_t *bytes, char *err, size_t errlen);

/* Choose directions, compute eta and goodput, sort, collect warnings.
 * Returns 0 or PSCAN_EBAD (out of memory). */
int pscan_finish(struct pscan *s, char *err, size_t errlen);

/* Read a pcap or pcapng file ("-": standard input) with nanosecond
 * timestamps, optionally through a BPF filter, and finish. Returns 0,
 * PSCAN_EBAD or PSCAN_EUSAGE with err filled (one line, no prefix). */
int pscan_file(struct pscan *s, const char *path, const char *filter,
               unsigned mtu, char *err, size_t errlen);

/* A record's timestamp, sec seconds and frac_ns nanoseconds (either may
 * be negative, as libpcap reads a pcap record's fields), as one signed
 * decimal number of seconds with nine decimals ("-1.000001000") into buf.
 * Returns the length snprintf gave. */
size_t pscan_ts_text(long long sec, long long frac_ns, char *buf, size_t len);

/* pscan_file with a bound on the memory the scan may hold (flows, holes,
 * pending fragments, gput windows, the report's rows; 0: none):
 * PSCAN_EBAD with err naming it when the capture needs more. pscan_file
 * uses PFLOW_MAX_MEMORY_DEFAULT. */
int pscan_file_mem(struct pscan *s, const char *path, const char *filter,
                   unsigned mtu, uint64_t max_memory, char *err,
                   size_t errlen);

/* Text form of an address of a flow (IPv4 or IPv6). */
const char *pscan_addr(const struct pflow *f, const uint8_t *addr, char *buf,
                       size_t len);

void pscan_free(struct pscan *s);

#endif

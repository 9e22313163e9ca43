/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_UDPACCT_H
#define GPUT_UDPACCT_H

/*
 * udpacct: the UDP receiver's exact accounting of the data datagrams it
 * read (loss, duplication, reordering, late arrivals, jitter, delay
 * variation). Pure: no I/O, no clock; the data path passes each datagram's
 * sequence number, the sender's send time and the arrival time.
 * O(1) work per datagram (at most one pass over the 8 KiB window, see
 * below), no allocation after udpacct_init(), 64-bit counters.
 *
 * The rules, exactly:
 *  - Sequence numbers start at 0 and are 64-bit; 2^32 is not special.
 *    "next" is the highest sequence number seen + 1 (0: none seen yet).
 *  - seq >= next: a new highest. next becomes seq + 1; the window bits of
 *    the numbers passed over (next .. seq) are cleared, the one of seq set.
 *    A jump of UDPACCT_WINDOW or more clears the whole bitmap once, so one
 *    datagram never costs more than one pass over the bitmap. A jump is
 *    not reordering: the numbers skipped are (so far) lost.
 *  - seq < next: displacement d = next - 1 - seq (how far behind the highest
 *    seen). d >= UDPACCT_WINDOW (seq < next - UDPACCT_WINDOW): too_old, the
 *    window no longer says whether seq was seen: counted in received only,
 *    never in unique, duplicates or reordered (so it may make loss look
 *    higher than it was, never lower). Otherwise (d <= UDPACCT_WINDOW - 1)
 *    a set bit means a duplicate; a clear bit means a reordered first copy:
 *    unique++, reordered++, max_displacement = max(max_displacement, d), and
 *    its bit is set (a later copy is a duplicate).
 *  - seq == UINT64_MAX cannot advance next (seq + 1 would wrap to "none
 *    yet"): it is counted as too_old.
 *  - late counts every datagram (every copy, whatever its kind) added after
 *    udpacct_marker(); it is counted in received/unique/... as usual too.
 *  - Jitter (RFC 3550 6.4.1) and transit are taken over first copies only
 *    (the datagrams counted in unique), in arrival order, reordered ones
 *    included: D(i,j) = (Rj - Ri) - (Sj - Si) between consecutive first
 *    copies, J += (|D| - J) / 16, in ns. The first first copy sets no
 *    jitter (J stays 0). Duplicates and too_old datagrams leave jitter and
 *    transit alone. Send and arrival times are read modulo 2^64 and their
 *    differences as signed 64-bit: the two clocks need not agree.
 * Identities, always: received = unique + duplicates + too_old;
 * transit_n = unique; for a sender's count sent >= unique,
 * unique + udpacct_lost(a, sent) = sent.
 */

#include <stddef.h>
#include <stdint.h>

/* Sequence numbers remembered for telling a duplicate from a late first copy. */
#define UDPACCT_WINDOW 65536

/*
 * A UDP receiver's figures: the one record of them. gput's receiver fills
 * it (udpacct_figures(), then the datagrams that were not data and the
 * ECN counts), the UDPSTATS control message carries it, the result model
 * sums a side's streams in it and the reports print it; gput-pcap holds
 * the same record for a capture's gput UDP flow. The counts are the ones
 * defined above; the timing is in whole ns, as the control message
 * carries it.
 */
struct udp_stats {
	uint64_t received, unique, duplicates, reordered, max_displacement;
	uint64_t late, too_old, other;   /* other: datagrams neither data nor ours */
	uint64_t jitter_ns;              /* RFC 3550 interarrival jitter */
	uint64_t delay_var_ns;           /* mean one-way delay above the minimum */
	uint64_t delay_var_max_ns;       /* largest one-way delay above the minimum */
	int64_t  owd_min_ns, owd_mean_ns;/* absolute one-way delay (--same-clock) */
	uint64_t ecn[4];                 /* UDPS_ECN: the data datagrams received
	                                    (every copy: they add up to received)
	                                    by ECN codepoint, ecn.h's ECN_* */
	uint32_t flags;                  /* UDPS_* */
};
#define UDPS_SEQ   0x01u  /* the datagrams carried sequence numbers */
#define UDPS_TIMED 0x02u  /* ... and send times: jitter and delays valid */
#define UDPS_ECN   0x04u  /* --ecn: ecn[] is valid */
#define UDPS_ALL   0x07u

struct udpacct {
	struct udp_stats n;    /* the counts, kept as datagrams arrive: received
	                          (every copy), unique (distinct sequence
	                          numbers), duplicates (copies of one already
	                          seen within the window), reordered (first
	                          copies that arrived after a higher sequence
	                          number), max_displacement (largest highest
	                          seen so far - seq of a reordered one), late
	                          (after udpacct_marker(), counted in the others
	                          too), too_old (more than the window behind the
	                          highest: cannot tell; counted as received, not
	                          unique). The rest of n stays 0:
	                          udpacct_figures() adds the timing. */
	uint64_t next;         /* highest sequence number seen + 1 (0: none yet) */
	double   jitter_ns;    /* RFC 3550 6.4.1 interarrival jitter, J += (|D| - J)/16, over consecutive arrivals (first copies only) */
	int64_t  transit_min, transit_max; /* arrive - send, ns (clocks may differ: only differences mean anything); valid when transit_n > 0 */
	double   transit_sum;  /* for the mean: sum of (transit - transit_ref), ns;
	                        * mean = transit_ref + transit_sum / transit_n (kept
	                        * relative so that clocks far apart lose no precision) */
	int64_t  transit_ref;  /* transit of the first first copy */
	uint64_t transit_n;    /* first copies timed (= unique) */
	/* private */
	uint64_t *bits;        /* UDPACCT_WINDOW bits: bit (seq mod window) set = seq seen */
	uint64_t prev_send, prev_arrive; /* the previous first copy, for jitter */
	int      marked;       /* udpacct_marker() was called */
};

/* Zeroes a and allocates the window bitmap (8 KiB). Returns 0, or -1 with err
 * filled (and nothing to free). */
int      udpacct_init(struct udpacct *a, char *err, size_t errlen);
/* Frees the bitmap; safe to call twice. */
void     udpacct_free(struct udpacct *a);
/* One data datagram: its sequence number, the sender's send time and the
 * arrival time, ns. */
void     udpacct_add(struct udpacct *a, uint64_t seq, uint64_t send_ns, uint64_t arrive_ns);
/* The end marker arrived: data added from now on is late. */
void     udpacct_marker(struct udpacct *a);
/* sent - unique, 0 if unique >= sent. */
uint64_t udpacct_lost(const struct udpacct *a, uint64_t sent);
/* The one definition of datagrams lost: sent - unique, 0 when no more
 * were sent than arrived (a sender that does not know says 0). gput's
 * model (model_loss) and gput-pcap take it from here. */
uint64_t udpacct_lost_of(uint64_t sent, uint64_t unique);
/* mean(transit) - min(transit), ns; 0 with no data. */
double   udpacct_delay_var_mean_ns(const struct udpacct *a);
/* max(transit) - min(transit), ns; 0 with no data. */
double   udpacct_delay_var_max_ns(const struct udpacct *a);
/* The figures so far into out: the counts, flags UDPS_SEQ, and with timed
 * (the datagrams carried their send times) and a first copy timed also
 * UDPS_TIMED and the timing in whole ns (delays and jitter above 2^64 ns,
 * which a sender's send times can make, read UINT64_MAX); the rest of out
 * (other, ecn) 0. */
void     udpacct_figures(const struct udpacct *a, int timed, struct udp_stats *out);
/* v ns as a whole number: rounded, 0 below 0, UINT64_MAX above it. */
uint64_t udpacct_ns(double v);

#endif

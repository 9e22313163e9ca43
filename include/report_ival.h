/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_REPORT_IVAL_H
#define GPUT_REPORT_IVAL_H

#include <stdint.h>
#include <stdio.h>

#include "model.h"

/*
 * The text lines of the result model beyond the nttcp table: one per
 * interval, the steady state, and -v's TCP_INFO line. Columns have fixed
 * widths; a value that fills or overflows its width gets one space before
 * it, so a line always splits on white space. A rate over zero time is "-".
 */

/* The title over the interval lines, aligned with their columns. */
void report_ival_title(FILE *f);

/* One interval of side s:
 *   l  0.00- 1.00 s     1182720 bytes      817 calls    9.4618 MBit/s
 * then "  stream K" when s is stream K of a side (s->stream > 0), "  sum"
 * when s is a side with more than one stream (s->nst > 1: its intervals are
 * the sums of theirs), "  retr R  cwnd C  rtt T ms" for an IVAL_TCP
 * interval, "  N datagrams" for a UDP receiver, and " (omitted)",
 * " (last)" as flagged. A side without streams, or with one (-P 1: print
 * the side's intervals, not its stream's), has the line it always had. */
void report_ival_line(FILE *f, const struct side *s, const struct ival *iv);

/* The steady state of s, when it has one (else nothing):
 *   l steady state after 1.00 s: 11200000 bytes in 5.000 s, 17.9200 MBit/s */
void report_steady_line(FILE *f, const struct side *s, uint32_t omit_ms);

/* t's congestion control's name into cc (sizeof t->cc bytes): unprintable
 * bytes as '?', and "?" when it is empty. */
void report_cc_name(char *cc, const struct tcp_stats *t);

/* -v's TCP_INFO line for side tag, when t->valid (else nothing):
 *   l: tcp cubic, 3 retransmitted segments, rtt 14.20 ms (min 10.10), cwnd 23,
 *   delivery 9.41 MBit/s, busy 5.00 s, limited by rwnd 0.00 s, by sndbuf 0.12 s
 * (one line). Unprintable bytes of the congestion control's name are '?'. */
void report_tcp_stats(FILE *f, char tag, const struct tcp_stats *t);

/* --ecn -v, TCP, when t->valid:
 *   l: ecn negotiated, 93 segments acknowledged with ECE, 33 CE-marked
 *   segments received (1859556 bytes)
 * (one line; "ecn not negotiated"; "received CE not counted by this kernel"
 * without TCPS_ECN_RECEIVED). */
void report_ecn_tcp(FILE *f, char tag, const struct tcp_stats *t);

/* --ecn -v, a UDP receiver with UDPS_ECN (else nothing):
 *   1: ecn: 1000 data datagrams ECT(0), 20 CE, 0 ECT(1), 0 not-ECT */
void report_ecn_udp(FILE *f, char tag, const struct udp_stats *u);

#endif

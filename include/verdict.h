/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_VERDICT_H
#define GPUT_VERDICT_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

/*
 * Why a run fell short (gput(1), WHY A RUN FELL SHORT): the limit that set
 * a run's goodput, decided from the result model alone by rules tried in a
 * fixed order; the first that holds names the limit, with the figures it
 * rests on (evidence, by name) and warnings that stop a misreading. Pure:
 * no I/O, no clock. Every renderer prints what verdict_run() returns and
 * decides nothing of its own.
 *
 * The rules, in order (the margins below):
 *   1 unknown          the receiver has no result, or no time
 *   2 link             goodput >= LINK_MARGIN of eta*C (--link), or, with
 *                      no --link, a UDP receiver that lost datagrams in the
 *                      network while the sender kept a rate above what
 *                      arrived is network_loss (rule 4), not link; a TCP
 *                      sender whose srtt stood >= QUEUE_RTT x its minimum
 *                      RTT + 1 ms (a standing queue at a busy bottleneck)
 *                      with no window, buffer or CPU limit is link too
 *   2b sliding_window  UDP --sliding-window N: its bound N x -l x 8 / SRTT
 *                      (the sender's smoothed RTT at the end) is below
 *                      eta*C (or no --link) and goodput >= KEPT of it; or
 *                      goodput below KEPT of it and datagrams were sent
 *                      again after a timeout: network_loss (timeouts held
 *                      the window)
 *   3 receiver_socket_buffer  UDP: lost >= LOSS_SHARE of sent and the
 *                      receiving socket's own drops (SO_MEMINFO) are at
 *                      least half of the lost; where those are absent, the
 *                      receiving host's RcvbufErrors over the run (every
 *                      socket's: hostudp.h)
 *   4 network_loss     UDP: lost >= LOSS_SHARE of sent (the rest)
 *   5 pacing           the sender was paced (--rate, -g) below eta*C (or
 *                      with no --link), kept its schedule (its rate >=
 *                      KEPT of the schedule's), and goodput >= KEPT of it
 *   6 sender_cpu       the sender's CPU s >= CPU_BUSY x its Real s, and
 *                      its Real s >= CPU_SPAN x the receiver's
 *   7 receiver_cpu     the receiver's CPU s >= CPU_BUSY x its Real s, and
 *                      its Real s >= CPU_SPAN x the sender's
 *   8 receive_window   TCP: the sender was limited by the receive window
 *                      for >= LIMITED of its busy time (TCP_INFO), or the
 *                      window bound (-w/RTT, --rtt) is below eta*C and
 *                      goodput >= KEPT of it
 *   9 send_buffer      TCP: limited by the send buffer >= LIMITED of its
 *                      busy time, or its size (SO_SNDBUF as the kernel set
 *                      it) per min RTT is below eta*C and goodput >=
 *                      BUF_KEPT of it
 *  10 congestion       TCP: segments retransmitted >= RETRANS of those sent
 *  11 slow_start       TCP with --link: the time slow start takes to reach
 *                      the bandwidth-delay product (min RTT x (1 + log2(BDP
 *                      in segments / 10))) explains at least half the
 *                      shortfall: ss / (2 x Real s) >= (1 - ratio) / 2
 *  12 sender           UDP: a paced sender behind its schedule (its rate <
 *                      KEPT of the schedule's), or an unpaced one below
 *                      LINK_MARGIN of eta*C that lost nothing
 *  13 unknown          nothing above held
 */
#define VERDICT_LINK_MARGIN 0.95  /* of eta*C: the link was the limit */
#define VERDICT_KEPT        0.95  /* of a schedule or bound: it was kept */
#define VERDICT_CPU_BUSY    0.85  /* CPU s / Real s: a side had no spare */
#define VERDICT_CPU_WARN    0.75  /* ... close to it: a warning */
#define VERDICT_CPU_SPAN    0.50  /* ... over this much of the other's Real s */
#define VERDICT_LIMITED     0.20  /* of busy time limited by rwnd/sndbuf */
#define VERDICT_BUF_KEPT    0.90  /* of SO_SNDBUF per RTT: the buffer held */
#define VERDICT_WHOLE       0.90  /* of -w in whole segments: else a warning */
#define VERDICT_RETRANS     0.001 /* of segments sent, retransmitted */
#define VERDICT_LOSS_SHARE  0.01  /* of datagrams sent, lost */
#define VERDICT_QUEUE_RTT   1.25  /* srtt over min RTT: a standing queue */
#define VERDICT_QUEUE_RATE  2.0   /* ... at a delivery rate at most this x
                                     the goodput */

enum verdict_limit {
	VL_UNKNOWN = 0, VL_LINK, VL_RECEIVE_WINDOW, VL_SEND_BUFFER,
	VL_CONGESTION, VL_SLOW_START, VL_PACING, VL_SENDER_CPU,
	VL_RECEIVER_CPU, VL_SENDER, VL_RECEIVER_SOCKET_BUFFER,
	VL_NETWORK_LOSS, VL_SLIDING_WINDOW, VL_COUNT
};

enum verdict_warning {
	VW_SENDER_BEHIND,        /* a paced sender behind its schedule */
	VW_MSS,                  /* the kernel's MSS replaces the assumed one */
	VW_RECEIVER_CPU,         /* receiver CPU s close to Real s */
	VW_SENDER_CPU,           /* sender CPU s close to Real s */
	VW_SHORT_RUN,            /* a short run's ratio may read high */
	VW_NO_LINK,              /* no --link: the link's share is unknown */
	VW_REPEAT,               /* --repeat: the targets were not met */
	VW_COUNT
};

#define VERDICT_EVID_MAX 16
#define VERDICT_WARN_MAX 8
#define VERDICT_WARN_LEN 320

struct verdict_ev {
	const char *name;        /* a static name: "retrans", "srtt_ms" */
	double      value;
};

struct verdict {
	enum verdict_limit limit;
	int      have_ratio;     /* ratio is goodput over bound_bps */
	double   ratio;
	double   bound_bps;      /* the bound the ratio is taken of */
	const char *bound;       /* its name: "eta*C", "window/RTT", "schedule" */
	double   goodput_bps;    /* the receiver's Bytes * 8 / Real s */
	char     cc[16];         /* the sender's congestion control ("": UDP or
	                            unknown) */
	size_t   nev;
	struct verdict_ev ev[VERDICT_EVID_MAX];
	size_t   nwarn;
	enum verdict_warning wcode[VERDICT_WARN_MAX];
	char     warn[VERDICT_WARN_MAX][VERDICT_WARN_LEN];
};

/* The verdict of m's run (its sides' totals), into v. Always fills v: a
 * run without the figures a rule needs is unknown. */
void verdict_run(const struct run_model *m, struct verdict *v);

/* The verdict of stream k (0-based) of m's run: the rules on that stream's
 * own figures (its sender's TCP_INFO, its goodput) with the run's link
 * shared by the streams. A stream's share of the sum is evidence. */
void verdict_stream(const struct run_model *m, uint32_t k, struct verdict *v);

/* --repeat: how many of runs[0..n) have each limit as their verdict
 * (verdict_run), into counts[VL_COUNT]. */
void verdict_count(const struct run_model *runs, size_t n,
                   size_t counts[VL_COUNT]);

/* The limit's name as JSON, CSV and Prometheus carry it ("link",
 * "receive_window", ...); "unknown" for anything out of range. */
const char *verdict_name(enum verdict_limit l);

/* The figure named name among v's evidence; *ok 0 (0 returned) when it
 * is not there. */
double verdict_ev(const struct verdict *v, const char *name, int *ok);

/* Add a warning of code w, its words from fmt (printf), to v (dropped when
 * VERDICT_WARN_MAX are there): for the callers that know more (--repeat). */
void verdict_warn(struct verdict *v, enum verdict_warning w, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif

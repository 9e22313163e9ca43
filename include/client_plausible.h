/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_CLIENT_PLAUSIBLE_H
#define GPUT_CLIENT_PLAUSIBLE_H

#include <stddef.h>
#include <stdint.h>

#include "meter.h"
#include "model.h"
#include "xfer_params.h"

/*
 * plausible: is what a partner says physically possible for this test?
 * Pure: no I/O, no clock; the client passes what it knows of the run. A
 * partner is broken or hostile when a check fails, and nothing it said is
 * printed (gput(1), CONTROL PROTOCOL, "What the client checks").
 *
 * The run's window: the partner's transfer starts after the client began
 * to open the data path (its START comes after the proofs) and every
 * message it sends arrives after it was sent, so any time the partner
 * reports is at most the client's time from that start to the message's
 * arrival. Clocks of two hosts run at rates that differ by parts per
 * million; PLAUS_TIME_SLACK allows 0.1% (1000 ppm) more, plus 1 ms.
 *
 * CPU time is the partner's process time (user + system) over the window
 * a side or stream measured, which lies between START and its end_ns: at
 * most the longer of real_ns and end_ns x the threads that can run (one
 * per stream, the watcher, the main thread), plus PLAUS_CPU_SLACK_NS per
 * thread for accounting granularity and setup, and 1%.
 */
#define PLAUS_TIME_PPM       1000u       /* clock rate differences */
#define PLAUS_TIME_SLACK_NS  1000000u    /* 1 ms */
#define PLAUS_CPU_SLACK_NS   20000000u   /* 20 ms per thread */
#define PLAUS_CPU_PCT        1u          /* and 1% */
/* TCP_INFO's busy time is counted in jiffies (1/HZ s, HZ 100 at least). */
#define PLAUS_JIFFY_US       10000u
/* Linux gives a segment up after tcp_retries2 (15) timeouts; fast
 * retransmits, tail loss probes and RACK add a few more: a generous bound
 * on TCP retransmissions is this many per byte of the stream (SYN and FIN
 * counted as one byte each). */
#define PLAUS_RETRANS_PER_BYTE 64u
/* The fastest any side may move data, 10 Tbit/s (1250 bytes a ns; 25
 * times today's fastest network port): bytes beyond what one call per
 * stream moves (a TCP receiver's window opens after its first read) over
 * RESULT's real_ns, a TCPINFO delivery rate, datagrams over the run so far.
 * A partner that claims more reports a real time too small for its bytes. */
#define PLAUS_MAX_BYTES_PER_NS 1250u
#define PLAUS_MAX_BYTES_PER_S  1250000000000ull
/* What a TCP data connection carries besides the stream: the client's
 * nonce and stream number (payload on the wire, counted by the kernel). */
#define PLAUS_TCP_PROOF_BYTES  18u

/* What the client knows of the run when a message arrives. */
struct plaus_run {
	const struct xfer_params *p;  /* the partner's half of the test */
	uint64_t window_ns;  /* the client began opening the data path this
	                        long before the message arrived */
	uint32_t threads;    /* the partner's threads that can use CPU */
	int      same_clock; /* --same-clock: one-way delays are absolute */
};

/* The window with its slack: the longest time a partner can report. */
uint64_t plaus_window(const struct plaus_run *pr);

/* A RESULT of streams streams (1: a stream's; the side's sums them), its
 * window opened at start_ns and ended at end_ns after START. Returns 0, or
 * -1 with err naming the field. */
int plaus_result(const struct plaus_run *pr, const struct gput_result *r,
                 uint32_t streams, uint64_t start_ns, uint64_t end_ns,
                 char *err, size_t errlen);

/* A UDPSTATS of a UDP receiver's stream. Returns 0 or -1 with err filled. */
int plaus_udpstats(const struct plaus_run *pr, const struct udp_stats *u,
                   char *err, size_t errlen);

/* A TCPINFO, before the stream's byte count is known. Returns 0 or -1. */
int plaus_tcpinfo(const struct plaus_run *pr, const struct tcp_stats *t,
                  char *err, size_t errlen);

/* ECHOSTATS (--latency): only when the test asked for the echo; its
 * counts add up (every datagram received is echoed or counted why not);
 * it echoed at least the probes whose echoes arrived here before the
 * data path began to open (idle_answered), since its counts are taken
 * after the transfer, which needs that data path. Returns 0 or -1. */
int plaus_echo(const struct plaus_run *pr, const struct echo_stats *e,
               uint64_t idle_answered, char *err, size_t errlen);

/* HOSTUDP: only when the test asked for it (CTL_XF_HOSTUDP: the partner
 * receives UDP); each delta at most hostudp_bound() of the window with its
 * slack (the host's counters may hold other sockets' drops too, but not
 * more than the host can receive). Returns 0 or -1 with err filled. */
struct hostudp;
int plaus_hostudp(const struct plaus_run *pr, const struct hostudp *h,
                  char *err, size_t errlen);


/* The most data calls streams streams of the partner can have made so far
 * (INTERVAL sums; a UDP receiver's RESULT): a TCP call moves a byte at
 * least, a UDP sender's sends a datagram (and its end markers), a UDP
 * receiver's reads a copy of one, and no more than PLAUS_MAX_BYTES_PER_NS
 * in the run so far, plus one call's. */
uint64_t plaus_calls_max(const struct plaus_run *pr, uint32_t streams);

/* The most payload bytes a TCP data connection of a stream of this many
 * bytes can have carried, counted as they arrive (TCPINFO's CE bytes count
 * a retransmitted segment again): the stream and its proof, each byte sent
 * once and retransmitted at most PLAUS_RETRANS_PER_BYTE times (saturating). */
uint64_t plaus_wire_max(uint64_t bytes);

/* The most retransmissions a TCP stream of this many bytes can have made
 * (saturating). */
uint64_t plaus_retrans_max(uint64_t bytes);
/* --sliding-window: a receiving partner's UDPSTATS u against the sends w
 * made here: unique at most the first sends and at least the datagrams it
 * acknowledged (so missing, first sends less unique, is at most the
 * sends and 0 when every one was acknowledged); duplicates at most the
 * retransmissions and a copy of every send (a path copies a datagram at
 * most once, as netem's and gput-testbed's dup do); received at most
 * twice the sends. Returns 0, or -1 with err filled. */
int plaus_window_recv(const struct win_stats *w, const struct udp_stats *u,
                      char *err, size_t errlen);

/* The most INTERVAL messages one stream can have sent so far: one per
 * boundary passed in the window (every --interval; with --omit alone one,
 * at its end) and the last, partial one, and one more for a boundary that
 * fell as the message was sent. Without either, one (the last). */
uint64_t plaus_max_ivals(const struct plaus_run *pr);

/* What the client keeps of a partner stream's intervals between messages:
 * their exact sums and the previous end. */
struct plaus_ivals {
	uint64_t n;                   /* intervals accepted */
	uint64_t bytes, calls, dgrams;
	uint64_t retrans;
	uint64_t end_ns;              /* the previous one's end */
	int      last;                /* the last one came */
};

/* Interval number index of a stream, given what came before (s), checked
 * before anything of it is kept or shown: in order, contiguous, no more
 * of them than the window holds, within the window, counts within the
 * test and their sums within 64 bits. On success s takes it in. Returns 0,
 * or -1 with err filled (s unchanged). */
int plaus_ival(const struct plaus_run *pr, struct plaus_ivals *s,
               uint32_t index, const struct ival *iv, char *err,
               size_t errlen);

/* At the end, one partner stream ps (its RESULT, TCPINFO, UDPSTATS in) of
 * the test p (the partner's half) against the local stream ls: what a UDP
 * receiver there counts is at most what was sent here, a UDP sender there
 * sent at least what arrived here, its TCP retransmissions fit its bytes.
 * Returns 0, or -1 with err naming the field. */
int plaus_stream(const struct xfer_params *p, const struct side *ps,
                 const struct side *ls, char *err, size_t errlen);

#endif

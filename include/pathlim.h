/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_PATHLIM_H
#define GPUT_PATHLIM_H

#include <stddef.h>
#include <stdint.h>

/*
 * What a path's round-trip time does to one TCP connection's goodput, beside
 * the link's eta * C (overhead.h): pure arithmetic, no I/O. Every figure is
 * payload (goodput), in bit/s, MBit meaning 10^6 bits.
 *
 *   window limit  W * 8 / RTT: a sender can have at most W bytes of payload
 *                 unacknowledged, and an acknowledgement returns one RTT after
 *                 the data left, so at most W bytes cross per RTT.
 *                 A UDP sliding window of N datagrams of l bytes is the
 *                 window N * l: N * l * 8 / RTT.
 *   bandwidth-delay product  eta * C * RTT / 8 bytes: the window that keeps
 *                 a link of goodput eta * C busy.
 *   Mathis bound  MSS * 8 / RTT * sqrt(3/2) / sqrt(p): the steady state of
 *                 Reno-style congestion avoidance that loses one segment in
 *                 1/p, with an ACK per segment (Mathis, Semke, Mahdavi, Ott,
 *                 "The macroscopic behavior of the TCP congestion avoidance
 *                 algorithm", CCR 27(3), 1997). The window saws from w/2
 *                 to w segments, one more per RTT: a cycle of w/2 RTTs
 *                 carries 3w^2/8 segments, one of them lost, so 3w^2/8 = 1/p,
 *                 w = sqrt(8 / (3p)), and the mean window 3w/4 is
 *                 sqrt(3 / (2p)) segments per RTT. The constant sqrt(3/2) =
 *                 1.2247 is the paper's C, often rounded to 1.22; delayed
 *                 ACKs (one per two segments) make it sqrt(3/4) = 0.87, and
 *                 timeouts at high loss make real TCP slower still: the
 *                 bound is an upper one. CUBIC and BBR are not Reno.
 */

/* What is known of the path; a field at 0 is not known. */
struct plim_in {
	double   rtt_s;        /* round-trip time, seconds (> 0 for anything) */
	uint64_t window;       /* the sender's window in payload bytes, 0: none */
	double   loss;         /* segment loss probability p, 0 < p <= 1; 0: none */
	unsigned mss;          /* TCP payload of a full segment (Mathis) */
	double   expected_bps; /* eta * C of the link, bit/s; 0: no link given */
	/* A UDP sliding window (--sliding-window), 0 when none: */
	uint32_t dgrams;       /* the window in datagrams (window: dgrams * msg) */
	double   msg;          /* payload bytes of a datagram (-l) */
	double   ack_wire;     /* wire bytes of one acknowledgement, returned
	                          per datagram on the reverse path */
	double   link_bps;     /* C, for the acknowledgements' share (0: none) */
	uint64_t count;        /* -n: datagrams (or writes) to extrapolate to,
	                          0: none */
	/* TCP: the MSS the sender's kernel chose (TCP_INFO), 0: not known. With
	 * Nagle's rule a sender with data in flight sends no segment shorter
	 * than it, so a window of one segment or more holds whole segments of
	 * it (a smaller window: its bytes, in segments below the MSS) */
	unsigned seg_mss;
	unsigned path_mss;     /* the MSS the path's MTU allows (for saying
	                          that the kernel chose less) */
};

struct plim {
	double   rtt_s;
	int      have_bdp;       /* rtt and a link */
	double   bdp_bytes;      /* eta * C * RTT / 8 */
	int      have_window;    /* rtt and a window */
	uint64_t window;         /* as given (-w) */
	uint64_t window_held;    /* what it carries a round trip: window, or
	                            with seg_mss its whole segments */
	unsigned seg_mss, path_mss;
	double   window_bps;     /* window_held * 8 / RTT */
	int      window_limited; /* have_window, a link, window_bps < eta * C */
	double   window_ratio;   /* window_bps / (eta * C); 0: no link */
	int      have_mathis;    /* rtt, loss and an MSS */
	double   loss;
	unsigned mss;
	double   mathis_bps;     /* MSS * 8 / RTT * sqrt(3/2) / sqrt(p) */
	int      loss_limited;   /* have_mathis, a link, mathis_bps < eta * C */
	double   mathis_ratio;   /* mathis_bps / (eta * C); 0: no link */
	double   expected_bps;   /* eta * C, 0: no link */
	double   bound_bps;      /* the least of eta * C, window_bps and
	                            mathis_bps among those known; 0: none */
	uint32_t dgrams;         /* a UDP window's datagrams (0: bytes) */
	double   msg;
	int      have_acks;      /* a UDP window with a bound: */
	double   ack_bps;        /*   its acknowledgements on the reverse
	                              path at the bound: bound / (msg * 8)
	                              datagrams a second, ack_wire bytes each */
	double   acks_per_s;
	double   ack_wire;
	double   link_bps;       /*   C (0: not given) */
	int      have_count;     /* count and a bound: */
	uint64_t count;
	double   count_s;        /*   count * msg * 8 / bound: the time to send
	                              them at the bound */
};

/* The Mathis constant sqrt(3/2). */
#define PLIM_MATHIS_C 1.2247448713915890491

/* Fill out from in. Returns 0, or -1 with err filled: no positive RTT, a
 * loss outside (0, 1], a loss without an MSS, a negative or non-finite
 * figure. */
int plim_compute(const struct plim_in *in, struct plim *out, char *err,
                 size_t errlen);

/* The same figures one at a time (rtt_s > 0, 0 < p <= 1). */
double plim_window_bps(uint64_t window, double rtt_s);
double plim_mathis_bps(unsigned mss, double rtt_s, double p);
double plim_bdp_bytes(double bps, double rtt_s);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_MODEL_H
#define GPUT_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "latstat.h"
#include "linkconn.h"
#include "meter.h"
#include "pathlim.h"
#include "swin.h"
#include "udpacct.h"
#include "xfer_params.h"

/*
 * The result model: one run, a side per host, intervals per side. The data
 * paths and the samplers fill it; the renderers (the nttcp table, interval
 * lines, CSV, JSON, JSON lines) only read it. A side's totals (its
 * gput_result) are the exact sums of its intervals' bytes and calls.
 */

/* What moved on one side between two samples. Times are ns since the
 * side's transfer began (START). */
struct ival {
	uint64_t start_ns, end_ns;
	uint64_t bytes, calls;
	uint64_t dgrams;        /* UDP receiver: data datagrams that arrived */
	uint32_t flags;         /* IVAL_* */
	uint32_t retrans;       /* TCP sender: segments retransmitted in it */
	uint32_t cwnd;          /* TCP: congestion window at its end, segments */
	uint32_t srtt_us;       /* TCP: smoothed RTT at its end, µs */
	uint32_t dups;          /* UDP receiver with sequence numbers: copies */
	uint32_t reordered;     /*   and reordered first copies in it */
	uint64_t lat_p50_ns;    /* --latency, the client's side: the p50 round
	                           trip of the probes echoed in it (IVAL_LAT) */
};
#define IVAL_LAST    0x01u  /* the last interval, usually partial */
#define IVAL_OMITTED 0x02u  /* starts before --omit: not in the steady state */
#define IVAL_TCP     0x04u  /* retrans, cwnd, srtt_us are valid */
#define IVAL_UDP     0x08u  /* dups, reordered are valid */
#define IVAL_ALL     0x0fu  /* the flags an INTERVAL message may carry */
#define IVAL_LAT     0x10u  /* lat_p50_ns is valid (local: never sent) */

/* TCP_INFO of a data connection at the end (tcpinfo.c). */
struct tcp_stats {
	char     cc[16];             /* congestion control, NUL-terminated */
	uint64_t retrans;            /* segments retransmitted, in all */
	uint32_t rtt_us, min_rtt_us; /* smoothed and minimum RTT */
	uint32_t cwnd;               /* congestion window, segments */
	uint32_t mss;                /* sender's MSS */
	uint64_t delivery_rate;      /* bytes/s, the kernel's estimate */
	uint64_t busy_us;            /* time with data in flight */
	uint64_t rwnd_limited_us;    /* ... limited by the receive window */
	uint64_t sndbuf_limited_us;  /* ... limited by the send buffer */
	uint32_t ecn;                /* TCPS_ECN_* (ecn.h says what each means) */
	uint32_t delivered_ce;       /* sender: segments acknowledged with ECE */
	uint32_t received_ce;        /* receiver: CE-marked segments received */
	uint32_t received_ce_bytes;  /* ... and their payload bytes (32 bits) */
	int      valid;
};
#define TCPS_ECN          0x01u  /* ECN negotiated (TCPI_OPT_ECN) */
#define TCPS_ECN_SEEN     0x02u  /* an ECT or CE segment arrived (TCPI_OPT_ECN_SEEN) */
#define TCPS_ECN_RECEIVED 0x04u  /* the kernel counts received CE (Linux 6.18):
                                    received_ce and received_ce_bytes valid */
#define TCPS_ECN_ALL      0x07u

/* A UDP receiver's figures: struct udp_stats (udpacct.h). */

/* A figure that may have no value: a rate over zero time, a ratio without
 * what it compares to. */
struct fig {
	double v;                    /* 0 when !ok */
	int    ok;
};

/*
 * The figures a user reads of one side or stream, each defined once here
 * and computed from the counts by model_rates() and model_figures(); the
 * renderers (the table, CSV, JSON, Prometheus, --repeat) only format them.
 * New figures go at the end.
 */
struct figures {
	struct fig real_mbit;        /* Bytes * 8 / 10^6 over Real s */
	struct fig cpu_mbit;         /*   ... over CPU s */
	struct fig real_cps;         /* Calls over Real s */
	struct fig cpu_cps;          /*   ... over CPU s */
	int      have_loss;          /* a UDP receiver: the loss below */
	uint64_t udp_sent;           /*   datagrams the sender sent (its count) */
	uint64_t udp_lost;           /*   sent - unique (r.dgrams), 0 when fewer
	                                were sent */
	struct fig loss_pct;         /*   100 * lost / sent (no value: sent 0) */
	struct fig link_ratio;       /* --link: Real MBit/s over eta * C */
	struct fig bound_ratio;      /*   ... over the path's bound, when that
	                                is below eta * C (--rtt) */
	struct fig dgrams_per_call;  /* UDP datagrams over Calls (no value: no */
	struct fig bytes_per_call;   /*   calls), and Bytes over Calls */
};

/*
 * One side of the run, or one stream of a side (-P): a stream is a record
 * of the same shape with stream > 0, so everything that works on a side's
 * totals and intervals works on a stream's. A side with streams (nst > 0)
 * holds their exact sums: Bytes, Calls and datagrams add up, its window
 * runs from the first stream's start to the last stream's end, and its
 * intervals are the sums of the streams' intervals of the same index.
 */
struct side {
	char     tag;                /* 'l' local, '1' partner */
	uint32_t stream;             /* 0: a side; 1..N: a stream of one */
	uint8_t  proto, role;        /* PROTO_*, ROLE_* */
	uint32_t len;                /* this side's -l */
	uint64_t count;              /* this side's -n */
	uint8_t  batch, gso;         /* UDP: --batch, --gso as this side was asked */
	int      have_result;        /* r is filled (a partner may not answer) */
	struct gput_result r;
	struct ival *iv;             /* intervals, niv of them (cap allocated) */
	size_t   niv, cap;
	int      have_steady;        /* --omit: the steady state below is valid */
	uint64_t steady_bytes, steady_ns;
	struct tcp_stats tcp;
	uint64_t udp_sent;           /* UDP receiver: datagrams the sender sent */
	int      have_udp;           /* UDP receiver: udp is filled */
	struct udp_stats udp;
	int      have_host_udp;      /* UDP receiver: its host's UDP drop
	                                counters' deltas over the run (hostudp.h:
	                                the host's, every socket's) */
	uint64_t host_rcvbuf_errors; /*   RcvbufErrors */
	uint64_t host_in_errors;     /*   InErrors */
	int      host_udp_v6;        /*   of Udp6 (/proc/net/snmp6) */
	int      have_win;           /* --sliding-window: win is filled (a
	                                sender's counts, or a receiver's
	                                acks_sent) */
	struct win_stats win;
	/* Streams, and a stream's place in time (ns after START): */
	uint64_t start_ns;           /* its window opened (its first data) */
	uint64_t end_ns;             /* it ended: the flow completion time */
	double   share;              /* receiver streams: its part of the sum of
	                                its side's stream goodputs (0..1) */
	struct side *st;             /* a side's streams, nst of them (0: none) */
	uint32_t nst;
	struct figures fig;          /* model_figures(): what a user reads */
};

/* --latency: the probes' result, attached to the run. */
struct lat_result {
	int      have;               /* the probes ran */
	uint32_t interval_us, idle_ms;
	int      same_clock;         /* one-way delays in the phases */
	struct lat_phase idle, loaded;
	uint64_t bad_echo, dup_echo; /* echoes that matched no probe, repeats */
	int      have_echo;          /* the partner's counts (ECHOSTATS) */
	struct echo_stats echo;
	int      have_tcp_rtt;       /* TCP: the data sender's smoothed RTT */
	uint32_t tcp_rtt_us;         /*   (-P: the mean of the connections') */
	uint32_t tcp_rtt_n;          /*   of this many connections */
	int      have_expected;      /* --link and --queue-bytes: */
	double   queue_bytes;        /*   the bottleneck's queue */
	double   link_bps;           /*   and its rate */
	double   expected_ns;        /*   idle p50 + queue * 8 / link */
};

/* Why a run failed, as a code the renderers branch on (--prometheus's
 * error label); the words are in run_model.error. */
enum run_error {
	RUN_OK = 0,
	RUN_ERR_FAILED,              /* anything not named below */
	RUN_ERR_CONNECT,             /* the control connection could not be made */
	RUN_ERR_BUSY,                /* the partner ran --max-sessions tests */
	RUN_ERR_PARTNER,             /* the partner refused or reported an error */
	RUN_ERR_INTERRUPTED,         /* ^C or a signal */
	RUN_ERR_VERIFY,              /* data verification (-c) failed */
};

struct run_model {
	uint8_t  proto;              /* PROTO_* */
	uint8_t  role;               /* the local side's ROLE_* (the direction) */
	uint64_t wall_ns;            /* the run began: ns since the Unix epoch,
	                                the client's clock (0: unknown) */
	uint64_t start_mono_ns;      /* START arrived, on this host's monotonic
	                                clock (several partners' sums line their
	                                runs up by it; 0: not yet) */
	uint32_t duration_ms;        /* --time, 0: count mode */
	uint32_t interval_ms;        /* --interval, 0: none */
	uint32_t omit_ms;            /* --omit, 0: none */
	uint64_t data_bytes;         /* count mode: the agreed stream */
	uint32_t data_len;           /* the sender's -l */
	uint32_t swin;               /* --sliding-window (0: none): the sides'
	                                win and the window's report lines */
	const char *host;
	uint16_t port;
	struct side side[2];         /* [0] local, [1] partner */
	uint32_t streams;            /* -P: streams per side (1: none shown) */
	/* Fairness over the receiving side's streams (streams > 1): */
	int      have_fair, have_fair_steady;
	double   fair;               /* Jain's index of their goodputs */
	double   fair_steady;        /* ... of their steady-state goodputs */
	int      interrupted;        /* ^C: partial */
	double   link_bps;           /* --link, 0: none */
	double   link_eta, link_expected_mbit;  /* with --link */
	int      ecn;                /* --ecn: the ECN figures are shown */
	double   link_frames;        /* --link: the receiver's frames on the link
	                                (linkpred_frames; 0: unknown); the ratio
	                                may read up to link_high high */
	struct fig link_high;        /* 2 / (link_frames - 2), with frames > 2
	                                (model_figures) */
	int      have_path;          /* --link with --rtt: path is filled */
	struct plim path;
	int      have_pred;          /* --link: the connection and its
	                                prediction (the table's link lines) */
	struct link_conn link_conn;
	struct link_pred link_pred;
	uint32_t udp_idle_ms;        /* UDP: a receiver without an end marker
	                                stops after this long idle */
	double   link_expected_bps;  /* ... the same in bit/s */
	double   link_expected_Bps;  /* ... and in bytes/s */
	const char *error;           /* a failed run: why (NULL: none) */
	struct lat_result lat;       /* --latency */
	enum run_error error_code;   /* ... and its code (RUN_OK: none) */
	double   pace_bps;           /* the sender's schedule (-g, --rate):
	                                payload bit/s of all its streams,
	                                data_len * 8 / gap each; 0: unpaced */
};

/* Append iv to s (grows the array; never on a data path). Returns 0 or -1
 * (no memory). */
int  model_add_ival(struct side *s, const struct ival *iv);
void model_free(struct run_model *m);
/* --omit: the steady state of s, the exact sum of its intervals that are
 * not omitted over their span; have_steady = 0 when there are none. */
void model_steady(struct side *s);
/* Do s's intervals tile its run and add up to its totals (s->r)? NULL, or
 * what is wrong (a partner's intervals are checked before they are shown
 * in a summary). An empty list is fine (no sampling). */
const char *model_ivals_invalid(const struct side *s);
/* Give s n streams (ids 1..n; tag, proto, role, len and count of s), the
 * rest zeroed, in place of any it had (n = 0: none). Returns 0, or -1 (no
 * memory; s unchanged). */
int  model_streams(struct side *s, uint32_t n);
/* s's totals from its streams that have a result: Bytes, Calls, datagrams,
 * bad bytes, the queue counts and socket drops are their sums (saturating
 * at 2^64 - 1); the window runs from the earliest start_ns to the latest
 * start_ns + real_ns; end_ns is the latest end_ns. Flags: RES_MARKER when
 * every stream has it, the others when any has. dgrams_sent is their sum,
 * or 0 (unknown) when one is unknown; verify_first is the smallest of the
 * streams' (each an offset in its own stream). A UDP receiver's udp_sent
 * and counts add up too; its largest displacement and delay variation are
 * the largest, jitter and mean delays the means weighted by each stream's
 * unique datagrams, have_udp and the UDPS_* flags only when every stream's.
 * CPU time is not touched: the side measures its own (one process, all
 * streams). A side without streams is left as it is. */
void model_sum(struct side *s);
/* Do a side's totals r (as its host reported them) fit its streams? NULL,
 * or what is wrong: Bytes, Calls or datagrams that are not the exact sums
 * of its streams' with a result, or sums that overflow 64 bits. NULL when
 * s has no streams. */
const char *model_sum_invalid(const struct side *s, const struct gput_result *r);
/* The sum of s's streams' intervals of index k into iv: bytes, calls,
 * datagrams, retrans, dups and reordered added (the 32-bit ones saturate),
 * cwnd added too (the side's window), srtt_us their mean; from the earliest
 * start to the latest end. IVAL_TCP and IVAL_UDP when every part has them,
 * IVAL_OMITTED when any part has it (the sum starts with its earliest),
 * IVAL_LAST when every stream has ended (its last interval came, or its
 * result) with its last interval at k or before. Returns 1 when the sum is
 * whole: every stream has reported interval k or ended before it. Returns
 * 0 while a stream that has not ended has no interval k yet, and when no
 * stream has an interval k (past the end). */
int  model_ival_sum(const struct side *s, size_t k, struct ival *iv);
/* Rebuild s->iv from its streams' intervals: model_ival_sum for every
 * index from 0 while the sum is whole. Returns 0 or -1 (no memory). */
int  model_sum_ivals(struct side *s);
/* Jain's fairness index of x[0..n) (each >= 0): (sum x)^2 / (n * sum x^2),
 * in [1/n, 1]; exactly 1 when all are equal. Returns 0 when n is 0 or all
 * x are 0. */
double model_jain(const double *x, size_t n);
/* The index of m's receiving side (role ROLE_RECV), or -1. */
int  model_recv_side(const struct run_model *m);
/* Fairness of m's receiving side's streams, when m->streams > 1 and that
 * side has a result and m->streams streams (else have_fair = 0): a
 * stream's goodput is Bytes * 8 / Real s (0 when real_ns is 0); its share
 * is its goodput over their sum (0 when that is 0); fair is Jain's index
 * of the goodputs. When every stream has_steady (--omit), fair_steady is
 * that of steady_bytes over steady_ns. Call after model_steady() on the
 * streams. */
void model_fairness(struct run_model *m);
/* Service demand (netperf's): microseconds of CPU per MB (10^6 bytes) moved,
 * cpu_ns / 1000 over bytes / 10^6; *ok = 0 (and 0 returned) when bytes is
 * 0. */
double model_service_demand(const struct gput_result *r, int *ok);
/* MBit/s for bytes over ns: bytes * 8 * 1000 / ns; *ok = 0 (and 0
 * returned) when ns is 0. */
double model_mbit(uint64_t bytes, uint64_t ns, int *ok);
/* The same in bytes per second (Prometheus's base unit). */
double model_byte_s(uint64_t bytes, uint64_t ns, int *ok);
/* The ratio of a measured rate to what it is compared with (--link's
 * eta * C, a path's bound; gput-pcap's too): got / of, without a value
 * when got has none or of is not above 0. */
struct fig model_ratio(struct fig got, double of);
/* The rates of r into fig (its other figures zeroed): MBit/s and calls/s
 * over Real s and CPU s, each without a value when its time is 0, and
 * datagrams and bytes per call, without one when there were no calls. For a
 * result that is not a side of a model (the sums of several partners). */
void model_rates(const struct gput_result *r, struct figures *fig);
/* A UDP receiver's loss into fig: sent less unique (udpacct_lost_of: 0
 * when fewer were sent; a sender that does not know says 0), and that in
 * % of sent (no value when sent is 0). The arrival line, JSON,
 * Prometheus and --repeat read this one definition. */
void model_loss(uint64_t sent, uint64_t unique, struct figures *fig);
/* When a side has one stream (-P 1), the side's TCP_INFO and UDP
 * accounting are its stream's. */
void model_fold_stream(struct side *s);
/* Every figure of m, into each side's and each stream's fig: model_rates;
 * a UDP receiver's loss against udp_sent (model_loss); with --link
 * (have_pred), Real MBit/s over the expected eta * C and over the path's
 * bound when that is lower, and how high a short run's ratio may read
 * (link_high, from link_frames). Call once the counts are final (a decoded
 * model_rec: model_rec_take does). */
void model_figures(struct run_model *m);
/* --sliding-window: s's win from its streams' when every stream has one
 * (have_win): the counts add up (saturating), window and retries are the
 * first stream's, srtt_ns the mean over the streams with a sample, rto_ns
 * the largest, failed when any failed. A side without streams is left as
 * it is. */
void model_win_sum(struct side *s);

#endif

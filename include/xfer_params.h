/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_XFER_PARAMS_H
#define GPUT_XFER_PARAMS_H

#include <stdint.h>

/*
 * A transfer's parameters: what one side needs to run its half, as the
 * command line sets them and PARAMS carries them, with their limits and
 * the arithmetic on them alone (the schedule, the number of writes). No
 * sockets, no clock, no data-path type: the control codec, the model and
 * the renderers take them from here.
 */

enum { PROTO_TCP = 0, PROTO_UDP = 1 };
enum { ROLE_SEND = 0, ROLE_RECV = 1 };

/* Largest UDP payload over IPv4 (65535 - 20 - 8); also gput's -l limit for UDP. */
#define XFER_UDP_MAX   65507u
/* Largest -l for TCP: buffers are allocated once, so keep them sane. */
#define XFER_TCP_MAX   (64u << 20)
/* Period of the -s pattern (pattern_spans): a prime above XFER_UDP_MAX, so
 * a datagram never holds a whole period and consecutive datagrams differ. */
#define XFER_STREAM_PERIOD 65521u

/* The most streams one test may have (-P). */
#define STREAM_MAX 128
/* Room for --cc: a comma list of congestion control names. */
#define XFER_CC_LIST 64

/* xflags (PARAMS byte 152): the extensions of control protocol 4. */
#define CTL_XF_ECN       0x0001u /* ECN on the data path (--ecn) */
#define CTL_XF_LATENCY   0x0002u /* latency probes (--latency), bytes 156..167 */
#define CTL_XF_ZEROCOPY  0x0004u /* --zerocopy: TCP MSG_ZEROCOPY, TCP_ZEROCOPY_RECEIVE */
#define CTL_XF_COOKIE    0x0008u /* the client echoes the partner's UDP cookies
                                    (xfer_path.h): asked when the partner sends
                                    UDP, which it refuses without */
#define CTL_XF_FULLREADS 0x0010u /* --full-reads: a TCP receiver's recv()
                                    returns with a whole -l (SO_RCVLOWAT) */
#define CTL_XF_WINDOW    0x0020u /* --sliding-window: the UDP receiver answers
                                    every data datagram with an
                                    acknowledgement (wire_udp.h GPUA) on its
                                    return path, validated first as a
                                    sender's (CTL_XF_COOKIE asked too) */
#define CTL_XF_ECHOCOOKIE 0x0040u /* with CTL_XF_LATENCY: the client echoes
                                    the echo's cookie (partner_echo.h) */
#define CTL_XF_HOSTUDP   0x0080u /* the client takes the UDP receiving
                                    partner's host counters (HOSTUDP,
                                    wire_ctl.h); asked only of a UDP
                                    receiver */
#define CTL_XF_PEERTIME  0x0100u /* --peer-timeout: the client asks the
                                    partner for a dead-peer deadline other
                                    than NET_PEER_TIMEOUT_S (bytes 176..179);
                                    an older partner refuses the bit */
#define CTL_XF_KNOWN     (CTL_XF_LATENCY | CTL_XF_ECN | CTL_XF_ZEROCOPY | \
                          CTL_XF_COOKIE | CTL_XF_FULLREADS | CTL_XF_WINDOW | \
                          CTL_XF_ECHOCOOKIE | CTL_XF_HOSTUDP | \
                          CTL_XF_PEERTIME) /* the bits this build accepts */

/* Everything one side needs to run its half of a transfer. The data_* fields
 * describe the sender's stream and are the same on both sides. */
struct xfer_params {
	uint8_t  proto;       /* PROTO_TCP or PROTO_UDP */
	uint8_t  role;        /* ROLE_SEND or ROLE_RECV */
	uint8_t  nodelay;     /* -D: TCP_NODELAY */
	uint8_t  verify;      /* -c: receiver checks the pattern */
	uint8_t  verbose;     /* -v */
	uint8_t  batch;       /* --batch: UDP datagrams (messages) per system
	                         call, sendmmsg/recvmmsg (0, 1: one per call) */
	uint8_t  gso;         /* --gso: UDP_SEGMENT on send, UDP_GRO on receive */
	uint8_t  discard;     /* --discard: a receiver drops the data in the
	                         kernel (MSG_TRUNC) instead of copying it */
	uint32_t len;         /* -l: bytes per read/write call */
	uint64_t count;       /* -n: buffers (as given; see data_bytes) */
	uint32_t window;      /* -w: socket buffer in bytes; 0 = system default */
	uint32_t gap_us;      /* -g: gap between sends, µs */
	/* The sender's stream, shared by both sides: */
	uint32_t data_len;    /* sender's -l */
	uint64_t data_bytes;  /* total payload bytes the sender sends (-n * -l or -x) */
	uint64_t data_gap_ps; /* the sender's gap between writes, picoseconds
	                         (-g, --rate; 0: unpaced); the UDP receiver's
	                         idle timeout grows with it */
	uint32_t data_burst;  /* --burst: writes back to back per gap (0, 1: one) */
	uint32_t seed;        /* pattern seed (-S) */
	uint8_t  pattern_spans; /* -s, --stream: the pattern runs on across
	                         datagrams (period XFER_STREAM_PERIOD) */
	/* The run's shape, the same on both sides: */
	uint32_t duration_ms; /* --time: the sender sends this long; 0: count mode */
	uint32_t interval_ms; /* --interval: sample every this long; 0: never */
	uint32_t omit_ms;     /* --omit: intervals before this are omitted */
	char     cc[XFER_CC_LIST];  /* --cc: TCP congestion control, a comma
	                         list the streams take in turn; a stream's own
	                         copy holds its one name; "": the default */
	uint16_t streams;     /* -P: streams (1..STREAM_MAX) */
	uint32_t xflags;      /* CTL_XF_*: protocol 4's extensions asked */
	uint64_t cpus;        /* --affinity: the CPUs (0..63) the side's streams
	                         take in turn (affinity.h); 0: anywhere */
	uint32_t lat_interval_us; /* --latency: a probe every this long */
	uint32_t lat_idle_ms;     /* --latency-idle: probes before the data */
	uint32_t peer_timeout_s;  /* --peer-timeout: the dead-peer deadline, s,
	                         with CTL_XF_PEERTIME (NET_PEER_TIMEOUT_S <
	                         it <= NET_PEER_TIMEOUT_MAX_S); 0 without */
	/* Local only, never on the wire: */
	uint32_t win;         /* --sliding-window: a UDP sender's window of
	                         datagrams (0: none) */
	uint32_t win_retries; /* --retries: sends of a datagram beyond its first */
	uint64_t win_rto_ns;  /* --rto (0: RFC 6298 from the round trips) */
	uint8_t  win_gbn;     /* --go-back-n: a timeout sends every datagram
	                         out and unacknowledged again */
	uint64_t slip_ns;     /* a paced sender that runs later than this moves
	                         its schedule on instead of catching up with back
	                         to back sends (the partner's --max-rate); 0:
	                         catches up */
};

/* --batch: at most this many messages per sendmmsg/recvmmsg. */
#define XFER_BATCH_MAX 128u

/* Pacing limits: a gap of at most 10 s, bursts of at most a million writes. */
#define XFER_MAX_GAP_PS 10000000000000ull
#define XFER_MAX_BURST  1000000u

/* Time mode: the sender's stream has no length of its own; data_bytes is
 * this bound, and the sender stops when xfer_end is set. */
#define XFER_TIME_BYTES (1ULL << 62)

#define CTL_MAX_MS       86400000u  /* --time, --omit, --interval: a day */
#define CTL_MIN_INTERVAL_MS 100u    /* --interval: a tenth of a second */

/* The ranges every transfer's parameters keep, as PARAMS carries them
 * (the partner's own --max-* are checked on top): NULL, or what is wrong
 * ("stream count out of range", ...). */
const char *xfer_params_invalid(const struct xfer_params *x);

/* How long the sender's schedule alone takes, in seconds: a gap after each
 * burst of writes but the last (-g, --rate, --burst). */
double   xfer_schedule_s(const struct xfer_params *p);
/* When write i (from 0) is due on the schedule, in ns after the first:
 * bursts of data_burst writes, data_burst gaps apart, computed from i alone
 * so that the schedule never drifts. */
uint64_t xfer_due_ns(const struct xfer_params *p, uint64_t i);
/* (past 2^64 ns, 584 years, it saturates at UINT64_MAX: never wraps) */
/* The congestion control of stream k (0-based) from the --cc list in
 * list: its names in turn. Copies it (or "" for none) into out[16]. */
void     xfer_cc_pick(const char *list, uint32_t k, char out[16]);
/* Number of write calls (datagrams) the sender makes for its stream. */
uint64_t xfer_data_calls(const struct xfer_params *p);
/* Length of the sender's last write: data_len, or shorter with -x. */
uint32_t xfer_last_len(const struct xfer_params *p);
/* Does p's stream carry the UDP data header (wire_udp.h: GPUD)? Every
 * datagram must have room for it, the last one under -x too. */
int      xfer_udp_has_header(const struct xfer_params *p);

#endif

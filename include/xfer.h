#ifndef GPUT_XFER_H
#define GPUT_XFER_H

#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>

#include "meter.h"
#include "stop.h"
#include "wire_udp.h"

enum { PROTO_TCP = 0, PROTO_UDP = 1 };
enum { ROLE_SEND = 0, ROLE_RECV = 1 };

/* Largest UDP payload over IPv4 (65535 - 20 - 8); also gput's -l limit for UDP. */
#define XFER_UDP_MAX   65507u
/* Largest -l for TCP: buffers are allocated once, so keep them sane. */
#define XFER_TCP_MAX   (64u << 20)
/* Period of the -s stream pattern: a prime above XFER_UDP_MAX, so a datagram
 * never holds a whole period and consecutive datagrams differ. */
#define XFER_STREAM_PERIOD 65521u

/* The most streams one test may have (-P). */
#define STREAM_MAX 128
/* Room for --cc: a comma list of congestion control names. */
#define XFER_CC_LIST 64

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
	uint8_t  stream;      /* -s: pattern runs on across datagrams */
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
	/* Local only, never on the wire: */
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

/* A data pattern: period bytes repeated, laid out so that any stretch of up to
 * maxlen bytes starting at any phase is contiguous in buf. */
struct pattern {
	uint8_t *buf;
	size_t   period;
	size_t   size;
};

/* Fill a pattern for p's stream. Returns 0, or -1 with err filled (no memory). */
int      pattern_init(struct pattern *pt, const struct xfer_params *p,
                      size_t maxlen, char *err, size_t errlen);
void     pattern_free(struct pattern *pt);
/* Compare n received bytes that start at stream offset off; return how many
 * differ and, if any do and *first is UINT64_MAX, set *first to the offset of the first. */
uint64_t pattern_check(const struct pattern *pt, uint64_t off,
                       const uint8_t *data, size_t n, uint64_t *first);
/* 32-bit seed for a -S string (FNV-1a). */
uint32_t pattern_seed(const char *s);

/* UDP end-of-transfer markers (wire_udp.h): the sender sends MARKER_COUNT,
 * MARKER_SPACING_MS apart. */
#define MARKER_SPACING_MS  2

uint32_t xfer_marker_len(const struct xfer_params *p);
/* Build marker idx in buf (at least MARKER_MAX_LEN bytes); returns its length. */
size_t   xfer_marker_encode(const struct xfer_params *p, uint8_t *buf, uint8_t idx,
                            uint64_t dgrams, uint64_t bytes);
/* Is buf[0..n) a valid marker for p's stream? Stores what it says. */
int      xfer_marker_decode(const struct xfer_params *p, const uint8_t *buf,
                            size_t n, uint8_t *idx, uint64_t *dgrams);
/* The UDP proof datagram (wire_udp.h). */
uint32_t xfer_proof_len(const struct xfer_params *p);
/* Build the proof in buf (at least PROOF_MAX_LEN bytes); returns its length. */
size_t   xfer_proof_encode(const struct xfer_params *p,
                           const uint8_t nonce[PROOF_NONCE_LEN],
                           uint16_t stream, uint8_t *buf);
/* Is buf[0..n) the proof for stream (1..N) of p's test with this nonce? */
int      xfer_proof_check(const struct xfer_params *p,
                          const uint8_t nonce[PROOF_NONCE_LEN],
                          uint16_t stream, const uint8_t *buf, size_t n);
/* Discard every datagram queued on fd without waiting: what arrived before
 * the socket was connected came from anyone. Returns how many. */
uint64_t xfer_udp_drain(int fd);

/* The UDP data header (wire_udp.h: GPUD, WIRE_GPUD_LEN bytes). */
/* Does p's stream carry the header? */
int      xfer_udp_header(const struct xfer_params *p);

/* A --log record, little-endian: 0 seq u64, 8 send ns u64, 16 arrival ns
 * u64 (the kernel's real-time stamp), 24 length u32, 28 flags u32 (UDPLOG_*). */
#define UDP_LOG_REC 32u
#define UDPLOG_DUP     0x01u
#define UDPLOG_REORDER 0x02u
#define UDPLOG_LATE    0x04u
#define UDPLOG_OLD     0x08u
#define UDPLOG_NOSEQ   0x10u  /* no header: seq is the arrival index */

/* The UDP receiver's window: span (first to last arrival) widened by the
 * first datagram's share, since N datagrams arrive over N - 1 gaps:
 * span * bytes / (bytes - first_len), without overflow; 0 when bytes <=
 * first_len (one datagram has no span). */
uint64_t xfer_udp_window(uint64_t span, uint64_t bytes, uint64_t first_len);

/* Make a new UDP socket ready to receive: ask for kernel arrival timestamps.
 * Call it before the sender may start: a datagram queued before this is
 * stamped only when it is read. Returns 0, or -1 with err filled. */
int      xfer_udp_prepare(int fd, char *err, size_t errlen);
/* The same for a stream's receiving socket with its parameters p, and
 * with --gso (not --discard) UDP GRO turned on: before the sender may
 * start, as a datagram that arrives before it is queued whole, never
 * coalesced (on loopback a whole run could arrive before the data path
 * started: one datagram a call, 8 runs in 30 under load). Returns 0, or -1
 * with err filled; GRO refused is left to the data path to report. */
int      xfer_udp_prepare_rx(int fd, const struct xfer_params *p, char *err,
                             size_t errlen);
/* The UDP receiver's idle timeout once data has started, in ms. */
int      xfer_udp_idle_ms(const struct xfer_params *p);

/*
 * A stream: one data connection (TCP) or socket pair (UDP) and the state
 * its data loop owns. The loop writes only here; another thread (the
 * sampler) reads the live counters, which sit on a cache line of their own,
 * stored once per call with a relaxed store (a plain store on every target
 * gput runs on). Nothing is shared between streams per call but the stop
 * request, which is only read.
 */
struct xfer_live {
	_Atomic uint64_t bytes, calls, dgrams;
	_Atomic uint64_t dups, reordered;   /* UDP receiver with the header */
};
#define LIVE_SET(s, field, v) \
	atomic_store_explicit(&(s)->live.field, (v), memory_order_relaxed)
#define LIVE_GET(s, field) \
	atomic_load_explicit(&(s)->live.field, memory_order_relaxed)

struct udp_stats;
struct stream {
	_Alignas(64) struct xfer_live live;
	_Alignas(64) uint32_t id;     /* 1..N */
	int      fd;                  /* connected */
	struct xfer_params p;         /* this stream's half (its role, its cc) */
	struct stopreq *stop;         /* the run's */
	struct udp_stats *stats;      /* UDP receiver: its accounting (or NULL) */
	int      log_fd;              /* UDP receiver --log: records (-1: none) */
	/* Filled by the data loop: */
	struct gput_result r;
	mono_ns  start;               /* its window opened (0: never) */
	mono_ns  end;                 /* its data loop returned */
	int      rc;                  /* 0, or -1 with err */
	char     err[200];
	_Atomic int done;             /* r, start, end, rc are final */
	struct {                      /* --zerocopy (TCP), the data path's own */
		uint8_t  on;          /* the sender's MSG_ZEROCOPY is on */
		uint8_t *buf;         /* the pattern it lent pages of, until
		                         every completion is back */
		uint64_t done;        /* sends whose completion was read */
		uint64_t copied_sends;/* ... that the kernel copied after all */
		uint64_t mapped;      /* receiver: bytes mapped, not copied */
		uint64_t copied;      /* receiver: bytes it had to copy */
		uint64_t maps;        /* receiver: TCP_ZEROCOPY_RECEIVE calls */
	} zc;
};

/* Sleep until the absolute monotonic time t (the -g schedule); a stop
 * request cuts it short. Returns how late it returns (ns past t, at its
 * last look at the clock; 0 without a stop pipe, where it reads none). */
mono_ns xfer_sleep_until(const struct stopreq *st, mono_ns t);
/* How far a sender that woke late by late ns moves its schedule on: what
 * is past p->slip_ns (0 without one). */
mono_ns xfer_slip(const struct xfer_params *p, mono_ns late);

/* The sending loop both protocols share: p->data_bytes in writes of p->len
 * from the pattern, -g pacing, no clock read per call. ENOBUFS (a full
 * queue below the socket) is waited out, up to 1 ms a time, and with -v
 * counted on stderr. Fills bytes, calls, real and CPU time.
 * Returns 0, or -1 with err filled. With period = len a
 * full write brings the pattern phase back to 0, so a UDP datagram starts
 * the pattern anew unless -s made the period longer. */
int  xfer_send_loop(struct stream *s);
/* --zerocopy: read MSG_ZEROCOPY's completions from s's error queue
 * without waiting (each covers a range of sends; the kernel marks those it
 * copied after all) into s->zc. Returns how many completed in this call. */
uint64_t xfer_zc_reap(struct stream *s);
/* ENOBUFS on fd: wait until the queue below the socket may have room, up
 * to 1 ms. */
void xfer_nobufs_wait(int fd);
/* A failed data call e of stream s while doing what ("sending",
 * "receiving"), in words a user can act on, into s->err. */
void xfer_io_error(struct stream *s, int e, const char *what);

#endif

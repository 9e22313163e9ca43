/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_WIRE_CTL_H
#define GPUT_WIRE_CTL_H

#include <stddef.h>
#include <stdint.h>

#include "hostudp.h"
#include "latstat.h"
#include "mcast_group.h"
#include "meter.h"
#include "model.h"
#include "xfer_params.h"

/*
 * The control protocol, version 4: every message is an 8-byte header and a
 * payload, integers big-endian, each field at a named offset below. The
 * byte layout of every message, and a session's course, are
 * doc/control-protocol.md, the one description of them (unit_ctldoc
 * checks it against these offsets); gput(1), CONTROL PROTOCOL, says what a
 * user needs.
 */
#define CTL_MAGIC        "GPUT"
#define CTL_VERSION      4
#define CTL_HDR_LEN      8
#define CTL_MAX_PAYLOAD  320
#define CTL_MAX_TEXT     200
#define CTL_HELLO_LEN    40
#define CTL_PARAMS_LEN   216
#define CTL_READY_LEN    52     /* with one port; 2 more per further port */
#define CTL_RESULT_LEN   120
#define CTL_CHALLENGE_LEN 32
#define CTL_MAC_LEN      32
#define CTL_NONCE_LEN    16
#define CTL_PARAMS_SIGNED 184  /* PARAMS bytes the MAC covers */
/* PARAMS byte 152, xflags: CTL_XF_* (xfer_params.h). */
/* PARAMS extension ranges (offsets into the payload). */
#define CTL_PX_XFLAGS    152
#define CTL_PX_LATENCY   156     /* 12 bytes: 156 probe interval_us u32
                                    (CTL_LAT_MIN_US..CTL_LAT_MAX_US), 160
                                    idle_ms u32 (..CTL_LAT_MAX_IDLE_MS),
                                    164 zero u32 */
#define CTL_LAT_MIN_US      1000u      /* --latency-interval: 1 ms .. */
#define CTL_LAT_MAX_US      1000000u   /* .. 1 s */
#define CTL_LAT_MAX_IDLE_MS 60000u     /* --latency-idle: at most a minute */
#define CTL_ECHOPORT_LEN  4
#define CTL_ECHOSTATS_LEN 48
#define CTL_HOSTUDP_LEN  24
#define CTL_PX_AFFINITY  168     /* 8 bytes: --affinity, CPUs 0..63 (affinity.h) */
#define CTL_PX_PEER_TIMEOUT 176  /* u32: --peer-timeout, s, with
                                    CTL_XF_PEERTIME; else zero */
#define CTL_PX_HARDEN    180     /* 4 bytes, zero */
#define CTL_INTERVAL_LEN 64
#define CTL_TCPINFO_LEN  96
#define CTL_UDPSTATS_LEN 144
#define CTL_READY_SIGNED  20   /* READY bytes the MAC covers */
#define CTL_HELLO_KEY    0x01u /* HELLO flag: a shared secret is required */
#define CTL_MCAST        0x0001u /* PARAMS mflags: the partner receives a group */
/* CTL_MAX_MS, CTL_MIN_INTERVAL_MS: xfer_params.h. */

/* Byte offsets of every field in its message's payload (the list above):
 * the encoder and the decoder both write and read at these names. */
/* The header. */
#define CTL_HDR_MAGIC    0       /* 4 bytes, CTL_MAGIC */
#define CTL_HDR_VERSION  4
#define CTL_HDR_TYPE     5
#define CTL_HDR_PLEN     6
/* HELLO. */
#define CTL_HELLO_FLAGS  0
#define CTL_HELLO_RSVD   4
#define CTL_HELLO_CHALLENGE 8
/* PARAMS (CTL_PX_XFLAGS and on: the extensions, above). */
#define CTL_PX_PROTO       0
#define CTL_PX_ROLE        1
#define CTL_PX_FLAGS       2     /* CTL_PF_* */
#define CTL_PX_BATCH       3
#define CTL_PX_LEN         4
#define CTL_PX_COUNT       8
#define CTL_PX_WINDOW      16
#define CTL_PX_GAP_US      20
#define CTL_PX_DATA_LEN    24
#define CTL_PX_SEED        28
#define CTL_PX_DATA_BYTES  32
#define CTL_PX_DATA_GAP_PS 40
#define CTL_PX_DURATION_MS 48
#define CTL_PX_INTERVAL_MS 52
#define CTL_PX_OMIT_MS     56
#define CTL_PX_DATA_BURST  60
#define CTL_PX_CC          64    /* XFER_CC_LIST bytes */
#define CTL_PX_STREAMS     128
#define CTL_PX_MFLAGS      130   /* CTL_MCAST */
#define CTL_PX_MFAMILY     132   /* bytes 132..151: the group (CTL_MCAST) */
#define CTL_PX_MTTL        133
#define CTL_PX_MPORT       134
#define CTL_PX_MGROUP      136   /* 16 bytes */
#define CTL_PX_LAT_INTERVAL_US CTL_PX_LATENCY
#define CTL_PX_LAT_IDLE_MS (CTL_PX_LATENCY + 4)
#define CTL_PX_LAT_RSVD    (CTL_PX_LATENCY + 8)
#define CTL_PX_MAC         CTL_PARAMS_SIGNED
/* PARAMS byte 2, flags. */
#define CTL_PF_NODELAY   0x01u
#define CTL_PF_VERIFY    0x02u
#define CTL_PF_STREAM    0x04u
#define CTL_PF_VERBOSE   0x08u
#define CTL_PF_GSO       0x10u
#define CTL_PF_DISCARD   0x20u
#define CTL_PF_ALL       0x3fu
/* READY. */
#define CTL_RDY_PORT     0
#define CTL_RDY_NPORTS   2
#define CTL_RDY_NONCE    4
#define CTL_RDY_MAC      CTL_READY_SIGNED
#define CTL_RDY_PORTS    CTL_READY_LEN   /* the other streams' ports */
/* RESULT: the eleven u64 counts from 0, 8 bytes apart. */
#define CTL_RES_COUNTS   0
#define CTL_RES_FLAGS    88
#define CTL_RES_SNDBUF   92
#define CTL_RES_RCVBUF   96
#define CTL_RES_STREAM   100
#define CTL_RES_START_NS 104
#define CTL_RES_END_NS   112
/* INTERVAL. */
#define CTL_IVL_INDEX    0
#define CTL_IVL_FLAGS    4
#define CTL_IVL_START_NS 8
#define CTL_IVL_END_NS   16
#define CTL_IVL_BYTES    24
#define CTL_IVL_CALLS    32
#define CTL_IVL_DGRAMS   40
#define CTL_IVL_RETRANS  48      /* IVAL_UDP: duplicates */
#define CTL_IVL_CWND     52      /* IVAL_UDP: reordered */
#define CTL_IVL_SRTT_US  56
#define CTL_IVL_STREAM   60
/* TCPINFO. */
#define CTL_TCPI_CC        0     /* 16 bytes */
#define CTL_TCPI_RETRANS   16
#define CTL_TCPI_RTT_US    24
#define CTL_TCPI_MIN_RTT_US 28
#define CTL_TCPI_CWND      32
#define CTL_TCPI_MSS       36
#define CTL_TCPI_DELIVERY_RATE 40
#define CTL_TCPI_BUSY_US   48
#define CTL_TCPI_RWND_LIMITED_US 56
#define CTL_TCPI_SNDBUF_LIMITED_US 64
#define CTL_TCPI_STREAM    72
#define CTL_TCPI_ECN       76
#define CTL_TCPI_DELIVERED_CE 80
#define CTL_TCPI_RECEIVED_CE  84
#define CTL_TCPI_RECEIVED_CE_BYTES 88
#define CTL_TCPI_RSVD      92
/* UDPSTATS: the eleven u64 counts (received .. delay_var_max_ns) from 0,
 * 8 bytes apart. */
#define CTL_UDPS_COUNTS    0
#define CTL_UDPS_OWD_MIN   88
#define CTL_UDPS_OWD_MEAN  96
#define CTL_UDPS_FLAGS     104
#define CTL_UDPS_STREAM    108
#define CTL_UDPS_ECN       112   /* 4 u64 */
/* ECHOPORT; ECHOSTATS: its six u64 counts from 0, 8 bytes apart. */
#define CTL_EPORT_PORT     0
#define CTL_EPORT_RSVD     2
#define CTL_ESTATS_COUNTS  0
/* HOSTUDP (CTL_XF_HOSTUDP): the receiving host's UDP drop counters' deltas
 * (hostudp.h); each at most HOSTUDP_MAX. */
#define CTL_HUDP_RCVBUF    0     /* u64: RcvbufErrors */
#define CTL_HUDP_INERR     8     /* u64: InErrors */
#define CTL_HUDP_FLAGS     16    /* u32: HOSTUDP_V6 */
#define CTL_HUDP_RSVD      20    /* u32: zero */

enum ctl_type {
	CTL_PARAMS = 1,
	CTL_READY  = 2,
	CTL_RESULT = 3,
	CTL_ERROR  = 4,
	CTL_HELLO  = 5,
	CTL_START  = 6,
	CTL_STOP   = 7,
	CTL_INTERVAL = 8,
	CTL_TCPINFO  = 9,
	CTL_UDPSTATS = 10,
	CTL_ECHOPORT = 13,
	CTL_ECHOSTATS = 14,
	CTL_HOSTUDP = 17,
};
/* Types 11..16 are set aside for extensions of version 4 (11, 12: the
 * partner's return-path check; 13, 14: latency probes; 15, 16: the data
 * path); until a build defines them they are unknown and refused. 17:
 * HOSTUDP, sent only to a client that set CTL_XF_HOSTUDP. */
#define CTL_TYPE_MAX CTL_HOSTUDP   /* the largest; ctl_type_known() says
                                        which below it exist */

struct ctl_msg {
	uint8_t type;
	uint32_t hello_flags;                  /* CTL_HELLO */
	uint8_t challenge[CTL_CHALLENGE_LEN];  /* CTL_HELLO */
	struct xfer_params params;             /* CTL_PARAMS */
	struct mcast_group mcast;              /* CTL_PARAMS: -m (family 0:
	                                          none) */
	uint8_t mac[CTL_MAC_LEN];              /* CTL_PARAMS, CTL_READY */
	uint16_t port[STREAM_MAX];             /* CTL_READY: data ports */
	uint16_t nports;                       /* CTL_READY */
	uint8_t nonce[CTL_NONCE_LEN];          /* CTL_READY */
	struct gput_result result;             /* CTL_RESULT */
	uint64_t start_ns, end_ns;             /* CTL_RESULT */
	uint32_t stream;                       /* CTL_RESULT (0: the side),
	                                          INTERVAL, TCPINFO, UDPSTATS */
	uint32_t ival_index;                   /* CTL_INTERVAL */
	struct ival ival;                      /* CTL_INTERVAL */
	struct tcp_stats tcp;                  /* CTL_TCPINFO */
	struct udp_stats udp;                  /* CTL_UDPSTATS */
	uint16_t echo_port;                    /* CTL_ECHOPORT */
	struct echo_stats echo;                /* CTL_ECHOSTATS */
	struct hostudp hostudp;                /* CTL_HOSTUDP */
	char text[CTL_MAX_TEXT + 1];           /* CTL_ERROR, NUL-terminated */
};

/* The codec (wire_ctl.c): bytes in, a message or a reason out. The
 * functions keep the protocol's name, ctl_, as its constants do; ctl.h
 * sends and receives them. */
/* The bytes a MAC covers: challenge || PARAMS bytes 0..151, and for READY
 * also READY bytes 0..19 and 52.., into out (at least CTL_SIGNED_MAX
 * bytes). ready may be NULL. Returns the number of bytes written. */
#define CTL_SIGNED_MAX (CTL_CHALLENGE_LEN + CTL_PARAMS_SIGNED + \
	CTL_READY_SIGNED + 2 * STREAM_MAX)
size_t ctl_signed_bytes(const uint8_t *challenge, const struct ctl_msg *params,
                        const struct ctl_msg *ready, uint8_t *out);

/* Encode m into buf (at least CTL_HDR_LEN + CTL_MAX_PAYLOAD bytes).
 * Returns the message length. */
size_t ctl_encode(const struct ctl_msg *m, uint8_t *buf);

/* Check a header; on success store type and payload length. Returns 0, or
 * -1 with err filled (bad magic, unknown version, type or oversized length). */
int ctl_decode_header(const uint8_t *hdr, uint8_t *type, uint16_t *plen,
                      char *err, size_t errlen);

/* Decode a payload of the given type. Returns 0, or -1 with err filled
 * (wrong length for the type, a field out of range). */
int ctl_decode_payload(uint8_t type, const uint8_t *p, size_t plen,
                       struct ctl_msg *m, char *err, size_t errlen);

/* Is t a message type this build knows (types 11, 12, 15, 16 are set
 * aside for other extensions; 17 is HOSTUDP)? */
int ctl_type_known(uint8_t t);

/* "PARAMS", "READY", ..., or "unknown". */
const char *ctl_type_name(uint8_t type);

/* Build an ERROR message. */
void ctl_error(struct ctl_msg *m, const char *text);

/* A partner at its --max-sessions limit refuses with an ERROR whose text
 * begins with CTL_BUSY_TEXT: the protocol's one error code, so that a
 * client can tell "try later" from any other refusal. */
#define CTL_BUSY_TEXT "partner busy"
/* Is m the partner's busy refusal? */
int ctl_error_busy(const struct ctl_msg *m);

/* The first bytes the client sends on each TCP data connection (before any
 * data, client_open.c): READY's nonce, then the stream's number (1..N),
 * big-endian. Not payload: gput counts what follows. */
#define CTL_DATA_HELLO_LEN (CTL_NONCE_LEN + 2)
/* The stream number buf[0..n) names when it is exactly such a header (n is
 * CTL_DATA_HELLO_LEN, the number 1 to STREAM_MAX), else 0. The nonce
 * itself cannot be checked without READY. */
uint32_t ctl_data_hello_stream(const uint8_t *buf, size_t n);
/* The header for stream (1..N) with READY's nonce into buf
 * (CTL_DATA_HELLO_LEN bytes). */
void ctl_data_hello(const uint8_t *nonce, uint16_t stream, uint8_t *buf);

#endif

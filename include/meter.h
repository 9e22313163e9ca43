/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_METER_H
#define GPUT_METER_H

#include <stdint.h>

/* One monotonic clock type for the whole program (CLOCK_MONOTONIC, ns). */
typedef uint64_t mono_ns;

/* What one side measured; filled by the data paths, rendered by report.c,
 * carried to the other side in a CTL_RESULT message. Counters are 64-bit. */
struct gput_result {
	uint64_t bytes;         /* payload bytes this side moved */
	uint64_t calls;         /* data read/write calls (a UDP sender's markers too) */
	uint64_t real_ns;       /* wall time of the transfer window */
	uint64_t cpu_ns;        /* user + system CPU over the same window */
	uint64_t dgrams;        /* UDP: data datagrams sent or received */
	uint64_t dgrams_sent;   /* UDP receiver: datagrams the sender says it sent (0 = unknown) */
	uint64_t verify_bad;    /* -c: bytes that differ from the pattern */
	uint64_t verify_first;  /* -c: stream offset of the first bad byte */
	uint64_t unsent;        /* TCP sender: bytes not yet sent when the last write returned */
	uint64_t unacked;       /* TCP sender: bytes sent but not acknowledged then */
	uint64_t sock_drops;    /* UDP receiver: datagrams its socket dropped (SO_MEMINFO) */
	uint32_t flags;         /* RES_* */
	uint32_t sndbuf;        /* the data socket's buffers as the kernel set */
	uint32_t rcvbuf;        /*   them (SO_SNDBUF/SO_RCVBUF; RES_BUFS) */
};

#define RES_MARKER   0x01u  /* UDP receiver: an end marker arrived */
#define RES_IDLE     0x02u  /* UDP receiver: ended on the idle timeout */
#define RES_VERIFIED 0x04u  /* -c: data was checked */
#define RES_QUEUE    0x08u  /* TCP sender: unsent/unacked are valid */
#define RES_DROPS    0x10u  /* UDP receiver: sock_drops is valid */
#define RES_STOPPED  0x20u  /* stopped early on request: the counts are partial */
#define RES_BUFS     0x40u  /* sndbuf and rcvbuf are valid */
#define RES_STEPPED  0x80u  /* UDP receiver: the real-time clock was stepped, real_ns
                             * is from the read times (meter_stamp_span) */
#define RES_ALL      0xffu

/* A measurement window: the clock and the process CPU time at its start. */
struct meter {
	mono_ns  t0;
	uint64_t cpu0;
};

mono_ns  mono_now(void);
/* Open the window now. */
void     meter_start(struct meter *m);
/* Open the window at an earlier moment t0 already read from the clock. */
void     meter_start_at(struct meter *m, mono_ns t0);
void     meter_stop(const struct meter *m, struct gput_result *r);

/* CLOCK_REALTIME - CLOCK_MONOTONIC now, in ns. Slewing (NTP) moves both
 * clocks alike and leaves it; a step of the real-time clock changes it. */
int64_t  meter_real_offset(void);

/* A change of that offset up to this much is reading jitter, not a step. */
#define METER_STEP_TOL_NS 1000000

/*
 * The span from first to last, two kernel timestamps on CLOCK_REALTIME (the
 * kernel has no monotonic socket timestamp), given the offset read before
 * the first (off0) and after the last (off1). While the offset stayed within
 * METER_STEP_TOL_NS, returns last - first (0 if negative). Otherwise the
 * clock was stepped in between and the two stamps cannot be compared:
 * returns fallback, the span measured on the monotonic clock some other
 * way, and sets *stepped (else clears it).
 */
uint64_t meter_stamp_span(uint64_t first, uint64_t last, int64_t off0,
                          int64_t off1, uint64_t fallback, int *stepped);

#endif

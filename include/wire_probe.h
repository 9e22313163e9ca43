/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_WIRE_PROBE_H
#define GPUT_WIRE_PROBE_H

#include <stddef.h>
#include <stdint.h>

#include "meter.h"

/*
 * Latency probes (--latency; gput(1), LATENCY PROBES): small UDP datagrams
 * the client sends to the partner's echo port at a fixed interval, which
 * the partner sends back. Every probe is PROBE_LEN bytes, integers
 * big-endian:
 *
 *   0  4  magic "GPLP"
 *   4  1  version (1)
 *   5  1  kind: 1 request (client -> partner), 2 echo (partner -> client)
 *   6  2  zero
 *   8 16  nonce: the session's, from READY (the proof of the echo path)
 *  24  8  seq u64: the probe's number, from 0
 *  32  8  t_send_ns u64: the client's send time, CLOCK_REALTIME ns
 *  40  8  t_echo_ns u64: request 0; echo: the partner's receive time,
 *         CLOCK_REALTIME ns
 *
 * An echo is its request with kind 2 and t_echo_ns filled in: never a byte
 * longer than what arrived.
 */
#define PROBE_MAGIC   "GPLP"
#define PROBE_VERSION 1
#define PROBE_LEN     48
#define PROBE_NONCE_LEN 16
enum { PROBE_REQ = 1, PROBE_ECHO = 2 };

struct probe {
	uint8_t  kind;                    /* PROBE_REQ or PROBE_ECHO */
	uint8_t  nonce[PROBE_NONCE_LEN];
	uint64_t seq;
	uint64_t t_send_ns, t_echo_ns;
};

/* Write p into buf (PROBE_LEN bytes). Returns PROBE_LEN. */
size_t probe_encode(const struct probe *p, uint8_t *buf);

/* Read n bytes of b into p. Returns 0, or -1 when they are not a probe:
 * another length than PROBE_LEN, another magic or version, an unknown kind,
 * non-zero reserved bytes, or a request with t_echo_ns set. */
int    probe_decode(const uint8_t *b, size_t n, struct probe *p);

/* Partner: turn the request b (n bytes as received) into its echo in place,
 * stamped t_echo_ns, if it is a well-formed request carrying nonce. Returns
 * 0 (b holds the echo, n bytes long), or -1 (not such a request: b left as
 * it was). */
int    probe_make_echo(uint8_t *b, size_t n, const uint8_t *nonce,
                       uint64_t t_echo_ns);

/*
 * The partner's bound on how fast it echoes: a token bucket refilled at the
 * agreed probe rate (one probe per interval_ns) that holds at most
 * PROBE_BURST probes. A client that sends at its interval never runs it
 * dry; one that sends faster has the excess dropped.
 */
#define PROBE_BURST 16
struct probe_bucket {
	uint64_t interval_ns;   /* one token per this long */
	uint64_t credit_ns;     /* tokens held, in ns of refill (<= burst) */
	mono_ns  last;          /* last refill */
};

/* A full bucket at time now. */
void   probe_bucket_init(struct probe_bucket *b, uint64_t interval_ns,
                         mono_ns now);
/* Take a token at time now (never earlier than the last call's). Returns 1
 * if there was one (echo), 0 if not (drop). */
int    probe_bucket_take(struct probe_bucket *b, mono_ns now);

#endif

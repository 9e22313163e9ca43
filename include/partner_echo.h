/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_PARTNER_ECHO_H
#define GPUT_PARTNER_ECHO_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/socket.h>

#include "latstat.h"
#include "wire_probe.h"

/*
 * The partner's half of --latency: a UDP socket of its own and a thread of
 * its own (never the data's) that sends each latency probe back. It is
 * bounded as the partner's data path is:
 * - it answers only the proven sender: a well-formed request that carries
 *   the session's nonce and comes from the control connection's address,
 *   from a port of at least ECHO_MIN_PORT, gets the echo's cookie (GPUC,
 *   44 bytes, at most one per PATH_RESEND_MS), and the cookie's echo
 *   (GPUK) from that port fixes it, as the UDP data path's return path is
 *   validated (xfer_path.h); only then are requests echoed, and only from
 *   there. A client that forges a request from another port gets one
 *   cookie there, smaller than the request, and no echo. (A client that
 *   does not echo cookies, PARAMS without CTL_XF_ECHOCOOKIE, is refused
 *   latency probes.);
 * - an echo is its request, PROBE_LEN bytes, stamped: never longer than what
 *   arrived, and nothing else is ever sent;
 * - at most one echo per agreed interval on average (a token bucket of
 *   PROBE_BURST), the excess dropped and counted;
 * - it stops when the session ends (echo_stop);
 * - while the test's place is held before its data flows (the idle phase,
 *   echo_hold), a gap of more than quiet_ns without a probe from the
 *   client ends the session through its stop request: an idle phase holds
 *   a place only while probes arrive.
 */

/* The lowest source port the echo takes as the prober's: the services of
 * the client's host (DNS, NTP, SNMP, syslog...) below it are never aimed
 * at. */
#define ECHO_MIN_PORT 1024u

struct echo {
	int      fd;          /* -1: none */
	uint16_t port;        /* its local port, for the client */
	/* private */
	struct sockaddr_storage peer;    /* the control connection's peer */
	struct sockaddr_storage proven;  /* the proven sender (have_proven) */
	int      have_proven;
	uint8_t  nonce[PROBE_NONCE_LEN];
	struct probe_bucket bucket;
	struct echo_stats st;            /* the thread's; read after echo_stop */
	pthread_mutex_t lock;            /* st, for echo_snapshot */
	pthread_t th;
	int      wake[2];                /* a self-pipe: readable to stop */
	int      running;
	/* echo_hold: the session's stop request, the longest gap allowed */
	struct stopreq *hold_stop;
	uint64_t quiet_ns;
	_Atomic int holding;             /* 1 until echo_unhold */
	_Atomic int hold_expired;        /* the gap was too long: stopped */
	_Atomic uint64_t last_ns;        /* the last probe's arrival (mono) */
	/* the return path's validation (echo_start's validate) */
	int      validate;
	uint8_t  cookie[16];
	struct sockaddr_storage cand;    /* where the cookie went */
	int      have_cand;
	uint64_t last_cookie;            /* mono ns */
	uint64_t cookies;                /* sent; the thread's, read after stop */
	uint64_t unvalidated;            /* requests before the path was valid */
};

/* Open the echo's socket on local's address (the control connection's),
 * any port; peer is the control connection's peer. Returns 0, or -1 with
 * err filled. */
int  echo_open(struct echo *e, const struct sockaddr_storage *local,
               const struct sockaddr_storage *peer, char *err, size_t errlen);
/* Start echoing the session's nonce's probes at most once per interval_us
 * on average; with validate, only once the return path is validated (the
 * cookie, above). Returns 0, or -1 with err filled. */
int  echo_start(struct echo *e, const uint8_t *nonce, uint32_t interval_us,
                int validate, char *err, size_t errlen);
/* Before echo_start: hold the session's place only while probes arrive,
 * a gap of at most quiet_ns (counted from echo_start) between them;
 * else stop_request(stop) and hold_expired = 1. */
void echo_hold(struct echo *e, struct stopreq *stop, uint64_t quiet_ns);
/* The data flows: gaps no longer matter. */
void echo_unhold(struct echo *e);
/* 1 when the session was stopped for a gap (echo_hold). */
int  echo_hold_expired(struct echo *e);
/* The counters so far (the thread goes on). */
void echo_snapshot(struct echo *e, struct echo_stats *out);
/* Stop the thread and close the socket; e->st holds the final counts. Safe
 * on an echo that never opened (fd -1) or never started. */
void echo_stop(struct echo *e);

#endif

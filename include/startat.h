/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_STARTAT_H
#define GPUT_STARTAT_H

/*
 * --start-at EPOCH[.FRAC]: an absolute moment on CLOCK_REALTIME at which a
 * client begins its transfer, so that clients on several hosts (network
 * namespaces share the clock; hosts synchronised by NTP or PTP to within
 * what the result can bear) start theirs together. The client connects and
 * completes the handshake first (at most STARTAT_LEAD_MS before the moment),
 * then waits for it after START and sends its first byte then.
 */

#include <stddef.h>
#include <stdint.h>

#include "stop.h"

/* How far ahead --start-at may lie when gput starts. */
#define STARTAT_MAX_AHEAD_S 60
/* The handshake begins this long before the moment (or at once when it is
 * nearer): the partner then waits for data at most this much more than
 * usual, well inside its 10 s rule of progress. */
#define STARTAT_LEAD_MS     5000

/* CLOCK_REALTIME now, in ns since the epoch. */
int64_t startat_now(void);

/* Parse "EPOCH" or "EPOCH.FRAC" (seconds since 1970, up to nine decimals)
 * into ns, and hold it against now: in the past or more than
 * STARTAT_MAX_AHEAD_S ahead is refused. Returns 0, or -1 with why filled
 * (one line). */
int startat_parse(const char *s, int64_t now, int64_t *at, char *why,
                  size_t whylen);

/* Sleep until CLOCK_REALTIME reaches at, waking early on stop. Returns 0
 * at the moment, -1 when stopped. */
int startat_wait(int64_t at, const struct stopreq *stop);

#endif

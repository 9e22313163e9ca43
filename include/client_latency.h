/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_CLIENT_LATENCY_H
#define GPUT_CLIENT_LATENCY_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "config.h"
#include "model.h"
#include "client_prober.h"

/*
 * The client's --latency around a run (client.c): the echo's port from the
 * partner, the probes' idle phase before the data path opens, and their
 * result into the run's model afterwards.
 */

/* Right after READY: receive ECHOPORT on ctl, open the probes' socket (from
 * local's address to peer's) and run the idle phase, returning when it is
 * over or stop (the run's) comes. Returns 0, or -1 with err filled (the
 * partner's ERROR as "partner: ...", a stop request as "interrupted"). */
struct stopreq;
int  latency_begin(struct prober *p, int ctl, const struct stopreq *stop,
                   const struct sockaddr_storage *local,
                   const struct sockaddr_storage *peer, const uint8_t *nonce,
                   const struct config *c, char *err, size_t errlen);


/* After prober_finish(): the phases and counts into lr; link_bps and
 * queue_bytes (both non-zero) give the expected loaded round trip. Returns
 * 0, or -1 (no memory). */
int  latency_result(struct lat_result *lr, const struct prober *p,
                    const struct config *c);

/* The loaded round trip a full FIFO of queue_bytes draining at link_bps
 * adds to base_ns: base_ns + queue_bytes * 8 / link_bps s, in ns. */
double latency_expected_ns(double base_ns, double queue_bytes, double link_bps);

#endif

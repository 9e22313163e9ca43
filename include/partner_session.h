/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_PARTNER_SESSION_H
#define GPUT_PARTNER_SESSION_H

#include <stddef.h>
#include <sys/socket.h>

#include "auth.h"
#include "config.h"
#include "partner_gate.h"

/* The whole handshake, from accept to START, has this long: a client that
 * dribbles one byte at a time gains nothing. */
#define SESSION_HANDSHAKE_MS 10000
/* ... and a client has this long after HELLO to send its PARAMS: until then
 * it holds one of the few places of the unauthenticated (the grace time). */
#define SESSION_PARAMS_MS    3000
/* After a data error, how long the partner waits for the client's STOP or
 * close, which tell an interrupted client from a failure. */
#define SESSION_GRACE_MS     1000

/*
 * Serve one client's test on the connected control socket cfd: HELLO,
 * PARAMS checked against the key and the limits, a test's place in g (slot
 * is this session's; g NULL: --once, --inetd), READY, the client's proof
 * of its data path, START, the transfer, RESULT. key is NULL without
 * --key-file. Logs one line when the test starts and one when it ends.
 * Returns 0 when the test completed and its RESULT went out, 1 otherwise.
 */
int session_serve(int cfd, const struct sockaddr_storage *peer,
                  const struct config *c, const struct auth_key *key,
                  struct gate *g, int slot);

#endif

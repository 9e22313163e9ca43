/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_CTL_H
#define GPUT_CTL_H

#include <stddef.h>
#include <stdint.h>

#include "meter.h"
#include "net.h"
#include "wire_ctl.h"

/*
 * The control connection's I/O (ctl.c) over the codec (wire_ctl.h): a
 * message is sent whole; one is received whole before a deadline, through
 * net.c's one read with a deadline. Every wait honours the stop request
 * its caller passes (NULL: none). On failure err says why, for people, and
 * errno why, for code:
 *   ETIMEDOUT     the deadline passed
 *   EINTR         the stop request came
 *   NET_ECLOSED   the peer closed the connection (EOF)
 *   EPROTO        the bytes are not a message this build accepts (or, for
 *                 ctl_recv_until, another type than the one awaited)
 *   other         the socket's own error (ECONNRESET, EPIPE, ...)
 */
struct stopreq;

/* How long the partner waits for each control message and data connection. */
#define DAEMON_CTL_TIMEOUT_MS  10000
/* A data connection idle this long (no byte moved) is given up, both ends. */
#define DATA_IDLE_TIMEOUT_MS   10000

/* Send m on fd. Returns 0, or -1 with err filled. */
int ctl_send(int fd, const struct ctl_msg *m, char *err, size_t errlen);

/* Receive one whole message within timeout_ms. Returns 0, or -1 with err
 * filled: timeout, peer closed, malformed message. */
int ctl_recv(int fd, struct ctl_msg *m, int timeout_ms,
             const struct stopreq *stop, char *err, size_t errlen);

/* Receive one message within timeout_ms and insist on type want. Returns 0,
 * or -1 with err filled: ctl_recv's failures (naming the awaited message:
 * "timed out waiting for a READY message"), or another type ("unexpected
 * RESULT message (expected READY)"). When the peer sent ERROR instead, m holds
 * it (m->type is CTL_ERROR, m->text its reason) so the caller can say who
 * refused what; otherwise m->type is 0 or the unexpected type. */
int ctl_recv_type(int fd, uint8_t want, struct ctl_msg *m, int timeout_ms,
                  const struct stopreq *stop, char *err, size_t errlen);

/* ctl_recv_type with an absolute deadline on the monotonic clock (a whole
 * handshake can share one deadline: a peer that dribbles bytes gains
 * nothing). */
int ctl_recv_until(int fd, uint8_t want, struct ctl_msg *m, mono_ns deadline,
                   const struct stopreq *stop, char *err, size_t errlen);

/* Any message before deadline. Returns 0, or -1 with err filled. */
int ctl_recv_any_until(int fd, struct ctl_msg *m, mono_ns deadline,
                       const struct stopreq *stop, char *err, size_t errlen);

/* ctl_recv_any_until where one message is awaited above the others (a
 * RESULT after the last INTERVALs): a timeout or a close before a
 * message began says "timed out waiting for AWAITED", "connection closed
 * while waiting for AWAITED" (errno has the socket's error). */
int ctl_recv_awaiting(int fd, struct ctl_msg *m, mono_ns deadline,
                      const char *awaited, const struct stopreq *stop,
                      char *err, size_t errlen);

/* What the peer did while no message was due, seen without waiting and
 * without consuming anything. err is filled and errno set (NET_ECLOSED,
 * the socket's error, EPROTO) for all but CTL_PEER_QUIET. */
enum ctl_peer {
	CTL_PEER_QUIET,     /* connected, nothing pending */
	CTL_PEER_CLOSED,    /* orderly close (EOF): "connection closed" */
	CTL_PEER_FAILED,    /* reset or other error: strerror */
	CTL_PEER_SPOKE,     /* bytes arrived out of turn */
};
enum ctl_peer ctl_peer_state(int fd, char *err, size_t errlen);

#endif

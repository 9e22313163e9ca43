/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_XFER_PATH_H
#define GPUT_XFER_PATH_H

#include <stddef.h>
#include <stdint.h>

#include "meter.h"
#include "wire_udp.h"
#include "xfer.h"

/*
 * The return path of a UDP data socket, validated before the partner sends
 * on it (gput(1) SECURITY; wire_udp.h GPUC and GPUK). The proof datagram
 * shows that the client's address can reach the partner; its source port
 * is the client's word only (a raw socket can put any port there). So the
 * partner sends a random cookie to that address and port, from the data
 * socket connected to it, and waits for the echo: the cookie transformed,
 * from that same address and port. Only a socket that received the cookie
 * can give it, and no reflector (a UDP echo service) gives GPUK for GPUC.
 * The client's proofs, sent again until START, pace the cookies.
 */

/* How often the partner sends its cookie again until the echo comes. */
#define PATH_RESEND_MS 200


/*
 * The partner's side: fd is connected to the address the proof of stream
 * (1..N) came from, nonce READY's. Send a cookie and wait until deadline (or
 * the stop request) for its echo; with watch >= 0 give up when watch (the
 * control connection) is readable. The cookie goes again after PATH_RESEND_MS only when another
 * proof of the stream has come since (an honest client sends it every
 * CLIENT_PROOF_MS until START): never more cookies than proofs, so a
 * spoofed proof buys one cookie of about its own size, nothing more.
 * Nothing but the cookie is sent. *sent counts the cookies the kernel took.
 * Returns 0 (the path is valid), -1 with err (the deadline, the stop
 * request, ICMP port unreachable: the port is closed, at once), or -2 when
 * watch woke.
 */
int xfer_path_validate(int fd, const struct xfer_params *p,
                       const uint8_t nonce[PROOF_NONCE_LEN], uint16_t stream,
                       int watch, mono_ns deadline, const struct stopreq *stop,
                       uint64_t *sent, char *err, size_t errlen);

/*
 * The client's side, while it waits for START: echo every cookie of stream
 * queued on fd (connected to the partner's data socket), without waiting,
 * 64 datagrams at most; a cookie of another stream is dropped. Stops at the first datagram that
 * is not a cookie and leaves it queued: the partner's data has begun, and
 * it is the receiver's. *echoed counts the echoes the kernel took. Returns
 * 1 when such a datagram is queued, 0 when the queue is empty (or 64 were
 * read), or -1 with
 * err (a socket error other than a refused or dropped send).
 */
int xfer_path_echo(int fd, const struct xfer_params *p, uint16_t stream,
                   uint64_t *echoed, char *err, size_t errlen);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_CLIENT_OPEN_H
#define GPUT_CLIENT_OPEN_H

#include "client_state.h"

/* HELLO, PARAMS, READY: the test agreed, both ends authenticated when a key
 * is in use. Returns 0, or -1 with r->err filled (r->ecode when the partner
 * refused). */
int client_handshake(struct run *r);

/* Open every stream's data path to READY's ports and prove it (TCP: the
 * nonce and the stream's number; UDP: a proof datagram, sent again every
 * 200 ms, and the partner's cookies echoed), then wait for START (r->t0).
 * Returns 0, or -1 with r->err filled. */
int client_open_data(struct run *r);

#endif

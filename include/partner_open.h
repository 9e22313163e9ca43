/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_PARTNER_OPEN_H
#define GPUT_PARTNER_OPEN_H

#include <stddef.h>

#include "partner_state.h"

/* The data sockets of session s's agreed test: open them (one listening
 * TCP socket, a UDP socket per stream, or the multicast group), send READY
 * (and --latency's ECHOPORT), wait for the client's proof of every stream
 * (a TCP connection with READY's nonce, a UDP proof datagram from the
 * client's address, the UDP socket then connected to it), validate the
 * return path of UDP this partner sends (xfer_path.h), and set each
 * socket's options. Nothing is sent to an address before it is proved.
 * Returns 0, or -1 with err (the caller logs it and tells the client). */
int partner_open_data(struct session *s, char *err, size_t errlen);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_XFER_TCP_H
#define GPUT_XFER_TCP_H

#include "xfer.h"

/* The TCP data path of a stream. Each returns 0 with s->r filled, or -1
 * with s->err filled ("peer vanished", a timeout, a failed call). */
int xfer_tcp_send(struct stream *s);
int xfer_tcp_recv(struct stream *s);

#endif

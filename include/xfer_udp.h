#ifndef GPUT_XFER_UDP_H
#define GPUT_XFER_UDP_H

#include "xfer.h"

/* The UDP data path of a stream. Each returns 0 with s->r filled, or -1
 * with s->err filled. The receiver fills *s->stats (when not NULL) with its
 * accounting and writes --log records to s->log_fd (when not -1). */
int xfer_udp_send(struct stream *s);
int xfer_udp_recv(struct stream *s);
/* The batched receiver (--batch, --gso): recvmmsg, UDP GRO; the same
 * accounting, a datagram at a time. */
int xfer_udp_recv_batch(struct stream *s);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_XFER_UDP_H
#define GPUT_XFER_UDP_H

#include "xfer.h"

/* Discard every datagram queued on fd without waiting: what arrived before
 * the socket was connected came from anyone. Returns how many. */
uint64_t xfer_udp_drain(int fd);

/* The UDP receiver's window: span (first to last arrival) widened by the
 * first datagram's share, since N datagrams arrive over N - 1 gaps:
 * span * bytes / (bytes - first_len), without overflow; 0 when bytes <=
 * first_len (one datagram has no span). */
uint64_t xfer_udp_window(uint64_t span, uint64_t bytes, uint64_t first_len);

/* Make a new UDP socket ready to receive: ask for kernel arrival timestamps.
 * Call it before the sender may start: a datagram queued before this is
 * stamped only when it is read. Returns 0, or -1 with err filled. */
int      xfer_udp_prepare(int fd, char *err, size_t errlen);
/* The same for a stream's receiving socket with its parameters p, and
 * with --gso (not --discard) UDP GRO turned on: before the sender may
 * start, as a datagram that arrives before it is queued whole, never
 * coalesced (on loopback a whole run could arrive before the data path
 * started: one datagram a call, 8 runs in 30 under load). Returns 0, or -1
 * with err filled; GRO refused is left to the data path to report. */
int      xfer_udp_prepare_rx(int fd, const struct xfer_params *p, char *err,
                             size_t errlen);
/* The UDP receiver's idle timeout once data has started, in ms. */
int      xfer_udp_idle_ms(const struct xfer_params *p);

/* The UDP data path of a stream. Each returns 0 with s->r filled, or -1
 * with s->err filled. The receiver fills *s->stats (when not NULL) with its
 * accounting and writes --log records to s->log_fd (when not -1). */
int xfer_udp_send(struct stream *s);
int xfer_udp_recv(struct stream *s);
/* The batched receiver (--batch, --gso): recvmmsg, UDP GRO; the same
 * accounting, a datagram at a time. */
int xfer_udp_recv_batch(struct stream *s);

#endif

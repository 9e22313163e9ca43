/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_XFER_WINDOW_H
#define GPUT_XFER_WINDOW_H

#include "xfer.h"

/*
 * --sliding-window: a UDP sender that keeps at most p->win data datagrams
 * unacknowledged (swin.h: selective repeat, RFC 6298's timer or --rto),
 * sends a datagram again when its timer runs out, at most p->win_retries
 * times, and ends when every datagram is acknowledged (wire_udp.h GPUA,
 * from the socket it sends to: s->fd is connected).
 *
 * Its one loop: read every acknowledgement queued, send what timed out,
 * send what the window allows, wait (ppoll) for an acknowledgement, the
 * earliest timer or the stop request. The clock is read once a turn of
 * the loop, not once a datagram: the turn's sends share its time, which
 * each carries in its data header for the receiver to echo. Nothing is
 * allocated after the start (swin_init sizes everything by the window).
 *
 * s->r: bytes and dgrams are what was acknowledged, once each (goodput
 * counts a datagram's payload once, however often it went), calls the
 * sends (first and again); real time from the first send to the last
 * acknowledgement. s->win: the counts. Returns 0, or -1 with s->err (the
 * retry limit, the receiver's port closed, the stop request).
 */
int xfer_win_send(struct stream *s);

/* The receiver's idle timeout with --sliding-window, ms: the longest a
 * sender waits before it sends again (SWIN_RTO_MAX_NS), and a second. */
int xfer_win_idle_ms(void);

#endif

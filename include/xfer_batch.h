/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_XFER_BATCH_H
#define GPUT_XFER_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "xfer.h"

/*
 * The batched UDP data path (--batch, --gso): many datagrams per system
 * call. Every datagram still carries its own header and is counted on its
 * own by the receiver; only the number of calls changes.
 *  --batch N: sendmmsg/recvmmsg of up to N messages a call.
 *  --gso: a sent message is a super-buffer of up to XFER_GSO_SEGS_MAX
 *    datagrams that the kernel cuts into datagrams of -l bytes (UDP_SEGMENT);
 *    a received one may hold several datagrams that the kernel coalesced
 *    (UDP_GRO), cut apart again here by the size it reports.
 * A kernel or a path that refuses GSO or GRO leaves the run on one datagram
 * per message, said once on standard error.
 */

/* The kernel's UDP_MAX_SEGMENTS: datagrams in one GSO send. */
#define XFER_GSO_SEGS_MAX 64u
/* A GSO super-buffer stays within one UDP datagram's payload (IPv4). */
#define XFER_GSO_BYTES_MAX 65507u
/* A GRO receive buffer: the largest datagram the kernel may coalesce. */
#define XFER_GRO_BUF 65536u
/* recvmmsg with GRO: at most this many 64 KiB messages a call. */
#define XFER_GRO_VLEN_MAX 8u
/* --discard: the bytes of each datagram a UDP receiver reads (its header,
 * or an end marker whole); the kernel drops the rest. */
#define XFER_DISCARD_READ 64u

/* Datagrams per GSO super-buffer for p's datagrams of data_len bytes:
 * 1 when GSO is off or cannot put two in one. */
uint32_t xfer_gso_segs(const struct xfer_params *p);
/* How many datagrams the next send call takes, the first being datagram
 * i (from 0), with left datagrams still to send and room for cap: never
 * more than are due together on the schedule (the rest of i's burst when
 * paced; -g, --rate, --burst), so a batch sends nothing early. */
uint64_t xfer_batch_take(const struct xfer_params *p, uint64_t i, uint64_t left,
                         uint64_t cap);
/* The datagrams in a received message of n bytes that GRO built from
 * datagrams of gso bytes each (0: not coalesced, one datagram): how many,
 * and in *last the length of the last one (shorter, or gso). */
uint32_t xfer_gro_segs(size_t n, uint32_t gso, size_t *last);
/* Receive messages per call of a UDP receiver with p (1: recvmsg). */
uint32_t xfer_rx_vlen(const struct xfer_params *p);
/* Bytes of receive buffers a UDP receiver with p allocates (the partner
 * checks it against its limits). */
uint64_t xfer_rx_bytes(const struct xfer_params *p);
/* The most datagrams one data call of a side with p can move: a partner
 * that claims more is not believed. */
uint64_t xfer_dgrams_per_call_max(const struct xfer_params *p);

/* Turn UDP_GRO on for a receiving socket. Returns 0, or -1 after one line
 * on standard error: the receiver then reads one datagram per message. */
int      xfer_gro_enable(int fd);

/* The batched UDP sender: the stream in sendmmsg calls, through the one
 * send loop (xfer_send_run) with the batched build/send pair (markers after
 * it as plain datagrams). Returns 0 with s->r filled (calls: the system calls;
 * dgrams: the datagrams), or -1 with s->err filled. */
int      xfer_udp_send_batch(struct stream *s);

#endif

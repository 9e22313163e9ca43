/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_UDPLOG_H
#define GPUT_UDPLOG_H

#include <stddef.h>
#include <stdio.h>

/*
 * --log: the UDP receiver writes a binary record per datagram while data
 * flows (UDP_LOG_REC below; a copy per datagram, a write per 64); after
 * the run this turns them into text, one line per datagram:
 *   seq arrive_s send_s delay_ms len flags
 * arrive_s from the first arrival, send_s from the first send time (or "-"
 * when the sender was not paced), delay_ms the one-way delay above the
 * smallest seen (its variation; "-" when not paced), flags a word of
 * dup, reorder, late, old, noseq or "-". tools/plot-seq draws it.
 * When the sender's count is known, a second comment line says it:
 *   # sent 1000 datagrams, sequence numbers 0 to 999
 * so that the lost ones, tail losses too, can be told from the file.
 */

#include <stdint.h>

/* A --log record, little-endian (bytes.h): its fields' offsets. The
 * arrival is the kernel's real-time stamp. */
#define UDPLOG_SEQ     0u   /* u64 */
#define UDPLOG_SEND    8u   /* u64: send ns */
#define UDPLOG_AT     16u   /* u64: arrival ns */
#define UDPLOG_LEN    24u   /* u32: length */
#define UDPLOG_FLAGS  28u   /* u32: UDPLOG_* below */
#define UDP_LOG_REC   32u
#define UDPLOG_DUP     0x01u
#define UDPLOG_REORDER 0x02u
#define UDPLOG_LATE    0x04u
#define UDPLOG_OLD     0x08u
#define UDPLOG_NOSEQ   0x10u  /* no header: seq is the arrival index */

/* Read the records of bin (from its start) and write the text to path;
 * sent: the datagrams the sender sent (0: unknown). Returns 0, or -1 with
 * err filled. */
int udplog_text(FILE *bin, const char *path, uint64_t sent, char *err,
                size_t errlen);

#endif

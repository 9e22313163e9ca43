/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_XFER_MARKERS_H
#define GPUT_XFER_MARKERS_H

#include <stddef.h>
#include <stdint.h>

#include "wire_udp.h"
#include "xfer.h"

/* UDP end-of-transfer markers (wire_udp.h): the sender sends MARKER_COUNT,
 * MARKER_SPACING_MS apart. */
#define MARKER_SPACING_MS  2

uint32_t xfer_marker_len(const struct xfer_params *p);
/* Build marker idx in buf (at least MARKER_MAX_LEN bytes); returns its length. */
size_t   xfer_marker_encode(const struct xfer_params *p, uint8_t *buf, uint8_t idx,
                            uint64_t dgrams, uint64_t bytes);
/* Is buf[0..n) a valid marker for p's stream? Stores what it says. */
int      xfer_marker_decode(const struct xfer_params *p, const uint8_t *buf,
                            size_t n, uint8_t *idx, uint64_t *dgrams);
/* The UDP proof datagram (wire_udp.h). */
uint32_t xfer_proof_len(const struct xfer_params *p);
/* Build the proof in buf (at least PROOF_MAX_LEN bytes); returns its length. */
size_t   xfer_proof_encode(const struct xfer_params *p,
                           const uint8_t nonce[PROOF_NONCE_LEN],
                           uint16_t stream, uint8_t *buf);
/* Is buf[0..n) the proof for stream (1..N) of p's test with this nonce? */
int      xfer_proof_check(const struct xfer_params *p,
                          const uint8_t nonce[PROOF_NONCE_LEN],
                          uint16_t stream, const uint8_t *buf, size_t n);

/* After a UDP stream's data: the three end markers, plain datagrams
 * MARKER_SPACING_MS apart; each the kernel accepted counts in s->r.calls. */
void xfer_markers_send(struct stream *s);

#endif

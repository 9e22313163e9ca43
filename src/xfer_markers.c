/* SPDX-License-Identifier: BSD-2-Clause */
/* xfer_markers.c: the UDP datagrams around the data that a stream's
 * parameters shape (wire_udp.h lays them out): the end markers, which both
 * the plain and the batched sender send after their data, and the proof. */
#include "xfer_markers.h"

#include <sys/socket.h>

#include "ecn.h"

uint32_t
xfer_marker_len(const struct xfer_params *p)
{
	return wire_len_apart(MARKER_BASE_LEN, p->data_len, xfer_last_len(p));
}

size_t
xfer_marker_encode(const struct xfer_params *p, uint8_t *buf, uint8_t idx,
                   uint64_t dgrams, uint64_t bytes)
{
	uint32_t len = xfer_marker_len(p);

	wire_gpue_encode(buf, len, idx, dgrams, bytes);
	return len;
}

int
xfer_marker_decode(const struct xfer_params *p, const uint8_t *buf, size_t n,
                   uint8_t *idx, uint64_t *dgrams)
{
	struct wire_gpue m;

	if (n != xfer_marker_len(p) || wire_gpue_decode(buf, n, &m) != WIRE_OK ||
	    !m.zero)
		return 0;
	*dgrams = m.dgrams;
	*idx = m.idx;
	return 1;
}

uint32_t
xfer_proof_len(const struct xfer_params *p)
{
	return wire_len_apart(PROOF_BASE_LEN, p->data_len, xfer_last_len(p));
}

size_t
xfer_proof_encode(const struct xfer_params *p,
                  const uint8_t nonce[PROOF_NONCE_LEN], uint16_t stream,
                  uint8_t *buf)
{
	uint32_t len = xfer_proof_len(p);

	wire_gpuh_encode(buf, len, nonce, stream);
	return len;
}

int
xfer_proof_check(const struct xfer_params *p,
                 const uint8_t nonce[PROOF_NONCE_LEN], uint16_t stream,
                 const uint8_t *buf, size_t n)
{
	uint8_t want[PROOF_MAX_LEN], diff = 0;
	size_t i;

	if (n != xfer_proof_len(p))
		return 0;
	xfer_proof_encode(p, nonce, stream, want);
	for (i = 0; i < n; i++)             /* no early exit on the nonce */
		diff |= (uint8_t)(want[i] ^ buf[i]);
	return diff == 0;
}

/* Send the three markers; each one the kernel accepted counts as a call.
 * A refused one is not retried: the receiver has ended (the partner keeps
 * its socket open until the client is done, so normally all three go). */
void
xfer_markers_send(struct stream *s)
{
	struct gput_result *r = &s->r;
	uint8_t mk[MARKER_MAX_LEN];
	uint8_t i;

	/* --ecn: the markers leave not-ECT, so a marking bottleneck marks
	 * data alone (a failure leaves them ECT(0): counted nowhere) */
	if (s->p.xflags & CTL_XF_ECN)
		(void)ecn_udp_send_clear(s->fd);
	for (i = 1; i <= MARKER_COUNT && !stop_requested(s->stop); i++) {
		size_t n = xfer_marker_encode(&s->p, mk, i, r->dgrams, r->bytes);

		if (i > 1)
			xfer_sleep_until(s->stop, mono_now() +
			    MARKER_SPACING_MS * (mono_ns)1000000u);
		if (send(s->fd, mk, n, MSG_NOSIGNAL) == (ssize_t)n)
			r->calls++;
	}
}

/* xfer_markers.c: a UDP sender's end markers, after its data (both the
 * plain and the batched sender). */
#include "xfer_markers.h"

#include <sys/socket.h>

#include "wire_ctl.h"                    /* CTL_XF_ECN */
#include "ecn.h"

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

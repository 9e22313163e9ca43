/* xfer_batch.c: the batched UDP sender (sendmmsg, UDP GSO) and its sums. */
#include "xfer_batch.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "databuf.h"
#include "pattern.h"
#include "wire_udp.h"
#include "xfer_markers.h"

#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103
#endif
#ifndef UDP_GRO
#define UDP_GRO 104
#endif

uint32_t
xfer_gso_segs(const struct xfer_params *p)
{
	uint32_t n;

	if (!p->gso || p->data_len == 0)
		return 1;
	n = XFER_GSO_BYTES_MAX / p->data_len;
	return n > XFER_GSO_SEGS_MAX ? XFER_GSO_SEGS_MAX : n < 1 ? 1 : n;
}

uint64_t
xfer_batch_take(const struct xfer_params *p, uint64_t i, uint64_t left,
                uint64_t cap)
{
	uint64_t n = cap < left ? cap : left;

	if (p->data_gap_ps != 0) {          /* only the rest of i's burst is due */
		uint64_t b = p->data_burst > 1 ? p->data_burst : 1, due = b - i % b;

		if (due < n)
			n = due;
	}
	return n;
}

uint32_t
xfer_gro_segs(size_t n, uint32_t gso, size_t *last)
{
	uint32_t k;

	if (gso == 0 || n <= gso) {
		*last = n;
		return 1;
	}
	k = (uint32_t)((n + gso - 1) / gso);
	*last = n - (size_t)(k - 1) * gso;
	return k;
}

uint32_t
xfer_rx_vlen(const struct xfer_params *p)
{
	uint32_t v = p->batch > 1 ? p->batch : 1;

	if (p->gso && !p->discard && v > XFER_GRO_VLEN_MAX)
		v = XFER_GRO_VLEN_MAX;
	return v;
}

uint64_t
xfer_rx_bytes(const struct xfer_params *p)
{
	uint64_t cap = p->len > p->data_len ? p->len : p->data_len;

	if (cap < MARKER_MAX_LEN)
		cap = MARKER_MAX_LEN;
	if (p->discard)
		cap = XFER_DISCARD_READ;
	else if (p->gso)
		cap = XFER_GRO_BUF;
	return cap * xfer_rx_vlen(p);
}

uint64_t
xfer_dgrams_per_call_max(const struct xfer_params *p)
{
	uint64_t v = p->batch > 1 ? p->batch : 1;

	/* GRO may coalesce up to 64 KiB of datagrams of any size */
	return p->gso ? v * (XFER_GRO_BUF > p->data_len ? XFER_GRO_BUF : 1) : v;
}

int
xfer_gro_enable(int fd)
{
	int one = 1;

	if (setsockopt(fd, IPPROTO_UDP, UDP_GRO, &one, sizeof one) == 0)
		return 0;
	fprintf(stderr, "gput: --gso: the kernel refused UDP_GRO (%s): receiving "
	        "one datagram per message instead\n", strerror(errno));
	return -1;
}

/* Did the kernel refuse GSO itself (the send may succeed without it)?
 * EINVAL, EMSGSIZE: a datagram over the path's MTU, too many segments,
 * no UDP checksum; EIO: a path that cannot segment (IPsec); ENOPROTOOPT:
 * a kernel without UDP_SEGMENT. */
static int
gso_refused(int e)
{
	return e == EINVAL || e == EMSGSIZE || e == EIO || e == ENOPROTOOPT;
}

static void
gso_off(int fd, int e)
{
	int zero = 0;

	(void)setsockopt(fd, IPPROTO_UDP, UDP_SEGMENT, &zero, sizeof zero);
	fprintf(stderr, "gput: --gso: the kernel refused UDP_SEGMENT (%s): sending "
	        "one datagram per message instead\n", strerror(e));
}

/* One call's worth of messages, laid out afresh for every call from the
 * first unsent datagram: headers, then iovecs pointing into the pattern. */
struct tx {
	const struct xfer_params *p;
	const struct pattern *pt;
	uint32_t segs;                      /* datagrams per message (GSO) */
	size_t hl;                          /* header bytes (0: no header) */
	int timed;                          /* headed and paced: send times */
	int64_t base;                       /* real time of datagram 0's slot */
	struct mmsghdr mm[XFER_BATCH_MAX];
	uint32_t nseg[XFER_BATCH_MAX];      /* datagrams in each message */
	size_t off[XFER_BATCH_MAX + 1];     /* pattern phase at each message */
	struct iovec *iov;                  /* two per datagram */
	uint8_t (*h)[WIRE_GPUD_LEN];          /* a header per datagram */
	uint8_t *flat;                      /* or the datagrams laid out whole */
};

/* With the pattern's phase back at 0 after every datagram (its period is
 * the datagram: no -s), every full datagram is the same bytes but for its
 * header. Then a batch is laid out once, whole datagrams one after another,
 * and a call only rewrites the headers: a message is one contiguous buffer
 * the kernel copies in one piece, not two pieces a datagram. At most this
 * much memory for it: */
#define TX_FLAT_MAX (4u << 20)

static uint8_t *
flat_init(const struct xfer_params *p, const struct pattern *pt, size_t n)
{
	uint8_t *f;
	size_t i;

	if (pt->period != p->len || n * p->len > TX_FLAT_MAX ||
	    (f = databuf_alloc(n * p->len)) == NULL)
		return NULL;
	for (i = 0; i < n; i++)
		memcpy(f + i * p->len, pt->buf, p->len);
	return f;
}

/* tx_build for the flat layout: take full datagrams from seq on. */
static unsigned
tx_build_flat(struct tx *t, uint64_t seq, uint64_t take)
{
	size_t len = t->p->len;
	unsigned m = 0;
	uint64_t j = 0;

	while (j < take) {
		struct iovec *v = t->iov + 2 * m;
		uint32_t k = 0;

		v->iov_base = t->flat + j * len;
		t->off[m] = 0;
		t->mm[m].msg_hdr.msg_iov = v;
		t->mm[m].msg_hdr.msg_iovlen = 1;
		for (; k < t->segs && j < take; k++, j++)
			if (t->hl)
				wire_gpud_encode(t->flat + j * len, seq + j,
				    t->timed ? (uint64_t)(t->base +
				    (int64_t)xfer_due_ns(t->p, seq + j)) : 0);
		v->iov_len = (size_t)k * len;
		t->nseg[m++] = k;
	}
	t->off[m] = 0;
	return m;
}

/* Lay out take datagrams from datagram seq on, left bytes still to send,
 * the pattern at phase off. Returns the number of messages. */
static unsigned
tx_build(struct tx *t, uint64_t seq, uint64_t take, uint64_t left, size_t off)
{
	const struct xfer_params *p = t->p;
	unsigned m = 0;
	uint64_t j = 0;

	while (j < take) {
		struct iovec *v = t->iov + 2 * j;
		uint32_t k = 0;

		t->off[m] = off;
		t->mm[m].msg_hdr.msg_iov = v;
		for (; k < t->segs && j < take; k++, j++) {
			size_t want = left < p->len ? (size_t)left : p->len;

			wire_gpud_encode(t->h[j], seq + j, t->timed ?
			    (uint64_t)(t->base + (int64_t)xfer_due_ns(p, seq + j)) : 0);
			v[2 * k].iov_base = t->h[j];
			v[2 * k].iov_len = t->hl;
			v[2 * k + 1].iov_base = t->pt->buf + off + t->hl;
			v[2 * k + 1].iov_len = want - t->hl;
			left -= want;
			off += want;            /* pattern phase: stays in [0, period) */
			if (off >= t->pt->period)
				off %= t->pt->period;
		}
		t->mm[m].msg_hdr.msg_iovlen = 2 * k;
		t->nseg[m++] = k;
	}
	t->off[m] = off;
	return m;
}

/* The send loop: as xfer_send_loop, a call at a time, each call as many
 * datagrams as are due and fit. */
static int
batch_loop(struct stream *s, struct tx *t, uint32_t vlen)
{
	const struct xfer_params *p = &s->p;
	const struct stopreq *st = s->stop;
	struct gput_result *r = &s->r;
	uint64_t left = p->data_bytes, total = xfer_data_calls(p), seq = 0;
	uint64_t calls = 0, nobufs = 0;
	uint32_t burst = p->data_burst > 1 ? p->data_burst : 1;
	int paced = p->data_gap_ps != 0, rc = 0;
	size_t off = 0;
	struct meter m;
	mono_ns base;                       /* the schedule's time 0 */

	meter_start(&m);
	s->start = m.t0;
	base = m.t0;
	if (t->timed)                       /* send times come from the schedule */
		t->base = (int64_t)m.t0 + meter_real_offset();
	while (left > 0 && !stop_requested(st) &&
	    !atomic_load_explicit(&st->end, memory_order_relaxed)) {
		uint64_t take = xfer_batch_take(p, seq, total - seq,
		    (uint64_t)vlen * t->segs);
		/* the flat layout while every datagram taken is a full one */
		unsigned nm = t->flat != NULL && left >= take * p->len ?
		    tx_build_flat(t, seq, take) : tx_build(t, seq, take, left, off), i;
		int n = sendmmsg(s->fd, t->mm, nm, MSG_NOSIGNAL);

		if (n <= 0) {                   /* the one place send errors land */
			if (n == -1 && errno == ENOBUFS && !stop_requested(st)) {
				nobufs++;
				xfer_nobufs_wait(s->fd);
				continue;
			}
			if (n == -1 && errno == EINTR && !stop_requested(st))
				continue;
			if (n == -1 && t->segs > 1 && gso_refused(errno)) {
				gso_off(s->fd, errno);  /* once: segs is 1 from now on */
				t->segs = 1;
				continue;
			}
			xfer_io_error(s, n == 0 ? EPIPE : errno, "sending");
			rc = -1;
			break;
		}
		for (i = 0; i < (unsigned)n; i++) {
			seq += t->nseg[i];
			left -= t->mm[i].msg_len;
		}
		off = t->off[n];
		calls++;
		LIVE_SET(s, bytes, p->data_bytes - left);
		LIVE_SET(s, calls, calls);
		LIVE_SET(s, dgrams, seq);
		if (paced && left > 0 && seq % burst == 0) {   /* -g, --rate */
			mono_ns slip = xfer_slip(p, xfer_sleep_until(st, base +
			    xfer_due_ns(p, seq)));

			base += slip;           /* the send times move with it */
			t->base += (int64_t)slip;
		}
	}
	if (stop_requested(st) && rc == 0 && left > 0) {
		snprintf(s->err, sizeof s->err, "interrupted");
		rc = -1;
	}
	meter_stop(&m, r);                  /* the window ends with the last call */
	r->bytes = p->data_bytes - left;
	r->calls = calls;
	r->dgrams = seq;
	if (p->verbose && nobufs > 0)
		fprintf(stderr, "gput: sending: the queue below the socket was full "
		        "(ENOBUFS) %llu times\n", (unsigned long long)nobufs);
	return rc;
}

int
xfer_udp_send_batch(struct stream *s)
{
	const struct xfer_params *p = &s->p;
	uint32_t vlen = p->batch > 1 ? p->batch : 1;
	struct tx *t = calloc(1, sizeof *t);
	struct pattern pt = { 0 };
	int rc, seg;

	if (t == NULL || pattern_init(&pt, p, p->len, s->err, sizeof s->err) == -1) {
		if (t == NULL)
			snprintf(s->err, sizeof s->err, "cannot allocate %zu bytes",
			         sizeof *t);
		free(t);
		return -1;
	}
	t->p = p;
	t->pt = &pt;
	t->segs = xfer_gso_segs(p);
	t->hl = xfer_udp_has_header(p) ? WIRE_GPUD_LEN : 0;
	t->timed = t->hl && p->data_gap_ps != 0;
	t->iov = calloc((size_t)vlen * t->segs, 2 * sizeof *t->iov);
	t->h = calloc((size_t)vlen * t->segs, sizeof *t->h);
	if (t->iov == NULL || t->h == NULL) {
		snprintf(s->err, sizeof s->err, "cannot allocate the batch of %u",
		         vlen * t->segs);
		rc = -1;
		goto out;
	}
	t->flat = flat_init(p, &pt, (size_t)vlen * t->segs);
	seg = (int)p->len;
	if (t->segs > 1 && setsockopt(s->fd, IPPROTO_UDP, UDP_SEGMENT, &seg,
	    sizeof seg) == -1) {
		gso_off(s->fd, errno);
		t->segs = 1;
	}
	rc = batch_loop(s, t, vlen);
	if (t->segs > 1)                    /* the markers go as they are */
		(void)setsockopt(s->fd, IPPROTO_UDP, UDP_SEGMENT, &(int){ 0 },
		    sizeof(int));
	if (rc == 0)
		xfer_markers_send(s);
out:
	free(t->iov);
	free(t->h);
	free(t->flat);
	free(t);
	pattern_free(&pt);
	return rc;
}

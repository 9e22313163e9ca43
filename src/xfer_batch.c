/* SPDX-License-Identifier: BSD-2-Clause */
/* xfer_batch.c: the batched UDP sender's path (sendmmsg, UDP GSO), a
 * build/send pair for the one send loop (xfer.c), and its sums. */
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
	struct xfer_sendpath sp;            /* first: the loop's handle */
	const struct xfer_params *p;
	const struct pattern *pt;
	uint32_t vlen;                      /* messages per call (--batch) */
	uint64_t total;                     /* datagrams in the stream */
	uint32_t segs;                      /* datagrams per message (GSO) */
	size_t hl;                          /* header bytes (0: no header) */
	int64_t base;                       /* real time of datagram 0's slot */
	unsigned nm;                        /* messages in the call built */
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
				    t->sp.timed ? (uint64_t)(t->base +
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

			wire_gpud_encode(t->h[j], seq + j, t->sp.timed ?
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

/* The batched path's build: as many datagrams as are due and fit in one
 * call, laid out flat while every one taken is a full one. */
static void
tx_build_call(struct xfer_sendpath *sp, const struct xfer_sendpos *at)
{
	struct tx *t = (struct tx *)sp;
	const struct xfer_params *p = t->p;
	uint64_t take = xfer_batch_take(p, at->seq, t->total - at->seq,
	    (uint64_t)t->vlen * t->segs);

	t->base = at->t0;
	t->nm = t->flat != NULL && at->left >= take * p->len ?
	    tx_build_flat(t, at->seq, take) : tx_build(t, at->seq, take, at->left,
	    at->off);
}

/* Its send: one sendmmsg; what the messages it took held. */
static ssize_t
tx_send(struct xfer_sendpath *sp, int fd, uint64_t *writes, size_t *off)
{
	struct tx *t = (struct tx *)sp;
	int n = sendmmsg(fd, t->mm, t->nm, MSG_NOSIGNAL), i;
	ssize_t bytes = 0;

	if (n <= 0)
		return n;
	*writes = 0;
	for (i = 0; i < n; i++) {
		*writes += t->nseg[i];
		bytes += (ssize_t)t->mm[i].msg_len;
	}
	*off = t->off[n];
	return bytes;
}

/* GSO refused by the kernel or the path: once, then a datagram a message. */
static int
tx_refused(struct xfer_sendpath *sp, int fd, int e)
{
	struct tx *t = (struct tx *)sp;

	if (t->segs <= 1 || !gso_refused(e))
		return 0;
	gso_off(fd, e);
	t->segs = 1;
	return 1;
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
	t->sp = (struct xfer_sendpath){ tx_build_call, tx_send, tx_refused,
	    xfer_udp_has_header(p) && p->data_gap_ps != 0, 1 };
	t->p = p;
	t->pt = &pt;
	t->vlen = vlen;
	t->total = xfer_data_calls(p);
	t->segs = xfer_gso_segs(p);
	t->hl = xfer_udp_has_header(p) ? WIRE_GPUD_LEN : 0;
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
	rc = xfer_send_run(s, &t->sp);
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

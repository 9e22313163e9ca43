/* SPDX-License-Identifier: BSD-2-Clause */
/* xfer_tcp.c: the TCP data path, sender and receiver. */
#include "xfer_tcp.h"

#include <errno.h>
#include <linux/sockios.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>
#include <time.h>
#include <linux/errqueue.h>         /* after time.h: struct timespec */

#include "databuf.h"
#include "pattern.h"

/* Bytes the kernel still held when the last write returned (see CAVEATS). */
static void
tcp_queue(int fd, struct gput_result *r)
{
	int outq, notsent;

	if (ioctl(fd, SIOCOUTQ, &outq) == 0 && ioctl(fd, SIOCOUTQNSD, &notsent) == 0) {
		r->unsent = (uint64_t)notsent;
		r->unacked = outq > notsent ? (uint64_t)(outq - notsent) : 0;
		r->flags |= RES_QUEUE;
	}
}

/* After the agreed bytes the sender must close: EOF within the idle timeout
 * (SO_RCVTIMEO). More data is an error: the sender sent more than agreed. */
static int
tcp_expect_eof(struct stream *s, uint8_t *buf, size_t len)
{
	ssize_t n;

	do
		n = recv(s->fd, buf, len, 0);
	while (n == -1 && errno == EINTR && !stop_requested(s->stop));
	if (n == 0)
		return 0;
	if (n > 0)
		snprintf(s->err, sizeof s->err, "the sender sent more than the "
		         "agreed bytes");
	else if (stop_requested(s->stop))
		return 0;                       /* everything arrived: not interrupted */
	else
		xfer_io_error(s, errno, "waiting for the end of the data");
	return -1;
}

/* --zerocopy: every send's pages are lent to the kernel (MSG_ZEROCOPY).
 * The pattern never changes while it sends, so a page lent twice is
 * harmless; but the buffer may be freed (and its memory used for
 * something else) only once the kernel has given back every page: the
 * send loop hands it over (s->zc.buf), and it is freed here when every
 * completion has come. The wait ends early only when no completion came
 * for ZC_IDLE_MS (or on a stop request): then the buffer is left
 * allocated, never reused, until the process exits. */
#define ZC_IDLE_MS 10000

static void
zc_send_end(struct stream *s)
{
	struct pollfd pfd = { s->fd, 0, 0 };   /* POLLERR: always reported */
	mono_ns idle_end = mono_now() + ZC_IDLE_MS * 1000000ull;

	for (;;) {
		if (xfer_zc_reap(s) > 0)
			idle_end = mono_now() + ZC_IDLE_MS * 1000000ull;
		if (s->zc.done >= s->zc.sends || mono_now() >= idle_end ||
		    stop_requested(s->stop))
			break;
		(void)poll(&pfd, 1, 10);
	}
	if (s->zc.done >= s->zc.sends)
		free(s->zc.buf);
	s->zc.buf = NULL;
	if (s->p.verbose)
		fprintf(stderr, "gput: --zerocopy: %llu sends lent their pages, %llu "
		        "completed, the kernel copied %llu of them%s\n",
		        (unsigned long long)s->zc.sends, (unsigned long long)s->zc.done,
		        (unsigned long long)s->zc.copied_sends, s->zc.done < s->zc.sends ?
		        "; the rest still lent: their buffer stays allocated" : "");
	if (s->zc.nobufs + s->zc.over > 0)      /* said whatever -v */
		fprintf(stderr, "gput: --zerocopy: %llu of %llu sends copied instead: "
		        "%llu when the kernel would pin no more (ENOBUFS), %llu over "
		        "the budget of %llu bytes lent at once\n",
		        (unsigned long long)(s->zc.nobufs + s->zc.over),
		        (unsigned long long)s->r.calls,
		        (unsigned long long)s->zc.nobufs,
		        (unsigned long long)s->zc.over,
		        (unsigned long long)s->zc.budget);
}

int
xfer_tcp_send(struct stream *s)
{
	int rc, one = 1;

	long pg = sysconf(_SC_PAGESIZE);

	s->zc.on = s->zc.said = 0;
	s->zc.sends = s->zc.done = s->zc.copied_sends = 0;
	s->zc.nobufs = s->zc.over = 0;
	/* the kernel charges a send its pages and 2 more (its worst case) */
	pg = pg > 0 ? pg : 4096;
	s->zc.charge = ((uint64_t)s->p.len / (uint64_t)pg + 2) * (uint64_t)pg;
	if (s->p.xflags & CTL_XF_ZEROCOPY) {
		if (setsockopt(s->fd, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof one) == 0)
			s->zc.on = 1;
		else
			fprintf(stderr, "gput: --zerocopy: the kernel refused SO_ZEROCOPY "
			        "(%s): sending by copy\n", strerror(errno));
	}
	/* nttcp: the sender's clock stops when its last write returns */
	rc = xfer_send_loop(s);
	tcp_queue(s->fd, &s->r);
	shutdown(s->fd, SHUT_WR);
	if (s->zc.on)
		zc_send_end(s);
	return rc;
}

/* A receiver's way of taking data: recv() into buf, or with --zerocopy
 * TCP_ZEROCOPY_RECEIVE, which maps whole pages of the receive queue at map
 * and leaves the bytes it cannot map (hint) to be copied. */
struct tcp_rx {
	int fd;
	uint8_t *buf;               /* len bytes, page-aligned */
	size_t len;
	uint8_t *map;               /* the mapping (len rounded to pages), or NULL */
	size_t mlen;
	uint64_t hint;              /* bytes the kernel said to copy next */
	int flags;                  /* recv's: MSG_TRUNC for --discard */
};

#define PAGE 4096u

/* --zerocopy on x: the mapping, or one stderr line and copies. */
static void
rx_map(struct tcp_rx *x)
{
	x->mlen = x->len / PAGE * PAGE;
	x->map = x->mlen == 0 ? MAP_FAILED : mmap(NULL, x->mlen, PROT_READ,
	    MAP_SHARED, x->fd, 0);
	if (x->map == MAP_FAILED) {
		fprintf(stderr, "gput: --zerocopy: %s: receiving by copy\n",
		        x->mlen == 0 ? "-l is less than a page" : strerror(errno));
		x->map = NULL;
	}
}

/* One step of up to ask bytes: returns how many arrived (0: the sender
 * closed), with *data pointing at them, or -1 with errno. One call brings
 * them, a mapping or a recv; s->zc counts how (and the mappings that
 * found nothing to map). */
static ssize_t
rx_step(struct tcp_rx *x, struct stream *s, size_t ask, const uint8_t **data)
{
	ssize_t n;

	if (x->map != NULL && x->hint == 0 && ask >= PAGE) {
		struct tcp_zerocopy_receive zc;
		socklen_t zl = sizeof zc;

		memset(&zc, 0, sizeof zc);
		zc.address = (uint64_t)(uintptr_t)x->map;
		zc.length = (uint32_t)(ask < x->mlen ? ask / PAGE * PAGE : x->mlen);
		n = getsockopt(x->fd, IPPROTO_TCP, TCP_ZEROCOPY_RECEIVE, &zc, &zl);
		s->zc.maps++;
		if (n == -1 && errno == EIO)
			return 0;               /* closed, nothing left queued */
		if (n == -1 && (errno == EOPNOTSUPP || errno == ENOPROTOOPT ||
		    errno == EINVAL) && s->zc.maps == 1) {
			fprintf(stderr, "gput: --zerocopy: the kernel refused "
			        "TCP_ZEROCOPY_RECEIVE (%s): receiving by copy\n",
			        strerror(errno));
			munmap(x->map, x->mlen);
			x->map = NULL;
		} else if (n == -1) {
			return -1;
		} else if (zc.err != 0) {
			errno = zc.err < 0 ? -zc.err : zc.err;
			return -1;
		} else if (zc.length > 0) {
			x->hint = zc.recv_skip_hint;
			s->zc.mapped += zc.length;
			*data = x->map;
			return (ssize_t)zc.length;
		} else {
			x->hint = zc.recv_skip_hint;    /* 0: nothing queued yet */
		}
	}
	if (x->hint > 0 && x->hint < ask)
		ask = (size_t)x->hint;
	n = recv(x->fd, x->buf, ask, x->flags);
	if (n > 0) {
		s->zc.copied += x->map != NULL ? (uint64_t)n : 0;
		x->hint -= x->hint > (uint64_t)n ? (uint64_t)n : x->hint;
		*data = x->buf;
	}
	return n;
}

/* --full-reads: a recv() returns once a whole len is queued (or the
 * sender's end, or the bytes still due if fewer: the kernel waits for the
 * smaller of SO_RCVLOWAT and what the call asks), not with whatever
 * arrived first: fewer wake-ups and calls per byte, each a full -l.
 * Refused: one stderr line, and reads as without it. */
static void
rx_full_reads(int fd, uint32_t len)
{
	int v = len > INT32_MAX ? INT32_MAX : (int)len;

	if (setsockopt(fd, SOL_SOCKET, SO_RCVLOWAT, &v, sizeof v) == -1)
		fprintf(stderr, "gput: --full-reads: the kernel refused SO_RCVLOWAT "
		        "(%s): each read returns what has arrived\n", strerror(errno));
}

int
xfer_tcp_recv(struct stream *s)
{
	const struct xfer_params *p = &s->p;
	const struct stopreq *st = s->stop;
	struct gput_result *r = &s->r;
	char *err = s->err;
	size_t errlen = sizeof s->err;
	int fd = s->fd;
	struct pattern pt = { 0 };
	struct meter m = { 0 };
	uint64_t bytes = 0, calls = 0, bad = 0, first_bad = UINT64_MAX;
	uint64_t want = p->data_bytes;
	uint8_t *buf = databuf_alloc(p->len);
	const uint8_t *data = buf;
	/* --discard: the kernel counts the bytes and drops them, no copy */
	struct tcp_rx x = { fd, buf, p->len, NULL, 0, 0,
	    p->discard ? MSG_TRUNC : 0 };
	int rc = 0;

	if (buf == NULL) {
		snprintf(err, errlen, "cannot allocate %u bytes", p->len);
		return -1;
	}
	if (p->verify && pattern_init(&pt, p, p->len, err, errlen) == -1) {
		free(buf);
		return -1;
	}
	if (p->xflags & CTL_XF_ZEROCOPY)
		rx_map(&x);
	if (p->xflags & CTL_XF_FULLREADS)
		rx_full_reads(fd, p->len);
	/* Read the agreed bytes and no more: a sender that goes on past them
	 * cannot keep the receiver running. A stop request ends the loop. */
	while (bytes < want && !stop_requested(st)) {
		size_t ask = want - bytes < p->len ? (size_t)(want - bytes) : p->len;
		ssize_t n = rx_step(&x, s, ask, &data);

		if (n <= 0) {
			if (n == 0)             /* EOF: the sender is done */
				break;
			if (errno == EINTR && !stop_requested(st))
				continue;
			xfer_io_error(s, errno, "receiving");
			rc = -1;
			break;
		}
		if (calls == 0) {               /* the window opens with the first data */
			meter_start(&m);
			s->start = m.t0;
		}
		if (p->verify)
			bad += pattern_check(&pt, bytes, data, (size_t)n, &first_bad);
		calls++;
		bytes += (uint64_t)n;
		LIVE_SET(s, bytes, bytes);
		LIVE_SET(s, calls, calls);
	}
	if (calls > 0)                          /* ... and closes with the last */
		meter_stop(&m, r);
	if (x.map != NULL)
		munmap(x.map, x.mlen);
	if (x.map != NULL && p->verbose)
		fprintf(stderr, "gput: --zerocopy: %llu bytes mapped in %llu calls, "
		        "%llu copied\n", (unsigned long long)s->zc.mapped,
		        (unsigned long long)s->zc.maps, (unsigned long long)s->zc.copied);
	r->bytes = bytes;
	r->calls = calls;
	if (p->verify) {
		r->flags |= RES_VERIFIED;
		r->verify_bad = bad;
		r->verify_first = bad ? first_bad : 0;
	}
	if (rc == 0 && p->duration_ms != 0 && bytes == 0 && !stop_requested(st)) {
		snprintf(err, errlen, "received nothing in its --time (the sender "
		         "closed at once)");
		s->peer_ended = 1;
		rc = -1;                        /* never 0 bytes as a success */
	} else if (rc == 0 && p->duration_ms != 0 && bytes < want &&
	    !stop_requested(st)) {
		;                               /* --time: end of file ends it */
	} else if (rc == 0 && stop_requested(st) && bytes != want) {
		snprintf(err, errlen, "interrupted");
		rc = -1;
	} else if (rc == 0 && bytes != want) {
		snprintf(err, errlen, "connection closed after %llu of %llu bytes",
		         (unsigned long long)bytes, (unsigned long long)want);
		s->peer_ended = 1;
		rc = -1;
	} else if (rc == 0) {
		rc = tcp_expect_eof(s, buf, p->len);
	}
	pattern_free(&pt);
	free(buf);
	return rc;
}

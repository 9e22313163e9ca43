/* xfer_tcp.c: the TCP data path, sender and receiver. */
#include "xfer_tcp.h"

#include <errno.h>
#include <linux/sockios.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "databuf.h"

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

int
xfer_tcp_send(struct stream *s)
{
	/* nttcp: the sender's clock stops when its last write returns */
	int rc = xfer_send_loop(s);

	tcp_queue(s->fd, &s->r);
	shutdown(s->fd, SHUT_WR);
	return rc;
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
	/* --discard: the kernel counts the bytes and drops them, no copy */
	int flags = p->discard ? MSG_TRUNC : 0;
	int rc = 0;

	if (buf == NULL) {
		snprintf(err, errlen, "cannot allocate %u bytes", p->len);
		return -1;
	}
	if (p->verify && pattern_init(&pt, p, p->len, err, errlen) == -1) {
		free(buf);
		return -1;
	}
	/* Read the agreed bytes and no more: a sender that goes on past them
	 * cannot keep the receiver running. A stop request ends the loop. */
	while (bytes < want && !stop_requested(st)) {
		size_t ask = want - bytes < p->len ? (size_t)(want - bytes) : p->len;
		ssize_t n = recv(fd, buf, ask, flags);

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
			bad += pattern_check(&pt, bytes, buf, (size_t)n, &first_bad);
		calls++;
		bytes += (uint64_t)n;
		LIVE_SET(s, bytes, bytes);
		LIVE_SET(s, calls, calls);
	}
	if (calls > 0)                          /* ... and closes with the last */
		meter_stop(&m, r);
	r->bytes = bytes;
	r->calls = calls;
	if (p->verify) {
		r->flags |= RES_VERIFIED;
		r->verify_bad = bad;
		r->verify_first = bad ? first_bad : 0;
	}
	if (rc == 0 && p->duration_ms != 0 && bytes < want && !stop_requested(st)) {
		;                               /* --time: end of file ends it */
	} else if (rc == 0 && stop_requested(st) && bytes != want) {
		snprintf(err, errlen, "interrupted");
		rc = -1;
	} else if (rc == 0 && bytes != want) {
		snprintf(err, errlen, "connection closed after %llu of %llu bytes",
		         (unsigned long long)bytes, (unsigned long long)want);
		rc = -1;
	} else if (rc == 0) {
		rc = tcp_expect_eof(s, buf, p->len);
	}
	pattern_free(&pt);
	free(buf);
	return rc;
}

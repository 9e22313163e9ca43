/* xfer_tcp.c: the TCP data path, sender and receiver. */
#include "xfer.h"

#include <errno.h>
#include <linux/sockios.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

/* Why a send or recv failed, in words a user can act on. */
static void
io_error(int e, const char *dir, char *err, size_t errlen)
{
	if (xfer_stop)
		snprintf(err, errlen, "interrupted");
	else if (e == EAGAIN || e == EWOULDBLOCK)
		snprintf(err, errlen, "peer stalled: no data %s for the idle timeout",
		         dir);
	else if (e == EPIPE || e == ECONNRESET)
		snprintf(err, errlen, "peer vanished (%s)", strerror(e));
	else
		snprintf(err, errlen, "%s: %s", dir, strerror(e));
}

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

int
xfer_tcp_send(int fd, const struct xfer_params *p, struct gput_result *r,
              char *err, size_t errlen)
{
	struct pattern pt;
	struct meter m;
	uint64_t left = p->data_bytes, calls = 0;
	size_t off = 0, len = p->len;
	mono_ns gap = (mono_ns)p->gap_us * 1000u, next;
	int rc = 0;

	if (pattern_init(&pt, p, len, err, errlen) == -1)
		return -1;
	meter_start(&m);
	next = m.t0;
	while (left > 0 && !xfer_stop) {     /* a signal ends the loop */
		size_t want = left < len ? (size_t)left : len;
		ssize_t n = send(fd, pt.buf + off, want, MSG_NOSIGNAL);

		if (n <= 0) {                   /* the one place send errors land */
			if (n == -1 && errno == EINTR && !xfer_stop)
				continue;
			io_error(n == 0 ? EPIPE : errno, "sending", err, errlen);
			rc = -1;
			break;
		}
		calls++;
		left -= (uint64_t)n;
		off += (size_t)n;               /* pattern phase: stays in [0, period) */
		if (off >= pt.period)
			off %= pt.period;
		if (gap != 0 && left > 0)       /* -g: absolute schedule, no drift */
			xfer_sleep_until(next += gap);
	}
	if (xfer_stop && rc == 0) {
		snprintf(err, errlen, "interrupted");
		rc = -1;
	}
	meter_stop(&m, r);                  /* nttcp: the clock stops here */
	r->bytes = p->data_bytes - left;
	r->calls = calls;
	tcp_queue(fd, r);
	shutdown(fd, SHUT_WR);
	pattern_free(&pt);
	return rc;
}

int
xfer_tcp_recv(int fd, const struct xfer_params *p, struct gput_result *r,
              char *err, size_t errlen)
{
	struct pattern pt = { 0 };
	struct meter m = { 0 };
	uint64_t bytes = 0, calls = 0, bad = 0, first_bad = UINT64_MAX;
	uint8_t *buf = malloc(p->len);
	int rc = 0;

	if (buf == NULL) {
		snprintf(err, errlen, "cannot allocate %u bytes", p->len);
		return -1;
	}
	if (p->verify && pattern_init(&pt, p, p->len, err, errlen) == -1) {
		free(buf);
		return -1;
	}
	for (;;) {
		ssize_t n = recv(fd, buf, p->len, 0);

		if (n <= 0) {
			if (n == 0)             /* EOF: the sender is done */
				break;
			if (errno == EINTR && !xfer_stop)
				continue;
			io_error(errno, "receiving", err, errlen);
			rc = -1;
			break;
		}
		if (calls == 0)                 /* the window opens with the first data */
			meter_start(&m);
		if (p->verify)
			bad += pattern_check(&pt, bytes, buf, (size_t)n, &first_bad);
		calls++;
		bytes += (uint64_t)n;
	}
	if (calls > 0)
		meter_stop(&m, r);
	r->bytes = bytes;
	r->calls = calls;
	if (p->verify) {
		r->flags |= RES_VERIFIED;
		r->verify_bad = bad;
		r->verify_first = bad ? first_bad : 0;
	}
	if (rc == 0 && bytes != p->data_bytes) {
		snprintf(err, errlen, "connection closed after %llu of %llu bytes",
		         (unsigned long long)bytes, (unsigned long long)p->data_bytes);
		rc = -1;
	}
	pattern_free(&pt);
	free(buf);
	return rc;
}

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
	/* nttcp: the sender's clock stops when its last write returns */
	int rc = xfer_send_loop(fd, p, r, err, errlen);

	tcp_queue(fd, r);
	shutdown(fd, SHUT_WR);
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
			xfer_io_error(errno, "receiving", err, errlen);
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

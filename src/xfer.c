/* xfer.c: what the TCP and UDP data paths share. */
#include "xfer.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

volatile int xfer_stop;

void
xfer_sleep_until(mono_ns t)
{
	struct timespec ts = { (time_t)(t / 1000000000u), (long)(t % 1000000000u) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR &&
	    !xfer_stop)
		;
}

void
xfer_io_error(int e, const char *what, char *err, size_t errlen)
{
	if (xfer_stop)
		snprintf(err, errlen, "interrupted");
	else if (e == EAGAIN || e == EWOULDBLOCK)
		snprintf(err, errlen, "peer stalled: no progress %s within the idle timeout",
		         what);
	else if (e == EPIPE || e == ECONNRESET)
		snprintf(err, errlen, "peer vanished (%s)", strerror(e));
	else if (e == ECONNREFUSED)
		snprintf(err, errlen, "the receiver's port refused the data "
		         "(receiver gone)");
	else
		snprintf(err, errlen, "%s: %s", what, strerror(e));
}

int
xfer_send_loop(int fd, const struct xfer_params *p, struct gput_result *r,
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
			if (n == -1 && (errno == EINTR || errno == ENOBUFS) && !xfer_stop)
				continue;
			xfer_io_error(n == 0 ? EPIPE : errno, "sending", err, errlen);
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
	meter_stop(&m, r);                  /* the window ends with the last call */
	r->bytes = p->data_bytes - left;
	r->calls = calls;
	pattern_free(&pt);
	return rc;
}

int
xfer_run(int fd, const struct xfer_params *p, struct gput_result *r, char *err,
         size_t errlen)
{
	memset(r, 0, sizeof *r);
	if (p->proto == PROTO_UDP)
		return p->role == ROLE_SEND ? xfer_udp_send(fd, p, r, err, errlen)
		    : xfer_udp_recv(fd, p, r, err, errlen);
	return p->role == ROLE_SEND ? xfer_tcp_send(fd, p, r, err, errlen)
	    : xfer_tcp_recv(fd, p, r, err, errlen);
}

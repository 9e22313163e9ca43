/* SPDX-License-Identifier: BSD-2-Clause */
/* xfer.c: what the TCP and UDP data paths share. */
#include "xfer.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <linux/errqueue.h>         /* after time.h: struct timespec */
#include <unistd.h>

#include "pattern.h"
#include "wire_udp.h"

/* Longest wait after ENOBUFS before the send is tried again. */
#define NOBUFS_WAIT_MS 1

mono_ns
xfer_sleep_until(const struct stopreq *st, mono_ns t)
{
	struct timespec ts = { (time_t)(t / 1000000000u), (long)(t % 1000000000u) };
	struct pollfd pfd = { stop_fd(st), POLLIN, 0 };
	mono_ns now = 0;

	if (pfd.fd == -1) {
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
		    EINTR && !stop_requested(st))
			;
		return 0;
	}
	/* with a stop pipe, a stop request from any thread ends the sleep */
	while (!stop_requested(st) && (now = mono_now()) < t) {
		ts.tv_sec = (time_t)((t - now) / 1000000000u);
		ts.tv_nsec = (long)((t - now) % 1000000000u);
		(void)ppoll(&pfd, 1, &ts, NULL);
	}
	/* the last look at the clock: late too when the sleep overshot */
	return !stop_requested(st) && now > t ? now - t : 0;
}

/* How far a sender that woke late by late ns moves its schedule on: what
 * is past p->slip_ns (0 without one). */
static mono_ns
xfer_slip(const struct xfer_params *p, mono_ns late)
{
	return p->slip_ns != 0 && late > p->slip_ns ? late - p->slip_ns : 0;
}

void
xfer_io_error(struct stream *s, int e, const char *what)
{
	char *err = s->err;
	size_t errlen = sizeof s->err;

	if (stop_requested(s->stop))
		snprintf(err, errlen, "interrupted");
	else if (e == EAGAIN || e == EWOULDBLOCK)
		snprintf(err, errlen, "peer stalled: no progress %s within the idle timeout",
		         what);
	else if (e == EPIPE || e == ECONNRESET) {
		snprintf(err, errlen, "peer vanished (%s)", strerror(e));
		s->peer_ended = 1;
	}
	else if (e == ECONNREFUSED)
		snprintf(err, errlen, "the receiver's port refused the data "
		         "(receiver gone)");
	else
		snprintf(err, errlen, "%s: %s", what, strerror(e));
}

/* ENOBUFS: a queue below the socket (qdisc, device) is full and dropped the
 * datagram. Retrying at once would spin at full CPU until it drains. Wait
 * until the socket is writable, at most NOBUFS_WAIT_MS; when it already is
 * (its own buffer has room, so POLLOUT says nothing of the queue below),
 * sleep that long instead. */
void
xfer_nobufs_wait(int fd)
{
	struct pollfd pfd = { fd, POLLOUT, 0 };
	struct timespec ts = { 0, NOBUFS_WAIT_MS * 1000000L };

	if (poll(&pfd, 1, 0) == 0)
		poll(&pfd, 1, NOBUFS_WAIT_MS);
	else
		clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
}

uint64_t
xfer_zc_reap(struct stream *s)
{
	char cbuf[CMSG_SPACE(sizeof(struct sock_extended_err) + 64)];
	struct msghdr mh;
	struct cmsghdr *cm;
	uint64_t before = s->zc.done, sends;

	for (;;) {
		memset(&mh, 0, sizeof mh);
		mh.msg_control = cbuf;
		mh.msg_controllen = sizeof cbuf;
		if (recvmsg(s->fd, &mh, MSG_ERRQUEUE | MSG_DONTWAIT) == -1)
			break;                  /* EAGAIN: none queued */
		for (cm = CMSG_FIRSTHDR(&mh); cm != NULL; cm = CMSG_NXTHDR(&mh, cm)) {
			struct sock_extended_err ee;

			if (cm->cmsg_len < CMSG_LEN(sizeof ee))
				continue;
			memcpy(&ee, CMSG_DATA(cm), sizeof ee);
			if (ee.ee_origin != SO_EE_ORIGIN_ZEROCOPY)
				continue;
			/* sends ee_info .. ee_data (32-bit counters, inclusive) */
			sends = (uint32_t)(ee.ee_data - ee.ee_info) + 1u;
			s->zc.done += sends;
			if (ee.ee_code & SO_EE_CODE_ZEROCOPY_COPIED)
				s->zc.copied_sends += sends;
		}
	}
	return s->zc.done - before;
}

/* Has s lent as much as its budget allows, with one send more? */
static int
zc_full(const struct stream *s)
{
	return s->zc.budget != 0 &&
	    s->zc.sends - s->zc.done >= s->zc.budget / s->zc.charge;
}

ssize_t
xfer_zc_send(struct stream *s, const void *buf, size_t len)
{
	ssize_t n;

	if (zc_full(s) && (xfer_zc_reap(s), zc_full(s))) {
		n = send(s->fd, buf, len, MSG_NOSIGNAL);
		s->zc.over += n > 0;
		return n;
	}
	n = send(s->fd, buf, len, MSG_NOSIGNAL | MSG_ZEROCOPY);
	/* completions not yet read hold the socket's option memory: reading
	 * them may make room */
	if (n == -1 && errno == ENOBUFS) {
		if (xfer_zc_reap(s) > 0)
			n = send(s->fd, buf, len, MSG_NOSIGNAL | MSG_ZEROCOPY);
		else
			errno = ENOBUFS;        /* the reading's EAGAIN is not ours */
	}
	if (n > 0) {
		s->zc.sends++;
		return n;
	}
	if (n == -1 && errno == ENOBUFS) {      /* copy this one instead */
		if (!s->zc.said) {
			s->zc.said = 1;
			fprintf(stderr, "gput: --zerocopy: the kernel would pin no "
			        "more pages (ENOBUFS: RLIMIT_MEMLOCK or socket option "
			        "memory): copying such sends\n");
		}
		n = send(s->fd, buf, len, MSG_NOSIGNAL);
		s->zc.nobufs += n > 0;
	}
	return n;
}

/* The plain path: one write (one datagram) a call from the pattern, as
 * TCP and a UDP sender without --batch or --gso send. */
struct plain {
	struct xfer_sendpath sp;            /* first: the loop's handle */
	const struct pattern *pt;
	size_t len;                         /* -l */
	int hdr;                            /* UDP with the data header */
	int inplace;                        /* ... written over the pattern */
	int flags;                          /* send()'s */
	struct stream *zc;                  /* --zerocopy: its stream, or NULL */
	const struct xfer_params *p;
	/* the call built: */
	size_t off, want;
	uint8_t h[WIRE_GPUD_LEN];
	struct iovec iov[2];
	struct msghdr mh;
};

/* Its build and send, inlined into the loop (send_run) for the plain path. */
static inline __attribute__((always_inline)) void
plain_build(struct xfer_sendpath *sp, const struct xfer_sendpos *at)
{
	struct plain *x = (struct plain *)sp;
	uint64_t send_ns = sp->timed ? (uint64_t)(at->t0 +
	    (int64_t)xfer_due_ns(x->p, at->seq)) : 0;

	x->want = at->left < x->len ? (size_t)at->left : x->len;
	x->off = at->off;
	if (x->inplace) {                   /* UDP: the header over the pattern */
		wire_gpud_encode(x->pt->buf, at->seq, send_ns);
	} else if (x->hdr) {                /* UDP: the header, then the pattern */
		wire_gpud_encode(x->h, at->seq, send_ns);
		x->iov[1].iov_base = x->pt->buf + x->off + WIRE_GPUD_LEN;
		x->iov[1].iov_len = x->want - WIRE_GPUD_LEN;
	}
}

static inline __attribute__((always_inline)) ssize_t
plain_send(struct xfer_sendpath *sp, int fd, uint64_t *writes, size_t *off)
{
	struct plain *x = (struct plain *)sp;
	ssize_t n;

	if (x->inplace)
		n = send(fd, x->pt->buf, x->want, MSG_NOSIGNAL);
	else if (x->hdr)
		n = sendmsg(fd, &x->mh, MSG_NOSIGNAL);
	else if (x->zc != NULL)
		n = xfer_zc_send(x->zc, x->pt->buf + x->off, x->want);
	else
		n = send(fd, x->pt->buf + x->off, x->want, x->flags);
	if (n > 0) {
		*writes = 1;
		*off = x->off + (size_t)n;      /* pattern phase: stays in [0, period) */
		if (*off >= x->pt->period)
			*off %= x->pt->period;
	}
	return n;
}

/* The loop, given the path's pair: xfer_send_run calls a path's through
 * its pointers; the plain path, where a call is one write and a few
 * instructions a call would show, passes its own, which the compiler then
 * calls directly (inlined). One body either way. */
static inline __attribute__((always_inline)) int
send_run(struct stream *s, struct xfer_sendpath *sp,
         void (*build)(struct xfer_sendpath *, const struct xfer_sendpos *),
         ssize_t (*send_call)(struct xfer_sendpath *, int, uint64_t *, size_t *))
{
	const struct xfer_params *p = &s->p;
	const struct stopreq *st = s->stop;
	struct gput_result *r = &s->r;
	struct xfer_sendpos at = { 0, p->data_bytes, 0, 0 };
	uint64_t calls = 0, nobufs = 0, writes;
	uint32_t burst = p->data_burst > 1 ? p->data_burst : 1;
	int paced = p->data_gap_ps != 0, rc = 0;
	int64_t rt = 0;                     /* the real-time clock less ours */
	struct meter m;
	mono_ns base;                       /* the schedule's time 0 */
	size_t off;

	if (sp->timed)
		rt = meter_real_offset();       /* once: send times come from the schedule */
	meter_start(&m);
	s->start = m.t0;
	base = m.t0;
	at.t0 = (int64_t)base + rt;
	/* stop, or --time up: two loads of a line no one writes while data flows */
	while (at.left > 0 && !stop_requested(st) &&
	    !atomic_load_explicit(&st->end, memory_order_relaxed)) {
		ssize_t n;

		build(sp, &at);
		n = send_call(sp, s->fd, &writes, &off);
		if (n <= 0) {                   /* the one place send errors land */
			if (n == -1 && errno == ENOBUFS && !stop_requested(st)) {
				nobufs++;
				/* --zerocopy: completions not yet read hold the
				 * socket's option memory; reading them frees it */
				if (!s->zc.on || xfer_zc_reap(s) == 0)
					xfer_nobufs_wait(s->fd);
				continue;
			}
			if (n == -1 && errno == EINTR && !stop_requested(st))
				continue;
			if (n == -1 && sp->refused != NULL &&
			    sp->refused(sp, s->fd, errno))
				continue;       /* the path changed its way (GSO off) */
			xfer_io_error(s, n == 0 ? EPIPE : errno, "sending");
			rc = -1;
			break;
		}
		calls++;
		at.seq += writes;
		at.left -= (uint64_t)n;
		at.off = off;
		LIVE_SET(s, bytes, p->data_bytes - at.left);
		LIVE_SET(s, calls, calls);
		if (sp->dgrams)
			LIVE_SET(s, dgrams, at.seq);
		if (paced && at.left > 0 && at.seq % burst == 0) {   /* -g, --rate */
			mono_ns slip = xfer_slip(p, xfer_sleep_until(st, base +
			    xfer_due_ns(p, at.seq)));

			base += slip;           /* the send times move with it */
			at.t0 += (int64_t)slip;
		}
	}
	if (stop_requested(st) && rc == 0 && at.left > 0) {   /* stopped before the end */
		snprintf(s->err, sizeof s->err, "interrupted");
		rc = -1;
	}
	meter_stop(&m, r);                  /* the window ends with the last call */
	r->bytes = p->data_bytes - at.left;
	if (rc == 0 && p->duration_ms != 0 && r->bytes == 0) {
		snprintf(s->err, sizeof s->err, "sent nothing in its --time (the "
		         "kernel took no data)");
		rc = -1;                        /* never 0 bytes as a success */
	}
	r->calls = calls;
	if (sp->dgrams)
		r->dgrams = at.seq;
	if (p->verbose && nobufs > 0)
		fprintf(stderr, "gput: sending: the queue below the socket was full "
		        "(ENOBUFS) %llu times; waited up to %d ms each time\n",
		        (unsigned long long)nobufs, NOBUFS_WAIT_MS);
	return rc;
}

int
xfer_send_run(struct stream *s, struct xfer_sendpath *sp)
{
	return send_run(s, sp, sp->build, sp->send);
}

int
xfer_send_loop(struct stream *s)
{
	const struct xfer_params *p = &s->p;
	struct pattern pt;
	struct plain x = { .sp = { plain_build, plain_send, NULL, 0, 0 } };
	int rc;

	if (pattern_init(&pt, p, p->len, s->err, sizeof s->err) == -1)
		return -1;
	x.pt = &pt;
	x.p = p;
	x.len = p->len;
	x.hdr = xfer_udp_has_header(p);
	/* Without -s every datagram starts the pattern anew (phase 0): its
	 * header goes over the pattern's first bytes, and the datagram is sent
	 * in one piece rather than two (one copy in the kernel, not two). */
	x.inplace = x.hdr && pt.period == p->len;
	x.flags = MSG_NOSIGNAL;
	x.zc = s->zc.on ? s : NULL;
	x.iov[0].iov_base = x.h;
	x.iov[0].iov_len = sizeof x.h;
	x.mh.msg_iov = x.iov;
	x.mh.msg_iovlen = 2;
	x.sp.timed = x.hdr && p->data_gap_ps != 0;
	x.sp.dgrams = p->proto == PROTO_UDP;
	rc = send_run(s, &x.sp, plain_build, plain_send);
	if (s->zc.on) {                     /* still lent: xfer_tcp_send frees it */
		s->zc.buf = pt.buf;
		pt.buf = NULL;
	}
	pattern_free(&pt);
	return rc;
}

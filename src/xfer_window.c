/* SPDX-License-Identifier: BSD-2-Clause */
/* xfer_window.c: --sliding-window's sender, one loop per stream. */
#include "xfer_window.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>

#include "pattern.h"
#include "swin.h"
#include "wire_udp.h"

/* The loop's state. */
struct wtx {
	struct stream *s;
	const struct xfer_params *p;
	struct swin w;
	struct swin_rto rto;
	struct pattern pt;
	uint64_t total;                 /* datagrams */
	uint32_t last_len;
	uint64_t acked_bytes;
	uint8_t  h[WIRE_GPUD_LEN];
	struct iovec iov[2];
	struct msghdr mh;
};

int
xfer_win_idle_ms(void)
{
	return (int)(SWIN_RTO_MAX_NS / 1000000u) + 1000;
}

/* Datagram seq with send time now. Returns 0, or -1 with s->err. */
static int
send_dgram(struct wtx *x, uint64_t seq, uint64_t now)
{
	const struct xfer_params *p = x->p;
	size_t len = seq + 1 == x->total ? x->last_len : p->data_len;
	size_t off = x->pt.period == p->data_len ? 0 :
	    (size_t)(seq * p->data_len % x->pt.period);

	wire_gpud_encode(x->h, seq, now);
	x->iov[1].iov_base = x->pt.buf + off + WIRE_GPUD_LEN;
	x->iov[1].iov_len = len - WIRE_GPUD_LEN;
	for (;;) {                          /* the one place send errors land */
		if (sendmsg(x->s->fd, &x->mh, MSG_NOSIGNAL) >= 0)
			break;
		if (errno == ENOBUFS && !stop_requested(x->s->stop)) {
			xfer_nobufs_wait(x->s->fd);
			continue;
		}
		if (errno == EINTR && !stop_requested(x->s->stop))
			continue;
		xfer_io_error(x->s, errno, "sending");
		return -1;
	}
	x->s->r.calls++;
	LIVE_SET(x->s, calls, x->s->r.calls);
	return 0;
}

/* Every acknowledgement queued, without waiting. Returns 0, or -1 with
 * s->err (the receiver's port refused: it is gone). */
static int
read_acks(struct wtx *x, uint64_t now)
{
	struct stream *s = x->s;
	uint8_t b[WIRE_GPUA_LEN + 1];
	struct wire_gpua a;
	uint64_t rtt;
	int have;

	for (;;) {
		ssize_t n = recv(s->fd, b, sizeof b, MSG_DONTWAIT | MSG_TRUNC);

		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
			if (errno == EINTR)
				continue;
			xfer_io_error(s, errno, "reading acknowledgements");
			return -1;
		}
		/* anything else (a late cookie) is not ours to count */
		if (wire_gpua_decode(b, (size_t)n > sizeof b ? sizeof b : (size_t)n,
		    (size_t)n, &a) != WIRE_OK || a.stream != s->id)
			continue;
		switch (swin_acked(&x->w, a.seq, a.send_ns, now, &rtt, &have)) {
		case SWIN_ACK_NEW:
			x->acked_bytes += a.seq + 1 == x->total ? x->last_len :
			    x->p->data_len;
			if (have)
				swin_rto_sample(&x->rto, rtt);
			break;
		case SWIN_ACK_OLD:
		case SWIN_ACK_BAD:
			break;
		}
	}
}

/* --go-back-n: every datagram out from the lowest not acknowledged on,
 * sent again, as a go-back-N sender does (its receiver would have dropped
 * those after a gap; gput's keeps them, so they arrive as duplicates);
 * the timers of those not acknowledged anew. Returns 0, or -1 with s->err. */
static int
resend_window(struct wtx *x, uint64_t now)
{
	uint64_t seq;

	for (seq = x->w.base; seq < x->w.next; seq++) {
		if (send_dgram(x, seq, now) == -1)
			return -1;
		if (x->w.slot[seq % x->w.n].acked)
			x->w.resends++;         /* a copy: no timer to run */
		else
			swin_sent_again(&x->w, seq, now, x->rto.rto);
	}
	return 0;
}

/* Send again what timed out by now; the timeout doubles once a turn that
 * had any (RFC 6298 5.5). Returns 0, or -1 with s->err (the retry limit). */
static int
resend_due(struct wtx *x, uint64_t now)
{
	int any = 0;

	while (swin_deadline(&x->w) <= now) {
		uint32_t tries;
		uint64_t seq = swin_first_timer(&x->w, &tries);

		if (tries > x->p->win_retries) {
			snprintf(x->s->err, sizeof x->s->err, "datagram %llu was not "
			         "acknowledged after %u retransmissions (--retries): "
			         "the receiver or the path answers nothing",
			         (unsigned long long)seq, x->p->win_retries);
			x->s->win.failed = 1;
			return -1;
		}
		x->s->win.timeouts++;
		if (!any && x->rto.fixed == 0)
			swin_rto_backoff(&x->rto);
		any = 1;
		if (x->p->win_gbn)              /* the whole window again */
			return resend_window(x, now);
		if (send_dgram(x, seq, now) == -1)
			return -1;
		swin_sent_again(&x->w, seq, now, x->rto.rto);
	}
	return 0;
}

/* Wait until an acknowledgement, the earliest timer or the stop request. */
static void
wait_turn(struct wtx *x, uint64_t now)
{
	struct pollfd pfd[2] = { { x->s->fd, POLLIN, 0 },
	    { stop_fd(x->s->stop), POLLIN, 0 } };
	uint64_t d = swin_deadline(&x->w), left = d > now ? d - now : 0;
	struct timespec ts = { (time_t)(left / 1000000000u),
	    (long)(left % 1000000000u) };

	(void)ppoll(pfd, pfd[1].fd == -1 ? 1 : 2, d == UINT64_MAX ? NULL : &ts,
	    NULL);
}

/* The loop. Returns 0, or -1 with s->err. */
static int
win_loop(struct wtx *x)
{
	const struct stopreq *st = x->s->stop;

	while (!swin_done(&x->w)) {
		uint64_t now = mono_now();

		if (stop_requested(st)) {
			snprintf(x->s->err, sizeof x->s->err, "interrupted");
			return -1;
		}
		if (read_acks(x, now) == -1)
			return -1;
		LIVE_SET(x->s, bytes, x->acked_bytes);
		LIVE_SET(x->s, dgrams, x->w.acks_new);
		if (swin_done(&x->w))
			break;
		if (resend_due(x, now) == -1)
			return -1;
		while (swin_may_send(&x->w)) {
			if (send_dgram(x, x->w.next, now) == -1)
				return -1;
			swin_sent_new(&x->w, now, x->rto.rto);
		}
		wait_turn(x, now);
	}
	return 0;
}

/* The counts into s->win and s->r. */
static void
fill(struct wtx *x, struct meter *m)
{
	struct win_stats *ws = &x->s->win;
	struct gput_result *r = &x->s->r;

	meter_stop(m, r);
	r->bytes = x->acked_bytes;
	r->dgrams = x->w.firsts;
	ws->window = x->w.n;
	ws->retries = x->p->win_retries;
	ws->firsts = x->w.firsts;
	ws->resends = x->w.resends;
	ws->acks = x->w.acks_new + x->w.acks_old;
	ws->acks_new = x->w.acks_new;
	ws->acks_bad = x->w.acks_bad;
	ws->srtt_ns = x->rto.have ? x->rto.srtt : 0;
	ws->rto_ns = x->rto.rto;
	ws->rtt_samples = x->rto.samples;
	ws->rto_fixed_ns = x->rto.fixed;
	ws->gbn = x->p->win_gbn;
}

int
xfer_win_send(struct stream *s)
{
	const struct xfer_params *p = &s->p;
	struct wtx *x = calloc(1, sizeof *x);
	struct meter m;
	int rc;

	memset(&s->win, 0, sizeof s->win);
	if (x == NULL) {
		snprintf(s->err, sizeof s->err, "cannot allocate the window's state");
		return -1;
	}
	x->s = s;
	x->p = p;
	x->total = xfer_data_calls(p);
	x->last_len = xfer_last_len(p);
	if (pattern_init(&x->pt, p, p->len, s->err, sizeof s->err) == -1 ||
	    swin_init(&x->w, p->win, x->total, s->err, sizeof s->err) == -1) {
		pattern_free(&x->pt);
		free(x);
		return -1;
	}
	swin_rto_init(&x->rto, p->win_rto_ns);
	x->iov[0].iov_base = x->h;
	x->iov[0].iov_len = sizeof x->h;
	x->mh.msg_iov = x->iov;
	x->mh.msg_iovlen = 2;
	meter_start(&m);
	s->start = m.t0;
	rc = win_loop(x);
	fill(x, &m);
	swin_free(&x->w);
	pattern_free(&x->pt);
	free(x);
	return rc;
}

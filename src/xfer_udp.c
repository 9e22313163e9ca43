/* SPDX-License-Identifier: BSD-2-Clause */
/* xfer_udp.c: the UDP data path, sender with end markers and receiver. */
#include "xfer_udp.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/sock_diag.h>            /* SK_MEMINFO_DROPS */
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <time.h>

#include "bytes.h"
#include "databuf.h"
#include "ecn.h"
#include "model.h"
#include "net.h"
#include "pattern.h"
#include "udpacct.h"
#include "udplog.h"
#include "wire_udp.h"
#include "xfer_batch.h"
#include "xfer_markers.h"
#include "xfer_window.h"

#ifndef UDP_GRO
#define UDP_GRO 104
#endif

/* How long a UDP receiver waits for the first datagram. */
#define UDP_START_MS 10000
/* Idle time that ends a UDP receive when every marker was lost. */
#define UDP_IDLE_MS  1000

uint64_t
xfer_udp_drain(int fd)
{
	uint8_t b[1];
	uint64_t n = 0;

	for (;;) {
		if (recv(fd, b, sizeof b, MSG_DONTWAIT | MSG_TRUNC) >= 0)
			n++;
		else if (errno != EINTR)
			return n;               /* EAGAIN: the queue is empty */
	}
}

int
xfer_udp_prepare(int fd, char *err, size_t errlen)
{
	int one = 1;

	if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one) == -1) {
		snprintf(err, errlen, "setsockopt SO_TIMESTAMPNS: %s", strerror(errno));
		return -1;
	}
	return 0;
}

int
xfer_udp_prepare_rx(int fd, const struct xfer_params *p, char *err,
                    size_t errlen)
{
	int one = 1;

	if (xfer_udp_prepare(fd, err, errlen) == -1)
		return -1;
	/* quietly: a kernel that refuses is told about once, by the data path */
	if (p->gso && !p->discard)
		(void)setsockopt(fd, IPPROTO_UDP, UDP_GRO, &one, sizeof one);
	return 0;
}

/* Is GRO on for fd: turned on when the socket was opened, or now? */
static int
gro_on(int fd)
{
	int v = 0;
	socklen_t len = sizeof v;

	if (getsockopt(fd, IPPROTO_UDP, UDP_GRO, &v, &len) == 0 && v != 0)
		return 1;
	return xfer_gro_enable(fd) == 0;
}

int
xfer_udp_idle_ms(const struct xfer_params *p)
{
	/* Twice the sender's gap on top, so pacing never looks like the end.
	 * At the limits (a 10 s gap, bursts of a million) a burst comes every
	 * 10^7 s: stop at INT_MAX ms rather than wrap to a negative timeout. */
	uint64_t tick_ms = p->data_gap_ps * (p->data_burst > 1 ? p->data_burst : 1) /
	    1000000000u;
	/* --sliding-window: a sender may wait its longest timeout to send
	 * again (a lost acknowledgement of the last datagram) */
	int idle = p->xflags & CTL_XF_WINDOW ? xfer_win_idle_ms() : UDP_IDLE_MS;

	return tick_ms > (uint64_t)(INT_MAX - idle) / 2 ? INT_MAX :
	    idle + (int)(2 * tick_ms);
}

int
xfer_udp_send(struct stream *s)
{
	/* the window ends with the last data datagram (--sliding-window: its
	 * acknowledgement), before the markers */
	int rc = s->p.win > 0 ? xfer_win_send(s) : xfer_send_loop(s);

	if (rc == 0)
		xfer_markers_send(s);
	return rc;
}

/* Room for the control messages of one received message: SCM_TIMESTAMPNS,
 * UDP_GRO's segment size and (--ecn) the TOS or Traffic Class. */
#define RX_CM_LEN (CMSG_SPACE(sizeof(struct timespec)) + \
	CMSG_SPACE(sizeof(int)) + ECN_CMSG_SPACE)

/* Receive state: vlen messages of cap bytes each, set up once; fill, chosen
 * once, is the receive call (recvmsg for one message, recvmmsg for more). */
struct udp_rx {
	int fd;
	uint32_t vlen;
	size_t cap;                         /* bytes a message may fill */
	size_t stride;                      /* cap rounded up to a cache line */
	uint8_t *buf;                       /* vlen * stride, page-aligned */
	struct mmsghdr *mm;
	struct iovec *iov;
	uint8_t *cm;                        /* vlen * RX_CM_LEN */
	int (*fill)(struct udp_rx *);       /* messages received, or -1 */
	struct timespec ts;                 /* kernel arrival time of the last message */
	unsigned ecn;                       /* ECN codepoint of the last message
	                                       (--ecn; GRO joins only datagrams
	                                       of one TOS) */
};

/* One recvmsg. MSG_TRUNC: msg_len is the datagram's real length even when
 * only its start fits (--discard reads the header alone). */
static int
rx_one(struct udp_rx *rx)
{
	ssize_t n = recvmsg(rx->fd, &rx->mm[0].msg_hdr, MSG_TRUNC);

	if (n < 0)
		return -1;
	rx->mm[0].msg_len = (unsigned)n;
	return 1;
}

/* One recvmmsg: waits for the first message (SO_RCVTIMEO), then takes
 * what is queued, up to vlen. */
static int
rx_many(struct udp_rx *rx)
{
	return recvmmsg(rx->fd, rx->mm, rx->vlen, MSG_TRUNC | MSG_WAITFORONE, NULL);
}

/* Message i's arrival time into rx->ts (kept from the last message when
 * it has none), its ECN codepoint into rx->ecn (not-ECT when it has none)
 * and its GRO segment size (0: one datagram). Makes its control room whole
 * again for the next call. */
static uint32_t
rx_meta(struct udp_rx *rx, uint32_t i)
{
	struct msghdr *mh = &rx->mm[i].msg_hdr;
	struct cmsghdr *c;
	uint32_t gso = 0;
	int g;

	rx->ecn = ECN_NOT_ECT;
	for (c = CMSG_FIRSTHDR(mh); c != NULL; c = CMSG_NXTHDR(mh, c)) {
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
			memcpy(&rx->ts, CMSG_DATA(c), sizeof rx->ts);
		} else if (c->cmsg_level == IPPROTO_UDP && c->cmsg_type == UDP_GRO) {
			memcpy(&g, CMSG_DATA(c), sizeof g);
			gso = g > 0 ? (uint32_t)g : 0;
		} else if ((g = ecn_cmsg_codepoint(c)) >= 0) {
			rx->ecn = (unsigned)g;
		}
	}
	mh->msg_controllen = RX_CM_LEN;
	return gso;
}

static uint64_t
ts_ns(const struct timespec *t)
{
	return (uint64_t)t->tv_sec * 1000000000u + (uint64_t)t->tv_nsec;
}

/* -c on one datagram, the seq-th of the stream (its header, if any, is not
 * pattern). Without -s every datagram starts the pattern anew, but the
 * first bad byte is still reported by its offset in the stream. */
static void
udp_verify(const struct xfer_params *p, const struct pattern *pt,
           const uint8_t *buf, size_t n, uint64_t seq, int hdr,
           struct gput_result *r)
{
	uint64_t at = seq * (uint64_t)p->data_len, first = UINT64_MAX;
	size_t skip = hdr ? WIRE_GPUD_LEN : 0;

	r->verify_bad += pattern_check(pt, (p->pattern_spans ? at : 0) + skip, buf + skip,
	    n - skip, &first);
	if (first != UINT64_MAX && r->verify_first == UINT64_MAX)
		r->verify_first = p->pattern_spans ? first : at + first;
}

/* A datagram that is neither data nor a marker came at t (its kernel stamp):
 * is it more than ms after ref, the last data datagram's stamp (before the
 * first, the first datagram's of any kind)? Such datagrams are ignored;
 * they must not hold the receiver. */
static int
other_too_late(uint64_t ref, uint64_t t, int ms)
{
	return t > ref && t - ref > (uint64_t)ms * 1000000u;
}

/* After the first end marker the receiver reads on this long (or to the
 * last marker) for data that comes late; markers are MARKER_SPACING_MS
 * apart. */
#define UDP_LATE_MS (4 * MARKER_SPACING_MS + 2)

/* The receive loop's state. */
struct rx {
	struct stream *s;
	const struct xfer_params *p;
	struct gput_result *r;
	const struct pattern *pt;
	struct udp_rx *io;
	struct udpacct *acct;            /* header mode: exact accounting */
	uint64_t want, first_ts, last_ts, start_ts, first_len, other;
	uint64_t got;                    /* data datagrams read (every copy) */
	uint64_t ecn[4];                 /* ... by ECN codepoint (--ecn) */
	int complete;                    /* every sequence number has arrived */
	int ack;                         /* --sliding-window: answer each */
	uint64_t acks_sent;
	uint8_t ackbuf[WIRE_GPUA_LEN];
	uint32_t dlen, last;
	struct meter m;
	int64_t off0;                    /* CLOCK_REALTIME - MONOTONIC at the start */
	uint8_t logbuf[64 * UDP_LOG_REC];
	size_t logn;
};

/* --log: one record into the buffer, written out when it is full (a copy
 * per datagram, a write per 64; formatting happens after the run). */
static void
log_rec(struct rx *x, uint64_t seq, uint64_t send, uint64_t at, uint32_t len,
        uint32_t flags)
{
	struct bytes w = bytes_writer(x->logbuf + x->logn, UDP_LOG_REC);

	if (x->s->log_fd < 0)
		return;
	bytes_put_le64(&w, UDPLOG_SEQ, seq);
	bytes_put_le64(&w, UDPLOG_SEND, send);
	bytes_put_le64(&w, UDPLOG_AT, at);
	bytes_put_le32(&w, UDPLOG_LEN, len);
	bytes_put_le32(&w, UDPLOG_FLAGS, flags);
	x->logn += UDP_LOG_REC;
	if (x->logn == sizeof x->logbuf) {
		(void)!write(x->s->log_fd, x->logbuf, x->logn);
		x->logn = 0;
	}
}

/* --sliding-window: answer data datagram seq (every copy: the sender's
 * answer to an earlier one may have been lost) on the socket, connected to
 * the sender's validated address and port; one acknowledgement a datagram
 * received, never longer than it. A full queue below the socket is waited
 * out; any other refusal ends the receive (the sender is gone). Returns 0,
 * or -1 with err filled. */
static int
send_ack(struct rx *x, uint64_t seq, uint64_t stamp, char *err, size_t errlen)
{
	const struct wire_gpua a = { (uint16_t)x->s->id, seq, stamp };

	wire_gpua_encode(x->ackbuf, &a);
	while (send(x->io->fd, x->ackbuf, WIRE_GPUA_LEN, MSG_NOSIGNAL) !=
	    (ssize_t)WIRE_GPUA_LEN) {
		if (errno == ENOBUFS || errno == EINTR) {
			if (stop_requested(x->s->stop))
				break;
			if (errno == ENOBUFS)
				xfer_nobufs_wait(x->io->fd);
			continue;
		}
		snprintf(err, errlen, "acknowledging datagram %llu: %s",
		         (unsigned long long)seq, errno == ECONNREFUSED ?
		         "the sender's port refused it (sender gone)" :
		         strerror(errno));
		return -1;
	}
	x->acks_sent++;
	return 0;
}

/* A datagram of a data length: count it once per sequence number. Returns
 * 1 when every datagram has arrived, 2 when it is not data after all, 0 or
 * -1 (err filled). */
static int
on_data(struct rx *x, const uint8_t *buf, size_t n, uint64_t at, char *err,
        size_t errlen)
{
	struct gput_result *r = x->r;
	uint64_t seq = r->dgrams, send = 0, uniq0, dup0, reo0;
	uint32_t flags = UDPLOG_NOSEQ;
	int fresh = 1;

	if (x->acct != NULL) {
		struct udpacct *a = x->acct;

		if (!wire_gpud_data(buf, n, &seq, &send))
			return 2;               /* the right length, not our data */
		uniq0 = a->n.unique, dup0 = a->n.duplicates, reo0 = a->n.reordered;
		udpacct_add(a, seq, send, at);
		fresh = a->n.unique > uniq0;
		flags = (a->n.duplicates > dup0 ? UDPLOG_DUP : 0) |
		    (a->n.reordered > reo0 ? UDPLOG_REORDER : 0) |
		    (!fresh && a->n.duplicates == dup0 ? UDPLOG_OLD : 0) |
		    (r->flags & RES_MARKER ? UDPLOG_LATE : 0);
		LIVE_SET(x->s, dups, a->n.duplicates);
		LIVE_SET(x->s, reordered, a->n.reordered);
		if (x->ack && send_ack(x, seq, send, err, errlen) == -1)
			return -1;
	}
	log_rec(x, seq, send, at, (uint32_t)n, flags);
	x->got++;
	x->ecn[x->io->ecn]++;
	if (!fresh)
		return 0;
	if (r->dgrams == 0) {           /* the first datagram opens the window */
		x->first_ts = at;
		x->first_len = n;
		meter_start(&x->m);
		x->s->start = x->m.t0;
		x->off0 = meter_real_offset();
		if (net_set_timeouts(x->io->fd, xfer_udp_idle_ms(x->p), 0, err,
		    errlen) == -1)
			return -1;
	}
	if (x->p->verify)
		udp_verify(x->p, x->pt, buf, n, seq, x->acct != NULL, r);
	r->dgrams++;
	r->bytes += (uint64_t)n;
	LIVE_SET(x->s, bytes, r->bytes);
	LIVE_SET(x->s, dgrams, r->dgrams);
	x->last_ts = at;
	if (r->dgrams != x->want)
		return 0;
	if (x->acct == NULL)
		return 1;                   /* everything arrived: the exact end */
	/* with sequence numbers, copies may still be on their way: read on
	 * until the last marker, or a moment without anything;
	 * --sliding-window: until the markers, answering what comes again */
	x->complete = 1;
	if (x->ack)
		return 0;
	return net_set_timeouts(x->io->fd, UDP_LATE_MS, 0, err, errlen) == -1 ? -1 : 0;
}

/* An end marker. Returns 1 when the receive is over. */
static int
on_marker(struct rx *x, uint8_t idx, char *err, size_t errlen)
{
	if (!(x->r->flags & RES_MARKER) && x->acct != NULL) {
		udpacct_marker(x->acct);
		/* read on a little for late data, then the last marker ends it */
		if (net_set_timeouts(x->io->fd, UDP_LATE_MS, 0, err, errlen) == -1)
			return -1;
	}
	x->r->flags |= RES_MARKER;      /* the sender is done */
	return x->acct == NULL || idx == MARKER_COUNT;
}

uint64_t
xfer_udp_window(uint64_t span, uint64_t bytes, uint64_t first_len)
{
	return bytes > first_len ? (uint64_t)((unsigned __int128)span * bytes /
	    (bytes - first_len)) : 0;
}

/* The window: first to last data datagram on the kernel's arrival clock
 * (or, if that was stepped, on ours; meter_stamp_span), widened by the
 * first datagram's share: N datagrams arrive over N - 1 gaps, so the rate
 * is the bytes after the first over that span, as gput-pcap reckons it. */
static void
close_window(struct rx *x)
{
	struct gput_result *r = x->r;
	uint64_t idle, span;
	int stepped;

	meter_stop(&x->m, r);
	idle = r->flags & RES_IDLE ? (uint64_t)xfer_udp_idle_ms(x->p) * 1000000u : 0;
	span = meter_stamp_span(x->first_ts, x->last_ts, x->off0, meter_real_offset(),
	    r->real_ns > idle ? r->real_ns - idle : 0, &stepped);
	if (stepped)
		r->flags |= RES_STEPPED;
	r->real_ns = xfer_udp_window(span, r->bytes, x->first_len);
	/* The window opened at the first datagram's arrival less its share,
	 * not when a read noticed it (a batched or busy receiver reads a while
	 * later): on the kernel's stamp, on this host's monotonic clock. With
	 * several streams the side's sum spans their windows, and a start
	 * taken from the read added that lag to it (a -P 16 --batch 60 side
	 * read 225.7 ms for a run of at most 219.5 ms). */
	if (!stepped && r->real_ns >= span) {
		int64_t first = (int64_t)x->first_ts - x->off0 -
		    (int64_t)(r->real_ns - span);

		if (first > 0 && (mono_ns)first < x->s->start)
			x->s->start = (mono_ns)first;
	}
}

/* One datagram of n bytes (its real length; buf holds its start) that
 * arrived at at: data, a marker, or something else. Returns 0 to read on,
 * 1 when the receive is over, -1 (err filled). */
static int
on_dgram(struct rx *x, const uint8_t *buf, size_t n, uint64_t at, char *err,
         size_t errlen)
{
	struct gput_result *r = x->r;
	int done = 2;
	uint8_t idx;

	if (x->start_ts == 0)               /* no clock read: the kernel's stamp */
		x->start_ts = at;
	if ((uint32_t)n == x->dlen || ((uint32_t)n == x->last && n > 0))
		done = on_data(x, buf, n, at, err, errlen);
	else if (xfer_marker_decode(x->p, buf, n, &idx, &r->dgrams_sent))
		done = on_marker(x, idx, err, errlen);
	if (done != 2)
		return done;
	if (!other_too_late(r->dgrams ? x->last_ts : x->start_ts, at,
	    r->dgrams ? xfer_udp_idle_ms(x->p) : UDP_START_MS)) {
		x->other++;
		return 0;
	}
	/* anything else is ignored, but does not keep the receiver waiting:
	 * the timeouts run from the last data datagram */
	if (r->dgrams > 0) {
		r->flags |= RES_IDLE;
		return 1;
	}
	snprintf(err, errlen, "no data datagram arrived within the start "
	         "timeout (only other datagrams)");
	return -1;
}

/* The datagrams of one receive call, a message at a time, a message cut
 * into the datagrams GRO coalesced. Returns on_dgram's answer. */
static int
on_call(struct rx *x, int nm, char *err, size_t errlen)
{
	struct udp_rx *io = x->io;
	int done = 0, i;

	for (i = 0; i < nm && done == 0; i++) {
		uint32_t gso = rx_meta(io, (uint32_t)i), k, segs;
		const uint8_t *b = io->buf + (size_t)i * io->stride;
		size_t n = io->mm[i].msg_len, last;
		uint64_t at = ts_ns(&io->ts);

		if (gso != 0 && n > io->cap)    /* never with a 64 KiB buffer */
			n = io->cap;
		segs = xfer_gro_segs(n, gso, &last);
		for (k = 0; k < segs && done == 0; k++)
			done = on_dgram(x, b + (size_t)k * gso, k + 1 < segs ? gso : last,
			    at, err, errlen);
	}
	return done;
}

/* Receive until every datagram, the last marker (or the first, without a
 * header) or the idle timeout. Calls counts the receive calls that brought
 * data (one per data datagram without --batch or --gso). Returns 0 or -1. */
static int
udp_rx_loop(struct rx *x, char *err, size_t errlen)
{
	struct gput_result *r = x->r;
	const struct stopreq *st = x->s->stop;
	int done = 0;

	while (!done && !stop_requested(st)) {  /* a stop request ends the loop */
		int nm = x->io->fill(x->io);
		uint64_t got = x->got;

		if (nm < 0) {                   /* the one place recv errors land */
			if (errno == EINTR && !stop_requested(st))
				continue;
			if (errno == EINTR)     /* stopped: the window closes below */
				break;
			if ((errno == EAGAIN || errno == EWOULDBLOCK) && r->dgrams > 0) {
				if (!(r->flags & RES_MARKER) && !x->complete)
					r->flags |= RES_IDLE;   /* every marker lost */
				break;
			}
			snprintf(err, errlen, "%s", stop_requested(st) ? "interrupted" :
			    errno == EAGAIN ? "no datagram arrived within the start timeout"
			    : strerror(errno));
			return -1;
		}
		done = on_call(x, nm, err, errlen);
		if (x->got != got) {
			r->calls++;
			LIVE_SET(x->s, calls, r->calls);
		}
		if (done == -1)
			return -1;
	}
	if (r->dgrams > 0)
		close_window(x);
	if (stop_requested(st) && !(r->flags & RES_MARKER) && r->dgrams != x->want) {
		snprintf(err, errlen, "interrupted");
		return -1;
	}
	return 0;
}

/* Datagrams the receiving socket dropped so far, nearly always because its
 * buffer was full: the kernel's count, read once at the end. Returns 0, or
 * -1 when the kernel does not say (before Linux 4.6). */
static int
udp_socket_drops(int fd, uint64_t *n)
{
	uint32_t mi[SK_MEMINFO_VARS];
	socklen_t len = sizeof mi;

	if (getsockopt(fd, SOL_SOCKET, SO_MEMINFO, mi, &len) == -1 ||
	    len < (SK_MEMINFO_DROPS + 1) * sizeof mi[0])
		return -1;
	*n = mi[SK_MEMINFO_DROPS];
	return 0;
}

/* The receiver's figures into the caller's udp_stats: the accounting's
 * (send times came from the schedule when the sender was paced), or
 * without sequence numbers the datagrams read, each once. */
static void
fill_stats(const struct rx *x, struct udp_stats *st)
{
	memset(st, 0, sizeof *st);
	if (x->acct != NULL) {
		udpacct_figures(x->acct, x->p->data_gap_ps != 0, st);
	} else {
		st->received = x->r->dgrams;
		st->unique = x->r->dgrams;
	}
	st->other = x->other;
	if (x->p->xflags & CTL_XF_ECN) {    /* every datagram received, once */
		memcpy(st->ecn, x->ecn, sizeof st->ecn);
		st->flags |= UDPS_ECN;
	}
}

/* Buffers for vlen messages of cap bytes each, with their control room.
 * Returns 0, or -1 (no memory; rx_free cleans up). */
static int
rx_setup(struct udp_rx *io, int fd, uint32_t vlen, size_t cap)
{
	uint32_t i;

	memset(io, 0, sizeof *io);
	io->fd = fd;
	io->vlen = vlen;
	io->cap = cap;
	io->fill = vlen > 1 ? rx_many : rx_one;
	io->stride = databuf_stride(cap);   /* every slot on a cache line */
	io->buf = io->stride != 0 && vlen <= SIZE_MAX / io->stride ?
	    databuf_alloc(io->stride * vlen) : NULL;
	io->mm = calloc(vlen, sizeof *io->mm);
	io->iov = calloc(vlen, sizeof *io->iov);
	io->cm = calloc(vlen, RX_CM_LEN);   /* calloc: aligned for any cmsghdr */
	if (io->buf == NULL || io->mm == NULL || io->iov == NULL || io->cm == NULL)
		return -1;
	for (i = 0; i < vlen; i++) {
		struct msghdr *mh = &io->mm[i].msg_hdr;

		io->iov[i].iov_base = io->buf + (size_t)i * io->stride;
		io->iov[i].iov_len = cap;
		mh->msg_iov = &io->iov[i];
		mh->msg_iovlen = 1;
		mh->msg_control = io->cm + (size_t)i * RX_CM_LEN;
		mh->msg_controllen = RX_CM_LEN;
	}
	return 0;
}

static void
rx_free(struct udp_rx *io)
{
	free(io->buf);
	free(io->mm);
	free(io->iov);
	free(io->cm);
}

/* The receiver with vlen messages per call of cap bytes each. */
static int
udp_recv(struct stream *s, uint32_t vlen, size_t cap)
{
	const struct xfer_params *p = &s->p;
	struct gput_result *r = &s->r;
	char *err = s->err;
	size_t errlen = sizeof s->err;
	int fd = s->fd;
	struct pattern pt = { 0 };
	struct udp_rx io;
	struct udpacct acct;
	struct rx *x = calloc(1, sizeof *x);
	size_t dmax = p->len > p->data_len ? p->len : p->data_len;
	int rc;

	if (rx_setup(&io, fd, vlen, cap) == -1 || x == NULL) {
		snprintf(err, errlen, "cannot allocate %zu bytes", cap * vlen + sizeof *x);
		rx_free(&io);
		free(x);
		return -1;
	}
	*x = (struct rx){ .s = s, .p = p, .r = r, .pt = &pt, .io = &io,
	    .want = xfer_data_calls(p), .dlen = p->data_len,
	    .last = xfer_last_len(p), .ack = (p->xflags & CTL_XF_WINDOW) != 0 &&
	    xfer_udp_has_header(p) };
	rc = xfer_udp_prepare(fd, err, errlen);
	if (rc == 0 && xfer_udp_has_header(p)) {
		rc = udpacct_init(&acct, err, errlen);
		x->acct = rc == 0 ? &acct : NULL;
	}
	if (rc == 0)
		rc = net_set_timeouts(fd, UDP_START_MS, 0, err, errlen);
	if (rc == 0 && p->verify)
		rc = pattern_init(&pt, p, dmax, err, errlen);
	r->verify_first = UINT64_MAX;
	if (rc == 0)
		rc = udp_rx_loop(x, err, errlen);
	if (rc == 0 && udp_socket_drops(fd, &r->sock_drops) == 0)
		r->flags |= RES_DROPS;
	if (s->stats != NULL)
		fill_stats(x, s->stats);
	memset(&s->win, 0, sizeof s->win);
	s->win.acks_sent = x->acks_sent;
	if (x->logn > 0 && s->log_fd >= 0)
		(void)!write(s->log_fd, x->logbuf, x->logn);
	if (p->verify) {
		r->flags |= RES_VERIFIED;
		if (r->verify_bad == 0)
			r->verify_first = 0;
	} else {
		r->verify_first = 0;
	}
	if (x->acct != NULL)
		udpacct_free(&acct);
	pattern_free(&pt);
	rx_free(&io);
	free(x);
	return rc;
}

/* The read buffer of one datagram: the longest data datagram, or with
 * --discard only the header's and a marker's bytes (MSG_TRUNC still says
 * how long the datagram was). */
static size_t
rx_cap(const struct xfer_params *p)
{
	size_t cap = p->len > p->data_len ? p->len : p->data_len;

	if (p->discard)
		return XFER_DISCARD_READ;
	return cap < MARKER_MAX_LEN ? MARKER_MAX_LEN : cap;
}

int
xfer_udp_recv(struct stream *s)
{
	return udp_recv(s, 1, rx_cap(&s->p));
}

int
xfer_udp_recv_batch(struct stream *s)
{
	const struct xfer_params *p = &s->p;
	/* GRO needs room for a whole coalesced message; --discard reads
	 * each datagram's header, so it takes them one by one */
	int gro = p->gso && !p->discard && gro_on(s->fd);
	struct xfer_params q = *p;

	q.gso = (uint8_t)gro;
	return udp_recv(s, xfer_rx_vlen(&q), gro ? XFER_GRO_BUF : rx_cap(p));
}

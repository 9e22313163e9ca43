/* xfer_udp.c: the UDP data path, sender with end markers and receiver. */
#include "xfer.h"

#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/sock_diag.h>            /* SK_MEMINFO_DROPS */
#include <sys/socket.h>
#include <time.h>

#include "net.h"

/* How long a UDP receiver waits for the first datagram. */
#define UDP_START_MS 10000
/* Idle time that ends a UDP receive when every marker was lost. */
#define UDP_IDLE_MS  1000

uint32_t
xfer_marker_len(const struct xfer_params *p)
{
	uint32_t m = MARKER_BASE_LEN, last = xfer_last_len(p);

	while (m == p->data_len || m == last)
		m++;
	return m;                           /* at most MARKER_BASE_LEN + 2 */
}

size_t
xfer_marker_encode(const struct xfer_params *p, uint8_t *buf, uint8_t idx,
                   uint64_t dgrams, uint64_t bytes)
{
	uint32_t len = xfer_marker_len(p);
	uint64_t v;

	memset(buf, 0, len);
	memcpy(buf, "GPUE", 4);
	buf[4] = 1;
	buf[5] = idx;
	v = htobe64(dgrams);
	memcpy(buf + 8, &v, 8);
	v = htobe64(bytes);
	memcpy(buf + 16, &v, 8);
	return len;
}

int
xfer_marker_decode(const struct xfer_params *p, const uint8_t *buf, size_t n,
                   uint8_t *idx, uint64_t *dgrams)
{
	uint64_t v;
	size_t i;

	if (n != xfer_marker_len(p) || memcmp(buf, "GPUE", 4) != 0 || buf[4] != 1 ||
	    buf[5] < 1 || buf[5] > MARKER_COUNT || buf[6] != 0 || buf[7] != 0)
		return 0;
	for (i = 24; i < n; i++)            /* reserved and padding: zero */
		if (buf[i] != 0)
			return 0;
	memcpy(&v, buf + 8, 8);
	*dgrams = be64toh(v);
	*idx = buf[5];
	return 1;
}

uint32_t
xfer_proof_len(const struct xfer_params *p)
{
	uint32_t m = PROOF_BASE_LEN, last = xfer_last_len(p);

	while (m == p->data_len || m == last)
		m++;
	return m;                           /* at most PROOF_BASE_LEN + 2 */
}

size_t
xfer_proof_encode(const struct xfer_params *p,
                  const uint8_t nonce[PROOF_NONCE_LEN], uint8_t *buf)
{
	uint32_t len = xfer_proof_len(p);

	memset(buf, 0, len);
	memcpy(buf, "GPUH", 4);
	buf[4] = 2;
	memcpy(buf + 8, nonce, PROOF_NONCE_LEN);
	return len;
}

int
xfer_proof_check(const struct xfer_params *p,
                 const uint8_t nonce[PROOF_NONCE_LEN], const uint8_t *buf,
                 size_t n)
{
	uint8_t want[PROOF_MAX_LEN], diff = 0;
	size_t i;

	if (n != xfer_proof_len(p))
		return 0;
	xfer_proof_encode(p, nonce, want);
	for (i = 0; i < n; i++)             /* no early exit on the nonce */
		diff |= (uint8_t)(want[i] ^ buf[i]);
	return diff == 0;
}

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
xfer_udp_idle_ms(const struct xfer_params *p)
{
	/* Twice the sender's gap on top, so pacing never looks like the end. */
	return UDP_IDLE_MS + (int)(2 * (uint64_t)p->data_gap_us / 1000u);
}

/* Send the three markers; each one the kernel accepted counts as a call.
 * A refused one is not retried: the receiver has ended (the partner keeps
 * its socket open until the client is done, so normally all three go). */
static void
send_markers(int fd, const struct xfer_params *p, struct gput_result *r)
{
	uint8_t mk[MARKER_MAX_LEN];
	uint8_t i;

	for (i = 1; i <= MARKER_COUNT && !xfer_stop; i++) {
		size_t n = xfer_marker_encode(p, mk, i, r->dgrams, r->bytes);

		if (i > 1)
			xfer_sleep_until(mono_now() +
			    MARKER_SPACING_MS * (mono_ns)1000000u);
		if (send(fd, mk, n, MSG_NOSIGNAL) == (ssize_t)n)
			r->calls++;
	}
}

int
xfer_udp_send(int fd, const struct xfer_params *p, struct gput_result *r,
              char *err, size_t errlen)
{
	/* the window ends with the last data datagram, before the markers */
	int rc = xfer_send_loop(fd, p, r, err, errlen);

	r->dgrams = r->calls;
	if (rc == 0)
		send_markers(fd, p, r);
	return rc;
}

/* Receive state: one msghdr set up once and reused for every call. */
struct udp_rx {
	struct msghdr msg;
	struct iovec iov;
	/* room for one SCM_TIMESTAMPNS */
	_Alignas(struct cmsghdr) uint8_t cm[CMSG_SPACE(sizeof(struct timespec))];
	struct timespec ts;                 /* kernel arrival time of the last datagram */
};

/* One recvmsg. Returns the datagram's real length (MSG_TRUNC), or -1. */
static ssize_t
udp_rx_one(int fd, struct udp_rx *rx)
{
	ssize_t n;
	struct cmsghdr *c;

	rx->msg.msg_controllen = sizeof rx->cm;
	n = recvmsg(fd, &rx->msg, MSG_TRUNC);
	c = CMSG_FIRSTHDR(&rx->msg);
	if (n >= 0 && c != NULL && c->cmsg_level == SOL_SOCKET &&
	    c->cmsg_type == SCM_TIMESTAMPNS)
		memcpy(&rx->ts, CMSG_DATA(c), sizeof rx->ts);
	return n;
}

static uint64_t
ts_ns(const struct timespec *t)
{
	return (uint64_t)t->tv_sec * 1000000000u + (uint64_t)t->tv_nsec;
}

/* -c on one datagram. Without -s every datagram starts the pattern anew, but
 * the first bad byte is still reported by its offset in the stream. */
static void
udp_verify(const struct xfer_params *p, const struct pattern *pt,
           const uint8_t *buf, size_t n, struct gput_result *r)
{
	uint64_t at = r->dgrams * (uint64_t)p->data_len, first = UINT64_MAX;

	r->verify_bad += pattern_check(pt, p->stream ? at : 0, buf, n, &first);
	if (first != UINT64_MAX && r->verify_first == UINT64_MAX)
		r->verify_first = p->stream ? first : at + first;
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

/* Receive until every datagram, a marker or the idle timeout. Returns 0 or -1. */
static int
udp_rx_loop(int fd, const struct xfer_params *p, struct udp_rx *rx,
            struct gput_result *r, const struct pattern *pt, uint64_t *first_ts,
            char *err, size_t errlen)
{
	uint64_t want = xfer_data_calls(p), last_ts = 0, idle;
	uint32_t dlen = p->data_len, last = xfer_last_len(p);
	struct meter m = { 0 };
	int64_t off0 = 0;                   /* CLOCK_REALTIME - MONOTONIC at the start */
	int stepped;
	uint64_t start_ts = 0;              /* the first datagram's stamp, any kind */

	while (!xfer_stop) {                /* a stop request ends the loop */
		ssize_t n = udp_rx_one(fd, rx);
		uint8_t idx;

		if (n < 0) {                    /* the one place recv errors land */
			if (errno == EINTR && !xfer_stop)
				continue;
			if ((errno == EAGAIN || errno == EWOULDBLOCK) && r->dgrams > 0) {
				r->flags |= RES_IDLE;   /* every marker lost: idle end */
				break;
			}
			snprintf(err, errlen, "%s", xfer_stop ? "interrupted" :
			    errno == EAGAIN ? "no datagram arrived within the start timeout"
			    : strerror(errno));
			return -1;
		}
		if (start_ts == 0)              /* no clock read: the kernel's stamp */
			start_ts = ts_ns(&rx->ts);
		if ((uint32_t)n == dlen || ((uint32_t)n == last && n > 0)) {
			if (r->dgrams == 0) {   /* first datagram opens the window */
				*first_ts = ts_ns(&rx->ts);
				meter_start(&m);
				off0 = meter_real_offset();
				if (net_set_timeouts(fd, xfer_udp_idle_ms(p), 0, err,
				    errlen) == -1)
					return -1;
			}
			if (p->verify)
				udp_verify(p, pt, rx->iov.iov_base, (size_t)n, r);
			r->calls++;
			r->dgrams++;
			r->bytes += (uint64_t)n;
			LIVE_SET(bytes, r->bytes);
			LIVE_SET(calls, r->calls);
			LIVE_SET(dgrams, r->dgrams);
			last_ts = ts_ns(&rx->ts);
			if (r->dgrams == want)  /* everything arrived: the exact end */
				break;
		} else if (xfer_marker_decode(p, rx->iov.iov_base, (size_t)n, &idx,
		    &r->dgrams_sent)) {
			r->flags |= RES_MARKER; /* the sender is done */
			break;
		} else if (other_too_late(r->dgrams ? last_ts : start_ts, ts_ns(&rx->ts),
		    r->dgrams ? xfer_udp_idle_ms(p) : UDP_START_MS)) {
			/* anything else is ignored, but does not keep the receiver
			 * waiting: the timeouts run from the last data datagram */
			if (r->dgrams > 0) {
				r->flags |= RES_IDLE;
				break;
			}
			snprintf(err, errlen, "no data datagram arrived within the start "
			         "timeout (only other datagrams)");
			return -1;
		}
	}
	if (r->dgrams > 0) {
		meter_stop(&m, r);              /* real_ns: first read to the end */
		idle = r->flags & RES_IDLE ? (uint64_t)xfer_udp_idle_ms(p) * 1000000u : 0;
		/* first to last data datagram, on the kernel's arrival clock; if
		 * that was stepped, from the first read to the last one's (the
		 * marker's, or the end less the idle wait) on the monotonic clock */
		r->real_ns = meter_stamp_span(*first_ts, last_ts, off0, meter_real_offset(),
		    r->real_ns > idle ? r->real_ns - idle : 0, &stepped);
		if (stepped)
			r->flags |= RES_STEPPED;
	}
	if (xfer_stop && !(r->flags & RES_MARKER) && r->dgrams != want) {
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

int
xfer_udp_recv(int fd, const struct xfer_params *p, struct gput_result *r,
              char *err, size_t errlen)
{
	struct pattern pt = { 0 };
	struct udp_rx rx;
	size_t cap = p->len > p->data_len ? p->len : p->data_len;
	uint64_t first_ts = 0;
	int rc;

	if (cap < MARKER_MAX_LEN)
		cap = MARKER_MAX_LEN;
	memset(&rx, 0, sizeof rx);
	rx.iov.iov_base = malloc(cap);
	rx.iov.iov_len = cap;
	rx.msg.msg_iov = &rx.iov;
	rx.msg.msg_iovlen = 1;
	rx.msg.msg_control = rx.cm;
	if (rx.iov.iov_base == NULL) {
		snprintf(err, errlen, "cannot allocate %zu bytes", cap);
		return -1;
	}
	rc = xfer_udp_prepare(fd, err, errlen);
	if (rc == 0)
		rc = net_set_timeouts(fd, UDP_START_MS, 0, err, errlen);
	if (rc == 0 && p->verify)
		rc = pattern_init(&pt, p, cap, err, errlen);
	r->verify_first = UINT64_MAX;
	if (rc == 0)
		rc = udp_rx_loop(fd, p, &rx, r, &pt, &first_ts, err, errlen);
	if (rc == 0 && udp_socket_drops(fd, &r->sock_drops) == 0)
		r->flags |= RES_DROPS;
	if (p->verify) {
		r->flags |= RES_VERIFIED;
		if (r->verify_bad == 0)
			r->verify_first = 0;
	} else {
		r->verify_first = 0;
	}
	pattern_free(&pt);
	free(rx.iov.iov_base);
	return rc;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/* ctl.c: the control connection's I/O: whole messages sent, and received
 * before a deadline through net.c's one read with a deadline, over the
 * codec of wire_ctl.c. */
#include "ctl.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "net.h"

/* Set errno to e (err is filled), return -1. */
static int
fail_errno(int e)
{
	errno = e;
	return -1;
}

int
ctl_send(int fd, const struct ctl_msg *m, char *err, size_t errlen)
{
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD];
	size_t len = ctl_encode(m, buf), done = 0;

	while (done < len) {
		ssize_t n = send(fd, buf + done, len - done, MSG_NOSIGNAL);
		int e = errno;

		if (n == -1 && e == EINTR)      /* a short message: finish it, */
			continue;               /* also while stopping (STOP) */
		if (n <= 0) {
			snprintf(err, errlen, "sending control message: %s",
			         n == 0 ? "connection closed" : strerror(e));
			return fail_errno(n == 0 ? NET_ECLOSED : e);
		}
		done += (size_t)n;
	}
	return 0;
}

/* Read exactly n bytes before the deadline; the failures name what was
 * awaited ("timed out waiting for a READY message"); with awaited, a
 * timeout or a close names that instead, without the socket's error.
 * Returns 0, or -1 with err filled and errno set (net_read_full's). */
static int
read_full(int fd, uint8_t *buf, size_t n, mono_ns deadline,
          const struct stopreq *stop, const char *what, const char *awaited,
          char *err, size_t errlen)
{
	char why[128];
	int e;

	if (net_read_full(fd, buf, n, -1, deadline, stop, why, sizeof why) == 0)
		return 0;
	e = errno;
	if (e == EINTR || (e == ETIMEDOUT && awaited == NULL))
		snprintf(err, errlen, "%s waiting for %s", why, what);
	else if (e == ETIMEDOUT)
		snprintf(err, errlen, "timed out waiting for %s", awaited);
	else if (awaited != NULL)
		snprintf(err, errlen, "connection closed while waiting for %s",
		         awaited);
	else
		snprintf(err, errlen, "connection closed while waiting for %s%s%s",
		         what, e == NET_ECLOSED ? "" : ": ", e == NET_ECLOSED ? "" :
		         why);
	return fail_errno(e);
}

/* ctl_recv with the waits named after what is awaited: "a control message",
 * or with want != 0 "a READY message"; awaited (or NULL) as read_full's,
 * for the header. */
static int
recv_msg(int fd, struct ctl_msg *m, uint8_t want, mono_ns deadline,
         const struct stopreq *stop, const char *awaited, char *err,
         size_t errlen)
{
	uint8_t hdr[CTL_HDR_LEN], payload[CTL_MAX_PAYLOAD];
	char what[64];
	uint16_t plen;
	uint8_t type;

	if (want == 0)
		snprintf(what, sizeof what, "a control message");
	else
		snprintf(what, sizeof what, "a%s %s message", want == CTL_ERROR ?
		         "n" : "", ctl_type_name(want));
	if (read_full(fd, hdr, sizeof hdr, deadline, stop, what, awaited, err,
	    errlen) == -1)
		return -1;
	if (ctl_decode_header(hdr, &type, &plen, err, errlen) == -1)
		return fail_errno(EPROTO);
	if (want == 0)
		snprintf(what, sizeof what, "the rest of a control message");
	else
		snprintf(what, sizeof what, "the rest of the %s message",
		         ctl_type_name(type));
	if (read_full(fd, payload, plen, deadline, stop, what, NULL, err,
	    errlen) == -1)
		return -1;
	memset(m, 0, sizeof *m);
	if (ctl_decode_payload(type, payload, plen, m, err, errlen) == -1)
		return fail_errno(EPROTO);
	return 0;
}

static mono_ns
deadline_in(int timeout_ms)
{
	return mono_now() + (mono_ns)timeout_ms * 1000000u;
}

int
ctl_recv(int fd, struct ctl_msg *m, int timeout_ms, const struct stopreq *stop,
         char *err, size_t errlen)
{
	return recv_msg(fd, m, 0, deadline_in(timeout_ms), stop, NULL, err,
	    errlen);
}

int
ctl_recv_awaiting(int fd, struct ctl_msg *m, mono_ns deadline,
                  const char *awaited, const struct stopreq *stop, char *err,
                  size_t errlen)
{
	m->type = 0;
	if (recv_msg(fd, m, 0, deadline, stop, awaited, err, errlen) == -1) {
		m->type = 0;                    /* nothing whole and valid arrived */
		return -1;
	}
	return 0;
}

int
ctl_recv_any_until(int fd, struct ctl_msg *m, mono_ns deadline,
                   const struct stopreq *stop, char *err, size_t errlen)
{
	m->type = 0;
	if (recv_msg(fd, m, 0, deadline, stop, NULL, err, errlen) == -1) {
		m->type = 0;                    /* nothing whole and valid arrived */
		return -1;
	}
	return 0;
}

int
ctl_recv_until(int fd, uint8_t want, struct ctl_msg *m, mono_ns deadline,
               const struct stopreq *stop, char *err, size_t errlen)
{
	m->type = 0;
	if (recv_msg(fd, m, want, deadline, stop, NULL, err, errlen) == -1) {
		m->type = 0;                    /* nothing whole arrived */
		return -1;
	}
	if (m->type == want)
		return 0;
	if (m->type == CTL_ERROR)
		snprintf(err, errlen, "ERROR instead of %s: %s", ctl_type_name(want),
		         m->text);
	else
		snprintf(err, errlen, "unexpected %s message (expected %s)",
		         ctl_type_name(m->type), ctl_type_name(want));
	return fail_errno(EPROTO);
}

int
ctl_recv_type(int fd, uint8_t want, struct ctl_msg *m, int timeout_ms,
              const struct stopreq *stop, char *err, size_t errlen)
{
	return ctl_recv_until(fd, want, m, deadline_in(timeout_ms), stop, err,
	    errlen);
}

enum ctl_peer
ctl_peer_state(int fd, char *err, size_t errlen)
{
	char c;
	ssize_t n;
	int e;

	do
		n = recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
	while (n == -1 && errno == EINTR);
	e = errno;
	if (n == -1 && (e == EAGAIN || e == EWOULDBLOCK))
		return CTL_PEER_QUIET;
	if (n == 0) {
		snprintf(err, errlen, "connection closed");
		errno = NET_ECLOSED;
		return CTL_PEER_CLOSED;
	}
	if (n == -1) {
		snprintf(err, errlen, "%s", strerror(e));
		errno = e;
		return CTL_PEER_FAILED;
	}
	snprintf(err, errlen, "unexpected data on the control connection");
	errno = EPROTO;
	return CTL_PEER_SPOKE;
}

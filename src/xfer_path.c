/* SPDX-License-Identifier: BSD-2-Clause */
/* xfer_path.c: a UDP data socket's return path validated before the partner
 * sends on it: the partner's cookie and the client's echo (xfer_path.h). */
#include "xfer_path.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "auth.h"
#include "net.h"
#include "xfer_markers.h"

/* Datagrams read per look at a socket: a flood does not hold the caller
 * past its deadline. */
#define PATH_READS 64

/* The lengths of p's stream's cookie and echo: apart from its data's. */
static uint32_t
xfer_cookie_len(const struct xfer_params *p)
{
	return wire_len_apart(COOKIE_BASE_LEN, p->data_len, xfer_last_len(p));
}

static uint32_t
xfer_cecho_len(const struct xfer_params *p)
{
	return wire_len_apart(CECHO_BASE_LEN, p->data_len, xfer_last_len(p));
}

/* The port fd is connected to (0 if it cannot say). */
static unsigned
peer_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof ss;

	return getpeername(fd, (struct sockaddr *)&ss, &sl) == 0 ? net_port(&ss) : 0;
}

static int
refused(int fd, uint16_t stream, char *err, size_t errlen)
{
	snprintf(err, errlen, "return path of stream %u: port %u is closed "
	         "(ICMP port unreachable): the proof did not come from the "
	         "client's data socket; nothing sent but the cookie", stream,
	         peer_port(fd));
	return -1;
}

/* What is queued on fd (PATH_READS datagrams at most): 1 when the echo of
 * c is among it, -1 when the port is closed (ECONNREFUSED), else 0; each
 * proof of the stream (nonce) gives *credit one cookie more (at most 1). */
static int
echo_arrived(int fd, const struct xfer_params *p,
             const uint8_t nonce[PROOF_NONCE_LEN], const struct wire_cookie *c,
             int *credit)
{
	int k;

	for (k = 0; k < PATH_READS; k++) {
		uint8_t in[CECHO_MAX_LEN + 1], diff = 0;
		struct wire_cookie e;
		ssize_t n = recv(fd, in, sizeof in, MSG_DONTWAIT | MSG_TRUNC);
		size_t i, got = (size_t)n < sizeof in ? (size_t)n : sizeof in;

		if (n < 0)
			return errno == ECONNREFUSED ? -1 : 0;
		if (xfer_proof_check(p, nonce, c->stream, in, got))
			*credit = 1;            /* the client still waits: again */
		if (wire_gpuk_decode(in, got, (size_t)n, &e) != WIRE_OK ||
		    e.stream != c->stream)
			continue;
		for (i = 0; i < WIRE_COOKIE_LEN; i++)   /* no early exit */
			diff |= (uint8_t)(e.cookie[i] ^ c->cookie[i]);
		if (diff == 0)
			return 1;
	}
	return 0;
}

int
xfer_path_validate(int fd, const struct xfer_params *p,
                   const uint8_t nonce[PROOF_NONCE_LEN], uint16_t stream,
                   int watch, mono_ns deadline, const struct stopreq *stop,
                   uint64_t *sent, char *err, size_t errlen)
{
	struct wire_cookie c = { .stream = stream };
	uint8_t out[COOKIE_MAX_LEN];
	size_t len = xfer_cookie_len(p);
	mono_ns next = 0;
	int credit = 1;                         /* the proof that connected fd */

	*sent = 0;
	if (auth_random(c.cookie, sizeof c.cookie, err, errlen) == -1)
		return -1;
	wire_gpuc_encode(out, len, &c);
	for (;;) {
		mono_ns now = mono_now(), until;
		int w, got;

		if (now >= next && credit > 0) {        /* the first, or again */
			if (send(fd, out, len, MSG_NOSIGNAL) == (ssize_t)len)
				(*sent)++;
			else if (errno == ECONNREFUSED)
				return refused(fd, stream, err, errlen);
			else if (errno != ENOBUFS && errno != EAGAIN && errno != EINTR) {
				snprintf(err, errlen, "return path of stream %u: sending "
				         "the cookie: %s", stream, strerror(errno));
				return -1;
			}
			credit = 0;
			next = now + (mono_ns)PATH_RESEND_MS * 1000000u;
		}
		if (now >= deadline) {
			snprintf(err, errlen, "return path of stream %u: no echo of "
			         "the cookie from port %u (%llu sent): the proof came "
			         "from another socket (a spoofed source port?) or the "
			         "client does not echo", stream, peer_port(fd),
			         (unsigned long long)*sent);
			return -1;
		}
		until = next > now && next < deadline ? next : deadline;
		w = net_wait_readable(fd, watch, (int)((until - now + 999999) / 1000000),
		    stop);
		if (w == 2)
			return -2;
		if (w == 0 && stop_requested(stop)) {
			snprintf(err, errlen, "interrupted waiting for the echo of the "
			         "cookie of stream %u", stream);
			return -1;
		}
		if (w == 1 && (got = echo_arrived(fd, p, nonce, &c, &credit)) != 0)
			return got == 1 ? 0 : refused(fd, stream, err, errlen);
	}
}

int
xfer_path_echo(int fd, const struct xfer_params *p, uint16_t stream,
               uint64_t *echoed, char *err, size_t errlen)
{
	int k;

	for (k = 0; k < PATH_READS; k++) {
		uint8_t in[COOKIE_MAX_LEN + 1], out[CECHO_MAX_LEN];
		struct wire_cookie c;
		size_t len = xfer_cecho_len(p);
		ssize_t n = recv(fd, in, sizeof in, MSG_DONTWAIT | MSG_PEEK | MSG_TRUNC);

		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ||
			    errno == ECONNREFUSED)  /* a proof the port refused */
				return 0;
			snprintf(err, errlen, "reading the partner's cookie of stream "
			         "%u: %s", stream, strerror(errno));
			return -1;
		}
		if (wire_gpuc_decode(in, (size_t)n < sizeof in ? (size_t)n : sizeof in,
		    (size_t)n, &c) != WIRE_OK)
			return 1;               /* the data: the receiver's */
		(void)recv(fd, in, sizeof in, MSG_DONTWAIT);    /* take the cookie */
		if (c.stream != stream)
			continue;
		wire_gpuk_encode(out, len, &c);
		if (send(fd, out, len, MSG_NOSIGNAL) == (ssize_t)len)
			(*echoed)++;
		else if (errno != ECONNREFUSED && errno != ENOBUFS && errno != EAGAIN &&
		    errno != EINTR) {
			snprintf(err, errlen, "echoing the partner's cookie of stream "
			         "%u: %s", stream, strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/* net.c: socket plumbing with deadlines; every failure fills err. */
#include "net.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "meter.h"
#include "stop.h"

int
net_poll_ms(uint64_t ns)
{
	uint64_t ms = (ns + 999999) / 1000000;

	return ms > NET_POLL_MAX_MS ? NET_POLL_MAX_MS : (int)ms;
}

uint16_t
net_port(const struct sockaddr_storage *sa)
{
	if (sa->ss_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)sa)->sin6_port);
	return ntohs(((const struct sockaddr_in *)sa)->sin_port);
}

void
net_set_port(struct sockaddr_storage *sa, uint16_t port)
{
	if (sa->ss_family == AF_INET6)
		((struct sockaddr_in6 *)sa)->sin6_port = htons(port);
	else
		((struct sockaddr_in *)sa)->sin_port = htons(port);
}

uint16_t
net_local_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof ss;

	if (getsockname(fd, (struct sockaddr *)&ss, &len) == -1)
		return 0;
	return net_port(&ss);
}

static socklen_t
sa_len(const struct sockaddr_storage *sa)
{
	return sa->ss_family == AF_INET6 ? sizeof(struct sockaddr_in6)
	    : sizeof(struct sockaddr_in);
}

const char *
net_ntop(const struct sockaddr_storage *sa, char *buf, size_t len)
{
	const struct in6_addr *a6 = &((const struct sockaddr_in6 *)sa)->sin6_addr;
	const void *a = &((const struct sockaddr_in *)sa)->sin_addr;
	int af = AF_INET;

	if (sa->ss_family == AF_INET6 && IN6_IS_ADDR_V4MAPPED(a6))
		a = &a6->s6_addr[12];           /* ::ffff:a.b.c.d prints as a.b.c.d */
	else if (sa->ss_family == AF_INET6) {
		a = a6;
		af = AF_INET6;
	}
	if (inet_ntop(af, a, buf, (socklen_t)len) == NULL)
		snprintf(buf, len, "?");
	return buf;
}

int
net_same_addr(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return 0;
	if (a->ss_family == AF_INET6)
		return memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
		    &((const struct sockaddr_in6 *)b)->sin6_addr, 16) == 0;
	return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
	    ((const struct sockaddr_in *)b)->sin_addr.s_addr;
}

/* The first bits bits of a and b (n bytes) are equal. */
static int
prefix_equal(const uint8_t *a, const uint8_t *b, size_t n, unsigned bits)
{
	size_t whole = bits / 8u;
	unsigned rest = bits % 8u;

	if (whole > n)
		whole = n, rest = 0;
	if (memcmp(a, b, whole) != 0)
		return 0;
	if (rest == 0 || whole == n)
		return 1;
	return ((a[whole] ^ b[whole]) & (uint8_t)(0xffu << (8u - rest))) == 0;
}

int
net_same_prefix(const struct sockaddr_storage *a, const struct sockaddr_storage *b,
                unsigned p4, unsigned p6)
{
	if (a->ss_family != b->ss_family)
		return 0;
	if (a->ss_family == AF_INET6) {
		const uint8_t *x = ((const struct sockaddr_in6 *)a)->sin6_addr.s6_addr;
		const uint8_t *y = ((const struct sockaddr_in6 *)b)->sin6_addr.s6_addr;
		int mx = IN6_IS_ADDR_V4MAPPED((const struct in6_addr *)x);
		int my = IN6_IS_ADDR_V4MAPPED((const struct in6_addr *)y);

		if (mx != my)
			return 0;
		/* an IPv4 client of a dual-stack socket: an IPv4 source */
		return mx ? prefix_equal(x + 12, y + 12, 4, p4) :
		    prefix_equal(x, y, 16, p6);
	}
	return prefix_equal((const uint8_t *)&((const struct sockaddr_in *)a)->sin_addr,
	    (const uint8_t *)&((const struct sockaddr_in *)b)->sin_addr, 4, p4);
}

/* Wait until fd is ready for events or the deadline passes; with watch >= 0
 * stop as soon as watch is readable or hung up too. The caller's stop
 * request (the client's ^C, the partner's watcher; NULL: none) ends the
 * wait, also one that came just before it began: its pipe is polled with
 * fd. Returns WAIT_READY, WAIT_TIMEOUT, WAIT_WATCH or WAIT_STOPPED. */
enum { WAIT_TIMEOUT, WAIT_READY, WAIT_WATCH, WAIT_STOPPED };

static int
wait_fd(int fd, short events, int watch, const struct stopreq *stop,
        mono_ns deadline)
{
	for (;;) {
		mono_ns now = mono_now();
		struct pollfd pfd[3] = { { fd, events, 0 },
		    { stop != NULL ? stop_fd(stop) : -1, POLLIN, 0 },
		    { watch, POLLIN, 0 } };
		int r;

		if (stop != NULL && stop_requested(stop))
			return WAIT_STOPPED;
		if (now >= deadline)
			return WAIT_TIMEOUT;
		r = poll(pfd, watch >= 0 ? 3 : 2,   /* fd -1 is skipped by poll */
		    net_poll_ms(deadline - now));
		if (r > 0 && pfd[0].revents != 0)
			return WAIT_READY;      /* first: what is there is taken */
		if (r > 0 && pfd[1].revents != 0)
			return WAIT_STOPPED;
		if (r > 0)
			return WAIT_WATCH;      /* POLLIN, POLLHUP or POLLERR */
		if (r == -1 && errno != EINTR)
			return WAIT_READY;      /* let the caller's call report it */
	}
}

/* Fill err with what, set errno to e, return -1. */
static int
fail_with(int e, char *err, size_t errlen, const char *what)
{
	snprintf(err, errlen, "%s", what);
	errno = e;
	return -1;
}

int
net_write_full(int fd, const void *buf, size_t n)
{
	const uint8_t *p = buf;
	size_t done = 0;

	while (done < n) {
		ssize_t w = write(fd, p + done, n - done);

		if (w == -1 && errno == EINTR)
			continue;
		if (w == -1)
			return -1;
		if (w == 0) {
			errno = EIO;
			return -1;
		}
		done += (size_t)w;
	}
	return 0;
}

int
net_read_full(int fd, uint8_t *buf, size_t n, int watch, uint64_t deadline,
              const struct stopreq *stop, char *err, size_t errlen)
{
	size_t done = 0;

	while (done < n) {
		ssize_t got;
		int w = wait_fd(fd, POLLIN, watch, stop, deadline);

		if (w == WAIT_WATCH)
			return -2;
		if (w == WAIT_STOPPED)
			return fail_with(EINTR, err, errlen, "interrupted");
		if (w != WAIT_READY)
			return fail_with(ETIMEDOUT, err, errlen, "timed out");
		got = recv(fd, buf + done, n - done, MSG_DONTWAIT);
		if (got == -1 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (got == 0)
			return fail_with(NET_ECLOSED, err, errlen, "connection closed");
		if (got < 0)
			return fail_with(errno, err, errlen, strerror(errno));
		done += (size_t)got;
	}
	return 0;
}

int
net_wait_readable(int fd, int watch, int timeout_ms, const struct stopreq *stop)
{
	mono_ns deadline = mono_now() + (mono_ns)timeout_ms * 1000000u;

	switch (wait_fd(fd, POLLIN, watch, stop, deadline)) {
	case WAIT_READY:
		return 1;
	case WAIT_WATCH:
		return 2;
	default:
		return 0;
	}
}

int
net_connect_sa(const struct sockaddr_storage *sa, int type, uint32_t window,
               int timeout_ms, const struct stopreq *stop, char *err,
               size_t errlen)
{
	mono_ns deadline = mono_now() + (mono_ns)timeout_ms * 1000000u;
	int fd, soerr = 0, w, fl, e;
	socklen_t sl = sizeof soerr;

	fd = socket(sa->ss_family, type | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd == -1) {
		e = errno;
		snprintf(err, errlen, "socket: %s", strerror(e));
		errno = e;
		return -1;
	}
	if (window != 0 && net_set_window(fd, window, 1, err, errlen) == -1) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	if (connect(fd, (const struct sockaddr *)sa, sa_len(sa)) == -1) {
		if (errno != EINPROGRESS) {
			soerr = errno;
		} else if ((w = wait_fd(fd, POLLOUT, -1, stop, deadline)) !=
		    WAIT_READY) {
			soerr = w == WAIT_STOPPED ? EINTR : ETIMEDOUT;
		} else if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) == -1) {
			soerr = errno;
		}
	}
	if (soerr != 0) {
		close(fd);
		return fail_with(soerr, err, errlen, strerror(soerr));
	}
	if ((fl = fcntl(fd, F_GETFL)) == -1 ||
	    fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) == -1) {
		e = errno;
		snprintf(err, errlen, "fcntl O_NONBLOCK off: %s", strerror(e));
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

int
net_connect(const char *host, uint16_t port, int family, int timeout_ms,
            const struct stopreq *stop, char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_family = family, .ai_socktype = SOCK_STREAM },
	    *res, *ai;
	char pstr[8], why[128] = "no address";
	int rc, fd = -1, e = EADDRNOTAVAIL;

	snprintf(pstr, sizeof pstr, "%u", port);
	rc = getaddrinfo(host, pstr, &hints, &res);
	if (rc == EAI_ADDRFAMILY && family != 0) {    /* -4 or -6 ruled it out */
		snprintf(err, errlen, "host %s has no IPv%d address (port %u)", host,
		         family == AF_INET6 ? 6 : 4, port);
		errno = EADDRNOTAVAIL;
		return -1;
	}
	if (rc != 0) {
		snprintf(err, errlen, "unknown host %s (port %u): %s", host, port,
		         gai_strerror(rc));
		errno = EADDRNOTAVAIL;
		return -1;
	}
	for (ai = res; ai != NULL && fd == -1; ai = ai->ai_next) {
		struct sockaddr_storage ss;

		memset(&ss, 0, sizeof ss);
		memcpy(&ss, ai->ai_addr, ai->ai_addrlen);
		fd = net_connect_sa(&ss, SOCK_STREAM, 0, timeout_ms, stop, why,
		    sizeof why);
		if (fd == -1)
			e = errno;
	}
	freeaddrinfo(res);
	if (fd == -1) {
		snprintf(err, errlen, "cannot connect to %s port %u: %s", host, port,
		         why);
		errno = e;
	}
	return fd;
}

int
net_listen_any(uint16_t port, char *err, size_t errlen)
{
	struct sockaddr_in6 s6 = { .sin6_family = AF_INET6, .sin6_port = htons(port),
	    .sin6_addr = IN6ADDR_ANY_INIT };
	struct sockaddr_in s4 = { .sin_family = AF_INET, .sin_port = htons(port),
	    .sin_addr.s_addr = htonl(INADDR_ANY) };
	int one = 1, zero = 0, fd;
	const char *what = "";

	fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd != -1) {
		/* if IPV6_V6ONLY stays set it takes IPv6 only: IPv4 then */
		if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) == 0 &&
		    setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero) == 0 &&
		    bind(fd, (struct sockaddr *)&s6, sizeof s6) == 0 &&
		    listen(fd, SOMAXCONN) == 0)
			return fd;
		if (errno == EADDRINUSE)
			goto fail;
		close(fd);
	}
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd == -1)
		goto fail;
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) == -1)
		what = "setsockopt SO_REUSEADDR: ";
	else if (bind(fd, (struct sockaddr *)&s4, sizeof s4) == 0 && listen(fd, SOMAXCONN) == 0)
		return fd;
fail:
	snprintf(err, errlen, "cannot listen on port %u: %s%s", port, what,
	         strerror(errno));
	if (fd != -1)
		close(fd);
	return -1;
}

int
net_bind_like(const struct sockaddr_storage *local, int type, char *err,
              size_t errlen)
{
	struct sockaddr_storage ss = *local;
	int fd;

	net_set_port(&ss, 0);
	fd = socket(ss.ss_family, type | SOCK_CLOEXEC, 0);
	if (fd == -1) {
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return -1;
	}
	/* the backlog holds every stream of a test (-P 128) connecting at
	 * once, and some strangers' connections besides */
	if (bind(fd, (struct sockaddr *)&ss, sa_len(&ss)) == -1 ||
	    (type == SOCK_STREAM && listen(fd, NET_DATA_BACKLOG) == -1)) {
		snprintf(err, errlen, "cannot bind a data socket: %s", strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

int
net_accept_from(int lfd, const struct sockaddr_storage *peer, int watch,
                int timeout_ms, const struct stopreq *stop, char *err,
                size_t errlen)
{
	mono_ns deadline = mono_now() + (mono_ns)timeout_ms * 1000000u;
	int w, e;

	/* non-blocking, so a connection that vanishes between poll and accept
	 * cannot leave us blocked in accept */
	if (fcntl(lfd, F_SETFL, fcntl(lfd, F_GETFL) | O_NONBLOCK) == -1) {
		snprintf(err, errlen, "fcntl O_NONBLOCK: %s", strerror(errno));
		return -1;
	}
	while ((w = wait_fd(lfd, POLLIN, watch, stop, deadline)) == WAIT_READY) {
		struct sockaddr_storage ss;
		socklen_t sl = sizeof ss;
		int fd = accept4(lfd, (struct sockaddr *)&ss, &sl, SOCK_CLOEXEC);

		if (fd == -1) {
			if (errno == EINTR || errno == ECONNABORTED || errno == EAGAIN)
				continue;
			e = errno;
			snprintf(err, errlen, "accept: %s", strerror(e));
			errno = e;
			return -1;
		}
		if (peer == NULL || net_same_addr(&ss, peer))
			return fd;
		close(fd);                      /* not our client: keep waiting */
	}
	if (w == WAIT_WATCH)
		return -2;
	snprintf(err, errlen, "%s waiting for the data connection",
	         w == WAIT_STOPPED ? "interrupted" : "timed out");
	errno = w == WAIT_STOPPED ? EINTR : ETIMEDOUT;
	return -1;
}

int
net_set_timeouts(int fd, int rcv_ms, int snd_ms, char *err, size_t errlen)
{
	struct timeval r = { rcv_ms / 1000, (rcv_ms % 1000) * 1000 };
	struct timeval s = { snd_ms / 1000, (snd_ms % 1000) * 1000 };

	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &r, sizeof r) == -1 ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &s, sizeof s) == -1) {
		snprintf(err, errlen, "setsockopt timeouts: %s", strerror(errno));
		return -1;
	}
	return 0;
}

int
net_set_window(int fd, uint32_t bytes, int force, char *err, size_t errlen)
{
	int v = (int)bytes;

	/* The FORCE variants pass net.core.[rw]mem_max when we may (root), and
	 * only for the local side's own -w: the kernel caps the plain ones at
	 * the host's limits, which a remote's request must never pass. */
	if (!(force && setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &v,
	    sizeof v) == 0) && setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v,
	    sizeof v) == -1)
		goto bad;
	if (!(force && setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &v,
	    sizeof v) == 0) && setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v,
	    sizeof v) == -1)
		goto bad;
	return 0;
bad:
	snprintf(err, errlen, "setsockopt SO_SNDBUF/SO_RCVBUF %u: %s", bytes,
	         strerror(errno));
	return -1;
}

void
net_get_window(int fd, uint32_t *snd, uint32_t *rcv)
{
	int v = 0;
	socklen_t l = sizeof v;

	*snd = getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, &l) == 0 && v > 0 ?
	    (uint32_t)v : 0;
	l = sizeof v;
	*rcv = getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, &l) == 0 && v > 0 ?
	    (uint32_t)v : 0;
}

int
net_set_control(int fd, unsigned peer_s, char *err, size_t errlen)
{
	int one = 1, idle = NET_KEEPIDLE_S, intvl = NET_KEEPINTVL_S,
	    cnt = NET_KEEPCNT, uto;

	if (peer_s < NET_PEER_TIMEOUT_S || peer_s > NET_PEER_TIMEOUT_MAX_S) {
		snprintf(err, errlen, "dead-peer deadline %u s out of range", peer_s);
		errno = EINVAL;
		return -1;
	}
	uto = (int)peer_s * 1000 - NET_USER_TIMEOUT_SLACK_MS;

	if (setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one) == -1 ||
	    setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle) == -1 ||
	    setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof intvl) == -1 ||
	    setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof cnt) == -1 ||
	    setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &uto, sizeof uto) == -1 ||
	    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) == -1) {
		snprintf(err, errlen, "setsockopt keepalive: %s", strerror(errno));
		return -1;
	}
	return 0;
}

int
net_set_nodelay(int fd, char *err, size_t errlen)
{
	int one = 1;

	if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) == -1) {
		snprintf(err, errlen, "setsockopt TCP_NODELAY: %s", strerror(errno));
		return -1;
	}
	return 0;
}

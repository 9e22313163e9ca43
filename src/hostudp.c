/* SPDX-License-Identifier: BSD-2-Clause */
/* hostudp.c: the host's UDP drop counters from /proc (hostudp.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "hostudp.h"

#define HOSTUDP_FILE_MAX 16384

/* The value of the count that follows s (spaces, then digits), or -1. */
static int
hostudp_num(const char *s, const char *end, uint64_t *v)
{
	uint64_t n = 0;
	int digits = 0;

	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	for (; s < end && *s >= '0' && *s <= '9'; s++, digits++) {
		uint64_t d = (uint64_t)(*s - '0');

		if (n > (UINT64_MAX - d) / 10)
			return -1;
		n = n * 10 + d;
	}
	if (digits == 0 || (s < end && *s != ' ' && *s != '\t' && *s != '\n'))
		return -1;
	*v = n;
	return 0;
}

/* The end of the line that starts at s. */
static const char *
hostudp_eol(const char *s, const char *end)
{
	const char *nl = memchr(s, '\n', (size_t)(end - s));

	return nl != NULL ? nl : end;
}

/* snmp6: "Udp6InErrors <spaces> N" lines. */
static int
hostudp_parse6(const char *s, const char *end, struct hostudp *out)
{
	int got = 0;

	while (s < end) {
		const char *eol = hostudp_eol(s, end);
		size_t n = (size_t)(eol - s);

		if (n > 12 && memcmp(s, "Udp6InErrors", 12) == 0 &&
		    (s[12] == ' ' || s[12] == '\t'))
			got |= hostudp_num(s + 12, eol, &out->in_errors) == 0 ? 1 : 4;
		else if (n > 16 && memcmp(s, "Udp6RcvbufErrors", 16) == 0 &&
		    (s[16] == ' ' || s[16] == '\t'))
			got |= hostudp_num(s + 16, eol, &out->rcvbuf_errors) == 0 ?
			    2 : 4;
		s = eol + 1;
	}
	return got == 3 ? 0 : -1;
}

/* snmp: a "Udp:" line of names, the next "Udp:" line of values. */
static int
hostudp_parse4(const char *s, const char *end, struct hostudp *out)
{
	const char *names = NULL, *nend = NULL;
	int got = 0;

	for (; s < end && names == NULL; s = hostudp_eol(s, end) + 1)
		if ((size_t)(end - s) > 4 && memcmp(s, "Udp: ", 5) == 0) {
			names = s + 4;
			nend = hostudp_eol(s, end);
		}
	if (names == NULL || (size_t)(end - s) < 5 || memcmp(s, "Udp: ", 5) != 0)
		return -1;
	s += 4;
	{
		const char *vend = hostudp_eol(s, end);

		while (names < nend && s < vend) {
			const char *nw, *vw;
			uint64_t v;

			while (names < nend && *names == ' ')
				names++;
			while (s < vend && *s == ' ')
				s++;
			nw = names, vw = s;
			while (names < nend && *names != ' ')
				names++;
			while (s < vend && *s != ' ')
				s++;
			if (names == nw || s == vw || hostudp_num(vw, s, &v) == -1)
				return -1;
			if (names - nw == 8 && memcmp(nw, "InErrors", 8) == 0)
				out->in_errors = v, got |= 1;
			else if (names - nw == 12 && memcmp(nw, "RcvbufErrors", 12) == 0)
				out->rcvbuf_errors = v, got |= 2;
		}
	}
	return got == 3 ? 0 : -1;
}

int
hostudp_parse(const char *text, size_t n, uint32_t flags, struct hostudp *out)
{
	int rc;

	out->rcvbuf_errors = out->in_errors = 0;
	out->flags = flags & HOSTUDP_V6;
	rc = flags & HOSTUDP_V6 ? hostudp_parse6(text, text + n, out) :
	    hostudp_parse4(text, text + n, out);
	if (rc == -1)
		out->rcvbuf_errors = out->in_errors = 0;
	return rc;
}

int
hostudp_read(uint32_t flags, struct hostudp *out)
{
	static const char *const path[] = { "/proc/net/snmp", "/proc/net/snmp6" };
	char *buf = malloc(HOSTUDP_FILE_MAX);
	size_t n = 0;
	ssize_t k = 1;
	int fd, rc = -1;

	memset(out, 0, sizeof *out);
	out->flags = flags & HOSTUDP_V6;
	if (buf == NULL)
		return -1;
	fd = open(path[flags & HOSTUDP_V6 ? 1 : 0],
	    O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK);
	if (fd != -1) {
		while (n < HOSTUDP_FILE_MAX &&
		    ((k = read(fd, buf + n, HOSTUDP_FILE_MAX - n)) > 0 ||
		    (k == -1 && errno == EINTR)))
			n += k > 0 ? (size_t)k : 0;
		if (k == 0 && n < HOSTUDP_FILE_MAX)     /* the whole file */
			rc = hostudp_parse(buf, n, flags, out);
		close(fd);
	}
	free(buf);
	return rc;
}

int
hostudp_delta(const struct hostudp *before, const struct hostudp *after,
              struct hostudp *d)
{
	memset(d, 0, sizeof *d);
	d->flags = after->flags;
	if (after->rcvbuf_errors < before->rcvbuf_errors ||
	    after->in_errors < before->in_errors ||
	    after->flags != before->flags)
		return -1;
	d->rcvbuf_errors = after->rcvbuf_errors - before->rcvbuf_errors;
	d->in_errors = after->in_errors - before->in_errors;
	return 0;
}

uint64_t
hostudp_bound(uint64_t window_ns)
{
	/* (s + 1) * rate, in whole ms to stay within 64 bits for a day */
	uint64_t ms = window_ns / 1000000u + 1000u;
	uint64_t b = ms > HOSTUDP_MAX / (HOSTUDP_MAX_PPS / 1000u) ? HOSTUDP_MAX :
	    ms * (HOSTUDP_MAX_PPS / 1000u);

	return b < HOSTUDP_MAX ? b : HOSTUDP_MAX;
}

uint32_t
hostudp_family(const struct sockaddr_storage *a)
{
	const struct sockaddr_in6 *a6 = (const struct sockaddr_in6 *)a;

	return a->ss_family == AF_INET6 && !IN6_IS_ADDR_V4MAPPED(&a6->sin6_addr) ?
	    HOSTUDP_V6 : 0;
}


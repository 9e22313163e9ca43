/* SPDX-License-Identifier: BSD-2-Clause */
/* tcpinfo.c: what the kernel knows about a TCP connection (TCP_INFO,
 * TCP_CONGESTION) and the congestion controls this host offers. */
#include "tcpinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/tcp.h>                 /* tcp_info with the 4.10+ fields */
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ecn.h"

#define CC_AVAILABLE "/proc/sys/net/ipv4/tcp_available_congestion_control"
#define CC_ALLOWED   "/proc/sys/net/ipv4/tcp_allowed_congestion_control"
#define CC_DEFAULT   "/proc/sys/net/ipv4/tcp_congestion_control"

/* The kernel builds these lists in a TCP_CA_BUF_MAX (2048) byte buffer. */
#define PROC_MAX 2048

/* Did the kernel's tcp_info, il bytes long, reach the end of field f?
 * (Older kernels return a shorter struct; the rest of ours stays 0.) */
#define TI_HAS(il, f) \
	((size_t)(il) >= offsetof(struct tcp_info, f) + \
	                 sizeof(((struct tcp_info *)0)->f))

static int
cc_char_ok(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
	    c == '-';
}

/* name, at most 32 bytes of it, with anything unprintable as '?': safe to
 * put in a message whatever the user typed. */
static void
cc_quote(const char *name, char *out, size_t len)
{
	size_t i, n = strlen(name);

	for (i = 0; i < n && i < 32 && i + 4 < len; i++)
		out[i] = name[i] >= 0x20 && name[i] < 0x7f ? name[i] : '?';
	out[i] = '\0';
	if (i < n && i + 4 <= len)
		memcpy(out + i, "...", 4);
}

/* Is name spelled like a congestion control? Returns 0, or -1 with a
 * usage-error reason in err. */
static int
cc_name_check(const char *name, char *err, size_t errlen)
{
	char q[40];
	size_t i, n = strlen(name);

	if (n == 0) {
		snprintf(err, errlen, "empty congestion control name");
		return -1;
	}
	cc_quote(name, q, sizeof q);
	if (n > TCPINFO_CC_MAX) {
		snprintf(err, errlen, "congestion control name '%s' is longer than "
		         "%d bytes", q, TCPINFO_CC_MAX);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (!cc_char_ok((unsigned char)name[i])) {
			snprintf(err, errlen, "congestion control name '%s' has "
			         "characters other than a-z, 0-9, '_' and '-'", q);
			return -1;
		}
	return 0;
}

/* At most PROC_MAX - 1 bytes of path into raw, NUL-terminated. Returns the
 * length, or -1 (errno set; EFBIG when the file is longer). */
static ssize_t
proc_slurp(const char *path, char *raw)
{
	size_t got = 0;
	ssize_t r;
	int fd, e;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	for (;;) {
		r = read(fd, raw + got, PROC_MAX - 1 - got);
		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0)                 /* end of file, or an error */
			break;
		got += (size_t)r;
		if (got == PROC_MAX - 1) {  /* full: only fine if nothing follows */
			char c;

			do
				r = read(fd, &c, 1);
			while (r == -1 && errno == EINTR);
			if (r == 1) {
				r = -1;
				errno = EFBIG;
			}
			break;
		}
	}
	e = errno;
	close(fd);
	if (r == -1) {
		errno = e;
		return -1;
	}
	raw[got] = '\0';
	return (ssize_t)got;
}

/* The names in path, a whitespace-separated list, into out separated by
 * single spaces. Returns 0, or -1 with errno set: the file cannot be read
 * or is too long (EFBIG), holds no names or one not spelled like a name
 * (EINVAL), or the list does not fit in len (ERANGE). */
static int
proc_names(const char *path, char *out, size_t len)
{
	char raw[PROC_MAX];
	size_t i, o = 0, tok = 0;

	if (proc_slurp(path, raw) == -1)
		return -1;
	for (i = 0;; i++) {
		unsigned char c = (unsigned char)raw[i];

		if (c == ' ' || c == '\t' || c == '\n' || c == '\0') {
			if (c == '\0')
				break;
			tok = 0;
			continue;
		}
		if (!cc_char_ok(c) || ++tok > TCPINFO_CC_MAX) {
			errno = EINVAL;
			return -1;
		}
		if (o + (tok == 1 && o > 0) + 2 > len) {
			errno = ERANGE;
			return -1;
		}
		if (tok == 1 && o > 0)
			out[o++] = ' ';
		out[o++] = (char)c;
	}
	if (o == 0) {
		errno = EINVAL;
		return -1;
	}
	out[o] = '\0';
	return 0;
}

/* Is name a word of the space-separated list? */
static int
cc_listed(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while (*p != '\0') {
		size_t w = strcspn(p, " ");

		if (w == n && memcmp(p, name, n) == 0)
			return 1;
		p += w;
		p += *p == ' ';
	}
	return 0;
}

int
tcpinfo_cc_available_from(const char *path, char *buf, size_t len)
{
	return proc_names(path, buf, len);
}

int
tcpinfo_cc_available(char *buf, size_t len)
{
	return proc_names(CC_AVAILABLE, buf, len);
}

int
tcpinfo_cc_default_from(const char *path, char *buf, size_t len)
{
	char names[PROC_MAX];
	size_t n;

	if (proc_names(path, names, sizeof names) == -1)
		return -1;
	n = strcspn(names, " ");
	if (n + 1 > len) {
		errno = ERANGE;
		return -1;
	}
	memcpy(buf, names, n);
	buf[n] = '\0';
	return 0;
}

int
tcpinfo_cc_default(char *buf, size_t len)
{
	return tcpinfo_cc_default_from(CC_DEFAULT, buf, len);
}

int
tcpinfo_cc_check_from(const char *path, const char *name, char *err,
                      size_t errlen)
{
	char names[PROC_MAX];

	if (cc_name_check(name, err, errlen) == -1)
		return -1;
	if (proc_names(path, names, sizeof names) == -1) {
		snprintf(err, errlen, "cannot check congestion control '%s': %s: %s",
		         name, path, strerror(errno));
		return -1;
	}
	if (!cc_listed(names, name)) {
		snprintf(err, errlen, "unknown congestion control '%s' (this host "
		         "offers: %s)", name, names);
		return -1;
	}
	return 0;
}

int
tcpinfo_cc_check(const char *name, char *err, size_t errlen)
{
	return tcpinfo_cc_check_from(CC_AVAILABLE, name, err, errlen);
}

int
tcpinfo_set_cc(int fd, const char *name, char *err, size_t errlen)
{
	char names[PROC_MAX];
	int e;

	/* the kernel would silently cut a long name to 15 bytes */
	if (cc_name_check(name, err, errlen) == -1) {
		errno = EINVAL;
		return -1;
	}
	if (setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name,
	    (socklen_t)strlen(name)) == 0)
		return 0;
	e = errno;
	if (e == EPERM && proc_names(CC_ALLOWED, names, sizeof names) == 0)
		snprintf(err, errlen, "setsockopt TCP_CONGESTION '%s': %s (an "
		         "unprivileged process may only pick from "
		         "net.ipv4.tcp_allowed_congestion_control: %s)", name,
		         strerror(e), names);
	else if (e == EPERM)
		snprintf(err, errlen, "setsockopt TCP_CONGESTION '%s': %s (an "
		         "unprivileged process may only pick from "
		         "net.ipv4.tcp_allowed_congestion_control)", name,
		         strerror(e));
	else if (e == ENOENT && proc_names(CC_AVAILABLE, names, sizeof names) == 0)
		snprintf(err, errlen, "setsockopt TCP_CONGESTION '%s': %s (this "
		         "host offers: %s)", name, strerror(e), names);
	else
		snprintf(err, errlen, "setsockopt TCP_CONGESTION '%s': %s", name,
		         strerror(e));
	errno = e;
	return -1;
}

int
tcpinfo_read(int fd, struct tcp_stats *st, char *err, size_t errlen)
{
	/* room for fields newer than these headers (ecn.c reads them) */
	union { struct tcp_info ti; uint8_t raw[ECN_TCP_INFO_MAX]; } u;
	struct tcp_info *tp = &u.ti;
	socklen_t il = sizeof u;
	char cc[sizeof st->cc];
	socklen_t cl = sizeof cc;

	memset(st, 0, sizeof *st);
	memset(&u, 0, sizeof u);
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &u, &il) == -1) {
		snprintf(err, errlen, "getsockopt TCP_INFO: %s", strerror(errno));
		return -1;
	}
	memset(cc, 0, sizeof cc);
	if (getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc, &cl) == -1) {
		snprintf(err, errlen, "getsockopt TCP_CONGESTION: %s", strerror(errno));
		return -1;
	}
	/* the kernel copies its fixed-size name, NUL-padded: terminate anyway */
	memcpy(st->cc, cc, sizeof st->cc - 1);
	st->cc[sizeof st->cc - 1] = '\0';
	if (TI_HAS(il, tcpi_snd_mss))
		st->mss = tp->tcpi_snd_mss;
	if (TI_HAS(il, tcpi_rtt))
		st->rtt_us = tp->tcpi_rtt;
	if (TI_HAS(il, tcpi_snd_cwnd))
		st->cwnd = tp->tcpi_snd_cwnd;
	if (TI_HAS(il, tcpi_total_retrans))
		st->retrans = tp->tcpi_total_retrans;
	if (TI_HAS(il, tcpi_min_rtt))                   /* 4.6 */
		st->min_rtt_us = tp->tcpi_min_rtt;
	if (TI_HAS(il, tcpi_delivery_rate))             /* 4.9 */
		st->delivery_rate = tp->tcpi_delivery_rate;
	if (TI_HAS(il, tcpi_busy_time))                 /* 4.10 */
		st->busy_us = tp->tcpi_busy_time;
	if (TI_HAS(il, tcpi_rwnd_limited))
		st->rwnd_limited_us = tp->tcpi_rwnd_limited;
	if (TI_HAS(il, tcpi_sndbuf_limited))
		st->sndbuf_limited_us = tp->tcpi_sndbuf_limited;
	ecn_tcp_from_info(u.raw, il, st);
	st->valid = 1;
	return 0;
}

int
tcpinfo_sample(int fd, uint64_t *retrans, uint32_t *cwnd, uint32_t *srtt_us)
{
	struct tcp_info ti;
	socklen_t il = sizeof ti;

	memset(&ti, 0, sizeof ti);
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &il) == -1)
		return -1;
	if (retrans != NULL)
		*retrans = TI_HAS(il, tcpi_total_retrans) ? ti.tcpi_total_retrans : 0;
	if (cwnd != NULL)
		*cwnd = TI_HAS(il, tcpi_snd_cwnd) ? ti.tcpi_snd_cwnd : 0;
	if (srtt_us != NULL)
		*srtt_us = TI_HAS(il, tcpi_rtt) ? ti.tcpi_rtt : 0;
	return 0;
}

int
tcpinfo_acked(int fd, uint64_t *acked)
{
	struct tcp_info ti;
	socklen_t il = sizeof ti;

	memset(&ti, 0, sizeof ti);
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &il) == -1 ||
	    !TI_HAS(il, tcpi_bytes_acked))
		return -1;
	*acked = ti.tcpi_bytes_acked;
	return 0;
}

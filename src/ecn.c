/* SPDX-License-Identifier: BSD-2-Clause */
/* ecn.c: ECN on the data sockets (--ecn): ECT(0) on what a UDP sender
 * sends, the codepoint of what a UDP receiver gets, and what TCP_INFO says
 * of a TCP connection's ECN. */
#include "ecn.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "units.h"

#define TCP_ECN_SYSCTL "/proc/sys/net/ipv4/tcp_ecn"

/*
 * struct tcp_info past Debian 12's headers (Linux 6.1, 232 bytes), as
 * Linux 6.18 lays it out (include/uapi/linux/tcp.h, Accurate ECN): after
 * tcpi_total_rto_time at 244, tcpi_received_ce u32 at 248 (CE-marked
 * segments received), six u32 byte counters (delivered ECT(1), ECT(0), CE
 * at 252, 256, 260; received ECT(1), ECT(0), CE at 264, 268, 272) and two
 * u16 at 276. A kernel that returns fewer bytes does not count them.
 */
#define TI_RECEIVED_CE       248
#define TI_RECEIVED_CE_BYTES 272

static int
family_of(int fd)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof ss;

	if (getsockname(fd, (struct sockaddr *)&ss, &sl) == -1)
		return -1;
	return ss.ss_family;
}

/* The codepoint cp on what fd sends, the DSCP bits kept. Returns 0, or -1
 * with errno set and *what the call that failed. */
static int
set_codepoint(int fd, int cp, const char **what)
{
	int fam = family_of(fd), tos = 0;
	socklen_t tl = sizeof tos;

	if (fam == AF_INET6) {
		if (getsockopt(fd, IPPROTO_IPV6, IPV6_TCLASS, &tos, &tl) == -1 ||
		    tos < 0)
			tos = 0;
		tos = (tos & ~(int)ECN_MASK) | cp;
		*what = "IPV6_TCLASS";
		if (setsockopt(fd, IPPROTO_IPV6, IPV6_TCLASS, &tos, sizeof tos) == -1)
			return -1;
		/* IPv4 peers of an IPv6 socket: IP_TOS too, where it applies */
		(void)setsockopt(fd, IPPROTO_IP, IP_TOS, &tos, sizeof tos);
		return 0;
	}
	if (getsockopt(fd, IPPROTO_IP, IP_TOS, &tos, &tl) == -1)
		tos = 0;
	tos = (tos & ~(int)ECN_MASK) | cp;
	*what = "IP_TOS";
	return setsockopt(fd, IPPROTO_IP, IP_TOS, &tos, sizeof tos);
}

int
ecn_udp_send_setup(int fd, char *err, size_t errlen)
{
	const char *what = "";

	if (set_codepoint(fd, (int)ECN_ECT0, &what) == -1) {
		snprintf(err, errlen, "--ecn: setsockopt %s ECT(0): %s", what,
		         strerror(errno));
		return -1;
	}
	return 0;
}

int
ecn_udp_send_clear(int fd)
{
	const char *what;

	return set_codepoint(fd, (int)ECN_NOT_ECT, &what);
}

int
ecn_udp_recv_setup(int fd, char *err, size_t errlen)
{
	int on = 1, fam = family_of(fd);

	if (fam == AF_INET6) {
		if (setsockopt(fd, IPPROTO_IPV6, IPV6_RECVTCLASS, &on, sizeof on) == -1) {
			snprintf(err, errlen, "--ecn: setsockopt IPV6_RECVTCLASS: %s",
			         strerror(errno));
			return -1;
		}
		/* IPv4 datagrams to an IPv6 socket come with IP_TOS */
		(void)setsockopt(fd, IPPROTO_IP, IP_RECVTOS, &on, sizeof on);
		return 0;
	}
	if (setsockopt(fd, IPPROTO_IP, IP_RECVTOS, &on, sizeof on) == -1) {
		snprintf(err, errlen, "--ecn: setsockopt IP_RECVTOS: %s",
		         strerror(errno));
		return -1;
	}
	return 0;
}

int
ecn_cmsg_codepoint(const struct cmsghdr *c)
{
	int v;

	/* IPv4: IP_TOS, one byte (ip_cmsg_recv_tos) */
	if (c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_TOS &&
	    c->cmsg_len >= CMSG_LEN(1))
		return *(const uint8_t *)CMSG_DATA(c) & ECN_MASK;
	/* IPv6: IPV6_TCLASS, an int */
	if (c->cmsg_level == IPPROTO_IPV6 && c->cmsg_type == IPV6_TCLASS &&
	    c->cmsg_len >= CMSG_LEN(sizeof v)) {
		memcpy(&v, CMSG_DATA(c), sizeof v);
		return v & (int)ECN_MASK;
	}
	return -1;
}

const char *
ecn_name(unsigned cp)
{
	static const char *const n[4] = { "not-ECT", "ECT(1)", "ECT(0)", "CE" };

	return n[cp & ECN_MASK];
}

static uint32_t
raw_u32(const uint8_t *raw, size_t off)
{
	uint32_t v;

	memcpy(&v, raw + off, sizeof v);        /* host order, as the kernel wrote it */
	return v;
}

void
ecn_tcp_from_info(const uint8_t *raw, size_t len, struct tcp_stats *t)
{
	const size_t opt = offsetof(struct tcp_info, tcpi_options);
	const size_t dce = offsetof(struct tcp_info, tcpi_delivered_ce);

	t->ecn = 0;
	t->delivered_ce = t->received_ce = t->received_ce_bytes = 0;
	if (len > opt && (raw[opt] & TCPI_OPT_ECN))
		t->ecn |= TCPS_ECN;
	if (len > opt && (raw[opt] & TCPI_OPT_ECN_SEEN))
		t->ecn |= TCPS_ECN_SEEN;
	if (!(t->ecn & TCPS_ECN))
		return;
	if (len >= dce + sizeof(uint32_t))              /* 4.18 */
		t->delivered_ce = raw_u32(raw, dce);
	if (len >= TI_RECEIVED_CE_BYTES + sizeof(uint32_t)) {   /* 6.18 */
		t->ecn |= TCPS_ECN_RECEIVED;
		t->received_ce = raw_u32(raw, TI_RECEIVED_CE);
		t->received_ce_bytes = raw_u32(raw, TI_RECEIVED_CE_BYTES);
	}
}

int
ecn_tcp_sysctl(void)
{
	char b[16];
	ssize_t n;
	int fd = open(TCP_ECN_SYSCTL, O_RDONLY | O_CLOEXEC), v = -1;

	if (fd == -1)
		return -1;
	n = read(fd, b, sizeof b - 1);
	close(fd);
	if (n > 0) {
		b[n] = '\0';
		v = ecn_sysctl_parse(b);
	}
	return v;
}

int
ecn_sysctl_parse(const char *text)
{
	char num[16], why[80];
	size_t n = strcspn(text, "\n");
	uint64_t v;

	if (n >= sizeof num || (text[n] == '\n' && text[n + 1] != '\0'))
		return -1;
	memcpy(num, text, n);
	num[n] = '\0';
	if (units_parse_int(num, 0, INT_MAX, &v, why, sizeof why) == -1)
		return -1;
	return (int)v;
}

void
ecn_tcp_refused(int sysctl, char *buf, size_t len)
{
	char here[64];

	if (sysctl >= 0)
		snprintf(here, sizeof here, "net.ipv4.tcp_ecn is %d here", sysctl);
	else
		snprintf(here, sizeof here, "net.ipv4.tcp_ecn unreadable here");
	snprintf(buf, len, "--ecn: the TCP data connection did not negotiate ECN "
	         "(%s: 1 asks for it on connections this host opens, as does a "
	         "route with 'features ecn'; the partner's must be 1 or 2): "
	         "measuring without", here);
}

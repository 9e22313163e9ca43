/* SPDX-License-Identifier: BSD-2-Clause */
/* mcast.c: multicast groups and the sockets that send to and receive them. */
#include "mcast.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "net.h"
#include "xfer_params.h"
#include "xfer_udp.h"

int
mcast_parse(const char *s, struct mcast_group *g, char *why, size_t len)
{
	uint8_t a[16] = { 0 };
	uint8_t fam = 0;
	const char *bad;

	if (inet_pton(AF_INET, s, a) == 1)
		fam = MCAST_V4;
	else if (inet_pton(AF_INET6, s, a) == 1)
		fam = MCAST_V6;
	if (fam == 0) {
		snprintf(why, len, "'%s' is not a numeric IPv4 or IPv6 group "
		         "address", s);
		return -1;
	}
	if ((bad = mcast_group_invalid(fam, a)) != NULL) {
		snprintf(why, len, "%s: %s", s, bad);
		return -1;
	}
	g->family = fam;
	memcpy(g->addr, a, sizeof a);
	return 0;
}

const char *
mcast_ntop(const struct mcast_group *g, char *buf, size_t len)
{
	if (inet_ntop(g->family == MCAST_V6 ? AF_INET6 : AF_INET, g->addr, buf,
	    (socklen_t)len) == NULL)
		snprintf(buf, len, "?");
	return buf;
}

void
mcast_unmap(struct sockaddr_storage *ss)
{
	struct sockaddr_in6 s6;
	struct sockaddr_in s4;

	if (ss->ss_family != AF_INET6)
		return;
	memcpy(&s6, ss, sizeof s6);
	if (!IN6_IS_ADDR_V4MAPPED(&s6.sin6_addr))
		return;
	memset(&s4, 0, sizeof s4);
	s4.sin_family = AF_INET;
	s4.sin_port = s6.sin6_port;
	memcpy(&s4.sin_addr, &s6.sin6_addr.s6_addr[12], 4);
	memset(ss, 0, sizeof *ss);
	memcpy(ss, &s4, sizeof s4);
}

static int
sa_family_of(uint8_t fam)
{
	return fam == MCAST_V6 ? AF_INET6 : AF_INET;
}

static socklen_t
sa_len(const struct sockaddr_storage *sa)
{
	return sa->ss_family == AF_INET6 ? sizeof(struct sockaddr_in6)
	    : sizeof(struct sockaddr_in);
}

/* The group and port g names, scoped to ifindex (an IPv6 link-local or
 * interface-local group needs it). */
static void
group_sa(const struct mcast_group *g, unsigned ifindex,
         struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof *ss);
	if (g->family == MCAST_V6) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;

		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons(g->port);
		s6->sin6_scope_id = ifindex;
		memcpy(&s6->sin6_addr, g->addr, 16);
	} else {
		struct sockaddr_in *s4 = (struct sockaddr_in *)ss;

		s4->sin_family = AF_INET;
		s4->sin_port = htons(g->port);
		memcpy(&s4->sin_addr, g->addr, 4);
	}
}

/* The index of the interface that has address a, or 0 with err filled. */
static unsigned
mcast_ifindex(const struct sockaddr_storage *a, char *err, size_t errlen)
{
	struct ifaddrs *ifa, *i;
	unsigned idx = 0;
	char buf[NET_ADDRSTRLEN];

	if (getifaddrs(&ifa) == -1) {
		snprintf(err, errlen, "getifaddrs: %s", strerror(errno));
		return 0;
	}
	for (i = ifa; i != NULL && idx == 0; i = i->ifa_next) {
		const struct sockaddr *sa = i->ifa_addr;

		if (sa == NULL || sa->sa_family != a->ss_family)
			continue;
		if ((sa->sa_family == AF_INET &&
		    memcmp(&((const struct sockaddr_in *)sa)->sin_addr,
		    &((const struct sockaddr_in *)a)->sin_addr, 4) == 0) ||
		    (sa->sa_family == AF_INET6 &&
		    memcmp(&((const struct sockaddr_in6 *)sa)->sin6_addr,
		    &((const struct sockaddr_in6 *)a)->sin6_addr, 16) == 0))
			idx = if_nametoindex(i->ifa_name);
	}
	freeifaddrs(ifa);
	if (idx == 0)
		snprintf(err, errlen, "no interface has the address %s",
		         net_ntop(a, buf, sizeof buf));
	return idx;
}

int
mcast_sender_setup(int fd, const struct mcast_group *g, unsigned ifindex,
                   char *err, size_t errlen)
{
	int ttl = g->ttl, one = 1;
	const char *what;

	if (g->family == MCAST_V6) {
		what = "IPV6_MULTICAST_IF";
		if (setsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_IF, &ifindex,
		    sizeof ifindex) == -1)
			goto bad;
		what = "IPV6_MULTICAST_HOPS";
		if (setsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_HOPS, &ttl,
		    sizeof ttl) == -1)
			goto bad;
		what = "IPV6_MULTICAST_LOOP";
		if (setsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_LOOP, &one,
		    sizeof one) == -1)
			goto bad;
		return 0;
	}
	{
		struct ip_mreqn mr = { .imr_ifindex = (int)ifindex };
		unsigned char t = g->ttl, l = 1;

		what = "IP_MULTICAST_IF";
		if (setsockopt(fd, IPPROTO_IP, IP_MULTICAST_IF, &mr, sizeof mr) == -1)
			goto bad;
		what = "IP_MULTICAST_TTL";
		if (setsockopt(fd, IPPROTO_IP, IP_MULTICAST_TTL, &t, sizeof t) == -1)
			goto bad;
		what = "IP_MULTICAST_LOOP";
		if (setsockopt(fd, IPPROTO_IP, IP_MULTICAST_LOOP, &l, sizeof l) == -1)
			goto bad;
	}
	return 0;
bad:
	snprintf(err, errlen, "setsockopt %s: %s", what, strerror(errno));
	return -1;
}

/* Is the control connection's address a of the group's family? */
static int
same_family(const struct mcast_group *g, const struct sockaddr_storage *a,
            char *err, size_t errlen)
{
	if (a->ss_family == sa_family_of(g->family))
		return 0;
	snprintf(err, errlen, "an IPv%u group needs an IPv%u control connection",
	         g->family, g->family);
	return -1;
}

int
mcast_sender_open(struct mcast_group *g, const struct sockaddr_storage *local,
                  uint32_t window, char *err, size_t errlen)
{
	struct sockaddr_storage me = *local, to;
	unsigned ifindex;
	int fd;

	mcast_unmap(&me);
	if (same_family(g, &me, err, errlen) == -1 ||
	    (ifindex = mcast_ifindex(&me, err, errlen)) == 0)
		return -1;
	net_set_port(&me, g->port);
	fd = socket(me.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd == -1) {
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return -1;
	}
	if (bind(fd, (struct sockaddr *)&me, sa_len(&me)) == -1) {
		snprintf(err, errlen, "cannot bind the data port %u: %s", g->port,
		         strerror(errno));
		goto bad;
	}
	g->port = net_local_port(fd);
	group_sa(g, ifindex, &to);
	if (mcast_sender_setup(fd, g, ifindex, err, errlen) == -1 ||
	    (window && net_set_window(fd, window, 1, err, errlen) == -1))
		goto bad;
	if (connect(fd, (struct sockaddr *)&to, sa_len(&to)) == -1) {
		snprintf(err, errlen, "connect UDP to the group: %s", strerror(errno));
		goto bad;
	}
	return fd;
bad:
	close(fd);
	return -1;
}

/* Join g on interface ifindex (and only there). */
static int
join(int fd, const struct mcast_group *g, unsigned ifindex, char *err,
     size_t errlen)
{
	int rc;

	if (g->family == MCAST_V6) {
		struct ipv6_mreq mr = { .ipv6mr_interface = ifindex };

		memcpy(&mr.ipv6mr_multiaddr, g->addr, 16);
		rc = setsockopt(fd, IPPROTO_IPV6, IPV6_JOIN_GROUP, &mr, sizeof mr);
	} else {
		struct ip_mreqn mr = { .imr_ifindex = (int)ifindex };

		memcpy(&mr.imr_multiaddr, g->addr, 4);
		rc = setsockopt(fd, IPPROTO_IP, IP_ADD_MEMBERSHIP, &mr, sizeof mr);
	}
	if (rc == -1)
		snprintf(err, errlen, "joining the group: %s", strerror(errno));
	return rc;
}

int
mcast_receiver_open(const struct mcast_group *g,
                    const struct sockaddr_storage *local,
                    const struct sockaddr_storage *peer, uint32_t window,
                    char *err, size_t errlen)
{
	struct sockaddr_storage me = *local, from = *peer, at;
	unsigned ifindex;
	int fd, one = 1;

	mcast_unmap(&me);
	mcast_unmap(&from);
	if (same_family(g, &me, err, errlen) == -1 ||
	    (ifindex = mcast_ifindex(&me, err, errlen)) == 0)
		return -1;
	net_set_port(&from, g->port);
	group_sa(g, ifindex, &at);
	fd = socket(me.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd == -1) {
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return -1;
	}
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) == -1) {
		snprintf(err, errlen, "setsockopt SO_REUSEADDR: %s", strerror(errno));
		goto bad;
	}
	if (bind(fd, (struct sockaddr *)&at, sa_len(&at)) == -1) {
		snprintf(err, errlen, "cannot bind the group's port %u: %s", g->port,
		         strerror(errno));
		goto bad;
	}
	if ((window && net_set_window(fd, window, 0, err, errlen) == -1) ||
	    join(fd, g, ifindex, err, errlen) == -1)
		goto bad;
	/* only the client's datagrams from now on; what came before the
	 * connect came from anyone */
	if (connect(fd, (struct sockaddr *)&from, sa_len(&from)) == -1) {
		snprintf(err, errlen, "connect UDP to the client: %s", strerror(errno));
		goto bad;
	}
	xfer_udp_drain(fd);
	return fd;
bad:
	close(fd);
	return -1;
}

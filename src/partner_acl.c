/* SPDX-License-Identifier: BSD-2-Clause */
/* partner_acl.c: the partner's --allow list of networks, matched by prefix. */
#include "partner_acl.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "units.h"

/* Do the first prefix bits of x and y agree? */
static int
prefix_eq(const uint8_t *x, const uint8_t *y, unsigned prefix)
{
	unsigned whole = prefix / 8, rest = prefix % 8;
	uint8_t mask = (uint8_t)(0xff00u >> rest);

	if (memcmp(x, y, whole) != 0)
		return 0;
	return rest == 0 || ((x[whole] ^ y[whole]) & mask) == 0;
}

/* Clear every bit of addr (nbytes long) past prefix. */
static void
clear_host_bits(uint8_t *addr, size_t nbytes, unsigned prefix)
{
	size_t i;

	for (i = 0; i < nbytes; i++) {
		if (prefix >= 8 * (i + 1))
			continue;
		addr[i] &= prefix > 8 * i ? (uint8_t)(0xff00u >> (prefix - 8 * i)) : 0;
	}
}

/* Parse the first len bytes of s as an IPv4 or IPv6 address into e.
 * Returns the family's bits (32 or 128), or 0 if it is neither. */
static unsigned
parse_addr(const char *s, size_t len, struct acl_entry *e)
{
	char text[INET6_ADDRSTRLEN];

	if (len >= sizeof text)
		return 0;
	memcpy(text, s, len);
	text[len] = '\0';
	if (inet_pton(AF_INET, text, e->addr) == 1) {
		e->family = AF_INET;
		return 32;
	}
	if (inet_pton(AF_INET6, text, e->addr) == 1) {
		e->family = AF_INET6;
		return 128;
	}
	return 0;
}

/* The prefix, after the first '/', goes to the project's one integer parser. */
int
acl_add(struct acl *a, const char *cidr, char *err, size_t errlen)
{
	const char *slash = strchr(cidr, '/');
	char why[128], text[INET6_ADDRSTRLEN];
	struct acl_entry e;
	uint8_t net[16];
	unsigned bits;
	uint64_t p;

	if (a->n >= ACL_MAX) {
		snprintf(err, errlen, "'%s': too many networks (at most %d)", cidr,
		         ACL_MAX);
		return -1;
	}
	memset(&e, 0, sizeof e);
	bits = parse_addr(cidr, slash ? (size_t)(slash - cidr) : strlen(cidr), &e);
	if (bits == 0) {
		snprintf(err, errlen, "'%s': not an IPv4 or IPv6 address", cidr);
		return -1;
	}
	e.prefix = bits;
	if (slash != NULL) {
		if (units_parse_int(slash + 1, 0, bits, &p, why, sizeof why) == -1) {
			snprintf(err, errlen, "'%s': prefix %s", cidr, why);
			return -1;
		}
		e.prefix = (unsigned)p;
	}
	/* 10.1.2.3/8 is more likely a typo than a way to say 10.0.0.0/8. */
	memcpy(net, e.addr, sizeof net);
	clear_host_bits(net, bits / 8, e.prefix);
	if (memcmp(net, e.addr, bits / 8) != 0) {
		inet_ntop(e.family, net, text, sizeof text);
		snprintf(err, errlen, "'%s': host bits set (did you mean %s/%u?)",
		         cidr, text, e.prefix);
		return -1;
	}
	a->e[a->n++] = e;
	return 0;
}

int
acl_permits(const struct acl *a, const struct sockaddr_storage *sa)
{
	static const uint8_t mapped[12] = { [10] = 0xff, [11] = 0xff };
	uint8_t v4[4], v6[16];
	int has_v4 = 0, has_v6 = 0;
	unsigned i;

	if (a->n == 0)
		return 1;
	if (sa->ss_family == AF_INET) {
		memcpy(v4, &((const struct sockaddr_in *)sa)->sin_addr, 4);
		memcpy(v6, mapped, 12);
		memcpy(v6 + 12, v4, 4);
		has_v4 = has_v6 = 1;
	} else if (sa->ss_family == AF_INET6) {
		memcpy(v6, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
		has_v6 = 1;
		if (memcmp(v6, mapped, 12) == 0) {
			memcpy(v4, v6 + 12, 4);
			has_v4 = 1;
		}
	}
	for (i = 0; i < a->n; i++) {
		const struct acl_entry *e = &a->e[i];
		if (e->family == AF_INET && has_v4 && prefix_eq(e->addr, v4, e->prefix))
			return 1;
		if (e->family == AF_INET6 && has_v6 && prefix_eq(e->addr, v6, e->prefix))
			return 1;
	}
	return 0;
}

const char *
acl_entry_str(const struct acl *a, unsigned i, char *buf, size_t len)
{
	char addr[INET6_ADDRSTRLEN];

	if (len == 0)
		return buf;
	buf[0] = '\0';
	if (i >= a->n || inet_ntop(a->e[i].family, a->e[i].addr, addr,
	                           sizeof addr) == NULL)
		return buf;
	snprintf(buf, len, "%s/%u", addr, a->e[i].prefix);
	return buf;
}

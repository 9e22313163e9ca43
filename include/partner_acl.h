/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_PARTNER_ACL_H
#define GPUT_PARTNER_ACL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/*
 * The partner's --allow list: the networks whose clients it serves. A zeroed
 * struct acl is an empty list, and an empty list permits everyone.
 */

#define ACL_MAX 64

struct acl_entry {
	int      family;        /* AF_INET or AF_INET6 */
	uint8_t  addr[16];      /* network byte order; 4 bytes used for AF_INET */
	unsigned prefix;        /* 0-32 or 0-128; no bits set past it */
};

struct acl {
	struct acl_entry e[ACL_MAX];
	unsigned         n;
};

/* Add "ADDR" (a host: /32 or /128) or "ADDR/PREFIX", IPv4 or IPv6, to a.
 * Refuses, with a one-line reason quoting cidr, what is not an address, a
 * prefix that is not a number or longer than the family allows, host bits
 * set ("'10.1.2.3/8': host bits set (did you mean 10.0.0.0/8?)"), and an
 * entry past ACL_MAX. Returns 0, or -1 with err filled and a unchanged. */
int acl_add(struct acl *a, const char *cidr, char *err, size_t errlen);

/* Does a permit the address in sa (an AF_INET or AF_INET6 sockaddr)? An empty
 * list permits everyone; otherwise any other family is refused. An IPv4
 * client may arrive as a.b.c.d or, on an IPv6 socket, as ::ffff:a.b.c.d; it
 * is matched in both forms, so IPv4 entries cover it and so do IPv6 entries
 * covering ::ffff:a.b.c.d, whichever socket accepted it. Returns 1 or 0. */
int acl_permits(const struct acl *a, const struct sockaddr_storage *sa);

/* Entry i as text, "10.0.0.0/8" or "2001:db8::/32", into buf (truncated to
 * len). Returns buf; "" when i is not an entry. */
const char *acl_entry_str(const struct acl *a, unsigned i, char *buf,
                          size_t len);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_MCAST_GROUP_H
#define GPUT_MCAST_GROUP_H

#include <stdint.h>

/* A multicast group as a test names it and PARAMS carries it: the values
 * and their check, without sockets (mcast.h opens them). */

#define MCAST_V4 4
#define MCAST_V6 6
/* The data port is the group's port and the sender's source port; a
 * privileged one is never asked of a partner. */
#define MCAST_MIN_PORT 1024

/* A group as PARAMS carries it (wire_ctl.h, bytes 132..151). */
struct mcast_group {
	uint8_t  family;      /* 0: none (unicast); MCAST_V4 or MCAST_V6 */
	uint8_t  ttl;         /* IP_MULTICAST_TTL / IPV6_MULTICAST_HOPS */
	uint16_t port;        /* the data port (0 before the client chose it) */
	uint8_t  addr[16];    /* network order; IPv4 in the first 4 bytes */
};

/* Is addr (of family MCAST_V4 or MCAST_V6) a group gput may use: IPv4
 * 224.0.0.0/4 but not the Local Network Control Block 224.0.0.0/24 (RFC
 * 5771), the 12 bytes after it zero; IPv6 ff00::/8 with a scope other than
 * the reserved 0 and f (RFC 4291 2.7) and above the link's (1
 * interface-local, 2 link-local: ff01::/16 and ff02::/16, which carry
 * the link's own protocols, as 224.0.0.0/24 does)? Returns NULL, or what
 * is wrong. */
const char *mcast_group_invalid(uint8_t family, const uint8_t addr[16]);

#endif

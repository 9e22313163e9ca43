#ifndef GPUT_MCAST_H
#define GPUT_MCAST_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/*
 * Multicast (-m, gput(1) MULTICAST): the client sends one UDP stream to a
 * group and every partner receives it. Only the client ever sends to a
 * group; a partner joins it on the interface of its control connection,
 * takes datagrams only from the client's address and the agreed port, and
 * sends nothing on the data path.
 */

#define MCAST_V4 4
#define MCAST_V6 6
#define MCAST_DEFAULT_TTL 1
/* The data port is the group's port and the sender's source port; a
 * privileged one is never asked of a partner. */
#define MCAST_MIN_PORT 1024

/* A group as PARAMS carries it (ctl.h, bytes 132..151). */
struct mcast_group {
	uint8_t  family;      /* 0: none (unicast); MCAST_V4 or MCAST_V6 */
	uint8_t  ttl;         /* IP_MULTICAST_TTL / IPV6_MULTICAST_HOPS */
	uint16_t port;        /* the data port (0 before the client chose it) */
	uint8_t  addr[16];    /* network order; IPv4 in the first 4 bytes */
};

/* Is addr (of family MCAST_V4 or MCAST_V6) a group gput may use: IPv4
 * 224.0.0.0/4 but not the Local Network Control Block 224.0.0.0/24 (RFC
 * 5771), the 12 bytes after it zero; IPv6 ff00::/8 with a scope other than
 * the reserved 0 and f (RFC 4291 2.7)? Returns NULL, or what is wrong. */
const char *mcast_group_invalid(uint8_t family, const uint8_t addr[16]);

/* -m: a numeric group address into g (family, addr; ttl and port left
 * alone). Returns 0, or -1 with why filled. */
int  mcast_parse(const char *s, struct mcast_group *g, char *why, size_t len);

/* The group's address in text, for messages. */
const char *mcast_ntop(const struct mcast_group *g, char *buf, size_t len);

/* An IPv4-mapped IPv6 address (a dual-stack listener's view) as IPv4;
 * any other address as it is. */
void mcast_unmap(struct sockaddr_storage *ss);

/* The index of the interface that has address a, or 0 with err filled. */
unsigned mcast_ifindex(const struct sockaddr_storage *a, char *err,
                       size_t errlen);

/* The sender's options on a UDP socket of g's family: leave by interface
 * ifindex, g's TTL or hop limit, and loop back to this host's own members
 * (a partner on this host, the loopback tests). Returns 0, or -1 with err. */
int  mcast_sender_setup(int fd, const struct mcast_group *g, unsigned ifindex,
                        char *err, size_t errlen);

/* The client's data socket: bound to local (the control connection's
 * address) and g->port (0: the kernel picks one and g->port says which),
 * set up by mcast_sender_setup on local's interface, socket buffers of
 * window bytes (0: the default), connected to the group. Returns the
 * socket, or -1 with err filled. */
int  mcast_sender_open(struct mcast_group *g, const struct sockaddr_storage *local,
                       uint32_t window, char *err, size_t errlen);

/* A partner's data socket: bound to the group and g->port (SO_REUSEADDR:
 * several partners on one host share them), the group joined on the
 * interface of local (the control connection's own address) and nowhere
 * else, connected to peer's address and g->port, so that only the
 * client's datagrams count. g's family must be the control connection's.
 * Returns the socket, or -1 with err filled. */
int  mcast_receiver_open(const struct mcast_group *g,
                         const struct sockaddr_storage *local,
                         const struct sockaddr_storage *peer, uint32_t window,
                         char *err, size_t errlen);

#endif

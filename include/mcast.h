/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_MCAST_H
#define GPUT_MCAST_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "mcast_group.h"

/*
 * Multicast (-m, gput(1) MULTICAST): the client sends one UDP stream to a
 * group and every partner receives it. Only the client ever sends to a
 * group; a partner joins it on the interface of its control connection,
 * takes datagrams only from the client's address and the agreed port, and
 * sends nothing on the data path.
 */

#define MCAST_DEFAULT_TTL 1

/* -m: a numeric group address into g (family, addr; ttl and port left
 * alone). Returns 0, or -1 with why filled. */
int  mcast_parse(const char *s, struct mcast_group *g, char *why, size_t len);

/* The group's address in text, for messages. */
const char *mcast_ntop(const struct mcast_group *g, char *buf, size_t len);

/* An IPv4-mapped IPv6 address (a dual-stack listener's view) as IPv4;
 * any other address as it is. */
void mcast_unmap(struct sockaddr_storage *ss);


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

/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_PARTNER_MPORT_H
#define GPUT_PARTNER_MPORT_H

#include <stddef.h>
#include <stdint.h>

/*
 * Which UDP port a multicast client may make the partner hold: the group's
 * port is the client's own source port (by default one its kernel picked),
 * and the partner binds it on the group for the test. It must lie in the
 * partner host's ephemeral range (net.ipv4.ip_local_port_range, which
 * covers IPv6 too), where the kernel hands out ports to clients and no
 * service is set up to listen, and not among its reserved ports
 * (net.ipv4.ip_local_reserved_ports, kept from that range for services).
 * A port outside is refused: a client cannot make the partner hold a
 * service's port (5353, a web server's...).
 */

/* Is port within [lo, hi] of range text "LO HI" and not in reserved text
 * (a comma list of ports and LO-HI ranges, possibly empty)? Returns NULL,
 * or what is wrong (in err). Pure, for the tests. */
const char *mport_check(uint16_t port, const char *range, const char *reserved,
                        char *err, size_t errlen);

/* mport_check against this host's sysctls. Returns 1 (refused, why in
 * err) or 0. */
int partner_mport_refused(uint16_t port, char *err, size_t errlen);

#endif

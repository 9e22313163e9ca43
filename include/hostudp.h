/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_HOSTUDP_H
#define GPUT_HOSTUDP_H

#include <stddef.h>
#include <stdint.h>

/*
 * The receiving host's UDP drop counters (issue 31's receiver_socket_buffer):
 * Udp: RcvbufErrors and InErrors of /proc/net/snmp (Udp6RcvbufErrors and
 * Udp6InErrors of /proc/net/snmp6 for an IPv6 run), read before and after a
 * UDP receive. They are the host's (its network namespace's), every UDP
 * socket's drops, not the test's socket's alone. A partner sends the
 * deltas as HOSTUDP (wire_ctl.h) to a client that set CTL_XF_HOSTUDP.
 */
struct hostudp {
	uint64_t rcvbuf_errors;      /* RcvbufErrors: no room in a receive buffer */
	uint64_t in_errors;          /* InErrors: every datagram dropped on input */
	uint32_t flags;              /* HOSTUDP_V6: the Udp6 counters */
};
#define HOSTUDP_V6   0x01u
#define HOSTUDP_ALL  0x01u

/* A delta is at most 2^32 (the codec refuses more), and at most what the
 * run's time allows at HOSTUDP_MAX_PPS datagrams per second (100 Gbit/s of
 * the smallest Ethernet frames, 148.8 million a second, rounded up), with
 * a second's slack for the reads before the first and after the last
 * datagram (hostudp_bound). */
#define HOSTUDP_MAX      (1ull << 32)
#define HOSTUDP_MAX_PPS  150000000ull

/* Read the counters now into out (flags: HOSTUDP_V6 or 0 chooses the
 * file). The file's path is fixed; it is read once, at most 16 KiB, and a
 * larger file, or one without both counters, is refused. Returns 0, or -1
 * (out zeroed but for flags). Not in the data path: before and after. */
int hostudp_read(uint32_t flags, struct hostudp *out);

/* Parse a file's text (the Udp: header and values lines of snmp, or the
 * Udp6* name value lines of snmp6) of n bytes. Returns 0, or -1. */
int hostudp_parse(const char *text, size_t n, uint32_t flags,
                  struct hostudp *out);

/* The delta after - before into d. Returns 0, or -1 when a counter went
 * back (the host reset it: no figure). */
int hostudp_delta(const struct hostudp *before, const struct hostudp *after,
                  struct hostudp *d);

/* HOSTUDP_V6 when UDP to or from local address a travels over IPv6 (not
 * an IPv4-mapped address: those count in Udp:), else 0. */
struct sockaddr_storage;
uint32_t hostudp_family(const struct sockaddr_storage *a);

/* The largest delta a run of window_ns can have (above). */
uint64_t hostudp_bound(uint64_t window_ns);

#endif

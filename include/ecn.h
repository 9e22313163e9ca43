/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_ECN_H
#define GPUT_ECN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "model.h"

/*
 * --ecn: Explicit Congestion Notification on gput's data connections
 * (RFC 3168). The codepoint is the two low bits of the IPv4 TOS byte or the
 * IPv6 Traffic Class (RFC 3168, 5): not-ECT 00, ECT(1) 01, ECT(0) 10, CE 11.
 *
 * What Linux lets one socket do, and so what --ecn does:
 *   UDP  the sender sets ECT(0) on every datagram it sends (IP_TOS, and
 *        IPV6_TCLASS on an IPv6 socket; the DSCP bits are kept); the
 *        receiver asks for each datagram's TOS/Traffic Class (IP_RECVTOS,
 *        IPV6_RECVTCLASS) and counts the data datagrams by codepoint.
 *   TCP  a socket cannot ask for ECN: the kernel clears the ECN bits of
 *        IP_TOS on TCP sockets and negotiates ECN in the handshake when
 *        the connecting side's namespace has net.ipv4.tcp_ecn = 1 (or the
 *        route has `features ecn`, or the congestion control needs ECN, as
 *        DCTCP does) and the accepting side's has 1 or 2 (the default).
 *        gput changes no sysctl: it says, in one line, when the data
 *        connection did not negotiate ECN, and reports what TCP_INFO says:
 *        ECN negotiated, the sender's segments acknowledged with ECE
 *        (tcpi_delivered_ce) and, where the kernel counts them (Linux 6.18),
 *        the receiver's CE-marked segments and their bytes.
 */
#define ECN_MASK    0x03u
#define ECN_NOT_ECT 0x00u
#define ECN_ECT1    0x01u
#define ECN_ECT0    0x02u
#define ECN_CE      0x03u

/* Control room a UDP receiver needs for the codepoint of one message. */
#define ECN_CMSG_SPACE CMSG_SPACE(sizeof(int))

/* A UDP sender: every datagram from fd leaves ECT(0). Returns 0, or -1
 * with err filled (the setsockopt that failed). */
int ecn_udp_send_setup(int fd, char *err, size_t errlen);

/* A UDP sender's end markers: fd's datagrams leave not-ECT from now on
 * (the data's codepoint was set by ecn_udp_send_setup), so a marking
 * bottleneck marks data alone and the receiver's CE count covers every
 * mark. Returns 0, or -1 with errno set. */
int ecn_udp_send_clear(int fd);

/* A UDP receiver: each datagram read from fd comes with its TOS or Traffic
 * Class (ecn_cmsg_codepoint). Returns 0, or -1 with err filled. */
int ecn_udp_recv_setup(int fd, char *err, size_t errlen);

/* The ECN codepoint a control message carries (IP_TOS, IPV6_TCLASS), or -1
 * when c is another kind of message or too short. */
int ecn_cmsg_codepoint(const struct cmsghdr *c);

/* "not-ECT", "ECT(1)", "ECT(0)", "CE" for codepoint cp (0..3). */
const char *ecn_name(unsigned cp);

/* What the kernel's tcp_info (raw, len bytes as getsockopt returned them)
 * says of ECN, into t's ecn, delivered_ce, received_ce and
 * received_ce_bytes. */
void ecn_tcp_from_info(const uint8_t *raw, size_t len, struct tcp_stats *t);

/* The room ecn_tcp_from_info reads: Linux 6.18's struct tcp_info. */
#define ECN_TCP_INFO_MAX 280

/* net.ipv4.tcp_ecn of this network namespace, or -1 when unreadable. */
int ecn_tcp_sysctl(void);

/* A sysctl file's text as the kernel writes a number: decimal digits and
 * one newline at most, nothing else, at most INT_MAX. The number, or -1. */
int ecn_sysctl_parse(const char *text);

/* The line to print when a TCP data connection asked for ECN did not
 * negotiate it, given this host's net.ipv4.tcp_ecn (-1: unknown). */
void ecn_tcp_refused(int sysctl, char *buf, size_t len);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_TCPINFO_H
#define GPUT_TCPINFO_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* The longest congestion control name Linux accepts (TCP_CA_NAME_MAX less
 * the NUL). */
#define TCPINFO_CC_MAX 15

/* Read TCP_INFO and TCP_CONGESTION of a connected TCP socket into st at the
 * end of a transfer: congestion control, tcpi_total_retrans, tcpi_rtt,
 * tcpi_min_rtt, tcpi_snd_cwnd, tcpi_snd_mss, tcpi_delivery_rate,
 * tcpi_busy_time, tcpi_rwnd_limited, tcpi_sndbuf_limited. Fields the running
 * kernel does not fill (its tcp_info is shorter) stay 0. The kernel counts
 * busy, rwnd- and sndbuf-limited time in jiffies (4 ms at HZ=250): a short
 * transfer may read 0. st->valid = 1 on success. Returns 0, or -1 with err
 * filled (st then all 0). */
int  tcpinfo_read(int fd, struct tcp_stats *st, char *err, size_t errlen);

/* One cheap sample for an interval boundary: segments retransmitted so far
 * (tcpi_total_retrans), cwnd (segments), smoothed RTT (us). Any pointer may
 * be NULL. Returns 0, or -1 (errno set) with the outputs left alone. */
int  tcpinfo_sample(int fd, uint64_t *retrans, uint32_t *cwnd, uint32_t *srtt_us);

/* The congestion controls this host offers
 * (net.ipv4.tcp_available_congestion_control), separated by single spaces,
 * into buf. Returns 0, or -1 (errno set) when the file cannot be read, holds
 * no names, or does not fit in len. */
int  tcpinfo_cc_available(char *buf, size_t len);

/* Is name one of them? Returns 0, or -1 with a usage-error reason in err:
 * "unknown congestion control 'foo' (this host offers: reno cubic bbr)".
 * Names empty, longer than TCPINFO_CC_MAX bytes or with characters outside
 * [a-z0-9_-] are refused without reading /proc. */
int  tcpinfo_cc_check(const char *name, char *err, size_t errlen);

/* setsockopt TCP_CONGESTION on fd. Returns 0, or -1 with err naming the
 * call, the name and strerror (on EPERM also the names an unprivileged
 * process may pick, net.ipv4.tcp_allowed_congestion_control); errno is that
 * of setsockopt. */
int  tcpinfo_set_cc(int fd, const char *name, char *err, size_t errlen);

/* The host's default congestion control (net.ipv4.tcp_congestion_control)
 * into buf. Returns 0, or -1 (errno set). */
int  tcpinfo_cc_default(char *buf, size_t len);

/* For tests: the same, reading path instead of the file under /proc. */
int  tcpinfo_cc_available_from(const char *path, char *buf, size_t len);
int  tcpinfo_cc_check_from(const char *path, const char *name, char *err,
                           size_t errlen);
int  tcpinfo_cc_default_from(const char *path, char *buf, size_t len);

/* The bytes of fd the peer acknowledged (tcpi_bytes_acked, Linux 4.1+), for
 * a sender's progress while one write may take long. Returns 0, or -1 when
 * the kernel does not say. */
int  tcpinfo_acked(int fd, uint64_t *acked);

#endif

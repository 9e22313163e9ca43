/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_NET_H
#define GPUT_NET_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/*
 * The functions that wait take the stop request they honour (NULL: none):
 * a wait ends when it comes, also when it came just before the wait began.
 * A failure fills err, for people, and sets errno, for code: ETIMEDOUT (the
 * deadline passed), EINTR (the stop request came), NET_ECLOSED (the peer
 * closed: EOF), or the socket's own error (ECONNREFUSED, ECONNRESET, ...).
 */
struct stopreq;
/* errno for a connection the peer closed (EOF) while bytes were awaited. */
#define NET_ECLOSED ENOTCONN

/* listen(2) backlog of a data socket: a test's streams, and room to spare. */
#define NET_DATA_BACKLOG 256

/* Text form of an address, for messages: "127.0.0.1", "::1". */
#define NET_ADDRSTRLEN 64

/* Resolve host and connect a TCP socket within timeout_ms, trying every
 * address. Returns the socket, or -1 with err naming host and port and
 * errno the last address's failure (EADDRNOTAVAIL: no address). */
int      net_connect(const char *host, uint16_t port, int family, int timeout_ms,
                     const struct stopreq *stop, char *err, size_t errlen);
/* Connect a new socket of the given type to sa within timeout_ms; with
 * window > 0 set the socket buffers first (so TCP can scale its window). */
int      net_connect_sa(const struct sockaddr_storage *sa, int type,
                        uint32_t window, int timeout_ms,
                        const struct stopreq *stop, char *err, size_t errlen);
/* Listening TCP socket on port (0: the kernel picks), on every address
 * (IPv6 and IPv4 where possible). Returns the socket, or -1 with err. */
int      net_listen_any(uint16_t port, char *err, size_t errlen);
/* Socket of the given type bound to local's address with port 0; for TCP
 * also listening. Returns the socket, or -1 with err. */
int      net_bind_like(const struct sockaddr_storage *local, int type,
                       char *err, size_t errlen);
/* Accept one connection within timeout_ms, from peer's address only (others
 * are closed and waited past). With watch >= 0, give up as soon as watch is
 * readable or hung up (the caller asks why). Returns the socket; -1 with err
 * filled (timeout, the stop request, a failed accept); or -2 when watch woke. */
int      net_accept_from(int lfd, const struct sockaddr_storage *peer,
                         int watch, int timeout_ms, const struct stopreq *stop,
                         char *err, size_t errlen);
/* Wait until fd is readable or hung up, at most timeout_ms; with watch >= 0
 * stop early when watch is. Returns 1 (fd), 2 (watch) or 0 (timed out or
 * the stop request). */
int      net_wait_readable(int fd, int watch, int timeout_ms,
                           const struct stopreq *stop);
/* Read exactly n bytes from fd before deadline (monotonic ns); with watch
 * >= 0 give up when watch is readable or hung up. The one read with a
 * deadline: the control connection's messages come through it too.
 * Returns 0; -1 with err filled ("timed out", "interrupted", "connection
 * closed" or the socket's error) and errno set; or -2 when watch woke. */
int      net_read_full(int fd, uint8_t *buf, size_t n, int watch,
                       uint64_t deadline, const struct stopreq *stop,
                       char *err, size_t errlen);
/* Write all n bytes of buf to fd (a pipe or a blocking descriptor),
 * retried after EINTR and a short write: the one write-it-all. Returns 0,
 * or -1 with errno set (a write that wrote nothing: EIO). */
int      net_write_full(int fd, const void *buf, size_t n);
/* A poll(2) timeout for ns nanoseconds, rounded up, at most NET_POLL_MAX_MS
 * (callers loop until their deadline: a far one never overflows an int). */
#define NET_POLL_MAX_MS 60000
int      net_poll_ms(uint64_t ns);
uint16_t net_port(const struct sockaddr_storage *sa);
void     net_set_port(struct sockaddr_storage *sa, uint16_t port);
/* Local port of a bound socket, 0 on failure. */
uint16_t net_local_port(int fd);
const char *net_ntop(const struct sockaddr_storage *sa, char *buf, size_t len);
int      net_same_addr(const struct sockaddr_storage *a,
                       const struct sockaddr_storage *b);
/* Do a and b share their first p4 (IPv4) or p6 (IPv6) bits (and family)? */
int      net_same_prefix(const struct sockaddr_storage *a,
                         const struct sockaddr_storage *b, unsigned p4,
                         unsigned p6);
/* Receive and send timeouts (0 = none). Returns 0, or -1 with err. */
int      net_set_timeouts(int fd, int rcv_ms, int snd_ms, char *err, size_t errlen);
/* -w: socket buffers in bytes; with force (the local side's own -w) pass the
 * host's rmem_max/wmem_max when root may; a remote's request never does.
 * Returns 0, or -1 with err. */
int      net_set_window(int fd, uint32_t bytes, int force, char *err,
                        size_t errlen);
/* The buffer sizes the kernel really set (as SO_SNDBUF/SO_RCVBUF report
 * them: twice the usable bytes on Linux); 0 when it does not say. */
void     net_get_window(int fd, uint32_t *snd, uint32_t *rcv);
/* A control connection's options. Notice a peer that vanished without a
 * word (no FIN, no RST) within its dead-peer deadline of peer_s seconds
 * (gput(1), --peer-timeout; NET_PEER_TIMEOUT_S, 10, unless a client asks
 * more): keepalive probes after NET_KEEPIDLE_S idle, NET_KEEPCNT of them
 * NET_KEEPINTVL_S apart, and TCP_USER_TIMEOUT (peer_s less
 * NET_USER_TIMEOUT_SLACK_MS: 8000 ms at 10 s) for data left
 * unacknowledged and unanswered probes alike: a dead peer is seen within
 * peer_s. And TCP_NODELAY: every control message is small and awaited,
 * and none may wait for the ACK of the one before (Nagle against a delayed
 * ACK held START back 40 ms while the partner's data already flowed).
 * Returns 0, or -1 with err. */
#define NET_KEEPIDLE_S      2
#define NET_KEEPINTVL_S     1
#define NET_KEEPCNT         4
#define NET_USER_TIMEOUT_SLACK_MS 2000
#define NET_USER_TIMEOUT_MS (NET_PEER_TIMEOUT_S * 1000 - NET_USER_TIMEOUT_SLACK_MS)
/* The dead-peer deadline, s: the default, and the range a client may ask
 * (--peer-timeout) and a partner grant (--max-peer-timeout). A path that
 * loses a third of its packets backs TCP's retransmission timer off past
 * 10 s now and then (6 losses in a row of one segment); a minute covers 8. */
#define NET_PEER_TIMEOUT_S     10
#define NET_PEER_TIMEOUT_MAX_S 240
/* What a dead-peer deadline of peer_s seconds adds to the default, ms: each
 * wait sized for NET_PEER_TIMEOUT_S (a control message, a SYN, the data's
 * idle timeouts, a partner's progress window) grows by it. */
#define NET_PEER_EXTRA_MS(peer_s) ((peer_s) > NET_PEER_TIMEOUT_S ? \
	((int)(peer_s) - NET_PEER_TIMEOUT_S) * 1000 : 0)
int      net_set_control(int fd, unsigned peer_s, char *err, size_t errlen);
int      net_set_nodelay(int fd, char *err, size_t errlen);

#endif

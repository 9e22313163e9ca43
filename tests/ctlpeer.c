/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ctlpeer.c: a scripted control-protocol peer for the live tests. It plays a
 * gput client or partner that does exactly the steps it is given, so a test
 * can make a peer vanish at any moment of a session. Not installed.
 *
 *   ctlpeer [-6] [-s SRC] client PORT STEP...
 *                                     connect to 127.0.0.1 (-6: ::1) PORT,
 *                                     from address SRC with -s, print
 *                                     "ok connect from port N"
 *   ctlpeer [-6] partner STEP...      listen on a free loopback port, print
 *                                     "ok listen port N"
 *   ctlpeer inetd CMD ARG...          listen as partner does, accept one
 *                                     connection and run CMD with it as
 *                                     standard input (inetd nowait); print
 *                                     "ok exit N" with CMD's exit status
 *   ctlpeer activate CMD ARG...       listen as partner does and run CMD with
 *                                     the listening socket as descriptor 3,
 *                                     LISTEN_FDS=1 and LISTEN_PID (systemd
 *                                     socket activation); "ok exit N"
 *
 * Each step prints one line starting "ok STEP" on stdout when it is done, so
 * a test can wait for it; a failure prints "ctlpeer: STEP: reason" on stderr
 * and exits 1. Every wait has a deadline of TIMEOUT_MS.
 *
 *   raw=TEXT        send TEXT on the control connection (\xHH escapes)
 *   put=TYPE        send a well-formed READY (port 1), RESULT (all zero),
 *                   START or STOP
 *   put=badresult   send a RESULT no partner could mean: more bytes that
 *                   differ from the pattern than bytes
 *   sendmore        send the whole stream and one buffer more
 *   sendseq=A,B,... (UDP) send headed data datagrams with these sequence
 *                   numbers (duplicates, gaps, any order); M sends the next
 *                   end marker there; the markers not sent yet follow
 *   dribble=MS      (UDP) send a headed datagram every MS ms until the
 *                   control connection is readable (TIMEOUT_MS at most)
 *   put=sendresult  send the RESULT of a sender that sent the whole stream
 *   lie=KIND        (after send or drain) send this side's TCPINFO or
 *                   UDPSTATS and RESULTs as a partner would, with one field
 *                   no partner could mean: cpu (real_ns 1, cpu_ns 2^64-1),
 *                   real (real_ns 2^63), jitter (UDPSTATS jitter_ns 1.8e16),
 *                   owd (UDPSTATS owd_min_ns -9.2e15), retrans (TCPINFO
 *                   retrans 2^64-1), unique (UDPSTATS one more datagram than
 *                   sent), fewer (a UDP sender's RESULT dgrams 1), wrap
 *                   (INTERVAL bytes 2^64-1000, then the rest: the true total
 *                   modulo 2^64), overlap (INTERVAL 1 starts inside
 *                   INTERVAL 0), stopped (RESULT flag 32, "stopped on
 *                   request", with 1 byte, though no STOP came), calls
 *                   (RESULT calls 2^64-1), fast (RESULT real_ns 1), bufs
 *                   (RESULT sndbuf 2^31), rate (TCPINFO delivery rate
 *                   2^64-1), ce (TCPINFO CE bytes: one more than the
 *                   test's and its proof's 18, each sent 65 times),
 *                   tcpinfo (TCPINFO in a UDP test), udpstats (UDPSTATS in
 *                   a TCP test), dups (UDPSTATS 2^62 duplicates),
 *                   echostats (ECHOSTATS of zeros without --latency),
 *                   echotwice (a second ECHOSTATS),
 *                   hostudp (HOSTUDP of RcvbufErrors 1: fits any run but
 *                   one that did not ask for it), hostudpbig (HOSTUDP of
 *                   RcvbufErrors 2^32: more than a short run allows),
 *                   hostudptwice (a second HOSTUDP of 1),
 *                   ivcalls (INTERVAL calls 2^64-1); nothing and none
 *                   are no lies: the RESULTs of a partner that moved no
 *                   data, or the data in 0.5 s
 *   echo=STAMP      (partner, after sendready, for --latency) send ECHOPORT
 *                   and echo every probe with READY's nonce stamped STAMP
 *                   ns, or with the real-time clock (real), from a child
 *                   process
 *   ivals=N         send N zero-length INTERVALs of stream 1, in order; on
 *                   failure the error says how many were sent
 *   hello           (client) receive HELLO
 *   key=FILE        (client) sign PARAMS with the shared secret in FILE
 *   params=P,R,N,L[,G] send PARAMS for the partner's half: protocol tcp or
 *                   udp, the partner's role send or recv, N buffers of L
 *                   bytes, G us apart (-g; default 0)
 *   group=ADDR,PORT (before params) the PARAMS that follow name this
 *                   multicast group and data port, TTL 1, as given: a
 *                   group no client would send can be tried
 *   ready           receive READY; prints the data port
 *   nocookie        (before params) the UDP PARAMS that follow do not say
 *                   that this client echoes cookies (xflags 0x8)
 *   batch=N         (before params) the PARAMS that follow ask --batch N
 *   zerocopy        (before params) the PARAMS that follow ask --zerocopy
 *   streams=N       (before params, TCP) the PARAMS that follow ask for N
 *                   streams (-P N); data connects and proves all N (the
 *                   first is the data socket send and drain use; none of
 *                   the others is ever read)
 *   data            connect the data socket to that port and prove it (TCP:
 *                   the nonce; UDP: one proof datagram); when the partner
 *                   sends UDP, echo its cookie as a client does (the proof
 *                   again every 200 ms until the cookie comes or the
 *                   control connection is readable)
 *   data=bad        the same with a wrong nonce (no cookie waited for)
 *   start           receive START
 *   sendhello       (partner) send HELLO
 *   getparams       (partner) receive PARAMS; prints "ok getparams xflags 0xN"
 *   oldparams       (partner) receive PARAMS as a gput that knows xflags
 *                   up to 0x40 does: PARAMS with a bit above refused
 *                   with its ERROR, the connection closed, the next one
 *                   accepted, HELLO sent and PARAMS received again; prints
 *                   "ok oldparams refused N xflags 0xM"
 *   sendready       (partner) open the data socket, send READY
 *   acceptdata      (partner) accept the data connection and read its nonce
 *                   (TCP), or wait for the proof datagram and connect (UDP)
 *   send[=K]        send the whole stream (or its first K buffers) on the data
 *                   socket (UDP: no end markers)
 *   drain           receive until the sender is done (TCP: end of stream;
 *                   UDP: N datagrams or a shorter one, an end marker)
 *   closedata       close the data socket
 *   readable        wait until the control connection is readable, read nothing
 *   result          receive RESULT; prints the partner's Bytes
 *   error           receive ERROR; prints its text
 *   hold            print "ok hold", then wait to be killed (or TIMEOUT_MS)
 *   eof             wait until the peer closes the control connection,
 *                   discarding what arrives
 *   close           close the control connection
 *
 * Latency probes (--latency; the partner's echo):
 *   latency=US,MS   (before params) the PARAMS that follow ask for probes
 *                   every US microseconds after an idle phase of MS ms
 *   echoport        receive ECHOPORT; prints the echo's port
 *   probes=N,KIND   send N probes back to back and count the echoes that
 *                   come back to the sending socket within PROBE_WAIT_MS
 *                   of the last (all N: at once); KIND: ok (well-formed,
 *                   from the probe socket, which the first ok proves),
 *                   badnonce, big (1400 bytes), short (20 bytes), stranger
 *                   (well-formed, from another port of this address),
 *                   forged (as stranger: a port that never echoes a
 *                   cookie), other (well-formed, from 127.0.0.2), lowport
 *                   (well-formed, from a port below 1024 of this
 *                   address; root); prints
 *                   "ok probes KIND sent N echoes E min L max M" (the
 *                   echoes' lengths; 0 0 with none)
 *                   "ok probes KIND sent N echoes E min L max M cookies C":
 *                   the echo's cookies (GPUC) are counted apart, and echoed
 *                   (GPUK) only on the proven probe socket (ok)
 *   validate        the probe socket's return path: an ok request every
 *                   200 ms until the echo's cookie comes, echoed; prints
 *                   "ok validate after N requests"
 *   closed          close the control connection, then send an ok probe
 *                   every 20 ms, counting their echoes (E), until the
 *                   echo's port is closed (ICMP port unreachable); then 5
 *                   more and count theirs (F): "ok closed echoes E then F"
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "auth.h"
#include "ctl.h"
#include "net.h"
#include "wire_udp.h"
#include "xfer_markers.h"
#include "wire_probe.h"
#include "xfer_path.h"

#define TIMEOUT_MS 30000
#define PROBE_WAIT_MS 300

struct peer {
	int ctl, data, lfd, family;
	int ctl_lfd;                    /* partner: the control listener (oldparams) */
	struct sockaddr_storage local, remote;
	struct ctl_msg params;          /* what was sent or received */
	uint8_t challenge[CTL_CHALLENGE_LEN];
	uint8_t nonce[CTL_NONCE_LEN];
	struct auth_key key;
	int have_key;
	uint16_t data_port;
	uint64_t got_bytes, got_dgrams; /* drain: what arrived */
	struct mcast_group group;       /* group=: sent with the PARAMS */
	uint32_t lat_us, lat_ms;        /* latency=: sent with the PARAMS */
	int nocookie;                   /* nocookie: PARAMS without xflags 0x8 */
	unsigned batch;                 /* batch=: sent with the PARAMS */
	int zerocopy;                   /* zerocopy: PARAMS xflags 0x4 */
	unsigned streams;               /* streams=: PARAMS streams (0: 1) */
	uint16_t echo_port;             /* echoport */
	int probe_fd;                   /* probes=...,ok: the proven socket */
	uint64_t probe_seq;
	const char *step;
};

static void
die(const struct peer *p, const char *why)
{
	fprintf(stderr, "ctlpeer: %s: %s\n", p->step, why);
	exit(1);
}

/* raw=TEXT: \xHH escapes, everything else as is. Returns the length. */
static size_t
unescape(const char *s, uint8_t *out, size_t max)
{
	size_t n = 0;

	while (*s != '\0' && n < max) {
		unsigned v;

		if (s[0] == '\\' && s[1] == 'x' && sscanf(s + 2, "%2x", &v) == 1) {
			out[n++] = (uint8_t)v;
			s += 4;
		} else {
			out[n++] = (uint8_t)*s++;
		}
	}
	return n;
}

static void
set_params(struct peer *p, const char *arg)
{
	char proto[8], role[8];
	unsigned long long n, l, gap = 0;
	struct xfer_params *x = &p->params.params;

	if (sscanf(arg, "%7[a-z],%7[a-z],%llu,%llu,%llu", proto, role, &n, &l,
	    &gap) < 4)
		die(p, "want params=tcp|udp,send|recv,N,L[,GAP_US]");
	memset(&p->params, 0, sizeof p->params);
	p->params.type = CTL_PARAMS;
	x->proto = strcmp(proto, "udp") == 0 ? PROTO_UDP : PROTO_TCP;
	x->role = strcmp(role, "send") == 0 ? ROLE_SEND : ROLE_RECV;
	x->count = n;
	x->len = x->data_len = (uint32_t)l;
	x->data_bytes = n * l;
	x->data_gap_ps = gap * 1000000u;
	x->streams = p->streams ? p->streams : 1;
	if (p->zerocopy)
		x->xflags |= CTL_XF_ZEROCOPY;
	p->params.mcast = p->group;
	x->batch = (uint8_t)p->batch;
	if (x->proto == PROTO_UDP && x->role == ROLE_SEND && !p->nocookie)
		x->xflags |= CTL_XF_COOKIE;
	if (p->lat_us) {
		x->xflags |= CTL_XF_LATENCY | CTL_XF_ECHOCOOKIE;
		x->lat_interval_us = p->lat_us;
		x->lat_idle_ms = p->lat_ms;
	}
}

/* group=ADDR,PORT: numeric, family from the address, never checked. */
static void
set_group(struct peer *p, const char *arg)
{
	char addr[64];
	unsigned port;
	struct mcast_group *g = &p->group;

	if (sscanf(arg, "%63[0-9a-fA-F.:],%u", addr, &port) != 2 || port > 65535)
		die(p, "want group=ADDR,PORT");
	memset(g, 0, sizeof *g);
	g->family = inet_pton(AF_INET, addr, g->addr) == 1 ? MCAST_V4 :
	    inet_pton(AF_INET6, addr, g->addr) == 1 ? MCAST_V6 : 0;
	if (g->family == 0)
		die(p, "not a numeric address");
	g->ttl = 1;
	g->port = (uint16_t)port;
	printf("ok group\n");
}

static int
is_udp(const struct peer *p)
{
	return p->params.params.proto == PROTO_UDP;
}

static void
step_params(struct peer *p, const char *arg)
{
	uint8_t sb[CTL_SIGNED_MAX];
	char err[256];

	set_params(p, arg);
	if (p->have_key && auth_mac(&p->key, "gput2 client", sb,
	    ctl_signed_bytes(p->challenge, &p->params, NULL, sb),
	    p->params.mac) == -1)
		die(p, "HMAC failed");
	if (ctl_send(p->ctl, &p->params, err, sizeof err) == -1)
		die(p, err);
	printf("ok params\n");
}

/* UDP, a partner that sends: send the proof again every 200 ms until the
 * partner's cookie comes, and echo it (xfer_path.h); or until the control
 * connection is readable (an ERROR). Returns the echoes sent. */
static uint64_t
echo_cookie(struct peer *p, const uint8_t *proof, size_t n)
{
	mono_ns deadline = mono_now() + (mono_ns)TIMEOUT_MS * 1000000u;
	uint64_t echoed = 0;
	char err[256];

	while (echoed == 0 && mono_now() < deadline) {
		int w = net_wait_readable(p->data, p->ctl, 200, NULL);

		if (w == 2)
			break;
		if (w == 0 && send(p->data, proof, n, 0) != (ssize_t)n)
			die(p, strerror(errno));
		if (w == 1 && xfer_path_echo(p->data, &p->params.params, 1, &echoed,
		    err, sizeof err) == -1)
			die(p, err);
	}
	return echoed;
}

static void
step_data(struct peer *p, int bad)
{
	struct sockaddr_storage to = p->remote;
	uint8_t proof[PROOF_MAX_LEN];
	char err[256];
	size_t n;

	net_set_port(&to, p->data_port);
	if (bad)
		p->nonce[0] ^= 0xff;
	if (is_udp(p)) {
		p->data = net_bind_like(&p->local, SOCK_DGRAM, err, sizeof err);
		if (p->data == -1)
			die(p, err);
		if (connect(p->data, (struct sockaddr *)&to, sizeof to) == -1)
			die(p, strerror(errno));
		n = xfer_proof_encode(&p->params.params, p->nonce, 1, proof);
		if (send(p->data, proof, n, 0) != (ssize_t)n)
			die(p, strerror(errno));
		if (!bad && p->params.params.role == ROLE_SEND &&
		    echo_cookie(p, proof, n) > 0)
			printf("ok cookie echoed\n");
	} else {
		uint32_t k, nst = p->params.params.streams;

		for (k = nst; k >= 1; k--) {    /* stream 1's last: the one kept */
			uint8_t hello[CTL_NONCE_LEN + 2] = { 0 };

			p->data = net_connect_sa(&to, SOCK_STREAM, 0, TIMEOUT_MS, NULL,
			    err, sizeof err);
			if (p->data == -1)
				die(p, err);
			memcpy(hello, p->nonce, CTL_NONCE_LEN);
			hello[CTL_NONCE_LEN] = (uint8_t)(k >> 8);
			hello[CTL_NONCE_LEN + 1] = (uint8_t)k;
			if (send(p->data, hello, sizeof hello, MSG_NOSIGNAL) !=
			    sizeof hello)
				die(p, strerror(errno));
		}                               /* the others stay open, unread */
	}
	printf("ok data %u\n", net_local_port(p->data));
}

/* oldparams: PARAMS as an older partner takes them (step list above). */
static void
step_oldparams(struct peer *p)
{
	char err[256];
	int refused = 0;

	for (;;) {
		struct ctl_msg m;

		if (ctl_recv_type(p->ctl, CTL_PARAMS, &p->params, TIMEOUT_MS, NULL,
		    err, sizeof err) == -1)
			die(p, err);
		if (!(p->params.params.xflags & ~0x7fu))
			break;
		if (refused++ > 0)
			die(p, "PARAMS with a bit an older partner refuses, again");
		ctl_error(&m, "bad request: bad PARAMS message: reserved bits set");
		if (ctl_send(p->ctl, &m, err, sizeof err) == -1)
			die(p, err);
		close(p->ctl);
		p->ctl = net_accept_from(p->ctl_lfd, NULL, -1, TIMEOUT_MS, NULL, err,
		    sizeof err);
		if (p->ctl < 0)
			die(p, err);
		memset(&m, 0, sizeof m);
		m.type = CTL_HELLO;
		if (ctl_send(p->ctl, &m, err, sizeof err) == -1)
			die(p, err);
	}
	printf("ok oldparams refused %d xflags 0x%x\n", refused,
	       p->params.params.xflags);
}

static void
step_sendready(struct peer *p)
{
	struct ctl_msg m = { .type = CTL_READY };
	int type = is_udp(p) ? SOCK_DGRAM : SOCK_STREAM;
	char err[256];
	int fd = net_bind_like(&p->local, type, err, sizeof err);

	if (fd == -1)
		die(p, err);
	if (is_udp(p))
		p->data = fd;
	else
		p->lfd = fd;
	memset(p->nonce, 0x5a, sizeof p->nonce);
	memcpy(m.nonce, p->nonce, sizeof m.nonce);
	m.port[0] = net_local_port(fd);
	m.nports = 1;
	if (ctl_send(p->ctl, &m, err, sizeof err) == -1)
		die(p, err);
	printf("ok sendready %u\n", m.port[0]);
}

/* partner: the data connection and its proof, as the real partner takes it */
static void
step_acceptdata(struct peer *p)
{
	uint8_t b[PROOF_MAX_LEN + 1];
	struct sockaddr_storage from;
	socklen_t fl = sizeof from;
	char err[256];
	ssize_t n;

	if (!is_udp(p)) {
		p->data = net_accept_from(p->lfd, &p->remote, -1, TIMEOUT_MS, NULL, err,
		    sizeof err);
		if (p->data < 0 || net_read_full(p->data, b, CTL_NONCE_LEN + 2, -1,
		    mono_now() + (mono_ns)TIMEOUT_MS * 1000000u, NULL, err, sizeof err) != 0)
			die(p, p->data < 0 ? err : "no nonce");
		printf("ok acceptdata\n");
		return;
	}
	if (net_wait_readable(p->data, -1, TIMEOUT_MS, NULL) != 1)
		die(p, "timed out");
	n = recvfrom(p->data, b, sizeof b, 0, (struct sockaddr *)&from, &fl);
	if (n < 0 || !xfer_proof_check(&p->params.params, p->nonce, 1, b, (size_t)n))
		die(p, "not a proof datagram");
	if (connect(p->data, (struct sockaddr *)&from, fl) == -1)
		die(p, strerror(errno));
	printf("ok acceptdata\n");
}

/* The stream the params describe: TCP N*L bytes, UDP N datagrams of L; or
 * only its first k buffers. */
static void
step_send(struct peer *p, uint64_t k)
{
	const struct xfer_params *x = &p->params.params;
	uint64_t left = k < x->count ? k * x->len : x->data_bytes, seq = 0;
	uint8_t *buf = calloc(1, x->len);

	if (buf == NULL)
		die(p, "out of memory");
	while (left > 0) {
		size_t want = left < x->len ? (size_t)left : x->len;
		ssize_t n;

		if (is_udp(p) && xfer_udp_has_header(x))    /* as gput's sender */
			wire_gpud_encode(buf, seq++, 0);
		n = send(p->data, buf, want, MSG_NOSIGNAL);

		if (n == -1 && (errno == EINTR || errno == ENOBUFS))
			continue;
		if (n <= 0)
			die(p, n == 0 ? "sent nothing" : strerror(errno));
		left -= (uint64_t)n;
	}
	free(buf);
	printf("ok send %llu\n", (unsigned long long)(k < x->count ? k * x->len :
	       x->data_bytes));
}

/* UDP: a headed datagram every ms milliseconds (the dribble's pace) until
 * the control connection has something to read (the partner's ERROR or its
 * close) or TIMEOUT_MS pass; prints how many went. */
static void
step_dribble(struct peer *p, const char *arg)
{
	const struct xfer_params *x = &p->params.params;
	uint8_t buf[65536] = { 0 };
	struct pollfd pfd = { p->ctl, POLLIN, 0 };
	int ms = atoi(arg), spent = 0;
	uint64_t seq = 0;

	if (x->data_len < WIRE_GPUD_LEN || x->data_len > sizeof buf || ms <= 0)
		die(p, "dribble=MS needs -l of at least 24");
	while (spent < TIMEOUT_MS) {
		wire_gpud_encode(buf, seq, 0);
		if (send(p->data, buf, x->data_len, 0) == (ssize_t)x->data_len)
			seq++;
		if (poll(&pfd, 1, ms) != 0)
			break;
		spent += ms;
	}
	printf("ok dribble %llu\n", (unsigned long long)seq);
}

/* UDP: headed datagrams with the listed sequence numbers, then markers */
static void
step_sendseq(struct peer *p, const char *list)
{
	const struct xfer_params *x = &p->params.params;
	uint8_t buf[65536] = { 0 }, mk[MARKER_MAX_LEN];
	unsigned long long seq;
	char *end;
	size_t n = 0, k;

	if (x->data_len < WIRE_GPUD_LEN || x->data_len > sizeof buf)
		die(p, "sendseq needs -l of at least 24");
	k = 1;
	while (*list != '\0') {
		if (*list == 'M') {             /* an end marker here */
			size_t ml = xfer_marker_encode(x, mk, (uint8_t)k++,
			    xfer_data_calls(x), x->data_bytes);

			if (k > MARKER_COUNT + 1 || send(p->data, mk, ml, 0) != (ssize_t)ml)
				die(p, "sendseq: markers");
			end = (char *)list + 1;
		} else {
			seq = strtoull(list, &end, 10);
			if (end == list)
				die(p, "sendseq=N,N,M,...");
			wire_gpud_encode(buf, seq, 0);
			if (send(p->data, buf, x->data_len, 0) != (ssize_t)x->data_len)
				die(p, strerror(errno));
			n++;
		}
		list = *end == ',' ? end + 1 : end;
	}
	for (; k <= MARKER_COUNT; k++) {
		size_t ml = xfer_marker_encode(x, mk, (uint8_t)k, xfer_data_calls(x),
		    x->data_bytes);

		if (send(p->data, mk, ml, 0) != (ssize_t)ml)
			die(p, strerror(errno));
	}
	printf("ok sendseq %zu\n", n);
}

static void
step_drain(struct peer *p)
{
	const struct xfer_params *x = &p->params.params;
	uint64_t bytes = 0, dgrams = 0;
	size_t cap = x->len + 64;
	uint8_t *buf = malloc(cap);

	if (buf == NULL)
		die(p, "out of memory");
	for (;;) {
		ssize_t n;

		if (net_wait_readable(p->data, -1, TIMEOUT_MS, NULL) != 1)
			die(p, "timed out");
		n = recv(p->data, buf, cap, 0);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			die(p, strerror(errno));
		if (!is_udp(p) && n == 0)
			break;
		if (is_udp(p) && (size_t)n != x->len)
			break;                  /* an end marker */
		bytes += (uint64_t)n;
		if (is_udp(p) && ++dgrams == x->count)
			break;
	}
	free(buf);
	p->got_bytes = bytes;
	p->got_dgrams = is_udp(p) ? dgrams : 0;
	printf("ok drain %llu\n", (unsigned long long)bytes);
}

static void
step_eof(struct peer *p)
{
	uint8_t buf[512];
	uint64_t got = 0;

	for (;;) {
		ssize_t n;

		if (net_wait_readable(p->ctl, -1, TIMEOUT_MS, NULL) != 1)
			die(p, "timed out");
		n = recv(p->ctl, buf, sizeof buf, 0);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;                  /* closed or reset: the peer is gone */
		got += (uint64_t)n;
	}
	printf("ok eof after %llu bytes\n", (unsigned long long)got);
}

/* A partner's RESULTs for one stream: stream 1's, then the side's. */
static void
send_results(struct peer *p, struct ctl_msg *m)
{
	char err[256];

	m->stream = 1;
	if (ctl_send(p->ctl, m, err, sizeof err) == -1)
		die(p, err);
	m->stream = 0;
	if (ctl_send(p->ctl, m, err, sizeof err) == -1)
		die(p, err);
}

/* A UDP socket connected to the echo, from addr (NULL: the control
 * connection's address), any port. */
static int
probe_socket(struct peer *p, const char *addr)
{
	struct sockaddr_storage from = p->local, to = p->remote;
	struct sockaddr_in *in = (struct sockaddr_in *)&from;
	char err[256];
	int fd;

	if (addr != NULL) {
		if (p->family != AF_INET)
			die(p, "another address: IPv4 only");
		memset(&from, 0, sizeof from);
		in->sin_family = AF_INET;
		if (inet_pton(AF_INET, addr, &in->sin_addr) != 1)
			die(p, "bad address");
	}
	fd = net_bind_like(&from, SOCK_DGRAM, err, sizeof err);
	if (fd == -1)
		die(p, err);
	net_set_port(&to, p->echo_port);
	if (connect(fd, (struct sockaddr *)&to, sizeof to) == -1)
		die(p, strerror(errno));
	return fd;
}

/* probes=N,lowport: a probe socket on a privileged port of this address
 * (the first free one from 1000 down; needs root), as a spoofed request
 * from a service's port would come. */
static int
lowport_socket(struct peer *p)
{
	struct sockaddr_storage from = p->local, to = p->remote;
	int fd = socket(from.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0), port;

	if (fd == -1)
		die(p, strerror(errno));
	for (port = 1000; port >= 600; port--) {
		net_set_port(&from, (uint16_t)port);
		if (bind(fd, (struct sockaddr *)&from, sizeof from) == 0)
			break;
	}
	if (port < 600)
		die(p, "no free privileged port (lowport needs root)");
	net_set_port(&to, p->echo_port);
	if (connect(fd, (struct sockaddr *)&to, sizeof to) == -1)
		die(p, strerror(errno));
	return fd;
}

/* Send one probe of kind k ("ok", "badnonce", "big", "short") on fd.
 * Returns 0, or -1 with errno (ECONNREFUSED: nothing listens). */
static int
send_probe(struct peer *p, int fd, const char *k)
{
	struct probe q = { .kind = PROBE_REQ, .seq = p->probe_seq++ };
	uint8_t b[1400] = { 0 };
	size_t n = PROBE_LEN;

	memcpy(q.nonce, p->nonce, PROBE_NONCE_LEN);
	if (strcmp(k, "badnonce") == 0)
		q.nonce[5] ^= 0x40;
	q.t_send_ns = (uint64_t)mono_now();
	probe_encode(&q, b);
	if (strcmp(k, "big") == 0)
		n = sizeof b;
	else if (strcmp(k, "short") == 0)
		n = 20;
	return send(fd, b, n, 0) == (ssize_t)n ? 0 : -1;
}

/* b[0..n) is the echo's cookie (GPUC)? With answer, its echo goes back
 * on fd (the return path's validation, partner_echo.h). */
static int
cookie_in(int fd, const uint8_t *b, size_t n, int answer)
{
	struct wire_cookie k;
	uint8_t out[CECHO_BASE_LEN];

	if (wire_gpuc_decode(b, n, n, &k) != WIRE_OK)
		return 0;
	if (answer) {
		wire_gpuk_encode(out, sizeof out, &k);
		(void)send(fd, out, sizeof out, 0);
	}
	return 1;
}

static uint64_t cookies_seen;   /* by count_echoes, for its caller's line */

/* Echoes on fd until want came or PROBE_WAIT_MS passed without one; a
 * cookie is counted apart (cookies_seen) and, with answer, echoed. */
static uint64_t
count_echoes(int fd, uint64_t want, size_t *minl, size_t *maxl, int answer)
{
	uint64_t got = 0;
	uint8_t b[2048];

	cookies_seen = 0;
	while (got < want && net_wait_readable(fd, -1, PROBE_WAIT_MS, NULL) == 1) {
		ssize_t n = recv(fd, b, sizeof b, MSG_DONTWAIT);

		if (n < 0)
			continue;               /* an ICMP error: nothing */
		if (cookie_in(fd, b, (size_t)n, answer)) {
			cookies_seen++;
			continue;
		}
		got++;
		if (*minl == 0 || (size_t)n < *minl)
			*minl = (size_t)n;
		if ((size_t)n > *maxl)
			*maxl = (size_t)n;
	}
	return got;
}

static void
step_probes(struct peer *p, const char *arg)
{
	char kind[16];
	unsigned long n, i;
	size_t minl = 0, maxl = 0;
	uint64_t got;
	int fd;

	if (sscanf(arg, "%lu,%15s", &n, kind) != 2)
		die(p, "want probes=N,KIND");
	if (strcmp(kind, "stranger") == 0 || strcmp(kind, "forged") == 0)
		fd = probe_socket(p, NULL);
	else if (strcmp(kind, "lowport") == 0)
		fd = lowport_socket(p);
	else if (strcmp(kind, "other") == 0)
		fd = probe_socket(p, "127.0.0.2");
	else if (p->probe_fd == -1)
		fd = p->probe_fd = probe_socket(p, NULL);
	else
		fd = p->probe_fd;
	for (i = 0; i < n; i++)
		if (send_probe(p, fd, strcmp(kind, "stranger") == 0 ||
		    strcmp(kind, "forged") == 0 || strcmp(kind, "other") == 0 ||
		    strcmp(kind, "lowport") == 0 ?
		    "ok" : kind) == -1)
			die(p, strerror(errno));
	got = count_echoes(fd, n, &minl, &maxl, fd == p->probe_fd);
	printf("ok probes %s sent %lu echoes %llu min %zu max %zu cookies %llu\n",
	       kind, n, (unsigned long long)got, minl, maxl,
	       (unsigned long long)cookies_seen);
	if (fd != p->probe_fd)
		close(fd);
}

/* validate: the probe socket's return path, as the client does: a request
 * every 200 ms (2 s at most) until the echo's cookie comes; it is echoed */
static void
step_validate(struct peer *p)
{
	uint8_t b[2048];
	int i;

	if (p->probe_fd == -1)
		p->probe_fd = probe_socket(p, NULL);
	for (i = 0; i < 10; i++) {
		if (send_probe(p, p->probe_fd, "ok") == -1)
			die(p, strerror(errno));
		while (net_wait_readable(p->probe_fd, -1, 200, NULL) == 1) {
			ssize_t n = recv(p->probe_fd, b, sizeof b, MSG_DONTWAIT);

			if (n >= 0 && cookie_in(p->probe_fd, b, (size_t)n, 1)) {
				printf("ok validate after %d requests\n", i + 1);
				return;
			}
		}
	}
	die(p, "no cookie from the echo in 2 s");
}

static void
step_closed(struct peer *p)
{
	mono_ns deadline = mono_now() + 5000000000ull;
	size_t minl = 0, maxl = 0;
	uint64_t echoes = 0, got;
	uint8_t b[2048];
	ssize_t n;
	int i, refused = 0;

	if (p->probe_fd == -1)
		die(p, "no probe socket yet");
	close(p->ctl);
	p->ctl = -1;
	while (!refused) {              /* until the port is closed */
		if (mono_now() >= deadline)
			die(p, "the echo's port stayed open 5 s after the session");
		if (send_probe(p, p->probe_fd, "ok") == -1) {
			if (errno != ECONNREFUSED)
				die(p, strerror(errno));
			refused = 1;
		}
		while (!refused && net_wait_readable(p->probe_fd, -1, 20, NULL) == 1) {
			if ((n = recv(p->probe_fd, b, sizeof b, MSG_DONTWAIT)) >= 0)
				echoes++;
			else if (errno == ECONNREFUSED)
				refused = 1;
		}
	}
	while (recv(p->probe_fd, b, sizeof b, MSG_DONTWAIT) >= 0)
		echoes++;               /* any that came before the refusal */
	for (i = 0; i < 5; i++)
		if (send_probe(p, p->probe_fd, "ok") == -1 && errno != ECONNREFUSED)
			die(p, strerror(errno));
	got = count_echoes(p->probe_fd, 5, &minl, &maxl, 1);
	printf("ok closed echoes %llu then %llu\n", (unsigned long long)echoes,
	       (unsigned long long)got);
}

static void
put_msg(struct peer *p, const struct ctl_msg *m)
{
	char err[256];

	if (ctl_send(p->ctl, m, err, sizeof err) == -1)
		die(p, err);
}

/* The echo's child: answer each probe with READY's nonce, stamped stamp
 * (real: CLOCK_REALTIME, as a partner does), until TIMEOUT_MS pass or the
 * parent ends. */
static void
echo_child(struct peer *p, int fd, int real, uint64_t stamp)
{
	mono_ns end = mono_now() + (mono_ns)TIMEOUT_MS * 1000000u;

	(void)prctl(PR_SET_PDEATHSIG, SIGTERM);
	while (mono_now() < end) {
		uint8_t b[PROBE_LEN + 1];
		struct sockaddr_storage from;
		socklen_t fl = sizeof from;
		struct pollfd pf = { fd, POLLIN, 0 };
		struct timespec ts;
		ssize_t n;

		if (poll(&pf, 1, 1000) <= 0)
			continue;
		n = recvfrom(fd, b, sizeof b, 0, (struct sockaddr *)&from, &fl);
		clock_gettime(CLOCK_REALTIME, &ts);
		if (n > 0 && probe_make_echo(b, (size_t)n, p->nonce, real ?
		    (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec :
		    stamp) == 0)
			(void)sendto(fd, b, (size_t)n, 0, (struct sockaddr *)&from, fl);
	}
	_exit(0);
}

/* echo=STAMP (partner, after sendready, for --latency): an echo of its
 * own, announced by ECHOPORT, whose every echo carries the stamp STAMP ns
 * (or real: the real-time clock's), in a child process. */
static void
step_echo(struct peer *p, const char *arg)
{
	struct ctl_msg m = { .type = CTL_ECHOPORT };
	char err[256];
	int fd = net_bind_like(&p->local, SOCK_DGRAM, err, sizeof err);
	pid_t pid;

	if (fd == -1)
		die(p, err);
	m.echo_port = net_local_port(fd);
	fflush(stdout);
	if ((pid = fork()) == -1)
		die(p, strerror(errno));
	if (pid == 0)
		echo_child(p, fd, strcmp(arg, "real") == 0,
		    strtoull(arg, NULL, 10));
	close(fd);
	if (ctl_send(p->ctl, &m, err, sizeof err) == -1)
		die(p, err);
	printf("ok echo %u\n", m.echo_port);
}

/* INTERVAL k of stream 1 from start to end with bytes b. */
static void
put_ival(struct peer *p, uint32_t k, uint64_t start, uint64_t end, uint64_t b,
         uint32_t flags)
{
	struct ctl_msg m = { .type = CTL_INTERVAL, .stream = 1, .ival_index = k };

	m.ival.start_ns = start;
	m.ival.end_ns = end;
	m.ival.bytes = b;
	m.ival.calls = b ? 1 : 0;
	m.ival.flags = flags;
	put_msg(p, &m);
}

/* "ok lie KIND" as soon as the lying message is sent: the client may close
 * the connection on it before the rest can be sent. */
static int lie_told;

static void
told(const char *kind)
{
	printf("ok lie %s\n", kind);
	lie_told = 1;
}

/* lie=KIND: what a partner sends after its transfer, honest for what moved
 * (the sender's whole stream, or what drain took in) but for one field;
 * "ok lie KIND" once the lie is out, "ok results" after the RESULTs. */
static void
step_lie(struct peer *p, const char *kind)
{
	const struct xfer_params *x = &p->params.params;
	int send = x->role == ROLE_SEND, udp = is_udp(p);
	struct ctl_msg m;

	memset(&m, 0, sizeof m);
	m.type = CTL_RESULT;
	m.result.bytes = send ? x->data_bytes : p->got_bytes;
	m.result.dgrams = !udp ? 0 : send ? xfer_data_calls(x) : p->got_dgrams;
	m.result.calls = udp ? m.result.dgrams + (send ? MARKER_COUNT : 0) :
	    (m.result.bytes + x->len - 1) / x->len;
	m.result.real_ns = 100000;
	m.end_ns = 100000;
	if (udp && !send)
		m.result.flags = RES_MARKER;
	if (strcmp(kind, "wrap") == 0 || strcmp(kind, "overlap") == 0) {
		int wrap = kind[0] == 'w';

		put_ival(p, 0, 0, 1000, wrap ? UINT64_MAX - 999 : m.result.bytes, 0);
		if (wrap)
			told(kind);
		put_ival(p, 1, wrap ? 1000 : 500, 2000, wrap ? m.result.bytes +
		    1000 : 0, IVAL_LAST);
		if (!wrap)
			told(kind);
	} else if (strcmp(kind, "cpu") == 0) {
		m.result.real_ns = 1;
		m.result.cpu_ns = UINT64_MAX;
	} else if (strcmp(kind, "real") == 0) {
		m.result.real_ns = (uint64_t)1 << 63;
	} else if (strcmp(kind, "fewer") == 0) {
		m.result.dgrams = 1;
		m.result.calls = 1 + MARKER_COUNT;
		m.result.bytes = x->len;
	} else if (strcmp(kind, "stopped") == 0) {
		m.result.flags |= RES_STOPPED;  /* and TCP's bytes need not match */
		m.result.bytes = 1;
		m.result.calls = 1;
	} else if (strcmp(kind, "none") == 0) {       /* honest: 0.5 s */
		m.result.real_ns = m.end_ns = 500000000;
	} else if (strcmp(kind, "nothing") == 0) {    /* honest, for once */
		m.result.bytes = m.result.calls = m.result.dgrams = 0;
	} else if (strcmp(kind, "calls") == 0) {
		m.result.calls = UINT64_MAX;
	} else if (strcmp(kind, "fast") == 0) {
		m.result.real_ns = 1;
		m.end_ns = 1;
	} else if (strcmp(kind, "bufs") == 0) {
		m.result.flags |= RES_BUFS;
		m.result.sndbuf = 1u << 31;
	} else if (strcmp(kind, "echostats") == 0 ||
	    strcmp(kind, "echotwice") == 0) {
		struct ctl_msg e = { .type = CTL_ECHOSTATS };

		if (kind[4] == 't') {           /* a first that fits any run */
			e.echo.received = e.echo.echoed = 1000000;
			put_msg(p, &e);
		}
		put_msg(p, &e);
		told(kind);
	} else if (strncmp(kind, "hostudp", 7) == 0) {
		struct ctl_msg h = { .type = CTL_HOSTUDP };

		h.hostudp.rcvbuf_errors = h.hostudp.in_errors = 1;
		if (strcmp(kind + 7, "big") == 0)
			h.hostudp.rcvbuf_errors = HOSTUDP_MAX;
		if (strcmp(kind + 7, "twice") == 0)
			put_msg(p, &h);
		put_msg(p, &h);
		told(kind);
	} else if (strcmp(kind, "ivcalls") == 0) {
		struct ctl_msg iv = { .type = CTL_INTERVAL, .stream = 1 };

		iv.ival.end_ns = 1000;
		iv.ival.bytes = m.result.bytes;
		iv.ival.calls = UINT64_MAX;
		iv.ival.flags = IVAL_LAST;
		put_msg(p, &iv);
		told(kind);
	} else if (strcmp(kind, "retrans") == 0 || strcmp(kind, "rate") == 0 ||
	    strcmp(kind, "ce") == 0 || (udp && strcmp(kind, "tcpinfo") == 0)) {
		struct ctl_msg t = { .type = CTL_TCPINFO, .stream = 1 };

		int ce = strcmp(kind, "ce") == 0;

		t.tcp.retrans = strcmp(kind, "retrans") == 0 ? UINT64_MAX : 0;
		t.tcp.delivery_rate = strcmp(kind, "rate") == 0 ? UINT64_MAX : 0;
		t.tcp.received_ce_bytes = ce ? (uint32_t)((x->data_bytes + 18) *
		    65 + 1) : 0;
		t.tcp.ecn = ce ? TCPS_ECN | TCPS_ECN_RECEIVED : 0;
		t.tcp.mss = 1448;
		put_msg(p, &t);
		told(kind);
	} else if (!udp && strcmp(kind, "udpstats") == 0) {
		struct ctl_msg u = { .type = CTL_UDPSTATS, .stream = 1 };

		put_msg(p, &u);
		told(kind);
	} else if (udp && !send) {
		struct ctl_msg u = { .type = CTL_UDPSTATS, .stream = 1 };

		u.udp.received = u.udp.unique = p->got_dgrams;
		u.udp.flags = UDPS_SEQ | UDPS_TIMED;
		if (strcmp(kind, "jitter") == 0)
			u.udp.jitter_ns = 18000000000000000ULL;
		else if (strcmp(kind, "owd") == 0)
			u.udp.owd_min_ns = u.udp.owd_mean_ns = -9200000000000000LL;
		else if (strcmp(kind, "unique") == 0)
			u.udp.received = u.udp.unique = xfer_data_calls(x) + 1;
		else if (strcmp(kind, "dups") == 0)
			u.udp.received = p->got_dgrams + (u.udp.duplicates =
			    (uint64_t)1 << 62);
		else
			die(p, "no such lie");
		put_msg(p, &u);
		told(kind);
	} else {
		die(p, "no such lie");
	}
	m.stream = 1;                   /* the stream's RESULT, then the side's */
	put_msg(p, &m);
	if (!lie_told)
		told(kind);
	m.stream = 0;
	put_msg(p, &m);
	printf("ok results\n");
}

/* ivals=N: zero-length intervals, as many as asked or until the client
 * goes away. */
static void
step_ivals(struct peer *p, uint64_t n)
{
	struct ctl_msg m = { .type = CTL_INTERVAL, .stream = 1 };
	char err[256], why[400];
	uint64_t k;

	for (k = 0; k < n; k++) {
		m.ival_index = (uint32_t)k;
		if (ctl_send(p->ctl, &m, err, sizeof err) == -1) {
			snprintf(why, sizeof why, "sent %llu of %llu: %s",
			         (unsigned long long)k, (unsigned long long)n, err);
			die(p, why);
		}
	}
	printf("ok ivals %llu\n", (unsigned long long)n);
}

static void
run_step(struct peer *p, const char *s)
{
	struct ctl_msg m;
	char err[256];

	p->step = s;
	if (strncmp(s, "raw=", 4) == 0) {
		uint8_t buf[1024];
		size_t n = unescape(s + 4, buf, sizeof buf);

		if (send(p->ctl, buf, n, MSG_NOSIGNAL) != (ssize_t)n)
			die(p, strerror(errno));
		printf("ok raw %zu\n", n);
	} else if (strncmp(s, "group=", 6) == 0) {
		set_group(p, s + 6);
	} else if (strcmp(s, "put=badresult") == 0) {
		memset(&m, 0, sizeof m);
		m.type = CTL_RESULT;
		m.result.bytes = p->params.params.data_bytes;
		m.result.calls = xfer_data_calls(&p->params.params);
		m.result.real_ns = 1000000;     /* only its bad bytes impossible */
		m.result.verify_bad = UINT64_MAX;
		m.result.flags = RES_VERIFIED;
		send_results(p, &m);
		printf("ok put badresult\n");
	} else if (strncmp(s, "lie=", 4) == 0) {
		step_lie(p, s + 4);
	} else if (strncmp(s, "ivals=", 6) == 0) {
		step_ivals(p, strtoull(s + 6, NULL, 10));
	} else if (strncmp(s, "sendseq=", 8) == 0) {
		step_sendseq(p, s + 8);
	} else if (strncmp(s, "dribble=", 8) == 0) {
		step_dribble(p, s + 8);
	} else if (strcmp(s, "put=sendresult") == 0) {
		const struct xfer_params *x = &p->params.params;

		memset(&m, 0, sizeof m);
		m.type = CTL_RESULT;
		m.result.bytes = x->data_bytes;
		m.result.dgrams = xfer_data_calls(x);
		m.result.calls = m.result.dgrams + MARKER_COUNT;
		m.result.real_ns = 1000000;
		send_results(p, &m);
		printf("ok put sendresult\n");
	} else if (strcmp(s, "sendmore") == 0) {
		p->params.params.data_bytes += p->params.params.len;
		p->params.params.count++;
		step_send(p, UINT64_MAX);
	} else if (strncmp(s, "put=", 4) == 0) {
		memset(&m, 0, sizeof m);
		m.type = strcmp(s + 4, "ready") == 0 ? CTL_READY :
		    strcmp(s + 4, "result") == 0 ? CTL_RESULT :
		    strcmp(s + 4, "start") == 0 ? CTL_START :
		    strcmp(s + 4, "stop") == 0 ? CTL_STOP : 0;
		if (m.type == 0)
			die(p, "put= takes ready, result, start or stop");
		m.port[0] = 1;
		m.nports = 1;
		if (ctl_send(p->ctl, &m, err, sizeof err) == -1)
			die(p, err);
		printf("ok put %s\n", ctl_type_name(m.type));
	} else if (strcmp(s, "hello") == 0) {
		if (ctl_recv_type(p->ctl, CTL_HELLO, &m, TIMEOUT_MS, NULL, err,
		    sizeof err) == -1)
			die(p, err);
		memcpy(p->challenge, m.challenge, sizeof p->challenge);
		printf("ok hello %s\n", m.hello_flags & CTL_HELLO_KEY ? "key" : "open");
	} else if (strncmp(s, "key=", 4) == 0) {
		if (auth_key_load(s + 4, &p->key, err, sizeof err) == -1)
			die(p, err);
		p->have_key = 1;
		printf("ok key\n");
	} else if (strncmp(s, "latency=", 8) == 0) {
		if (sscanf(s + 8, "%u,%u", &p->lat_us, &p->lat_ms) != 2)
			die(p, "want latency=US,MS");
		printf("ok latency\n");
	} else if (strncmp(s, "echo=", 5) == 0) {
		step_echo(p, s + 5);
	} else if (strcmp(s, "echoport") == 0) {
		if (ctl_recv_type(p->ctl, CTL_ECHOPORT, &m, TIMEOUT_MS, NULL, err,
		    sizeof err) == -1)
			die(p, err);
		p->echo_port = m.echo_port;
		printf("ok echoport %u\n", m.echo_port);
	} else if (strncmp(s, "probes=", 7) == 0) {
		step_probes(p, s + 7);
	} else if (strcmp(s, "validate") == 0) {
		step_validate(p);
	} else if (strcmp(s, "closed") == 0) {
		step_closed(p);
	} else if (strncmp(s, "params=", 7) == 0) {
		step_params(p, s + 7);
	} else if (strcmp(s, "ready") == 0) {
		if (ctl_recv_type(p->ctl, CTL_READY, &m, TIMEOUT_MS, NULL, err,
		    sizeof err) == -1)
			die(p, err);
		p->data_port = m.port[0];
		memcpy(p->nonce, m.nonce, sizeof p->nonce);
		printf("ok ready %u\n", m.port[0]);
	} else if (strncmp(s, "batch=", 6) == 0) {
		p->batch = (unsigned)strtoul(s + 6, NULL, 10);
		printf("ok batch\n");
	} else if (strcmp(s, "zerocopy") == 0) {
		p->zerocopy = 1;
		printf("ok zerocopy\n");
	} else if (strncmp(s, "streams=", 8) == 0) {
		p->streams = (unsigned)strtoul(s + 8, NULL, 10);
		printf("ok streams\n");
	} else if (strcmp(s, "nocookie") == 0) {
		p->nocookie = 1;
		printf("ok nocookie\n");
	} else if (strcmp(s, "data") == 0 || strcmp(s, "data=bad") == 0) {
		step_data(p, strcmp(s, "data=bad") == 0);
	} else if (strcmp(s, "start") == 0) {
		if (ctl_recv_type(p->ctl, CTL_START, &m, TIMEOUT_MS, NULL, err,
		    sizeof err) == -1)
			die(p, err);
		printf("ok start\n");
	} else if (strcmp(s, "sendhello") == 0) {
		memset(&m, 0, sizeof m);
		m.type = CTL_HELLO;
		if (ctl_send(p->ctl, &m, err, sizeof err) == -1)
			die(p, err);
		printf("ok sendhello\n");
	} else if (strcmp(s, "getparams") == 0) {
		if (ctl_recv_type(p->ctl, CTL_PARAMS, &p->params, TIMEOUT_MS, NULL, err,
		    sizeof err) == -1)
			die(p, err);
		printf("ok getparams xflags 0x%x\n", p->params.params.xflags);
	} else if (strcmp(s, "oldparams") == 0) {
		step_oldparams(p);
	} else if (strcmp(s, "sendready") == 0) {
		step_sendready(p);
	} else if (strcmp(s, "acceptdata") == 0) {
		step_acceptdata(p);
	} else if (strcmp(s, "send") == 0) {
		step_send(p, UINT64_MAX);
	} else if (strncmp(s, "send=", 5) == 0) {
		step_send(p, strtoull(s + 5, NULL, 10));
	} else if (strcmp(s, "drain") == 0) {
		step_drain(p);
	} else if (strcmp(s, "closedata") == 0) {
		close(p->data);
		p->data = -1;
		printf("ok closedata\n");
	} else if (strcmp(s, "readable") == 0) {
		if (net_wait_readable(p->ctl, -1, TIMEOUT_MS, NULL) != 1)
			die(p, "timed out");
		printf("ok readable\n");
	} else if (strcmp(s, "result") == 0) {
		do                              /* the streams', then the side's */
			if (ctl_recv_type(p->ctl, CTL_RESULT, &m, TIMEOUT_MS, NULL, err,
			    sizeof err) == -1)
				die(p, err);
		while (m.stream != 0);
		printf("ok result %llu\n", (unsigned long long)m.result.bytes);
	} else if (strcmp(s, "error") == 0) {
		if (ctl_recv_type(p->ctl, CTL_ERROR, &m, TIMEOUT_MS, NULL, err,
		    sizeof err) == -1)
			die(p, err);
		printf("ok error %s\n", m.text);
	} else if (strcmp(s, "hold") == 0) {
		printf("ok hold\n");
		poll(NULL, 0, TIMEOUT_MS);
	} else if (strcmp(s, "eof") == 0) {
		step_eof(p);
	} else if (strcmp(s, "close") == 0) {
		close(p->ctl);
		p->ctl = -1;
		printf("ok close\n");
	} else {
		die(p, "unknown step");
	}
}

/* partner mode: a listening socket on the loopback address, port 0. */
static int
listen_loopback(struct peer *p)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof ss;
	int fd;

	memset(&ss, 0, sizeof ss);
	ss.ss_family = (sa_family_t)p->family;
	if (p->family == AF_INET6)
		((struct sockaddr_in6 *)&ss)->sin6_addr = in6addr_loopback;
	else
		((struct sockaddr_in *)&ss)->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(p->family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd == -1 || bind(fd, (struct sockaddr *)&ss, sizeof ss) == -1 ||
	    listen(fd, 4) == -1 || getsockname(fd, (struct sockaddr *)&ss, &sl) == -1)
		die(p, strerror(errno));
	printf("ok listen port %u\n", net_port(&ss));
	return fd;
}

/* inetd or activate: run argv[0..] the way inetd or systemd would. */
static int
spawn(struct peer *p, int inetd, char **argv)
{
	char err[256], pid[32];
	int lfd = listen_loopback(p), fd = lfd, st;
	pid_t c;

	if (inetd) {
		p->step = "accept";
		fd = net_accept_from(lfd, NULL, -1, TIMEOUT_MS, NULL, err, sizeof err);
		if (fd < 0)
			die(p, err);
	}
	fflush(stdout);
	if ((c = fork()) == 0) {
		int to = inetd ? 0 : 3;

		/* dup2 clears close-on-exec on the copy; fd already there keeps it */
		if (fd == to ? fcntl(fd, F_SETFD, 0) == -1 : dup2(fd, to) == -1)
			_exit(127);
		if (!inetd) {
			snprintf(pid, sizeof pid, "%ld", (long)getpid());
			setenv("LISTEN_PID", pid, 1);
			setenv("LISTEN_FDS", "1", 1);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fd);
	if (c == -1 || waitpid(c, &st, 0) == -1)
		die(p, strerror(errno));
	printf("ok exit %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
	return 0;
}

/* -s: a connection from address src to loopback port (blocking: loopback
 * answers at once). Returns the socket, or -1 with err. */
static int
connect_from(int family, const char *src, uint16_t port, char *err, size_t errlen)
{
	struct sockaddr_storage s, d;
	socklen_t len = family == AF_INET6 ? sizeof(struct sockaddr_in6) :
	    sizeof(struct sockaddr_in);
	int fd;

	memset(&s, 0, sizeof s);
	memset(&d, 0, sizeof d);
	s.ss_family = d.ss_family = (sa_family_t)family;
	if (family == AF_INET6) {
		((struct sockaddr_in6 *)&d)->sin6_port = htons(port);
		((struct sockaddr_in6 *)&d)->sin6_addr = in6addr_loopback;
		if (inet_pton(AF_INET6, src, &((struct sockaddr_in6 *)&s)->sin6_addr) != 1)
			fd = -2;
		else
			fd = 0;
	} else {
		((struct sockaddr_in *)&d)->sin_port = htons(port);
		((struct sockaddr_in *)&d)->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		fd = inet_pton(AF_INET, src, &((struct sockaddr_in *)&s)->sin_addr) != 1 ?
		    -2 : 0;
	}
	if (fd == -2) {
		snprintf(err, errlen, "bad -s address '%s'", src);
		return -1;
	}
	if ((fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1 ||
	    bind(fd, (struct sockaddr *)&s, len) == -1 ||
	    connect(fd, (struct sockaddr *)&d, len) == -1) {
		snprintf(err, errlen, "connect from %s: %s", src, strerror(errno));
		if (fd != -1)
			close(fd);
		return -1;
	}
	return fd;
}

int
main(int argc, char **argv)
{
	struct peer p = { .ctl = -1, .data = -1, .lfd = -1, .family = AF_INET,
	    .ctl_lfd = -1, .probe_fd = -1, .step = "start" };
	socklen_t sl = sizeof p.local, rl = sizeof p.remote;
	char err[256], *end;
	const char *src = NULL;
	int i = 1, partner = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (i < argc && strcmp(argv[i], "-6") == 0) {
		p.family = AF_INET6;
		i++;
	}
	if (i + 1 < argc && strcmp(argv[i], "-s") == 0) {
		src = argv[i + 1];
		i += 2;
	}
	if (i + 1 < argc && (strcmp(argv[i], "inetd") == 0 ||
	    strcmp(argv[i], "activate") == 0))
		return spawn(&p, strcmp(argv[i], "inetd") == 0, argv + i + 1);
	if (i + 1 < argc && strcmp(argv[i], "client") == 0) {
		unsigned long port = strtoul(argv[i + 1], &end, 10);

		p.step = "connect";
		if (*end != '\0' || port == 0 || port > 65535)
			die(&p, "bad port");
		p.ctl = src != NULL ? connect_from(p.family, src, (uint16_t)port,
		    err, sizeof err) :
		    net_connect(p.family == AF_INET6 ? "::1" : "127.0.0.1",
		    (uint16_t)port, p.family, TIMEOUT_MS, NULL, err, sizeof err);
		if (p.ctl == -1)
			die(&p, err);
		i += 2;
	} else if (i < argc && strcmp(argv[i], "partner") == 0) {
		int lfd = listen_loopback(&p);

		p.step = "accept";
		p.ctl = net_accept_from(lfd, NULL, -1, TIMEOUT_MS, NULL, err, sizeof err);
		if (p.ctl < 0)
			die(&p, err);
		p.ctl_lfd = lfd;                /* oldparams accepts again */
		partner = 1;
		i++;
	} else {
		fprintf(stderr, "usage: ctlpeer [-6] client PORT STEP... | "
		        "ctlpeer [-6] partner STEP...\n");
		return 2;
	}
	if (getsockname(p.ctl, (struct sockaddr *)&p.local, &sl) == -1 ||
	    getpeername(p.ctl, (struct sockaddr *)&p.remote, &rl) == -1)
		die(&p, strerror(errno));
	if (partner)
		printf("ok accept from port %u\n", net_port(&p.remote));
	else
		printf("ok connect from port %u\n", net_port(&p.local));
	for (; i < argc; i++)
		run_step(&p, argv[i]);
	return 0;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/* partner_open.c: a session's data sockets, opened and proved: READY,
 * the client's proofs of its addresses, and for UDP that this partner
 * sends, the return path validated. */
#include "partner_open.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ecn.h"
#include "mcast.h"
#include "partner_limits.h"
#include "partner_log.h"
#include "tcpinfo.h"
#include "xfer_markers.h"
#include "xfer_path.h"
#include "xfer_udp.h"

/* Why the client spoke or hung up while the session waited for something
 * else, into err. Returns 1 if it did. */
static int
client_left(const struct session *s, char *err, size_t errlen)
{
	char why[128];

	switch (ctl_peer_state(s->ctl, why, sizeof why)) {
	case CTL_PEER_QUIET:
		return 0;
	case CTL_PEER_CLOSED:
		snprintf(err, errlen, "the client closed the control connection");
		break;
	case CTL_PEER_FAILED:
		snprintf(err, errlen, "control connection: %s", why);
		break;
	case CTL_PEER_SPOKE:
		snprintf(err, errlen, "%s", why);
		break;
	}
	return 1;
}

static int
left_ms(const struct session *s)
{
	mono_ns now = mono_now();

	return now >= s->deadline ? 0 :
	    (int)((s->deadline - now + 999999) / 1000000);
}

/* TCP: accept from the client's address until a connection brings the
 * nonce and the number of a stream that has none yet; others are closed.
 * Returns the data socket with *id its stream (1..nst), or -1 with err. */
static int
prove_tcp(struct session *s, int lfd, uint32_t *id, char *err, size_t errlen)
{
	for (;;) {
		uint8_t got[CTL_NONCE_LEN + 2];
		int fd = net_accept_from(lfd, &s->peer, s->ctl, left_ms(s), s->stop,
		    err, errlen), r;

		if (fd == -2 && !client_left(s, err, errlen))
			snprintf(err, errlen, "control connection woke");
		if (fd < 0)
			return -1;
		r = net_read_full(fd, got, sizeof got, s->ctl, s->deadline, s->stop,
		    err, errlen);
		*id = ctl_data_hello_stream(got, sizeof got);
		if (r == 0 && memcmp(got, s->ready.nonce, CTL_NONCE_LEN) == 0 &&
		    *id >= 1 && *id <= s->nst && s->st[*id - 1].fd == -1)
			return fd;
		close(fd);
		if (r == -2) {
			if (!client_left(s, err, errlen))
				snprintf(err, errlen, "control connection woke");
			return -1;
		}
		if (r == -1 && left_ms(s) == 0) {
			snprintf(err, errlen, "timed out waiting for the data connection");
			return -1;
		}                               /* a stranger's connection: go on */
	}
}

/* UDP: wait for the proof datagram from the client's address; connect the
 * socket to where it came from, and drop whatever came before. Nothing is
 * ever sent to an address that has not proved it listens. */
static int
prove_udp(struct session *s, int fd, uint32_t id, char *err, size_t errlen)
{
	const struct xfer_params *p = &s->req.params;
	uint64_t strangers = 0;

	for (;;) {
		struct sockaddr_storage from;
		socklen_t fl = sizeof from;
		uint8_t b[PROOF_MAX_LEN + 1];
		ssize_t n;
		int w = net_wait_readable(fd, s->ctl, left_ms(s), s->stop);

		if (w == 0) {
			snprintf(err, errlen, "%s waiting for the client's proof "
			         "datagram of stream %u (%llu others ignored)",
			         stop_requested(s->stop) ? "interrupted" : "timed out", id,
			         (unsigned long long)strangers);
			return -1;
		}
		if (w == 2) {
			if (!client_left(s, err, errlen))
				snprintf(err, errlen, "control connection woke");
			return -1;
		}
		n = recvfrom(fd, b, sizeof b, MSG_DONTWAIT, (struct sockaddr *)&from, &fl);
		if (n < 0)
			continue;
		if (!net_same_addr(&from, &s->peer) ||
		    !xfer_proof_check(p, s->ready.nonce, (uint16_t)id, b, (size_t)n)) {
			strangers++;
			continue;
		}
		if (connect(fd, (struct sockaddr *)&from, fl) == -1) {
			snprintf(err, errlen, "connect UDP: %s", strerror(errno));
			return -1;
		}
		xfer_udp_drain(fd);
		return 0;
	}
}

/* UDP that this partner sends: the return path of stream id, its socket
 * fd connected to the proven address, validated before anything but the
 * cookie goes there (xfer_path.h). Returns 0 or -1 with err. */
static int
validate_udp(struct session *s, int fd, uint32_t id, char *err, size_t errlen)
{
	struct xfer_params wp = s->req.params;
	uint64_t sent;
	int r;

	wp.data_bytes = s->asked_bytes;         /* the lengths the client knows */
	r = xfer_path_validate(fd, &wp, s->ready.nonce, (uint16_t)id, s->ctl,
	    s->deadline, s->stop, &sent, err, errlen);
	if (r == -2 && !client_left(s, err, errlen))
		snprintf(err, errlen, "control connection woke");
	return r == 0 ? 0 : -1;
}

/* Send READY for the ports in s->ready, signed when there is a key. */
static int
send_ready(struct session *s, char *err, size_t errlen)
{
	const struct xfer_params *p = &s->req.params;
	uint8_t signed_bytes[CTL_SIGNED_MAX];
	struct ctl_msg ep = { .type = CTL_ECHOPORT };
	int lat = (p->xflags & CTL_XF_LATENCY) != 0;

	s->ready.type = CTL_READY;
	if (auth_random(s->ready.nonce, CTL_NONCE_LEN, err, errlen) == -1)
		return -1;
	if (s->key != NULL && auth_mac(s->key, "gput2 partner", signed_bytes,
	    ctl_signed_bytes(s->hello.challenge, &s->req, &s->ready, signed_bytes),
	    s->ready.mac) == -1) {
		snprintf(err, errlen, "HMAC failed");
		return -1;
	}
	if (lat && echo_open(&s->echo, &s->local, &s->peer, err, errlen) == -1)
		return -1;
	if (ctl_send(s->ctl, &s->ready, err, errlen) == -1)
		return -1;
	if (!lat)
		return 0;
	/* the echo answers only probes with READY's nonce; the idle phase
	 * holds the place only while they come */
	ep.echo_port = s->echo.port;
	echo_hold(&s->echo, s->stop, (uint64_t)PARTNER_HOLD_QUIET_MS * 1000000u);
	if (echo_start(&s->echo, s->ready.nonce, p->lat_interval_us, 1, err,
	    errlen) == -1)
		return -1;
	return ctl_send(s->ctl, &ep, err, errlen);
}

_Static_assert(NET_DATA_BACKLOG >= STREAM_MAX,
    "a test's streams connect at once: the data socket's backlog holds them");

/* TCP: one listening socket; every stream's connection proves itself. */
static int
open_tcp(struct session *s, char *err, size_t errlen)
{
	const struct xfer_params *p = &s->req.params;
	int lfd = net_bind_like(&s->local, SOCK_STREAM, err, errlen), rc = -1;
	uint32_t n, id;

	if (lfd == -1 || (p->window && net_set_window(lfd, p->window, 0, err,
	    errlen) == -1))
		goto out;
	s->ready.port[0] = net_local_port(lfd);
	s->ready.nports = 1;
	if (send_ready(s, err, errlen) == -1)
		goto out;
	for (n = 0; n < s->nst; n++) {
		int fd = prove_tcp(s, lfd, &id, err, errlen);

		if (fd == -1)
			goto out;
		s->st[id - 1].fd = fd;
	}
	rc = 0;
out:
	if (lfd != -1)
		close(lfd);
	return rc;
}

/* UDP: a socket per stream, each proved by its own datagram; one this
 * partner sends on (data, or --sliding-window's acknowledgements), its
 * return path validated too. */
static int
open_udp(struct session *s, char *err, size_t errlen)
{
	const struct xfer_params *p = &s->req.params;
	uint32_t i;

	for (i = 0; i < s->nst; i++) {
		int fd = net_bind_like(&s->local, SOCK_DGRAM, err, errlen);

		if (fd == -1)
			return -1;
		s->st[i].fd = fd;
		if ((p->window && net_set_window(fd, p->window, 0, err,
		    errlen) == -1) || (p->role == ROLE_RECV &&
		    xfer_udp_prepare_rx(fd, p, err, errlen) == -1) ||
		    ((p->xflags & CTL_XF_ECN) && (p->role == ROLE_SEND ?
		    ecn_udp_send_setup(fd, err, errlen) :
		    ecn_udp_recv_setup(fd, err, errlen)) == -1))
			return -1;
		s->ready.port[i] = net_local_port(fd);
	}
	s->ready.nports = (uint16_t)s->nst;
	if (send_ready(s, err, errlen) == -1)
		return -1;
	for (i = 0; i < s->nst; i++)
		if (prove_udp(s, s->st[i].fd, i + 1, err, errlen) == -1 ||
		    ((p->role == ROLE_SEND || (p->xflags & CTL_XF_WINDOW)) &&
		     validate_udp(s, s->st[i].fd, i + 1, err, errlen) == -1))
			return -1;
	return 0;
}

/* Multicast: one socket on the group, joined only where the control
 * connection arrived, taking only the client's datagrams; READY names the
 * agreed port. Nothing to prove: this side sends nothing. */
static int
open_mcast(struct session *s, char *err, size_t errlen)
{
	const struct mcast_group *g = &s->req.mcast;
	char a[NET_ADDRSTRLEN];
	int fd = mcast_receiver_open(g, &s->local, &s->peer, s->req.params.window,
	    err, errlen);

	if (fd == -1)
		return -1;
	s->st[0].fd = fd;
	if (xfer_udp_prepare(fd, err, errlen) == -1)
		return -1;
	plog("client %s: joined group %s port %u", s->who,
	     mcast_ntop(g, a, sizeof a), g->port);
	s->ready.port[0] = g->port;
	s->ready.nports = 1;
	return send_ready(s, err, errlen);
}

/* Open every stream's data socket, send READY, and wait for the client's
 * proofs. Returns 0, or -1 with err. */
int
partner_open_data(struct session *s, char *err, size_t errlen)
{
	const struct xfer_params *p = &s->req.params;
	/* the client's --peer-timeout: its data path may be silent as long */
	int more_ms = NET_PEER_EXTRA_MS(s->peer_s);
	uint32_t i;

	if ((p->proto == PROTO_TCP ? open_tcp : s->req.mcast.family ? open_mcast :
	    open_udp)(s, err, errlen) == -1)
		return -1;
	for (i = 0; i < s->nst; i++) {
		struct stream *st = &s->st[i];

		if (p->proto == PROTO_TCP && p->nodelay &&
		    net_set_nodelay(st->fd, err, errlen) == -1)
			return -1;
		/* the receiving end's congestion control governs no data: where
		 * an unprivileged partner may not pick it, it keeps the default
		 * (and TCPINFO says which) */
		if (p->proto == PROTO_TCP && st->p.cc[0] != '\0' &&
		    tcpinfo_set_cc(st->fd, st->p.cc, err, errlen) == -1 &&
		    (p->role == ROLE_SEND || errno != EPERM))
			return -1;
		/* the watcher ends a test without progress (partner_session.c,
		 * watch_setup); a send timeout as short would return the bytes
		 * a stalled receiver's kernel takes when pressed (a zero-window
		 * probe) as progress, and the watcher would see some */
		if (net_set_timeouts(st->fd, DATA_IDLE_TIMEOUT_MS + more_ms,
		    2 * (DATA_IDLE_TIMEOUT_MS + more_ms), err, errlen) == -1)
			return -1;
	}
	return 0;
}

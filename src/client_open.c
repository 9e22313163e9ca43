/* SPDX-License-Identifier: BSD-2-Clause */
/* client_open.c: a run's handshake and data path, up to START: HELLO,
 * PARAMS, READY, every stream's data socket and its proof, the partner's
 * cookies echoed. */
#include "client_open.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "client_wait.h"
#include "ecn.h"
#include "linkpred.h"
#include "net.h"
#include "tcpinfo.h"
#include "xfer_markers.h"
#include "xfer_path.h"
#include "xfer_udp.h"

/* How often the UDP proof datagram is sent again until START arrives. */
#define CLIENT_PROOF_MS 200

/* The partner's answer was ERROR (m) or the wait failed (why). */
static void
partner_said(struct run *r, const struct ctl_msg *m, const char *prefix,
             const char *why)
{
	if (m->type == CTL_ERROR) {
		snprintf(r->e.text, sizeof r->e.text, "%s%s", prefix, m->text);
		r->e.code = ctl_error_busy(m) ? RUN_ERR_BUSY : RUN_ERR_PARTNER;
	} else {
		snprintf(r->e.text, sizeof r->e.text, "%s", why);
	}
}

/* Does the partner send UDP (data, or --sliding-window's
 * acknowledgements), and so validate its return path with a cookie per
 * stream that this client echoes (xfer_path.h)? */
static int
cookies_due(const struct run *r)
{
	return r->rp.proto == PROTO_UDP && (r->rp.role == ROLE_SEND ||
	    (r->rp.xflags & CTL_XF_WINDOW));
}

/* HELLO, PARAMS, READY: the test agreed, both ends authenticated when a key
 * is in use. Returns 0 or -1. */
int
client_handshake(struct run *r)
{
	uint8_t sb[CTL_SIGNED_MAX];
	char why[CLIENT_WHY_LEN];
	size_t n;

	if (ctl_recv_type(r->ctl, CTL_HELLO, &r->hello, CLIENT_CTL_MS(r->c),
	    r->stop, why, sizeof why) == -1) {
		partner_said(r, &r->hello, "partner refused the test: ", why);
		return -1;
	}
	if ((r->hello.hello_flags & CTL_HELLO_KEY) && !r->have_key) {
		snprintf(r->e.text, sizeof r->e.text, "the partner requires the shared "
		         "secret: give it with --key-file");
		return -1;
	}
	if (!(r->hello.hello_flags & CTL_HELLO_KEY) && r->have_key) {
		snprintf(r->e.text, sizeof r->e.text, "the partner does not check the "
		         "shared secret, so it cannot prove it knows it (--key-file)");
		return -1;
	}
	/* a UDP receiving partner: its host's drop counters (HOSTUDP), taken
	 * by the checks (plaus_hostudp) as asked */
	if (r->rp.proto == PROTO_UDP && r->rp.role == ROLE_RECV &&
	    !r->hostudp_off)
		r->rp.xflags |= CTL_XF_HOSTUDP;
	else
		r->rp.xflags &= ~CTL_XF_HOSTUDP;
	r->params.type = CTL_PARAMS;
	r->params.params = r->rp;
	if (cookies_due(r))                     /* this client echoes them */
		r->params.params.xflags |= CTL_XF_COOKIE;
	n = ctl_signed_bytes(r->hello.challenge, &r->params, NULL, sb);
	if (r->have_key && auth_mac(&r->key, "gput2 client", sb, n,
	    r->params.mac) == -1) {
		snprintf(r->e.text, sizeof r->e.text, "HMAC failed");
		return -1;
	}
	if (ctl_send(r->ctl, &r->params, why, sizeof why) == -1 ||
	    ctl_recv_type(r->ctl, CTL_READY, &r->ready, CLIENT_CTL_MS(r->c),
	    r->stop, why, sizeof why) == -1) {
		partner_said(r, &r->ready, "partner refused the test: ", why);
		return -1;
	}
	n = ctl_signed_bytes(r->hello.challenge, &r->params, &r->ready, sb);
	if (r->have_key && !auth_verify(&r->key, "gput2 partner", sb, n,
	    r->ready.mac)) {
		snprintf(r->e.text, sizeof r->e.text, "the partner failed to prove it "
		         "knows the shared secret (--key-file)");
		return -1;
	}
	return 0;
}

/* UDP: every stream's proof datagram from its socket. Returns 0 or -1. */
static int
send_proofs(struct run *r)
{
	uint8_t proof[PROOF_MAX_LEN];
	uint32_t i;

	for (i = 0; i < r->nst; i++) {
		size_t plen = xfer_proof_encode(&r->lp, r->ready.nonce,
		    (uint16_t)(i + 1), proof);

		if (send(r->st[i].fd, proof, plen, MSG_NOSIGNAL) == -1 &&
		    errno != ECONNREFUSED && errno != ENOBUFS) {
			snprintf(r->e.text, sizeof r->e.text, "sending the proof datagram "
			         "of stream %u: %s", i + 1, strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* Wait until the control connection is readable, at most until `until`,
 * echoing the partner's cookies meanwhile (cookies_due): a stream whose
 * socket holds something else (the partner's data, START on its way) is
 * left to its receiver (quiet). Returns 1 (the control connection), 0 (the
 * time, or ^C) or -1 (r->e.text). */
static int
wait_echoing(struct run *r, mono_ns until, uint8_t *quiet)
{
	struct pollfd pfd[STREAM_MAX + 2];
	uint32_t i, k[STREAM_MAX];
	nfds_t n = 2;
	uint64_t echoed = 0;
	mono_ns now = mono_now();
	int rc;

	if (now >= until)
		return 0;
	pfd[0] = (struct pollfd){ r->ctl, POLLIN, 0 };
	pfd[1] = (struct pollfd){ stop_fd(r->stop), POLLIN, 0 };
	for (i = 0; cookies_due(r) && i < r->nst; i++)
		if (!quiet[i]) {
			k[n - 2] = i;
			pfd[n++] = (struct pollfd){ r->st[i].fd, POLLIN, 0 };
		}
	rc = poll(pfd, n, net_poll_ms(until - now));
	if (rc <= 0 || pfd[0].revents != 0)
		return rc > 0;                  /* START (or ERROR) first */
	if (pfd[1].revents != 0)
		return 0;
	for (i = 2; i < n; i++) {
		if (pfd[i].revents == 0)
			continue;
		rc = xfer_path_echo(pfd[i].fd, &r->lp, (uint16_t)(k[i - 2] + 1),
		    &echoed, r->e.text, sizeof r->e.text);
		if (rc == -1)
			return -1;
		quiet[k[i - 2]] = rc == 1;
	}
	return 0;
}

/* Wait for START within deadline; with UDP proofs, send them again every
 * CLIENT_PROOF_MS until START comes (a lost proof must not end the test),
 * and echo the partner's cookies. */
static int
await_start(struct run *r)
{
	mono_ns deadline = mono_now() + (mono_ns)CLIENT_CTL_MS(r->c) * 1000000u;
	mono_ns next = 0;
	int udp = r->lp.proto == PROTO_UDP, w = 0;
	uint8_t quiet[STREAM_MAX] = { 0 };
	struct ctl_msg m;
	char why[CLIENT_WHY_LEN];

	while (w == 0) {
		mono_ns now = mono_now();

		if (udp && now >= next) {
			if (send_proofs(r) == -1)
				return -1;
			next = now + (mono_ns)CLIENT_PROOF_MS * 1000000u;
		}
		if (stop_requested(r->stop) || now >= deadline) {
			snprintf(r->e.text, sizeof r->e.text, "%s waiting for the partner to "
			         "start", stop_requested(r->stop) ? "interrupted" :
			         "timed out");
			return -1;
		}
		w = wait_echoing(r, udp && next < deadline ? next : deadline, quiet);
		if (w == -1)
			return -1;
	}
	if (ctl_recv_until(r->ctl, CTL_START, &m, deadline, r->stop, why,
	    sizeof why) == -1) {
		partner_said(r, &m, "partner: ", why);
		return -1;
	}
	r->t0 = mono_now();
	return 0;
}

/* Open stream i's data path to its READY port and, for TCP, prove it (the
 * nonce and its number). Returns 0, or -1 with why filled. */
static int
open_stream(struct run *r, uint32_t i, char *why, size_t whylen)
{
	struct stream *st = &r->st[i];
	const struct xfer_params *p = &st->p;
	struct sockaddr_storage to = r->peer;
	uint8_t hello[CTL_DATA_HELLO_LEN];

	net_set_port(&to, r->ready.port[p->proto == PROTO_UDP ? i : 0]);
	if (p->proto == PROTO_UDP) {
		st->fd = net_bind_like(&r->local, SOCK_DGRAM, why, whylen);
		if (st->fd == -1 || (p->window && net_set_window(st->fd, p->window,
		    1, why, whylen) == -1) || (p->role == ROLE_RECV &&
		    xfer_udp_prepare_rx(st->fd, p, why, whylen) == -1) ||
		    ((p->xflags & CTL_XF_ECN) && (p->role == ROLE_SEND ?
		    ecn_udp_send_setup(st->fd, why, whylen) :
		    ecn_udp_recv_setup(st->fd, why, whylen)) == -1))
			return -1;
		/* only the partner's data socket may reach ours from now on;
		 * what came before the connect came from anyone */
		if (connect(st->fd, (struct sockaddr *)&to, sizeof to) == -1) {
			snprintf(why, whylen, "connect UDP: %s", strerror(errno));
			return -1;
		}
		xfer_udp_drain(st->fd);
	} else {
		st->fd = net_connect_sa(&to, SOCK_STREAM, p->window,
		    CLIENT_CTL_MS(r->c), r->stop, why, whylen);
		if (st->fd == -1 || (p->nodelay && net_set_nodelay(st->fd, why,
		    whylen) == -1) || (p->cc[0] != '\0' &&
		    tcpinfo_set_cc(st->fd, p->cc, why, whylen) == -1))
			return -1;
		ctl_data_hello(r->ready.nonce, (uint16_t)st->id, hello);
		if (send(st->fd, hello, sizeof hello, MSG_NOSIGNAL) != sizeof hello) {
			snprintf(why, whylen, "sending the nonce: %s", strerror(errno));
			return -1;
		}
		if (i == 0 && r->c->link_bps > 0)       /* --link's counts */
			linkpred_tcp_sent(st->fd, &r->nonce_bytes, &r->nonce_segs);
	}
	return net_set_timeouts(st->fd, CLIENT_IDLE_MS(r->c), CLIENT_IDLE_MS(r->c),
	    why, whylen);
}

/* --ecn over TCP: the kernel negotiates ECN or not (ecn.h); one line on
 * standard error when a data connection did not. */
static void
tcp_ecn_check(const struct run *r)
{
	struct tcp_stats t;
	char why[CLIENT_WHY_LEN];
	uint32_t i, off = 0;

	for (i = 0; i < r->nst; i++)
		if (tcpinfo_read(r->st[i].fd, &t, why, sizeof why) == -1 ||
		    !(t.ecn & TCPS_ECN))
			off++;
	if (off == 0)
		return;
	ecn_tcp_refused(ecn_tcp_sysctl(), why, sizeof why);
	fprintf(stderr, "gput: %s\n", why);
}

/* Open every stream's data path and prove it. Returns 0 or -1. */
int
client_open_data(struct run *r)
{
	int udp = r->lp.proto == PROTO_UDP;
	char why[CLIENT_WHY_LEN];
	uint32_t i;

	if (r->ready.nports != (udp ? r->nst : 1)) {
		snprintf(r->e.text, sizeof r->e.text, "the partner offered %u data ports "
		         "for %u %s streams", r->ready.nports, r->nst, udp ? "UDP" :
		         "TCP");
		return -1;
	}
	for (i = 0; i < r->nst; i++) {
		if (open_stream(r, i, why, sizeof why) == -1) {
			snprintf(r->e.text, sizeof r->e.text, "data connection%s to port %u: %s",
			         r->nst > 1 ? " of a stream" : "",
			         r->ready.port[udp ? i : 0], why);
			return -1;
		}
	}
	if (!udp && (r->lp.xflags & CTL_XF_ECN))
		tcp_ecn_check(r);
	return await_start(r);
}

/* partner_session.c: one client's test on the partner, from HELLO to RESULT. */
#include "partner_session.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "affinity.h"
#include "partner_ccpolicy.h"
#include "partner_budget.h"
#include "ctl.h"
#include "partner_echo.h"
#include "ecn.h"
#include "mcast.h"
#include "net.h"
#include "partner_log.h"
#include "stream.h"
#include "tcpinfo.h"
#include "partner_watch.h"
#include "xfer_batch.h"
#include "xfer_markers.h"
#include "xfer_path.h"
#include "xfer_udp.h"

struct session {
	const struct config *c;
	const struct auth_key *key;
	struct gate *gate;                      /* this session's place: slot */
	int slot;
	int ctl;
	struct stream *st;                      /* the test's streams */
	uint32_t nst;
	struct udp_stats *udp;                  /* a UDP receiver's accounting,
	                                           one per stream */
	struct stopreq *stop;
	struct sockaddr_storage local, peer;
	mono_ns deadline;                       /* of the whole handshake */
	mono_ns t0;                             /* START went out */
	struct ctl_msg hello, req, ready;
	uint64_t asked_bytes;                   /* PARAMS' data_bytes, before
	                                           --max-bytes: the client's
	                                           lengths (xfer_path.h) */
	struct run_model model;                 /* the streams, their sums */
	struct echo echo;                       /* --latency (fd -1: none) */
	char who[NET_ADDRSTRLEN + 16];          /* "ADDR port N" */
};

/* Log a failure and, best effort, tell the client. */
static void
fail(struct session *s, const char *what, const char *detail)
{
	struct ctl_msg m;
	char text[CTL_MAX_TEXT + 1], err[128];

	plog("client %s: %s%s%s", s->who, what, detail ? ": " : "",
	     detail ? detail : "");
	snprintf(text, sizeof text, "%s%s%s", what, detail ? ": " : "",
	         detail ? detail : "");
	ctl_error(&m, text);
	(void)ctl_send(s->ctl, &m, err, sizeof err);
}

/* Tell the client why its test ended (already logged). */
static void
tell(struct session *s, const char *text)
{
	struct ctl_msg m;
	char err[128];

	ctl_error(&m, text);
	(void)ctl_send(s->ctl, &m, err, sizeof err);
}

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

/* One budget for all the memory a test takes on the partner (partner_budget.h):
 * PARTNER_STREAM_BUFFERS times --max-buffer, and PARTNER_MEM_BASE. Returns
 * 0 or -1 with why. */
static int
check_memory(const struct partner_limits *l, const struct xfer_params *p,
             char *why, size_t len)
{
	uint64_t most = (uint64_t)l->max_buffer * PARTNER_STREAM_BUFFERS +
	    PARTNER_MEM_BASE;
	struct budget b;

	budget_need(p, l->max_time_s, &b);
	if (b.total <= most)
		return 0;
	snprintf(why, len, "memory: the test takes %llu bytes, this partner "
	         "allows %llu (%u x --max-buffer + 32 MiB); a stream: stack %llu, "
	         "data %llu, batch %llu, intervals %llu", (unsigned long long)
	         b.total, (unsigned long long)most, PARTNER_STREAM_BUFFERS,
	         (unsigned long long)b.stack, (unsigned long long)b.data,
	         (unsigned long long)b.batch, (unsigned long long)b.ivals);
	_Static_assert(PARTNER_MEM_BASE == 32u << 20, "the message says 32 MiB");
	return -1;
}

/* --max-rate, for a partner that sends UDP: the schedule's mean rate and
 * its bursts (all streams' together). Returns 0 or -1 with why. */
static int
check_rate(const struct partner_limits *l, const struct xfer_params *p,
           char *why, size_t len)
{
	uint32_t n = p->streams > 1 ? p->streams : 1;
	uint32_t b = p->data_burst > 1 ? p->data_burst : 1;
	uint64_t bb = (uint64_t)p->data_len * b * n;

	if (l->max_rate <= 0 || p->proto != PROTO_UDP || p->role != ROLE_SEND)
		return 0;
	if (p->data_gap_ps == 0) {
		snprintf(why, len, "unpaced UDP: this partner sends UDP at most "
		         "%.0f bit/s (--max-rate); pace it with -g", l->max_rate);
		return -1;
	}
	if ((double)p->data_len * 8e12 / p->data_gap_ps * n > l->max_rate) {
		snprintf(why, len, "UDP at %.0f bit/s: this partner sends UDP at "
		         "most %.0f bit/s (--max-rate)",
		         (double)p->data_len * 8e12 / p->data_gap_ps * n, l->max_rate);
		return -1;
	}
	/* one datagram a stream at a time is always allowed (however low the
	 * limit); a burst of more takes at most PARTNER_BURST_MS at the rate */
	if (b > 1 && (double)bb * 8 > l->max_rate * PARTNER_BURST_MS / 1e3) {
		snprintf(why, len, "UDP bursts of %llu bytes (--burst %u, -l %u, %u "
		         "streams): this partner sends at most %.0f bytes at once, "
		         "%u ms at its --max-rate", (unsigned long long)bb, b,
		         p->data_len, n, l->max_rate * PARTNER_BURST_MS / 8e3,
		         PARTNER_BURST_MS);
		return -1;
	}
	return 0;
}

int
session_check_limits(const struct partner_limits *l,
                     const struct xfer_params *p, char *why, size_t len)
{
	uint32_t buf = p->len > p->data_len && p->role == ROLE_RECV ? p->len :
	    p->role == ROLE_RECV ? p->data_len : p->len;
	double secs;

	if (l->max_time_s != 0 && p->duration_ms > l->max_time_s * 1000ull) {
		snprintf(why, len, "the test runs %.1f s, this partner allows %u s "
		         "(--max-time)", p->duration_ms / 1e3, l->max_time_s);
		return -1;
	}
	/* a timed test has no length: --max-bytes then ends it (partner_session.c) */
	if (l->max_bytes != 0 && p->duration_ms == 0 &&
	    p->data_bytes > l->max_bytes / (p->streams > 1 ? p->streams : 1)) {
		char n[48] = "";

		if (p->streams > 1)
			snprintf(n, sizeof n, "%u streams of ", p->streams);
		snprintf(why, len, "the test moves %s%llu bytes, this partner "
		         "allows at most %llu (--max-bytes)", n,
		         (unsigned long long)p->data_bytes,
		         (unsigned long long)l->max_bytes);
		return -1;
	}
	if (buf > l->max_buffer) {
		snprintf(why, len, "a %u-byte buffer is larger than this partner "
		         "allows, %u bytes (--max-buffer)", buf, l->max_buffer);
		return -1;
	}
	/* --batch, --gso: a UDP receiver's buffers for many messages a call */
	if (p->proto == PROTO_UDP && p->role == ROLE_RECV &&
	    xfer_rx_bytes(p) > l->max_buffer) {
		snprintf(why, len, "the receive buffers of --batch %u%s take %llu "
		         "bytes, this partner allows %u (--max-buffer)", p->batch,
		         p->gso ? " --gso" : "", (unsigned long long)xfer_rx_bytes(p),
		         l->max_buffer);
		return -1;
	}
	if (p->streams > l->max_streams) {
		snprintf(why, len, "%u streams: this partner allows at most %u "
		         "(--max-streams)", p->streams, l->max_streams);
		return -1;
	}
	/* every stream has its own buffer: together they stay within what
	 * PARTNER_STREAM_BUFFERS of the largest would take */
	if ((uint64_t)buf * p->streams > (uint64_t)l->max_buffer *
	    PARTNER_STREAM_BUFFERS) {
		snprintf(why, len, "%u streams of %u-byte buffers: this partner "
		         "allows %llu bytes of buffers per test (%u times "
		         "--max-buffer)", p->streams, buf, (unsigned long long)
		         l->max_buffer * PARTNER_STREAM_BUFFERS, PARTNER_STREAM_BUFFERS);
		return -1;
	}
	if (check_memory(l, p, why, len) == -1)
		return -1;
	/* paced runs: the schedule alone says how long they take (a gap
	 * between each two writes) */
	secs = p->duration_ms ? 0 : xfer_schedule_s(p);
	if (l->max_time_s != 0 && secs > l->max_time_s) {
		snprintf(why, len, "the test's gaps alone take %.1f s, this partner "
		         "allows %u s (--max-time)", secs, l->max_time_s);
		return -1;
	}
	/* a schedule slower than the partner's minimum, long enough to be cut
	 * by it: refused now rather than ended later */
	if (p->data_gap_ps != 0 && xfer_schedule_s(p) >= PARTNER_PROGRESS_S &&
	    (double)p->data_len * 1e12 / p->data_gap_ps * (p->streams > 1 ?
	    p->streams : 1) < PARTNER_MIN_RATE) {
		snprintf(why, len, "the test's schedule moves %.0f bytes/s, this "
		         "partner needs at least %u bytes/s of every test",
		         (double)p->data_len * 1e12 / p->data_gap_ps * (p->streams > 1 ?
		         p->streams : 1), PARTNER_MIN_RATE);
		return -1;
	}
	return check_rate(l, p, why, len);
}

/* --affinity after the host: the partner's data threads go only where this
 * process may run. Returns 1 (refused, why in err) or 0. */
static int
cpus_refused(uint64_t cpus, char *err, size_t errlen)
{
	char have[192];
	int miss = affinity_unavailable(cpus, have, sizeof have);

	if (miss == -1)
		return 0;
	snprintf(err, errlen, "--affinity: CPU %d is not available to this "
	         "partner (it may run on %s)", miss, have);
	return 1;
}

/* --cc: one the host offers and one this partner can set (c->cc_allowed,
 * found at start; else, since the partner runs unprivileged, one an
 * unprivileged process may pick). Returns 1 (refused, why in err) or 0. */
static int
cc_refused(const struct config *c, const char *cc, int sending, char *err,
           size_t errlen)
{
	static const char allowed_path[] =
	    "/proc/sys/net/ipv4/tcp_allowed_congestion_control";
	char allowed[128] = "?", *tok, *save = NULL;

	if (cc[0] == '\0')
		return 0;
	if (tcpinfo_cc_check(cc, err, errlen) == -1)
		return 1;
	if (!sending)                           /* a receiver's is best effort */
		return 0;
	if (c->cc_allowed[0] != '\0') {
		if (ccpolicy_allows(c->cc_allowed, cc))
			return 0;
		snprintf(err, errlen, "congestion control '%s' is not allowed by "
		         "this partner (it allows: %.100s; see its --allow-cc)", cc,
		         c->cc_allowed);
		return 1;
	}
	if (geteuid() == 0)
		return 0;
	if (tcpinfo_cc_available_from(allowed_path, allowed, sizeof allowed) == 0) {
		char copy[128];

		snprintf(copy, sizeof copy, "%s", allowed);
		for (tok = strtok_r(copy, " ", &save); tok != NULL;
		    tok = strtok_r(NULL, " ", &save))
			if (strcmp(tok, cc) == 0)
				return 0;
	}
	snprintf(err, errlen, "congestion control '%s' is not allowed for this "
	         "unprivileged partner (net.ipv4.tcp_allowed_congestion_control: "
	         "%s)", cc, allowed);
	return 1;
}

/* Every name of the --cc list that a stream will use. */
static int
ccs_refused(const struct config *c, const struct xfer_params *p, char *err,
            size_t errlen)
{
	char cc[16];
	uint32_t k;

	for (k = 0; k < p->streams; k++) {
		xfer_cc_pick(p->cc, k, cc);
		if (cc_refused(c, cc, p->role == ROLE_SEND, err, errlen))
			return 1;
	}
	return 0;
}

/* HELLO, then PARAMS: authenticated when there is a key, within limits. */
static int
handshake(struct session *s)
{
	uint8_t signed_bytes[CTL_SIGNED_MAX];
	char err[300];
	size_t n;
	mono_ns grace;

	s->hello.type = CTL_HELLO;
	s->hello.hello_flags = s->key ? CTL_HELLO_KEY : 0;
	if (auth_random(s->hello.challenge, CTL_CHALLENGE_LEN, err,
	    sizeof err) == -1 || ctl_send(s->ctl, &s->hello, err,
	    sizeof err) == -1) {
		plog("client %s: hello: %s", s->who, err);
		return -1;
	}
	grace = mono_now() + (mono_ns)SESSION_PARAMS_MS * 1000000u;
	if (ctl_recv_until(s->ctl, CTL_PARAMS, &s->req, grace < s->deadline ?
	    grace : s->deadline, s->stop, err, sizeof err) == -1) {
		fail(s, "bad request", err);
		return -1;
	}
	n = ctl_signed_bytes(s->hello.challenge, &s->req, NULL, signed_bytes);
	if (s->key != NULL && !auth_verify(s->key, "gput2 client", signed_bytes, n,
	    s->req.mac)) {
		fail(s, "refused", "authentication failed (--key-file)");
		return -1;
	}
	if (session_check_limits(&s->c->lim, &s->req.params, err,
	    sizeof err) == -1 || ccs_refused(s->c, &s->req.params, err, sizeof err)) {
		fail(s, "refused", err);
		return -1;
	}
	if (cpus_refused(s->req.params.cpus, err, sizeof err)) {
		fail(s, "refused", err);
		return -1;
	}
	if (s->req.mcast.family != 0 && s->c->no_multicast) {
		fail(s, "refused", "this partner takes no part in multicast tests "
		     "(--no-multicast)");
		return -1;
	}
	/* nothing goes to an address before its return path is validated
	 * (xfer_path.h): a client that cannot echo cannot have UDP sent */
	if (s->req.params.proto == PROTO_UDP && s->req.params.role == ROLE_SEND &&
	    !(s->req.params.xflags & CTL_XF_COOKIE)) {
		fail(s, "refused", "this partner sends UDP only to a client that "
		     "echoes its cookie (return-path validation): use a newer gput");
		return -1;
	}
	/* --latency: the idle phase's probes come before the data path */
	if (s->req.params.xflags & CTL_XF_LATENCY)
		s->deadline += (mono_ns)s->req.params.lat_idle_ms * 1000000u;
	/* a timed test has no length of its own: --max-bytes bounds it, shared
	 * by its streams */
	s->asked_bytes = s->req.params.data_bytes;
	if (s->req.params.duration_ms && s->c->lim.max_bytes) {
		uint64_t each = s->c->lim.max_bytes / s->req.params.streams;

		s->req.params.data_bytes = each ? each : 1;
	}
	return 0;
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
		*id = (uint32_t)got[CTL_NONCE_LEN] << 8 | got[CTL_NONCE_LEN + 1];
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
	/* the echo answers only probes with READY's nonce */
	ep.echo_port = s->echo.port;
	if (echo_start(&s->echo, s->ready.nonce, p->lat_interval_us, err,
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
 * partner sends on, its return path validated too. */
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
		    (p->role == ROLE_SEND &&
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
 * proofs. */
static int
open_data(struct session *s)
{
	const struct xfer_params *p = &s->req.params;
	char err[256];
	uint32_t i;

	if ((p->proto == PROTO_TCP ? open_tcp : s->req.mcast.family ? open_mcast :
	    open_udp)(s, err, sizeof err) == -1)
		goto bad;
	for (i = 0; i < s->nst; i++) {
		struct stream *st = &s->st[i];

		if (p->proto == PROTO_TCP && p->nodelay &&
		    net_set_nodelay(st->fd, err, sizeof err) == -1)
			goto bad;
		/* the receiving end's congestion control governs no data: where
		 * an unprivileged partner may not pick it, it keeps the default
		 * (and TCPINFO says which) */
		if (p->proto == PROTO_TCP && st->p.cc[0] != '\0' &&
		    tcpinfo_set_cc(st->fd, st->p.cc, err, sizeof err) == -1 &&
		    (p->role == ROLE_SEND || errno != EPERM))
			goto bad;
		/* the watcher ends a test without progress (watch_setup); a
		 * send timeout as short would return the bytes a stalled
		 * receiver's kernel takes when pressed (a zero-window probe) as
		 * progress, and the watcher would see some */
		if (net_set_timeouts(st->fd, DATA_IDLE_TIMEOUT_MS,
		    2 * DATA_IDLE_TIMEOUT_MS, err, sizeof err) == -1)
			goto bad;
	}
	return 0;
bad:
	fail(s, "data connection", err);
	return -1;
}

/* Keep the data socket open until the client closes the control connection
 * after reading RESULT (at most DAEMON_CTL_TIMEOUT_MS): a UDP receiver ends
 * at the first marker or the last datagram, and closing at once would turn
 * the sender's remaining markers into ICMP port-unreachable errors. A client
 * that closes with RESULT unread resets the connection: that is logged. */
static int
linger(const struct session *s)
{
	char why[128];

	if (net_wait_readable(s->ctl, -1, DAEMON_CTL_TIMEOUT_MS, s->stop) == 0)
		return 0;
	if (ctl_peer_state(s->ctl, why, sizeof why) != CTL_PEER_FAILED)
		return 0;
	plog("client %s: results not read: the client reset the control "
	     "connection", s->who);
	return 1;
}

/* After a failed transfer with nothing seen on the control connection: did
 * the client stop it (STOP) or leave? Waits SESSION_GRACE_MS at most. */
static enum watch_event
after_failure(struct session *s)
{
	struct ctl_msg m;
	char why[128];

	if (net_wait_readable(s->ctl, -1, SESSION_GRACE_MS, s->stop) == 0)
		return WATCH_NONE;
	if (ctl_peer_state(s->ctl, why, sizeof why) != CTL_PEER_SPOKE)
		return WATCH_PEER_CLOSED;
	if (ctl_recv_type(s->ctl, CTL_STOP, &m, SESSION_GRACE_MS, s->stop, why,
	    sizeof why) == 0)
		return WATCH_PEER_STOP;
	return WATCH_PEER_FAILED;
}

static void
log_end(const struct session *s, const struct gput_result *r, const char *how)
{
	const struct xfer_params *p = &s->req.params;
	char n[32] = "";

	if (s->nst > 1)
		snprintf(n, sizeof n, ", %u streams", s->nst);
	plog("client %s: end: %s %s%s, %llu bytes, %llu calls, %.3f s: %s", s->who,
	     p->proto == PROTO_UDP ? "udp" : "tcp",
	     p->role == ROLE_SEND ? "send" : "receive", n,
	     (unsigned long long)r->bytes, (unsigned long long)r->calls,
	     (double)r->real_ns / 1e9, how);
}

/* The watcher of this session: --max-time, --time when the partner sends,
 * and with --interval or --omit the sampler, whose intervals go to the
 * client as INTERVAL messages. */
static void
watch_setup(struct session *s, struct watch *w)
{
	const struct xfer_params *p = &s->req.params;
	const struct config *c = s->c;
	int sending = p->role == ROLE_SEND;

	memset(w, 0, sizeof *w);
	w->ctl = s->ctl;
	w->st = s->st;
	w->nst = s->nst;
	w->stop = s->stop;
	w->t0 = s->t0;
	if (c->lim.max_time_s != 0)
		w->deadline = w->t0 + (mono_ns)c->lim.max_time_s * 1000000000u;
	if (p->duration_ms && sending)
		w->end_at = w->t0 + (mono_ns)p->duration_ms * 1000000u;
	w->progress_s = PARTNER_PROGRESS_S;
	if (p->proto == PROTO_UDP && !sending)  /* its idle end comes first */
		w->progress_s += (unsigned)((xfer_udp_idle_ms(p) + 999u) / 1000u);
	w->min_bytes = (uint64_t)PARTNER_MIN_RATE * PARTNER_PROGRESS_S;
	if (p->interval_ms == 0 && p->omit_ms == 0)
		return;                         /* no sampling */
	w->model = &s->model;
	w->send_ivals = 1;
	w->udp_seq = !sending && xfer_udp_has_header(p);
	w->tcp_info = p->proto == PROTO_TCP && sending;
}

/* Each stream's TCP_INFO, for the client's report; a UDP receiver's
 * accounting likewise. Returns 0 or -1 (the client is gone). */
static int
send_stream_info(struct session *s)
{
	const struct xfer_params *p = &s->req.params;
	char err[200];
	uint32_t i;

	for (i = 0; i < s->nst; i++) {
		struct ctl_msg m = { .type = CTL_TCPINFO, .stream = i + 1 };

		if (p->proto == PROTO_UDP && p->role == ROLE_RECV) {
			m.type = CTL_UDPSTATS;
			m.udp = s->udp[i];
		} else if (p->proto != PROTO_TCP ||
		    tcpinfo_read(s->st[i].fd, &m.tcp, err, sizeof err) == -1) {
			continue;               /* nothing to say */
		}
		if (ctl_send(s->ctl, &m, err, sizeof err) == -1)
			return -1;
	}
	if (s->echo.fd != -1) {                 /* --latency: the echo so far */
		struct ctl_msg m = { .type = CTL_ECHOSTATS };

		echo_snapshot(&s->echo, &m.echo);
		if (ctl_send(s->ctl, &m, err, sizeof err) == -1)
			return -1;
	}
	return 0;
}

/* RESULT for every stream, then the side's own. Returns 0, or -1 with err
 * filled and errno set (ctl_send's). */
static int
send_results(struct session *s, uint32_t extra_flags, char *err, size_t errlen)
{
	struct side *sd = &s->model.side[0];
	uint32_t i;

	for (i = 0; i <= s->nst; i++) {
		const struct side *r = i < s->nst ? &sd->st[i] : sd;
		struct ctl_msg m = { .type = CTL_RESULT, .result = r->r,
		    .stream = i < s->nst ? i + 1 : 0, .start_ns = r->start_ns,
		    .end_ns = r->end_ns };

		m.result.flags |= extra_flags;
		if (ctl_send(s->ctl, &m, err, errlen) == -1)
			return -1;
	}
	return 0;
}

/* START, the transfer under a watcher, then RESULT or ERROR. */
static int
transfer(struct session *s)
{
	const struct config *c = s->c;
	struct ctl_msg start = { .type = CTL_START }, stop;
	struct watch w;
	struct meter mt;
	struct gput_result whole = { 0 };
	char err[300], text[CTL_MAX_TEXT + 320];
	enum watch_event ev;
	enum ctl_peer ps;
	uint32_t flags = 0, i;
	int rc, pe;

	if (ctl_send(s->ctl, &start, err, sizeof err) == -1) {
		plog("client %s: start: %s", s->who, err);
		return 1;
	}
	s->t0 = mono_now();
	watch_setup(s, &w);
	if (watch_begin(&w, err, sizeof err) == -1) {
		fail(s, "transfer", err);
		return 1;
	}
	meter_start_at(&mt, s->t0);
	rc = stream_run_all(s->st, s->nst, err, sizeof err);
	meter_stop(&mt, &whole);
	watch_end(&w);
	ev = w.event;
	if (rc == 0 && stream_failed(s->st, s->nst) == NULL)
		rc = s->nst == 1 ? s->st[0].rc : 0;
	else if (rc == 0)
		rc = -1;
	if (rc == -1 && err[0] == '\0')
		stream_failure(s->st, s->nst, err, sizeof err);
	for (i = 0; i < s->nst; i++) {          /* the buffers the kernel set */
		net_get_window(s->st[i].fd, &s->st[i].r.sndbuf, &s->st[i].r.rcvbuf);
		s->st[i].r.flags |= RES_BUFS;
	}
	stream_sum(s->st, s->nst, s->t0, whole.cpu_ns, &s->model.side[0]);
	if (ev == WATCH_NONE && (watch_last(&w) == -1 ||
	    send_stream_info(s) == -1))
		ev = WATCH_PEER_FAILED;
	if (rc == -1 && (ev == WATCH_NONE || ev == WATCH_STREAM_FAILED)) {
		enum watch_event why = after_failure(s);

		if (why != WATCH_NONE || ev == WATCH_NONE)
			ev = why;
	}
	watch_free(&w);
	switch (ev) {
	case WATCH_PEER_CLOSED:
		log_end(s, &s->model.side[0].r, "the client closed the control "
		        "connection");
		return 1;
	case WATCH_PEER_FAILED:
		log_end(s, &s->model.side[0].r, w.err[0] ? w.err :
		        "control connection failed");
		tell(s, w.err[0] ? w.err : "control connection failed");
		return 1;
	case WATCH_NO_PROGRESS:
		log_end(s, &s->model.side[0].r, w.err);
		tell(s, w.err);
		return 1;
	case WATCH_DEADLINE:
		snprintf(text, sizeof text, "stopped at this partner's limit of %u s "
		         "per test (--max-time)", c->lim.max_time_s);
		log_end(s, &s->model.side[0].r, text);
		tell(s, text);
		return 1;
	case WATCH_PEER_STOP:
		flags = RES_STOPPED;
		(void)watch_last(&w);
		(void)send_stream_info(s);
		log_end(s, &s->model.side[0].r, "stopped by the client");
		rc = 0;
		break;
	default:
		if (rc == -1) {
			log_end(s, &s->model.side[0].r, err);
			snprintf(text, sizeof text, "transfer: %s", err);
			tell(s, text);
			return 1;
		}
		/* a UDP receiver cannot tell a client that vanished mid-transfer
		 * from one that is done, nor a timed TCP receiver a client that
		 * stopped from one that is done; the control connection can */
		/* one look only: a reset is reported once, then reads as EOF */
		ps = ctl_peer_state(s->ctl, err, sizeof err);
		pe = errno;
		if (ps == CTL_PEER_SPOKE && ctl_recv_type(s->ctl, CTL_STOP, &stop,
		    SESSION_GRACE_MS, s->stop, err, sizeof err) == 0) {
			flags = RES_STOPPED;
			log_end(s, &s->model.side[0].r, "stopped by the client");
			ev = WATCH_PEER_STOP;
			break;
		}
		if (ps == CTL_PEER_FAILED && pe == ECONNRESET) {
			/* the client closed with our TCPINFO or UDPSTATS unread
			 * (with nothing unread it would have closed cleanly) */
			plog("client %s: results not read: the client reset the "
			     "control connection", s->who);
			return 1;
		}
		if (ps != CTL_PEER_QUIET) {
			if (ps == CTL_PEER_CLOSED)
				snprintf(text, sizeof text, "the client closed the "
				         "control connection");
			else
				snprintf(text, sizeof text, "%s%s", ps == CTL_PEER_FAILED ?
				         "control connection: " : "", err);
			log_end(s, &s->model.side[0].r, text);
			return 1;
		}
		log_end(s, &s->model.side[0].r, "ok");
	}
	if (send_results(s, flags, err, sizeof err) == -1) {
		/* a client that closes with TCPINFO or UDPSTATS unread resets the
		 * connection before RESULT goes out: it did not read its results */
		if (errno == ECONNRESET || errno == EPIPE)
			plog("client %s: results not read: the client reset the "
			     "control connection", s->who);
		else
			plog("client %s: sending results: %s", s->who, err);
		return 1;
	}
	gate_done(s->gate, s->slot);            /* the test is over */
	return ev == WATCH_PEER_STOP ? 0 : linger(s);
}

/* The streams of the agreed test, their sockets not yet open. Returns 0,
 * or -1 (no memory: logged). */
static int
streams_init(struct session *s)
{
	const struct xfer_params *p = &s->req.params;
	struct side *sd = &s->model.side[0];
	uint32_t i;

	s->nst = p->streams;
	s->st = stream_alloc(s->nst);
	s->udp = calloc(s->nst, sizeof *s->udp);
	sd->tag = '1';
	sd->proto = p->proto;
	sd->role = p->role;
	s->model.proto = p->proto;
	s->model.interval_ms = p->interval_ms;
	s->model.omit_ms = p->omit_ms;
	s->model.streams = s->nst;
	if (s->st == NULL || s->udp == NULL || model_streams(sd, s->nst) == -1) {
		plog("client %s: no memory for %u streams", s->who, s->nst);
		return -1;
	}
	for (i = 0; i < s->nst; i++) {
		struct stream *st = &s->st[i];

		st->id = i + 1;
		st->fd = -1;
		st->p = *p;
		/* --max-rate: a late sender never catches up in a rush */
		if (s->c->lim.max_rate > 0 && p->proto == PROTO_UDP &&
		    p->role == ROLE_SEND)
			st->p.slip_ns = (mono_ns)PARTNER_SLIP_MS * 1000000u;
		xfer_cc_pick(p->cc, i, st->p.cc);
		st->stop = s->stop;
		st->stats = p->proto == PROTO_UDP && p->role == ROLE_RECV ?
		    &s->udp[i] : NULL;
		st->log_fd = -1;
	}
	return 0;
}

/* The log's line for a test that starts: what the partner does, and how
 * much: bytes, or the time of a --time run (its byte count is a stand-in). */
static void
log_start(const struct session *s)
{
	const struct xfer_params *p = &s->req.params;
	char n[32] = "", what[48];

	if (p->streams > 1)
		snprintf(n, sizeof n, ", %u streams", p->streams);
	if (p->duration_ms != 0)
		snprintf(what, sizeof what, "for %u.%03u s", p->duration_ms / 1000,
		         p->duration_ms % 1000);
	else
		snprintf(what, sizeof what, "%llu bytes",
		         (unsigned long long)p->data_bytes);
	plog("client %s: start: %s, partner %s %s%s%s", s->who,
	     p->proto == PROTO_UDP ? "udp" : "tcp",
	     p->role == ROLE_SEND ? "sends" : "receives", what, n,
	     s->key ? ", key checked" : "");
}

int
session_serve(int cfd, const struct sockaddr_storage *peer,
              const struct config *c, const struct auth_key *key,
              struct gate *g, int slot)
{
	struct session s = { .c = c, .key = key, .gate = g, .slot = slot,
	    .ctl = cfd, .peer = *peer,
	    .stop = stop_process(), .echo = { .fd = -1 } };
	socklen_t ll = sizeof s.local;
	char addr[NET_ADDRSTRLEN], err[128];
	uint32_t i;
	int rc = 1;

	s.deadline = mono_now() + (mono_ns)SESSION_HANDSHAKE_MS * 1000000u;
	snprintf(s.who, sizeof s.who, "%s port %u",
	         net_ntop(&s.peer, addr, sizeof addr), net_port(&s.peer));
	if (stop_init(s.stop, err, sizeof err) == -1) {   /* this session's own */
		plog("client %s: %s", s.who, err);
		return 1;
	}
	if (getsockname(cfd, (struct sockaddr *)&s.local, &ll) == -1) {
		plog("client %s: control connection: %s", s.who, strerror(errno));
	} else if (net_set_timeouts(cfd, DAEMON_CTL_TIMEOUT_MS,
	    DAEMON_CTL_TIMEOUT_MS, err, sizeof err) == -1 ||
	    net_set_control(cfd, err, sizeof err) == -1) {
		plog("client %s: control connection: %s", s.who, err);
	} else if (handshake(&s) == -1) {
		;                               /* logged, and told */
	} else if (gate_run(g, slot, err, sizeof err) == -1) {
		plog("client %s: refused: %s", s.who, err);
		tell(&s, err);
	} else {
		log_start(&s);
		if (streams_init(&s) == 0 && open_data(&s) == 0)
			rc = transfer(&s);
	}
	if (s.echo.fd != -1) {                  /* the echo ends with the session */
		echo_stop(&s.echo);
		plog("client %s: echo: %llu probes received, %llu echoed, %llu over "
		     "the rate, %llu from strangers, %llu malformed, %llu unsent",
		     s.who, (unsigned long long)s.echo.st.received,
		     (unsigned long long)s.echo.st.echoed,
		     (unsigned long long)s.echo.st.over_rate,
		     (unsigned long long)s.echo.st.strangers,
		     (unsigned long long)s.echo.st.malformed,
		     (unsigned long long)s.echo.st.failed);
	}
	for (i = 0; s.st != NULL && i < s.nst; i++)
		if (s.st[i].fd != -1)
			close(s.st[i].fd);
	free(s.st);
	free(s.udp);
	model_free(&s.model);
	return rc;
}

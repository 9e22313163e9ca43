/* SPDX-License-Identifier: BSD-2-Clause */
/* partner_session.c: one client's test on the partner, from HELLO to RESULT. */
#include "partner_session.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ctl.h"
#include "partner_echo.h"
#include "partner_limits.h"
#include "partner_mport.h"
#include "net.h"
#include "partner_log.h"
#include "partner_open.h"
#include "partner_state.h"
#include "stream.h"
#include "tcpinfo.h"
#include "watch.h"
#include "xfer_udp.h"

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

/* --params-grace in ms (SESSION_PARAMS_MS where a config has none). */
static unsigned
session_grace_ms(const struct config *c)
{
	return c->lim.params_grace_s ? c->lim.params_grace_s * 1000u :
	    SESSION_PARAMS_MS;
}

/* The client's --peer-timeout, within --max-peer-timeout (PARAMS passed
 * the limits): the control connection's dead-peer deadline and its
 * timeouts, and the rest of the handshake (the data connections' SYNs,
 * the proofs) as long from now, if that is later. Returns 0 or -1. */
static int
grant_peer_timeout(struct session *s, char *err, size_t errlen)
{
	const struct xfer_params *p = &s->req.params;
	mono_ns until;

	s->peer_s = NET_PEER_TIMEOUT_S;
	if (!(p->xflags & CTL_XF_PEERTIME) || p->peer_timeout_s <= s->peer_s)
		return 0;
	s->peer_s = p->peer_timeout_s;
	until = mono_now() + (mono_ns)s->peer_s * 1000000000u;
	if (until > s->deadline)
		s->deadline = until;
	if (net_set_timeouts(s->ctl, (int)s->peer_s * 1000,
	    (int)s->peer_s * 1000, err, errlen) == -1)
		return -1;
	return net_set_control(s->ctl, s->peer_s, err, errlen);
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
	grace = mono_now() + (mono_ns)session_grace_ms(s->c) * 1000000u;
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
	    sizeof err) == -1 || partner_ccs_refused(s->c, &s->req.params, err, sizeof err)) {
		fail(s, "refused", err);
		return -1;
	}
	if (partner_cpus_refused(s->req.params.cpus, err, sizeof err)) {
		fail(s, "refused", err);
		return -1;
	}
	if (s->req.mcast.family != 0 && s->c->no_multicast) {
		fail(s, "refused", "this partner takes no part in multicast tests "
		     "(--no-multicast)");
		return -1;
	}
	if (s->req.mcast.family != 0 &&
	    partner_mport_refused(s->req.mcast.port, err, sizeof err)) {
		fail(s, "refused", err);
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
	/* the echo answers only a validated return path: a client that
	 * cannot echo its cookie gets no echo */
	if ((s->req.params.xflags & CTL_XF_LATENCY) &&
	    !(s->req.params.xflags & CTL_XF_ECHOCOOKIE)) {
		fail(s, "refused", "this partner echoes latency probes only to a "
		     "client that echoes its cookie (return-path validation): use "
		     "a newer gput");
		return -1;
	}
	if (grant_peer_timeout(s, err, sizeof err) == -1) {
		fail(s, "control connection", err);
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

/* Open every stream's data socket, send READY, and wait for the client's
 * proofs (partner_open.c); a failure is logged and told. */
static int
open_data(struct session *s)
{
	char err[256];

	if (partner_open_data(s, err, sizeof err) == 0)
		return 0;
	if (s->echo.fd != -1 && echo_hold_expired(&s->echo))
		snprintf(err, sizeof err, "no latency probe for %u ms in the idle "
		         "phase: a test's place is held before its data flows only "
		         "while probes arrive", PARTNER_HOLD_QUIET_MS);
	fail(s, "data connection", err);
	return -1;
}

/* The data path is open: the test's place can no longer be taken over
 * (partner_gate.h). Returns 0, or -1 (it was: logged and told). */
static int
flowing(struct session *s)
{
	if (s->echo.fd != -1)
		echo_unhold(&s->echo);
	if (gate_flowing(s->gate, s->slot) == 0)
		return 0;
	fail(s, "refused", CTL_BUSY_TEXT ": this client's place was given to a "
	     "client of another source");
	return -1;
}

/* Keep the data socket open until the client closes the control connection
 * after reading RESULT (at most its dead-peer deadline): a UDP receiver ends
 * at the first marker or the last datagram, and closing at once would turn
 * the sender's remaining markers into ICMP port-unreachable errors. A client
 * that closes with RESULT unread resets the connection: that is logged. */
static int
linger(const struct session *s)
{
	char why[128];

	if (net_wait_readable(s->ctl, -1, (int)s->peer_s * 1000, s->stop) == 0)
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
	/* a lossy path's backed-off retransmissions move nothing for up to
	 * the dead-peer deadline the client asked: as much longer */
	w->progress_s = PARTNER_PROGRESS_S + NET_PEER_EXTRA_MS(s->peer_s) / 1000;
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
	if (s->hu_ok) {                         /* CTL_XF_HOSTUDP: once */
		struct ctl_msg m = { .type = CTL_HOSTUDP, .hostudp = s->hu };

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

/* A transfer that ended well here: did the client stop it (STOP), leave,
 * or reset the control connection with our messages unread? Returns 1 (the
 * session ends here, logged) or 0: *flags and *ev say a stop, else "ok" is
 * logged. */
static int
ended_well(struct session *s, enum watch_event *ev, uint32_t *flags)
{
	struct ctl_msg stop;
	char err[300], text[CTL_MAX_TEXT + 320];
	enum ctl_peer ps;
	int pe;

	/* a UDP receiver cannot tell a client that vanished mid-transfer
	 * from one that is done, nor a timed TCP receiver a client that
	 * stopped from one that is done; the control connection can */
	/* one look only: a reset is reported once, then reads as EOF */
	ps = ctl_peer_state(s->ctl, err, sizeof err);
	pe = errno;
	if (ps == CTL_PEER_SPOKE && ctl_recv_type(s->ctl, CTL_STOP, &stop,
	    SESSION_GRACE_MS, s->stop, err, sizeof err) == 0) {
		*flags = RES_STOPPED;
		log_end(s, &s->model.side[0].r, "stopped by the client");
		*ev = WATCH_PEER_STOP;
		return 0;
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
	return 0;
}

/* The transfer's end as the watcher (*ev, w) and the streams (rc, err) saw
 * it: logged, and the client told why when it did not complete. Returns 1
 * (the session ends here) or 0 to send RESULT, with *flags (RES_STOPPED)
 * and *ev WATCH_PEER_STOP when the client stopped it. */
static int
conclude(struct session *s, struct watch *w, enum watch_event *ev, int rc,
         const char *err, uint32_t *flags)
{
	const struct config *c = s->c;
	char text[CTL_MAX_TEXT + 320];

	switch (*ev) {
	case WATCH_PEER_CLOSED:
		log_end(s, &s->model.side[0].r, "the client closed the control "
		        "connection");
		return 1;
	case WATCH_PEER_FAILED:
		log_end(s, &s->model.side[0].r, w->err[0] ? w->err :
		        "control connection failed");
		tell(s, w->err[0] ? w->err : "control connection failed");
		return 1;
	case WATCH_NO_PROGRESS:
		log_end(s, &s->model.side[0].r, w->err);
		tell(s, w->err);
		return 1;
	case WATCH_DEADLINE:
		snprintf(text, sizeof text, "stopped at this partner's limit of %u s "
		         "per test (--max-time)", c->lim.max_time_s);
		log_end(s, &s->model.side[0].r, text);
		tell(s, text);
		return 1;
	case WATCH_PEER_STOP:
		*flags = RES_STOPPED;
		(void)watch_last(w);
		(void)send_stream_info(s);
		log_end(s, &s->model.side[0].r, "stopped by the client");
		return 0;
	default:
		if (rc == -1) {
			log_end(s, &s->model.side[0].r, err);
			snprintf(text, sizeof text, "transfer: %s", err);
			tell(s, text);
			return 1;
		}
		return ended_well(s, ev, flags);
	}
}

/* The streams could not all start here (a thread refused: the tasks
 * limit, RLIMIT_NPROC, memory; err says which stream and why): the client
 * is told at once, while every data connection is still open, so that
 * ERROR reaches it before any of its streams sees the partner's end.
 * Then a moment for it to close the control connection. Returns 1. */
static int
unstarted(struct session *s, const char *err)
{
	log_end(s, &s->model.side[0].r, err);
	tell(s, err);
	(void)net_wait_readable(s->ctl, -1, SESSION_GRACE_MS, s->stop);
	return 1;
}

/* CTL_XF_HOSTUDP (a UDP receiver's, xfer_params_invalid): the host's UDP
 * counters before the transfer (the family of the data path: the group's,
 * or the control connection's local address'). */
static void
host_udp_before(struct session *s)
{
	uint32_t fam = s->req.mcast.family == 6 ? HOSTUDP_V6 :
	    s->req.mcast.family == 4 ? 0 : hostudp_family(&s->local);

	s->hu_ok = (s->req.params.xflags & CTL_XF_HOSTUDP) &&
	    hostudp_read(fam, &s->hu) == 0;
}

/* ... and after it: hu becomes the deltas (a counter that went back: none). */
static void
host_udp_after(struct session *s)
{
	struct hostudp now, before = s->hu;

	if (s->hu_ok)
		s->hu_ok = hostudp_read(before.flags, &now) == 0 &&
		    hostudp_delta(&before, &now, &s->hu) == 0 &&
		    s->hu.rcvbuf_errors <= HOSTUDP_MAX &&
		    s->hu.in_errors <= HOSTUDP_MAX;  /* the codec's limit */
}

/* START, the transfer under a watcher, then RESULT or ERROR. */
static int
transfer(struct session *s)
{
	struct ctl_msg start = { .type = CTL_START };
	struct watch w;
	struct meter mt;
	struct gput_result whole = { 0 };
	char err[300];
	enum watch_event ev;
	uint32_t flags = 0, i;
	int rc;

	host_udp_before(s);                     /* before any data can come */
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
	host_udp_after(s);
	watch_end(&w);
	if (rc == -1 && err[0] != '\0') {
		watch_free(&w);
		return unstarted(s, err);
	}
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
	if (conclude(s, &w, &ev, rc, err, &flags))
		return 1;
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
		st->zc.budget = PARTNER_ZC_BUDGET / s->nst;
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

	/* a longer --params-grace lengthens the whole handshake as much */
	s.deadline = mono_now() + (mono_ns)(SESSION_HANDSHAKE_MS +
	    (session_grace_ms(c) > SESSION_PARAMS_MS ? session_grace_ms(c) -
	    SESSION_PARAMS_MS : 0)) * 1000000u;
	s.peer_s = NET_PEER_TIMEOUT_S;
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
	    net_set_control(cfd, s.peer_s, err, sizeof err) == -1) {
		plog("client %s: control connection: %s", s.who, err);
	} else if (handshake(&s) == -1) {
		;                               /* logged, and told */
	} else if (gate_run(g, slot, err, sizeof err) == -1) {
		plog("client %s: refused: %s", s.who, err);
		tell(&s, err);
	} else {
		log_start(&s);
		if (streams_init(&s) == 0 && open_data(&s) == 0 &&
		    flowing(&s) == 0)
			rc = transfer(&s);
	}
	if (s.echo.fd != -1) {                  /* the echo ends with the session */
		echo_stop(&s.echo);
		plog("client %s: echo: %llu requests before the return path was "
		     "validated (%llu cookies sent); %llu probes received, %llu "
		     "echoed, %llu over the rate, %llu from strangers, %llu "
		     "malformed, %llu unsent",
		     s.who, (unsigned long long)s.echo.unvalidated,
		     (unsigned long long)s.echo.cookies,
		     (unsigned long long)s.echo.st.received,
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

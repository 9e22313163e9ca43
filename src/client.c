/* client.c: gput partner: one test, both sides' results on one screen. */
#include "client.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "auth.h"
#include "ctl.h"
#include "cli_params.h"
#include "client_latency.h"
#include "ecn.h"
#include "linkpred.h"
#include "report_link.h"
#include "net.h"
#include "client_plausible.h"
#include "model.h"
#include "udplog.h"
#include "report.h"
#include "report_csv.h"
#include "report_ival.h"
#include "report_json.h"
#include "report_lat.h"
#include "report_prom.h"
#include "report_streams.h"
#include "report_table.h"
#include "stream.h"
#include "tcpinfo.h"
#include "partner_watch.h"
#include "xfer_batch.h"
#include "xfer_markers.h"
#include "xfer_path.h"
#include "xfer_udp.h"

/* After ^C, how long the client waits for the partner's partial results. */
#define CLIENT_STOP_MS 800
/* How often the UDP proof datagram is sent again until START arrives. */
#define CLIENT_PROOF_MS 200

struct run {
	const struct config *c;
	struct xfer_params lp, rp;      /* local and partner halves */
	int ctl;
	struct stream *st;              /* the local streams, nst of them */
	uint32_t nst;
	struct stopreq *stop;           /* the process's: ^C */
	struct sockaddr_storage local, peer;
	struct auth_key key;
	int have_key;
	struct ctl_msg hello, params, ready;
	struct gput_result lr, rr;      /* local and partner results */
	int have_rr, interrupted;
	int said;                       /* the error is on stderr already */
	enum run_error ecode;           /* what err is (RUN_OK: not set) */
	mono_ns t_open;                 /* the data path began to open: the
	                                   partner's times lie after it */
	mono_ns t0;                     /* START arrived: the transfer began */
	struct run_model model;         /* intervals and the rest, for output */
	int      filled;                /* model holds the run's results */
	int      keep;                  /* a --repeat run: the caller renders
	                                   everything but the table */
	struct watch w;
	FILE    *log;                   /* --log: binary records until the end */
	struct link_conn lc;            /* --link: the connection as it was */
	struct link_pred pred;          /* --link: its prediction (fill_model) */
	int pred_ok;                    /*   pred is filled, else pred_err */
	char pred_err[200];
	uint64_t nonce_bytes, nonce_segs;  /* TCP: what the nonce took */
	struct prober lat;              /* --latency (have_lat) */
	int have_lat;
	char err[512];
};

static void
on_signal(int sig)
{
	(void)sig;
	stop_request(stop_process());   /* SA_RESETHAND: a second ^C kills */
}

/* The partner's answer was ERROR (m) or the wait failed (why). */
static void
partner_said(struct run *r, const struct ctl_msg *m, const char *prefix,
             const char *why)
{
	if (m->type == CTL_ERROR) {
		snprintf(r->err, sizeof r->err, "%s%s", prefix, m->text);
		r->ecode = ctl_error_busy(m) ? RUN_ERR_BUSY : RUN_ERR_PARTNER;
	} else {
		snprintf(r->err, sizeof r->err, "%s", why);
	}
}

/* Does the partner send UDP, and so validate its return path with a
 * cookie per stream that this client echoes (xfer_path.h)? */
static int
cookies_due(const struct run *r)
{
	return r->rp.proto == PROTO_UDP && r->rp.role == ROLE_SEND;
}

/* HELLO, PARAMS, READY: the test agreed, both ends authenticated when a key
 * is in use. Returns 0 or -1. */
static int
handshake(struct run *r)
{
	uint8_t sb[CTL_SIGNED_MAX];
	char why[256];
	size_t n;

	if (ctl_recv_type(r->ctl, CTL_HELLO, &r->hello, CLIENT_CTL_TIMEOUT_MS,
	    r->stop, why, sizeof why) == -1) {
		partner_said(r, &r->hello, "partner refused the test: ", why);
		return -1;
	}
	if ((r->hello.hello_flags & CTL_HELLO_KEY) && !r->have_key) {
		snprintf(r->err, sizeof r->err, "the partner requires the shared "
		         "secret: give it with --key-file");
		return -1;
	}
	if (!(r->hello.hello_flags & CTL_HELLO_KEY) && r->have_key) {
		snprintf(r->err, sizeof r->err, "the partner does not check the "
		         "shared secret, so it cannot prove it knows it (--key-file)");
		return -1;
	}
	r->params.type = CTL_PARAMS;
	r->params.params = r->rp;
	if (cookies_due(r))                     /* this client echoes them */
		r->params.params.xflags |= CTL_XF_COOKIE;
	n = ctl_signed_bytes(r->hello.challenge, &r->params, NULL, sb);
	if (r->have_key && auth_mac(&r->key, "gput2 client", sb, n,
	    r->params.mac) == -1) {
		snprintf(r->err, sizeof r->err, "HMAC failed");
		return -1;
	}
	if (ctl_send(r->ctl, &r->params, why, sizeof why) == -1 ||
	    ctl_recv_type(r->ctl, CTL_READY, &r->ready, CLIENT_CTL_TIMEOUT_MS,
	    r->stop, why, sizeof why) == -1) {
		partner_said(r, &r->ready, "partner refused the test: ", why);
		return -1;
	}
	n = ctl_signed_bytes(r->hello.challenge, &r->params, &r->ready, sb);
	if (r->have_key && !auth_verify(&r->key, "gput2 partner", sb, n,
	    r->ready.mac)) {
		snprintf(r->err, sizeof r->err, "the partner failed to prove it "
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
			snprintf(r->err, sizeof r->err, "sending the proof datagram "
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
 * time, or ^C) or -1 (r->err). */
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
		    &echoed, r->err, sizeof r->err);
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
	mono_ns deadline = mono_now() + (mono_ns)CLIENT_CTL_TIMEOUT_MS * 1000000u;
	mono_ns next = 0;
	int udp = r->lp.proto == PROTO_UDP, w = 0;
	uint8_t quiet[STREAM_MAX] = { 0 };
	struct ctl_msg m;
	char why[256];

	while (w == 0) {
		mono_ns now = mono_now();

		if (udp && now >= next) {
			if (send_proofs(r) == -1)
				return -1;
			next = now + (mono_ns)CLIENT_PROOF_MS * 1000000u;
		}
		if (stop_requested(r->stop) || now >= deadline) {
			snprintf(r->err, sizeof r->err, "%s waiting for the partner to "
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
	uint8_t hello[CTL_NONCE_LEN + 2];

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
		    CLIENT_CTL_TIMEOUT_MS, r->stop, why, whylen);
		if (st->fd == -1 || (p->nodelay && net_set_nodelay(st->fd, why,
		    whylen) == -1) || (p->cc[0] != '\0' &&
		    tcpinfo_set_cc(st->fd, p->cc, why, whylen) == -1))
			return -1;
		memcpy(hello, r->ready.nonce, CTL_NONCE_LEN);
		hello[CTL_NONCE_LEN] = (uint8_t)(st->id >> 8);
		hello[CTL_NONCE_LEN + 1] = (uint8_t)st->id;
		if (send(st->fd, hello, sizeof hello, MSG_NOSIGNAL) != sizeof hello) {
			snprintf(why, whylen, "sending the nonce: %s", strerror(errno));
			return -1;
		}
		if (i == 0)
			linkpred_tcp_sent(st->fd, &r->nonce_bytes, &r->nonce_segs);
	}
	return net_set_timeouts(st->fd, DATA_IDLE_TIMEOUT_MS, DATA_IDLE_TIMEOUT_MS,
	    why, whylen);
}

/* --ecn over TCP: the kernel negotiates ECN or not (ecn.h); one line on
 * standard error when a data connection did not. */
static void
tcp_ecn_check(const struct run *r)
{
	struct tcp_stats t;
	char why[320];
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
static int
open_data(struct run *r)
{
	int udp = r->lp.proto == PROTO_UDP;
	char why[256];
	uint32_t i;

	if (r->ready.nports != (udp ? r->nst : 1)) {
		snprintf(r->err, sizeof r->err, "the partner offered %u data ports "
		         "for %u %s streams", r->ready.nports, r->nst, udp ? "UDP" :
		         "TCP");
		return -1;
	}
	for (i = 0; i < r->nst; i++) {
		if (open_stream(r, i, why, sizeof why) == -1) {
			snprintf(r->err, sizeof r->err, "data connection%s to port %u: %s",
			         r->nst > 1 ? " of a stream" : "",
			         r->ready.port[udp ? i : 0], why);
			return -1;
		}
	}
	if (!udp && (r->lp.xflags & CTL_XF_ECN))
		tcp_ecn_check(r);
	return await_start(r);
}

/* -v: what the data connection really got, on stderr. */
static void
describe_data(const struct run *r, const struct stream *st)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof ss, il = sizeof(int);
	char a[NET_ADDRSTRLEN], b[NET_ADDRSTRLEN], n[24] = "";
	uint32_t snd, rcv;
	int mss = 0;

	if (getpeername(st->fd, (struct sockaddr *)&ss, &sl) == -1)
		return;
	if (r->nst > 1)
		snprintf(n, sizeof n, " (stream %u)", st->id);
	net_get_window(st->fd, &snd, &rcv);
	fprintf(stderr, "gput: data%s %s %s port %u -> %s port %u, socket buffers "
	        "send %u receive %u bytes", n, r->lp.proto == PROTO_UDP ? "udp" :
	        "tcp", net_ntop(&r->local, a, sizeof a), net_local_port(st->fd),
	        net_ntop(&ss, b, sizeof b), net_port(&ss), snd, rcv);
	if (r->lp.proto == PROTO_TCP &&
	    getsockopt(st->fd, IPPROTO_TCP, TCP_MAXSEG, &mss, &il) == 0)
		fprintf(stderr, ", MSS %d", mss);
	if (st->p.cc[0] != '\0' && r->nst > 1)
		fprintf(stderr, ", %s", st->p.cc);
	fputc('\n', stderr);
}

/* Read the partner's messages until its side's RESULT: its last INTERVALs,
 * its TCPINFO or UDPSTATS and its streams' RESULTs come first (the watcher
 * may have taken some already). Returns 0 with r->rr filled; -1 with why
 * filled and *m the ERROR if the partner sent one. */
static int
collect_result(struct run *r, struct watch *w, int timeout_ms,
               struct ctl_msg *m, char *why, size_t whylen)
{
	mono_ns deadline = mono_now() + (mono_ns)timeout_ms * 1000000u;

	m->type = 0;
	while (!w->have_result) {
		if (ctl_recv_awaiting(r->ctl, m, deadline, "a RESULT message",
		    r->stop, why, whylen) == -1)
			return -1;
		switch (m->type) {
		case CTL_RESULT:
		case CTL_INTERVAL:
		case CTL_TCPINFO:
		case CTL_UDPSTATS:
		case CTL_ECHOSTATS:
			if (watch_peer_msg(w, m, why, whylen) == -1)
				return -1;
			continue;
		case CTL_ERROR:
			snprintf(why, whylen, "%s", m->text);
			return -1;
		}
		snprintf(why, whylen, "unexpected %s message (expected RESULT)",
		         ctl_type_name(m->type));
		return -1;
	}
	r->rr = r->model.side[1].r;
	return 0;
}

static void
collect_stopped(struct run *r, struct watch *w)
{
	struct ctl_msg m;
	char why[256];

	r->interrupted = 1;
	stop_clear(r->stop);
	if (w->event != WATCH_SIGNAL) {         /* ^C as the watcher ended */
		m.type = CTL_STOP;
		(void)ctl_send(r->ctl, &m, why, sizeof why);
	}
	if (collect_result(r, w, CLIENT_STOP_MS, &m, why, sizeof why) == 0)
		r->have_rr = 1;
}

/* The watcher of the local side: --time when we send, the sampler with
 * --interval or --omit, progress on a terminal, and for a timed receiver a
 * deadline: a sender that goes on past --time is an error. */
static void
watch_setup(struct run *r, struct watch *w)
{
	const struct config *c = r->c;
	int sending = r->lp.role == ROLE_SEND;

	memset(w, 0, sizeof *w);
	w->ctl = r->ctl;
	w->st = r->st;
	w->nst = r->nst;
	w->stop = r->stop;
	w->client = 1;
	w->tcp_info = r->lp.proto == PROTO_TCP && sending;
	w->t0 = r->t0;
	w->model = &r->model;
	w->udp_seq = !sending && xfer_udp_has_header(&r->lp);
	w->lat = r->have_lat ? &r->lat : NULL;
	/* the partner's threads that use CPU: a stream's each, its watcher
	 * and its main thread (which runs the one stream of -P 1) */
	w->plaus = (struct plaus_run){ .p = &r->rp, .threads = r->rp.streams + 2,
	    .same_clock = c->same_clock };
	w->t_open = r->t_open;
	if (c->duration_ms && sending)
		w->end_at = w->t0 + (mono_ns)c->duration_ms * 1000000u;
	if (c->duration_ms && !sending)
		w->deadline = w->t0 + (mono_ns)(c->duration_ms + DATA_IDLE_TIMEOUT_MS) *
		    1000000u;
	w->out = c->ival_out != NULL ? c->ival_out : stdout;  /* several partners */
	w->show = c->interval_ms == 0 ? SHOW_NONE : c->out == OUT_TABLE ?
	    SHOW_TEXT : c->out == OUT_JSON_LINES ? SHOW_JSON_LINES : SHOW_NONE;
	w->progress = !c->quiet && c->interval_ms == 0 && isatty(STDERR_FILENO);
}

/* The watcher's verdict on a transfer that ended (rc its status). Returns 0
 * to go on, or -1 with r->err filled. */
static int
watch_verdict(struct run *r, struct watch *w, int rc)
{
	switch (w->event) {
	case WATCH_SIGNAL:
		collect_stopped(r, w);
		return -1;
	case WATCH_PEER_ERROR:
		snprintf(r->err, sizeof r->err, "partner: %s", w->msg.text);
		r->ecode = RUN_ERR_PARTNER;
		return -1;
	case WATCH_DEADLINE:
		snprintf(r->err, sizeof r->err, "the partner went on sending past "
		         "--time");
		return -1;
	case WATCH_PEER_CLOSED:
		if (rc == 0) {                  /* as if we had been waiting already */
			snprintf(r->err, sizeof r->err, "partner's results: connection "
			         "closed while waiting for a RESULT message");
			return -1;
		}
		/* fall through */
	case WATCH_PEER_FAILED:
		snprintf(r->err, sizeof r->err, "%s%s", w->lied ? "" : "partner: ",
		         w->err);
		return -1;
	default:
		return 0;
	}
}

/* Run the local streams under a watcher, then collect the partner's
 * results. Returns 0, or -1 with r->err filled (r->interrupted: print what
 * there is). */
static int
transfer(struct run *r)
{
	struct watch *w = &r->w;
	struct ctl_msg m;
	struct meter mt;
	struct gput_result whole = { 0 };
	char why[256] = "";
	uint32_t i;
	int rc;

	for (i = 0; i < r->nst && r->lp.verbose; i++)
		describe_data(r, &r->st[i]);
	watch_setup(r, w);
	if (watch_begin(w, why, sizeof why) == -1) {
		snprintf(r->err, sizeof r->err, "%s", why);
		return -1;
	}
	meter_start_at(&mt, r->t0);
	rc = stream_run_all(r->st, r->nst, why, sizeof why);
	meter_stop(&mt, &whole);
	if (r->have_lat)
		prober_unload(&r->lat);         /* the loaded phase is over */
	watch_end(w);
	if (rc == 0)
		rc = stream_failed(r->st, r->nst) != NULL ? -1 : r->nst == 1 ?
		    r->st[0].rc : 0;
	if (rc == -1 && why[0] == '\0')
		stream_failure(r->st, r->nst, why, sizeof why);
	stream_sum(r->st, r->nst, r->t0, whole.cpu_ns, &r->model.side[0]);
	r->lr = r->model.side[0].r;
	if (w->event == WATCH_NONE && !(rc == -1 && stop_requested(r->stop)))
		(void)watch_last(w);
	if (watch_verdict(r, w, rc) == -1)
		return -1;
	if (rc == -1 && stop_requested(r->stop) && w->event != WATCH_STREAM_FAILED &&
	    atomic_load(&r->stop->failed) == 0) {   /* ^C as the watcher ended */
		(void)watch_last(w);
		collect_stopped(r, w);
		return -1;
	}
	if (rc == -1) {
		/* the partner's reason, if it gives one at once, says more than
		 * what its ending did to the data connection */
		if (collect_result(r, w, CLIENT_STOP_MS, &m, r->err,
		    sizeof r->err) == -1 && m.type == CTL_ERROR) {
			/* one of several streams that failed here is the cause;
			 * the partner saw the others end after it */
			if (r->nst > 1 && atomic_load(&r->stop->failed) != 0)
				snprintf(r->err, sizeof r->err, "%s (partner: %s)", why,
				         m.text);
			else
				snprintf(r->err, sizeof r->err, "partner: %s", m.text);
			r->ecode = RUN_ERR_PARTNER;
		} else if (!w->lied) {  /* else r->err says what it lied about */
			snprintf(r->err, sizeof r->err, "%s", why);
		}
		return -1;
	}
	if (collect_result(r, w, CLIENT_RESULT_TIMEOUT_MS, &m, why,
	    sizeof why) == -1) {
		if (stop_requested(r->stop)) {  /* ^C while the partner finished */
			r->interrupted = 1;
			return -1;
		}
		snprintf(r->err, sizeof r->err, "%s%s", m.type == CTL_ERROR ?
		         "partner: " : w->lied ? "" : "partner's results: ", why);
		if (m.type == CTL_ERROR)
			r->ecode = RUN_ERR_PARTNER;
		return -1;
	}
	r->have_rr = 1;
	return 0;
}

/* Is the partner's result r possible for its half p of the test? A partner
 * that says otherwise is broken or hostile: nothing it says is printed.
 * Returns NULL, or what is wrong. */
static const char *
result_invalid(const struct xfer_params *p, const struct gput_result *r)
{
	uint64_t calls = xfer_data_calls(p);
	int partial = (r->flags & RES_STOPPED) != 0;

	if (r->bytes > p->data_bytes)
		return "more bytes than the test moves";
	if (!partial && p->duration_ms == 0 && r->bytes != p->data_bytes &&
	    !(p->proto == PROTO_UDP && p->role == ROLE_RECV))
		return "a different number of bytes than the test moves";
	if (r->verify_bad > r->bytes)
		return "more bytes that differ from the pattern than bytes";
	if ((r->flags & RES_VERIFIED) && !p->verify)
		return "data checked that it was not asked to check";
	if (r->verify_bad > 0 && r->verify_first >= p->data_bytes)
		return "a bad byte beyond the end of the stream";
	if (p->proto == PROTO_UDP && (r->dgrams > calls || r->dgrams_sent > calls))
		return "more datagrams than the sender sends";
	if (p->proto == PROTO_UDP && r->calls < UINT64_MAX /
	    xfer_dgrams_per_call_max(p) && r->dgrams > r->calls *
	    xfer_dgrams_per_call_max(p))
		return "more datagrams than calls";
	if ((r->flags & RES_QUEUE) && r->unsent + r->unacked > r->bytes)
		return "more bytes queued than written";
	if (r->calls == 0 && r->bytes > 0)
		return "bytes moved without a call";
	return NULL;
}

/* Do the partner's results fit the test and what arrived or was sent
 * here, stream by stream, and do its side's totals add up? NULL, or what
 * is wrong. */
static const char *
partner_invalid(struct run *r)
{
	const struct side *l = &r->model.side[0], *p = &r->model.side[1];
	const char *bad;
	char why[256];
	uint32_t i;

	for (i = 0; i < r->nst; i++) {
		const struct side *ps = &p->st[i], *ls = &l->st[i];

		if (plaus_stream(&r->rp, ps, ls, why, sizeof why) == -1) {
			if (r->nst > 1)
				snprintf(r->err, sizeof r->err, "the partner's %s "
				         "(stream %u)", why, i + 1);
			else
				snprintf(r->err, sizeof r->err, "the partner's %s", why);
			return "";
		}

		/* TCP moves every byte or fails: both ends count the same */
		if (r->lp.proto == PROTO_TCP && !(ps->r.flags & RES_STOPPED) &&
		    ps->r.bytes != ls->r.bytes)
			return "a different number of bytes than arrived or were sent "
			       "here";
		if (ps->have_udp && ps->udp.unique != ps->r.dgrams)
			return "an accounting that disagrees with its datagram count";
		if ((bad = result_invalid(&r->rp, &ps->r)) != NULL ||
		    (bad = model_ivals_invalid(ps)) != NULL)
			return bad;
	}
	if ((bad = model_sum_invalid(p, &r->rr)) != NULL ||
	    (bad = model_ivals_invalid(p)) != NULL)
		return bad;
	return NULL;
}

/* The table and the lines under it (report_table.c), unless several
 * partners' parent renders it from the model. Returns the exit status. */
static int
print_table(struct run *r)
{
	const struct config *c = r->c;
	const struct table_opts o = { c->loc.format, c->rem.format,
	    c->loc.verbose || c->rem.verbose, c->same_clock };

	if (c->on_model == NULL) {
		if (c->title)
			report_title(stdout, c->loc.format);
		report_table(stdout, &r->model, &o);
	}
	if (r->interrupted) {
		fflush(stdout);
		return 130;
	}
	if (c->link_bps > 0 && !r->pred_ok) {
		fprintf(stderr, "gput: --link: %s\n", r->pred_err);
		return 1;
	}
	fflush(stdout);
	if (r->lr.verify_bad || (r->have_rr && r->rr.verify_bad)) {
		fprintf(stderr, "gput: data verification failed\n");
		return 1;
	}
	return 0;
}

/* --latency: the probes' phases, and for TCP the data sender's smoothed
 * round trip at the end. */
static void
fill_latency(struct run *r)
{
	struct run_model *m = &r->model;
	const struct side *snd = &m->side[r->lp.role == ROLE_SEND ? 0 : 1];
	uint64_t sum = 0;
	uint32_t k, n = 0;

	prober_finish(&r->lat);
	if (latency_result(&m->lat, &r->lat, r->c) == -1 ||
	    r->lp.proto != PROTO_TCP)
		return;
	for (k = 0; k < snd->nst; k++)          /* -P: their mean */
		if (snd->st[k].tcp.valid) {
			sum += snd->st[k].tcp.rtt_us;
			n++;
		}
	if (snd->nst <= 1 && snd->tcp.valid) {
		sum = snd->tcp.rtt_us;
		n = 1;
	}
	if (n > 0) {
		m->lat.have_tcp_rtt = 1;
		m->lat.tcp_rtt_us = (uint32_t)(sum / n);
		m->lat.tcp_rtt_n = n;
	}
}

/* The run as measured, into the model the renderers read. */
static void
fill_model(struct run *r)
{
	struct run_model *m = &r->model;
	struct side *l = &m->side[0], *p = &m->side[1], *rs, *ss;
	char why[200];
	uint32_t i;

	l->have_result = 1;
	p->have_result = r->have_rr;
	for (i = 0; i < r->nst && r->lp.proto == PROTO_TCP; i++)
		if (r->st[i].fd != -1)
			(void)tcpinfo_read(r->st[i].fd, &l->st[i].tcp, why, sizeof why);
	if (r->have_rr && r->nst > 1) {         /* the partner's sums of its streams */
		struct gput_result keep = p->r;

		model_sum(p);
		p->r = keep;                        /* with its own window and CPU */
	}
	if (r->nst == 1) {                      /* the side is its one stream */
		l->tcp = l->st[0].tcp;
		l->udp = l->st[0].udp;
		l->have_udp = l->st[0].have_udp;
		p->tcp = p->st[0].tcp;
		p->udp = p->st[0].udp;
		p->have_udp = p->st[0].have_udp;
	}
	if (r->lp.proto == PROTO_UDP) {         /* what the sender says it sent */
		rs = r->lp.role == ROLE_RECV ? l : p;
		ss = r->lp.role == ROLE_RECV ? p : l;
		rs->udp_sent = ss->r.dgrams;
		for (i = 0; i < r->nst; i++)
			rs->st[i].udp_sent = ss->st[i].r.dgrams;
	}
	if (m->omit_ms) {
		model_steady(l);
		for (i = 0; i < r->nst; i++)
			model_steady(&l->st[i]);
		if (r->have_rr) {
			model_steady(p);
			for (i = 0; i < r->nst; i++)
				model_steady(&p->st[i]);
		}
	}
	if (r->have_rr)
		model_fairness(m);
	if (r->have_lat)
		fill_latency(r);
	r->pred_ok = r->c->link_bps > 0 && linkpred_compute(&r->lc,
	    r->lp.data_len, r->c->link_bps, &r->pred, r->pred_err,
	    sizeof r->pred_err) == 0;
	if (r->pred_ok) {
		m->link_bps = r->c->link_bps;
		m->link_eta = r->pred.expected_bps / r->c->link_bps;
		m->link_expected_mbit = r->pred.expected_bps / 1e6;
		m->link_expected_bps = r->pred.expected_bps;
		m->link_expected_Bps = r->pred.expected_bps / 8.0;
		rs = &m->side[r->lp.role == ROLE_RECV ? 0 : 1];
		m->link_frames = rs->have_result ? linkpred_frames(&r->pred,
		    r->lp.data_len, rs->r.bytes) : 0;
		m->have_path = r->pred.have_path;
		m->path = r->pred.path;
		m->have_pred = 1;
		m->link_conn = r->lc;
		m->link_pred = r->pred;
	}
}

/* --prometheus: a run that measured, whole and verified. Anything else
 * returns its status unprinted: run_client prints gput_up 0 for it. */
static int
print_prom(struct run *r)
{
	if (r->interrupted)
		return 130;
	if (r->lr.verify_bad || (r->have_rr && r->rr.verify_bad)) {
		snprintf(r->err, sizeof r->err, "data verification failed");
		r->ecode = RUN_ERR_VERIFY;
		return 1;
	}
	report_prom(stdout, &r->model);
	fflush(stdout);
	return 0;
}

/* What the user asked to see: the table, CSV, JSON, JSON lines or the
 * Prometheus text. */
static int
print_output(struct run *r)
{
	const struct config *c = r->c;
	int rc;

	fill_model(r);
	r->filled = 1;
	r->model.interrupted = r->interrupted;
	if (c->on_model != NULL)                /* several partners: the sums */
		c->on_model(c, &r->model, r->t0);
	if (c->out == OUT_TABLE)
		return print_table(r);
	if (c->out == OUT_PROM)            /* never with --repeat (cli_check.c) */
		return print_prom(r);
	if (r->keep || c->on_model != NULL)
		;       /* the run set renders it, or several partners' parent */
	else if (c->out == OUT_CSV)
		report_csv(stdout, &r->model);
	else if (c->out == OUT_JSON)
		report_json(stdout, &r->model);
	else
		report_json_summary_line(stdout, &r->model);
	fflush(stdout);
	rc = r->interrupted ? 130 : 0;
	if (rc == 0 && (r->lr.verify_bad || (r->have_rr && r->rr.verify_bad))) {
		fprintf(stderr, "gput: data verification failed\n");
		rc = 1;
	}
	return rc;
}

/* Connect, agree, prove, transfer, check. Returns the exit status. */
static int
session(struct run *r)
{
	const struct config *c = r->c;
	socklen_t sl = sizeof r->local, pl = sizeof r->peer;
	const char *bad = NULL;
	char why[256];

	r->ctl = net_connect(c->host, c->port, c->family, CLIENT_CTL_TIMEOUT_MS,
	    r->stop, r->err, sizeof r->err);
	if (r->ctl == -1) {
		int refused = errno == ECONNREFUSED;

		fprintf(stderr, "gput: %s%s\n", r->err, stop_requested(r->stop) ?
		        " (interrupted)" : refused ?
		        " (is gput -i running there?)" : "");
		r->said = 1;
		r->ecode = RUN_ERR_CONNECT;
		r->interrupted = stop_requested(r->stop);
		return r->interrupted ? 130 : 1;
	}
	if (getsockname(r->ctl, (struct sockaddr *)&r->local, &sl) == -1 ||
	    getpeername(r->ctl, (struct sockaddr *)&r->peer, &pl) == -1) {
		snprintf(r->err, sizeof r->err, "control connection: %s",
		         strerror(errno));
		return 1;
	}
	if (net_set_control(r->ctl, why, sizeof why) == -1) {
		snprintf(r->err, sizeof r->err, "control connection: %s", why);
		return 1;
	}
	if (handshake(r) == -1)
		return stop_requested(r->stop) ? 130 : 1;
	if (c->latency) {                       /* the idle phase, then data */
		r->have_lat = 1;
		if (latency_begin(&r->lat, r->ctl, r->stop, &r->local, &r->peer,
		    r->ready.nonce, c, r->err, sizeof r->err) == -1)
			return stop_requested(r->stop) ? 130 : 1;
	}
	r->t_open = mono_now();
	if (open_data(r) == -1)
		return stop_requested(r->stop) ? 130 : 1;
	if (r->have_lat)
		prober_load(&r->lat, r->t0);
	if (c->title && c->interval_ms && c->out == OUT_TABLE)
		report_ival_title(stdout);
	if (transfer(r) == -1)
		return r->interrupted ? print_output(r) : 1;
	if ((bad = partner_invalid(r)) != NULL) {
		if (bad[0] != '\0')            /* else r->err names the field */
			snprintf(r->err, sizeof r->err, "the partner's results do not "
			         "fit the test: it reports %s", bad);
		return 1;
	}
	/* after RESULT: the partner has everything, so the segment counts
	 * describe the whole transfer */
	if (c->link_bps > 0 && linkpred_from_socket(r->st[0].fd, &r->lp, c, &r->lc,
	    why, sizeof why) == -1) {
		snprintf(r->err, sizeof r->err, "--link: %s", why);
		return 1;
	}
	if (r->lp.role == ROLE_SEND && r->lc.tcp_segs > r->nonce_segs &&
	    r->lc.tcp_bytes >= r->nonce_bytes) {   /* the stream alone */
		r->lc.tcp_bytes -= r->nonce_bytes;
		r->lc.tcp_segs -= r->nonce_segs;
	}
	return print_output(r);
}

/* The run's shape and the two sides, before anything is measured. */
static void
model_init(struct run *r)
{
	const struct config *c = r->c;
	struct run_model *m = &r->model;

	struct timespec now;

	m->proto = r->lp.proto;
	m->role = r->lp.role;
	if (clock_gettime(CLOCK_REALTIME, &now) == 0 && now.tv_sec > 0)
		m->wall_ns = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
	m->duration_ms = c->duration_ms;
	m->interval_ms = c->interval_ms;
	m->omit_ms = c->omit_ms;
	m->data_bytes = c->duration_ms ? 0 : r->lp.data_bytes;
	m->data_len = r->lp.data_len;
	m->ecn = c->ecn;
	m->host = c->host;
	m->port = c->port;
	m->side[0] = (struct side){ .tag = 'l', .proto = r->lp.proto,
	    .role = r->lp.role, .len = r->lp.len, .count = r->lp.count,
	    .batch = r->lp.batch, .gso = r->lp.gso };
	m->side[1] = (struct side){ .tag = c->tag, .proto = r->rp.proto,
	    .role = r->rp.role, .len = r->rp.len, .count = r->rp.count,
	    .batch = r->rp.batch, .gso = r->rp.gso };
	m->streams = r->lp.streams;
	m->udp_idle_ms = (uint32_t)xfer_udp_idle_ms(&r->lp);
}

/* The local streams and their records in the model. Returns 0, or -1 with
 * r->err filled. */
static int
streams_init(struct run *r)
{
	struct side *l = &r->model.side[0];
	int udp_recv = r->lp.proto == PROTO_UDP && r->lp.role == ROLE_RECV;
	uint32_t i;

	r->nst = r->lp.streams;
	r->st = stream_alloc(r->nst);
	if (r->st == NULL || model_streams(l, r->nst) == -1 ||
	    model_streams(&r->model.side[1], r->nst) == -1) {
		snprintf(r->err, sizeof r->err, "no memory for %u streams", r->nst);
		return -1;
	}
	for (i = 0; i < r->nst; i++) {
		struct stream *st = &r->st[i];

		st->id = i + 1;
		st->fd = -1;
		st->p = r->lp;
		xfer_cc_pick(r->lp.cc, i, st->p.cc);
		st->stop = r->stop;
		st->stats = udp_recv ? &l->st[i].udp : NULL;
		l->st[i].have_udp = udp_recv;
		st->log_fd = r->log != NULL && i == 0 ? fileno(r->log) : -1;
	}
	return 0;
}

/* The key (--key-file) and --log's file, before any partner. Returns 0,
 * or -1 with the reason on stderr and in r->err. */
static int
prepare(struct run *r)
{
	const struct config *c = r->c;

	if (c->key_file != NULL && auth_key_load(c->key_file, &r->key, r->err,
	    sizeof r->err) == -1)
		goto fail;
	r->have_key = c->key_file != NULL;
	if (c->log_file != NULL && (r->log = tmpfile()) == NULL) {
		snprintf(r->err, sizeof r->err, "--log: a temporary file: %s",
		         strerror(errno));
		goto fail;
	}
	return 0;
fail:
	fprintf(stderr, "gput: %s\n", r->err);
	r->said = 1;
	return -1;
}

int
run_client(const struct config *c)
{
	return client_run(c, NULL);
}

int
client_run(const struct config *c, struct run_model *keep)
{
	struct run r = { .c = c, .ctl = -1, .stop = stop_process(),
	    .keep = keep != NULL, .lat = { .fd = -1, .wake = { -1, -1 } } };
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESETHAND };
	uint32_t i;
	int rc;

	if (stop_init(r.stop, r.err, sizeof r.err) == -1) {
		fprintf(stderr, "gput: %s\n", r.err);
		return 1;
	}
	sigaction(SIGINT, &sa, NULL);           /* no SA_RESTART: calls return EINTR */
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	cli_params(c, &r.lp, &r.rp);
	model_init(&r);
	rc = prepare(&r) == -1 || streams_init(&r) == -1 ? 1 : session(&r);
	if (r.log != NULL) {
		fflush(r.log);
		/* the sender's count, once fill_model has it (0: unknown) */
		if (udplog_text(r.log, c->log_file, r.model.side[0].udp_sent,
		    r.err, sizeof r.err) == -1) {
			fprintf(stderr, "gput: --log %s: %s\n", c->log_file, r.err);
			if (rc == 0)
				rc = 1;
		}
		fclose(r.log);
	}
	if (rc == 130 && r.err[0] == '\0')
		snprintf(r.err, sizeof r.err, "interrupted");
	if (rc != 0 && r.err[0] != '\0' && !r.interrupted && !r.said)
		fprintf(stderr, "gput: partner %s port %u: %s\n", c->host, c->port,
		        r.err);
	if (rc != 0 && !r.interrupted && !r.keep && (c->out == OUT_JSON ||
	    c->out == OUT_JSON_LINES)) {        /* none printed */        /* a failed run: valid JSON too */
		r.model.error = r.err[0] ? r.err : "failed";
		r.model.interrupted = rc == 130;
		r.model.side[0].have_result = 0;
		r.model.side[1].have_result = 0;
		if (c->on_model != NULL)        /* several partners' parent renders it */
			c->on_model(c, &r.model, r.t0);
		else
			(c->out == OUT_JSON ? report_json :
			    report_json_summary_line)(stdout, &r.model);
		fflush(stdout);
	}
	if (rc != 0 && c->out == OUT_PROM) {    /* gput_up 0, and why */
		r.model.error = r.err[0] ? r.err : "failed";
		r.model.error_code = rc == 130 ? RUN_ERR_INTERRUPTED :
		    r.ecode != RUN_OK ? r.ecode : RUN_ERR_FAILED;
		r.model.side[0].have_result = r.model.side[1].have_result = 0;
		report_prom(stdout, &r.model);
		fflush(stdout);
	}
	if (keep != NULL && r.filled) {         /* the caller's now */
		r.model.error = NULL;
		*keep = r.model;
		memset(&r.model, 0, sizeof r.model);
	}
	model_free(&r.model);
	watch_free(&r.w);
	if (r.have_lat)
		prober_free(&r.lat);
	for (i = 0; r.st != NULL && i < r.nst; i++)
		if (r.st[i].fd != -1)
			close(r.st[i].fd);
	free(r.st);
	if (r.ctl != -1)
		close(r.ctl);
	auth_key_wipe(&r.key);
	return rc;
}

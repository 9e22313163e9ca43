/* client.c: gput partner: one test, both sides' results on one screen. */
#include "client.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "auth.h"
#include "ctl.h"
#include "daemon.h"
#include "linkpred.h"
#include "net.h"
#include "report.h"
#include "watch.h"

/* After ^C, how long the client waits for the partner's partial results. */
#define CLIENT_STOP_MS 800
/* How often the UDP proof datagram is sent again until START arrives. */
#define CLIENT_PROOF_MS 200

struct run {
	const struct config *c;
	struct xfer_params lp, rp;      /* local and partner halves */
	int ctl, data;
	struct sockaddr_storage local, peer;
	struct auth_key key;
	int have_key;
	struct ctl_msg hello, params, ready;
	struct gput_result lr, rr;      /* local and partner results */
	int have_rr, interrupted;
	struct link_conn lc;            /* --link: the connection as it was */
	uint64_t nonce_bytes, nonce_segs;  /* TCP: what the nonce took */
	char err[300];
};

static void
on_signal(int sig)
{
	(void)sig;
	xfer_request_stop();            /* SA_RESETHAND: a second ^C kills */
}

/* The partner's answer was ERROR (m) or the wait failed (why). */
static void
partner_said(struct run *r, const struct ctl_msg *m, const char *prefix,
             const char *why)
{
	if (m->type == CTL_ERROR)
		snprintf(r->err, sizeof r->err, "%s%s", prefix, m->text);
	else
		snprintf(r->err, sizeof r->err, "%s", why);
}

/* HELLO, PARAMS, READY: the test agreed, both ends authenticated when a key
 * is in use. Returns 0 or -1. */
static int
handshake(struct run *r)
{
	uint8_t sb[CTL_CHALLENGE_LEN + CTL_PARAMS_SIGNED + CTL_READY_SIGNED];
	char why[256];
	size_t n;

	if (ctl_recv_type(r->ctl, CTL_HELLO, &r->hello, CLIENT_CTL_TIMEOUT_MS,
	    why, sizeof why) == -1) {
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
	n = ctl_signed_bytes(r->hello.challenge, &r->params, NULL, sb);
	if (r->have_key && auth_mac(&r->key, "gput2 client", sb, n,
	    r->params.mac) == -1) {
		snprintf(r->err, sizeof r->err, "HMAC failed");
		return -1;
	}
	if (ctl_send(r->ctl, &r->params, why, sizeof why) == -1 ||
	    ctl_recv_type(r->ctl, CTL_READY, &r->ready, CLIENT_CTL_TIMEOUT_MS, why,
	    sizeof why) == -1) {
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

/* Wait for START within deadline; with a UDP proof, send it again every
 * CLIENT_PROOF_MS until START comes (a lost proof must not end the test). */
static int
await_start(struct run *r, const uint8_t *proof, size_t plen)
{
	mono_ns deadline = mono_now() + (mono_ns)CLIENT_CTL_TIMEOUT_MS * 1000000u;
	struct ctl_msg m;
	char why[256];

	for (;;) {
		mono_ns next = mono_now() + (mono_ns)CLIENT_PROOF_MS * 1000000u;
		int w;

		if (proof != NULL && send(r->data, proof, plen, MSG_NOSIGNAL) == -1 &&
		    errno != ECONNREFUSED && errno != ENOBUFS) {
			snprintf(r->err, sizeof r->err, "sending the proof datagram: %s",
			         strerror(errno));
			return -1;
		}
		w = net_wait_readable(r->ctl, -1, (int)(((proof && next < deadline ?
		    next : deadline) - mono_now() + 999999) / 1000000));
		if (w == 1)
			break;
		if (xfer_stop || mono_now() >= deadline) {
			snprintf(r->err, sizeof r->err, "%s waiting for the partner to "
			         "start", xfer_stop ? "interrupted" : "timed out");
			return -1;
		}
	}
	if (ctl_recv_until(r->ctl, CTL_START, &m, deadline, why, sizeof why) == -1) {
		partner_said(r, &m, "partner: ", why);
		return -1;
	}
	return 0;
}

/* Open the data path to the READY port and prove it. Returns 0 or -1. */
static int
open_data(struct run *r)
{
	const struct xfer_params *p = &r->lp;
	struct sockaddr_storage to = r->peer;
	uint8_t proof[PROOF_MAX_LEN];
	char why[256];
	size_t plen = 0;
	int udp = p->proto == PROTO_UDP;

	net_set_port(&to, r->ready.data_port);
	if (udp) {
		r->data = net_bind_like(&r->local, SOCK_DGRAM, why, sizeof why);
		if (r->data == -1 || (p->window && net_set_window(r->data, p->window,
		    1, why, sizeof why) == -1) || (p->role == ROLE_RECV &&
		    xfer_udp_prepare(r->data, why, sizeof why) == -1))
			goto bad;
		/* only the partner's data socket may reach ours from now on;
		 * what came before the connect came from anyone */
		if (connect(r->data, (struct sockaddr *)&to, sizeof to) == -1) {
			snprintf(why, sizeof why, "connect UDP: %s", strerror(errno));
			goto bad;
		}
		xfer_udp_drain(r->data);
		plen = xfer_proof_encode(p, r->ready.nonce, proof);
	} else {
		r->data = net_connect_sa(&to, SOCK_STREAM, p->window,
		    CLIENT_CTL_TIMEOUT_MS, why, sizeof why);
		if (r->data == -1 || (p->nodelay && net_set_nodelay(r->data, why,
		    sizeof why) == -1))
			goto bad;
		if (send(r->data, r->ready.nonce, CTL_NONCE_LEN, MSG_NOSIGNAL) !=
		    CTL_NONCE_LEN) {
			snprintf(why, sizeof why, "sending the nonce: %s", strerror(errno));
			goto bad;
		}
		linkpred_tcp_sent(r->data, &r->nonce_bytes, &r->nonce_segs);
	}
	if (net_set_timeouts(r->data, DATA_IDLE_TIMEOUT_MS, DATA_IDLE_TIMEOUT_MS,
	    why, sizeof why) == -1)
		goto bad;
	return await_start(r, udp ? proof : NULL, plen);
bad:
	snprintf(r->err, sizeof r->err, "data connection to port %u: %s",
	         r->ready.data_port, why);
	return -1;
}

/* -v: what the data connection really got, on stderr. */
static void
describe_data(const struct run *r)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof ss, il = sizeof(int);
	char a[NET_ADDRSTRLEN], b[NET_ADDRSTRLEN];
	uint32_t snd, rcv;
	int mss = 0;

	if (getpeername(r->data, (struct sockaddr *)&ss, &sl) == -1)
		return;
	net_get_window(r->data, &snd, &rcv);
	fprintf(stderr, "gput: data %s %s port %u -> %s port %u, socket buffers "
	        "send %u receive %u bytes", r->lp.proto == PROTO_UDP ? "udp" : "tcp",
	        net_ntop(&r->local, a, sizeof a), net_local_port(r->data),
	        net_ntop(&ss, b, sizeof b), net_port(&ss), snd, rcv);
	if (r->lp.proto == PROTO_TCP &&
	    getsockopt(r->data, IPPROTO_TCP, TCP_MAXSEG, &mss, &il) == 0)
		fprintf(stderr, ", MSS %d", mss);
	fputc('\n', stderr);
}

/* After ^C: the partner was asked to STOP; its partial RESULT comes at
 * once or not at all. */
static void
collect_stopped(struct run *r, const struct watch *w)
{
	struct ctl_msg m;
	char why[256];

	r->interrupted = 1;
	xfer_stop_clear();
	if (w->event != WATCH_SIGNAL) {         /* ^C as the watcher ended */
		m.type = CTL_STOP;
		(void)ctl_send(r->ctl, &m, why, sizeof why);
	}
	if (w->have_result) {
		r->rr = w->result.result;
		r->have_rr = 1;
	} else if (ctl_recv_type(r->ctl, CTL_RESULT, &m, CLIENT_STOP_MS, why,
	    sizeof why) == 0) {
		r->rr = m.result;
		r->have_rr = 1;
	}
}

/* Run the local half under a watcher, then collect the partner's result.
 * Returns 0, or -1 with r->err filled (r->interrupted: print what there is). */
static int
transfer(struct run *r)
{
	struct watch w = { .ctl = r->ctl, .data = r->data, .client = 1 };
	struct ctl_msg m;
	char why[256];
	int rc;

	if (r->lp.verbose)
		describe_data(r);
	if (watch_begin(&w, why, sizeof why) == -1) {
		snprintf(r->err, sizeof r->err, "%s", why);
		return -1;
	}
	rc = xfer_run(r->data, &r->lp, &r->lr, why, sizeof why);
	watch_end(&w);
	switch (w.event) {
	case WATCH_SIGNAL:
		collect_stopped(r, &w);
		return -1;
	case WATCH_PEER_ERROR:
		snprintf(r->err, sizeof r->err, "partner: %s", w.msg.text);
		return -1;
	case WATCH_PEER_CLOSED:
		if (rc == 0) {                  /* as if we had been waiting already */
			snprintf(r->err, sizeof r->err, "partner's results: connection "
			         "closed while waiting for a RESULT message");
			return -1;
		}
		/* fall through */
	case WATCH_PEER_FAILED:
		snprintf(r->err, sizeof r->err, "partner: %s", w.err);
		return -1;
	default:
		break;
	}
	if (rc == -1 && xfer_stop) {            /* ^C as the watcher ended */
		collect_stopped(r, &w);
		return -1;
	}
	if (rc == -1) {
		/* the partner's reason, if it gives one at once, says more than
		 * what its ending did to the data connection */
		if (ctl_recv_type(r->ctl, CTL_RESULT, &m, CLIENT_STOP_MS, r->err,
		    sizeof r->err) == -1 && m.type == CTL_ERROR)
			snprintf(r->err, sizeof r->err, "partner: %s", m.text);
		else
			snprintf(r->err, sizeof r->err, "%s", why);
		return -1;
	}
	if (w.have_result) {
		r->rr = w.result.result;
	} else if (ctl_recv_type(r->ctl, CTL_RESULT, &m, CLIENT_RESULT_TIMEOUT_MS,
	    why, sizeof why) == -1) {
		if (xfer_stop) {                /* ^C while the partner finished */
			r->interrupted = 1;
			return -1;
		}
		partner_said(r, &m, "partner: ", why);
		if (m.type != CTL_ERROR)
			snprintf(r->err, sizeof r->err, "partner's results: %s", why);
		return -1;
	} else {
		r->rr = m.result;
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
	if (!partial && r->bytes != p->data_bytes &&
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
	if (p->proto == PROTO_UDP && r->dgrams > r->calls)
		return "more datagrams than calls";
	if ((r->flags & RES_QUEUE) && r->unsent + r->unacked > r->bytes)
		return "more bytes queued than written";
	if (r->calls == 0 && r->bytes > 0)
		return "bytes moved without a call";
	return NULL;
}

/* The table and the lines under it. Returns the exit status. */
static int
print_results(struct run *r)
{
	const struct config *c = r->c;
	const struct report_row rows[2] = {
		{ 'l', r->lp.len, r->lp.count, &r->lr },
		{ '1', r->rp.len, r->rp.count, &r->rr },
	};
	int recv_side = r->lp.role == ROLE_RECV ? 0 : 1, i, bad = 0;
	int nrows = r->have_rr ? 2 : 1;

	if (c->title)
		report_title(stdout, c->loc.format);
	report_line(stdout, c->loc.format, &rows[0]);
	if (r->have_rr)
		report_line(stdout, c->rem.format, &rows[1]);
	if (r->lp.proto == PROTO_UDP && r->have_rr && !r->interrupted)
		report_udp_arrivals(stdout, rows[recv_side].tag, rows[recv_side].r,
		    rows[1 - recv_side].r, xfer_udp_idle_ms(&r->lp));
	for (i = 0; i < nrows; i++) {
		report_verify(stdout, rows[i].tag, rows[i].r);
		bad |= rows[i].r->verify_bad != 0;
		if (i == 1 - recv_side && (c->loc.verbose || c->rem.verbose))
			report_tcp_queue(stdout, rows[i].tag, rows[i].r);
	}
	if (r->have_rr && (c->loc.verbose || c->rem.verbose) &&
	    (r->rr.flags & RES_BUFS))
		fprintf(stdout, "1: data socket buffers: send %u, receive %u bytes "
		        "(as the partner's kernel set them)\n", r->rr.sndbuf,
		        r->rr.rcvbuf);
	if (r->interrupted) {
		fprintf(stdout, "interrupted: the lines above count what was moved "
		        "until the stop%s\n", r->have_rr ? "" : "; the partner sent "
		        "no results in time");
		fflush(stdout);
		return 130;
	}
	if (c->link_bps > 0 && linkpred_report(stdout, &r->lc, r->lp.data_len,
	    c->link_bps, rows, 2, r->err, sizeof r->err) == -1) {
		fprintf(stderr, "gput: --link: %s\n", r->err);
		return 1;
	}
	fflush(stdout);
	if (bad) {
		fprintf(stderr, "gput: data verification failed\n");
		return 1;
	}
	return 0;
}

/* Connect, agree, prove, transfer, check. Returns the exit status. */
static int
session(struct run *r)
{
	const struct config *c = r->c;
	socklen_t sl = sizeof r->local, pl = sizeof r->peer;
	const char *bad;
	char why[256];

	r->ctl = net_connect(c->host, c->port, c->family, CLIENT_CTL_TIMEOUT_MS,
	    r->err, sizeof r->err);
	if (r->ctl == -1) {
		fprintf(stderr, "gput: %s%s\n", r->err, xfer_stop ? " (interrupted)" :
		        strstr(r->err, "refused") ? " (is gput -i running there?)" : "");
		r->err[0] = '\0';              /* said */
		r->interrupted = xfer_stop != 0;
		return xfer_stop ? 130 : 1;
	}
	if (getsockname(r->ctl, (struct sockaddr *)&r->local, &sl) == -1 ||
	    getpeername(r->ctl, (struct sockaddr *)&r->peer, &pl) == -1) {
		snprintf(r->err, sizeof r->err, "control connection: %s",
		         strerror(errno));
		return 1;
	}
	if (net_set_keepalive(r->ctl, why, sizeof why) == -1) {
		snprintf(r->err, sizeof r->err, "control connection: %s", why);
		return 1;
	}
	if (handshake(r) == -1 || open_data(r) == -1)
		return xfer_stop ? 130 : 1;
	if (transfer(r) == -1)
		return r->interrupted ? print_results(r) : 1;
	if ((bad = result_invalid(&r->rp, &r->rr)) != NULL) {
		snprintf(r->err, sizeof r->err, "the partner's results do not fit the "
		         "test: it reports %s", bad);
		return 1;
	}
	/* after RESULT: the partner has everything, so the segment counts
	 * describe the whole transfer */
	if (c->link_bps > 0 && linkpred_from_socket(r->data, &r->lp, c, &r->lc,
	    why, sizeof why) == -1) {
		snprintf(r->err, sizeof r->err, "--link: %s", why);
		return 1;
	}
	if (r->lp.role == ROLE_SEND && r->lc.tcp_segs > r->nonce_segs &&
	    r->lc.tcp_bytes >= r->nonce_bytes) {   /* the stream alone */
		r->lc.tcp_bytes -= r->nonce_bytes;
		r->lc.tcp_segs -= r->nonce_segs;
	}
	return print_results(r);
}

int
run_client(const struct config *c)
{
	struct run r = { .c = c, .ctl = -1, .data = -1 };
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESETHAND };
	int rc;

	if (xfer_stop_init(r.err, sizeof r.err) == -1) {
		fprintf(stderr, "gput: %s\n", r.err);
		return 1;
	}
	sigaction(SIGINT, &sa, NULL);           /* no SA_RESTART: calls return EINTR */
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	cli_params(c, &r.lp, &r.rp);
	if (c->key_file != NULL) {
		if (auth_key_load(c->key_file, &r.key, r.err, sizeof r.err) == -1) {
			fprintf(stderr, "gput: %s\n", r.err);
			return 1;
		}
		r.have_key = 1;
	}
	rc = session(&r);
	if (rc == 130 && r.err[0] == '\0')
		snprintf(r.err, sizeof r.err, "interrupted");
	if (rc != 0 && r.err[0] != '\0' && !r.interrupted)
		fprintf(stderr, "gput: partner %s port %u: %s\n", c->host, c->port,
		        r.err);
	if (r.data != -1)
		close(r.data);
	if (r.ctl != -1)
		close(r.ctl);
	auth_key_wipe(&r.key);
	return rc;
}

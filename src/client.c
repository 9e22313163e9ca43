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

#include "ctl.h"
#include "daemon.h"
#include "linkpred.h"
#include "net.h"
#include "report.h"

struct run {
	const struct config *c;
	struct xfer_params lp, rp;      /* local and partner halves */
	int ctl, data;
	struct sockaddr_storage local, peer;
	struct gput_result lr, rr;      /* local and partner results */
	struct link_conn lc;            /* --link: the connection as it was */
	char err[300];
};

static void
on_signal(int sig)
{
	(void)sig;
	xfer_stop = 1;
}

/* Ask the partner for its half; returns the data port, or -1. */
static int
negotiate(struct run *r, uint16_t udp_port)
{
	struct ctl_msg m = { .type = CTL_PARAMS };
	char why[256];

	m.params = r->rp;
	m.udp_port = udp_port;
	if (ctl_send(r->ctl, &m, why, sizeof why) == -1 ||
	    ctl_recv_type(r->ctl, CTL_READY, &m, CLIENT_CTL_TIMEOUT_MS, why,
	    sizeof why) == -1) {
		if (m.type == CTL_ERROR)
			snprintf(r->err, sizeof r->err, "partner refused the test: %s",
			         m.text);
		else
			snprintf(r->err, sizeof r->err, "%s", why);
		return -1;
	}
	return m.data_port;
}

/* The partner spoke or hung up on the control connection while we waited for
 * data: fill r->err with what it said (its ERROR) or that it left. */
static void
partner_left(struct run *r)
{
	struct ctl_msg m;
	char why[256];

	if (ctl_recv_type(r->ctl, CTL_RESULT, &m, CLIENT_CTL_TIMEOUT_MS, why,
	    sizeof why) == 0)
		snprintf(r->err, sizeof r->err, "partner sent its results before "
		         "any data");
	else if (m.type == CTL_ERROR)
		snprintf(r->err, sizeof r->err, "partner: %s", m.text);
	else
		snprintf(r->err, sizeof r->err, "partner's results: %s", why);
}

/* A UDP receiver waits for the first datagram here, watching the control
 * connection: a partner that failed or died after READY says so there, and
 * nothing else would end the wait early. Returns 0 or -1. */
static int
await_datagram(struct run *r)
{
	switch (net_wait_readable(r->data, r->ctl, CLIENT_CTL_TIMEOUT_MS)) {
	case 1:
		return 0;
	case 2:
		partner_left(r);
		return -1;
	}
	snprintf(r->err, sizeof r->err, "%s", xfer_stop ? "interrupted" :
	         "no datagram arrived within the start timeout");
	return -1;
}

/* Open the data socket and agree on its ports. Returns 0 or -1. */
static int
open_data(struct run *r)
{
	const struct xfer_params *p = &r->lp;
	struct sockaddr_storage to = r->peer;
	char why[256];
	int port = 0, udp = p->proto == PROTO_UDP;

	if (udp) {
		r->data = net_bind_like(&r->local, SOCK_DGRAM, why, sizeof why);
		if (r->data == -1 || (p->window && net_set_window(r->data, p->window,
		    why, sizeof why) == -1) || (p->role == ROLE_RECV &&
		    xfer_udp_prepare(r->data, why, sizeof why) == -1))
			goto bad;
	}
	port = negotiate(r, udp ? net_local_port(r->data) : 0);
	if (port == -1)
		return -1;
	net_set_port(&to, (uint16_t)port);
	if (udp && connect(r->data, (struct sockaddr *)&to, sizeof to) == -1) {
		snprintf(why, sizeof why, "connect UDP: %s", strerror(errno));
		goto bad;
	}
	if (!udp) {
		r->data = net_connect_sa(&to, SOCK_STREAM, p->window,
		    CLIENT_CTL_TIMEOUT_MS, why, sizeof why);
		if (r->data == -1 || (p->nodelay && net_set_nodelay(r->data, why,
		    sizeof why) == -1))
			goto bad;
	}
	if (net_set_timeouts(r->data, DATA_IDLE_TIMEOUT_MS, DATA_IDLE_TIMEOUT_MS,
	    why, sizeof why) == -1)
		goto bad;
	return udp && p->role == ROLE_RECV ? await_datagram(r) : 0;
bad:
	snprintf(r->err, sizeof r->err, "data connection to port %d: %s", port, why);
	return -1;
}

/* -v: what the data connection really got, on stderr. */
static void
describe_data(const struct run *r)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof ss, il = sizeof(int);
	char a[NET_ADDRSTRLEN], b[NET_ADDRSTRLEN];
	int snd = 0, rcv = 0, mss = 0;

	if (getpeername(r->data, (struct sockaddr *)&ss, &sl) == -1)
		return;
	getsockopt(r->data, SOL_SOCKET, SO_SNDBUF, &snd, &il);
	il = sizeof(int);
	getsockopt(r->data, SOL_SOCKET, SO_RCVBUF, &rcv, &il);
	fprintf(stderr, "gput: data %s %s port %u -> %s port %u, socket buffers "
	        "send %d receive %d bytes", r->lp.proto == PROTO_UDP ? "udp" : "tcp",
	        net_ntop(&r->local, a, sizeof a), net_local_port(r->data),
	        net_ntop(&ss, b, sizeof b), net_port(&ss), snd, rcv);
	il = sizeof(int);
	if (r->lp.proto == PROTO_TCP &&
	    getsockopt(r->data, IPPROTO_TCP, TCP_MAXSEG, &mss, &il) == 0)
		fprintf(stderr, ", MSS %d", mss);
	fputc('\n', stderr);
}

/* Run the local half, then collect the partner's result. */
static int
transfer(struct run *r)
{
	struct ctl_msg m;
	char why[256];

	if (r->lp.verbose)
		describe_data(r);
	if (xfer_run(r->data, &r->lp, &r->lr, why, sizeof why) == -1) {
		snprintf(r->err, sizeof r->err, "%s", why);
		return -1;
	}
	if (ctl_recv_type(r->ctl, CTL_RESULT, &m, CLIENT_RESULT_TIMEOUT_MS, why,
	    sizeof why) == -1) {
		snprintf(r->err, sizeof r->err, "%s%s", m.type == CTL_ERROR ?
		         "partner: " : "partner's results: ", m.type == CTL_ERROR ?
		         m.text : why);
		return -1;
	}
	r->rr = m.result;
	/* after RESULT: the partner has everything, so the segment counts
	 * describe the whole transfer */
	if (r->c->link_bps > 0 && linkpred_from_socket(r->data, &r->lp, r->c,
	    &r->lc, why, sizeof why) == -1) {
		snprintf(r->err, sizeof r->err, "--link: %s", why);
		return -1;
	}
	return 0;
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

	if (c->title)
		report_title(stdout, c->loc.format);
	report_line(stdout, c->loc.format, &rows[0]);
	report_line(stdout, c->rem.format, &rows[1]);
	if (r->lp.proto == PROTO_UDP)
		report_udp_arrivals(stdout, rows[recv_side].tag, rows[recv_side].r,
		    rows[1 - recv_side].r, xfer_udp_idle_ms(&r->lp));
	for (i = 0; i < 2; i++) {
		report_verify(stdout, rows[i].tag, rows[i].r);
		bad |= rows[i].r->verify_bad != 0;
		if (i == 1 - recv_side && (c->loc.verbose || c->rem.verbose))
			report_tcp_queue(stdout, rows[i].tag, rows[i].r);
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

int
run_client(const struct config *c)
{
	struct run r = { .c = c, .ctl = -1, .data = -1 };
	struct sigaction sa = { .sa_handler = on_signal };
	socklen_t sl = sizeof r.local, pl = sizeof r.peer;
	int rc = 1;

	sigaction(SIGINT, &sa, NULL);           /* no SA_RESTART: calls return EINTR */
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	cli_params(c, &r.lp, &r.rp);
	r.ctl = net_connect(c->host, c->port, c->family, CLIENT_CTL_TIMEOUT_MS,
	    r.err, sizeof r.err);
	if (r.ctl == -1) {
		fprintf(stderr, "gput: %s%s\n", r.err, strstr(r.err, "refused") ?
		        " (is gput -i running there?)" : "");
		return 1;
	}
	if (getsockname(r.ctl, (struct sockaddr *)&r.local, &sl) == -1 ||
	    getpeername(r.ctl, (struct sockaddr *)&r.peer, &pl) == -1)
		snprintf(r.err, sizeof r.err, "control connection: %s", strerror(errno));
	else if (open_data(&r) == 0 && transfer(&r) == 0)
		rc = print_results(&r);
	if (rc != 0 && r.err[0] != '\0')
		fprintf(stderr, "gput: partner %s port %u: %s\n", c->host, c->port,
		        r.err);
	if (r.data != -1)
		close(r.data);
	close(r.ctl);
	return rc;
}

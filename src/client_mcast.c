/* SPDX-License-Identifier: BSD-2-Clause */
/* client_mcast.c: gput -m group: one UDP sender, every partner a receiver. */
#include "client_mcast.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "auth.h"
#include "cli_params.h"
#include "client.h"
#include "ctl.h"
#include "mcast.h"
#include "model.h"
#include "net.h"
#include "report.h"
#include "report_verdict.h"
#include "stream.h"
#include "units.h"
#include "xfer_udp.h"

/* After ^C, how long each partner has to send its partial results. */
#define MCAST_STOP_MS 800

/* One partner: its control connection and what it said. */
struct mpart {
	const struct partner *pt;
	char     tag;                   /* '1' + its place on the command line */
	int      ctl;
	struct sockaddr_storage local, peer;
	struct xfer_params rp;          /* its half: a UDP receiver */
	struct ctl_msg hello, params, ready;
	struct gput_result rr;          /* its side's RESULT */
	struct udp_stats udp;
	int      have_udp, have_rr, failed;
	char     err[300];
};

struct mrun {
	const struct config *c;
	struct xfer_params lp;          /* the sender's half */
	struct mcast_group g;
	struct mpart p[GPUT_MAX_PARTNERS];
	unsigned n;
	struct stream *st;              /* the one sending stream */
	struct stopreq *stop;
	struct auth_key key;
	int      have_key, interrupted;
	char     err[300];
};

/* Mark partner p failed: why, or the ERROR it sent instead (m). */
static int
part_fail(struct mpart *p, const struct ctl_msg *m, const char *prefix,
          const char *why)
{
	if (m != NULL && m->type == CTL_ERROR)
		snprintf(p->err, sizeof p->err, "%s%s", prefix, m->text);
	else
		snprintf(p->err, sizeof p->err, "%s", why);
	p->failed = 1;
	if (p->ctl != -1)
		close(p->ctl);
	p->ctl = -1;
	return -1;
}

/* The control connection to partner p, its addresses as the client sees
 * them (an IPv4-mapped address as IPv4). Returns 0 or -1 (p failed). */
static int
part_connect(struct mrun *r, struct mpart *p)
{
	socklen_t sl = sizeof p->local, pl = sizeof p->peer;
	int fam = r->g.family == MCAST_V6 ? AF_INET6 : AF_INET;
	char why[256];

	p->ctl = net_connect(p->pt->host, p->pt->port, fam, CLIENT_CTL_MS(r->c),
	    r->stop, why, sizeof why);
	if (p->ctl == -1)
		return part_fail(p, NULL, "", why);
	if (getsockname(p->ctl, (struct sockaddr *)&p->local, &sl) == -1 ||
	    getpeername(p->ctl, (struct sockaddr *)&p->peer, &pl) == -1) {
		snprintf(why, sizeof why, "control connection: %s", strerror(errno));
		return part_fail(p, NULL, "", why);
	}
	if (net_set_control(p->ctl, (unsigned)CLIENT_PEER_S(r->c), why, sizeof why) == -1)
		return part_fail(p, NULL, "control connection: ", why);
	mcast_unmap(&p->local);
	mcast_unmap(&p->peer);
	return 0;
}

/* HELLO, PARAMS with the group, READY naming the agreed port, START: the
 * partner has joined the group. Returns 0 or -1 (p failed). */
static int
part_handshake(struct mrun *r, struct mpart *p)
{
	uint8_t sb[CTL_SIGNED_MAX];
	struct ctl_msg m;
	char why[256];
	size_t n;

	if (ctl_recv_type(p->ctl, CTL_HELLO, &p->hello, CLIENT_CTL_MS(r->c),
	    r->stop, why, sizeof why) == -1)
		return part_fail(p, &p->hello, "partner refused the test: ", why);
	if (!(p->hello.hello_flags & CTL_HELLO_KEY) != !r->have_key)
		return part_fail(p, NULL, "", r->have_key ? "the partner does not "
		    "check the shared secret, so it cannot prove it knows it "
		    "(--key-file)" : "the partner requires the shared secret: give "
		    "it with --key-file");
	p->params.type = CTL_PARAMS;
	p->params.params = p->rp;
	p->params.mcast = r->g;
	n = ctl_signed_bytes(p->hello.challenge, &p->params, NULL, sb);
	if (r->have_key && auth_mac(&r->key, "gput2 client", sb, n,
	    p->params.mac) == -1)
		return part_fail(p, NULL, "", "HMAC failed");
	if (ctl_send(p->ctl, &p->params, why, sizeof why) == -1 ||
	    ctl_recv_type(p->ctl, CTL_READY, &p->ready, CLIENT_CTL_MS(r->c),
	    r->stop, why, sizeof why) == -1)
		return part_fail(p, &p->ready, "partner refused the test: ", why);
	n = ctl_signed_bytes(p->hello.challenge, &p->params, &p->ready, sb);
	if (r->have_key && !auth_verify(&r->key, "gput2 partner", sb, n,
	    p->ready.mac))
		return part_fail(p, NULL, "", "the partner failed to prove it knows "
		    "the shared secret (--key-file)");
	if (p->ready.nports != 1 || p->ready.port[0] != r->g.port)
		return part_fail(p, NULL, "", "the partner's READY does not name "
		    "the group's port");
	if (ctl_recv_type(p->ctl, CTL_START, &m, CLIENT_CTL_MS(r->c), r->stop,
	    why, sizeof why) == -1)
		return part_fail(p, &m, "partner: ", why);
	return 0;
}

/* Connect to every partner; the group leaves by one interface, so every
 * partner must be reached from the same address, the one the data is sent
 * from. Returns the number of partners still in the test. */
static unsigned
connect_all(struct mrun *r, struct sockaddr_storage *from)
{
	char a[NET_ADDRSTRLEN], b[NET_ADDRSTRLEN], why[300];
	unsigned i, live = 0;

	for (i = 0; i < r->n && !stop_requested(r->stop); i++) {
		struct mpart *p = &r->p[i];

		if (part_connect(r, p) == -1)
			continue;
		if (live++ == 0) {
			*from = p->local;
			continue;
		}
		if (!net_same_addr(&p->local, from)) {
			snprintf(why, sizeof why, "reached from %s, but the group is "
			         "sent from %s (partner %c's): multicast leaves by one "
			         "interface", net_ntop(&p->local, a, sizeof a),
			         net_ntop(from, b, sizeof b), r->p[0].tag);
			part_fail(p, NULL, "", why);
			live--;
		}
	}
	return live;
}

/* The rest of partner p's results, until its side's RESULT: UDPSTATS and
 * the stream's RESULT come first. Returns 0, or -1 (p failed). */
static int
part_collect(struct mpart *p, mono_ns deadline, const struct stopreq *stop)
{
	struct ctl_msg m;
	char why[256];

	while (!p->have_rr) {
		if (ctl_recv_any_until(p->ctl, &m, deadline, stop, why,
		    sizeof why) == -1)
			return part_fail(p, NULL, "partner's results: ", why);
		switch (m.type) {
		case CTL_UDPSTATS:
			p->udp = m.udp;
			p->have_udp = 1;
			continue;
		case CTL_RESULT:
			if (m.stream == 0) {
				p->rr = m.result;
				p->have_rr = 1;
			}
			continue;
		case CTL_INTERVAL:
			continue;
		case CTL_ERROR:
			return part_fail(p, &m, "partner: ", "");
		}
		snprintf(why, sizeof why, "unexpected %s message (expected RESULT)",
		         ctl_type_name(m.type));
		return part_fail(p, NULL, "partner's results: ", why);
	}
	return 0;
}

/* Is partner p's result possible for what was sent (s)? NULL, or what is
 * wrong: a partner that says otherwise is broken or hostile. */
static const char *
part_invalid(const struct mrun *r, const struct mpart *p,
             const struct gput_result *s)
{
	const struct gput_result *q = &p->rr;

	if ((q->flags & RES_STOPPED) && !r->interrupted)
		return "RESULT flag 32 (stopped on request) though this client "
		       "sent no STOP";
	if (q->bytes > r->lp.data_bytes || q->bytes > s->bytes)
		return "more bytes than were sent";
	if (q->dgrams > s->dgrams || q->dgrams > q->calls)
		return "more datagrams than were sent, or than calls";
	if (p->have_udp && p->udp.unique != q->dgrams)
		return "an accounting that disagrees with its datagram count";
	if (q->verify_bad > q->bytes || ((q->flags & RES_VERIFIED) &&
	    !p->rp.verify))
		return "a verification it was not asked for, or more bad bytes "
		       "than bytes";
	return NULL;
}

/* -v: the data socket, on stderr. */
static void
describe(const struct mrun *r, int fd)
{
	char a[NET_ADDRSTRLEN], b[NET_ADDRSTRLEN];
	struct sockaddr_storage me;
	socklen_t ml = sizeof me;
	uint32_t snd, rcv;

	if (getsockname(fd, (struct sockaddr *)&me, &ml) == -1)
		return;
	net_get_window(fd, &snd, &rcv);
	fprintf(stderr, "gput: data udp %s port %u -> group %s port %u, %s %u, "
	        "socket buffers send %u receive %u bytes\n",
	        net_ntop(&me, a, sizeof a), net_port(&me),
	        mcast_ntop(&r->g, b, sizeof b), r->g.port,
	        r->g.family == MCAST_V6 ? "hop limit" : "TTL", r->g.ttl, snd, rcv);
}

/* Send the stream, then collect every partner's results (after ^C: STOP
 * first, and a short wait). Returns 0, or -1 with r->err (the stream
 * failed). */
static int
transfer(struct mrun *r)
{
	struct ctl_msg stop = { .type = CTL_STOP };
	mono_ns deadline;
	char why[256];
	unsigned i;

	if (r->lp.verbose)
		describe(r, r->st->fd);
	stream_run(r->st);
	if (stop_requested(r->stop)) {
		r->interrupted = 1;
		stop_clear(r->stop);
		for (i = 0; i < r->n; i++)
			if (!r->p[i].failed)
				(void)ctl_send(r->p[i].ctl, &stop, why, sizeof why);
	} else if (r->st->rc == -1) {
		snprintf(r->err, sizeof r->err, "sending to the group: %s",
		         r->st->err);
		return -1;
	}
	deadline = mono_now() + (mono_ns)(r->interrupted ? MCAST_STOP_MS :
	    CLIENT_RESULT_MS(r->c)) * 1000000u;
	for (i = 0; i < r->n; i++) {
		struct mpart *p = &r->p[i];
		const char *bad;

		if (p->failed || part_collect(p, deadline, r->stop) == -1)
			continue;
		if ((bad = part_invalid(r, p, &r->st->r)) != NULL) {
			snprintf(why, sizeof why, "the partner's results do not fit "
			         "the test: it reports %s", bad);
			p->have_rr = 0;
			part_fail(p, NULL, "", why);
		}
	}
	return 0;
}

/* -v: receiver p's verdict (gput(1), WHY A RUN FELL SHORT), on a model of
 * its own: the group's one stream as sent, and what p received of it. */
static void
print_verdict(const struct mrun *r, const struct mpart *p)
{
	struct run_model m;

	memset(&m, 0, sizeof m);
	m.proto = PROTO_UDP;
	m.role = ROLE_SEND;
	m.duration_ms = r->lp.duration_ms;
	m.data_bytes = r->lp.data_bytes;
	m.data_len = r->lp.data_len;
	m.streams = 1;
	m.host = p->pt->host;
	m.port = p->pt->port;
	if (r->lp.data_gap_ps > 0)
		m.pace_bps = (double)r->lp.data_len * 8e12 /
		    (double)r->lp.data_gap_ps;
	m.udp_idle_ms = (uint32_t)xfer_udp_idle_ms(&p->rp);
	m.side[0] = (struct side){ .tag = 'l', .proto = PROTO_UDP,
	    .role = ROLE_SEND, .len = r->lp.len, .count = r->lp.count,
	    .have_result = 1, .r = r->st->r };
	m.side[1] = (struct side){ .tag = p->tag, .proto = PROTO_UDP,
	    .role = ROLE_RECV, .len = p->rp.len, .count = p->rp.count,
	    .have_result = 1, .r = p->rr, .udp_sent = r->st->r.dgrams,
	    .have_udp = p->have_udp, .udp = p->udp };
	model_figures(&m);
	report_verdict_text(stdout, &m);
}

/* The table: the sender once, then each partner that answered, then each
 * one's arrivals (and with -v its verdict). Returns the exit status. */
static int
print_table(struct mrun *r)
{
	const struct config *c = r->c;
	const struct gput_result *s = &r->st->r;
	struct figures fig;
	struct report_row row = { 'l', r->lp.len, r->lp.count, s, &fig };
	int rc = 0;
	unsigned i;

	model_rates(s, &fig);
	if (c->title)
		report_title(stdout, c->loc.format);
	report_line(stdout, c->loc.format, &row);
	for (i = 0; i < r->n; i++) {
		const struct mpart *p = &r->p[i];

		model_rates(&p->rr, &fig);
		row = (struct report_row){ p->tag, p->rp.len, p->rp.count, &p->rr,
		    &fig };
		if (p->have_rr)
			report_line(stdout, p->pt->rem.format, &row);
	}
	for (i = 0; i < r->n; i++) {
		const struct mpart *p = &r->p[i];

		if (!p->have_rr)
			continue;
		model_loss(s->dgrams, p->rr.dgrams, &fig);
		if (!r->interrupted)
			report_udp_arrivals(stdout, p->tag, &p->rr, &fig,
			    xfer_udp_idle_ms(&r->lp), p->have_udp ? &p->udp : NULL,
			    c->same_clock);
		report_verify(stdout, p->tag, &p->rr);
		if (p->rr.verify_bad)
			rc = 1;
		if (r->lp.verbose && !r->interrupted)
			print_verdict(r, p);
	}
	if (r->interrupted)
		fprintf(stdout, "interrupted: the lines above count what was moved "
		        "until the stop\n");
	fflush(stdout);
	if (rc)
		fprintf(stderr, "gput: data verification failed\n");
	return r->interrupted ? 130 : rc;
}

/* Everything from the control connections to the table. Returns the exit
 * status; r->err says why the whole test failed, if it did. */
static int
mrun(struct mrun *r)
{
	struct sockaddr_storage from;
	char why[256];
	unsigned i, live;

	if (connect_all(r, &from) == 0)
		return stop_requested(r->stop) ? 130 : 1;
	r->st->fd = mcast_sender_open(&r->g, &from, r->lp.window, why, sizeof why);
	if (r->st->fd == -1) {
		snprintf(r->err, sizeof r->err, "%s", why);
		return 1;
	}
	for (i = live = 0; i < r->n; i++)
		if (!r->p[i].failed && !stop_requested(r->stop))
			live += part_handshake(r, &r->p[i]) == 0;
	if (stop_requested(r->stop))
		return 130;
	if (live == 0)
		return 1;
	if (net_set_timeouts(r->st->fd, 0, CLIENT_IDLE_MS(r->c), why,
	    sizeof why) == -1 || transfer(r) == -1) {
		if (r->err[0] == '\0')
			snprintf(r->err, sizeof r->err, "%s", why);
		return 1;
	}
	return print_table(r);
}

int
run_mcast(const struct config *c)
{
	struct mrun r = { .c = c, .g = c->mcast, .stop = stop_process() };
	char g[NET_ADDRSTRLEN];
	unsigned i;
	int rc;

	if (stop_on_signals(r.err, sizeof r.err) == -1) {
		fprintf(stderr, "gput: %s\n", r.err);
		return 1;
	}
	if (r.g.ttl == 0)
		r.g.ttl = MCAST_DEFAULT_TTL;
	if (c->key_file != NULL) {
		if (auth_key_load(c->key_file, &r.key, r.err, sizeof r.err) == -1) {
			fprintf(stderr, "gput: %s\n", r.err);
			return 1;
		}
		r.have_key = 1;
	}
	r.n = c->npartners;
	for (i = 0; i < r.n; i++) {
		struct config pc = *c;          /* partner i's half, as its own */

		pc.rem = c->partners[i].rem;
		cli_params(&pc, &r.lp, &r.p[i].rp);
		r.p[i].pt = &c->partners[i];
		r.p[i].tag = (char)('1' + i);
		r.p[i].ctl = -1;
	}
	r.st = stream_alloc(1);
	if (r.st == NULL) {
		fprintf(stderr, "gput: no memory\n");
		return 1;
	}
	r.st->id = 1;
	r.st->p = r.lp;
	r.st->stop = r.stop;
	rc = mrun(&r);
	if (r.err[0] != '\0')
		fprintf(stderr, "gput: -m %s: %s\n", mcast_ntop(&r.g, g, sizeof g),
		        r.err);
	for (i = 0; i < r.n; i++) {
		if (r.p[i].failed) {
			fprintf(stderr, "gput: partner %s port %u: %s\n",
			        r.p[i].pt->host, r.p[i].pt->port, r.p[i].err);
			if (rc == 0)
				rc = 1;
		}
		if (r.p[i].ctl != -1)
			close(r.p[i].ctl);
	}
	if (rc == 130 && !r.interrupted)
		fprintf(stderr, "gput: interrupted\n");
	if (r.st->fd != -1)
		close(r.st->fd);
	free(r.st);
	auth_key_wipe(&r.key);
	return rc;
}

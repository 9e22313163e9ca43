/* SPDX-License-Identifier: BSD-2-Clause */
/* client.c: gput partner: one test, both sides' results on one screen. */
#include "client.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "auth.h"
#include "cli_params.h"
#include "client_latency.h"
#include "client_open.h"
#include "client_output.h"
#include "client_state.h"
#include "client_transfer.h"
#include "linkpred.h"
#include "net.h"
#include "model.h"
#include "report_ival.h"
#include "startat.h"
#include "stream.h"
#include "watch.h"
#include "xfer_udp.h"

/* --start-at, after START: wait for the moment; the transfer's window
 * opens then. Late (the handshake took longer than STARTAT_LEAD_MS) is an
 * error: this flow would not start with the others. Returns 0 or -1. */
static int
start_at(struct run *r)
{
	int64_t late;

	if (r->c->start_at_ns == 0)
		return 0;
	late = startat_now() - r->c->start_at_ns;
	if (late > 0) {
		snprintf(r->e.text, sizeof r->e.text, "--start-at: the handshake ended "
		         "%.3f s after the start time", (double)late / 1e9);
		return -1;
	}
	if (r->lp.verbose)
		fprintf(stderr, "gput: START came %.3f s before --start-at; "
		        "waiting\n", (double)-late / 1e9);
	if (startat_wait(r->c->start_at_ns, r->stop) == -1) {
		snprintf(r->e.text, sizeof r->e.text, "interrupted waiting for --start-at");
		return -1;
	}
	r->t0 = mono_now();
	r->model.start_mono_ns = r->t0;
	return 0;
}

/* Did a partner of an older gput refuse PARAMS for CTL_XF_HOSTUDP, a bit
 * it does not know (it refuses every such bit with these words)? Then the
 * test is asked again without it, once: such a partner sends no HOSTUDP. */
static int
older_partner(const struct run *r)
{
	return !r->hostudp_off && (r->rp.xflags & CTL_XF_HOSTUDP) &&
	    r->e.code == RUN_ERR_PARTNER && strstr(r->e.text,
	    "bad PARAMS message: reserved bits set") != NULL;
}

/* A partner of an older gput refuses CTL_XF_PEERTIME as a bit it does not
 * know (older_partner's words): say what it refused. */
static void
peer_timeout_refused(struct run *r)
{
	size_t n = strlen(r->e.text);

	if ((r->rp.xflags & CTL_XF_PEERTIME) && r->e.code == RUN_ERR_PARTNER &&
	    strstr(r->e.text, "bad PARAMS message: reserved bits set") != NULL)
		snprintf(r->e.text + n, sizeof r->e.text - n, " (a partner older "
		         "than --peer-timeout: without it, its deadline is %d s)",
		         NET_PEER_TIMEOUT_S);
}

/* Connect, agree, prove, transfer, check. Returns the exit status. */
static int
session(struct run *r)
{
	const struct config *c = r->c;
	socklen_t sl = sizeof r->local, pl = sizeof r->peer;
	char why[CLIENT_WHY_LEN];

	if (c->start_at_ns != 0 && c->loc.verbose)
		fprintf(stderr, "gput: --start-at: connecting %d s before it\n",
		        STARTAT_LEAD_MS / 1000);
	if (c->start_at_ns != 0 && startat_wait(c->start_at_ns -
	    (int64_t)STARTAT_LEAD_MS * 1000000, r->stop) == -1) {
		snprintf(r->e.text, sizeof r->e.text, "interrupted waiting for --start-at");
		return 130;
	}
again:
	r->ctl = net_connect(c->host, c->port, c->family, CLIENT_CTL_MS(c),
	    r->stop, r->e.text, sizeof r->e.text);
	if (r->ctl == -1) {
		int refused = errno == ECONNREFUSED;

		fprintf(stderr, "gput: %s%s\n", r->e.text, stop_requested(r->stop) ?
		        " (interrupted)" : refused ?
		        " (is gput -i running there?)" : "");
		r->e.said = 1;
		r->e.code = RUN_ERR_CONNECT;
		r->interrupted = stop_requested(r->stop);
		return r->interrupted ? 130 : 1;
	}
	if (getsockname(r->ctl, (struct sockaddr *)&r->local, &sl) == -1 ||
	    getpeername(r->ctl, (struct sockaddr *)&r->peer, &pl) == -1) {
		snprintf(r->e.text, sizeof r->e.text, "control connection: %s",
		         strerror(errno));
		return 1;
	}
	if (net_set_control(r->ctl, (unsigned)CLIENT_PEER_S(c), why, sizeof why) == -1) {
		snprintf(r->e.text, sizeof r->e.text, "control connection: %s", why);
		return 1;
	}
	if (client_handshake(r) == -1) {
		if (!older_partner(r)) {
			peer_timeout_refused(r);
			return stop_requested(r->stop) ? 130 : 1;
		}
		close(r->ctl);                  /* once more, without HOSTUDP */
		r->ctl = -1;
		r->hostudp_off = 1;
		r->e.text[0] = '\0';
		r->e.code = RUN_OK;
		goto again;
	}
	if (c->latency) {                       /* the idle phase, then data */
		r->have_lat = 1;
		if (latency_begin(&r->lat, r->ctl, r->stop, &r->local, &r->peer,
		    r->ready.nonce, c, r->e.text, sizeof r->e.text) == -1)
			return stop_requested(r->stop) ? 130 : 1;
	}
	r->t_open = mono_now();
	/* -r -u: this host's UDP counters, before any datagram can come */
	r->hu_ok = r->lp.proto == PROTO_UDP && r->lp.role == ROLE_RECV &&
	    hostudp_read(hostudp_family(&r->local), &r->hu0) == 0;
	if (client_open_data(r) == -1 || start_at(r) == -1)
		return stop_requested(r->stop) ? 130 : 1;
	if (r->have_lat)
		prober_load(&r->lat, r->t0);
	if (c->title && c->interval_ms && c->out == OUT_TABLE)
		report_ival_title(stdout);
	if (client_transfer(r) == -1)
		return r->interrupted ? client_output(r) : 1;
	if (client_partner_check(r) == -1)
		return 1;
	if (r->have_lat && c->same_clock) {     /* every echo in first */
		prober_finish(&r->lat);
		if (prober_stamps_check(&r->lat, r->e.text, sizeof r->e.text) == -1)
			return 1;
	}
	/* after RESULT: the partner has everything, so the segment counts
	 * describe the whole transfer */
	if (c->link_bps > 0 && linkpred_from_socket(r->st[0].fd, &r->lp, c, &r->lc,
	    why, sizeof why) == -1) {
		snprintf(r->e.text, sizeof r->e.text, "--link: %s", why);
		return 1;
	}
	if (r->lp.role == ROLE_SEND && r->lc.tcp_segs > r->nonce_segs &&
	    r->lc.tcp_bytes >= r->nonce_bytes) {   /* the stream alone */
		r->lc.tcp_bytes -= r->nonce_bytes;
		r->lc.tcp_segs -= r->nonce_segs;
	}
	return client_output(r);
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
	m->swin = r->lp.win;
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
	if (r->lp.data_gap_ps > 0)
		m->pace_bps = (double)r->lp.data_len * 8e12 /
		    (double)r->lp.data_gap_ps * r->lp.streams;
	/* the receiver's (--sliding-window's partner waits longer) */
	m->udp_idle_ms = (uint32_t)xfer_udp_idle_ms(r->lp.role == ROLE_RECV ?
	    &r->lp : &r->rp);
}

/* The local streams and their records in the model. Returns 0, or -1 with
 * r->e.text filled. */
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
		snprintf(r->e.text, sizeof r->e.text, "no memory for %u streams", r->nst);
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
 * or -1 with the reason on stderr and in r->e.text. */
static int
prepare(struct run *r)
{
	const struct config *c = r->c;

	if (c->key_file != NULL && auth_key_load(c->key_file, &r->key, r->e.text,
	    sizeof r->e.text) == -1)
		goto fail;
	r->have_key = c->key_file != NULL;
	if (c->log_file != NULL && (r->log = tmpfile()) == NULL) {
		snprintf(r->e.text, sizeof r->e.text, "--log: a temporary file: %s",
		         strerror(errno));
		goto fail;
	}
	return 0;
fail:
	fprintf(stderr, "gput: %s\n", r->e.text);
	r->e.said = 1;
	return -1;
}

static int run(const struct config *c, struct run_model *keep,
               const struct client_hooks *h);

int
run_client(const struct config *c)
{
	return run(c, NULL, NULL);
}

int
run_client_hooked(const struct config *c, const struct client_hooks *h)
{
	return run(c, NULL, h);
}

int
client_run(const struct config *c, struct run_model *keep)
{
	return run(c, keep, NULL);
}

static int
run(const struct config *c, struct run_model *keep,
    const struct client_hooks *h)
{
	struct run r = { .c = c, .hooks = h, .ctl = -1, .stop = stop_process(),
	    .keep = keep != NULL, .lat = { .fd = -1, .wake = { -1, -1 } } };
	uint32_t i;
	int rc;

	if (stop_on_signals(r.e.text, sizeof r.e.text) == -1) {
		fprintf(stderr, "gput: %s\n", r.e.text);
		return 1;
	}
	cli_params(c, &r.lp, &r.rp);
	model_init(&r);
	rc = prepare(&r) == -1 || streams_init(&r) == -1 ? 1 : session(&r);
	rc = client_output_end(&r, rc);
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

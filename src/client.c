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
#include "client_state.h"
#include "client_transfer.h"
#include "linkpred.h"
#include "net.h"
#include "model.h"
#include "udplog.h"
#include "report.h"
#include "report_csv.h"
#include "report_ival.h"
#include "report_json.h"
#include "report_prom.h"
#include "report_table.h"
#include "startat.h"
#include "stream.h"
#include "tcpinfo.h"
#include "partner_watch.h"
#include "xfer_udp.h"

/* Did data verification (-c) fail on either side? The model's results. */
static int
verify_failed(const struct run *r)
{
	return r->model.side[0].r.verify_bad ||
	    (r->have_rr && r->model.side[1].r.verify_bad);
}

/* The table and the lines under it (report_table.c), unless several
 * partners' parent renders it from the model. Returns the exit status. */
static int
print_table(struct run *r)
{
	const struct config *c = r->c;
	const struct table_opts o = { c->loc.format, c->rem.format,
	    c->loc.verbose || c->rem.verbose, c->same_clock };

	if (r->hooks == NULL) {
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
	if (verify_failed(r)) {
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
	char why[CLIENT_WHY_LEN];
	uint32_t i;

	l->have_result = 1;
	p->have_result = r->have_rr;
	for (i = 0; i < r->nst && r->lp.proto == PROTO_TCP; i++)
		if (r->st[i].fd != -1)
			(void)tcpinfo_read(r->st[i].fd, &l->st[i].tcp, why, sizeof why);
	for (i = 0; i < r->nst; i++)            /* the buffers the kernel set */
		if (r->st[i].fd != -1) {
			net_get_window(r->st[i].fd, &l->st[i].r.sndbuf,
			    &l->st[i].r.rcvbuf);
			l->st[i].r.flags |= RES_BUFS;
		}
	if (r->nst == 1 && (l->st[0].r.flags & RES_BUFS)) {
		l->r.sndbuf = l->st[0].r.sndbuf;
		l->r.rcvbuf = l->st[0].r.rcvbuf;
		l->r.flags |= RES_BUFS;
	}
	if (r->have_rr && r->nst > 1) {         /* the partner's sums of its streams */
		struct gput_result keep = p->r;

		model_sum(p);
		p->r = keep;                        /* with its own window and CPU */
	}
	model_fold_stream(l);                   /* -P 1: the side is its stream */
	model_fold_stream(p);
	if (r->lp.win > 0) {                    /* --sliding-window's counts */
		for (i = 0; i < r->nst; i++) {
			/* the partner answers every data datagram it receives */
			p->st[i].win.acks_sent = p->st[i].udp.received;
			p->st[i].have_win = p->st[i].have_udp;
		}
		model_win_sum(l);
		model_win_sum(p);
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
	model_figures(m);
}

/* --prometheus: a run that measured, whole and verified. Anything else
 * returns its status unprinted: run_client prints gput_up 0 for it. */
static int
print_prom(struct run *r)
{
	if (r->interrupted)
		return 130;
	if (verify_failed(r)) {
		snprintf(r->e.text, sizeof r->e.text, "data verification failed");
		r->e.code = RUN_ERR_VERIFY;
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
	if (r->hooks != NULL)                   /* several partners: the parent's */
		r->hooks->on_model(&r->model, r->hooks->arg);
	if (c->out == OUT_TABLE)
		return print_table(r);
	if (c->out == OUT_PROM)            /* never with --repeat (cli_check.c) */
		return print_prom(r);
	if (r->keep || r->hooks != NULL)
		;       /* the run set renders it, or several partners' parent */
	else if (c->out == OUT_CSV)
		report_csv(stdout, &r->model);
	else if (c->out == OUT_JSON)
		report_json(stdout, &r->model);
	else
		report_json_summary_line(stdout, &r->model);
	fflush(stdout);
	rc = r->interrupted ? 130 : 0;
	if (rc == 0 && (verify_failed(r))) {
		fprintf(stderr, "gput: data verification failed\n");
		rc = 1;
	}
	return rc;
}

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
	r->ctl = net_connect(c->host, c->port, c->family, CLIENT_CTL_TIMEOUT_MS,
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
	if (net_set_control(r->ctl, why, sizeof why) == -1) {
		snprintf(r->e.text, sizeof r->e.text, "control connection: %s", why);
		return 1;
	}
	if (client_handshake(r) == -1)
		return stop_requested(r->stop) ? 130 : 1;
	if (c->latency) {                       /* the idle phase, then data */
		r->have_lat = 1;
		if (latency_begin(&r->lat, r->ctl, r->stop, &r->local, &r->peer,
		    r->ready.nonce, c, r->e.text, sizeof r->e.text) == -1)
			return stop_requested(r->stop) ? 130 : 1;
	}
	r->t_open = mono_now();
	if (client_open_data(r) == -1 || start_at(r) == -1)
		return stop_requested(r->stop) ? 130 : 1;
	if (r->have_lat)
		prober_load(&r->lat, r->t0);
	if (c->title && c->interval_ms && c->out == OUT_TABLE)
		report_ival_title(stdout);
	if (client_transfer(r) == -1)
		return r->interrupted ? print_output(r) : 1;
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
	if (r.log != NULL) {
		fflush(r.log);
		/* the sender's count, once fill_model has it (0: unknown) */
		if (udplog_text(r.log, c->log_file, r.model.side[0].udp_sent,
		    r.e.text, sizeof r.e.text) == -1) {
			fprintf(stderr, "gput: --log %s: %s\n", c->log_file, r.e.text);
			if (rc == 0)
				rc = 1;
		}
		fclose(r.log);
	}
	if (rc == 130 && r.e.text[0] == '\0')
		snprintf(r.e.text, sizeof r.e.text, "interrupted");
	if (rc != 0 && r.e.text[0] != '\0' && !r.interrupted && !r.e.said)
		fprintf(stderr, "gput: partner %s port %u: %s\n", c->host, c->port,
		        r.e.text);
	if (rc != 0 && !r.interrupted && !r.keep && (c->out == OUT_JSON ||
	    c->out == OUT_JSON_LINES)) {        /* none printed */        /* a failed run: valid JSON too */
		r.model.error = r.e.text[0] ? r.e.text : "failed";
		r.model.interrupted = rc == 130;
		r.model.side[0].have_result = 0;
		r.model.side[1].have_result = 0;
		if (h != NULL)                  /* several partners' parent renders it */
			h->on_model(&r.model, h->arg);
		else
			(c->out == OUT_JSON ? report_json :
			    report_json_summary_line)(stdout, &r.model);
		fflush(stdout);
	}
	if (rc != 0 && c->out == OUT_PROM) {    /* gput_up 0, and why */
		r.model.error = r.e.text[0] ? r.e.text : "failed";
		r.model.error_code = rc == 130 ? RUN_ERR_INTERRUPTED :
		    r.e.code != RUN_OK ? r.e.code : RUN_ERR_FAILED;
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

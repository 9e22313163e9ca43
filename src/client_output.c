/* SPDX-License-Identifier: BSD-2-Clause */
/* client_output.c: a client's run into its model, and the model out: the
 * table, CSV, JSON, JSON lines or Prometheus, a failed run's too. */
#include "client_output.h"

#include <stdio.h>
#include <string.h>

#include "client_hooks.h"
#include "client_latency.h"
#include "linkpred.h"
#include "net.h"
#include "report.h"
#include "report_csv.h"
#include "report_json.h"
#include "report_prom.h"
#include "report_table.h"
#include "tcpinfo.h"
#include "udplog.h"

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
int
client_output(struct run *r)
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

int
client_output_end(struct run *r, int rc)
{
	if (r->log != NULL) {
		fflush(r->log);
		/* the sender's count, once fill_model has it (0: unknown) */
		if (udplog_text(r->log, r->c->log_file, r->model.side[0].udp_sent,
		    r->e.text, sizeof r->e.text) == -1) {
			fprintf(stderr, "gput: --log %s: %s\n", r->c->log_file,
			        r->e.text);
			if (rc == 0)
				rc = 1;
		}
		fclose(r->log);
	}
	if (rc == 130 && r->e.text[0] == '\0')
		snprintf(r->e.text, sizeof r->e.text, "interrupted");
	if (rc != 0 && r->e.text[0] != '\0' && !r->interrupted && !r->e.said)
		fprintf(stderr, "gput: partner %s port %u: %s\n", r->c->host,
		        r->c->port, r->e.text);
	if (rc != 0 && !r->interrupted && !r->keep && (r->c->out == OUT_JSON ||
	    r->c->out == OUT_JSON_LINES)) {     /* a failed run: valid JSON too */
		r->model.error = r->e.text[0] ? r->e.text : "failed";
		r->model.interrupted = rc == 130;
		r->model.side[0].have_result = 0;
		r->model.side[1].have_result = 0;
		if (r->hooks != NULL)           /* several partners' parent's */
			r->hooks->on_model(&r->model, r->hooks->arg);
		else
			(r->c->out == OUT_JSON ? report_json :
			    report_json_summary_line)(stdout, &r->model);
		fflush(stdout);
	}
	if (rc != 0 && r->c->out == OUT_PROM) {    /* gput_up 0, and why */
		r->model.error = r->e.text[0] ? r->e.text : "failed";
		r->model.error_code = rc == 130 ? RUN_ERR_INTERRUPTED :
		    r->e.code != RUN_OK ? r->e.code : RUN_ERR_FAILED;
		r->model.side[0].have_result = r->model.side[1].have_result = 0;
		report_prom(stdout, &r->model);
		fflush(stdout);
	}
	return rc;
}

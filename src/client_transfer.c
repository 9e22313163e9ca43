/* SPDX-License-Identifier: BSD-2-Clause */
/* client_transfer.c: a run's transfer under its watcher, and the
 * partner's results collected and checked against the test. */
#include "client_transfer.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "client_hooks.h"
#include "client_plausible.h"
#include "hostudp.h"
#include "client_wait.h"
#include "net.h"
#include "report_ival.h"
#include "report_json.h"
#include "xfer_batch.h"
#include "xfer_udp.h"

/* After ^C, how long the client waits for the partner's partial results. */
#define CLIENT_STOP_MS 800

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
 * may have taken some already). Returns 0 with the model's side[1].r
 * filled (the watcher keeps it there); -1 with why
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
		case CTL_HOSTUDP:
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
	return 0;
}

static void
collect_stopped(struct run *r, struct watch *w)
{
	struct ctl_msg m;
	char why[CLIENT_WHY_LEN];

	r->interrupted = 1;
	stop_clear(r->stop);
	if (w->event != WATCH_SIGNAL) {         /* ^C as the watcher ended */
		w->stop_sent = 1;
		m.type = CTL_STOP;
		(void)ctl_send(r->ctl, &m, why, sizeof why);
	}
	if (collect_result(r, w, CLIENT_STOP_MS, &m, why, sizeof why) == 0)
		r->have_rr = 1;
}

/* An interval the watcher shows, as the live line (--interval with the
 * table) or a JSON line (--json-lines), to standard output or several
 * partners' pipe. */
static void
show_ival(void *arg, const struct run_model *m, const struct side *sd,
          const struct ival *iv)
{
	const struct run *r = arg;
	FILE *out = r->hooks != NULL ? r->hooks->ival_out : stdout;

	if (r->c->out == OUT_TABLE)
		report_ival_line(out, sd, iv);
	else
		report_json_stream_ival(out, m, sd, iv);
	fflush(out);
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
		w->deadline = w->t0 + (mono_ns)(c->duration_ms + CLIENT_IDLE_MS(c)) *
		    1000000u;
	if (c->interval_ms > 0 && (c->out == OUT_TABLE ||
	    c->out == OUT_JSON_LINES)) {        /* the live interval lines */
		w->on_ival = show_ival;
		w->ival_arg = r;
	}
	w->progress = !c->quiet && c->interval_ms == 0 && isatty(STDERR_FILENO);
}

/* The watcher's verdict on a transfer that ended (rc its status). Returns 0
 * to go on, or -1 with r->e.text filled. */
static int
watch_verdict(struct run *r, struct watch *w, int rc)
{
	switch (w->event) {
	case WATCH_SIGNAL:
		collect_stopped(r, w);
		return -1;
	case WATCH_PEER_ERROR:
		snprintf(r->e.text, sizeof r->e.text, "partner: %s", w->msg.text);
		r->e.code = RUN_ERR_PARTNER;
		return -1;
	case WATCH_DEADLINE:
		snprintf(r->e.text, sizeof r->e.text, "the partner went on sending past "
		         "--time");
		return -1;
	case WATCH_PEER_CLOSED:
		if (rc == 0) {                  /* as if we had been waiting already */
			snprintf(r->e.text, sizeof r->e.text, "partner's results: connection "
			         "closed while waiting for a RESULT message");
			return -1;
		}
		/* fall through */
	case WATCH_PEER_FAILED:
		snprintf(r->e.text, sizeof r->e.text, "%s%s", w->lied ? "" : "partner: ",
		         w->err);
		return -1;
	default:
		return 0;
	}
}

/* Run the local streams under a watcher, then collect the partner's
 * results. Returns 0, or -1 with r->e.text filled (r->interrupted: print what
 * there is). */
int
client_transfer(struct run *r)
{
	struct watch *w = &r->w;
	struct ctl_msg m;
	struct meter mt;
	struct gput_result whole = { 0 };
	char why[CLIENT_WHY_LEN] = "";
	struct hostudp hu1, hu;
	uint32_t i;
	int rc, hu_ok;

	for (i = 0; i < r->nst && r->lp.verbose; i++)
		describe_data(r, &r->st[i]);
	watch_setup(r, w);
	if (watch_begin(w, why, sizeof why) == -1) {
		snprintf(r->e.text, sizeof r->e.text, "%s", why);
		return -1;
	}
	meter_start_at(&mt, r->t0);
	rc = stream_run_all(r->st, r->nst, why, sizeof why);
	meter_stop(&mt, &whole);
	hu_ok = r->hu_ok && hostudp_read(r->hu0.flags, &hu1) == 0 &&
	    hostudp_delta(&r->hu0, &hu1, &hu) == 0;
	if (r->have_lat)
		prober_unload(&r->lat);         /* the loaded phase is over */
	watch_end(w);
	if (rc == 0)
		rc = stream_failed(r->st, r->nst) != NULL ? -1 : r->nst == 1 ?
		    r->st[0].rc : 0;
	if (rc == -1 && why[0] == '\0')
		stream_failure(r->st, r->nst, why, sizeof why);
	stream_sum(r->st, r->nst, r->t0, whole.cpu_ns, &r->model.side[0]);
	if (hu_ok) {            /* this host's UDP counters (-r -u) */
		r->model.side[0].host_rcvbuf_errors = hu.rcvbuf_errors;
		r->model.side[0].host_in_errors = hu.in_errors;
		r->model.side[0].host_udp_v6 = (hu.flags & HOSTUDP_V6) != 0;
		r->model.side[0].have_host_udp = 1;
	}
	for (i = 0; i < r->nst && r->lp.win > 0; i++) {  /* --sliding-window */
		r->model.side[0].st[i].win = r->st[i].win;
		r->model.side[0].st[i].have_win = 1;
	}
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
		const struct stream *f = stream_failed(r->st, r->nst);
		int here = f != NULL && !f->peer_ended;

		/* a stream's failure, not ^C, requested the stop: the wait
		 * for the partner's reason must not end at once on it */
		if (f != NULL)
			stop_clear(r->stop);
		/* the partner's reason, if it gives one at once, says more than
		 * what its ending did to the data connection */
		if (collect_result(r, w, CLIENT_STOP_MS, &m, r->e.text,
		    sizeof r->e.text) == -1 && m.type == CTL_ERROR) {
			/* one of several streams that failed here on its own is
			 * the cause; the partner saw the others end after it */
			if (r->nst > 1 && here)
				snprintf(r->e.text, sizeof r->e.text, "%s (partner: %s)", why,
				         m.text);
			else
				snprintf(r->e.text, sizeof r->e.text, "partner: %s", m.text);
			r->e.code = RUN_ERR_PARTNER;
		} else if (!w->lied) {  /* else r->e.text says what it lied about */
			snprintf(r->e.text, sizeof r->e.text, "%s", why);
		}
		return -1;
	}
	if (collect_result(r, w, CLIENT_RESULT_MS(r->c), &m, why,
	    sizeof why) == -1) {
		if (stop_requested(r->stop)) {  /* ^C while the partner finished */
			r->interrupted = 1;
			return -1;
		}
		snprintf(r->e.text, sizeof r->e.text, "%s%s", m.type == CTL_ERROR ?
		         "partner: " : w->lied ? "" : "partner's results: ", why);
		if (m.type == CTL_ERROR)
			r->e.code = RUN_ERR_PARTNER;
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

/* The partner's results do not fit the test: bad says how. Returns -1. */
static int
unfit(struct run *r, const char *bad)
{
	snprintf(r->e.text, sizeof r->e.text, "the partner's results do not fit "
	         "the test: it reports %s", bad);
	return -1;
}

/* Do the partner's stream i's results fit the test and what arrived or
 * was sent here? 0, or -1 with r->e.text saying what does not. */
static int
stream_check(struct run *r, uint32_t i)
{
	const struct side *ps = &r->model.side[1].st[i];
	const struct side *ls = &r->model.side[0].st[i];
	const char *bad;
	char why[CLIENT_WHY_LEN];

	if (plaus_stream(&r->rp, ps, ls, why, sizeof why) == -1) {
		if (r->nst > 1)
			snprintf(r->e.text, sizeof r->e.text, "the partner's %s "
			         "(stream %u)", why, i + 1);
		else
			snprintf(r->e.text, sizeof r->e.text, "the partner's %s", why);
		return -1;
	}
	/* TCP moves every byte or fails: both ends count the same */
	if (r->lp.proto == PROTO_TCP && !(ps->r.flags & RES_STOPPED) &&
	    ps->r.bytes != ls->r.bytes)
		return unfit(r, "a different number of bytes than arrived or were "
		             "sent here");
	if (ps->have_udp && ps->udp.unique != ps->r.dgrams)
		return unfit(r, "an accounting that disagrees with its datagram "
		             "count");
	if ((bad = result_invalid(&r->rp, &ps->r)) != NULL ||
	    (bad = model_ivals_invalid(ps)) != NULL)
		return unfit(r, bad);
	return 0;
}

int
client_partner_check(struct run *r)
{
	const struct side *p = &r->model.side[1];
	const char *bad;
	uint32_t i;

	for (i = 0; i < r->nst; i++)
		if (stream_check(r, i) == -1)
			return -1;
	if ((bad = model_sum_invalid(p, &p->r)) != NULL ||
	    (bad = model_ivals_invalid(p)) != NULL)
		return unfit(r, bad);
	return 0;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/* watch.c: the watcher of a transfer, on both sides (the client's and the
 * partner's): a thread that watches the control connection. */
#include "watch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ctl.h"
#include "net.h"
#include "tcpinfo.h"
#include "xfer.h"

/* A message may arrive in pieces; it has this long to be whole. */
#define WATCH_MSG_MS 2000

/* Wake every stream's data call blocked in the kernel. */
static void
shut_streams(struct watch *w)
{
	uint32_t i;

	for (i = 0; i < w->nst; i++)
		if (w->st[i].fd != -1)
			shutdown(w->st[i].fd, SHUT_RDWR);
}

/* End the transfer: the data loops see the stop request at their next
 * call, and a call blocked in the kernel returns once its socket is shut
 * down. */
static void
stop_data(struct watch *w, enum watch_event e)
{
	w->event = e;
	stop_request(w->stop);
	shut_streams(w);
}

/* Client: one message from the partner while the local side runs. Returns
 * 1 when the watcher is done. */
static int
on_partner_msg(struct watch *w, mono_ns dl)
{
	struct ctl_msg m;
	char why[200];

	if (ctl_recv_any_until(w->ctl, &m, dl, w->stop, why, sizeof why) == -1) {
		snprintf(w->err, sizeof w->err, "control connection: %s", why);
		stop_data(w, WATCH_PEER_FAILED);
		return 1;
	}
	switch (m.type) {
	case CTL_INTERVAL:
	case CTL_TCPINFO:
	case CTL_UDPSTATS:
	case CTL_ECHOSTATS:
	case CTL_HOSTUDP:
	case CTL_RESULT:                        /* the local side may still run */
		if (watch_peer_msg(w, &m, why, sizeof why) == 0)
			return 0;
		snprintf(w->err, sizeof w->err, "%s", why);
		stop_data(w, WATCH_PEER_FAILED);
		return 1;
	case CTL_ERROR:
		w->msg = m;
		snprintf(w->err, sizeof w->err, "%s", m.text);
		stop_data(w, WATCH_PEER_ERROR);
		return 1;
	}
	snprintf(w->err, sizeof w->err, "control connection: unexpected %s "
	         "message during the transfer", ctl_type_name(m.type));
	stop_data(w, WATCH_PEER_FAILED);
	return 1;
}

/* The control connection is readable. Returns 1 when the watcher is done. */
static int
on_ctl(struct watch *w)
{
	struct ctl_msg m;
	char why[200];
	mono_ns dl = mono_now() + (mono_ns)WATCH_MSG_MS * 1000000u;

	switch (ctl_peer_state(w->ctl, why, sizeof why)) {
	case CTL_PEER_QUIET:
		return 0;                       /* spurious wake-up */
	case CTL_PEER_CLOSED:
		snprintf(w->err, sizeof w->err, "the %s closed the control connection",
		         w->client ? "partner" : "client");
		stop_data(w, WATCH_PEER_CLOSED);
		return 1;
	case CTL_PEER_FAILED:
		snprintf(w->err, sizeof w->err, "control connection: %s", why);
		stop_data(w, WATCH_PEER_FAILED);
		return 1;
	case CTL_PEER_SPOKE:
		break;
	}
	if (w->client)
		return on_partner_msg(w, dl);
	if (ctl_recv_until(w->ctl, CTL_STOP, &m, dl, w->stop, why,
	    sizeof why) == 0) {
		snprintf(w->err, sizeof w->err, "stopped by the client");
		stop_data(w, WATCH_PEER_STOP);
		return 1;
	}
	snprintf(w->err, sizeof w->err, "control connection: %s", why);
	stop_data(w, WATCH_PEER_FAILED);
	return 1;
}

/* A local stop request: ^C, and the client asks the partner to stop too;
 * or a stream died, and the run ends with its reason. */
static void
on_stop(struct watch *w)
{
	struct ctl_msg m = { .type = CTL_STOP };
	char why[200];

	if (atomic_load(&w->stop->failed) != 0) {
		w->event = WATCH_STREAM_FAILED;
		snprintf(w->err, sizeof w->err, "a stream failed");
	} else {
		w->event = WATCH_SIGNAL;
		snprintf(w->err, sizeof w->err, "interrupted");
		if (w->client) {
			w->stop_sent = 1;
			(void)ctl_send(w->ctl, &m, why, sizeof why);
		}
	}
	shut_streams(w);
}

static void
put_line(struct watch *w, const struct side *sd, const struct ival *iv)
{
	w->on_ival(w->ival_arg, w->model, sd, iv);
}

/* Is sd the partner's side or one of its streams? */
static int
is_peer(const struct watch *w, const struct side *sd)
{
	const struct side *p = &w->model->side[1 - w->self];

	return sd == p || (p->st != NULL && sd >= p->st && sd < p->st + p->nst);
}

/* Has this side shown its interval k (its sum), or its last one? */
static int
self_past(const struct watch *w, size_t k)
{
	const struct side *s = &w->model->side[w->self];

	return s->niv > k || (s->niv > 0 && (s->iv[s->niv - 1].flags & IVAL_LAST));
}

/* The partner's lines held back whose turn has come, in the order they
 * came. */
static void
show_held(struct watch *w)
{
	size_t i, kept = 0;

	for (i = 0; i < w->nheld; i++) {
		struct watch_held *h = &w->held[i];

		if (self_past(w, h->index))
			put_line(w, h->sd, &h->sd->iv[h->index]);
		else
			w->held[kept++] = *h;
	}
	w->nheld = kept;
}

/*
 * Show one interval line of record sd (a stream, or the side's sum): iv,
 * its last interval. The interval lines come in one order, this side's
 * interval k before the partner's: a partner's line comes when this side
 * has shown its interval of the same index (or its last), and waits until
 * then (at most an interval; one that cannot be held shows at once).
 */
static void
show(struct watch *w, struct side *sd, const struct ival *iv)
{
	size_t k = sd->niv - 1;

	if (w->on_ival == NULL)
		return;
	if (is_peer(w, sd) && !self_past(w, k)) {
		if (w->nheld == w->held_cap) {
			size_t cap = w->held_cap ? 2 * w->held_cap : 16;
			struct watch_held *p = realloc(w->held, cap * sizeof *p);

			if (p == NULL) {
				put_line(w, sd, iv);
				return;
			}
			w->held = p;
			w->held_cap = cap;
		}
		w->held[w->nheld++] = (struct watch_held){ sd, k };
		return;
	}
	put_line(w, sd, iv);
	if (!is_peer(w, sd) && sd == &w->model->side[w->self])
		show_held(w);
}

/* The side's sums of every interval index its streams have all reached,
 * added and shown. sd is side index si of the model. Returns 0 or -1. */
static int
sum_ready(struct watch *w, int si)
{
	struct side *sd = &w->model->side[si];
	struct ival iv;

	while (model_ival_sum(sd, sd->niv, &iv) == 1) {
		uint64_t n;

		/* --latency: the probes echoed in it, beside its goodput */
		if (w->lat != NULL && si == w->self) {
			iv.lat_p50_ns = prober_ival_p50(w->lat, w->t0 + iv.start_ns,
			    w->t0 + iv.end_ns, &n);
			if (n > 0)
				iv.flags |= IVAL_LAT;
		}
		if (model_add_ival(sd, &iv) == -1)
			return -1;
		if (w->model->streams > 1 || sd->nst <= 1)
			show(w, sd, &iv);
	}
	return 0;
}

/* Send what the control connection will take now, without waiting: the
 * watcher must stay free to keep the deadlines. Returns 0, or -1 with
 * w->err filled (the connection failed). */
static int
out_flush(struct watch *w)
{
	while (w->outq_len > 0) {
		ssize_t n = send(w->ctl, w->outq, w->outq_len, MSG_DONTWAIT |
		    MSG_NOSIGNAL);

		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;               /* the rest when it is writable */
		if (n <= 0) {
			snprintf(w->err, sizeof w->err, "control connection: %s",
			         n == 0 ? "closed" : strerror(errno));
			return -1;
		}
		memmove(w->outq, w->outq + n, w->outq_len - (size_t)n);
		w->outq_len -= (size_t)n;
	}
	return 0;
}

/* Queue message m for the client and send what can go now. A client that
 * lets WATCH_OUT_MAX bytes pile up does not read its control connection:
 * the test ends (WATCH_PEER_FAILED). Returns 0 or -1. */
static int
out_put(struct watch *w, const struct ctl_msg *m)
{
	uint8_t buf[CTL_HDR_LEN + CTL_MAX_PAYLOAD];
	size_t n = ctl_encode(m, buf);

	if (w->outq == NULL && (w->outq = malloc(WATCH_OUT_MAX)) == NULL) {
		snprintf(w->err, sizeof w->err, "no memory for control messages");
		stop_data(w, WATCH_PEER_FAILED);
		return -1;
	}
	if (w->outq_len + n > WATCH_OUT_MAX) {
		snprintf(w->err, sizeof w->err, "the client does not read the "
		         "control connection (%zu bytes of messages unsent)",
		         w->outq_len);
		stop_data(w, WATCH_PEER_FAILED);
		return -1;
	}
	memcpy(w->outq + w->outq_len, buf, n);
	w->outq_len += n;
	if (out_flush(w) == -1) {
		stop_data(w, WATCH_PEER_FAILED);
		return -1;
	}
	return 0;
}

/* After the watcher: what it could not send goes now, waiting as long as
 * the connection's send timeout allows. Returns 0 or -1. */
static int
out_drain(struct watch *w)
{
	size_t done = 0;

	while (done < w->outq_len) {
		ssize_t n = send(w->ctl, w->outq + done, w->outq_len - done,
		    MSG_NOSIGNAL);

		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0) {
			w->outq_len = 0;
			return -1;
		}
		done += (size_t)n;
	}
	w->outq_len = 0;
	return 0;
}

/* Add (show, and on the partner send) one interval of stream i. */
static int
emit(struct watch *w, uint32_t i, const struct ival *iv)
{
	struct side *sd = &w->model->side[w->self];
	struct side *ss = &sd->st[i];
	struct ctl_msg m = { .type = CTL_INTERVAL };
	char why[128];

	if (model_add_ival(ss, iv) == -1)
		return -1;
	if (w->model->streams > 1)
		show(w, ss, iv);
	if (w->send_ivals) {
		m.ival_index = (uint32_t)(ss->niv - 1);
		m.stream = i + 1;
		m.ival = *iv;
		if (w->running)                 /* the watcher: never waits */
			return out_put(w, &m);
		if (out_drain(w) == -1 || ctl_send(w->ctl, &m, why, sizeof why) == -1)
			return -1;
	}
	return 0;
}

/* Stream i's interval from the last sample to now, from its counters
 * bytes, calls, dgrams (the live ones, or its final totals). */
static int
sample(struct watch *w, uint32_t i, mono_ns now, uint64_t bytes,
       uint64_t calls, uint64_t dgrams, uint32_t flags)
{
	struct watch_stream *ws = &w->ws[i];
	struct stream *s = &w->st[i];
	struct ival iv = { .flags = flags };
	uint64_t retrans = 0;

	iv.start_ns = w->last_t - w->t0;
	iv.end_ns = now > w->last_t ? now - w->t0 : iv.start_ns;
	iv.bytes = bytes - ws->bytes;
	iv.calls = calls - ws->calls;
	iv.dgrams = dgrams - ws->dgrams;
	if (w->tcp_info && s->p.proto == PROTO_TCP && s->p.role == ROLE_SEND &&
	    tcpinfo_sample(s->fd, &retrans, &iv.cwnd, &iv.srtt_us) == 0) {
		iv.retrans = (uint32_t)(retrans - ws->retrans);
		iv.flags |= IVAL_TCP;
		ws->retrans = retrans;
	}
	if (w->udp_seq) {                   /* a sequenced UDP receiver */
		uint64_t d = LIVE_GET(s, dups), o = LIVE_GET(s, reordered);

		iv.dups = (uint32_t)(d - ws->dups);
		iv.reordered = (uint32_t)(o - ws->reordered);
		iv.flags |= IVAL_UDP;
		ws->dups = d;
		ws->reordered = o;
	}
	if (w->model->omit_ms != 0 &&
	    iv.start_ns < (uint64_t)w->model->omit_ms * 1000000u)
		iv.flags |= IVAL_OMITTED;
	ws->bytes = bytes;
	ws->calls = calls;
	ws->dgrams = dgrams;
	ws->ended = (flags & IVAL_LAST) != 0;
	return emit(w, i, &iv);
}

/* Stream i's last interval, from its exact totals to its end. */
static int
sample_last(struct watch *w, uint32_t i)
{
	struct stream *s = &w->st[i];
	mono_ns end = s->end > w->last_t ? s->end : w->last_t;

	if (w->ws[i].ended)
		return 0;
	return sample(w, i, end, s->r.bytes, s->r.calls, s->r.dgrams, IVAL_LAST);
}

/* An interval boundary at t: every stream still running gives its live
 * counters; one that has ended gives its last interval instead. */
static int
tick(struct watch *w, mono_ns t)
{
	uint32_t i;

	for (i = 0; i < w->nst; i++) {
		struct stream *s = &w->st[i];
		int rc;

		if (w->ws[i].ended)
			continue;
		/* a stream that ended after t, seen late by a loaded sampler:
		 * its interval still ends at t (its totals, as a live stream's
		 * counters read late); its last one, from t to its end, comes at
		 * the next boundary. Boundaries stay on the schedule whatever
		 * time the sampler ran at. */
		if (atomic_load_explicit(&s->done, memory_order_acquire))
			rc = s->end > t ? sample(w, i, t, s->r.bytes, s->r.calls,
			    s->r.dgrams, 0) : sample_last(w, i);
		else
			rc = sample(w, i, t, LIVE_GET(s, bytes), LIVE_GET(s, calls),
			    LIVE_GET(s, dgrams), 0);
		if (rc == -1)
			return -1;
	}
	w->last_t = t;
	return sum_ready(w, w->self);
}

static uint64_t
live_bytes(const struct watch *w)
{
	uint64_t b = 0;
	uint32_t i;

	for (i = 0; i < w->nst; i++)
		b += LIVE_GET(&w->st[i], bytes);
	return b;
}


/* One line on a terminal, rewritten every second: bytes so far, the rate
 * of the last second, and what is left. */
static void
show_progress(struct watch *w, mono_ns now)
{
	const struct run_model *md = w->model;
	uint64_t b = live_bytes(w);
	mono_ns since = w->progress_t ? w->progress_t : w->t0;
	double rate = now > since ? (double)(b - w->progress_bytes) * 8e3 /
	    (double)(now - since) : 0, el = (double)(now - w->t0) / 1e9;

	if (md->duration_ms)
		fprintf(stderr, "\rgput: %.1f MB, %.2f MBit/s, %.0f s left   ",
		        (double)b / 1e6, rate, md->duration_ms / 1e3 > el ?
		        md->duration_ms / 1e3 - el : 0);
	else
		fprintf(stderr, "\rgput: %.1f MB, %.2f MBit/s, %.0f%% done   ",
		        (double)b / 1e6, rate, md->data_bytes ?
		        100.0 * (double)b / (double)md->data_bytes : 0);
	w->progress_shown = 1;
	w->progress_bytes = b;
	w->progress_t = now;
}

/* The next moment the watcher must act at (0: none). */
static mono_ns
next_wake(const struct watch *w)
{
	mono_ns t = w->deadline;

	if (w->end_at && !atomic_load(&w->stop->end) && (t == 0 || w->end_at < t))
		t = w->end_at;
	if (w->next_tick && (t == 0 || w->next_tick < t))
		t = w->next_tick;
	if (w->next_progress && (t == 0 || w->next_progress < t))
		t = w->next_progress;
	if (w->next_moved && (t == 0 || w->next_moved < t))
		t = w->next_moved;
	return t;
}

/* Partner: each second, the bytes the streams moved so far; a test whose
 * streams together moved less than min_bytes in the last progress_s
 * seconds ends. From counters only: the data path does nothing for it.
 * Returns 1 when the watcher is done. */
static int
check_moved(struct watch *w)
{
	const unsigned n = WATCH_PROGRESS_MAX_S + 1;
	uint64_t now = 0, moved, acked;
	uint32_t i;

	/* a TCP sender's progress is what its peer acknowledged: one large
	 * write may take long on a slow path, and its count comes at its end */
	for (i = 0; i < w->nst; i++)
		now += w->st[i].p.proto == PROTO_TCP &&
		    w->st[i].p.role == ROLE_SEND &&
		    tcpinfo_acked(w->st[i].fd, &acked) == 0 ? acked :
		    LIVE_GET(&w->st[i], bytes);

	w->moved[w->moved_n % n] = now;
	w->next_moved += 1000000000u;
	if (w->moved_n++ < w->progress_s)
		return 0;
	moved = now - w->moved[(w->moved_n - 1 - w->progress_s) % n];
	if (moved >= w->min_bytes)
		return 0;
	snprintf(w->err, sizeof w->err, "too slow: the test's data moved %llu "
	         "bytes in %u s, this partner needs at least %llu",
	         (unsigned long long)moved, w->progress_s,
	         (unsigned long long)w->min_bytes);
	stop_data(w, WATCH_NO_PROGRESS);
	return 1;
}

/* Timed work due at now. Returns 1 when the watcher is done. */
static int
on_time(struct watch *w, mono_ns now)
{
	const struct run_model *md = w->model;

	if (w->deadline && now >= w->deadline) {
		snprintf(w->err, sizeof w->err, "deadline");
		stop_data(w, WATCH_DEADLINE);
		return 1;
	}
	if (w->end_at && !atomic_load(&w->stop->end) && now >= w->end_at)
		atomic_store(&w->stop->end, 1);    /* --time is up: senders end */
	if (w->next_tick && now >= w->next_tick) {
		if (tick(w, w->next_tick) == -1)
			return 1;
		/* the next boundary: every interval, or none after --omit alone */
		w->next_tick = md->interval_ms ? w->next_tick +
		    (mono_ns)md->interval_ms * 1000000u : 0;
	}
	if (w->next_moved && now >= w->next_moved && check_moved(w))
		return 1;
	if (w->next_progress && now >= w->next_progress) {
		show_progress(w, now);
		w->next_progress = now + 1000000000u;
	}
	return 0;
}

static void *
watcher(void *arg)
{
	struct watch *w = arg;
	sigset_t all;

	sigfillset(&all);                       /* signals go to the data thread */
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	for (;;) {
		struct pollfd pfd[3] = { { w->done[0], POLLIN, 0 },
		    { stop_fd(w->stop), POLLIN, 0 },
		    { w->have_result ? -1 : w->ctl, POLLIN |
		      (w->outq_len > 0 ? POLLOUT : 0), 0 } };
		mono_ns wake = next_wake(w), now = mono_now();
		int r;

		if (wake != 0 && now >= wake) {
			if (on_time(w, now))
				return NULL;
			continue;
		}
		r = poll(pfd, 3, wake ? net_poll_ms(wake - now) : -1);
		if (r == -1 && errno != EINTR)
			return NULL;
		if (r <= 0)
			continue;
		if (pfd[1].revents != 0 && w->event == WATCH_NONE) {
			on_stop(w);                 /* first: it may come with done */
			return NULL;
		}
		if (pfd[0].revents != 0)
			return NULL;                /* the transfer is over */
		if ((pfd[2].revents & POLLOUT) && out_flush(w) == -1) {
			stop_data(w, WATCH_PEER_FAILED);
			return NULL;
		}
		if ((pfd[2].revents & ~POLLOUT) != 0 && on_ctl(w))
			return NULL;
	}
}

/* The progress line, if one is shown, goes: what follows starts a line of
 * its own (the table, the "interrupted" note). */
static void
progress_clear(struct watch *w)
{
	if (w->progress_shown) {
		fprintf(stderr, "\r%*s\r", 60, "");
		w->progress_shown = 0;
	}
}

int
watch_last(struct watch *w)
{
	uint32_t i;

	progress_clear(w);
	if (w->model == NULL || w->ws == NULL)
		return 0;
	for (i = 0; i < w->nst; i++)
		if (sample_last(w, i) == -1)
			return -1;
	return sum_ready(w, w->self);
}

/* Client: the partner's message about stream n is impossible: err (which
 * names the field) gets the stream and a prefix, w->lied is set. Returns
 * -1. */
static int
lie(struct watch *w, uint32_t n, char *err, size_t errlen)
{
	char why[256];

	snprintf(why, sizeof why, "%s", err);
	if (w->model->streams > 1 && n == 0)
		snprintf(err, errlen, "the partner's %s (its streams' sum)", why);
	else if (w->model->streams > 1)
		snprintf(err, errlen, "the partner's %s (stream %u)", why, n);
	else
		snprintf(err, errlen, "the partner's %s", why);
	w->lied = 1;
	return -1;
}

/* Client: a RESULT of the partner: one per stream, then its side's. */
static int
peer_result(struct watch *w, struct side *sd, const struct ctl_msg *m,
            char *err, size_t errlen)
{
	struct side *x = sd;
	uint32_t i;

	if (w->have_result || m->stream > sd->nst ||
	    (m->stream > 0 && sd->st[m->stream - 1].have_result)) {
		snprintf(err, errlen, "the partner sent a second RESULT for stream "
		         "%u, or one for a stream of none of its %u", m->stream,
		         sd->nst);
		return -1;
	}
	/* partial counts (TCP's bytes need not match) only if we asked */
	if ((m->result.flags & RES_STOPPED) && !w->stop_sent) {
		snprintf(err, errlen, "RESULT flag %u (stopped on request) came "
		         "though this client sent no STOP", RES_STOPPED);
		return lie(w, m->stream, err, errlen);
	}
	if (w->plaus.p != NULL && plaus_result(&w->plaus, &m->result,
	    m->stream == 0 ? sd->nst : 1, m->start_ns, m->end_ns, err,
	    errlen) == -1)
		return lie(w, m->stream, err, errlen);
	if (m->stream == 0) {
		for (i = 0; i < sd->nst; i++)
			if (!sd->st[i].have_result) {
				snprintf(err, errlen, "the partner's RESULT came before "
				         "that of its stream %u", i + 1);
				return -1;
			}
		w->result = *m;
		w->have_result = 1;
	} else {
		x = &sd->st[m->stream - 1];
	}
	x->r = m->result;
	x->start_ns = m->start_ns;
	x->end_ns = m->end_ns;
	x->have_result = 1;
	return 0;
}

/* HOSTUDP: once, asked for, within its bounds (plaus_hostudp). */
static int
peer_hostudp(struct watch *w, struct side *sd, const struct ctl_msg *m,
             char *err, size_t errlen)
{
	char why[200];

	if (sd->have_host_udp)
		snprintf(why, sizeof why, "HOSTUDP came twice");
	if (sd->have_host_udp || (w->plaus.p != NULL &&
	    plaus_hostudp(&w->plaus, &m->hostudp, why, sizeof why) == -1)) {
		snprintf(err, errlen, "the partner's %s", why);
		w->lied = 1;
		return -1;
	}
	sd->host_rcvbuf_errors = m->hostudp.rcvbuf_errors;
	sd->host_in_errors = m->hostudp.in_errors;
	sd->host_udp_v6 = (m->hostudp.flags & HOSTUDP_V6) != 0;
	sd->have_host_udp = 1;
	return 0;
}

int
watch_peer_msg(struct watch *w, const struct ctl_msg *m, char *err,
               size_t errlen)
{
	struct side *sd, *ss;
	char why[200];
	mono_ns now = mono_now();
	int si = 1 - w->self;

	if (w->model == NULL)
		return 0;
	sd = &w->model->side[si];
	w->plaus.window_ns = now > w->t_open ? now - w->t_open : 0;
	if (m->type == CTL_RESULT)
		return peer_result(w, sd, m, err, errlen);
	if (m->type == CTL_HOSTUDP)             /* the host's UDP counters */
		return peer_hostudp(w, sd, m, err, errlen);
	if (m->type == CTL_ECHOSTATS) {         /* --latency: the echo's counts */
		if (w->model->lat.have_echo)
			snprintf(why, sizeof why, "ECHOSTATS came twice");
		if (w->model->lat.have_echo || (w->plaus.p != NULL &&
		    plaus_echo(&w->plaus, &m->echo, w->lat != NULL ?
		    prober_answered_before(w->lat, w->t_open) : 0, why,
		    sizeof why) == -1)) {
			snprintf(err, errlen, "the partner's %s", why);
			w->lied = 1;
			return -1;
		}
		w->model->lat.echo = m->echo;
		w->model->lat.have_echo = 1;
		return 0;
	}
	if (m->stream == 0 || m->stream > sd->nst || m->stream > w->peer_nst) {
		snprintf(err, errlen, "the partner's %s names stream %u of %u",
		         ctl_type_name(m->type), m->stream, sd->nst);
		return -1;
	}
	ss = &sd->st[m->stream - 1];
	if (w->plaus.p != NULL && ((m->type == CTL_TCPINFO &&
	    w->plaus.p->proto != PROTO_TCP) || (m->type == CTL_UDPSTATS &&
	    (w->plaus.p->proto != PROTO_UDP || w->plaus.p->role != ROLE_RECV)))) {
		snprintf(err, errlen, "%s came in a test where it %s",
		         ctl_type_name(m->type), m->type == CTL_TCPINFO ?
		         "moves no TCP" : "receives no UDP");
		return lie(w, m->stream, err, errlen);
	}
	if (m->type == CTL_TCPINFO) {
		if (w->plaus.p != NULL && plaus_tcpinfo(&w->plaus, &m->tcp, err,
		    errlen) == -1)
			return lie(w, m->stream, err, errlen);
		ss->tcp = m->tcp;               /* the side's: model_fold_stream */
		return 0;
	}
	if (m->type == CTL_UDPSTATS) {
		if (w->plaus.p != NULL && plaus_udpstats(&w->plaus, &m->udp, err,
		    errlen) == -1)
			return lie(w, m->stream, err, errlen);
		ss->udp = m->udp;
		ss->have_udp = 1;
		return 0;
	}
	/* checked before it is kept or shown: in order, contiguous, no more
	 * than the time so far holds (which bounds what a partner can make
	 * the client keep), sums within the test */
	if (w->plaus.p != NULL && plaus_ival(&w->plaus,
	    &w->peer_iv[m->stream - 1], m->ival_index, &m->ival, err,
	    errlen) == -1)
		return lie(w, m->stream, err, errlen);
	if (model_add_ival(ss, &m->ival) == -1) {
		snprintf(err, errlen, "no memory for the partner's intervals");
		return -1;
	}
	if (w->model->streams > 1)
		show(w, ss, &m->ival);
	if (sum_ready(w, si) == -1) {
		snprintf(err, errlen, "no memory for the partner's intervals");
		return -1;
	}
	return 0;
}

int
watch_begin(struct watch *w, char *err, size_t errlen)
{
	int e;

	uint32_t i;

	w->event = WATCH_NONE;
	w->have_result = 0;
	w->err[0] = '\0';
	w->running = 0;
	w->last_t = w->t0;
	w->next_tick = w->next_progress = 0;
	w->lied = 0;
	w->stop_sent = 0;
	free(w->ws);
	free(w->peer_iv);
	w->peer_iv = NULL;
	w->ws = calloc(w->nst ? w->nst : 1, sizeof *w->ws);
	if (w->client) {
		w->peer_nst = w->nst;
		w->peer_iv = calloc(w->nst ? w->nst : 1, sizeof *w->peer_iv);
	}
	if (w->ws == NULL || (w->client && w->peer_iv == NULL)) {
		snprintf(err, errlen, "no memory for %u streams", w->nst);
		return -1;
	}
	if (w->model != NULL && w->model->interval_ms)
		w->next_tick = w->t0 + (mono_ns)w->model->interval_ms * 1000000u;
	else if (w->model != NULL && w->model->omit_ms)
		w->next_tick = w->t0 + (mono_ns)w->model->omit_ms * 1000000u;
	if (w->progress)
		w->next_progress = w->t0 + 2000000000u;   /* runs over 2 s */
	w->moved_n = 0;
	w->outq_len = 0;
	if (w->progress_s > WATCH_PROGRESS_MAX_S)
		w->progress_s = WATCH_PROGRESS_MAX_S;
	w->next_moved = w->progress_s ? w->t0 : 0;
	for (i = 0; i < w->nst && w->tcp_info && w->model != NULL; i++)
		if (w->st[i].p.proto == PROTO_TCP && w->st[i].p.role == ROLE_SEND)
			(void)tcpinfo_sample(w->st[i].fd, &w->ws[i].retrans,
			    &(uint32_t){ 0 }, &(uint32_t){ 0 });
	if (pipe2(w->done, O_CLOEXEC) == -1) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	w->running = 1;                         /* before the watcher reads it */
	if ((e = pthread_create(&w->th, NULL, watcher, w)) != 0) {
		snprintf(err, errlen, "pthread_create: %s", strerror(e));
		close(w->done[0]);
		close(w->done[1]);
		w->running = 0;
		return -1;
	}
	return 0;
}

void
watch_free(struct watch *w)
{
	free(w->held);
	w->held = NULL;
	w->nheld = w->held_cap = 0;
	free(w->ws);
	free(w->peer_iv);
	free(w->outq);
	w->ws = NULL;
	w->peer_iv = NULL;
	w->outq = NULL;
	w->outq_len = 0;
}

void
watch_end(struct watch *w)
{
	if (!w->running)
		return;
	(void)!write(w->done[1], "x", 1);
	pthread_join(w->th, NULL);
	close(w->done[0]);
	close(w->done[1]);
	w->running = 0;
	progress_clear(w);              /* ^C, a failure: watch_last never ran */
	/* the intervals the client has not taken yet go before anything else
	 * (after the data stopped: this may wait, the data does not) */
	if (w->event != WATCH_PEER_FAILED && w->event != WATCH_PEER_CLOSED)
		(void)out_drain(w);
	w->outq_len = 0;
}

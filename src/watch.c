/* watch.c: a thread that watches the control connection during a transfer. */
#include "watch.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "net.h"
#include "report.h"
#include "report_ival.h"
#include "report_json.h"
#include "tcpinfo.h"
#include "xfer.h"

/* A message may arrive in pieces; it has this long to be whole. */
#define WATCH_MSG_MS 2000

const char *
watch_event_name(enum watch_event e)
{
	switch (e) {
	case WATCH_NONE:        return "nothing";
	case WATCH_SIGNAL:      return "interrupted";
	case WATCH_PEER_STOP:   return "stopped by the client";
	case WATCH_PEER_CLOSED: return "the peer closed the control connection";
	case WATCH_PEER_FAILED: return "control connection failed";
	case WATCH_PEER_ERROR:  return "the peer sent an error";
	case WATCH_DEADLINE:    return "deadline";
	}
	return "?";
}

/* End the transfer: the data loops see xfer_stop at their next call, and a
 * call blocked in the kernel returns once the socket is shut down. */
static void
stop_data(struct watch *w, enum watch_event e)
{
	w->event = e;
	xfer_request_stop();
	if (w->data != -1)
		shutdown(w->data, SHUT_RDWR);
}

/* Client: one message from the partner while the local side runs. Returns
 * 1 when the watcher is done. */
static int
on_partner_msg(struct watch *w, mono_ns dl)
{
	struct ctl_msg m;
	char why[200];

	if (ctl_recv_any_until(w->ctl, &m, dl, why, sizeof why) == -1) {
		snprintf(w->err, sizeof w->err, "control connection: %s", why);
		stop_data(w, WATCH_PEER_FAILED);
		return 1;
	}
	switch (m.type) {
	case CTL_INTERVAL:
	case CTL_TCPINFO:
	case CTL_UDPSTATS:
		if (watch_peer_msg(w, &m, why, sizeof why) == 0)
			return 0;
		snprintf(w->err, sizeof w->err, "%s", why);
		stop_data(w, WATCH_PEER_FAILED);
		return 1;
	case CTL_RESULT:
		w->result = m;                  /* the local side may still run */
		w->have_result = 1;
		return 0;
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
	if (ctl_recv_until(w->ctl, CTL_STOP, &m, dl, why, sizeof why) == 0) {
		snprintf(w->err, sizeof w->err, "stopped by the client");
		stop_data(w, WATCH_PEER_STOP);
		return 1;
	}
	snprintf(w->err, sizeof w->err, "control connection: %s", why);
	stop_data(w, WATCH_PEER_FAILED);
	return 1;
}

/* A local stop request: the client asks the partner to stop too. */
static void
on_stop(struct watch *w)
{
	struct ctl_msg m = { .type = CTL_STOP };
	char why[200];

	w->event = WATCH_SIGNAL;
	snprintf(w->err, sizeof w->err, "interrupted");
	if (w->client)
		(void)ctl_send(w->ctl, &m, why, sizeof why);
	if (w->data != -1)
		shutdown(w->data, SHUT_RDWR);
}

#define LIVE(f) atomic_load_explicit(&xfer_live.f, memory_order_relaxed)

/* Show (and on the partner send) one interval of this side. */
static int
emit(struct watch *w, const struct ival *iv)
{
	struct side *sd = &w->model->side[w->self];
	struct ctl_msg m = { .type = CTL_INTERVAL };
	char why[128];

	if (model_add_ival(sd, iv) == -1)
		return -1;
	if (w->show == SHOW_TEXT)
		report_ival_line(w->out, sd, iv);
	else if (w->show == SHOW_JSON_LINES)
		report_json_ival(w->out, w->model, w->self, iv);
	if (w->show != SHOW_NONE)
		fflush(w->out);
	if (w->send_ivals) {
		m.ival_index = w->nsent++;
		m.ival = *iv;
		(void)ctl_send(w->ctl, &m, why, sizeof why);
	}
	return 0;
}

/* The interval from the last sample to now, from counters bytes, calls,
 * dgrams (the live ones, or the final totals). */
static int
sample(struct watch *w, mono_ns now, uint64_t bytes, uint64_t calls,
       uint64_t dgrams, uint32_t flags)
{
	struct ival iv = { .flags = flags };
	uint64_t retrans = 0;

	iv.start_ns = w->last_t - w->t0;
	iv.end_ns = now > w->last_t ? now - w->t0 : iv.start_ns;
	iv.bytes = bytes - w->last_bytes;
	iv.calls = calls - w->last_calls;
	iv.dgrams = dgrams - w->last_dgrams;
	if (w->tcp_fd >= 0 && tcpinfo_sample(w->tcp_fd, &retrans, &iv.cwnd,
	    &iv.srtt_us) == 0) {
		iv.retrans = (uint32_t)(retrans - w->last_retrans);
		iv.flags |= IVAL_TCP;
		w->last_retrans = retrans;
	}
	if (w->udp_seq) {                   /* a sequenced UDP receiver */
		uint64_t d = LIVE(dups), o = LIVE(reordered);

		iv.dups = (uint32_t)(d - w->last_dups);
		iv.reordered = (uint32_t)(o - w->last_reordered);
		iv.flags |= IVAL_UDP;
		w->last_dups = d;
		w->last_reordered = o;
	}
	if (w->model->omit_ms != 0 &&
	    iv.start_ns < (uint64_t)w->model->omit_ms * 1000000u)
		iv.flags |= IVAL_OMITTED;
	w->last_t = now;
	w->last_bytes = bytes;
	w->last_calls = calls;
	w->last_dgrams = dgrams;
	return emit(w, &iv);
}


/* One line on a terminal, rewritten every second: bytes so far, the rate
 * of the last second, and what is left. */
static void
show_progress(struct watch *w, mono_ns now)
{
	const struct run_model *md = w->model;
	uint64_t b = LIVE(bytes);
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

	if (w->end_at && !xfer_end && (t == 0 || w->end_at < t))
		t = w->end_at;
	if (w->next_tick && (t == 0 || w->next_tick < t))
		t = w->next_tick;
	if (w->next_progress && (t == 0 || w->next_progress < t))
		t = w->next_progress;
	return t;
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
	if (w->end_at && !xfer_end && now >= w->end_at)
		xfer_end = 1;                   /* --time is up: the sender ends */
	if (w->next_tick && now >= w->next_tick) {
		if (sample(w, w->next_tick, LIVE(bytes), LIVE(calls), LIVE(dgrams),
		    0) == -1)
			return 1;
		/* the next boundary: every interval, or none after --omit alone */
		w->next_tick = md->interval_ms ? w->next_tick +
		    (mono_ns)md->interval_ms * 1000000u : 0;
	}
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
		    { xfer_stop_fd(), POLLIN, 0 },
		    { w->have_result ? -1 : w->ctl, POLLIN, 0 } };
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
		if (pfd[2].revents != 0 && on_ctl(w))
			return NULL;
	}
}

int
watch_last(struct watch *w, const struct gput_result *r, mono_ns end)
{
	if (w->model == NULL)
		return 0;
	if (w->progress_shown)
		fprintf(stderr, "\r%*s\r", 60, "");
	return sample(w, end, r->bytes, r->calls, r->dgrams, IVAL_LAST);
}

int
watch_peer_msg(struct watch *w, const struct ctl_msg *m, char *err,
               size_t errlen)
{
	struct side *sd;
	mono_ns now = mono_now();

	if (w->model == NULL)
		return 0;
	sd = &w->model->side[1 - w->self];
	if (m->type == CTL_TCPINFO) {
		sd->tcp = m->tcp;
		return 0;
	}
	if (m->type == CTL_UDPSTATS) {
		sd->udp = m->udp;
		sd->have_udp = 1;
		return 0;
	}
	/* in order, and none from the future: the count is bounded by time */
	if (m->ival_index != w->peer_next ||
	    m->ival.end_ns > now - w->t0 + 2000000000u) {
		snprintf(err, errlen, "the partner's interval %u is out of order or "
		         "ends in the future", m->ival_index);
		return -1;
	}
	w->peer_next++;
	if (model_add_ival(sd, &m->ival) == -1) {
		snprintf(err, errlen, "no memory for the partner's intervals");
		return -1;
	}
	if (w->show == SHOW_TEXT)
		report_ival_line(w->out, sd, &m->ival);
	else if (w->show == SHOW_JSON_LINES)
		report_json_ival(w->out, w->model, 1 - w->self, &m->ival);
	if (w->show != SHOW_NONE)
		fflush(w->out);
	return 0;
}

int
watch_begin(struct watch *w, char *err, size_t errlen)
{
	int e;

	w->event = WATCH_NONE;
	w->have_result = 0;
	w->err[0] = '\0';
	w->running = 0;
	w->last_t = w->t0;
	w->last_bytes = w->last_calls = w->last_dgrams = w->last_retrans = 0;
	w->last_dups = w->last_reordered = 0;
	w->next_tick = w->next_progress = 0;
	if (w->model != NULL && w->model->interval_ms)
		w->next_tick = w->t0 + (mono_ns)w->model->interval_ms * 1000000u;
	else if (w->model != NULL && w->model->omit_ms)
		w->next_tick = w->t0 + (mono_ns)w->model->omit_ms * 1000000u;
	if (w->progress)
		w->next_progress = w->t0 + 2000000000u;   /* runs over 2 s */
	if (w->tcp_fd >= 0 && w->model != NULL)
		(void)tcpinfo_sample(w->tcp_fd, &w->last_retrans, &(uint32_t){ 0 },
		    &(uint32_t){ 0 });
	if (pipe2(w->done, O_CLOEXEC) == -1) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	if ((e = pthread_create(&w->th, NULL, watcher, w)) != 0) {
		snprintf(err, errlen, "pthread_create: %s", strerror(e));
		close(w->done[0]);
		close(w->done[1]);
		return -1;
	}
	w->running = 1;
	return 0;
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
}

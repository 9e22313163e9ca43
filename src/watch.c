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
	if (ctl_recv_until(w->ctl, w->client ? CTL_RESULT : CTL_STOP, &m, dl, why,
	    sizeof why) == 0) {
		if (!w->client) {
			snprintf(w->err, sizeof w->err, "stopped by the client");
			stop_data(w, WATCH_PEER_STOP);
			return 1;
		}
		w->result = m;                  /* the local side may still run */
		w->have_result = 1;
		return 0;
	}
	if (m.type == CTL_ERROR) {
		w->msg = m;
		snprintf(w->err, sizeof w->err, "%s", m.text);
		stop_data(w, WATCH_PEER_ERROR);
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
		int timeout = -1, r;

		if (w->deadline != 0) {
			mono_ns now = mono_now();

			if (now >= w->deadline) {
				snprintf(w->err, sizeof w->err, "deadline");
				stop_data(w, WATCH_DEADLINE);
				return NULL;
			}
			timeout = net_poll_ms(w->deadline - now);
		}
		r = poll(pfd, 3, timeout);
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
watch_begin(struct watch *w, char *err, size_t errlen)
{
	int e;

	w->event = WATCH_NONE;
	w->have_result = 0;
	w->err[0] = '\0';
	w->running = 0;
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

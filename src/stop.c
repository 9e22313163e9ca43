/* SPDX-License-Identifier: BSD-2-Clause */
/* stop.c: the stop request and its self-pipe. */
#include "stop.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static struct stopreq proc = STOPREQ_INIT;
static volatile sig_atomic_t first_signal;     /* stop_signal() */
/* When on_stop_signal first ran: read and written in the handler only,
 * which the stop signals cannot interrupt (its sa_mask blocks them). */
static struct timespec first_at;

void
stop_signal_seen(int sig)
{
	if (first_signal == 0)
		first_signal = sig;
}

int
stop_signal(void)
{
	return first_signal;
}

static void
on_stop_signal(int sig)
{
	struct timespec now;
	int saved = errno;
	long long ms;

	clock_gettime(CLOCK_MONOTONIC, &now);   /* async-signal-safe */
	if (first_at.tv_sec == 0 && first_at.tv_nsec == 0) {
		first_at = now;
		stop_signal_seen(sig);
		stop_request(&proc);
	} else {
		ms = (long long)(now.tv_sec - first_at.tv_sec) * 1000 +
		    (now.tv_nsec - first_at.tv_nsec) / 1000000;
		if (ms >= STOP_REPEAT_MS) {     /* asked again: end now */
			signal(sig, SIG_DFL);
			raise(sig);
		}
	}
	errno = saved;
}

struct stopreq *
stop_process(void)
{
	return &proc;
}

int
stop_on_signals(char *err, size_t errlen)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };

	if (stop_init(&proc, err, errlen) == -1)
		return -1;
	/* the handler keeps first_at to itself: no stop signal interrupts it */
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

int
stop_init(struct stopreq *s, char *err, size_t errlen)
{
	if (s->pipe[0] >= 0)
		return 0;
	if (pipe2(s->pipe, O_CLOEXEC | O_NONBLOCK) == -1) {
		s->pipe[0] = s->pipe[1] = -1;
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	return 0;
}

void
stop_request(struct stopreq *s)
{
	int saved = errno;                  /* a signal handler must keep errno */

	atomic_store(&s->stop, 1);
	if (s->pipe[1] >= 0)
		(void)!write(s->pipe[1], "x", 1);   /* full pipe: already readable */
	errno = saved;
}

void
stop_clear(struct stopreq *s)
{
	char b[16];

	if (s->pipe[0] >= 0)
		while (read(s->pipe[0], b, sizeof b) > 0)
			;
	atomic_store(&s->stop, 0);
	atomic_store(&s->end, 0);
	atomic_store(&s->failed, 0);
}

int
stop_fd(const struct stopreq *s)
{
	return s->pipe[0] >= 0 ? s->pipe[0] : -1;
}

void
stop_rearm(struct stopreq *s)
{
	atomic_store(&s->end, 0);
	atomic_store(&s->failed, 0);
}

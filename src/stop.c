/* SPDX-License-Identifier: BSD-2-Clause */
/* stop.c: the stop request and its self-pipe. */
#include "stop.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static struct stopreq proc = STOPREQ_INIT;

struct stopreq *
stop_process(void)
{
	return &proc;
}

static void
on_signal(int sig)
{
	(void)sig;
	stop_request(&proc);
}

int
stop_on_signals(char *err, size_t errlen)
{
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESETHAND };

	if (stop_init(&proc, err, errlen) == -1)
		return -1;
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

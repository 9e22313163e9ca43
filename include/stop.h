/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_STOP_H
#define GPUT_STOP_H

#include <stdatomic.h>
#include <stddef.h>

/*
 * A stop request, passed to whatever must end on it: the data loops of a
 * run's streams read stop (and, when sending, end) once per call; every wait
 * polls fd too, so a request that comes just before a wait begins is never
 * missed (a self-pipe: no lost wake-up). Signals are per process, so the
 * process has one (stop_process()) for ^C and for the control connection's
 * waits; a run passes it to its streams and its watcher.
 */
struct stopreq {
	_Atomic int stop;       /* end now: ^C, the peer left, a stream died */
	_Atomic int end;        /* --time is up: senders end normally */
	_Atomic unsigned failed;/* the stream (1..N) whose failure stopped the run */
	int pipe[2];            /* readable once stop is set; -1 before
	                           stop_init (descriptor 0 is a descriptor) */
};
/* A stop request without its pipe yet. */
#define STOPREQ_INIT { .pipe = { -1, -1 } }

/* Create the self-pipe (once). Returns 0, or -1 with err filled. */
int  stop_init(struct stopreq *s, char *err, size_t errlen);
/* Set stop and make the fd readable. Async-signal-safe. */
void stop_request(struct stopreq *s);
/* Forget a request that has been handled (the client, after ^C, still
 * collects the partner's partial results), and the end and failure. */
void stop_clear(struct stopreq *s);
/* Before the next run of a --repeat: forget the last run's end (--time)
 * and failure, but not a stop request (^C), which ends the repeat. */
void stop_rearm(struct stopreq *s);
/* Readable once a stop was requested; -1 before stop_init(). */
int  stop_fd(const struct stopreq *s);
/* Is a stop requested? */
static inline int
stop_requested(const struct stopreq *s)
{
	return atomic_load_explicit(&s->stop, memory_order_relaxed);
}

/* This process's stop request: its signal handlers'. Only the drivers
 * (client*.c, partner_session.c, partner_daemon.c, main.c) take it; they
 * pass it down to what must honour it (net.c's and ctl.c's waits, the
 * streams, the watcher). */
struct stopreq *stop_process(void);
/* A second stop signal within this long of the first is the same request
 * (timeout(1) sends two when it is itself interrupted; a key held down
 * repeats): only a later one ends the process at once. */
#define STOP_REPEAT_MS 1000

/* A client's process: stop_init(stop_process()), then SIGINT and SIGTERM
 * request its stop (a second one within STOP_REPEAT_MS of the first is
 * ignored; a later one ends the process by the signal's default action,
 * with no results; no SA_RESTART, so a blocked call returns EINTR) and
 * SIGPIPE is ignored (a write to a closed socket fails with EPIPE).
 * Returns 0, or -1 with err filled. */
int  stop_on_signals(char *err, size_t errlen);
/* Note that signal sig asked this process to stop: the first one is kept.
 * Async-signal-safe (a handler of its own calls it). */
void stop_signal_seen(int sig);
/* The signal that first asked this process to stop, or 0. */
int  stop_signal(void);

#endif

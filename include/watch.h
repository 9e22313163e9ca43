#ifndef GPUT_WATCH_H
#define GPUT_WATCH_H

#include <pthread.h>

#include "ctl.h"
#include "meter.h"

/*
 * The control connection while data flows. A thread of its own watches it,
 * so that the data loops do no work for it: when the peer leaves, sends
 * STOP or ERROR, a deadline passes or a stop is requested (^C), the watcher
 * requests the stop (xfer_request_stop) and shuts the data socket down, which
 * wakes a data call blocked in the kernel. The data path never waits longer
 * than that for anything on the control connection.
 */
enum watch_event {
	WATCH_NONE,          /* nothing happened before watch_end() */
	WATCH_SIGNAL,        /* a local stop request (^C); the client sent STOP */
	WATCH_PEER_STOP,     /* partner side: the client sent STOP */
	WATCH_PEER_CLOSED,   /* the peer closed the control connection */
	WATCH_PEER_FAILED,   /* reset, keepalive timeout, or a malformed message */
	WATCH_PEER_ERROR,    /* client side: the partner sent ERROR (msg) */
	WATCH_DEADLINE,      /* the deadline passed (the partner's --max-time) */
};

struct watch {
	int ctl, data;
	int client;          /* 1: client side: a stop request sends STOP, and
	                        RESULT may arrive while the local side runs */
	mono_ns deadline;    /* 0: none */
	/* Filled by the watcher; read them after watch_end(). */
	enum watch_event event;
	int have_result;     /* client side: RESULT arrived (in result) */
	struct ctl_msg result;
	struct ctl_msg msg;  /* the ERROR, with WATCH_PEER_ERROR */
	char err[256];       /* what happened, in words, for any event */
	/* private */
	pthread_t th;
	int done[2];
	int running;
};

/* Start watching w->ctl (fields above the line set by the caller). Returns 0,
 * or -1 with err filled. */
int  watch_begin(struct watch *w, char *err, size_t errlen);
/* Stop the watcher and wait for it. Safe to call when it never started. */
void watch_end(struct watch *w);
/* "the client closed the control connection" etc., for logs and messages. */
const char *watch_event_name(enum watch_event e);

#endif

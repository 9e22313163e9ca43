/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_WATCH_H
#define GPUT_WATCH_H

#include <pthread.h>
#include <stdio.h>

#include "wire_ctl.h"
#include "meter.h"
#include "model.h"
#include "client_plausible.h"
#include "client_prober.h"

/*
 * The control connection while data flows, and the sampler. A thread of its
 * own watches the control connection, so that the data loops do no work for
 * it: when the peer leaves, sends STOP or ERROR, a deadline passes or a stop
 * is requested (^C, a stream that died), the watcher requests the run's stop
 * and shuts every stream's socket down, which wakes a data call blocked in
 * the kernel. The same thread samples the streams' live counters at interval
 * boundaries, ends timed senders (the stop request's end), and shows
 * progress.
 */
enum watch_event {
	WATCH_NONE,          /* nothing happened before watch_end() */
	WATCH_SIGNAL,        /* a local stop request (^C); the client sent STOP */
	WATCH_PEER_STOP,     /* partner side: the client sent STOP */
	WATCH_PEER_CLOSED,   /* the peer closed the control connection */
	WATCH_PEER_FAILED,   /* reset, keepalive timeout, or a malformed message */
	WATCH_PEER_ERROR,    /* client side: the partner sent ERROR (msg) */
	WATCH_DEADLINE,      /* the deadline passed (the partner's --max-time) */
	WATCH_STREAM_FAILED, /* a stream died (stop->failed names it) */
	WATCH_NO_PROGRESS,   /* partner: the data moved less than min_bytes in
	                        progress_s (err says how much) */
};

/* Seconds of progress the watcher remembers (progress_s at most). */
#define WATCH_PROGRESS_MAX_S 255u
/* Control messages the watcher may hold for a client that reads slowly;
 * more, and the client is taken not to read at all. */
#define WATCH_OUT_MAX (64u << 10)

/* Where the watcher hands each interval it shows (this side's and, on
 * the client, the partner's, in step): the driver renders it. sd is the
 * side or stream of m it belongs to. */
typedef void watch_ival_fn(void *arg, const struct run_model *m,
                           const struct side *sd, const struct ival *iv);

/* What the sampler remembers of a stream between samples. */
struct watch_stream {
	uint64_t bytes, calls, dgrams, retrans, dups, reordered;
	int      ended;      /* its last interval is out */
};

/* A partner's interval line held back: record sd's interval index. */
struct watch_held {
	struct side *sd;
	size_t index;
};

struct watch {
	int ctl;
	struct stream *st;   /* the run's streams, nst of them */
	uint32_t nst;
	struct stopreq *stop;/* the run's */
	int client;          /* 1: client side: a stop request sends STOP, and
	                        RESULT may arrive while the local side runs */
	mono_ns deadline;    /* 0: none */
	/* Sampling; all optional (0, NULL, -1: off). */
	struct run_model *model;
	int      self;       /* model->side[self] is this side's */
	mono_ns  t0;         /* the transfer began (START) */
	mono_ns  end_at;     /* --time, sending side: xfer_end then */
	int      tcp_info;   /* TCP senders: sample each stream's TCP_INFO */
	watch_ival_fn *on_ival;  /* each interval to show (NULL: none) */
	void    *ival_arg;
	int      send_ivals; /* partner: send each interval as INTERVAL */
	int      progress;   /* show progress on stderr (a terminal) */
	int      udp_seq;    /* a UDP receiver of headed datagrams: count copies
	                        and reordering per interval */
	struct prober *lat;  /* client, --latency: each of this side's
	                        intervals gets the p50 of the probes echoed in it */
	/* Client: every message of the partner is judged against the run
	 * before it is kept or shown (client_plausible.h); plaus.p NULL: not. */
	struct plaus_run plaus;  /* window_ns is set per message */
	mono_ns  t_open;     /* the client began opening the data path */
	/* Partner: the streams together move at least min_bytes in every
	 * progress_s seconds (from START, checked each second), or the test
	 * ends (WATCH_NO_PROGRESS). progress_s 0: no check. */
	unsigned progress_s;
	uint64_t min_bytes;
	/* Filled by the watcher; read them after watch_end(). */
	enum watch_event event;
	int have_result;     /* client side: RESULT arrived (in result) */
	struct ctl_msg result;
	struct ctl_msg msg;  /* the ERROR, with WATCH_PEER_ERROR */
	char err[256];       /* what happened, in words, for any event */
	int lied;            /* client: a message of the partner was impossible
	                        (err says which field): a broken or hostile
	                        partner, not a failed transfer */
	int stop_sent;       /* client: STOP went to the partner (by the
	                        watcher, or the caller after it): only then may
	                        a RESULT say "stopped on request" (RES_STOPPED) */
	/* private */
	pthread_t th;
	int done[2];
	int running;
	struct watch_stream *ws;   /* nst of them */
	struct watch_held *held;   /* the partner's interval lines waiting for */
	size_t nheld, held_cap;    /*   this side's of the same index (show) */
	struct plaus_ivals *peer_iv; /* client: each partner stream's intervals
	                        so far */
	uint32_t peer_nst;   /* ... for this many partner streams */
	mono_ns last_t, next_tick, next_progress;
	int progress_shown;
	uint64_t progress_bytes;   /* at the last progress line, and when */
	mono_ns progress_t;
	uint64_t moved[WATCH_PROGRESS_MAX_S + 1];   /* bytes at each second */
	unsigned moved_n;    /* seconds sampled */
	mono_ns next_moved;
	uint8_t *outq;       /* INTERVALs not yet taken by the kernel */
	size_t outq_len;
};

/* Start watching w->ctl (fields above the line set by the caller). Returns 0,
 * or -1 with err filled. */
int  watch_begin(struct watch *w, char *err, size_t errlen);
/* Stop the watcher and wait for it. Safe to call when it never started. */
void watch_end(struct watch *w);
/* Free what the watcher allocated (after watch_end and the last use of
 * watch_peer_msg). */
void watch_free(struct watch *w);
/* After watch_end(): each stream's last interval that is not out yet, from
 * its exact totals (so that the intervals add up to them) to its end; shown
 * and, on the partner, sent like the others. Returns 0 or -1 (no memory). */
int  watch_last(struct watch *w);
/* Client: take one message from the partner that may come besides RESULT
 * and ERROR during or after the transfer (INTERVAL, TCPINFO, UDPSTATS, for
 * streams 1..peer_nst; ECHOSTATS) into the model.
 * Every message is checked first (client_plausible.h): an interval is shown only
 * once it is known to fit. Returns 0, or -1 with err filled (w->lied set
 * when the message was impossible, err naming the field; err starts with
 * the message's name). */
int  watch_peer_msg(struct watch *w, const struct ctl_msg *m, char *err,
                    size_t errlen);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_XFER_H
#define GPUT_XFER_H

#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>

#include "meter.h"
#include "stop.h"
#include "swin.h"
#include "xfer_params.h"

/*
 * What the data paths share (xfer_tcp.h, xfer_udp.h): a stream's state and
 * the one sending loop. The parameters are xfer_params.h's, the pattern
 * pattern.h's, the UDP datagrams' layout wire_udp.h's.
 */

/*
 * A stream: one data connection (TCP) or socket pair (UDP) and the state
 * its data loop owns. The loop writes only here; another thread (the
 * sampler) reads the live counters, which sit on a cache line of their own,
 * stored once per call with a relaxed store (a plain store on every target
 * gput runs on). Nothing is shared between streams per call but the stop
 * request, which is only read.
 */
struct xfer_live {
	_Atomic uint64_t bytes, calls, dgrams;
	_Atomic uint64_t dups, reordered;   /* UDP receiver with the header */
};
#define LIVE_SET(s, field, v) \
	atomic_store_explicit(&(s)->live.field, (v), memory_order_relaxed)
#define LIVE_GET(s, field) \
	atomic_load_explicit(&(s)->live.field, memory_order_relaxed)

struct udp_stats;
struct stream {
	_Alignas(64) struct xfer_live live;
	_Alignas(64) uint32_t id;     /* 1..N */
	int      fd;                  /* connected */
	struct xfer_params p;         /* this stream's half (its role, its cc) */
	struct stopreq *stop;         /* the run's */
	struct udp_stats *stats;      /* UDP receiver: its accounting (or NULL) */
	int      log_fd;              /* UDP receiver --log: records (-1: none) */
	/* Filled by the data loop: */
	struct gput_result r;
	mono_ns  start;               /* its window opened (0: never) */
	mono_ns  end;                 /* its data loop returned */
	int      rc;                  /* 0, or -1 with err */
	char     err[200];
	int      peer_ended;          /* rc -1 because the peer ended the data
	                                 connection (reset, closed early): the
	                                 cause is the peer's, not this side's */
	_Atomic int done;             /* r, start, end, rc are final */
	struct win_stats win;         /* --sliding-window: the data path's */
	struct {                      /* --zerocopy (TCP), the data path's own */
		uint8_t  on;          /* the sender's MSG_ZEROCOPY is on */
		uint8_t  said;        /* its ENOBUFS line is out */
		uint8_t *buf;         /* the pattern it lent pages of, until
		                         every completion is back */
		uint64_t budget;      /* set by the caller: what the stream may
		                         have lent at once, in the kernel's charge
		                         against RLIMIT_MEMLOCK (a send's pages and
		                         2 more); 0: no bound */
		uint64_t charge;      /* one send's, for -l */
		uint64_t sends;       /* sends that lent their pages */
		uint64_t nobufs;      /* sends copied: the kernel pinned no more
		                         (ENOBUFS: RLIMIT_MEMLOCK, option memory) */
		uint64_t over;        /* sends copied: over the budget */
		uint64_t done;        /* lent sends whose completion was read */
		uint64_t copied_sends;/* ... that the kernel copied after all */
		uint64_t mapped;      /* receiver: bytes mapped, not copied */
		uint64_t copied;      /* receiver: bytes it had to copy */
		uint64_t maps;        /* receiver: TCP_ZEROCOPY_RECEIVE calls */
	} zc;
};

/* Sleep until the absolute monotonic time t (the -g schedule); a stop
 * request cuts it short. Returns how late it returns (ns past t, at its
 * last look at the clock; 0 without a stop pipe, where it reads none). */
mono_ns xfer_sleep_until(const struct stopreq *st, mono_ns t);

/* Where a sender is in its stream: what a send path lays out its next
 * call from. */
struct xfer_sendpos {
	uint64_t seq;       /* writes (UDP: datagrams) made so far */
	uint64_t left;      /* bytes still to send */
	size_t   off;       /* the pattern's phase, in [0, period) */
	int64_t  t0;        /* real-time ns of write 0's slot on the schedule
	                       (timed: the data headers' send times) */
};

/* A send path: how one call is laid out (build) and made (send). send
 * returns the bytes the call took (> 0), 0 (the peer closed), or -1 with
 * errno; on success *writes are the writes (datagrams) it took and *off the
 * pattern's phase after them. refused, or NULL, takes a failure e the path
 * can recover from by changing its way (GSO refused): 1 to call again. A
 * path embeds this first and is passed by it. */
struct xfer_sendpath {
	void    (*build)(struct xfer_sendpath *sp, const struct xfer_sendpos *at);
	ssize_t (*send)(struct xfer_sendpath *sp, int fd, uint64_t *writes,
	                size_t *off);
	int     (*refused)(struct xfer_sendpath *sp, int fd, int e);
	int      timed;     /* its data headers carry send times */
	int      dgrams;    /* its writes are datagrams: counted in dgrams */
};

/* The one sending loop, whatever the path: p->data_bytes from the
 * pattern, a call at a time, -g pacing (--burst writes per gap), no clock
 * read, allocation or formatting per call. EINTR is tried again; ENOBUFS
 * (a full queue below the socket) is waited out, up to 1 ms a time, and
 * with -v counted on stderr; a stop request or --time's end stops it. The
 * live counters are stored once per call. Fills bytes, calls (system
 * calls), dgrams (a datagram path), real and CPU time. Returns 0, or -1
 * with s->err filled. */
int  xfer_send_run(struct stream *s, struct xfer_sendpath *sp);
/* The plain path over it: writes of p->len, one a call (TCP, and UDP
 * without --batch or --gso). With period = len a full write brings the
 * pattern phase back to 0, so a UDP datagram starts the pattern anew
 * unless -s made the period longer. */
int  xfer_send_loop(struct stream *s);
/* --zerocopy: one send of len bytes at buf on s, lending its pages when
 * the budget allows (completions are read first when it seems not to);
 * over the budget, or when the kernel refuses to pin more (ENOBUFS, again
 * after the completions queued were read), the send copies instead,
 * counted in s->zc (the first ENOBUFS said once on stderr). Returns
 * send()'s result. */
ssize_t xfer_zc_send(struct stream *s, const void *buf, size_t len);
/* --zerocopy: read MSG_ZEROCOPY's completions from s's error queue
 * without waiting (each covers a range of sends; the kernel marks those it
 * copied after all) into s->zc. Returns how many completed in this call. */
uint64_t xfer_zc_reap(struct stream *s);
/* ENOBUFS on fd: wait until the queue below the socket may have room, up
 * to 1 ms. */
void xfer_nobufs_wait(int fd);
/* A failed data call e of stream s while doing what ("sending",
 * "receiving"), in words a user can act on, into s->err. */
void xfer_io_error(struct stream *s, int e, const char *what);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_SWIN_H
#define GPUT_SWIN_H

#include <stddef.h>
#include <stdint.h>

/*
 * swin: the sender's side of --sliding-window, pure (no I/O, no clock: the
 * caller passes the time): which datagrams are out, their timers and the
 * retransmission timeout. Selective repeat: each datagram has its own
 * timer and is sent again alone when it runs out; an acknowledgement
 * answers one sequence number. Allocated once (swin_init); every call is
 * O(1) but the deadline heap's O(log N).
 */

/* RFC 6298's timer, in ns. The initial timeout is 1 s (2.1) and the
 * largest 60 s (2.5); the smallest is 200 ms, Linux's TCP_RTO_MIN, where
 * the RFC (2.4) asks 1 s: at a 60 ms round trip a lost datagram would
 * otherwise stall a window for 16 round trips. G, the clock's granularity,
 * is 1 ns. */
#define SWIN_RTO_INIT_NS 1000000000ull
#define SWIN_RTO_MIN_NS   200000000ull
#define SWIN_RTO_MAX_NS 60000000000ull
/* The largest window: the receiver tells a copy from a first arrival over
 * UDPACCT_WINDOW sequence numbers behind the highest, no further. */
#define SWIN_MAX 65536u

struct swin_rto {
	uint64_t srtt, rttvar;   /* ns, valid once have is set */
	uint64_t rto;            /* the timeout a send arms now, ns */
	uint64_t fixed;          /* --rto: this timeout always, no backoff
	                            (0: RFC 6298); SRTT is still measured */
	uint64_t samples;        /* round trips measured */
	int      have;           /* a first sample came */
};

/* Start: fixed_ns 0 for RFC 6298 (1 s until a sample), else that timeout. */
void swin_rto_init(struct swin_rto *r, uint64_t fixed_ns);
/* A round trip measured (2.2, 2.3): SRTT, RTTVAR and RTO anew; it also
 * ends a backoff (5.7). */
void swin_rto_sample(struct swin_rto *r, uint64_t rtt_ns);
/* A timer ran out (5.5): the timeout doubles, up to SWIN_RTO_MAX_NS. */
void swin_rto_backoff(struct swin_rto *r);

/*
 * What --sliding-window counted on one side (the result model's, the
 * renderers'). A sender fills the first block, a receiver acks_sent; the
 * receiver's unique, duplicate, misordered and missing datagrams are its
 * udp_stats (udpacct.h) and the sender's first sends.
 */
struct win_stats {
	uint32_t window;         /* N */
	uint32_t retries;        /* the retry limit (sends of one datagram
	                            beyond its first) */
	uint64_t firsts;         /* data datagrams sent for the first time */
	uint64_t resends;        /* ... sent again, each after a timeout */
	uint64_t timeouts;       /* timers that ran out (= resends) */
	uint64_t acks;           /* acknowledgements received (of this stream,
	                            whole): new + old */
	uint64_t acks_new;       /* ... the first for their datagram */
	uint64_t acks_bad;       /* ... for a datagram never sent (not in acks) */
	uint64_t srtt_ns, rto_ns;/* at the end: SRTT (0: no sample), timeout */
	uint64_t rtt_samples;    /* round trips measured */
	uint64_t rto_fixed_ns;   /* --rto (0: RFC 6298) */
	uint64_t acks_sent;      /* receiver: one per data datagram received */
	int      failed;         /* sender: the retry limit ended it */
	int      gbn;            /* sender: --go-back-n (else selective repeat) */
};

/* What an acknowledgement was. */
enum swin_ack {
	SWIN_ACK_NEW,    /* the first for a datagram out: it is delivered */
	SWIN_ACK_OLD,    /* for one already acknowledged (a copy's, or the
	                    answer to a retransmission) */
	SWIN_ACK_BAD     /* for a sequence number never sent */
};

struct swin_slot {
	uint64_t stamp;          /* its last send, ns (echoed in the ACK) */
	uint64_t deadline;       /* its timer, ns */
	uint32_t tries;          /* sends so far */
	uint32_t pos;            /* its place in the heap (UINT32_MAX: none) */
	uint8_t  acked;
};

struct swin {
	uint32_t n;              /* the window: datagrams out at most */
	uint64_t total;          /* datagrams to deliver */
	uint64_t base;           /* the lowest not acknowledged */
	uint64_t next;           /* the next new one */
	uint64_t firsts, resends, acks_new, acks_old, acks_bad, timeouts;
	/* private */
	struct swin_slot *slot;  /* n: sequence s in slot s % n */
	uint32_t *heap;          /* n: slots with a timer, earliest first */
	uint32_t heap_n;
};

/* A window of n (1 or more) datagrams over total. Returns 0, or -1 with err
 * filled (no memory). */
int      swin_init(struct swin *w, uint32_t n, uint64_t total, char *err,
                   size_t errlen);
void     swin_free(struct swin *w);
/* May a new datagram go: one is left and fewer than n are out? */
int      swin_may_send(const struct swin *w);
/* The new datagram is sent at now with timeout rto: returns its sequence. */
uint64_t swin_sent_new(struct swin *w, uint64_t now, uint64_t rto);
/* Datagram seq (out, not acknowledged) sent again at now. */
void     swin_sent_again(struct swin *w, uint64_t seq, uint64_t now,
                         uint64_t rto);
/* An acknowledgement of seq echoing stamp came at now. *rtt is set to the
 * round trip (and 1 returned in *have_rtt) when stamp is the datagram's
 * last send: a retransmitted one's too, as the echo says which send it
 * answers. */
enum swin_ack swin_acked(struct swin *w, uint64_t seq, uint64_t stamp,
                         uint64_t now, uint64_t *rtt, int *have_rtt);
/* The earliest timer (UINT64_MAX: none). */
uint64_t swin_deadline(const struct swin *w);
/* The datagram whose timer is the earliest: its sequence and sends so far. */
uint64_t swin_first_timer(const struct swin *w, uint32_t *tries);
/* Every datagram is acknowledged. */
int      swin_done(const struct swin *w);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * gput-delay.h: the state of one delay line (tools/gput-delay.c), shared
 * with its packet-ring path (tools/gput-delay-ring.c).
 */
#ifndef GPUT_DELAY_H
#define GPUT_DELAY_H

#include <linux/if_packet.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>

#define DL_BATCH   64
#define DL_HIST_US 20000           /* error histogram: 1 us buckets to 20 ms */
#define DL_MEM_CAP (256UL << 20)

typedef uint64_t mono_ns;

struct slot {
	mono_ns due;                /* departure time */
	uint64_t seq;               /* arrival order: ties leave in order */
	uint8_t *data;              /* the frame: a copy slot, or a ring frame */
	uint32_t len;
	uint32_t held;              /* ring: the delay line holds this frame */
};

struct cfg {
	const char *in, *out, *stats;
	uint64_t delay, jitter, rate, qlimit, ecn_k, spin, budget;
	uint32_t slots, maxframe;
	int reorder, prio, copy, spin_set;
};

struct stats {
	uint64_t received, forwarded, ring_drops, queue_drops, send_errors;
	uint64_t marked, oversize, late;
	uint64_t hist[DL_HIST_US + 1];
	uint64_t err_max;
};

/* the ring path: a TPACKET_V2 receive ring on IN (frames are held in it
 * while they wait) and a transmit ring on OUT */
struct ring {
	uint8_t *rx_map, *tx_map;
	uint32_t rx_fsize, rx_fpb, rx_bsize, rx_head;
	uint32_t tx_fsize, tx_fpb, tx_bsize, tx_n;
	uint64_t tx_head, tx_done;  /* frames filled, frames accounted */
};

/* the ring path's wake-ups: how late the timer wakes it (a histogram of
 * DL_WAKE_BUCKETS buckets of 4 us, halved every DL_WAKE_EPOCH samples),
 * the margin it wakes early by and spins, and the spin time it may use */
#define DL_WAKE_BUCKETS 256
#define DL_WAKE_EPOCH   256
struct wake {
	uint32_t hist[DL_WAKE_BUCKETS];
	uint32_t samples;           /* since the last estimate */
	mono_ns margin;             /* wake this early, then spin */
	mono_ns p99;                /* the last estimate of the lateness */
	mono_ns win_start, win_spin; /* this window's spin time */
	mono_ns last_spin;          /* the previous turn spun at this time */
	uint64_t win_sleeps;        /* this window's timed sleeps */
	int dense;                  /* the last window's would spin too much */
	uint64_t spin_total;        /* ns spun, all told */
	uint64_t timed;             /* timed wake-ups */
	uint64_t quota_hit;         /* windows with less spin than asked */
};

struct line {
	struct cfg c;
	int rx, tx;
	int ring;                   /* 1: the ring path runs */
	struct ring r;
	struct wake w;
	uint8_t *buf;               /* copy path: slots x stride bytes */
	size_t stride;
	struct slot *slot;
	uint32_t *heap, nheap;      /* slots waiting, min-heap on (due, seq) */
	uint32_t *freel, nfree;     /* copy path: free slots */
	uint64_t seq;
	mono_ns last_due;           /* order kept: the latest departure so far */
	/* -r: the queue of the bottleneck, FIFO of (end of service, len) */
	mono_ns busy_until;
	mono_ns *q_end;
	uint32_t *q_len, q_head, q_n;
	uint64_t q_bytes;
	uint64_t rng;
	struct stats st;
	struct tpacket_stats kst;   /* the kernel's drops at IN, summed */
};

extern volatile sig_atomic_t dl_stop_flag, dl_dump_flag;

mono_ns dl_now(clockid_t id);
void dl_die(const char *what);
void *dl_alloc(size_t n);
void dl_heap_push(struct line *l, uint32_t s);
void dl_heap_pop(struct line *l);
int dl_bottleneck(struct line *l, uint8_t *f, uint32_t len, mono_ns arr, mono_ns *due);
mono_ns dl_depart(struct line *l, mono_ns base);
void dl_record(struct line *l, mono_ns late);
void dl_write_stats(struct line *l);

/* dl_ring_open: set up the rings on sockets RX and TX (not yet bound);
 * 0, or -1 with *WHY naming the step that failed (errno set) */
int dl_ring_open(struct line *l, const char **why);
void dl_ring_run(struct line *l);

#endif

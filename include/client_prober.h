/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_CLIENT_PROBER_H
#define GPUT_CLIENT_PROBER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/socket.h>

#include "latstat.h"
#include "meter.h"
#include "wire_probe.h"

/*
 * The client's half of --latency: a thread and a UDP socket of their own
 * (never the data's) that send a probe every interval to the partner's echo
 * and record each echo's round trip. Two phases: idle (from prober_start
 * until idle_ms later, before any data) and loaded (from prober_load, the
 * transfer's START, to prober_unload, its end); between them nothing is
 * sent. Memory is one slot per probe, allocated up front for at most cap
 * probes: the run's length over the interval bounds it.
 */
struct probe_slot {
	mono_ns  sent;            /* the send time (0: not sent) */
	mono_ns  rcvd;            /* the echo's arrival (0: none yet) */
	uint64_t echo_real;       /* the partner's receive stamp, CLOCK_REALTIME
	                             ns, as it came (unchecked) */
};

enum prober_state { PR_IDLE, PR_PAUSE, PR_LOAD, PR_DRAIN, PR_DONE };

struct prober {
	int      fd;              /* connected to the partner's echo port */
	uint8_t  nonce[PROBE_NONCE_LEN];
	uint64_t interval_ns;
	uint64_t idle_ns;
	uint64_t cap;             /* slots */
	struct probe_slot *slot;
	/* arrivals in order, for the per-interval p50 read while probes go on:
	 * arr[0..narr) are slot indices, narr published with release */
	uint32_t *arr;
	_Atomic uint64_t narr;
	uint64_t arr_cursor;      /* the reader's (prober_ival_p50) */
	uint64_t *scratch;        /* the reader's: cap round trips */
	/* phases, by probe number: idle [0, idle_end), loaded [load_from,
	 * load_end) */
	uint64_t idle_end, load_from, load_end;
	uint64_t nsent;           /* probes sent so far */
	uint64_t unsent;          /* sends that failed or were skipped (late) */
	uint64_t unsent_idle;     /* ... of them in the idle phase */
	uint64_t bad_echo, dup_echo;   /* echoes that match no probe, repeats */
	int64_t  off0;            /* CLOCK_REALTIME - CLOCK_MONOTONIC at start */
	mono_ns  t_start, t_load, t_unload;
	mono_ns  max_rtt;
	/* private */
	_Atomic int state;        /* enum prober_state, set by the caller */
	int      wake[2];
	pthread_t th;
	int      running;
	char     err[200];        /* the thread's failure, if any */
};

/* Open the socket like local (the control connection's address) and
 * connect it to peer's address at port. Returns 0, or -1 with err. */
int  prober_open(struct prober *p, const struct sockaddr_storage *local,
                 const struct sockaddr_storage *peer, uint16_t port,
                 char *err, size_t errlen);
/* Start the idle phase now; room for cap probes. Returns 0, or -1 with err
 * (no memory, no thread). */
int  prober_start(struct prober *p, const uint8_t *nonce, uint32_t interval_us,
                  uint32_t idle_ms, uint64_t cap, char *err, size_t errlen);
/* When the idle phase ends (the caller waits until then). */
mono_ns prober_idle_until(const struct prober *p);
/* The loaded phase: probes from t0 (START) on. */
void prober_load(struct prober *p, mono_ns t0);
/* The transfer ended: no more probes (the thread goes on to collect the
 * outstanding echoes). */
void prober_unload(struct prober *p);
/* The transfer ended: no more probes; wait for the outstanding echoes
 * (twice the largest round trip seen, at least 200 ms, at most 3 s), then
 * stop the thread. Safe to call twice, or without a loaded phase. */
void prober_finish(struct prober *p);
/* Close everything (after prober_finish, or instead of it). */
void prober_free(struct prober *p);

/* The p50 of the round trips of the echoes that arrived in [from, to)
 * (monotonic ns), for consecutive calls with increasing windows while the
 * prober runs; *n their count. 0 when none. */
uint64_t prober_ival_p50(struct prober *p, mono_ns from, mono_ns to,
                         uint64_t *n);

/* How many probes were echoed here before t (monotonic ns), while the
 * prober runs (the arrivals published so far). */
uint64_t prober_answered_before(const struct prober *p, mono_ns t);

/* --same-clock: on one clock the partner's stamp of each echoed probe
 * lies between the probe's send and its echo's arrival here (each one-way
 * delay within [0, RTT]). Returns 0, or -1 with err naming the first probe
 * whose stamp does not and how many do not: the partner is lying, or the
 * clocks are not one (or the real-time clock was stepped during the run). */
int  prober_stamps_check(const struct prober *p, char *err, size_t errlen);

/* The result of a finished prober: the two phases. same_clock: also the
 * one-way delays. Returns 0, or -1 (no memory). */
int  prober_phases(const struct prober *p, int same_clock,
                   struct lat_phase *idle, struct lat_phase *loaded);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_PARTNER_GATE_H
#define GPUT_PARTNER_GATE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "config.h"

/*
 * The partner's admission: which clients may hold a process, kept apart
 * by stage. A client that has not passed the handshake (HELLO, PARAMS
 * authenticated and within the limits) holds one of --max-handshakes
 * places; past it, one of --max-sessions tests, first held (its data not
 * flowing yet: READY, the latency probes' idle phase, the proofs), then
 * running. One source (an IPv4 /32 and an IPv6 /64 by default,
 * --source-prefix) holds at most --max-per-source of either. The table
 * lives in shared memory: the listener admits and frees (it reaps), a
 * session moves its own place on (gate_run, one session at a time under a
 * lock the listener breaks when its holder dies; gate_flowing), so a
 * session that dies never leaks a place.
 *
 * Few sources cannot lock others out: when a stage is full, a newcomer
 * takes the oldest place of that stage not yet past it (a handshake; a
 * held test, never a running one) from the source that holds the most
 * places of the stage, if that source holds more than the newcomer's will
 * after it (at least 2 more than it holds now). Its process is killed
 * (SIGKILL) and the place is the newcomer's: a squatter from one of a few
 * addresses loses its place to a client from another, and never gains one
 * back from a source that holds fewer.
 */
enum gate_state { GATE_FREE, GATE_HANDSHAKE, GATE_HELD, GATE_RUNNING,
                  GATE_EVICTED };

/* Early random refusal (as sshd's MaxStartups start:rate:full): from half
 * of --max-handshakes on, a new client is refused with a chance that
 * grows from GATE_EARLY_PCT to 100% at the limit (unless it can take a
 * place over, above). */
#define GATE_EARLY_PCT 30u

struct gate_slot {
	pid_t pid;
	_Atomic int state;
	uint64_t seq;                   /* when admitted: the gate's count */
	struct sockaddr_storage src;
};

struct gate {
	_Atomic int lock;               /* the pid of the session in gate_run */
	unsigned max_sessions, max_handshakes, max_per_source;
	unsigned prefix4, prefix6;      /* a source: --source-prefix */
	unsigned nslots;
	uint64_t seq;                   /* admissions so far */
	/* end an evicted place's process (the listener: SIGKILL, then wait
	 * when it is its child); NULL (unit tests): nothing. evictions counts
	 * them, last_evicted is the last one's pid. */
	void (*evict)(pid_t pid);
	_Atomic unsigned long evictions;
	_Atomic int last_evicted;
	struct gate_slot slot[];
};

/* The table for limits l, in memory shared with the children. Returns it,
 * or NULL with err filled. */
struct gate *gate_new(const struct partner_limits *l, char *err, size_t errlen);
void gate_free(struct gate *g);

/* Listener: may a client from src start a handshake? rnd is a uniform
 * random number (the early refusal's draw). Returns its slot, or -1 with
 * why filled ("partner busy: ... (--max-...)"). */
int  gate_admit(struct gate *g, const struct sockaddr_storage *src,
                uint32_t rnd, char *why, size_t len);
/* Listener: slot k is served by pid (after fork), or freed (fork failed,
 * or the child with that pid ended: gate_reaped). */
void gate_bind(struct gate *g, int k, pid_t pid);
void gate_release(struct gate *g, int k);
void gate_reaped(struct gate *g, pid_t pid);

/* Session: its test is over (its results are out): the place is free for
 * another while this process lingers for the client's close. */
void gate_done(struct gate *g, int k);

/* Session: its handshake passed; its place becomes a held test's if fewer
 * than --max-sessions are held or run, or by evicting a held one (above).
 * Returns 0, or -1 with why filled (busy, or this place was evicted). g
 * NULL (--once, --inetd): always 0. */
int  gate_run(struct gate *g, int k, char *why, size_t len);
/* Session: its data flows; its place can no longer be evicted. Returns 0,
 * or -1 (it was evicted). g NULL: 0. */
int  gate_flowing(struct gate *g, int k);

#endif

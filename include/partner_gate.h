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
 * places; past it, one of --max-sessions tests. One address holds at most
 * --max-per-source of either. The table lives in shared memory: the
 * listener admits and frees (it reaps), a session moves its own place on
 * to a test (gate_run, one session at a time under a lock the listener
 * breaks when its holder dies), so a session that dies never leaks a
 * place.
 */
enum gate_state { GATE_FREE, GATE_HANDSHAKE, GATE_RUNNING };

/* Early random refusal (as sshd's MaxStartups start:rate:full): from half
 * of --max-handshakes on, a new client is refused with a chance that
 * grows from GATE_EARLY_PCT to 100% at the limit. */
#define GATE_EARLY_PCT 30u

struct gate_slot {
	pid_t pid;
	_Atomic int state;
	struct sockaddr_storage src;
};

struct gate {
	_Atomic int lock;               /* the pid of the session in gate_run */
	unsigned max_sessions, max_handshakes, max_per_source;
	unsigned nslots;
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

/* Session: its handshake passed; its place becomes a test's if fewer than
 * --max-sessions run. Returns 0, or -1 with why filled (busy). g NULL
 * (--once, --inetd): always 0. */
int  gate_run(struct gate *g, int k, char *why, size_t len);

#endif

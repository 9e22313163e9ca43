/* SPDX-License-Identifier: BSD-2-Clause */
/* partner_gate.c: the partner's admission of clients, by stage and by address. */
#include "partner_gate.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "wire_ctl.h"
#include "net.h"

struct gate *
gate_new(const struct partner_limits *l, char *err, size_t errlen)
{
	unsigned n = l->max_sessions + l->max_handshakes;
	size_t sz = sizeof(struct gate) + (size_t)n * sizeof(struct gate_slot);
	struct gate *g = mmap(NULL, sz, PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (g == MAP_FAILED) {
		snprintf(err, errlen, "mmap: %s", strerror(errno));
		return NULL;
	}
	memset(g, 0, sz);
	g->max_sessions = l->max_sessions;
	g->max_handshakes = l->max_handshakes;
	g->max_per_source = l->max_per_source;
	g->prefix4 = l->src_prefix4 ? l->src_prefix4 : PARTNER_SRC_PREFIX4;
	g->prefix6 = l->src_prefix6 ? l->src_prefix6 : PARTNER_SRC_PREFIX6;
	g->nslots = n;
	return g;
}

void
gate_free(struct gate *g)
{
	if (g != NULL)
		munmap(g, sizeof *g + (size_t)g->nslots * sizeof g->slot[0]);
}

/* A test's place: held (its data not flowing yet) or running. */
static int
is_test(int st)
{
	return st == GATE_HELD || st == GATE_RUNNING;
}

/* Slots of tests held or running. */
static unsigned
running(const struct gate *g)
{
	unsigned i, n = 0;

	for (i = 0; i < g->nslots; i++)
		n += is_test(atomic_load(&g->slot[i].state));
	return n;
}

static int
same_source(const struct gate *g, const struct sockaddr_storage *a,
            const struct sockaddr_storage *b)
{
	return net_same_prefix(a, b, g->prefix4, g->prefix6);
}

/* Places of stage st (GATE_HANDSHAKE, or the tests: GATE_HELD) that
 * src's source holds. */
static unsigned
held_by(const struct gate *g, const struct sockaddr_storage *src, int st)
{
	unsigned i, n = 0;

	for (i = 0; i < g->nslots; i++) {
		int s = atomic_load(&g->slot[i].state);

		if ((st == GATE_HANDSHAKE ? s == st : is_test(s)) &&
		    same_source(g, &g->slot[i].src, src))
			n++;
	}
	return n;
}

/* The place a newcomer from src may take in stage st (victims are in
 * state vst: GATE_HANDSHAKE or GATE_HELD): the oldest of the source that
 * holds the most places of the stage, if that is at least 2 more than
 * src's source holds (the newcomer's own slot, self, is never one of
 * the stage's). -1: none. */
static int
victim(const struct gate *g, const struct sockaddr_storage *src, int st,
       int vst, int self)
{
	unsigned i, mine = held_by(g, src, st), most = 0;
	int v = -1;

	for (i = 0; i < g->nslots; i++) {
		const struct gate_slot *c = &g->slot[i];
		unsigned n;

		if ((int)i == self || atomic_load(&c->state) != vst ||
		    same_source(g, &c->src, src))
			continue;
		n = held_by(g, &c->src, st);
		if (n < mine + 2)
			continue;
		if (n > most || (n == most && c->seq < g->slot[v].seq)) {
			most = n;
			v = (int)i;
		}
	}
	return v;
}

/* Take place v (in state vst) from its process: it can no longer move on
 * (its own compare-and-swap fails), and it is ended. Returns 1, or 0 when
 * it moved on first. */
static int
evict(struct gate *g, int v, int vst)
{
	int expect = vst;
	pid_t pid = g->slot[v].pid;

	if (!atomic_compare_exchange_strong(&g->slot[v].state, &expect,
	    GATE_EVICTED))
		return 0;
	atomic_fetch_add(&g->evictions, 1);
	atomic_store(&g->last_evicted, (int)pid);
	if (pid > 0 && g->evict != NULL)
		g->evict(pid);
	return 1;
}

/* Is a new handshake refused early, with h of at most full under way? */
static int
early_refusal(unsigned h, unsigned full, uint32_t rnd)
{
	unsigned start = full / 2;
	uint64_t pct;

	if (h < start || full <= 1)
		return 0;
	pct = GATE_EARLY_PCT + (uint64_t)(100 - GATE_EARLY_PCT) * (h - start) /
	    (full - start);
	return (uint64_t)rnd % 100 < pct;
}

/* Slot k, free or evicted and its process gone, is src's handshake. */
static int
take(struct gate *g, int k, const struct sockaddr_storage *src)
{
	int holder = (int)g->slot[k].pid;

	/* an evicted handshake that died in gate_run leaves the lock */
	if (holder != 0)
		(void)atomic_compare_exchange_strong(&g->lock, &holder, 0);
	g->slot[k].src = *src;
	g->slot[k].pid = 0;
	g->slot[k].seq = ++g->seq;
	atomic_store(&g->slot[k].state, GATE_HANDSHAKE);
	return k;
}

int
gate_admit(struct gate *g, const struct sockaddr_storage *src, uint32_t rnd,
           char *why, size_t len)
{
	unsigned i, same = 0, hand = 0, run = 0;
	int free_k = -1, v;
	char a[NET_ADDRSTRLEN];

	for (i = 0; i < g->nslots; i++) {
		int st = atomic_load(&g->slot[i].state);

		if (st == GATE_FREE) {
			if (free_k == -1)
				free_k = (int)i;
			continue;
		}
		if (st == GATE_EVICTED)
			continue;
		hand += st == GATE_HANDSHAKE;
		run += is_test(st);
		same += same_source(g, &g->slot[i].src, src);
	}
	if (same >= g->max_per_source) {
		snprintf(why, len, CTL_BUSY_TEXT ": %u tests or handshakes from %s, "
		         "at most %u (--max-per-source)", same,
		         net_ntop(src, a, sizeof a), g->max_per_source);
		return -1;
	}
	/* all tests' places taken and none this client could take over */
	if (run >= g->max_sessions && victim(g, src, GATE_HELD, GATE_HELD,
	    -1) == -1) {
		snprintf(why, len, CTL_BUSY_TEXT ": %u tests running, at most %u "
		         "(--max-sessions)", run, g->max_sessions);
		return -1;
	}
	if (hand < g->max_handshakes && !early_refusal(hand, g->max_handshakes,
	    rnd) && free_k != -1)
		return take(g, free_k, src);
	v = victim(g, src, GATE_HANDSHAKE, GATE_HANDSHAKE, -1);
	if (v != -1 && evict(g, v, GATE_HANDSHAKE))
		return take(g, v, src);
	snprintf(why, len, CTL_BUSY_TEXT ": %u clients in the handshake, "
	         "refused early from %u, all at %u (--max-handshakes)", hand,
	         g->max_handshakes / 2, g->max_handshakes);
	return -1;
}

void
gate_bind(struct gate *g, int k, pid_t pid)
{
	g->slot[k].pid = pid;
}

void
gate_release(struct gate *g, int k)
{
	int holder = (int)g->slot[k].pid;

	atomic_store(&g->slot[k].state, GATE_FREE);
	/* a session that died in gate_run leaves the lock to no one */
	if (holder != 0)
		(void)atomic_compare_exchange_strong(&g->lock, &holder, 0);
	g->slot[k].pid = 0;
}

void
gate_reaped(struct gate *g, pid_t pid)
{
	unsigned i;

	for (i = 0; i < g->nslots; i++)
		if (g->slot[i].pid == pid &&
		    atomic_load(&g->slot[i].state) != GATE_FREE) {
			gate_release(g, (int)i);
			return;
		}
}

/* Tries at the lock before a session gives up (busy): another session
 * holds it a few microseconds, and a dead one only until it is reaped. */
#define GATE_LOCK_TRIES 100000u

void
gate_done(struct gate *g, int k)
{
	int st;

	if (g == NULL)
		return;
	st = atomic_load(&g->slot[k].state);
	/* an evicted place is the listener's to free */
	if (is_test(st))
		(void)atomic_compare_exchange_strong(&g->slot[k].state, &st,
		    GATE_FREE);
}

int
gate_flowing(struct gate *g, int k)
{
	int st = GATE_HELD;

	if (g == NULL)
		return 0;
	return atomic_compare_exchange_strong(&g->slot[k].state, &st,
	    GATE_RUNNING) ? 0 : -1;
}

/* Under the lock: slot k (a handshake that passed) becomes a held test's,
 * taking over another's held place when all are taken. Returns 0, 1 (all
 * taken: busy), or -1 (k itself was evicted). */
static int
to_test(struct gate *g, int k, unsigned *r)
{
	int hs = GATE_HANDSHAKE, v = -1;

	*r = running(g);
	if (*r >= g->max_sessions) {
		v = victim(g, &g->slot[k].src, GATE_HELD, GATE_HELD, k);
		if (v == -1)
			return 1;
	}
	if (!atomic_compare_exchange_strong(&g->slot[k].state, &hs, GATE_HELD))
		return -1;
	if (v != -1 && !evict(g, v, GATE_HELD)) {
		atomic_store(&g->slot[k].state, GATE_HANDSHAKE);
		return 1;               /* it started running: no place */
	}
	return 0;
}

int
gate_run(struct gate *g, int k, char *why, size_t len)
{
	int none = 0, me = (int)getpid(), rc;
	unsigned tries, r;

	if (g == NULL)
		return 0;
	for (tries = 0; !atomic_compare_exchange_weak(&g->lock, &none, me);
	    tries++) {
		none = 0;
		if (tries >= GATE_LOCK_TRIES) {
			snprintf(why, len, CTL_BUSY_TEXT ": its table of tests is "
			         "locked");
			return -1;
		}
		sched_yield();
	}
	rc = to_test(g, k, &r);
	atomic_store(&g->lock, 0);
	if (rc == -1) {
		snprintf(why, len, CTL_BUSY_TEXT ": this client's place was given "
		         "to a client of another source");
		return -1;
	}
	if (rc == 1) {
		snprintf(why, len, CTL_BUSY_TEXT ": %u tests running, at most %u "
		         "(--max-sessions)", r, g->max_sessions);
		return -1;
	}
	return 0;
}

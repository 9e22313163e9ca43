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
	g->nslots = n;
	return g;
}

void
gate_free(struct gate *g)
{
	if (g != NULL)
		munmap(g, sizeof *g + (size_t)g->nslots * sizeof g->slot[0]);
}

/* Slots of tests running. */
static unsigned
running(const struct gate *g)
{
	unsigned i, n = 0;

	for (i = 0; i < g->nslots; i++)
		n += atomic_load(&g->slot[i].state) == GATE_RUNNING;
	return n;
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

int
gate_admit(struct gate *g, const struct sockaddr_storage *src, uint32_t rnd,
           char *why, size_t len)
{
	unsigned i, same = 0, hand = 0, run = 0;
	int free_k = -1;
	char a[NET_ADDRSTRLEN];

	for (i = 0; i < g->nslots; i++) {
		int st = atomic_load(&g->slot[i].state);

		if (st == GATE_FREE) {
			if (free_k == -1)
				free_k = (int)i;
			continue;
		}
		hand += st == GATE_HANDSHAKE;
		run += st == GATE_RUNNING;
		same += net_same_addr(&g->slot[i].src, src);
	}
	if (same >= g->max_per_source) {
		snprintf(why, len, CTL_BUSY_TEXT ": %u tests or handshakes from %s, "
		         "at most %u (--max-per-source)", same,
		         net_ntop(src, a, sizeof a), g->max_per_source);
		return -1;
	}
	if (run >= g->max_sessions) {
		snprintf(why, len, CTL_BUSY_TEXT ": %u tests running, at most %u "
		         "(--max-sessions)", run, g->max_sessions);
		return -1;
	}
	if (hand >= g->max_handshakes || early_refusal(hand, g->max_handshakes,
	    rnd) || free_k == -1) {
		snprintf(why, len, CTL_BUSY_TEXT ": %u clients in the handshake, "
		         "refused early from %u, all at %u (--max-handshakes)", hand,
		         g->max_handshakes / 2, g->max_handshakes);
		return -1;
	}
	g->slot[free_k].src = *src;
	g->slot[free_k].pid = 0;
	atomic_store(&g->slot[free_k].state, GATE_HANDSHAKE);
	return free_k;
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
	if (g != NULL)
		atomic_store(&g->slot[k].state, GATE_FREE);
}

int
gate_run(struct gate *g, int k, char *why, size_t len)
{
	int none = 0, me = (int)getpid();
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
	r = running(g);
	if (r < g->max_sessions)
		atomic_store(&g->slot[k].state, GATE_RUNNING);
	atomic_store(&g->lock, 0);
	if (r >= g->max_sessions) {
		snprintf(why, len, CTL_BUSY_TEXT ": %u tests running, at most %u "
		         "(--max-sessions)", r, g->max_sessions);
		return -1;
	}
	return 0;
}

/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_PARTNER_RATELOG_H
#define GPUT_PARTNER_RATELOG_H

#include <stdint.h>

/*
 * The partner's refusals are logged at a bounded rate, per reason, as
 * sshd and the kernel do: a token bucket per reason holds RATELOG_BURST
 * lines and refills one every RATELOG_EVERY_NS; a refusal that finds it
 * empty is counted, not logged, and the next line of that reason is
 * preceded by "N similar messages suppressed". Every refusal is still
 * answered (ERROR) and counted: only the log is bounded, to about
 * RATELOG_BURST + (1e9 / RATELOG_EVERY_NS) lines per second per reason.
 */
#define RATELOG_BURST    5u
#define RATELOG_EVERY_NS 500000000ull  /* 2 lines per second per reason */

enum ratelog_reason {
	RATELOG_ALLOW,          /* not in --allow */
	RATELOG_PER_SOURCE,     /* --max-per-source */
	RATELOG_SESSIONS,       /* --max-sessions */
	RATELOG_HANDSHAKES,     /* --max-handshakes */
	RATELOG_EVICT,          /* a place taken over (partner_gate.h) */
	RATELOG_OTHER,
	RATELOG_NREASONS
};

struct ratelog_bucket {
	uint64_t last_ns;       /* when tokens were last added */
	unsigned tokens;
	int primed;             /* the bucket was filled once */
	uint64_t suppressed;    /* refusals not logged since the last line */
};

struct ratelog {
	struct ratelog_bucket b[RATELOG_NREASONS];
};

/* The reason of a refusal's text: by the option it names. */
enum ratelog_reason ratelog_reason(const char *why);

/* May a line of reason r go out at now_ns (CLOCK_MONOTONIC)? 1: yes, and
 * *suppressed is set to the lines of r not logged since the last one (0
 * for none; the count starts again); 0: no, and this one is counted. */
int ratelog_allow(struct ratelog *rl, enum ratelog_reason r, uint64_t now_ns,
                  uint64_t *suppressed);

#endif

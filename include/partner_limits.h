/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_PARTNER_LIMITS_H
#define GPUT_PARTNER_LIMITS_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "xfer_params.h"

/* A test must make progress: its streams together move at least
 * PARTNER_MIN_RATE bytes a second, over every PARTNER_PROGRESS_S seconds
 * (a UDP receiver's window is longer by its idle timeout, so that a sender
 * that ended is seen to end first). A paced test whose schedule is slower
 * and lasts that long is refused at once. */
/* --max-rate holds over any 100 ms, to within 10 ms at the rate: a burst
 * (all streams' together) takes at most PARTNER_BURST_MS at --max-rate, and
 * a sender that runs later than PARTNER_SLIP_MS moves its schedule on
 * rather than catching up. */
#define PARTNER_BURST_MS     5u
#define PARTNER_SLIP_MS      5u
#define PARTNER_MIN_RATE     1000u
#define PARTNER_PROGRESS_S   10u
/* A test's place before its data flows: the handshake's deadline (10 s
 * from the connection) bounds it, and the latency probes' idle phase,
 * which extends that deadline, holds it only while probes arrive: a gap
 * longer than this ends the session (partner_echo.h). The longest probe
 * interval is 1 s. */
#define PARTNER_HOLD_QUIET_MS 4000u

/* --zerocopy: a session's sending streams together keep at most this much
 * lent to the kernel at once, in its charge against the partner user's
 * RLIMIT_MEMLOCK (which all sessions share: 8 MiB for nobody on Debian
 * 12); a send beyond it copies. 4 sessions (--max-sessions) lend half. */
#define PARTNER_ZC_BUDGET    (1u << 20)

/* Is p within the partner's limits l? Returns 0, or -1 with a reason that
 * names the limit in why ("... (--max-bytes)"). */
int session_check_limits(const struct partner_limits *l,
                         const struct xfer_params *p, char *why, size_t len);

/* --affinity after the host: the partner's data threads go only where this
 * process may run. Returns 1 (refused, why in err) or 0. */
int partner_cpus_refused(uint64_t cpus, char *err, size_t errlen);

/* --cc: every name of p's list that a stream will use is one the host
 * offers and one this partner can set (c->cc_allowed, else what an
 * unprivileged process may pick). Returns 1 (refused, why in err) or 0. */
int partner_ccs_refused(const struct config *c, const struct xfer_params *p,
                        char *err, size_t errlen);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_CLIENT_MULTI_H
#define GPUT_CLIENT_MULTI_H

#include "config.h"

/* After a stop (^C, SIGTERM), how long the partners' processes have to end
 * and print what they measured before they are killed: each waits
 * CLIENT_STOP_MS for its partner's partial results, or a control exchange
 * in progress ends at its own deadline. */
#define MULTI_STOP_MS 5000

/*
 * gput with several partners (c->npartners > 1): one process per partner,
 * all at once, each the single-partner client (run_client) with its own
 * host, port, remote options and line tag '1' + its index. Their interval
 * lines are relayed as they come, whole and prefixed with the tag; their
 * messages on standard error, whole lines; their results, once every
 * partner is done, in partner order (gput(1), SEVERAL PARTNERS).
 * Returns the exit status: 0 when every partner succeeded, 130 when
 * interrupted (or a partner was), else 1.
 */
int run_multi(const struct config *c);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_PARTNER_BUDGET_H
#define GPUT_PARTNER_BUDGET_H

#include <stdint.h>

#include "xfer_params.h"

/*
 * The partner's memory for one test, counted before any of it is taken:
 * every allocation a client's PARAMS can make larger. Per stream: its
 * thread's stack (with more than one), the data buffer and pattern (the
 * -c pattern too), a batch's buffers (--batch, --gso: sent and received),
 * the UDP accounting window, and its intervals (as many as --max-time
 * holds at the --interval asked); per test a fixed part (the control
 * messages held for a slow client, the stream table). Socket buffers
 * (-w) are the kernel's, capped by net.core.[rw]mem_max, and not counted.
 */
struct budget {
	uint64_t stack, data, batch, ivals, fixed;      /* per stream but fixed */
	uint64_t total;                                 /* the test's */
};

/* What test p takes on a partner that runs tests at most max_time_s. */
void budget_need(const struct xfer_params *p, unsigned max_time_s,
                 struct budget *b);

#endif

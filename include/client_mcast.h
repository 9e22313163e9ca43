/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_CLIENT_MCAST_H
#define GPUT_CLIENT_MCAST_H

#include "config.h"

/*
 * gput -m group partner...: a control connection to every partner from
 * this one process, each partner joining the group; then one UDP stream to
 * the group and its end markers; then every partner's results. Prints the
 * sender's line once (l) and a line per partner (1, 2, ...), each with its
 * own arrivals (gput(1), MULTICAST). Returns the exit status: 0, 130 when
 * interrupted, else 1 (a partner failed: its one-line error on stderr).
 */
int run_mcast(const struct config *c);

#endif

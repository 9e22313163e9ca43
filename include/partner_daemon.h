/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_PARTNER_DAEMON_H
#define GPUT_PARTNER_DAEMON_H

#include "config.h"

/* Retries of an accept that keeps failing (no descriptors, no memory) back
 * off from the first delay to the last. */
#define ACCEPT_BACKOFF_MIN_MS  10
#define ACCEPT_BACKOFF_MAX_MS  1000

/*
 * gput -i: listen on c->port (0: a free one; or the socket systemd passes),
 * drop root, announce "listening on ADDR port N" on stderr, and serve
 * clients until killed, each in its own child process, at most
 * --max-sessions at once. With --once, serve one client in this process and
 * return its session's status (0 or 1); with --inetd, serve the connection
 * on standard input. Otherwise returns only on a setup failure: 1.
 */
int run_daemon(const struct config *c);

#endif

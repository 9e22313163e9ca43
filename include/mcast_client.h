#ifndef GPUT_MCAST_CLIENT_H
#define GPUT_MCAST_CLIENT_H

#include <stddef.h>

#include "cli.h"

/* An option of -m's: which is 'm' (-m group: also makes the test UDP),
 * 't' (--ttl n) or 'p' (--mport port). Returns 0, or -1 with why filled. */
int mcast_cli_opt(struct config *c, int which, const char *arg, char *why,
                  size_t len);

/* The options -m cannot be used with, and --ttl or --mport without it.
 * Returns 0, or -1 with a one-line reason in err (a usage error). */
int mcast_cli_check(const struct config *c, char *err, size_t errlen);

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

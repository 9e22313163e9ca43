/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_CLI_MCAST_H
#define GPUT_CLI_MCAST_H

#include <stddef.h>

#include "config.h"

/* -m, --ttl and --mport (gput(1), MULTICAST): their values into c, and what
 * they cannot be used with. */

/* An option of -m's: which is 'm' (-m group: also makes the test UDP),
 * 't' (--ttl n) or 'p' (--mport port). Returns 0, or -1 with why filled. */
int cli_mcast_opt(struct config *c, int which, const char *arg, char *why,
                  size_t len);

/* The options -m cannot be used with, and --ttl or --mport without it.
 * Returns 0, or -1 with err filled. */
int cli_mcast_check(const struct config *c, char *err, size_t errlen);

#endif

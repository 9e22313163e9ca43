/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef GPUT_PARTNER_CCPOLICY_H
#define GPUT_PARTNER_CCPOLICY_H

#include <stddef.h>

/*
 * The congestion controls a partner (gput -i) lets its clients ask for
 * (--cc): what it can really set, found once at start, after it dropped
 * privileges, by setting each on a socket of its own. An unprivileged
 * process may only pick from net.ipv4.tcp_allowed_congestion_control, so a
 * partner running as nobody offers those (and the host's default); one
 * that keeps root offers all the host has.
 */

#define CCPOLICY_MAX 256    /* a space-separated list of names */

/* The names of list (a comma list, --allow-cc; NULL: every one the host
 * offers) that a TCP socket of this process takes, into allowed, space
 * separated; the others into refused. Returns 0, or -1 with err filled
 * (the host's list cannot be read, or nothing can be set at all). */
int ccpolicy_probe(const char *list, char *allowed, size_t alen,
                   char *refused, size_t rlen, char *err, size_t errlen);

/* Is name one of the space-separated allowed? */
int ccpolicy_allows(const char *allowed, const char *name);

#endif
